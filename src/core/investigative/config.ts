/**
 * The investigative knobs (seed 000 "Configuration") with their defaults and allowed
 * ranges, and the seed's snake_case names for them. Pure. Like budgets, a value outside
 * its range is refused with a message naming it.
 */
import { err, ok, type Result } from "../result.js";
import { DEFAULT_INVESTIGATION_CONFIG, type InvestigationConfig } from "./types.js";

export type InvestigationKnob = keyof InvestigationConfig;

/** [min, max] per knob; `integer` knobs must be whole numbers. */
export const INVESTIGATION_LIMITS: Readonly<Record<InvestigationKnob, { min: number; max: number; integer: boolean }>> =
  Object.freeze({
    maxDepth: { min: 0, max: 10, integer: true },
    maxAttempts: { min: 1, max: 20, integer: true },
    maxQuestions: { min: 1, max: 500, integer: true },
    maxIterations: { min: 1, max: 1_000, integer: true },
    maxTotalTokens: { min: 1_000, max: 1_000_000_000, integer: true },
    maxCostUsd: { min: 0.01, max: 10_000, integer: false },
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

/** Every knob, in the seed's order. */
export const INVESTIGATION_KNOBS = Object.keys(INVESTIGATION_LIMITS) as InvestigationKnob[];

/** The seed's name of a knob: `maxDepth` → `max_depth`. Pure. */
export function snakeCaseOf(knob: InvestigationKnob): string {
  return knob.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/** The knob a user named, in either case style (`max_depth` or `maxDepth`); undefined if none. Pure. */
export function investigationKnob(name: string): InvestigationKnob | undefined {
  return INVESTIGATION_KNOBS.find((knob) => knob === name || snakeCaseOf(knob) === name);
}

/** "a whole number from 0 to 10": what a knob accepts, for messages. Pure. */
export function describeRange(knob: InvestigationKnob): string {
  const limits = INVESTIGATION_LIMITS[knob];
  return `${limits.integer ? "a whole number" : "a number"} from ${limits.min} to ${limits.max}`;
}

/** Completes `partial` with the defaults and checks every range. Never throws. */
export function resolveInvestigationConfig(partial: Partial<InvestigationConfig> = {}): Result<InvestigationConfig> {
  const config: InvestigationConfig = { ...DEFAULT_INVESTIGATION_CONFIG };
  for (const [key, value] of Object.entries(partial) as [InvestigationKnob, number | undefined][]) {
    if (value === undefined) continue;
    // hasOwn: a prototype name such as "constructor" is not a knob.
    if (!Object.hasOwn(INVESTIGATION_LIMITS, key)) return err(`unknown investigative setting "${key}"`);
    const limits = INVESTIGATION_LIMITS[key];
    if (
      typeof value !== "number" ||
      !Number.isFinite(value) ||
      value < limits.min ||
      value > limits.max ||
      (limits.integer && !Number.isInteger(value))
    ) {
      return err(`${key} must be ${describeRange(key)} (got ${value})`);
    }
    config[key] = value;
  }
  return ok(config);
}
