/**
 * The operator's policy for runs that users of a shared server create (pure): the models they
 * may pick (by default only the one the server was started with) and a ceiling per budget.
 * A request beyond it is refused with a 403 that names the limit; a budget the user did not
 * set is brought down to its ceiling, so the server's defaults never exceed the operator's word.
 */
import { BUDGET_LIMITS, type Budgets, resolveBudgets } from "../../core/budgets.js";
import { UserError } from "../../core/errors.js";
import type { RunRequest } from "../../ports/store.js";
import { HttpError } from "./errors.js";

export interface RunPolicy {
  /** Model specs users may pick (`provider:model`, `offline`, `none`). */
  models: readonly string[];
  /** The most a user may ask for, per budget. */
  ceilings: Readonly<Partial<Budgets>>;
}

/** `name=value` (a budget name of `Budgets`, a whole number within its hard limits) into a ceiling; UserError otherwise. */
export function parseCeiling(text: string, previous: Partial<Budgets> = {}): Partial<Budgets> {
  const match = /^([A-Za-z]+)=(\d+)$/.exec(text.trim());
  const name = match?.[1] as keyof Budgets | undefined;
  if (!match || name === undefined || !(name in BUDGET_LIMITS))
    throw new UserError(
      `--max-budget takes name=value with a budget name (${Object.keys(BUDGET_LIMITS).join(", ")}); got "${text}"`,
    );
  const value = Number(match[2]);
  const [min, max] = BUDGET_LIMITS[name];
  if (value < min || value > max)
    throw new UserError(`--max-budget ${name} must be within ${min}..${max}; got ${value}`);
  return { ...previous, [name]: value };
}

/** Refuses (403) a model spec outside the policy's allow-list. */
export function checkModel(model: string, policy: RunPolicy): void {
  if (!policy.models.includes(model))
    throw new HttpError(
      403,
      "model_not_allowed",
      `the model ${model} is not offered by this server; pick one of: ${policy.models.join(", ")}`,
      { field: "model" },
    );
}

/**
 * `request` under `policy`: refused (403) for a model outside the allow-list or a budget the
 * user asked beyond its ceiling (`asked`: the budgets the body set); the other budgets are
 * capped at their ceilings.
 */
export function underPolicy(request: RunRequest, asked: Partial<Budgets>, policy: RunPolicy): RunRequest {
  checkModel(request.model, policy);
  const budgets: Budgets = { ...request.budgets };
  for (const [name, ceiling] of Object.entries(policy.ceilings) as [keyof Budgets, number | undefined][]) {
    if (ceiling === undefined) continue;
    const wanted = asked[name];
    if (wanted !== undefined && wanted > ceiling)
      throw new HttpError(
        403,
        "budget_over_limit",
        `budgets.${name} ${wanted} is over this server's limit of ${ceiling} per run`,
        { field: `budgets.${name}` },
      );
    if (budgets[name] > ceiling) budgets[name] = ceiling;
  }
  const checked = resolveBudgets(budgets);
  if (!checked.ok)
    throw new HttpError(403, "budget_over_limit", `under this server's limits: ${checked.error}`, { field: "budgets" });
  return { ...request, budgets: checked.value };
}
