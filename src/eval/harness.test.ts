/** The harness with a judge, failures retained, and interruption; over an in-memory scope. */
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { FilesystemArtifactStore } from "../adapters/artifacts/filesystem/filesystem-artifact-store.js";
import { systemClock } from "../adapters/clock/system-clock.js";
import { createOfflineModel } from "../adapters/models/offline/offline-model.js";
import { openSqliteStore, type SqliteStore } from "../adapters/store/sqlite/sqlite-store.js";
import { DEFAULT_BUDGETS, resolveBudgets } from "../core/budgets.js";
import { fakeScopeOpener, syntheticDocuments } from "../testing/fake-scope.js";
import { fail, ScriptedModel, succeed } from "../testing/scripted-model.js";
import { tempDir } from "../testing/temp-dir.js";
import type { EvalCase } from "./cases.js";
import type { EvalRunRow } from "./eval-types.js";
import { type HarnessOptions, planRuns, runEvaluation } from "./harness.js";
import { DEFAULT_THRESHOLDS, summarize } from "./summarize.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const cases: EvalCase[] = [
  {
    id: "c1",
    question: "lithium cathode energy density",
    answers: ["cathode"],
    gold: ["doc-001.md", "doc-002.md"],
    goldSentences: { "doc-001.md": ["Document 1 notes that battery lithium."] },
    label: null,
    faultFixture: false,
  },
  {
    id: "c2",
    question: "battery safety charge cycle",
    answers: [],
    gold: [],
    goldSentences: {},
    label: null,
    faultFixture: false,
  },
];

function setup(overrides: Partial<HarnessOptions> = {}): {
  options: HarnessOptions;
  rows: EvalRunRow[];
  store: SqliteStore;
} {
  const dir = tempDir();
  const store = openSqliteStore({ file: join(dir.path, "eval.db") });
  cleanups.push(async () => {
    await store.close();
    dir.cleanup();
  });
  const budgets = resolveBudgets({ maxSources: 4, wallClockMs: 20_000, publishReserveMs: 2_000 });
  if (!budgets.ok) throw new Error(budgets.error);
  const rows: EvalRunRow[] = [];
  const options: HarnessOptions = {
    cases,
    plan: planRuns(cases, ["simple", "pipeline"], 1, [], 0),
    done: new Set(),
    budgets: budgets.value,
    language: "en",
    modelSpec: "offline",
    corpus: { root: dir.path, label: "fake corpus" },
    outDir: join(dir.path, "out"),
    store,
    artifacts: new FilesystemArtifactStore(),
    clock: systemClock,
    scopes: fakeScopeOpener({ documents: syntheticDocuments(8) }),
    model: createOfflineModel(),
    crashRun: async () => ({ killed: false, detail: "not used", runId: undefined }),
    onRow: (row) => {
      rows.push(row);
    },
    ...overrides,
  };
  return { options, rows, store };
}

const meta = (strategies: string[]) => ({
  title: "t",
  createdAt: "2026-12-02T00:00:00.000Z",
  command: "assay eval",
  casesFile: "cases.jsonl",
  corpus: "corpus",
  cases: cases.length,
  repeat: 1,
  strategies,
  baseline: "simple",
  faults: [],
  model: "offline",
  judge: "scripted",
  budgets: DEFAULT_BUDGETS,
  elapsedMs: 1,
  thresholds: DEFAULT_THRESHOLDS,
});

describe("runEvaluation", () => {
  it("scores every published report with the judge; unknown and repeated item ids are not counted", async () => {
    const judge = new ScriptedModel();
    for (let index = 0; index < 4; index++) {
      judge.onJudge(async (input) => {
        expect(input.items.length).toBeGreaterThan(0);
        // The judge sees the text of every cited passage.
        expect(
          input.items.every(
            (item) => item.passages.length > 0 && item.passages.every((passage) => passage.text !== ""),
          ),
        ).toBe(true);
        expect(input.reportText).toContain(input.question);
        const [first, second] = input.items;
        return succeed({
          items: [
            ...(first ? [{ id: first.id, support: "supported" as const, reason: "says it" }] : []),
            ...(first ? [{ id: first.id, support: "unsupported" as const, reason: "repeated" }] : []),
            ...(second ? [{ id: second.id, support: "partial" as const, reason: "half" }] : []),
            { id: "f999", support: "unsupported" as const, reason: "not an item" },
          ],
          coverage: 2,
          decisionValue: 1,
          language: "matches",
        });
      });
    }
    const { options, rows } = setup({ judge });
    const result = await runEvaluation(options);
    judge.assertConsumed();
    expect(result.interrupted).toBe(false);
    expect(rows).toHaveLength(4);
    const c1 = judge.calls.find((call) => call.call === "judge" && call.input.question === cases[0]?.question);
    if (c1?.call !== "judge") throw new Error("expected a judge call for c1");
    expect(c1.input.reference).toEqual({ answers: ["cathode"], evidence: ["Document 1 notes that battery lithium."] });
    for (const row of rows) {
      expect(row.judge).toMatchObject({ scored: true, coverage: 2, decisionValue: 1, language: "matches" });
      if (row.judge.scored) {
        const { supported, partial, unsupported } = row.judge.support;
        expect(supported).toBe(1);
        expect(unsupported).toBe(0);
        expect(partial).toBeLessThanOrEqual(1);
      }
    }
    const summary = summarize(rows, meta(["simple", "pipeline"]));
    for (const strategy of summary.perStrategy) {
      expect(strategy.judge.scored).toBe(true);
      if (strategy.judge.scored) expect(strategy.judge.coverage.mean).toBe(1);
    }
  });

  it("says why a report was not scored when the judge fails, and never makes up a score", async () => {
    const judge = new ScriptedModel();
    for (let index = 0; index < 4; index++) judge.onJudge(async () => fail("malformed", "the reply did not fit"));
    const { options, rows } = setup({ judge });
    await runEvaluation(options);
    expect(rows.map((row) => row.judge)).toEqual(
      rows.map(() => ({ scored: false, reason: "the judge failed (malformed): the reply did not fit" })),
    );
    const summary = summarize(rows, meta(["simple", "pipeline"]));
    expect(summary.perStrategy.every((strategy) => !strategy.judge.scored)).toBe(true);
  });

  it("retains a failing run as a row and goes on", async () => {
    const { options, rows } = setup({
      plan: [
        { key: "c1|nonesuch|none|0", caseId: "c1", strategy: "nonesuch", fault: "none", repeat: 0, order: 0 },
        { key: "c1|pipeline|none|0", caseId: "c1", strategy: "pipeline", fault: "none", repeat: 0, order: 1 },
      ],
    });
    await runEvaluation(options);
    expect(rows.map((row) => [row.strategy, row.status, row.published])).toEqual([
      ["nonesuch", "error", false],
      ["pipeline", "finished", true],
    ]);
    expect(rows[0]?.error).toMatch(/unknown strategy "nonesuch"/);
    expect(rows[0]?.judge).toEqual({ scored: false, reason: "no judge configured" });
  });

  it("skips runs already done, and records nothing for the run an interruption cancels", async () => {
    const controller = new AbortController();
    const { options, rows, store } = setup({
      done: new Set(["c1|simple|none|0"]),
      signal: controller.signal,
      onStart: (run) => {
        if (run.key === "c2|simple|none|0") controller.abort();
      },
    });
    const result = await runEvaluation(options);
    expect(result.interrupted).toBe(true);
    expect(rows.map((row) => row.key)).toEqual(["c1|pipeline|none|0"]);
    // The skipped run never started; the cancelled one did and is not a result.
    expect((await store.listRuns()).length).toBeLessThanOrEqual(2);
  });
});
