/**
 * The operator's policy over the real HTTP app: the models users may pick and each budget's
 * ceiling per run, refused with a 403 that names the limit; defaults above a ceiling lowered.
 */
import { afterEach, describe, expect, it } from "vitest";
import { UserError } from "../../core/errors.js";
import { type Harness, httpHarness } from "../../testing/http-harness.js";
import { parseCeiling } from "./run-policy.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const harness = async (...args: Parameters<typeof httpHarness>): Promise<Harness> => {
  const made = await httpHarness(...args);
  cleanups.push(made.close);
  return made;
};

const corpusRun = (extra: Record<string, unknown> = {}) => ({
  question: "Who built the first lithium-ion cell with a carbon anode?",
  scope: { kind: "corpus", path: "batteries" },
  ...extra,
});

const errorOf = async (response: Response) =>
  ((await response.json()) as { error: { code: string; message: string; field?: string } }).error;

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

  it("reads --max-budget as name=value within the hard limits", () => {
    expect(parseCeiling("maxSources=20", { wallClockMs: 60_000 })).toEqual({ wallClockMs: 60_000, maxSources: 20 });
    expect(() => parseCeiling("maxSource=20")).toThrow(UserError);
    expect(() => parseCeiling("maxSources=100000")).toThrow(/within 0\.\.500|within \d+\.\.\d+/);
    expect(() => parseCeiling("maxSources")).toThrow(/name=value/);
  });
});
