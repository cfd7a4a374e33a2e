import { describe, expect, it } from "vitest";
import { INVESTIGATION_LIMITS, resolveInvestigationConfig } from "./config.js";
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
    // Every default is inside its own range.
    for (const [key, limits] of Object.entries(INVESTIGATION_LIMITS)) {
      const value = DEFAULT_INVESTIGATION_CONFIG[key as keyof typeof DEFAULT_INVESTIGATION_CONFIG];
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
  });
});
