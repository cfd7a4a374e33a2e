/**
 * Crash recovery with real child processes: a run killed with SIGKILL after k persisted
 * sources resumes with each of those sources exactly once and publishes where it was
 * started to publish. The kill comes when the k-th source's event is heard; sources fetched
 * at the same moment may share its commit (the store group-commits), so at least k are kept.
 */
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { EXAMPLE_CORPUS, runCli } from "../../testing/cli.js";
import { publishedReport } from "../../testing/read-report.js";
import { tempDir } from "../../testing/temp-dir.js";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

interface SourceRow {
  id: string;
  canonical_anchor: string;
  sha256: string;
  persisted_ms: number;
}

function sourceRows(dbFile: string): SourceRow[] {
  const db = new BetterSqlite3(dbFile, { readonly: true });
  try {
    return db
      .prepare("SELECT id, canonical_anchor, sha256, persisted_ms FROM sources WHERE run_id = 1 ORDER BY id")
      .all() as SourceRow[];
  } finally {
    db.close();
  }
}

const QUESTION = "How did lithium-ion battery cathodes and costs change from 1980 to 2020?";
const MAX_SOURCES = 6;

describe("assay resume after SIGKILL", () => {
  for (const k of [1, 2, 3, 5]) {
    it(`recovers each of ${k} persisted source(s) exactly once and publishes`, async () => {
      const dir = tempDir("assay-resume-");
      cleanups.push(dir.cleanup);
      const out = join(dir.path, "published");
      const db = join(dir.path, "runs.db");
      const crashed = await runCli(
        [
          "run",
          QUESTION,
          "--corpus",
          EXAMPLE_CORPUS,
          "--out",
          out,
          "--db",
          db,
          "--max-sources",
          String(MAX_SOURCES),
          "--fault",
          `crash-after-persisted:${k}`,
        ],
        { home: dir.path },
      );
      expect(crashed.signal).toBe("SIGKILL");
      const before = sourceRows(db);
      expect(before.length).toBeGreaterThanOrEqual(k);
      expect(before.length).toBeLessThanOrEqual(MAX_SOURCES);

      const listed = await runCli(["runs", "list", "--db", db], { home: dir.path });
      expect(listed.stdout).toMatch(/^1\s+interrupted/m);

      const resumed = await runCli(["resume", "1", "--db", db, "--json"], { home: dir.path });
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(JSON.parse(resumed.stdout)).toMatchObject({
        runId: 1,
        status: "finished",
        artifactStatus: "synthesized",
      });

      const after = sourceRows(db);
      expect(after).toHaveLength(MAX_SOURCES);
      expect(after.slice(0, before.length)).toEqual(before);
      const anchors = after.map((row) => row.canonical_anchor);
      expect(new Set(anchors).size).toBe(anchors.length);

      const doc = publishedReport(join(out, "report.json"));
      const listedIds = [...doc.sources, ...doc.reviewedSources].map((source) => source.id).sort();
      expect(listedIds).toEqual(after.map((row) => row.id));
      expect(doc.preliminary).toBe(false);

      const events = JSON.parse(
        (await runCli(["runs", "show", "1", "--db", db, "--json"], { home: dir.path })).stdout,
      ) as {
        events: { type: string; offsetMs: number }[];
      };
      const types = events.events.map((event) => event.type);
      expect(types.filter((type) => type === "run-resumed")).toHaveLength(1);
      expect(types.filter((type) => type === "source-persisted")).toHaveLength(MAX_SOURCES);
      const offsets = events.events.map((event) => event.offsetMs);
      expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
    });
  }

  it("reuses a synthesis recorded before the crash instead of generating again", async () => {
    const dir = tempDir("assay-resume-");
    cleanups.push(dir.cleanup);
    const out = join(dir.path, "published");
    const crashed = await runCli(
      ["run", QUESTION, "--corpus", EXAMPLE_CORPUS, "--out", out, "--fault", "crash-after:synthesis-admitted"],
      { home: dir.path },
    );
    expect(crashed.signal).toBe("SIGKILL");
    const resumed = await runCli(["resume", "1", "--json"], { home: dir.path });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ artifactStatus: "synthesized" });
    const show = JSON.parse((await runCli(["runs", "show", "1", "--json"], { home: dir.path })).stdout) as {
      events: { type: string; data: { purpose?: string } }[];
    };
    const types = show.events.map((event) => event.type);
    expect(types.filter((type) => type === "generation-started")).toHaveLength(2);
    expect(types).toContain("synthesis-reused");
    const doc = publishedReport(join(out, "report.json"));
    expect([...doc.directFindings, ...doc.findings].length).toBeGreaterThan(0);
  });

  it("refuses to resume a finished run", async () => {
    const dir = tempDir("assay-resume-");
    cleanups.push(dir.cleanup);
    const done = await runCli(["run", QUESTION, "--corpus", EXAMPLE_CORPUS, "--max-sources", "2", "--quiet"], {
      home: dir.path,
    });
    expect(done.code).toBe(0);
    const again = await runCli(["resume", "1"], { home: dir.path });
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/run 1 is finished; only an interrupted run can be resumed/);
  });
});
