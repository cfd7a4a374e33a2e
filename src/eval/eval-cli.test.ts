/**
 * `assay eval` end to end through the built CLI in child processes: the real SQLite store, the
 * offline engine and the example corpus, on three cases of examples/eval/cases.jsonl (a fault
 * fixture, a two-document case and the unanswerable one) so that the file stays short. Needs
 * `npm run build`.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import BetterSqlite3 from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CHROMIUM,
  CHROMIUM_AVAILABLE,
  IN_CI,
  launchChromium,
  missingChromiumError,
  noticeMissingChromium,
} from "../testing/chromium.js";
import { BIN, type CliResult, EXAMPLE_CORPUS, REPO_ROOT, runCli } from "../testing/cli.js";
import { tempDir } from "../testing/temp-dir.js";
import type { EvalRunRow, EvalSummary } from "./eval-types.js";
import { STANDARD_FAULTS } from "./faults.js";

const folder = tempDir("assay-eval-cli-");
/** One home for every command, so that the corpus index is built once. */
const HOME = join(folder.path, "home");
const EXAMPLE_CASES = join(REPO_ROOT, "examples", "eval", "cases.jsonl");
const CASE_IDS = ["ex-yoshino-anode", "ex-goodenough-austin", "ex-leaf-warranty-unanswerable"];
/** The only fault fixture among CASE_IDS. */
const FAULT_CASE_IDS = ["ex-yoshino-anode"];
const STRATEGIES = ["simple", "pipeline"];
const REPEAT = 2;
const CLEAN_RUNS = CASE_IDS.length * STRATEGIES.length * REPEAT;
const PLANNED = CLEAN_RUNS + STANDARD_FAULTS.length * FAULT_CASE_IDS.length * STRATEGIES.length;
const SLOW = 120_000;

beforeAll(() => {
  if (!existsSync(BIN) || !existsSync(join(REPO_ROOT, "dist", "shells", "cli", "main.js"))) {
    throw new Error("the CLI is not built: run `npm run build` (npm test does it)");
  }
});
afterAll(() => folder.cleanup());

/** A cases file holding the example cases `ids`, in their order in the example file. */
function casesFile(name: string, ids: readonly string[]): string {
  const lines = readFileSync(EXAMPLE_CASES, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "" && ids.includes((JSON.parse(line) as { id: string }).id));
  expect(lines).toHaveLength(ids.length);
  const file = join(folder.path, name);
  writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

function evalArgs(cases: string, out: string, extra: readonly string[] = [], repeat = REPEAT): string[] {
  return [
    "eval",
    cases,
    "--corpus",
    EXAMPLE_CORPUS,
    "--strategies",
    STRATEGIES.join(","),
    "--repeat",
    String(repeat),
    "--budget",
    "modelCallTimeoutMs=300",
    "--budget",
    "wallClockMs=20000",
    "--out",
    out,
    ...extra,
  ];
}

const evalCli = (args: readonly string[]): Promise<CliResult> => runCli(args, { home: HOME, timeoutMs: SLOW });

function lines(file: string): string[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "");
}

const readRows = (out: string): EvalRunRow[] =>
  lines(join(out, "runs.jsonl")).map((line) => JSON.parse(line) as EvalRunRow);

const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, "utf8")) as T;

function countRuns(database: string): number {
  const db = new BetterSqlite3(database, { readonly: true });
  try {
    return (db.prepare("SELECT count(*) AS n FROM runs").get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** Starts the CLI like runCli, but hands back the child so that a test can signal it. */
function startCli(args: readonly string[]): { child: ChildProcess; result: Promise<CliResult> } {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? "", HOME, ASSAY_HOME: HOME, NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const result = new Promise<CliResult>((resolve, reject) => {
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), SLOW);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
  return { child, result };
}

async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`the condition did not hold within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("assay eval on the example fixtures", () => {
  const out = join(folder.path, "eval");
  let cases = "";
  let result: CliResult | undefined;

  beforeAll(async () => {
    cases = casesFile("cases.jsonl", CASE_IDS);
    result = await evalCli(evalArgs(cases, out, ["--faults", "all", "--quiet"]));
  }, SLOW);

  it("exits 0 and records every planned run once, in the order it ran", () => {
    expect(result?.code, result?.stderr).toBe(0);
    expect(result?.stdout).toContain(`${PLANNED} of ${PLANNED} runs recorded.`);
    const rows = readRows(out);
    expect(rows).toHaveLength(PLANNED);
    expect(rows.map((row) => row.order)).toEqual(rows.map((_row, index) => index));
    expect(new Set(rows.map((row) => row.key)).size).toBe(PLANNED);
    for (const row of rows) {
      expect(row.key).toBe(`${row.caseId}|${row.strategy}|${row.fault}|${row.repeat}`);
      expect(CASE_IDS).toContain(row.caseId);
      expect(STRATEGIES).toContain(row.strategy);
      expect(row.runId, row.key).toEqual(expect.any(Number));
      expect(row.status, `${row.key}: ${row.error ?? ""}`).toBe("finished");
      expect(row.published, row.key).toBe(true);
      expect(row).toMatchObject({
        artifactStatus: expect.any(String),
        items: expect.any(Number),
        sources: { read: expect.any(Number), cited: expect.any(Number), gold: expect.any(Number) },
        latency: { wallMs: expect.any(Number) },
        usage: { generations: expect.any(Number) },
        verdict: { expected: null },
      });
      const report = join(out, "runs", String(row.order + 1).padStart(4, "0"));
      for (const file of ["report.json", "report.md", "report.html"]) {
        expect(existsSync(join(report, file)), `${row.key}: ${file}`).toBe(true);
      }
    }
    // Each run is one run in the evaluation's own database (a crash run is resumed, not redone).
    expect(countRuns(join(out, "assay.db"))).toBe(PLANNED);
    const unanswerable = rows.filter((row) => row.caseId === "ex-leaf-warranty-unanswerable");
    for (const row of unanswerable) expect(row).toMatchObject({ goldRecall: null, answerFound: null });
  });

  it("rotates cases and strategies across repeats, and runs the faults after the clean runs", () => {
    const rows = readRows(out);
    const clean = rows.filter((row) => row.fault === "none");
    expect(clean).toHaveLength(CLEAN_RUNS);
    const first = (repeat: number) => clean.find((row) => row.repeat === repeat);
    expect(first(0)).toMatchObject({ caseId: CASE_IDS[0], strategy: STRATEGIES[0], order: 0 });
    expect(first(1)?.caseId).not.toBe(first(0)?.caseId);
    expect(first(1)?.strategy).not.toBe(first(0)?.strategy);
    for (const repeat of [0, 1]) {
      const keys = clean.filter((row) => row.repeat === repeat).map((row) => `${row.caseId}|${row.strategy}`);
      expect(new Set(keys).size).toBe(CASE_IDS.length * STRATEGIES.length);
    }
    const faulted = rows.filter((row) => row.fault !== "none");
    expect(Math.min(...faulted.map((row) => row.order))).toBe(CLEAN_RUNS);
    expect([...new Set(faulted.map((row) => row.fault))]).toEqual([...STANDARD_FAULTS]);
    expect(new Set(faulted.map((row) => row.caseId))).toEqual(new Set(FAULT_CASE_IDS));
    for (const row of clean) expect(row).toMatchObject({ faultChecks: [], salvaged: null });
  });

  it("records the equal budgets in manifest.json and summary.json", () => {
    const manifest = readJson<{ budgets: Record<string, number>; repeat: number; faultCases: number }>(
      join(out, "manifest.json"),
    );
    const summary = readJson<EvalSummary>(join(out, "summary.json"));
    expect(manifest.budgets).toMatchObject({ modelCallTimeoutMs: 300, wallClockMs: 20_000 });
    expect(summary.budgets).toEqual(manifest.budgets);
    expect(manifest).toMatchObject({ repeat: REPEAT, faultCases: FAULT_CASE_IDS.length });
    expect(summary).toMatchObject({ runs: PLANNED, cases: CASE_IDS.length, repeat: REPEAT, baseline: "simple" });
    expect(summary.strategies).toEqual(STRATEGIES);
    expect(summary.perStrategy.map((item) => [item.strategy, item.runs])).toEqual(
      STRATEGIES.map((strategy) => [strategy, CASE_IDS.length * REPEAT]),
    );
  });

  it("writes summary.md with the per-strategy table, the judge marked not scored, and a verdict", () => {
    const markdown = readFileSync(join(out, "summary.md"), "utf8");
    expect(markdown).toContain("## Per strategy");
    expect(markdown).toMatch(/^\| Strategy \| Runs \| Published \|/m);
    expect(markdown).toMatch(/^\| simple \(baseline\) \| 6 \| 6 \| 0 \|/m);
    expect(markdown).toMatch(/^\| pipeline \| 6 \| 6 \| 0 \|/m);
    expect(markdown).toContain("## Verdict");
    expect(markdown).toMatch(/^### pipeline (wins|does not win) against simple$/m);
    const judgeRows = markdown.split("\n").filter((line) => /^\| (simple|pipeline) \| not scored/.test(line));
    expect(judgeRows).toHaveLength(STRATEGIES.length);
    for (const row of judgeRows) expect(row).toContain("no judge configured");
    for (const row of readRows(out)) expect(row.judge).toEqual({ scored: false, reason: "no judge configured" });
    const summary = readJson<EvalSummary>(join(out, "summary.json"));
    for (const item of summary.perStrategy) expect(item.judge.scored).toBe(false);
  });

  it("gives claim counts only to strategies that verify claims, gaps to every one, and no seed 000 block without both", () => {
    for (const row of readRows(out)) {
      expect(row).toMatchObject({ verifiedClaims: null, unverifiedClaims: null });
      expect(row.gaps).toBeGreaterThanOrEqual(0);
    }
    const summary = readJson<EvalSummary>(join(out, "summary.json"));
    for (const item of summary.perStrategy) {
      expect(item).toMatchObject({ verifiedClaims: null, unverifiedClaims: null, gapsReported: { n: 6 } });
    }
    expect(summary).toMatchObject({ comparison: null, strategyBudgets: {} });
    const markdown = readFileSync(join(out, "summary.md"), "utf8");
    expect(markdown).toMatch(
      /^\| Strategy \| .* \| Verified claims per run \| Unverified claims per run \| Contested claims per run \| Gaps reported per run \|/m,
    );
    expect(markdown).toMatch(
      /^\| simple \(baseline\) \| (?:[^|]+\| ){8}n\/a \| n\/a \| \d+\.\d\d \(n=6\) \| \d+\.\d\d \(n=6\) \|/m,
    );
    expect(markdown).not.toContain("Seed 000 comparison");
  });

  it("checks every faulted run, and pipeline passes every check of every fault", () => {
    const faulted = readRows(out).filter((row) => row.fault !== "none");
    expect(faulted).toHaveLength(PLANNED - CLEAN_RUNS);
    for (const row of faulted) {
      expect(row.faultChecks.length, row.key).toBeGreaterThan(0);
      expect(row.salvaged, row.key).toEqual(expect.any(Boolean));
    }
    const failing = faulted
      .filter((row) => row.strategy === "pipeline")
      .flatMap((row) => row.faultChecks.filter((check) => !check.passed).map((check) => `${row.key}: ${check.name}`));
    expect(failing).toEqual([]);
  });

  it("resumes an interrupted evaluation without redoing finished runs", async () => {
    const copy = join(folder.path, "eval-resumed");
    cpSync(out, copy, { recursive: true, verbatimSymlinks: true });
    const all = lines(join(copy, "runs.jsonl"));
    const kept = PLANNED - 3;
    writeFileSync(join(copy, "runs.jsonl"), `${all.slice(0, kept).join("\n")}\n`);
    const before = countRuns(join(copy, "assay.db"));

    const resumed = await evalCli(evalArgs(cases, copy, ["--faults", "all", "--resume"]));
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain(`Resuming: ${kept} of ${PLANNED} runs are already done.`);
    expect(countRuns(join(copy, "assay.db"))).toBe(before + (PLANNED - kept));
    const rows = readRows(copy);
    expect(rows).toHaveLength(PLANNED);
    expect(new Set(rows.map((row) => row.key))).toEqual(
      new Set(all.map((line) => (JSON.parse(line) as EvalRunRow).key)),
    );
    expect(rows.slice(0, kept).map((row) => row.runId)).toEqual(
      readRows(out)
        .slice(0, kept)
        .map((row) => row.runId),
    );
    expect(readJson<EvalSummary>(join(copy, "summary.json")).runs).toBe(PLANNED);
  });

  it("refuses a resume with another configuration, and a new evaluation into the same folder", async () => {
    const before = readFileSync(join(out, "runs.jsonl"), "utf8");
    const changed = await evalCli([...evalArgs(cases, out, ["--faults", "all", "--resume"]), "--repeat", "3"]);
    expect(changed.code).toBe(2);
    expect(changed.stderr).toMatch(/started with a different repeat\b/);
    const again = await evalCli(evalArgs(cases, out, ["--faults", "all", "--quiet"]));
    expect(again.code).toBe(2);
    expect(again.stderr).toContain("already holds an evaluation; continue it with --resume");
    expect(readFileSync(join(out, "runs.jsonl"), "utf8")).toBe(before);
  });

  describe.runIf(!CHROMIUM_AVAILABLE && IN_CI)("its summary page in chromium", () => {
    it("is installed", () => {
      throw missingChromiumError();
    });
  });

  noticeMissingChromium("the browser check of the evaluation's summary page");
  describe.skipIf(!CHROMIUM_AVAILABLE)(`its summary page in a real browser (${CHROMIUM})`, () => {
    it("shows one row per strategy and three charts with bars, with no error", async () => {
      const browser = await launchChromium();
      try {
        const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
        const page = await context.newPage();
        const errors: string[] = [];
        const requests: string[] = [];
        page.on("request", (request) => requests.push(request.url()));
        page.on("console", (message) => {
          if (message.type() === "error") errors.push(message.text());
        });
        page.on("pageerror", (error) => errors.push(error.message));
        const url = pathToFileURL(join(out, "summary.html")).href;
        await page.goto(url, { waitUntil: "load" });
        const table = page.locator('table[data-table="strategies"]');
        expect(await table.locator("tbody th[scope=row]").allInnerTexts()).toEqual(["simple (baseline)", "pipeline"]);
        expect(await table.locator("tbody tr").count()).toBe(STRATEGIES.length);
        expect(await page.locator("figure[data-chart]").count()).toBe(3);
        for (const chart of ["recall", "latency", "faults"]) {
          const bars = page.locator(`figure[data-chart="${chart}"] svg[role=img] rect[data-series]`);
          expect(await bars.count(), `${chart} bars`).toBeGreaterThan(0);
          const box = await bars.first().boundingBox();
          expect(box?.width ?? 0, `${chart}: first bar drawn`).toBeGreaterThan(0);
        }
        expect(errors).toEqual([]);
        expect(requests).toEqual([url]);
      } finally {
        await browser.close();
      }
    });
  });
});

describe("assay eval interrupted", () => {
  it("stops on SIGINT with exit code 130 and says how to resume, and --resume completes it", async () => {
    const cases = casesFile("interrupt-cases.jsonl", CASE_IDS);
    const out = join(folder.path, "interrupted");
    const rowsFile = join(out, "runs.jsonl");
    const planned = CASE_IDS.length * STRATEGIES.length;
    const { child, result } = startCli(evalArgs(cases, out, ["--quiet"], 1));
    await until(() => lines(rowsFile).length > 0, 60_000);
    child.kill("SIGINT");
    const stopped = await result;
    expect(stopped.code, stopped.stderr).toBe(130);
    expect(stopped.stderr).toContain("--resume");
    expect(stopped.stdout).toContain("(interrupted)");
    const done = lines(rowsFile).length;
    expect(done).toBeGreaterThan(0);
    expect(done).toBeLessThan(planned);
    // Only the run in flight was cancelled; the finished ones keep their terminal event last.
    const database = new BetterSqlite3(join(out, "assay.db"), { readonly: true });
    const cancelled = database
      .prepare("SELECT DISTINCT run_id AS id FROM run_events WHERE type = 'run-cancelled'")
      .all();
    database.close();
    const finishedIds = new Set(readRows(out).map((row) => row.runId));
    expect(cancelled.filter((row) => finishedIds.has((row as { id: number }).id))).toEqual([]);

    const resumed = await evalCli(evalArgs(cases, out, ["--resume"], 1));
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain(`Resuming: ${done} of ${planned} runs are already done.`);
    const rows = readRows(out);
    expect(rows).toHaveLength(planned);
    expect(new Set(rows.map((row) => row.key)).size).toBe(planned);
    expect(rows.map((row) => row.order).sort((a, b) => a - b)).toEqual(rows.map((_row, index) => index));
  });
});

describe("assay eval refuses bad input with exit code 2", () => {
  it("names the file and line of a malformed case", async () => {
    const file = join(folder.path, "malformed.jsonl");
    const good = lines(EXAMPLE_CASES)[0] ?? "";
    writeFileSync(file, `${good}\n\n{"id": "broken", "question": \n`);
    const out = join(folder.path, "malformed-out");
    const failed = await evalCli(evalArgs(file, out));
    expect(failed.code).toBe(2);
    expect(failed.stderr).toContain(`${file}:3: not a JSON object`);
    expect(existsSync(out)).toBe(false);
  });

  it("names the known strategies and faults", async () => {
    const cases = casesFile("bad-options.jsonl", CASE_IDS.slice(0, 1));
    const out = join(folder.path, "bad-options-out");
    const strategy = await evalCli([...evalArgs(cases, out), "--strategies", "simple,oracle"]);
    expect(strategy.code).toBe(2);
    expect(strategy.stderr).toContain('unknown strategy "oracle" (known: pipeline, simple, investigative)');
    const fault = await evalCli([...evalArgs(cases, out), "--faults", "planner-failure,meteor"]);
    expect(fault.code).toBe(2);
    expect(fault.stderr).toMatch(/unknown fault "meteor" \(known: planner-failure, synthesis-failure, .*, or all\)/);
    expect(existsSync(out)).toBe(false);
  });
});
