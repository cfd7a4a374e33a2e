import { describe, expect, it } from "vitest";
import { DEFAULT_BUDGETS, NO_USE, remaining, resolveBudgets, spend } from "./budgets.js";

describe("budgets", () => {
  it("fills defaults and keeps given values", () => {
    const resolved = resolveBudgets({ maxSources: 12 });
    expect(resolved).toEqual({ ok: true, value: { ...DEFAULT_BUDGETS, maxSources: 12 } });
  });

  it("refuses values outside the limits, non-integers and unknown keys", () => {
    expect(resolveBudgets({ maxSources: 0 })).toEqual({
      ok: false,
      error: expect.stringMatching(/maxSources must be an integer from 1 to 500 \(got 0\)/),
    });
    expect(resolveBudgets({ maxSearchCalls: 2.5 }).ok).toBe(false);
    expect(resolveBudgets({ wallClockMs: 10 }).ok).toBe(false);
    expect(resolveBudgets({ bogus: 1 } as never)).toEqual({ ok: false, error: 'unknown budget "bogus"' });
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
