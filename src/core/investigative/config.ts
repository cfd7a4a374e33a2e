/**
 * The investigative knobs (seed 000 "Configuration") with their defaults and allowed
 * ranges. Pure. Like budgets, a value outside its range is refused with a message naming it.
 */
import { err, ok, type Result } from "../result.js";
import { DEFAULT_INVESTIGATION_CONFIG, type InvestigationConfig } from "./types.js";

/** [min, max] per knob; `integer` knobs must be whole numbers. */
export const INVESTIGATION_LIMITS: Readonly<
  Record<keyof InvestigationConfig, { min: number; max: number; integer: boolean }>
> = Object.freeze({
  maxDepth: { min: 0, max: 10, integer: true },
  maxAttempts: { min: 1, max: 20, integer: true },
  maxQuestions: { min: 1, max: 500, integer: true },
  maxIterations: { min: 1, max: 1_000, integer: true },
  synthesisReserve: { min: 0, max: 0.9, integer: false },
  keepTurns: { min: 1, max: 10, integer: true },
  extractionThreshold: { min: 500, max: 1_000_000, integer: true },
  notesMaxTokens: { min: 500, max: 100_000, integer: true },
  minSources: { min: 0, max: 100, integer: true },
  minDomains: { min: 0, max: 100, integer: true },
  minIndependentSources: { min: 1, max: 20, integer: true },
  minChallenges: { min: 0, max: 20, integer: true },
  maxChallengesPerTarget: { min: 1, max: 7, integer: true },
  gatePriority: { min: 0, max: 1, integer: false },
  maxReopens: { min: 0, max: 10, integer: true },
  maxParallel: { min: 1, max: 64, integer: true },
});

/** Completes `partial` with the defaults and checks every range. Never throws. */
export function resolveInvestigationConfig(partial: Partial<InvestigationConfig> = {}): Result<InvestigationConfig> {
  const config: InvestigationConfig = { ...DEFAULT_INVESTIGATION_CONFIG };
  for (const [key, value] of Object.entries(partial) as [keyof InvestigationConfig, number | undefined][]) {
    if (value === undefined) continue;
    const limits = INVESTIGATION_LIMITS[key];
    if (!limits) return err(`unknown investigative setting "${key}"`);
    if (
      !Number.isFinite(value) ||
      value < limits.min ||
      value > limits.max ||
      (limits.integer && !Number.isInteger(value))
    ) {
      return err(
        `${key} must be ${limits.integer ? "a whole number" : "a number"} from ${limits.min} to ${limits.max} (got ${value})`,
      );
    }
    config[key] = value;
  }
  return ok(config);
}
