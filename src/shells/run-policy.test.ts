/**
 * The operator's policy over the real HTTP app: the models users may pick and each budget's
 * ceiling per run, refused with a 403 that names the limit; defaults above a ceiling lowered.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_BUDGETS } from "../core/budgets.js";
import { UserError } from "../core/errors.js";
import { corpusRun, errorOf, type Harness, httpHarnesses } from "../testing/http-harness.js";
import { parseCeiling } from "./run-policy.js";

const harness = httpHarnesses();

describe("operator policy", () => {
  it("offers only the server's model unless the operator allows others, and records nothing refused", async () => {
    const h = await harness();
    const refused = await h.create(corpusRun({ model: "openai:gpt-4o" }));
    expect(refused.status).toBe(403);
    expect(await errorOf(refused)).toMatchObject({
      code: "model_not_allowed",
      field: "model",
      message: "the model openai:gpt-4o is not offered by this server; pick one of: none",
    });
    expect(await h.store.listRuns()).toEqual([]);
    const allowed = await h.create(corpusRun({ model: "none" }));
    expect(allowed.status).toBe(201);
  });

  it("refuses a budget over its ceiling, naming it, and lowers a default above it", async () => {
    const h = await harness({}, { policy: { models: ["none"], ceilings: { maxSources: 4, wallClockMs: 60_000 } } });
    for (const [name, value, limit] of [
      ["maxSources", 5, 4],
      ["wallClockMs", 120_000, 60_000],
    ] as const) {
      const refused = await h.create(corpusRun({ budgets: { [name]: value } }));
      expect(refused.status).toBe(403);
      expect(await errorOf(refused)).toMatchObject({
        code: "budget_over_limit",
        field: `budgets.${name}`,
        message: `budgets.${name} ${value} is over this server's limit of ${limit} per run`,
      });
    }
    expect(await h.store.listRuns()).toEqual([]);
    const created = await h.create(corpusRun({ budgets: { maxSources: 3 } }));
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    await h.drives.settled(id);
    const run = await h.store.getRun(id);
    // Asked within the ceiling: kept; not asked, the default (300 000 ms) lowered to the ceiling.
    expect(run?.request.budgets).toMatchObject({ maxSources: 3, wallClockMs: 60_000 });
  });

  /** A run of `userId` that spent `costs` (USD, one generation each) at `at`; `queued`: still waiting to start. */
  const spent = async (h: Harness, userId: string, at: string, costs: (number | undefined)[], queued?: number) => {
    const request = {
      question: "earlier",
      language: "en",
      strategy: "pipeline" as const,
      model: "none",
      scope: { kind: "corpus" as const, root: h.corpus, label: "batteries" },
      budgets: { ...DEFAULT_BUDGETS, ...(queued === undefined ? {} : { maxCostUsd: queued }) },
      outDir: "",
    };
    const run = await h.store.createRun(request, { originAt: at, worker: queued === undefined ? "old:1" : "", userId });
    if (queued === undefined) await h.store.updateRun(run.id, { status: "finished", finishedAt: at });
    for (const costUsd of costs)
      await h.store.appendEvent(run.id, {
        type: "generation-finished",
        offsetMs: 1,
        at,
        data: {
          purpose: "synthesis",
          model: "openai:gpt-4o-mini",
          usage: { inputTokens: 10, outputTokens: 5, ...(costUsd === undefined ? {} : { costUsd }) },
        },
      });
    return run;
  };

  it("holds a run's cost budget under the per-run ceiling: asked above it is refused, not asked it is the ceiling", async () => {
    const h = await harness({}, { policy: { models: ["none"], ceilings: { maxCostUsd: 0.5 } } });
    const refused = await h.create(corpusRun({ budgets: { maxCostUsd: 0.75 } }));
    expect(refused.status).toBe(403);
    expect(await errorOf(refused)).toEqual({
      code: "budget_over_limit",
      field: "budgets.maxCostUsd",
      message: "budgets.maxCostUsd 0.75 is over this server's limit of 0.5 per run",
    });
    const created = await h.create(corpusRun());
    expect(created.status).toBe(201);
    const { id, budgets } = (await created.json()) as { id: number; budgets: Record<string, number> };
    expect(budgets.maxCostUsd).toBe(0.5);
    await h.drives.settled(id);
  });

  it("keeps each user's spend of the day (UTC) under the daily ceiling, holding the budgets of runs in progress", async () => {
    const h = await harness({}, { policy: { models: ["none"], ceilings: {}, maxCostUsdPerDay: 1 } });
    // The harness's clock: 2026-03-01T10:00Z. Yesterday's spend does not count; bob's is his own.
    await spent(h, "alice", "2026-02-28T23:00:00.000Z", [5]);
    await spent(h, "alice", "2026-03-01T08:00:00.000Z", [0.25, 0.25]);
    await spent(h, "bob", "2026-03-01T08:00:00.000Z", [0.9]);
    // A queued run of alice holds $0.2 of the day.
    await spent(h, "alice", "2026-03-01T09:00:00.000Z", [], 0.2);

    const over = await h.create(corpusRun({ budgets: { maxCostUsd: 0.5 } }));
    expect(over.status).toBe(403);
    expect(await errorOf(over)).toEqual({
      code: "daily_cost_over_limit",
      field: "budgets.maxCostUsd",
      message:
        "budgets.maxCostUsd 0.5 is over what is left of this server's limit of $1.00 a day: $0.3000 (spent $0.5000 today and your runs in progress hold $0.2000)",
    });
    const created = await h.create(corpusRun());
    expect(created.status).toBe(201);
    const run = (await created.json()) as { id: number; budgets: Record<string, number> };
    // Not asked: the run may spend what is left of the day.
    expect(run.budgets.maxCostUsd).toBeCloseTo(0.3);
    await h.drives.settled(run.id);

    const usage = await h.call("/api/usage");
    expect(usage.status).toBe(200);
    expect(await usage.json()).toMatchObject({
      user: "alice",
      today: { since: "2026-03-01T00:00:00.000Z", generations: 2, costUsd: 0.5, unpriced: 0 },
      total: { generations: 3, costUsd: 5.5 },
      limits: { costUsdPerDay: 1 },
    });

    // Bob has $0.1 left; once it is spent he is refused until the next day, which starts afresh.
    await spent(h, "bob", "2026-03-01T09:30:00.000Z", [0.1]);
    const spentOut = await h.create(corpusRun(), h.bob);
    expect(spentOut.status).toBe(403);
    expect(await errorOf(spentOut)).toMatchObject({
      code: "daily_cost_over_limit",
      message: "you have spent $1.00 today, all of this server's limit of $1.00 a day; try again after 00:00 UTC",
    });
    h.clock.ms = Date.parse("2026-03-02T00:00:01.000Z");
    const nextDay = await h.create(corpusRun(), h.bob);
    expect(nextDay.status).toBe(201);
    const next = (await nextDay.json()) as { id: number; budgets: Record<string, number> };
    expect(next.budgets.maxCostUsd).toBe(1);
    await h.drives.settled(next.id);
  });

  it("refuses a new run when the day's spend is not known (a model call without a price)", async () => {
    const h = await harness({}, { policy: { models: ["none"], ceilings: {}, maxCostUsdPerDay: 1 } });
    await spent(h, "alice", "2026-03-01T08:00:00.000Z", [0.1, undefined]);
    const refused = await h.create(corpusRun());
    expect(refused.status).toBe(403);
    expect((await errorOf(refused)).message).toMatch(
      /^your spend today is not known \(1 model calls of unknown price\)/,
    );
  });

  it("reads --max-budget as name=value within the hard limits", () => {
    expect(parseCeiling("maxSources=20", { wallClockMs: 60_000 })).toEqual({ wallClockMs: 60_000, maxSources: 20 });
    expect(() => parseCeiling("maxSource=20")).toThrow(UserError);
    expect(() => parseCeiling("maxSources=100000")).toThrow(
      "--max-budget: budget maxSources must be a whole number from 1 to 500 (got 100000)",
    );
    expect(parseCeiling("maxCostUsd=0.25")).toEqual({ maxCostUsd: 0.25 });
    expect(() => parseCeiling("maxSources")).toThrow(/name=value/);
  });
});
