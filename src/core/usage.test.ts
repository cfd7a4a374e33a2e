import { describe, expect, it } from "vitest";
import { describeCost, runCost, usageOf } from "./usage.js";

const generation = (type: string, usage: Record<string, unknown>) => ({ type, data: { usage } });

describe("model usage from generation events", () => {
  it("sums tokens and costs of finished and failed generations, and nothing else", () => {
    const usage = usageOf([
      generation("generation-finished", { inputTokens: 100, outputTokens: 20, costUsd: 0.01 }),
      generation("generation-failed", { inputTokens: 50, outputTokens: 0, costUsd: 0.002 }),
      // A turn event repeats its generation's usage: counting it would bill the turn twice.
      generation("investigative-turn", { inputTokens: 100, outputTokens: 20, costUsd: 0.01 }),
      { type: "generation-started", data: {} },
    ]);
    expect(usage).toMatchObject({ generations: 2, inputTokens: 150, outputTokens: 20, unpriced: 0 });
    expect(usage.costUsd).toBeCloseTo(0.012);
    expect(describeCost(usage)).toBe("$0.0120");
  });

  it("says the cost is unknown when a generation used tokens without a price, and keeps the known part as a lower bound", () => {
    const usage = usageOf([
      generation("generation-finished", { inputTokens: 100, outputTokens: 20, costUsd: 0.01 }),
      generation("generation-finished", { inputTokens: 100, outputTokens: 20 }),
      // A call that used nothing costs nothing, priced or not.
      generation("generation-failed", { inputTokens: 0, outputTokens: 0 }),
    ]);
    expect(usage.costUsd).toBeNull();
    expect(usage.unpriced).toBe(1);
    expect(usage.knownCostUsd).toBeCloseTo(0.01);
    expect(describeCost(usage)).toBe("≥ $0.0100 (a model without a price)");
    expect(describeCost(usageOf([generation("generation-finished", { inputTokens: 5, outputTokens: 1 })]))).toBe(
      "unknown (a model without a price)",
    );
  });

  it("ignores malformed usage instead of adding NaN", () => {
    const usage = usageOf([
      generation("generation-finished", { inputTokens: "many", costUsd: Number.NaN }),
      { type: "generation-finished", data: {} },
    ]);
    expect(usage).toMatchObject({ generations: 2, inputTokens: 0, outputTokens: 0, costUsd: 0, unpriced: 0 });
  });
});

describe("the cost a run's line shows", () => {
  it("is none when no cost was known, the cost otherwise, a lower bound when some was not", () => {
    const line = (...usages: Record<string, unknown>[]) =>
      runCost(usageOf(usages.map((usage) => generation("generation-finished", usage))));
    expect(line({ inputTokens: 5, outputTokens: 1 })).toBeUndefined();
    expect(line({ inputTokens: 0, outputTokens: 0, costUsd: 0 })).toBeUndefined();
    expect(line({ inputTokens: 5, outputTokens: 1, costUsd: 0.5 })).toBe("$0.5000");
    expect(line({ inputTokens: 5, outputTokens: 1, costUsd: 0.5 }, { inputTokens: 5, outputTokens: 1 })).toBe(
      "≥ $0.5000 (a model without a price)",
    );
  });
});
