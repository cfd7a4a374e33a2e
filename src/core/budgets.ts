/**
 * Run budgets (seed 004 "Budgets And Terminal Behavior"). Pure.
 * Every figure is a maximum, never a target: a run that finds enough stops early.
 */
import { err, ok, type Result } from "./result.js";

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
});

/**
 * Completes partial budgets with the defaults and checks every limit and relation.
 * Never throws.
 */
export function resolveBudgets(partial: Partial<Budgets> = {}): Result<Budgets> {
  const budgets: Budgets = { ...DEFAULT_BUDGETS };
  for (const [key, value] of Object.entries(partial) as [keyof Budgets, number | undefined][]) {
    if (value === undefined) continue;
    const limits = BUDGET_LIMITS[key];
    if (!limits) return err(`unknown budget "${key}"`);
    if (!Number.isInteger(value) || value < limits[0] || value > limits[1]) {
      return err(`budget ${key} must be an integer from ${limits[0]} to ${limits[1]} (got ${value})`);
    }
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

const LIMIT_OF: Record<BudgetKind, keyof Budgets> = {
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

/** Spends one unit of `kind`, or says it is exhausted. Pure. */
export function spend(budgets: Budgets, use: BudgetUse, kind: BudgetKind): Result<BudgetUse, string> {
  if (remaining(budgets, use, kind) <= 0) {
    return err(`${LIMIT_OF[kind]} (${budgets[LIMIT_OF[kind]]}) is spent`);
  }
  return ok({ ...use, [kind]: use[kind] + 1 });
}
