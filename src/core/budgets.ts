/**
 * Run budgets (seed 004 "Budgets And Terminal Behavior"). Pure.
 * Every figure is a maximum, never a target: a run that finds enough stops early.
 */
import { err, ok, type Result } from "./result.js";
import { formatUsd } from "./usage.js";

export interface Budgets {
  /** Whole-run wall clock, from the run origin. */
  wallClockMs: number;
  /** Part of the wall clock kept back to validate and publish from persisted state. */
  publishReserveMs: number;
  /** Model generations (planner plus synthesis). */
  maxGenerations: number;
  /** Model turns of a tool-calling loop (the simple strategy): each turn is one model call. */
  maxTurns: number;
  /** Longest one model call may take; the Host cuts a call off at this limit. */
  modelCallTimeoutMs: number;
  /** Search calls, the bootstrap search included. */
  maxSearchCalls: number;
  /** Fetch attempts, failed ones included. */
  maxFetchAttempts: number;
  /** Distinct persisted sources. Duplicates merge and do not count. */
  maxSources: number;
  /** The reserved part of maxSources fetched at once after the bootstrap search. */
  bootstrapSources: number;
  /** Characters of fetched content kept per source. */
  maxSourceChars: number;
  /** Characters of source text given to one synthesis generation. */
  maxPacketChars: number;
  /** Characters of verbatim excerpt shown per source in a source-backed report. */
  excerptCharsPerSource: number;
  /** Characters of verbatim excerpt shown in a source-backed report overall. */
  excerptCharsTotal: number;
  /**
   * Model spend in USD (a decimal); none by default. With it, the run makes no generation
   * once its spend reached it, nor after one whose cost is not known (a model without a price).
   */
  maxCostUsd?: number;
}

export const DEFAULT_BUDGETS: Readonly<Budgets> = Object.freeze({
  wallClockMs: 300_000,
  publishReserveMs: 10_000,
  maxGenerations: 2,
  maxTurns: 8,
  modelCallTimeoutMs: 180_000,
  maxSearchCalls: 6,
  maxFetchAttempts: 16,
  maxSources: 8,
  bootstrapSources: 3,
  maxSourceChars: 200_000,
  maxPacketChars: 48_000,
  excerptCharsPerSource: 700,
  excerptCharsTotal: 5_000,
});

/** Hard limits: a configured budget outside [min, max] is refused. */
export const BUDGET_LIMITS: Readonly<Record<keyof Budgets, readonly [number, number]>> = Object.freeze({
  wallClockMs: [1_000, 6 * 3_600_000],
  publishReserveMs: [100, 600_000],
  maxGenerations: [0, 100],
  maxTurns: [1, 1_000],
  modelCallTimeoutMs: [100, 3_600_000],
  maxSearchCalls: [1, 500],
  maxFetchAttempts: [1, 2_000],
  maxSources: [1, 500],
  bootstrapSources: [1, 500],
  maxSourceChars: [1_000, 10_000_000],
  maxPacketChars: [1_000, 2_000_000],
  excerptCharsPerSource: [50, 20_000],
  excerptCharsTotal: [50, 200_000],
  maxCostUsd: [0.0001, 100_000],
});

/** The budgets whose values may have decimals; every other one is a whole number. */
const DECIMAL_BUDGETS: ReadonlySet<keyof Budgets> = new Set(["maxCostUsd"]);

/** The names of every budget, for messages. */
export const BUDGET_NAMES: readonly (keyof Budgets)[] = Object.freeze(Object.keys(BUDGET_LIMITS) as (keyof Budgets)[]);

/** `name` as a budget name, or an error listing the known ones. Pure. */
export function budgetName(name: string): Result<keyof Budgets> {
  if (!Object.hasOwn(BUDGET_LIMITS, name)) return err(`unknown budget "${name}" (known: ${BUDGET_NAMES.join(", ")})`);
  return ok(name as keyof Budgets);
}

/** The one rule of a budget's value: within its hard limits, and whole unless the budget is a decimal one. Pure. */
export function checkBudget(name: keyof Budgets, value: number): Result<number> {
  const [min, max] = BUDGET_LIMITS[name];
  const decimal = DECIMAL_BUDGETS.has(name);
  if (!Number.isFinite(value) || (!decimal && !Number.isInteger(value)) || value < min || value > max)
    return err(
      `budget ${name} must be ${decimal ? "a number" : "a whole number"} from ${min} to ${max} (got ${value})`,
    );
  return ok(value);
}

/** `name=value` (as a flag gives it) into a budget and its checked value. Pure. */
export function parseBudgetAssignment(text: string): Result<{ name: keyof Budgets; value: number }> {
  const match = /^([A-Za-z]+)=(\d+(?:\.\d+)?)$/.exec(text.trim());
  if (!match?.[1] || match[2] === undefined) return err(`expected name=value, e.g. maxSearchCalls=10 (got "${text}")`);
  const name = budgetName(match[1]);
  if (!name.ok) return name;
  const value = checkBudget(name.value, Number(match[2]));
  if (!value.ok) return value;
  return ok({ name: name.value, value: value.value });
}

/**
 * Completes partial budgets with the defaults and checks every limit and relation.
 * Never throws.
 */
export function resolveBudgets(partial: Partial<Budgets> = {}): Result<Budgets> {
  const budgets: Budgets = { ...DEFAULT_BUDGETS };
  for (const [key, value] of Object.entries(partial) as [keyof Budgets, number | undefined][]) {
    if (value === undefined) continue;
    const name = budgetName(key);
    if (!name.ok) return name;
    const checked = checkBudget(name.value, value);
    if (!checked.ok) return checked;
    budgets[key] = value;
  }
  if (budgets.publishReserveMs >= budgets.wallClockMs) {
    return err(
      `the publish reserve (${budgets.publishReserveMs} ms) must be smaller than the wall clock (${budgets.wallClockMs} ms)`,
    );
  }
  budgets.bootstrapSources = Math.min(budgets.bootstrapSources, budgets.maxSources);
  budgets.excerptCharsPerSource = Math.min(budgets.excerptCharsPerSource, budgets.excerptCharsTotal);
  return ok(budgets);
}

/** Countable budget kinds and what has been spent of each. */
export interface BudgetUse {
  generations: number;
  turns: number;
  searchCalls: number;
  fetchAttempts: number;
  sources: number;
}

export type BudgetKind = keyof BudgetUse;

export const NO_USE: Readonly<BudgetUse> = Object.freeze({
  generations: 0,
  turns: 0,
  searchCalls: 0,
  fetchAttempts: 0,
  sources: 0,
});

const LIMIT_OF: Record<BudgetKind, Exclude<keyof Budgets, "maxCostUsd">> = {
  generations: "maxGenerations",
  turns: "maxTurns",
  searchCalls: "maxSearchCalls",
  fetchAttempts: "maxFetchAttempts",
  sources: "maxSources",
};

/** How many units of `kind` remain. */
export function remaining(budgets: Budgets, use: BudgetUse, kind: BudgetKind): number {
  return Math.max(0, budgets[LIMIT_OF[kind]] - use[kind]);
}

/**
 * Budgets stored by an older version, completed with today's defaults for the kinds it did
 * not know. Pure.
 */
export function completeBudgets(stored: Partial<Budgets>): Budgets {
  return { ...DEFAULT_BUDGETS, ...stored };
}

/** What a run's generations cost so far: the sum of the known costs, and whether one was not known. */
export interface CostSpent {
  usd: number;
  /** A generation's cost was not known (a model without a price): the spend is a lower bound. */
  unknown: boolean;
}

/**
 * Whether another generation may start under `maxCostUsd`: always without it; with it, while
 * the known spend is below it and no generation's cost was unknown. When not, the limit as a
 * run's events and report name it ("cost limit of $0.5 ($0.5012 spent)"). Pure.
 */
export function costAllows(budgets: Budgets, spent: CostSpent): Result<void, string> {
  const limit = budgets.maxCostUsd;
  if (limit === undefined || (!spent.unknown && spent.usd < limit)) return ok(undefined);
  const why = spent.unknown
    ? "a model call's cost is not known: its model has no price"
    : `${formatUsd(spent.usd)} spent`;
  return err(`cost limit of $${limit} (${why})`);
}

/** Spends one unit of `kind`, or says it is exhausted. Pure. */
export function spend(budgets: Budgets, use: BudgetUse, kind: BudgetKind): Result<BudgetUse, string> {
  if (remaining(budgets, use, kind) <= 0) {
    return err(`${LIMIT_OF[kind]} (${budgets[LIMIT_OF[kind]]}) is spent`);
  }
  return ok({ ...use, [kind]: use[kind] + 1 });
}
