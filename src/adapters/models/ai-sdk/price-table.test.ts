import { describe, expect, it } from "vitest";
import { costOf, defaultPrices } from "./price-table.js";

describe("costOf", () => {
  it("prices known models per million tokens", () => {
    expect(costOf({ inputTokens: 2_000_000, outputTokens: 500_000 }, "openai:gpt-4o-mini")).toBeCloseTo(0.6);
  });

  it("is undefined for an unknown model, never a guess", () => {
    expect(costOf({ inputTokens: 10, outputTokens: 10 }, "openai-compatible:llama3.1:8b")).toBeUndefined();
    expect(costOf({ inputTokens: 10, outputTokens: 10 }, "toString")).toBeUndefined();
  });

  it("is undefined above a price's input tier", () => {
    expect(costOf({ inputTokens: 200_001, outputTokens: 0 }, "google:gemini-2.5-pro")).toBeUndefined();
    expect(costOf({ inputTokens: 200_000, outputTokens: 0 }, "google:gemini-2.5-pro")).toBeCloseTo(0.25);
  });

  it("takes an overriding table", () => {
    const prices = { ...defaultPrices, "openai-compatible:local": { inputPerMillion: 0, outputPerMillion: 0 } };
    expect(costOf({ inputTokens: 5, outputTokens: 5 }, "openai-compatible:local", prices)).toBe(0);
  });
});
