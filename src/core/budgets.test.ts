import { describe, expect, it } from "vitest";
import {
  costAllows,
  DEFAULT_BUDGETS,
  NO_USE,
  parseBudgetAssignment,
  remaining,
  resolveBudgets,
  spend,
} from "./budgets.js";

describe("budgets", () => {
  it("fills defaults and keeps given values", () => {
    const resolved = resolveBudgets({ maxSources: 12 });
    expect(resolved).toEqual({ ok: true, value: { ...DEFAULT_BUDGETS, maxSources: 12 } });
  });

  it("refuses values outside the limits, non-integers and unknown keys", () => {
    expect(resolveBudgets({ maxSources: 0 })).toEqual({
      ok: false,
      error: expect.stringMatching(/maxSources must be a whole number from 1 to 500 \(got 0\)/),
    });
    expect(resolveBudgets({ maxSearchCalls: 2.5 }).ok).toBe(false);
    expect(resolveBudgets({ wallClockMs: 10 }).ok).toBe(false);
    expect(resolveBudgets({ bogus: 1 } as never)).toEqual({
      ok: false,
      error: expect.stringMatching(/^unknown budget "bogus" \(known: wallClockMs, .*maxCostUsd\)$/),
    });
  });

  it("takes a decimal cost limit, and only that budget as a decimal", () => {
    expect(resolveBudgets({ maxCostUsd: 0.25 })).toEqual({ ok: true, value: { ...DEFAULT_BUDGETS, maxCostUsd: 0.25 } });
    expect(resolveBudgets({ maxCostUsd: 0 }).ok).toBe(false);
    expect(parseBudgetAssignment("maxCostUsd=0.5")).toEqual({ ok: true, value: { name: "maxCostUsd", value: 0.5 } });
    expect(parseBudgetAssignment("maxSources=2.5")).toEqual({
      ok: false,
      error: "budget maxSources must be a whole number from 1 to 500 (got 2.5)",
    });
    expect(parseBudgetAssignment("maxSources")).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^expected name=value/),
    });
    expect(parseBudgetAssignment("bogus=1")).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^unknown budget "bogus"/),
    });
  });

  it("lets generations start under a cost limit only while the known spend is below it and every cost was known", () => {
    const limited = { ...DEFAULT_BUDGETS, maxCostUsd: 0.1 };
    expect(costAllows(DEFAULT_BUDGETS, { usd: 1000, unknown: true }).ok).toBe(true);
    expect(costAllows(limited, { usd: 0.0999, unknown: false }).ok).toBe(true);
    expect(costAllows(limited, { usd: 0.1, unknown: false })).toEqual({
      ok: false,
      error: "cost limit of $0.1 ($0.1000 spent)",
    });
    expect(costAllows(limited, { usd: 0, unknown: true })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/cost is not known/),
    });
  });

  it("requires the publish reserve to fit inside the wall clock", () => {
    const resolved = resolveBudgets({ wallClockMs: 5_000, publishReserveMs: 5_000 });
    expect(resolved.ok).toBe(false);
    if (!resolved.ok) expect(resolved.error).toMatch(/publish reserve/);
  });

  it("caps the bootstrap reserve at the source budget and per-source excerpts at the total", () => {
    const resolved = resolveBudgets({
      maxSources: 2,
      bootstrapSources: 5,
      excerptCharsPerSource: 900,
      excerptCharsTotal: 400,
    });
    expect(resolved.ok && resolved.value.bootstrapSources).toBe(2);
    expect(resolved.ok && resolved.value.excerptCharsPerSource).toBe(400);
  });

  it("spends until the maximum and then refuses", () => {
    const budgets = { ...DEFAULT_BUDGETS, maxSearchCalls: 2 };
    let use = NO_USE;
    for (let index = 0; index < 2; index++) {
      const spent = spend(budgets, use, "searchCalls");
      expect(spent.ok).toBe(true);
      if (spent.ok) use = spent.value;
    }
    expect(remaining(budgets, use, "searchCalls")).toBe(0);
    expect(spend(budgets, use, "searchCalls")).toEqual({ ok: false, error: "maxSearchCalls (2) is spent" });
    expect(use.fetchAttempts).toBe(0);
  });
});
