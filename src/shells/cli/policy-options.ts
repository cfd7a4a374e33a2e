/** The operator's policy flags, one definition for `assay serve` and `assay mcp` (see run-policy.ts). */
import { type Command, InvalidArgumentError } from "commander";
import type { Budgets } from "../../core/budgets.js";
import { parseCeiling, policyFrom, type RunPolicy, requirePrices } from "../run-policy.js";
import type { ConfigFile } from "./config-file.js";
import { modelSpec, resolveModel } from "./model-choice.js";
import { repeatable } from "./run-request.js";

/** The flags as commander parses them. */
export interface PolicyFlags {
  /** Model specs users may pick besides `--model` (`--allow-model`, repeatable). */
  allowModel?: string[];
  /** Budget ceilings per run (`--max-budget name=value`, repeatable). */
  maxBudget?: Partial<Budgets>;
  /** USD one user's runs may spend in a day (`--max-cost-per-day`). */
  maxCostPerDay?: number;
}

function positiveUsd(value: string): number {
  const parsed = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value.trim()) || !(parsed > 0))
    throw new InvalidArgumentError("expected an amount of USD, e.g. 5 or 0.5");
  return parsed;
}

/** Adds `--allow-model`, `--max-budget` and `--max-cost-per-day` to `command`. */
export function addPolicyOptions(command: Command): Command {
  return command
    .option(
      "--allow-model <spec>",
      "another model users may pick (repeatable; by default only the --model one), billed to this server's keys",
      repeatable,
    )
    .option(
      "--max-budget <name=value>",
      "the most a user may set a budget to per run, e.g. maxSources=20, wallClockMs=600000 or maxCostUsd=0.5 (repeatable; defaults above it are lowered to it)",
      (value: string, previous?: Partial<Budgets>) => {
        try {
          return parseCeiling(value, previous);
        } catch (error) {
          throw new InvalidArgumentError(error instanceof Error ? error.message : String(error));
        }
      },
    )
    .option(
      "--max-cost-per-day <usd>",
      "the most one user's runs may spend on models in a day (UTC), e.g. 5; each run's cost budget is held against it",
      positiveUsd,
    );
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
