/**
 * The operator's policy for runs that users of a shared server (`assay serve`, `assay mcp`)
 * create (pure): the models they may pick (by default only the one the server was started
 * with), a ceiling per budget and run (the cost one, `maxCostUsd`, included), and a cost
 * ceiling per user and day. A request beyond it is refused with an error that names the
 * limit; a budget the user did not set is brought down to its ceiling, so the server's
 * defaults never exceed the operator's word.
 */
import { type Budgets, budgetName, checkBudget, parseBudgetAssignment, resolveBudgets } from "../core/budgets.js";
import { UserError } from "../core/errors.js";
import { formatUsd } from "../core/usage.js";
import type { Model } from "../ports/model.js";
import type { RunRequest } from "../ports/store.js";

export interface RunPolicy {
  /** Model specs users may pick (`provider:model`, `offline`, `none`). */
  models: readonly string[];
  /** The most a user may ask for, per budget and run. */
  ceilings: Readonly<Partial<Budgets>>;
  /** The most one user's runs may spend on models in a day (UTC), in USD. */
  maxCostUsdPerDay?: number;
}

export type PolicyCode = "model_not_allowed" | "budget_over_limit" | "daily_cost_over_limit";

/** A request the policy refuses (HTTP: 403 with `code`; MCP: a tool error), naming the limit and the field. */
export class PolicyError extends UserError {
  readonly code: PolicyCode;
  readonly field: string;

  constructor(code: PolicyCode, message: string, field: string) {
    super(message);
    this.name = "PolicyError";
    this.code = code;
    this.field = field;
  }
}

/** What a user has spent and holds when a run is created (see `spendOf`). */
export interface UserSpend {
  /** USD spent by the user's generations since the start of the day (UTC). */
  todayUsd: number;
  /** USD the user's runs in progress may still spend (their cost budgets less what they spent). */
  heldUsd: number;
  /** Generations of unknown price today: the spend is not known. */
  unpricedToday: number;
}

/** The start (00:00 UTC) of the day of `now` (ms since the epoch), as an ISO time. */
export function dayStart(now: number): string {
  const day = new Date(now);
  day.setUTCHours(0, 0, 0, 0);
  return day.toISOString();
}

/** `--max-budget name=value` (a budget name, a value within its hard limits) into a ceiling; UserError otherwise. */
export function parseCeiling(text: string, previous: Partial<Budgets> = {}): Partial<Budgets> {
  const assignment = parseBudgetAssignment(text);
  if (!assignment.ok) throw new UserError(`--max-budget: ${assignment.error}`);
  return { ...previous, [assignment.value.name]: assignment.value.value };
}

/** The policy a config file's `policy` section and the flags give (flags win, models add up); UserError when a value is wrong. */
export function policyFrom(options: {
  defaultModel: string;
  models?: readonly string[];
  ceilings?: Partial<Budgets>;
  maxCostUsdPerDay?: number;
}): RunPolicy {
  for (const [name, value] of Object.entries(options.ceilings ?? {})) {
    const known = budgetName(name);
    if (!known.ok) throw new UserError(`policy: ${known.error}`);
    const checked = checkBudget(known.value, value as number);
    if (!checked.ok) throw new UserError(`policy: ${checked.error}`);
  }
  const perDay = options.maxCostUsdPerDay;
  if (perDay !== undefined && !(Number.isFinite(perDay) && perDay > 0))
    throw new UserError(`policy: the cost ceiling per user and day must be a positive number of USD (got ${perDay})`);
  return {
    models: [...new Set([options.defaultModel, ...(options.models ?? [])])],
    ceilings: { ...(options.ceilings ?? {}) },
    ...(perDay === undefined ? {} : { maxCostUsdPerDay: perDay }),
  };
}

/** Whether runs under `policy` carry a cost budget (a ceiling per run or per day). */
export const limitsCost = (policy: RunPolicy): boolean =>
  policy.ceilings.maxCostUsd !== undefined || policy.maxCostUsdPerDay !== undefined;

/**
 * With a cost limit, refuses (UserError) a policy that offers a model without a price: its runs
 * could make no call at all (the Host cannot keep a spend it cannot count). `none` makes no call.
 */
export function requirePrices(policy: RunPolicy, modelOf: (spec: string) => Model | undefined): void {
  if (!limitsCost(policy)) return;
  for (const spec of policy.models) {
    const model = modelOf(spec);
    if (model !== undefined && model.cost?.({ inputTokens: 1, outputTokens: 1 }) === undefined)
      throw new UserError(
        `the model ${spec} has no price, so a cost limit (maxCostUsd, the cost per day) cannot be kept for it: give its price in ASSAY_PRICES (docs/models.md), or do not offer it`,
      );
  }
}

/** Refuses a model spec outside the policy's allow-list. */
export function checkModel(model: string, policy: RunPolicy): void {
  if (!policy.models.includes(model))
    throw new PolicyError(
      "model_not_allowed",
      `the model ${model} is not offered by this server; pick one of: ${policy.models.join(", ")}`,
      "model",
    );
}

/**
 * `request` under `policy`: refused for a model outside the allow-list, a budget the user
 * asked beyond its ceiling (`asked`: the budgets the body set), or a day whose cost ceiling
 * the user's spend and held budgets (`spend`) leave nothing of; the other budgets are capped
 * at their ceilings, and the run's cost budget at what is left of the day.
 */
export function underPolicy(
  request: RunRequest,
  asked: Partial<Budgets>,
  policy: RunPolicy,
  spend: UserSpend = { todayUsd: 0, heldUsd: 0, unpricedToday: 0 },
): RunRequest {
  checkModel(request.model, policy);
  const budgets: Budgets = { ...request.budgets };
  for (const [name, ceiling] of Object.entries(policy.ceilings) as [keyof Budgets, number | undefined][]) {
    if (ceiling === undefined) continue;
    const wanted = asked[name];
    if (wanted !== undefined && wanted > ceiling)
      throw new PolicyError(
        "budget_over_limit",
        `budgets.${name} ${wanted} is over this server's limit of ${ceiling} per run`,
        `budgets.${name}`,
      );
    const current = budgets[name];
    if (current === undefined || current > ceiling) budgets[name] = ceiling;
  }
  const perDay = policy.maxCostUsdPerDay;
  if (perDay !== undefined) {
    if (spend.unpricedToday > 0)
      throw new PolicyError(
        "daily_cost_over_limit",
        `your spend today is not known (${spend.unpricedToday} model calls of unknown price), so this server's limit of ${formatUsd(perDay)} a day cannot be kept; try again after 00:00 UTC`,
        "budgets.maxCostUsd",
      );
    const left = perDay - spend.todayUsd - spend.heldUsd;
    const held = spend.heldUsd > 0 ? ` and your runs in progress hold ${formatUsd(spend.heldUsd)}` : "";
    if (left < 0.0001)
      throw new PolicyError(
        "daily_cost_over_limit",
        `you have spent ${formatUsd(spend.todayUsd)} today${held}, all of this server's limit of ${formatUsd(perDay)} a day; try again after 00:00 UTC`,
        "budgets.maxCostUsd",
      );
    const wanted = asked.maxCostUsd;
    if (wanted !== undefined && wanted > left)
      throw new PolicyError(
        "daily_cost_over_limit",
        `budgets.maxCostUsd ${wanted} is over what is left of this server's limit of ${formatUsd(perDay)} a day: ${formatUsd(left)} (spent ${formatUsd(spend.todayUsd)} today${held})`,
        "budgets.maxCostUsd",
      );
    budgets.maxCostUsd = Math.min(budgets.maxCostUsd ?? left, left);
  }
  const checked = resolveBudgets(budgets);
  if (!checked.ok)
    throw new PolicyError("budget_over_limit", `under this server's limits: ${checked.error}`, "budgets");
  return { ...request, budgets: checked.value };
}
