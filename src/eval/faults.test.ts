/**
 * Every named fault, run through the real harness and runtime (SQLite store, the example
 * corpus, the offline engine) on one fault-fixture case for both strategies: the checks of
 * its expected degradation, the scoring of the faulted row, and the evidence of the
 * degradation in the store. Then `faultChecks` on hand-built facts, so that a check that
 * could never fail is caught. The crash fault runs the built CLI: `npm run build` first.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FilesystemArtifactStore } from "../adapters/artifacts/filesystem/filesystem-artifact-store.js";
import { systemClock } from "../adapters/clock/system-clock.js";
import { corpusScopeOpener } from "../adapters/corpus/corpus-scope.js";
import { createOfflineModel } from "../adapters/models/offline/offline-model.js";
import { openSqliteStore, type SqliteStore } from "../adapters/store/sqlite/sqlite-store.js";
import { type Budgets, resolveBudgets } from "../core/budgets.js";
import { type ArtifactStatus, REPORT_SCHEMA_VERSION, type ReportDocument } from "../core/report/report-document.js";
import type { RunEvent, RunRequest, SearchCallRecord, SourceRecord } from "../ports/store.js";
import { crashRunner } from "../shells/cli/eval-command.js";
import { BIN, EXAMPLE_CORPUS, REPO_ROOT } from "../testing/cli.js";
import { publishedReport } from "../testing/read-report.js";
import { tempDir } from "../testing/temp-dir.js";
import { type EvalCase, loadCases } from "./cases.js";
import type { EvalRunRow } from "./eval-types.js";
import { type Fault, faultChecks, parseFault, type RunFacts, STANDARD_FAULTS } from "./faults.js";
import { type CrashOutcome, planRuns, runEvaluation } from "./harness.js";

const CASE_ID = "ex-yoshino-anode";
const STRATEGIES = ["simple", "pipeline"] as const;
type Strategy = (typeof STRATEGIES)[number];
const WALL_CLOCK_MS = 20_000;
/** The model-timeout fault's call limit: short, so that the never-answering model is cut quickly. */
const CALL_TIMEOUT_MS = 300;
/**
 * Every other run's call limit: an offline generation takes milliseconds, but on a loaded
 * 2-core machine one took over 300 ms and a clean run published no evidence.
 */
const SLOW_MACHINE_CALL_TIMEOUT_MS = 10_000;

/** One faulted run as the store and the published report left it. */
interface Evaluated {
  row: EvalRunRow;
  events: RunEvent[];
  sources: SourceRecord[];
  searches: SearchCallRecord[];
  doc: ReportDocument | undefined;
  /** crash-after-persisted: the child's end and the sources it left, read before the resume. */
  crash?: { outcome: CrashOutcome; before: SourceRecord[] };
}

let dir: { path: string; cleanup: () => void };
let store: SqliteStore;
let testCase: EvalCase;
let budgets: Budgets;

beforeAll(async () => {
  dir = tempDir("assay-faults-");
  store = openSqliteStore({ file: join(dir.path, "assay.db") });
  const cases = await loadCases(join(REPO_ROOT, "examples/eval/cases.jsonl"));
  const found = cases.find((candidate) => candidate.id === CASE_ID);
  if (!found?.faultFixture) throw new Error(`${CASE_ID} is not a fault fixture of examples/eval/cases.jsonl`);
  testCase = found;
  const resolved = resolveBudgets({ modelCallTimeoutMs: CALL_TIMEOUT_MS, wallClockMs: WALL_CLOCK_MS });
  if (!resolved.ok) throw new Error(resolved.error);
  budgets = resolved.value;
});

afterAll(async () => {
  await store?.close();
  dir?.cleanup();
});

function readDoc(outDir: string): ReportDocument | undefined {
  const file = join(outDir, "report.json");
  if (!existsSync(file)) return undefined;
  return publishedReport(file);
}

/** Runs `fault` ("none": a clean run) for both strategies through runEvaluation. */
async function evaluate(fault: string): Promise<Record<Strategy, Evaluated>> {
  const database = join(dir.path, "assay.db");
  // The child shares the parent's corpus index ($ASSAY_HOME/corpus-index): no second build.
  const crashes: { outcome: CrashOutcome; before: SourceRecord[] }[] = [];
  const realCrash = crashRunner(database, {
    PATH: process.env.PATH ?? "",
    HOME: dir.path,
    ASSAY_HOME: dir.path,
    NO_COLOR: "1",
  });
  const crashRun = async (request: RunRequest, after: number): Promise<CrashOutcome> => {
    const outcome = await realCrash(request, after);
    const before = outcome.runId === undefined ? [] : await store.listSources(outcome.runId);
    crashes.push({ outcome, before });
    return outcome;
  };
  const plan =
    fault === "none" ? planRuns([testCase], STRATEGIES, 1, [], 1) : planRuns([testCase], STRATEGIES, 0, [fault], 1);
  const result = await runEvaluation({
    cases: [testCase],
    plan,
    done: new Set(),
    budgets: fault === "model-timeout" ? budgets : { ...budgets, modelCallTimeoutMs: SLOW_MACHINE_CALL_TIMEOUT_MS },
    language: "en",
    modelSpec: "offline",
    corpus: { root: EXAMPLE_CORPUS, label: "examples" },
    outDir: join(dir.path, "evals", fault.replace(/[^a-z0-9]+/g, "-")),
    store,
    artifacts: new FilesystemArtifactStore(),
    clock: systemClock,
    scopes: corpusScopeOpener({ indexDir: join(dir.path, "corpus-index") }),
    model: createOfflineModel(),
    crashRun,
    onRow: () => {},
  });
  expect(result.interrupted).toBe(false);
  expect(result.rows.map((row) => `${row.strategy}|${row.fault}`).sort()).toEqual([
    `pipeline|${fault}`,
    `simple|${fault}`,
  ]);
  const evaluated = async (strategy: Strategy): Promise<Evaluated> => {
    const row = result.rows.find((candidate) => candidate.strategy === strategy);
    if (row?.runId == null) throw new Error(`no run for ${strategy}: ${row?.error ?? "no row"}`);
    const record = await store.getRun(row.runId);
    const crash = crashes.find((candidate) => candidate.outcome.runId === row.runId);
    return {
      row,
      events: await store.listEvents(row.runId),
      sources: await store.listSources(row.runId),
      searches: await store.listSearchCalls(row.runId),
      doc: record ? readDoc(record.request.outDir) : undefined,
      ...(crash ? { crash } : {}),
    };
  };
  return { simple: await evaluated("simple"), pipeline: await evaluated("pipeline") };
}

const checksOf = (row: EvalRunRow): [string, boolean][] => row.faultChecks.map((check) => [check.name, check.passed]);
const COMMON = ["run finished", "report published", "ended within the wall clock"];
const allPass = (names: readonly string[]): [string, boolean][] => names.map((name) => [name, true]);
const ofType = (run: Evaluated, type: string): RunEvent[] => run.events.filter((event) => event.type === type);
const itemsOf = (doc: ReportDocument): number =>
  doc.directFindings.length + doc.findings.length + doc.recommendations.length;

/** The scoring every faulted row must carry, checked against the store and the report. */
function expectScored(run: Evaluated, expected: { artifact: ArtifactStatus; salvaged: boolean; goldRecall: number }) {
  const { row, doc } = run;
  if (!doc) throw new Error(`${row.key}: nothing published`);
  expect(row.error).toBeUndefined();
  expect(row.status).toBe("finished");
  expect(row.published).toBe(true);
  expect(row.artifactStatus).toBe(expected.artifact);
  expect(doc.status).toBe(expected.artifact);
  expect(row.salvaged).toBe(expected.salvaged);
  expect(row.goldRecall).toBe(expected.goldRecall);
  expect(row.items).toBe(itemsOf(doc));
  expect(row.sources).toEqual({
    read: run.sources.length,
    cited: doc.sources.length,
    citedGold: doc.sources.filter((source) => testCase.gold.includes(source.path ?? "")).length,
    gold: testCase.gold.length,
  });
  const terminal = row.latency.terminalMs;
  expect(terminal).not.toBeNull();
  // Every fault ends the run on its own terms, never by running into the wall clock.
  expect(ofType(run, "deadline-reached")).toEqual([]);
  expect(terminal).toBeCloseTo(ofType(run, "run-finished").at(-1)?.offsetMs ?? Number.NaN, 0);
  const first = row.latency.firstSourcePersistedMs;
  if (run.sources.length === 0) expect(first).toBeNull();
  else expect(first).toBeCloseTo(ofType(run, "source-persisted")[0]?.offsetMs ?? Number.NaN, 0);
  expect(row.latency.wallMs).toBeGreaterThan(0);
  // The offline engine spends no tokens and costs nothing, but every generation counts.
  const generations = ofType(run, "generation-finished").length + ofType(run, "generation-failed").length;
  expect(generations).toBeGreaterThan(0);
  expect(row.usage).toEqual({ generations, inputTokens: 0, outputTokens: 0, costUsd: 0 });
  expect(row.judge).toEqual({ scored: false, reason: "no judge configured" });
}

describe("a clean run", () => {
  it("has no salvage figure and no fault checks", async () => {
    const runs = await evaluate("none");
    for (const strategy of STRATEGIES) {
      const { row } = runs[strategy];
      expect(row.fault).toBe("none");
      expect(row.salvaged).toBeNull();
      expect(row.faultChecks).toEqual([]);
      expect(row.status).toBe("finished");
      expect(row.artifactStatus).toBe("synthesized");
      expect(row.goldRecall).toBe(1);
    }
  });
});

describe("planner-failure", () => {
  const checks = [...COMMON, "failure recorded", "sources persisted despite the planner failure"];
  const artifactCheck = "source-backed or better artifact";

  it("the pipeline persists its bootstrap sources anyway and publishes; the loop is left with nothing", async () => {
    const { simple, pipeline } = await evaluate("planner-failure");

    expect(checksOf(pipeline.row)).toEqual(allPass([...checks, artifactCheck]));
    expectScored(pipeline, { artifact: "synthesized", salvaged: true, goldRecall: 1 });
    expect(ofType(pipeline, "generation-failed").map((event) => event.data.purpose)).toEqual(["planner"]);
    // No planner query was admitted: the bootstrap search is the only one, and every source comes from it.
    expect(pipeline.searches.map((search) => [search.origin, search.status])).toEqual([["bootstrap", "ok"]]);
    expect(ofType(pipeline, "queries-admitted")).toEqual([]);
    const bootstrapId = pipeline.searches[0]?.id;
    expect(pipeline.sources.every((source) => source.provenance.some((entry) => entry.queryId === bootstrapId))).toBe(
      true,
    );
    // The bootstrap sources are durable and published as the preliminary artifact before synthesis starts.
    const preliminary = ofType(pipeline, "preliminary-published");
    expect(preliminary.map((event) => [event.data.status, event.data.sources])).toEqual([
      ["source-backed", budgets.bootstrapSources],
    ]);
    // It is the bootstrap's report: built before planning starts (and written while the planned searches run).
    const planning = ofType(pipeline, "stage-changed").find((event) => event.data.stage === "planning");
    const persistedFirst = ofType(pipeline, "source-persisted").filter((event) => event.seq < (planning?.seq ?? 0));
    expect(persistedFirst).toHaveLength(budgets.bootstrapSources);
    const synthesis = ofType(pipeline, "stage-changed").find((event) => event.data.stage === "synthesis");
    expect(preliminary[0]?.seq).toBeLessThan(synthesis?.seq ?? -1);

    // The loop's only way to sources is a search turn, and that is what fails.
    expect(checksOf(simple.row)).toEqual([
      ...allPass(COMMON),
      ["failure recorded", true],
      ["sources persisted despite the planner failure", false],
      [artifactCheck, false],
    ]);
    expectScored(simple, { artifact: "no-evidence", salvaged: false, goldRecall: 0 });
    expect(ofType(simple, "generation-failed").map((event) => [event.data.purpose, event.data.kind])).toEqual([
      ["turn", "transport"],
    ]);
    expect(simple.sources).toEqual([]);
    expect(simple.searches).toEqual([]);
  });
});

describe("synthesis-failure", () => {
  const checks = [...COMMON, "failure recorded", "preliminary artifact retained", "no unadmitted findings"];

  it("both strategies keep the source-backed artifact with source cards and no findings", async () => {
    const runs = await evaluate("synthesis-failure");
    for (const [strategy, purpose] of [
      ["simple", "turn"],
      ["pipeline", "synthesis"],
    ] as const) {
      const run = runs[strategy];
      expect(checksOf(run.row)).toEqual(allPass(checks));
      expectScored(run, { artifact: "source-backed", salvaged: true, goldRecall: 1 });
      expect(ofType(run, "generation-failed").map((event) => [event.data.purpose, event.data.kind])).toEqual([
        [purpose, "transport"],
      ]);
      expect(ofType(run, "synthesis-admitted")).toEqual([]);
      expect(ofType(run, "answer-admitted")).toEqual([]);
      const doc = run.doc as ReportDocument;
      expect(itemsOf(doc)).toBe(0);
      expect(doc.sourceCards.length).toBeGreaterThan(0);
      expect(doc.sources.map((source) => source.id)).toEqual(doc.sourceCards.map((card) => card.sourceId));
      expect(run.sources.length).toBe(budgets.maxSources);
    }
    const preliminary = ofType(runs.pipeline, "preliminary-published");
    expect(preliminary.map((event) => event.data.status)).toEqual(["source-backed"]);
  });
});

describe("model-timeout", () => {
  const checks = [...COMMON, "every model call cut off at its limit"];
  const artifactCheck = "source-backed or better artifact";

  it("every call is cut off at its limit and the run ends long before the wall clock", async () => {
    const { simple, pipeline } = await evaluate("model-timeout");
    expect(checksOf(pipeline.row)).toEqual(allPass([...checks, artifactCheck]));
    expectScored(pipeline, { artifact: "source-backed", salvaged: true, goldRecall: 1 });
    expect(checksOf(simple.row)).toEqual([...allPass(checks), [artifactCheck, false]]);
    expectScored(simple, { artifact: "no-evidence", salvaged: false, goldRecall: 0 });
    expect(simple.sources).toEqual([]);

    for (const [run, purposes] of [
      [pipeline, ["planner", "synthesis"]],
      [simple, ["turn"]],
    ] as const) {
      const failed = ofType(run, "generation-failed");
      expect(failed.map((event) => [event.data.purpose, event.data.kind])).toEqual(
        purposes.map((purpose) => [purpose, "timeout"]),
      );
      expect(ofType(run, "generation-finished")).toEqual([]);
      // Each hanging call lasted at least its limit and ended as a timeout, not by the run's
      // deadline (which would leave a deadline-reached event and a "cancelled" call).
      const started = ofType(run, "generation-started");
      failed.forEach((event, index) => {
        const lasted = event.offsetMs - (started[index]?.offsetMs ?? Number.NaN);
        expect(lasted).toBeGreaterThanOrEqual(CALL_TIMEOUT_MS - 20);
      });
      expect(ofType(run, "deadline-reached")).toEqual([]);
    }
  });
});

describe("search-failure", () => {
  const checks = [...COMMON, "failure recorded", "nothing made up without sources"];

  it("every search failing leaves a no-evidence report with nothing made up", async () => {
    const runs = await evaluate("search-failure");
    for (const strategy of STRATEGIES) {
      const run = runs[strategy];
      expect(checksOf(run.row)).toEqual(allPass(checks));
      expectScored(run, { artifact: "no-evidence", salvaged: false, goldRecall: 0 });
      expect(run.searches.length).toBeGreaterThan(0);
      expect(run.searches.every((search) => search.status === "failed")).toBe(true);
      expect(ofType(run, "search-failed")).toHaveLength(run.searches.length);
      expect(run.sources).toEqual([]);
      const doc = run.doc as ReportDocument;
      expect(itemsOf(doc)).toBe(0);
      expect(doc.sources).toEqual([]);
      expect(doc.sourceCards).toEqual([]);
    }
  });

  it("only the first search failing: the pipeline still persists sources from its planner searches", async () => {
    const { simple, pipeline } = await evaluate("search-failure:1");
    expect(checksOf(pipeline.row)).toEqual(allPass(checks));
    expectScored(pipeline, { artifact: "synthesized", salvaged: true, goldRecall: 1 });
    const [first, ...rest] = pipeline.searches;
    expect(first?.status).toBe("failed");
    expect(rest.length).toBeGreaterThan(0);
    expect(rest.every((search) => search.status === "ok" && search.origin === "planner")).toBe(true);
    expect(pipeline.sources.length).toBe(budgets.maxSources);
    const working = new Set(rest.map((search) => search.id));
    for (const source of pipeline.sources) {
      expect(source.provenance.every((entry) => working.has(entry.queryId))).toBe(true);
    }
    // The loop makes one search, the failing one, then answers from nothing: gaps only.
    expect(checksOf(simple.row)).toEqual(allPass(checks));
    expectScored(simple, { artifact: "no-evidence", salvaged: false, goldRecall: 0 });
    expect(simple.searches.map((search) => search.status)).toEqual(["failed"]);
    expect(itemsOf(simple.doc as ReportDocument)).toBe(0);
  });
});

describe("fetch-failure:1", () => {
  const checks = [
    ...COMMON,
    "the fault fired",
    "failed source neither persisted nor cited",
    "failure recorded",
    "other sources persisted",
  ];

  it("the failed read is neither kept nor cited, and another hit takes its place", async () => {
    const runs = await evaluate("fetch-failure:1");
    for (const strategy of STRATEGIES) {
      const run = runs[strategy];
      expect(checksOf(run.row)).toEqual(allPass(checks));
      // The first read is the top hit, the case's gold document: losing it costs the recall.
      const failed = ofType(run, "fetch-failed");
      expect(failed.map((event) => event.data.anchor)).toEqual([testCase.gold[0]]);
      expectScored(run, { artifact: "synthesized", salvaged: true, goldRecall: 0 });
      const anchor = String(failed[0]?.data.anchor);
      const anchors = run.sources.flatMap((source) => [source.requestedAnchor, source.canonicalAnchor, source.path]);
      expect(anchors).not.toContain(anchor);
      expect(run.doc?.sources.map((source) => source.path)).not.toContain(anchor);
      expect(run.doc?.reviewedSources.map((source) => source.path)).not.toContain(anchor);
      // The failed read took no persisted-source slot: a further hit was read in its place.
      expect(run.sources.length).toBe(budgets.maxSources);
      const afterFailure = ofType(run, "source-persisted").filter((event) => event.seq > (failed[0]?.seq ?? 0));
      expect(afterFailure.length).toBeGreaterThan(0);
    }
  });
});

describe("crash-after-persisted:2", () => {
  const checks = [
    ...COMMON,
    "the process was killed",
    "at least 2 sources persisted before the crash",
    "each persisted source recovered exactly once",
    "sources persisted before the crash kept",
    "resumed",
  ];

  it("the killed run resumes with its persisted sources kept once, under the same ids", async () => {
    expect(existsSync(join(REPO_ROOT, "dist/shells/cli/main.js")), `${BIN} needs \`npm run build\``).toBe(true);
    const runs = await evaluate("crash-after-persisted:2");
    for (const strategy of STRATEGIES) {
      const run = runs[strategy];
      expect(checksOf(run.row)).toEqual(allPass(checks));
      expectScored(run, { artifact: "synthesized", salvaged: true, goldRecall: 1 });
      const crash = run.crash;
      if (!crash) throw new Error(`${strategy}: the crash runner was not used`);
      expect(crash.outcome).toMatchObject({ killed: true, detail: "the process was killed by SIGKILL" });
      expect(crash.before.length).toBeGreaterThanOrEqual(2);
      const after = new Map(run.sources.map((source) => [source.id, source]));
      for (const source of crash.before) {
        expect(after.get(source.id)).toMatchObject({ canonicalAnchor: source.canonicalAnchor, sha256: source.sha256 });
      }
      const anchors = run.sources.map((source) => source.canonicalAnchor);
      expect(new Set(anchors).size).toBe(anchors.length);
      expect(ofType(run, "source-persisted")).toHaveLength(run.sources.length);
      const resumed = ofType(run, "run-resumed");
      expect(resumed.map((event) => event.data.sources)).toEqual([crash.before.length]);
      const published = ofType(run, "final-published");
      expect(published.map((event) => event.data.status)).toEqual(["synthesized"]);
      expect(published[0]?.seq).toBeGreaterThan(resumed[0]?.seq ?? Number.POSITIVE_INFINITY);
      // The resume reads on to the source budget; reads in flight share one group commit, so the
      // kill may land after the budget was already persisted (then there is nothing left to read).
      expect(run.sources.length).toBe(Math.max(crash.before.length, budgets.maxSources));
    }
  });
});

describe("faultChecks on hand-built facts", () => {
  const AT = "2026-01-15T09:00:00.000Z";
  let seq = 0;
  const event = (type: string, offsetMs: number, data: Record<string, unknown> = {}): RunEvent => ({
    runId: 1,
    seq: ++seq,
    type,
    offsetMs,
    at: AT,
    data,
  });
  const source = (n: number, anchor = `docs/doc-${n}.md`): SourceRecord => ({
    runId: 1,
    id: `s_${String(n).padStart(3, "0")}`,
    requestedAnchor: anchor,
    canonicalAnchor: anchor,
    title: `Document ${n}`,
    transport: "corpus",
    path: anchor,
    domain: "",
    content: "text",
    truncated: false,
    contentType: "text/markdown",
    sha256: String(n).repeat(64).slice(0, 64),
    capturedAt: AT,
    fetchedMs: n,
    persistedMs: n,
    provenance: [],
    chunks: [],
  });
  const citation = { sourceId: "s_001", number: 1, chunkIds: ["s_001.p01"], passages: [1] };
  const reportDoc = (
    status: ArtifactStatus,
    options: { cards?: number; findings?: number; paths?: string[] } = {},
  ): ReportDocument => ({
    schemaVersion: REPORT_SCHEMA_VERSION,
    status,
    preliminary: false,
    title: "Question",
    question: "Question",
    language: "en",
    notice: "Notice.",
    boundary: { scope: "the local folder", statement: "Boundary." },
    directFindings: [],
    findings: Array.from({ length: options.findings ?? 0 }, (_, index) => ({
      number: index + 1,
      kind: "fact" as const,
      text: `Finding ${index + 1}.`,
      basedOn: [],
      citations: [citation],
      verification: { status: "not-checked" as const, supports: [], contradicts: [] },
    })),
    recommendations: [],
    gaps: [],
    sourceCards: Array.from({ length: options.cards ?? 0 }, (_, index) => ({
      sourceId: `s_00${index + 1}`,
      excerpts: [],
    })),
    attemptedQueries: [],
    acquisitionBoundaries: [],
    sources: (options.paths ?? ["docs/doc-1.md"]).map((path, index) => ({
      id: `s_00${index + 1}`,
      number: index + 1,
      title: path,
      path,
      capturedAt: AT,
    })),
    reviewedSources: [],
    generatedAt: AT,
  });
  const FINISHED = event("run-finished", 900);

  /** Facts under which every check of `fault` passes. */
  function goodFacts(fault: Fault): RunFacts {
    const base = { status: "finished", sources: [source(1), source(2)], wallClockMs: 1_000 };
    const synthesized = reportDoc("synthesized", { findings: 1 });
    switch (fault.kind) {
      case "planner-failure":
        return {
          ...base,
          doc: synthesized,
          events: [event("generation-failed", 10, { kind: "transport" }), FINISHED],
          log: { searchesFailed: 0 },
        };
      case "synthesis-failure":
        return {
          ...base,
          doc: reportDoc("source-backed", { cards: 2 }),
          events: [event("generation-failed", 10, { kind: "transport" }), FINISHED],
          log: { searchesFailed: 0 },
        };
      case "model-timeout":
        return {
          ...base,
          doc: reportDoc("source-backed", { cards: 2 }),
          events: [
            event("generation-failed", 10, { kind: "timeout" }),
            event("generation-failed", 20, { kind: "cancelled" }),
            FINISHED,
          ],
          log: { searchesFailed: 0 },
        };
      case "search-failure":
        return {
          ...base,
          doc: synthesized,
          events: [event("search-failed", 10), FINISHED],
          log: { searchesFailed: 1 },
        };
      case "fetch-failure":
        return {
          ...base,
          doc: synthesized,
          events: [event("fetch-failed", 10), FINISHED],
          log: { searchesFailed: 0, failedAnchor: "docs/failed.md" },
        };
      case "crash-after-persisted":
        return {
          ...base,
          doc: synthesized,
          events: [event("source-persisted", 10), event("source-persisted", 20), event("run-resumed", 30), FINISHED],
          log: { searchesFailed: 0 },
          crash: { killed: true, detail: "killed by SIGKILL", persistedBefore: ["s_001", "s_002"] },
        };
    }
  }

  const failing = (fault: Fault, facts: RunFacts): string[] =>
    faultChecks(fault, facts)
      .filter((check) => !check.passed)
      .map((check) => check.name);
  const without = (facts: RunFacts, type: string): RunFacts => ({
    ...facts,
    events: facts.events.filter((item) => item.type !== type),
  });
  const noEvidence = reportDoc("no-evidence", { paths: [] });

  it.each(STANDARD_FAULTS)("%s: every check passes on good facts", (name) => {
    const fault = parseFault(name);
    const checks = faultChecks(fault, goodFacts(fault));
    expect(checks.length).toBeGreaterThan(COMMON.length);
    expect(checks.filter((check) => !check.passed)).toEqual([]);
  });

  const CASES: [string, string, (facts: RunFacts) => RunFacts, string[]][] = [
    ["planner-failure", "the run failed", (f) => ({ ...f, status: "failed" }), ["run finished"]],
    [
      "planner-failure",
      "nothing published",
      (f) => ({ ...f, doc: undefined }),
      ["report published", "source-backed or better artifact"],
    ],
    [
      "planner-failure",
      "finished after the wall clock",
      (f) => ({ ...without(f, "run-finished"), events: [...f.events, event("run-finished", 1_001)] }),
      ["ended within the wall clock"],
    ],
    ["planner-failure", "no run-finished event", (f) => without(f, "run-finished"), ["ended within the wall clock"]],
    ["planner-failure", "no failure recorded", (f) => without(f, "generation-failed"), ["failure recorded"]],
    [
      "planner-failure",
      "no sources",
      (f) => ({ ...f, sources: [] }),
      ["sources persisted despite the planner failure"],
    ],
    ["planner-failure", "no evidence", (f) => ({ ...f, doc: noEvidence }), ["source-backed or better artifact"]],
    ["synthesis-failure", "no failure recorded", (f) => without(f, "generation-failed"), ["failure recorded"]],
    [
      "synthesis-failure",
      "synthesized anyway",
      (f) => ({ ...f, doc: reportDoc("synthesized", { cards: 2, findings: 1 }) }),
      ["preliminary artifact retained", "no unadmitted findings"],
    ],
    [
      "synthesis-failure",
      "source-backed without cards",
      (f) => ({ ...f, doc: reportDoc("source-backed") }),
      ["preliminary artifact retained"],
    ],
    [
      "synthesis-failure",
      "findings in a source-backed report",
      (f) => ({ ...f, doc: reportDoc("source-backed", { cards: 2, findings: 1 }) }),
      ["no unadmitted findings"],
    ],
    [
      "model-timeout",
      "a call failed otherwise",
      (f) => ({ ...f, events: [event("generation-failed", 5, { kind: "transport" }), ...f.events] }),
      ["every model call cut off at its limit"],
    ],
    [
      "model-timeout",
      "no call failed",
      (f) => without(f, "generation-failed"),
      ["every model call cut off at its limit"],
    ],
    ["model-timeout", "no evidence", (f) => ({ ...f, doc: noEvidence }), ["source-backed or better artifact"]],
    ["search-failure", "no failure recorded", (f) => without(f, "search-failed"), ["failure recorded"]],
    [
      "search-failure",
      "fewer events than failed searches",
      (f) => ({ ...f, log: { searchesFailed: 2 } }),
      ["failure recorded"],
    ],
    ["search-failure", "findings without sources", (f) => ({ ...f, sources: [] }), ["nothing made up without sources"]],
    [
      "search-failure",
      "a no-evidence report with findings",
      (f) => ({ ...f, sources: [], doc: reportDoc("no-evidence", { findings: 1, paths: [] }) }),
      ["nothing made up without sources"],
    ],
    ["fetch-failure:1", "the fault never fired", (f) => ({ ...f, log: { searchesFailed: 0 } }), ["the fault fired"]],
    [
      "fetch-failure:1",
      "the failed source persisted",
      (f) => ({ ...f, sources: [...f.sources, source(3, "docs/failed.md")] }),
      ["failed source neither persisted nor cited"],
    ],
    [
      "fetch-failure:1",
      "the failed source cited",
      (f) => ({ ...f, doc: reportDoc("synthesized", { findings: 1, paths: ["docs/failed.md"] }) }),
      ["failed source neither persisted nor cited"],
    ],
    ["fetch-failure:1", "no failure recorded", (f) => without(f, "fetch-failed"), ["failure recorded"]],
    ["fetch-failure:1", "no other sources", (f) => ({ ...f, sources: [] }), ["other sources persisted"]],
    [
      "crash-after-persisted:2",
      "no crash recorded",
      ({ crash: _crash, ...f }) => f,
      ["the process was killed", "at least 2 sources persisted before the crash"],
    ],
    [
      "crash-after-persisted:2",
      "the process exited on its own",
      (f) => ({ ...f, crash: { killed: false, detail: "exit 0", persistedBefore: ["s_001", "s_002"] } }),
      ["the process was killed"],
    ],
    [
      "crash-after-persisted:2",
      "too few sources before the crash",
      (f) => ({ ...f, crash: { killed: true, detail: "killed", persistedBefore: ["s_001"] } }),
      ["at least 2 sources persisted before the crash"],
    ],
    [
      "crash-after-persisted:2",
      "a source persisted twice under two ids",
      (f) => ({
        ...f,
        sources: [...f.sources, source(3, "docs/doc-1.md")],
        events: [event("source-persisted", 25), ...f.events],
      }),
      ["each persisted source recovered exactly once"],
    ],
    [
      "crash-after-persisted:2",
      "a persisted event too many",
      (f) => ({ ...f, events: [event("source-persisted", 25), ...f.events] }),
      ["each persisted source recovered exactly once"],
    ],
    [
      "crash-after-persisted:2",
      "a source lost in the resume",
      (f) => ({ ...f, sources: [source(1)], events: f.events.slice(1) }),
      ["sources persisted before the crash kept"],
    ],
    ["crash-after-persisted:2", "no resume", (f) => without(f, "run-resumed"), ["resumed"]],
  ];

  it.each(CASES)("%s: %s fails its check", (name, _what, mutate, expected) => {
    const fault = parseFault(name);
    expect(failing(fault, mutate(goodFacts(fault)))).toEqual(expected);
  });

  it("every check of every fault has a case in which it fails", () => {
    const covered = new Set(CASES.flatMap(([name, , , expected]) => expected.map((check) => `${name}|${check}`)));
    for (const name of STANDARD_FAULTS) {
      const fault = parseFault(name);
      for (const check of faultChecks(fault, goodFacts(fault))) {
        // The common checks are shared: their failing cases are under planner-failure.
        const owner = COMMON.includes(check.name) ? "planner-failure" : name;
        expect(covered.has(`${owner}|${check.name}`), `${name}: ${check.name}`).toBe(true);
      }
    }
  });
});
