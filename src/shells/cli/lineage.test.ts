/**
 * Research in rounds, end to end through the binary on the example corpus with the offline
 * engine: a run, a follow-up that reuses its sources (the events show no fetch of them) and
 * finds new ones, a revision and the diff of the two versions, a follow-up killed with SIGKILL
 * and resumed once, and the library across runs.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReportDocument } from "../../core/report/report-document.js";
import { EXAMPLE_CORPUS, runCli } from "../../testing/cli.js";
import { tempDir } from "../../testing/temp-dir.js";

interface Shown {
  events: { type: string; data: Record<string, unknown> }[];
}

function eventsOf(db: string, runId: number): Shown["events"] {
  const handle = new BetterSqlite3(db, { readonly: true });
  try {
    const rows = handle.prepare("SELECT type, data FROM run_events WHERE run_id = ? ORDER BY seq").all(runId) as {
      type: string;
      data: string;
    }[];
    return rows.map((row) => ({ type: row.type, data: JSON.parse(row.data) as Record<string, unknown> }));
  } finally {
    handle.close();
  }
}

const QUESTION = "Why is cobalt a supply concern for lithium-ion batteries?";

describe("assay ask, revise, runs diff and library", () => {
  const dir = tempDir("assay-lineage-");
  const db = join(dir.path, "runs.db");
  const cli = async (...args: string[]) => {
    const result = await runCli([...args, "--db", db], { home: dir.path, timeoutMs: 90_000 });
    expect(result.code, `${args.join(" ")}: ${result.stderr}`).toBe(0);
    return result.stdout;
  };
  const report = (runId: number): ReportDocument =>
    JSON.parse(readFileSync(join(dir.path, "runs", String(runId), "report.json"), "utf8")) as ReportDocument;
  const events = async (runId: number) =>
    (JSON.parse(await cli("runs", "show", String(runId), "--json")) as Shown).events;
  const texts = (doc: ReportDocument) => [...doc.directFindings, ...doc.findings].map((item) => item.text);

  beforeAll(async () => {
    await cli("run", QUESTION, "--corpus", EXAMPLE_CORPUS, "--quiet");
  }, 120_000);
  afterAll(() => dir.cleanup());

  it("a follow-up starts from the run's sources without fetching them, reads new ones, keeps the numbers and says what it adds", async () => {
    const parent = report(1);
    await cli("ask", "1", "and what about sodium-ion?", "--quiet");
    const log = await events(2);
    const carried = log.find((event) => event.type === "sources-carried");
    const parentSources = [...parent.sources, ...parent.reviewedSources];
    expect(carried?.data).toEqual({ from: 1, sources: parentSources.length });
    const parentPaths = new Set(parentSources.map((source) => source.path));
    const fetched = log.filter((event) => event.type === "source-fetched").map((event) => event.data.anchor);
    // Nothing the parent read is fetched again; something new is.
    expect(fetched.filter((anchor) => parentPaths.has(anchor as string))).toEqual([]);
    expect(fetched.length).toBeGreaterThan(0);
    expect(log.filter((event) => event.type === "source-reused").length).toBeGreaterThan(0);

    const child = report(2);
    expect(child.question).toBe("and what about sodium-ion?");
    expect(child.lineage).toMatchObject({ relation: "follow-up", parentRun: 1, parentQuestion: QUESTION });
    expect(texts(child).some((text) => /sodium/i.test(text))).toBe(true);
    // A source the parent numbered keeps its number.
    const parentNumber = new Map(parentSources.map((source) => [source.path, source.number]));
    const kept = [...child.sources, ...child.reviewedSources].filter((source) => parentNumber.has(source.path));
    expect(kept.length).toBeGreaterThan(0);
    for (const source of kept) expect(source.number).toBe(parentNumber.get(source.path));
    // The findings it calls new are the ones the parent's report does not have.
    const before = new Set(texts(parent));
    const fresh = [...child.directFindings, ...child.findings].filter((item) => !before.has(item.text));
    expect(child.lineage?.newFindings).toEqual(fresh.map((item) => item.number));
    expect(readFileSync(join(dir.path, "runs", "2", "report.md"), "utf8")).toContain(
      "## What this adds to run 1's report",
    );

    const listed = await cli("runs", "show", "2");
    expect(listed).toMatch(/follow-up of run 1/);
  }, 120_000);

  it("a revision drops what it is told to, fetches nothing, and the diff names the removed findings", async () => {
    const parent = report(1);
    const nobel = texts(parent).filter((text) => /nobel/i.test(text));
    expect(nobel.length).toBeGreaterThan(0);
    await cli("revise", "1", "drop the part on the Nobel prize", "--quiet");
    const log = await events(3);
    expect(log.filter((event) => event.type === "source-fetched" || event.type === "search-finished")).toEqual([]);
    expect(log.filter((event) => event.type === "final-published").length).toBe(1);
    const revised = report(3);
    expect(revised.lineage).toMatchObject({ relation: "revision", version: 2, parentRun: 1 });
    expect(revised.lineage?.droppedByInstruction).toBeGreaterThanOrEqual(nobel.length);
    expect(texts(revised).filter((text) => /nobel/i.test(text))).toEqual([]);

    const diff = JSON.parse(await cli("runs", "diff", "3", "--json")) as {
      from: { run: number; version: number };
      to: { run: number; version: number };
      diff: { findings: { added: { text: string }[]; removed: { text: string }[] } };
    };
    expect(diff.from).toMatchObject({ run: 1, version: 1 });
    expect(diff.to).toMatchObject({ run: 3, version: 2 });
    const after = new Set(texts(revised));
    const beforeTexts = new Set(texts(parent));
    expect(diff.diff.findings.removed.map((item) => item.text).sort()).toEqual(
      texts(parent)
        .filter((text) => !after.has(text))
        .sort(),
    );
    expect(diff.diff.findings.added.map((item) => item.text).sort()).toEqual(
      texts(revised)
        .filter((text) => !beforeTexts.has(text))
        .sort(),
    );
    for (const text of nobel) expect(diff.diff.findings.removed.map((item) => item.text)).toContain(text);
    // The text diff names the same and the versions can be given.
    expect(await cli("runs", "diff", "1", "--from", "1", "--to", "2")).toMatch(
      /From version 1 \(run 1\) to version 2 \(run 3\)/,
    );
    // Revising the first report again revises the newest version.
    await cli("revise", "1", "add sodium-ion cells", "--quiet");
    expect(report(4).lineage).toMatchObject({ relation: "revision", version: 3, parentRun: 3 });
    expect(texts(report(4)).filter((text) => /nobel/i.test(text))).toEqual([]);
  }, 180_000);

  it("a follow-up killed with SIGKILL resumes exactly once", async () => {
    const crashed = await runCli(
      ["ask", "1", "what replaced cobalt in cathodes?", "--db", db, "--fault", "crash-after-persisted:1"],
      { home: dir.path, timeoutMs: 90_000 },
    );
    expect(crashed.signal).toBe("SIGKILL");
    const runId = 5;
    await cli("resume", String(runId), "--quiet");
    const log = await events(runId);
    expect(log.filter((event) => event.type === "run-finished").length).toBe(1);
    expect(log.filter((event) => event.type === "final-published").length).toBe(1);
    expect(log.filter((event) => event.type === "sources-carried").length).toBe(1);
    const doc = report(runId);
    expect(doc.lineage?.parentRun).toBe(1);
    const ids = [...doc.sources, ...doc.reviewedSources].map((source) => source.id);
    expect(new Set(ids).size).toBe(ids.length);
  }, 180_000);

  it("a revision of a report of excerpts (no model) quotes no passage on the dropped topic", async () => {
    await cli("run", QUESTION, "--corpus", EXAMPLE_CORPUS, "--model", "none", "--quiet");
    const parentId = 6;
    expect(report(parentId).status).toBe("source-backed");
    const quoted = (doc: ReportDocument) => doc.sourceCards.flatMap((card) => card.excerpts.map((item) => item.text));
    expect(quoted(report(parentId)).some((text) => /recycl/i.test(text))).toBe(true);
    await cli("revise", String(parentId), "drop the part on recycling", "--quiet");
    const revised = report(parentId + 1);
    expect(revised.lineage?.droppedByInstruction).toBeGreaterThan(0);
    expect(quoted(revised).filter((text) => /recycl/i.test(text))).toEqual([]);
    expect(readFileSync(join(dir.path, "runs", String(parentId + 1), "report.md"), "utf8")).toMatch(
      /Left out as the instruction asked: \d+ passages?\./,
    );
  }, 120_000);

  it("another user's run cannot be followed up (the CLI is the local user)", async () => {
    const result = await runCli(["ask", "99", "anything", "--db", db], { home: dir.path });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/there is no run 99/);
  });
  it("keeps a document two runs read once, searches it with no fetch, and forgets it without touching the runs", async () => {
    // Run 1 and run 6 (the report of excerpts) both read the cobalt document; the follow-ups and
    // revisions between them carried it over, which reads nothing.
    const entries = JSON.parse(await cli("library", "list", "--json", "--limit", "500")) as {
      id: number;
      path?: string;
      firstRunId: number;
      lastRunId: number;
      capturedAt: string;
    }[];
    const cobalt = entries.filter((entry) => entry.path === "industry/cobalt-supply-drc.md");
    expect(cobalt.length).toBe(1);
    expect(cobalt[0]).toMatchObject({ firstRunId: 1, lastRunId: 6 });

    const found = await cli("library", "search", "cobalt mining");
    expect(found).toContain(String(cobalt[0]?.id));

    await cli("run", "Where is cobalt mined?", "--library", "--quiet");
    const libraryRun = 8;
    const shown = eventsOf(db, libraryRun);
    expect(shown.filter((event) => event.type === "source-fetched")).toEqual([]);
    const recalled = shown.filter((event) => event.type === "source-recalled");
    expect(recalled.length).toBeGreaterThan(0);
    const fromLibrary = report(libraryRun);
    const read = [...fromLibrary.sources, ...fromLibrary.reviewedSources].find(
      (source) => source.path === "industry/cobalt-supply-drc.md",
    );
    // The library's copy keeps the time it was first read.
    expect(read?.capturedAt).toBe(cobalt[0]?.capturedAt);

    const reports = [1, 6, libraryRun].map((id) =>
      readFileSync(join(dir.path, "runs", String(id), "report.json"), "utf8"),
    );
    expect(await cli("library", "forget", String(cobalt[0]?.id))).toMatch(/Forgot library entry/);
    const left = JSON.parse(await cli("library", "list", "--json", "--limit", "500")) as { id: number }[];
    expect(left.map((entry) => entry.id)).not.toContain(cobalt[0]?.id);
    expect(
      [1, 6, libraryRun].map((id) => readFileSync(join(dir.path, "runs", String(id), "report.json"), "utf8")),
    ).toEqual(reports);
    const forgotten = await runCli(["library", "forget", String(cobalt[0]?.id), "--db", db], { home: dir.path });
    expect(forgotten.code).not.toBe(0);
    expect(forgotten.stderr).toMatch(/no library entry/);
  }, 180_000);
});
