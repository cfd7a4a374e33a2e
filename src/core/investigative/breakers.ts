/**
 * The circuit-breakers of the investigative loops (seed 000 "Circuit-breakers"), checked by
 * code before every model call; none depends on the model's cooperation. Exploration may spend
 * only `(1 − synthesisReserve)` of each limit (iterations, tokens, cost); when it reaches its
 * share the run moves to synthesis, which may spend the rest. When synthesis itself exhausts a
 * limit the run fails with the breaker named. The wall clock is not split: reaching it ends the
 * run in either phase ("the run ends as today"). Pure: the counters come in as arguments.
 */
import { readerLine } from "../text.js";
import type { FinalReport } from "./final-report.js";
import { OPEN, ROOT_QUESTION_ID } from "./frontier-queries.js";
import type { Question } from "./types.js";

export type Phase = "exploration" | "synthesis";

export const BREAKERS = ["iterations", "tokens", "cost", "wall_clock"] as const;

/** The limit each breaker enforces, in reader words. */
const BREAKER_LIMITS: Record<Breaker, string> = {
  iterations: "its limit of turns",
  tokens: "its limit of tokens",
  cost: "its cost limit",
  wall_clock: "its time limit",
};

/** The rationale of the questions the loop adds to verify a claim a resolved question cites. */
export const VERIFY_RATIONALE =
  "Final verification check: a resolved question cites this claim while it is UNVERIFIED.";

/**
 * Whether a question is the loop's own check of a claim ("Is c_001 supported by an independent
 * source: …"): the report shows that claim unverified already, so it is never a gap.
 */
export const isVerificationQuestion = (question: Pick<Question, "rationale">): boolean =>
  question.rationale === VERIFY_RATIONALE;
export type Breaker = (typeof BREAKERS)[number];

/** What the run has spent so far, both phases together (run totals, not per phase). */
export interface BreakerState {
  phase: Phase;
  /** Model turns completed. */
  iterations: number;
  /** Input plus output tokens. */
  tokens: number;
  /** Spent so far in USD; null when no price is known (the cost breaker cannot fire). */
  costUsd: number | null;
  /** Since the run's monotonic origin. */
  elapsedMs: number;
}

/** The run's limits; an absent token or cost limit never fires. */
export interface BreakerLimits {
  maxIterations: number;
  maxTotalTokens?: number;
  maxCostUsd?: number;
  wallClockMs: number;
  /** Share of the iteration, token and cost limits kept for synthesis (0..1, default 0.15). */
  synthesisReserve: number;
}

export type BreakerVerdict =
  | { fire: false }
  /** Exploration reached its share: move to synthesis, noting the cut (`cutShortNote`). */
  | { fire: true; fatal: false; breaker: Breaker; phase: "exploration"; message: string }
  /** The run fails with the breaker named in its error: synthesis ran out, or the wall clock did. */
  | { fire: true; fatal: true; breaker: Breaker; phase: Phase; message: string };

export type BreakerFired = Extract<BreakerVerdict, { fire: true }>;

// Float products such as 0.85 × 60 may land a hair under the whole number they mean.
const EPSILON = 1e-9;

/**
 * What exploration may spend of `limit`: `(1 − reserve) · limit`, rounded down to a whole
 * number for counted limits (iterations, tokens). 60 iterations at the default 0.15 → 51.
 */
export function explorationAllowance(limit: number, reserve: number, whole = true): number {
  const share = (1 - reserve) * limit;
  return whole ? Math.floor(share + EPSILON) : share;
}

interface Meter {
  breaker: Exclude<Breaker, "wall_clock">;
  option: string;
  spent: number;
  limit: number;
  whole: boolean;
  show: (value: number) => string;
}

const usd = (value: number): string => `$${value.toFixed(4)}`;

function meters(state: BreakerState, limits: BreakerLimits): Meter[] {
  const list: Meter[] = [
    {
      breaker: "iterations",
      option: "max_iterations",
      spent: state.iterations,
      limit: limits.maxIterations,
      whole: true,
      show: (value) => `${value} turns`,
    },
  ];
  if (limits.maxTotalTokens !== undefined) {
    list.push({
      breaker: "tokens",
      option: "max_total_tokens",
      spent: state.tokens,
      limit: limits.maxTotalTokens,
      whole: true,
      show: (value) => `${value} tokens`,
    });
  }
  if (limits.maxCostUsd !== undefined && state.costUsd !== null) {
    list.push({
      breaker: "cost",
      option: "max_cost_usd",
      spent: state.costUsd,
      limit: limits.maxCostUsd,
      whole: false,
      show: usd,
    });
  }
  return list;
}

const percent = (share: number): string => `${Math.round(share * 1000) / 10}%`;

/**
 * Whether a breaker fires before the next model call (seed 000 "Circuit-breakers"), checked in
 * this order: wall clock, iterations, tokens, cost. In exploration a limit fires once the
 * spent total reaches `explorationAllowance`; in synthesis once it reaches the whole limit,
 * and then the run fails (`fatal`). Pure.
 */
export function breakerCheck(state: BreakerState, limits: BreakerLimits): BreakerVerdict {
  if (state.elapsedMs >= limits.wallClockMs) {
    const message =
      `The run reached its wall clock (${state.elapsedMs} of ${limits.wallClockMs} ms) during ${state.phase}: ` +
      "the run ends (breaker: wall_clock).";
    return { fire: true, fatal: true, breaker: "wall_clock", phase: state.phase, message };
  }
  for (const meter of meters(state, limits)) {
    if (state.phase === "exploration") {
      const allowed = explorationAllowance(meter.limit, limits.synthesisReserve, meter.whole);
      if (meter.spent < allowed) continue;
      const message =
        `Exploration reached its share of ${meter.option}: ${meter.show(meter.spent)} of ${meter.show(allowed)} ` +
        `(${percent(1 - limits.synthesisReserve)} of ${meter.show(meter.limit)}; the rest is reserved for ` +
        `synthesis). The investigation moves to synthesis (breaker: ${meter.breaker}).`;
      return { fire: true, fatal: false, breaker: meter.breaker, phase: "exploration", message };
    }
    if (meter.spent < meter.limit) continue;
    const message =
      `Synthesis exhausted ${meter.option} (${meter.show(meter.spent)} of ${meter.show(meter.limit)}) without ` +
      `finalize_report: the run fails (breaker: ${meter.breaker}).`;
    return { fire: true, fatal: true, breaker: meter.breaker, phase: "synthesis", message };
  }
  return { fire: false };
}

/**
 * Whether the next synthesis turn must be forced to `finalize_report` (`tool_choice` on that
 * tool): it is the last turn the budget allows. Exact for iterations (the next turn is number
 * `maxIterations`); for tokens, cost and the wall clock an estimate from the run's average turn
 * so far: after the next turn, another average turn would not fit. Always false in exploration,
 * which hands over to synthesis instead. Pure.
 */
export function forcedFinalTurn(state: BreakerState, limits: BreakerLimits): boolean {
  if (state.phase !== "synthesis") return false;
  if (state.iterations + 1 >= limits.maxIterations) return true;
  if (state.iterations === 0) return false;
  const wouldNotFit = (spent: number, limit: number | undefined): boolean =>
    limit !== undefined && spent + (2 * spent) / state.iterations > limit;
  return (
    wouldNotFit(state.tokens, limits.maxTotalTokens) ||
    (state.costUsd !== null && wouldNotFit(state.costUsd, limits.maxCostUsd)) ||
    wouldNotFit(state.elapsedMs, limits.wallClockMs)
  );
}

/**
 * Why an investigation stopped, as stored in `runs.stop_reason`: `finalized` (finish_exploration
 * passed the exploration gate), `frontier_exhausted` (no actionable question left and the final
 * verification check queued nothing), `model_failed` (the model failed several turns in a row),
 * or `breaker:<name>` for a breaker that fired — `breaker:iterations`, `breaker:tokens`,
 * `breaker:cost`, `breaker:wall_clock`.
 */
export const STOP_REASONS = [
  "finalized",
  "frontier_exhausted",
  "model_failed",
  ...BREAKERS.map((breaker) => `breaker:${breaker}` as const),
] as const;
export type StopReason = "finalized" | "frontier_exhausted" | "model_failed" | `breaker:${Breaker}`;

/** The stored stop reason of an end: a named end, or the breaker that fired. Pure. */
export function stopReason(end: "finalized" | "frontier_exhausted" | Pick<BreakerFired, "breaker">): StopReason {
  return typeof end === "string" ? end : `breaker:${end.breaker}`;
}

const QUESTION_CHARS = 160;

/** The questions still open when exploration is cut short (pending, in progress, blocked), the root aside. */
export function stillPending<Q extends Pick<Question, "id" | "status">>(frontier: { questions: readonly Q[] }): Q[] {
  return frontier.questions.filter((question) => question.id !== ROOT_QUESTION_ID && OPEN.has(question.status));
}

/**
 * The line for notes.md and the report when a breaker cut exploration short: "The investigation
 * was cut short by breaker: cost; still pending: q_004: …; q_007: …." One line. Pure.
 */
export function cutShortNote(breaker: Breaker, pendingQuestions: readonly Pick<Question, "id" | "question">[]): string {
  const pending =
    pendingQuestions.length === 0
      ? "none"
      : pendingQuestions.map((q) => `${q.id}: ${readerLine(q.question, QUESTION_CHARS)}`).join("; ");
  return `The investigation was cut short by breaker: ${breaker}; still pending: ${pending}.`;
}

/** The still-pending questions as open gaps of the final report, one per question. Pure. */
export function cutShortGaps(
  breaker: Breaker,
  pendingQuestions: readonly Pick<Question, "id" | "question" | "rationale">[],
): FinalReport["gaps"] {
  return pendingQuestions
    .filter((question) => !isVerificationQuestion(question))
    .map((question) => ({
      text: `Still open: “${readerLine(question.question, QUESTION_CHARS)}” (the investigation reached ${BREAKER_LIMITS[breaker]} before answering it).`,
      questionIds: [question.id],
    }));
}
