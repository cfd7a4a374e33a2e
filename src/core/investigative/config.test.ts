import { describe, expect, it } from "vitest";
import {
  describeRange,
  INVESTIGATION_KNOBS,
  INVESTIGATION_LIMITS,
  investigationKnob,
  resolveInvestigationConfig,
  snakeCaseOf,
} from "./config.js";
import { DEFAULT_INVESTIGATION_CONFIG } from "./types.js";

describe("resolveInvestigationConfig", () => {
  it("gives seed 000's defaults", () => {
    expect(resolveInvestigationConfig()).toEqual({ ok: true, value: DEFAULT_INVESTIGATION_CONFIG });
    expect(DEFAULT_INVESTIGATION_CONFIG).toMatchObject({
      maxDepth: 3,
      maxAttempts: 4,
      maxQuestions: 40,
      maxIterations: 60,
      synthesisReserve: 0.15,
      keepTurns: 2,
      extractionThreshold: 4000,
      notesMaxTokens: 6000,
      minSources: 5,
      minDomains: 3,
      minIndependentSources: 2,
      minChallenges: 1,
      maxChallengesPerTarget: 3,
      gatePriority: 0.5,
      maxReopens: 1,
      maxParallel: 1,
    });
    // The run's budgets have no default: no limit.
    expect(DEFAULT_INVESTIGATION_CONFIG.maxTotalTokens).toBeUndefined();
    expect(DEFAULT_INVESTIGATION_CONFIG.maxCostUsd).toBeUndefined();
    // Every default is inside its own range.
    for (const [key, limits] of Object.entries(INVESTIGATION_LIMITS)) {
      const value = DEFAULT_INVESTIGATION_CONFIG[key as keyof typeof DEFAULT_INVESTIGATION_CONFIG];
      if (value === undefined) continue;
      expect(value >= limits.min && value <= limits.max, key).toBe(true);
    }
  });

  it("takes overrides and refuses values outside a range, naming the knob", () => {
    expect(resolveInvestigationConfig({ maxDepth: 2 })).toMatchObject({ ok: true, value: { maxDepth: 2 } });
    expect(resolveInvestigationConfig({ maxDepth: 11 })).toEqual({
      ok: false,
      error: "maxDepth must be a whole number from 0 to 10 (got 11)",
    });
    expect(resolveInvestigationConfig({ gatePriority: 0.75 })).toMatchObject({ ok: true });
    expect(resolveInvestigationConfig({ maxAttempts: 2.5 })).toMatchObject({ ok: false });
    expect(resolveInvestigationConfig({ nonsense: 1 } as never)).toEqual({
      ok: false,
      error: 'unknown investigative setting "nonsense"',
    });
    expect(resolveInvestigationConfig({ constructor: 1 } as never)).toEqual({
      ok: false,
      error: 'unknown investigative setting "constructor"',
    });
  });

  it("takes the run's token and cost limits, which have no default", () => {
    const resolved = resolveInvestigationConfig({ maxTotalTokens: 200_000, maxCostUsd: 2.5 });
    expect(resolved).toMatchObject({ ok: true, value: { maxTotalTokens: 200_000, maxCostUsd: 2.5 } });
    expect(resolveInvestigationConfig({ maxTotalTokens: 999 })).toEqual({
      ok: false,
      error: "maxTotalTokens must be a whole number from 1000 to 1000000000 (got 999)",
    });
    expect(resolveInvestigationConfig({ maxCostUsd: 0 })).toEqual({
      ok: false,
      error: "maxCostUsd must be a number from 0.01 to 10000 (got 0)",
    });
  });
});

describe("knob names", () => {
  it("maps the seed's snake_case names to the camelCase ones", () => {
    const seedNames = [
      "max_depth",
      "max_attempts",
      "max_questions",
      "max_iterations",
      "max_total_tokens",
      "max_cost_usd",
      "synthesis_reserve",
      "keep_turns",
      "extraction_threshold",
      "notes_max_tokens",
      "min_sources",
      "min_domains",
      "min_independent_sources",
      "min_challenges",
      "max_challenges_per_target",
      "gate_priority",
      "max_reopens",
      "max_parallel",
    ];
    expect(INVESTIGATION_KNOBS.map(snakeCaseOf)).toEqual(seedNames);
    for (const knob of INVESTIGATION_KNOBS) {
      expect(investigationKnob(knob)).toBe(knob);
      expect(investigationKnob(snakeCaseOf(knob))).toBe(knob);
    }
    expect(investigationKnob("maxdepth")).toBeUndefined();
    expect(investigationKnob("max_Depth")).toBeUndefined();
    expect(investigationKnob("toString")).toBeUndefined();
  });

  it("describes a range", () => {
    expect(describeRange("maxDepth")).toBe("a whole number from 0 to 10");
    expect(describeRange("gatePriority")).toBe("a number from 0 to 1");
  });
});
