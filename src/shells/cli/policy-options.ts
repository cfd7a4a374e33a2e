/** The operator's policy flags of `assay serve` and `assay mcp` (added by addPolicyOptions, options.ts) read into a policy (see run-policy.ts). */
import type { Budgets } from "../../core/budgets.js";
import { policyFrom, type RunPolicy, requirePrices } from "../run-policy.js";
import type { ConfigFile } from "./config-file.js";
import { modelSpec, resolveModel } from "./model-choice.js";

/** The flags as commander parses them. */
export interface PolicyFlags {
  /** Model specs users may pick besides `--model` (`--allow-model`, repeatable). */
  allowModel?: string[];
  /** Budget ceilings per run (`--max-budget name=value`, repeatable). */
  maxBudget?: Partial<Budgets>;
  /** USD one user's runs may spend in a day (`--max-cost-per-day`). */
  maxCostPerDay?: number;
}

/**
 * The operator's policy of a shared server (`assay serve`, `assay mcp`): the config file's
 * `policy` section under the flags (models add up; a flag's ceiling wins). With a cost limit,
 * every model offered must have a price, or the limit could not be kept.
 */
export function serverPolicy(
  defaultModel: string,
  file: ConfigFile | undefined,
  flags: PolicyFlags,
  environment: Record<string, string | undefined>,
): RunPolicy {
  const perDay = flags.maxCostPerDay ?? file?.policy?.maxCostUsdPerDay;
  const policy = policyFrom({
    defaultModel,
    models: [...(file?.policy?.models ?? []), ...(flags.allowModel ?? [])].map((spec) => modelSpec(spec, environment)),
    ceilings: { ...file?.policy?.maxBudgets, ...flags.maxBudget },
    ...(perDay === undefined ? {} : { maxCostUsdPerDay: perDay }),
  });
  requirePrices(policy, (spec) => resolveModel(spec, environment));
  return policy;
}
