/**
 * Model usage of a run, from its generation events: one rule for every place that shows or
 * limits it (the runs list, the live views, evaluations, the cost budget, a user's spend). Pure.
 */

export interface GenerationUsage {
  generations: number;
  inputTokens: number;
  outputTokens: number;
  /** The cost in USD; null when a generation that used tokens has no cost (its model has no price). */
  costUsd: number | null;
  /** The sum of the costs that are known (a lower bound of the spend when `costUsd` is null). */
  knownCostUsd: number;
  /** Generations that used tokens without a known cost. */
  unpriced: number;
}

type UsageEvent = { type: string; data: Record<string, unknown> };

/** Whether `event` records a generation (finished or failed: a failed call may still be billed). */
export const isGeneration = (event: { type: string }): boolean =>
  event.type === "generation-finished" || event.type === "generation-failed";

/** The usage one generation event records: its tokens and its cost (undefined when unknown). */
export function generationUsage(data: Record<string, unknown>): {
  inputTokens: number;
  outputTokens: number;
  costUsd: number | undefined;
} {
  const usage = (typeof data.usage === "object" && data.usage !== null ? data.usage : {}) as Record<string, unknown>;
  const count = (value: unknown): number => (typeof value === "number" && Number.isFinite(value) ? value : 0);
  const cost = usage.costUsd;
  return {
    inputTokens: count(usage.inputTokens),
    outputTokens: count(usage.outputTokens),
    costUsd: typeof cost === "number" && Number.isFinite(cost) ? cost : undefined,
  };
}

/** Tokens and cost of every generation among `events`. */
export function usageOf(events: readonly UsageEvent[]): GenerationUsage {
  const total = { generations: 0, inputTokens: 0, outputTokens: 0, knownCostUsd: 0, unpriced: 0 };
  for (const event of events) {
    if (!isGeneration(event)) continue;
    const usage = generationUsage(event.data);
    total.generations += 1;
    total.inputTokens += usage.inputTokens;
    total.outputTokens += usage.outputTokens;
    if (usage.costUsd !== undefined) total.knownCostUsd += usage.costUsd;
    // A priced model reports a cost; tokens without one mean the price is unknown.
    else if (usage.inputTokens + usage.outputTokens > 0) total.unpriced += 1;
  }
  return { ...total, costUsd: total.unpriced > 0 ? null : total.knownCostUsd };
}

/** An amount of USD as shown: cents above a dollar, four decimals below ("$2.50", "$0.0123"). */
export function formatUsd(value: number): string {
  return `$${value.toFixed(value >= 1 ? 2 : 4)}`;
}

/** "$0.0123", or "unknown" (with the known part as "≥ $…") for a spend that includes unpriced generations. */
export function describeCost(usage: Pick<GenerationUsage, "costUsd" | "knownCostUsd">): string {
  if (usage.costUsd !== null) return formatUsd(usage.costUsd);
  return usage.knownCostUsd > 0
    ? `≥ ${formatUsd(usage.knownCostUsd)} (a model without a price)`
    : "unknown (a model without a price)";
}

/**
 * The cost a run's line shows, or undefined when none was known (a free model, or one without
 * a price: its line shows tokens only, as it always has).
 */
export function runCost(usage: Pick<GenerationUsage, "costUsd" | "knownCostUsd">): string | undefined {
  return usage.knownCostUsd > 0 ? describeCost(usage) : undefined;
}
