import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type BreakerLimits,
  type BreakerState,
  breakerCheck,
  cutShortGaps,
  cutShortNote,
  explorationAllowance,
  forcedFinalTurn,
  STOP_REASONS,
  stillPending,
  stopReason,
  VERIFY_RATIONALE,
} from "./breakers.js";
import { finalReportSchema } from "./final-report.js";
import type { QuestionStatus } from "./types.js";

const LIMITS: BreakerLimits = { maxIterations: 60, wallClockMs: 600_000, synthesisReserve: 0.15 };
const START: BreakerState = { phase: "exploration", iterations: 0, tokens: 0, costUsd: null, elapsedMs: 0 };

const explore = (patch: Partial<BreakerState>): BreakerState => ({ ...START, ...patch });
const synthesize = (patch: Partial<BreakerState>): BreakerState => ({ ...START, phase: "synthesis", ...patch });

describe("explorationAllowance", () => {
  it("keeps the reserve for synthesis: 85% of 60 iterations is 51", () => {
    expect(explorationAllowance(60, 0.15)).toBe(51);
    expect(explorationAllowance(1_000_000, 0.15)).toBe(850_000);
    expect(explorationAllowance(7, 0.15)).toBe(5);
    expect(explorationAllowance(1, 0.15)).toBe(0);
    expect(explorationAllowance(2, 0.15, false)).toBeCloseTo(1.7, 12);
    expect(explorationAllowance(100, 0.3)).toBe(70);
    expect(explorationAllowance(60, 0)).toBe(60);
  });
});

describe("breakerCheck", () => {
  it("ends exploration after 51 of 60 iterations by default, without failing the run", () => {
    expect(breakerCheck(explore({ iterations: 50 }), LIMITS)).toEqual({ fire: false });
    expect(breakerCheck(explore({ iterations: 51 }), LIMITS)).toEqual({
      fire: true,
      fatal: false,
      breaker: "iterations",
      phase: "exploration",
      message:
        "Exploration reached its share of max_iterations: 51 turns of 51 turns (85% of 60 turns; the rest is " +
        "reserved for synthesis). The investigation moves to synthesis (breaker: iterations).",
    });
  });

  it("gives synthesis the rest, and fails the run when synthesis runs out", () => {
    for (let iterations = 51; iterations < 60; iterations += 1) {
      expect(breakerCheck(synthesize({ iterations }), LIMITS)).toEqual({ fire: false });
    }
    expect(breakerCheck(synthesize({ iterations: 10 }), LIMITS)).toEqual({ fire: false });
    expect(breakerCheck(synthesize({ iterations: 60 }), LIMITS)).toEqual({
      fire: true,
      fatal: true,
      breaker: "iterations",
      phase: "synthesis",
      message:
        "Synthesis exhausted max_iterations (60 turns of 60 turns) without finalize_report: the run fails (breaker: iterations).",
    });
  });

  it("splits the token ceiling the same way", () => {
    const limits = { ...LIMITS, maxTotalTokens: 1_000_000 };
    expect(breakerCheck(explore({ tokens: 849_999 }), limits)).toEqual({ fire: false });
    expect(breakerCheck(explore({ tokens: 850_000 }), limits)).toEqual({
      fire: true,
      fatal: false,
      breaker: "tokens",
      phase: "exploration",
      message:
        "Exploration reached its share of max_total_tokens: 850000 tokens of 850000 tokens (85% of 1000000 tokens; " +
        "the rest is reserved for synthesis). The investigation moves to synthesis (breaker: tokens).",
    });
    expect(breakerCheck(synthesize({ tokens: 999_999 }), limits)).toEqual({ fire: false });
    expect(breakerCheck(synthesize({ tokens: 1_000_000 }), limits)).toMatchObject({
      fire: true,
      fatal: true,
      breaker: "tokens",
      phase: "synthesis",
    });
  });

  it("splits the cost budget, and cannot fire without a known cost", () => {
    const limits = { ...LIMITS, maxCostUsd: 2 };
    expect(breakerCheck(explore({ costUsd: 1.69 }), limits)).toEqual({ fire: false });
    expect(breakerCheck(explore({ costUsd: 1.7 }), limits)).toEqual({
      fire: true,
      fatal: false,
      breaker: "cost",
      phase: "exploration",
      message:
        "Exploration reached its share of max_cost_usd: $1.7000 of $1.7000 (85% of $2.0000; the rest is reserved " +
        "for synthesis). The investigation moves to synthesis (breaker: cost).",
    });
    expect(breakerCheck(synthesize({ costUsd: 2.5 }), limits)).toEqual({
      fire: true,
      fatal: true,
      breaker: "cost",
      phase: "synthesis",
      message:
        "Synthesis exhausted max_cost_usd ($2.5000 of $2.0000) without finalize_report: the run fails (breaker: cost).",
    });
    expect(breakerCheck(explore({ costUsd: null }), limits)).toEqual({ fire: false });
    expect(breakerCheck(explore({ costUsd: 100, tokens: 10 ** 9 }), LIMITS)).toEqual({ fire: false });
  });

  it("ends the run on the wall clock in either phase, before any other breaker", () => {
    expect(breakerCheck(explore({ elapsedMs: 599_999 }), LIMITS)).toEqual({ fire: false });
    expect(breakerCheck(explore({ elapsedMs: 600_000, iterations: 60 }), LIMITS)).toEqual({
      fire: true,
      fatal: true,
      breaker: "wall_clock",
      phase: "exploration",
      message:
        "The run reached its wall clock (600000 of 600000 ms) during exploration: the run ends (breaker: wall_clock).",
    });
    expect(breakerCheck(synthesize({ elapsedMs: 700_000 }), LIMITS)).toMatchObject({
      fatal: true,
      breaker: "wall_clock",
      phase: "synthesis",
    });
  });

  it("names iterations before tokens before cost when several are reached", () => {
    const limits = { ...LIMITS, maxTotalTokens: 100, maxCostUsd: 1 };
    const all = explore({ iterations: 60, tokens: 100, costUsd: 1 });
    expect(breakerCheck(all, limits)).toMatchObject({ breaker: "iterations" });
    expect(breakerCheck({ ...all, iterations: 0 }, limits)).toMatchObject({ breaker: "tokens" });
    expect(breakerCheck({ ...all, iterations: 0, tokens: 0 }, limits)).toMatchObject({ breaker: "cost" });
  });

  const limitsArb = fc.record({
    limit: fc.integer({ min: 1, max: 100_000 }),
    reserve: fc.double({ min: 0, max: 0.9, noNaN: true }),
  });

  it("never lets exploration spend more than (1 − reserve) of a limit without firing", () => {
    fc.assert(
      fc.property(limitsArb, fc.array(fc.integer({ min: 1, max: 5_000 }), { maxLength: 200 }), (bounds, turns) => {
        const limits: BreakerLimits = {
          maxIterations: bounds.limit,
          maxTotalTokens: bounds.limit * 10,
          maxCostUsd: bounds.limit / 100,
          wallClockMs: Number.MAX_SAFE_INTEGER,
          synthesisReserve: bounds.reserve,
        };
        const share = 1 - bounds.reserve;
        let state = explore({ costUsd: 0 });
        for (const tokens of turns) {
          const verdict = breakerCheck(state, limits);
          const over =
            state.iterations > share * limits.maxIterations ||
            state.tokens > share * (limits.maxTotalTokens ?? 0) ||
            (state.costUsd ?? 0) > share * (limits.maxCostUsd ?? 0);
          if (over) expect(verdict.fire).toBe(true);
          if (verdict.fire) {
            expect(verdict).toMatchObject({ fatal: false, phase: "exploration" });
            return;
          }
          // A turn runs only after a check that did not fire.
          state = {
            ...state,
            iterations: state.iterations + 1,
            tokens: state.tokens + tokens,
            costUsd: (state.costUsd ?? 0) + tokens / 100_000,
          };
        }
      }),
    );
  });

  it("fires in exploration exactly from the allowance, and in synthesis (fatally) exactly from the limit", () => {
    fc.assert(
      fc.property(limitsArb, fc.integer({ min: 0, max: 200_000 }), ({ limit, reserve }, spent) => {
        const limits: BreakerLimits = { ...LIMITS, maxIterations: limit, synthesisReserve: reserve };
        const exploring = breakerCheck(explore({ iterations: spent }), limits);
        expect(exploring.fire).toBe(spent >= explorationAllowance(limit, reserve));
        if (spent > (1 - reserve) * limit) expect(exploring.fire).toBe(true);
        const synthesizing = breakerCheck(synthesize({ iterations: spent }), limits);
        expect(synthesizing.fire).toBe(spent >= limit);
        if (synthesizing.fire) expect(synthesizing.fatal).toBe(true);
      }),
    );
  });
});

describe("forcedFinalTurn", () => {
  it("forces finalize_report on the last turn the synthesis budget allows", () => {
    expect(forcedFinalTurn(synthesize({ iterations: 58 }), LIMITS)).toBe(false);
    expect(forcedFinalTurn(synthesize({ iterations: 59 }), LIMITS)).toBe(true);
    expect(forcedFinalTurn(synthesize({ iterations: 60 }), LIMITS)).toBe(true);
    expect(forcedFinalTurn(explore({ iterations: 59 }), LIMITS)).toBe(false);
    expect(forcedFinalTurn(synthesize({ iterations: 0 }), { ...LIMITS, maxIterations: 1 })).toBe(true);
  });

  it("estimates the last turn of tokens, cost and wall clock from the average turn", () => {
    const limits = { ...LIMITS, maxTotalTokens: 1_000_000, maxCostUsd: 10 };
    const state = synthesize({ iterations: 10, tokens: 500_000, costUsd: 5, elapsedMs: 100_000 });
    expect(forcedFinalTurn(state, limits)).toBe(false);
    expect(forcedFinalTurn({ ...state, tokens: 900_000 }, limits)).toBe(true);
    expect(forcedFinalTurn({ ...state, costUsd: 8.5 }, limits)).toBe(true);
    expect(forcedFinalTurn({ ...state, costUsd: null }, { ...limits, maxCostUsd: 0.01 })).toBe(false);
    expect(forcedFinalTurn({ ...state, elapsedMs: 550_000 }, limits)).toBe(true);
  });
});

describe("stop reasons and the cut-short note", () => {
  it("names every way an investigation stops", () => {
    expect(STOP_REASONS).toEqual([
      "finalized",
      "frontier_exhausted",
      "model_failed",
      "breaker:iterations",
      "breaker:tokens",
      "breaker:cost",
      "breaker:wall_clock",
    ]);
    expect(stopReason("finalized")).toBe("finalized");
    expect(stopReason("frontier_exhausted")).toBe("frontier_exhausted");
    const fired = breakerCheck(explore({ iterations: 51 }), LIMITS);
    expect(fired.fire && stopReason(fired)).toBe("breaker:iterations");
    expect(stopReason({ breaker: "wall_clock" })).toBe("breaker:wall_clock");
  });

  const pending = [
    { id: "q_004", question: "What batch size\ndoes the card assume?", rationale: "" },
    { id: "q_007", question: "Is offload used?", rationale: "" },
    {
      id: "q_009",
      question: "Is c_003 supported by an independent source: offload is used.",
      rationale: VERIFY_RATIONALE,
    },
  ];

  it("says what cut the investigation short and what was still pending", () => {
    expect(cutShortNote("cost", pending.slice(0, 2))).toBe(
      "The investigation was cut short by breaker: cost; still pending: q_004: What batch size does the card " +
        "assume?; q_007: Is offload used?.",
    );
    expect(cutShortNote("iterations", [])).toBe(
      "The investigation was cut short by breaker: iterations; still pending: none.",
    );
  });

  it("lists the still-open questions (the root aside) as open gaps of the report", () => {
    const question = (id: string, status: QuestionStatus) => ({ id, question: `question ${id}`, status });
    const frontier = {
      questions: [
        question("q_001", "pending"),
        question("q_002", "resolved"),
        question("q_003", "pending"),
        question("q_004", "in_progress"),
        question("q_005", "blocked"),
        question("q_006", "unresolvable"),
        question("q_007", "pruned"),
      ],
    };
    expect(stillPending(frontier).map((q) => q.id)).toEqual(["q_003", "q_004", "q_005"]);
    const gaps = cutShortGaps("tokens", pending);
    expect(gaps).toEqual([
      {
        text: "Still open: “What batch size does the card assume?” (the investigation reached its limit of tokens before answering it).",
        questionIds: ["q_004"],
      },
      {
        text: "Still open: “Is offload used?” (the investigation reached its limit of tokens before answering it).",
        questionIds: ["q_007"],
      },
    ]);
    const report = { summary: "s", items: [{ text: "t", claimIds: ["c_001"], sourceIds: [] }], gaps, keyClaims: [] };
    expect(finalReportSchema.safeParse(report).success).toBe(true);
  });
});
