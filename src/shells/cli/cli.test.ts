import { existsSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { openSqliteStore } from "../../adapters/store/sqlite/sqlite-store.js";
import { parseReportDocument } from "../../core/report/report-document.js";
import { BIN, EXAMPLE_CORPUS, REPO_ROOT, runCli } from "../../testing/cli.js";
import { tempDir } from "../../testing/temp-dir.js";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});
function home(): string {
  const dir = tempDir("assay-cli-");
  cleanups.push(dir.cleanup);
  return dir.path;
}

beforeAll(() => {
  if (!existsSync(BIN) || !existsSync(join(BIN, "../../dist/shells/cli/main.js"))) {
    throw new Error("the CLI is not built: run `npm run build` (npm test does it)");
  }
});

const QUESTION = "Who discovered lithium cobalt oxide, and which company first sold a cell that used it?";

describe("assay run", () => {
  it("researches the example corpus and publishes the three files", async () => {
    const dir = home();
    const out = join(dir, "report");
    const result = await runCli(["run", QUESTION, "--corpus", EXAMPLE_CORPUS, "--out", out, "--json"], { home: dir });
    expect(result.code, result.stderr).toBe(0);
    const summary = JSON.parse(result.stdout.trim()) as Record<string, unknown>;
    expect(summary).toMatchObject({ runId: 1, status: "finished", artifactStatus: "synthesized" });
    expect(summary.artifacts).toEqual({
      json: join(out, "report.json"),
      markdown: join(out, "report.md"),
      html: join(out, "report.html"),
    });
    const doc = parseReportDocument(JSON.parse(readFileSync(join(out, "report.json"), "utf8")));
    expect(doc.ok).toBe(true);
    if (!doc.ok) return;
    expect(doc.value.sources.length).toBeGreaterThan(0);
    for (const source of doc.value.sources) {
      expect(source.id).toMatch(/^s_\d{3}$/);
      expect(source.path && existsSync(join(EXAMPLE_CORPUS, source.path))).toBe(true);
    }
    // The offline engine's findings are sentences quoted from the passages they cite.
    const findings = [...doc.value.directFindings, ...doc.value.findings];
    expect(findings.length).toBeGreaterThan(0);
    const runs = JSON.parse((await runCli(["runs", "show", "1", "--json"], { home: dir })).stdout) as {
      sources: { id: string }[];
    };
    expect(runs.sources.length).toBeGreaterThanOrEqual(doc.value.sources.length);
    for (const finding of findings) {
      for (const citation of finding.citations) {
        const cited = doc.value.sources.find((source) => source.id === citation.sourceId);
        expect(cited?.number).toBe(citation.number);
        const text = readFileSync(join(EXAMPLE_CORPUS, cited?.path ?? ""), "utf8").replace(/\s+/g, " ");
        if (finding.kind === "fact" && cited?.path?.endsWith(".txt")) expect(text).toContain(finding.text);
      }
    }
    expect(readlinkSync(join(out, "report.md"))).toBe(join("current", "report.md"));
    expect(readFileSync(join(out, "report.md"), "utf8")).toMatch(/^# Who discovered lithium cobalt oxide/);
    expect(readFileSync(join(out, "report.html"), "utf8")).toContain("<h1>Who discovered lithium cobalt oxide");
    // Progress lines on stderr when not a terminal.
    expect(result.stderr).toMatch(/source persisted: /);
    expect(result.stderr).toMatch(/report published: synthesized/);
    expect(readFileSync(join(out, "report.md"), "utf8")).toContain("offline extractive engine");
  });

  it("lists and shows runs, also as JSON", async () => {
    const dir = home();
    const run = await runCli(
      ["run", "thermal runaway onset temperature", "--corpus", EXAMPLE_CORPUS, "--max-sources", "3", "--quiet"],
      {
        home: dir,
      },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(join(dir, "runs", "1", "report.md"));
    const list = await runCli(["runs", "list"], { home: dir });
    expect(list.stdout).toMatch(/^1\s+finished\s+synthesized/m);
    const listJson = JSON.parse((await runCli(["runs", "list", "--json"], { home: dir })).stdout) as unknown[];
    expect(listJson).toHaveLength(1);
    const show = await runCli(["runs", "show", "1"], { home: dir });
    expect(show.stdout).toMatch(/Sources \(3\):/);
    expect(show.stdout).toMatch(/safety\/thermal-runaway-technical-note\.pdf/);
    const showJson = JSON.parse((await runCli(["runs", "show", "1", "--json"], { home: dir })).stdout) as {
      sources: unknown[];
      events: { type: string }[];
    };
    expect(showJson.sources).toHaveLength(3);
    expect(showJson.events[0]?.type).toBe("run-started");
    expect(showJson.events.at(-1)?.type).toBe("run-finished");
  });

  it("explains bad input with exit code 2 and loses nothing", async () => {
    const dir = home();
    const missing = await runCli(["run", "a question", "--corpus", join(dir, "nope")], { home: dir });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/the corpus folder .*nope does not exist/);
    const empty = await runCli(["run", "   ", "--corpus", EXAMPLE_CORPUS], { home: dir });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/the question is empty/);
    const badNumber = await runCli(["run", "q", "--corpus", EXAMPLE_CORPUS, "--max-sources", "0"], { home: dir });
    expect(badNumber.code).toBe(2);
    expect(badNumber.stderr).toMatch(/positive whole number/);
    const unknownRun = await runCli(["runs", "show", "42"], { home: dir });
    expect(unknownRun.code).toBe(2);
    expect(unknownRun.stderr).toMatch(/there is no run 42/);
    const resumeUnknown = await runCli(["resume", "7"], { home: dir });
    expect(resumeUnknown.code).toBe(2);
  });

  it("publishes an honest no-evidence report when nothing matches", async () => {
    const dir = home();
    const out = join(dir, "out");
    const result = await runCli(["run", "zyzzyva quuxblorf", "--corpus", EXAMPLE_CORPUS, "--out", out, "--json"], {
      home: dir,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ artifactStatus: "no-evidence" });
    const markdown = readFileSync(join(out, "report.md"), "utf8");
    expect(markdown).toContain("No evidence");
    expect(markdown).toContain("“zyzzyva quuxblorf”");
  });
});

describe("settings: the config file and --set", () => {
  it("refuses a bad config file with exit code 2, naming the file and the key, before writing anything", async () => {
    const dir = home();
    const file = join(dir, "config.json");
    const run = () => runCli(["run", "a question", "--corpus", EXAMPLE_CORPUS], { home: dir });
    writeFileSync(file, '{"investigative": {"max_depth": 11}}');
    const range = await run();
    expect(range.code).toBe(2);
    expect(range.stderr).toBe(
      `assay: config file ${file}: investigative.max_depth must be a whole number from 0 to 10 (got 11)\n`,
    );
    writeFileSync(file, '{"investigative": {"max_depth": 2},');
    const malformed = await run();
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toMatch(new RegExp(`^assay: config file ${file} is not valid JSON: `));
    writeFileSync(file, '{"budget": {"maxSources": 2}}');
    const unknown = await run();
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(
      `assay: config file ${file}: unknown key "budget" (known: investigative, budgets, policy)\n`,
    );
    const missing = await runCli(["run", "q", "--corpus", EXAMPLE_CORPUS, "--config", join(dir, "nope.json")], {
      home: dir,
    });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(`assay: --config: cannot read ${join(dir, "nope.json")}\n`);
    // --no-config skips the broken file in the home folder: the next error is the flag's.
    const skipped = await runCli(["run", "q", "--corpus", EXAMPLE_CORPUS, "--no-config", "--set", "max_depth=11"], {
      home: dir,
    });
    expect(skipped.code).toBe(2);
    expect(skipped.stderr).toMatch(/^assay: --set max_depth=11: /);
    const cases = join(REPO_ROOT, "examples", "eval", "cases.jsonl");
    const evaluation = await runCli(["eval", cases, "--corpus", EXAMPLE_CORPUS], { home: dir });
    expect(evaluation.code).toBe(2);
    expect(evaluation.stderr).toMatch(/unknown key "budget"/);
    expect(existsSync(join(dir, "assay.db"))).toBe(false);
    expect(existsSync(join(dir, "evals"))).toBe(false);
  });

  it("refuses a bad --set with exit code 2, naming the knob and its range", async () => {
    const dir = home();
    const run = (...flags: string[]) =>
      runCli(["run", "a question", "--corpus", EXAMPLE_CORPUS, ...flags], { home: dir });
    const range = await run("--set", "max_depth=11");
    expect(range.code).toBe(2);
    expect(range.stderr).toBe("assay: --set max_depth=11: max_depth must be a whole number from 0 to 10 (got 11)\n");
    const camel = await run("--set", "gatePriority=2");
    expect(camel.code).toBe(2);
    expect(camel.stderr).toBe("assay: --set gatePriority=2: gatePriority must be a number from 0 to 1 (got 2)\n");
    const unknown = await run("--set", "max_dpeth=2");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(
      /^assay: --set max_dpeth=2: unknown investigative knob "max_dpeth" \(known: max_depth, /,
    );
    const strategy = await run("--set", "max_depth=2", "--strategy", "simple");
    expect(strategy.code).toBe(2);
    expect(strategy.stderr).toBe(
      "assay: --set max_depth=2: the investigative knobs apply only to the investigative strategy, not to simple\n",
    );
    const cases = join(REPO_ROOT, "examples", "eval", "cases.jsonl");
    const evaluation = await runCli(["eval", cases, "--corpus", EXAMPLE_CORPUS, "--set", "max_depth=2"], { home: dir });
    expect(evaluation.code).toBe(2);
    expect(evaluation.stderr).toBe(
      "assay: --set max_depth=2: the investigative knobs apply only to the investigative strategy, not to simple, pipeline\n",
    );
    expect(existsSync(join(dir, "assay.db"))).toBe(false);
  });

  it("applies the config file's budgets under the --budget flags, and not its knobs to a pipeline run", async () => {
    const dir = home();
    writeFileSync(
      join(dir, "config.json"),
      JSON.stringify({ investigative: { max_depth: 2 }, budgets: { maxSearchCalls: 5, maxSources: 2 } }),
    );
    const run = await runCli(
      ["run", "thermal runaway onset temperature", "--corpus", EXAMPLE_CORPUS, "--budget", "maxSources=3", "--quiet"],
      { home: dir },
    );
    expect(run.code, run.stderr).toBe(0);
    const store = openSqliteStore({ file: join(dir, "assay.db") });
    try {
      const request = (await store.getRun(1))?.request;
      expect(request?.budgets).toMatchObject({ maxSearchCalls: 5, maxSources: 3 });
      expect(request?.investigation).toBeUndefined();
    } finally {
      await store.close();
    }
  });

  it("records the config file's settings in an evaluation's manifest, and resumes an older manifest without knobs", async () => {
    const dir = home();
    const cases = join(dir, "cases.jsonl");
    const example = readFileSync(join(REPO_ROOT, "examples", "eval", "cases.jsonl"), "utf8").split("\n")[0] ?? "";
    writeFileSync(cases, `${example}\n`);
    const config = join(dir, "settings.json");
    writeFileSync(config, JSON.stringify({ investigative: { maxDepth: 2 }, budgets: { maxSearchCalls: 3 } }));
    const out = join(dir, "eval");
    const args = ["eval", cases, "--corpus", EXAMPLE_CORPUS, "--repeat", "1", "--config", config, "--out", out];
    const first = await runCli([...args, "--quiet"], { home: dir, timeoutMs: 120_000 });
    expect(first.code, first.stderr).toBe(0);
    const manifestFile = join(out, "manifest.json");
    const manifest = JSON.parse(readFileSync(manifestFile, "utf8")) as Record<string, unknown>;
    expect(manifest).toMatchObject({ configFile: config, investigation: {}, budgets: { maxSearchCalls: 3 } });
    delete manifest.investigation;
    writeFileSync(manifestFile, JSON.stringify(manifest));
    const resumed = await runCli([...args, "--resume", "--quiet"], { home: dir, timeoutMs: 120_000 });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toMatch(/^2 of 2 runs recorded/);
  });
});
