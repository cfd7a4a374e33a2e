import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { tempDir } from "../../../testing/temp-dir.js";
import { createQuestions } from "../investigation-contract.js";
import { runStoreContract, sampleRequest, sampleSource } from "../store-contract.js";
import { migrate, tableColumns } from "./sqlite-migrations.js";
import { openSqliteStore, SqliteStore } from "./sqlite-store.js";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function freshFile(): string {
  const dir = tempDir();
  cleanups.push(dir.cleanup);
  return join(dir.path, "assay.db");
}

runStoreContract("SQLite", {
  async open() {
    const dir = tempDir();
    const store = openSqliteStore({ file: join(dir.path, "assay.db") });
    return {
      store,
      cleanup: async () => {
        await store.close();
        dir.cleanup();
      },
    };
  },
  async deleteRun(store, runId) {
    if (!(store instanceof SqliteStore)) throw new Error("not the SQLite store");
    store.db.prepare("DELETE FROM runs WHERE id = ?").run(runId);
  },
});

const INVESTIGATION_TABLES = [
  "inv_questions",
  "inv_dependencies",
  "inv_attempts",
  "inv_transitions",
  "inv_claims",
  "inv_claim_sources",
  "inv_claim_links",
  "inv_challenges",
  "inv_challenge_sources",
  "inv_notes_versions",
];

const origin = { originAt: "2026-01-15T09:00:00.000Z", worker: "test:1" };

describe("SQLite store", () => {
  it("opens in WAL mode with synchronous=FULL and foreign keys on", async () => {
    const store = openSqliteStore({ file: freshFile() });
    try {
      expect(store.db.pragma("journal_mode", { simple: true })).toBe("wal");
      expect(store.db.pragma("synchronous", { simple: true })).toBe(2);
      expect(store.db.pragma("foreign_keys", { simple: true })).toBe(1);
    } finally {
      await store.close();
    }
  });

  it("keeps committed sources across a reopen", async () => {
    const file = freshFile();
    const first = openSqliteStore({ file });
    const run = await first.createRun(sampleRequest(), origin);
    await first.persistSource(run.id, sampleSource("a.md"), () => 1);
    await first.close();
    const second = openSqliteStore({ file });
    try {
      const sources = await second.listSources(run.id);
      expect(sources.map((source) => source.id)).toEqual(["s_001"]);
      expect(sources[0]?.chunks).toHaveLength(2);
    } finally {
      await second.close();
    }
  });

  it("a failed source write leaves earlier records intact and writes nothing partial", async () => {
    const store = openSqliteStore({ file: freshFile() });
    try {
      const run = await store.createRun(sampleRequest(), origin);
      await store.persistSource(run.id, sampleSource("a.md"), () => 1);
      await store.persistSource(run.id, sampleSource("b.md"), () => 2);
      // A real SQLite failure in the middle of the transaction: the chunk insert of the third source aborts.
      store.db.exec(`CREATE TRIGGER fail_third BEFORE INSERT ON chunks WHEN NEW.source_id = 's_003'
        BEGIN SELECT RAISE(ABORT, 'disk full (simulated)'); END;`);
      await expect(store.persistSource(run.id, sampleSource("c.md"), () => 3)).rejects.toThrow(
        /c\.md was not persisted.*disk full/,
      );
      const sources = await store.listSources(run.id);
      expect(sources.map((source) => [source.id, source.canonicalAnchor, source.chunks.length])).toEqual([
        ["s_001", "a.md", 2],
        ["s_002", "b.md", 2],
      ]);
      const orphans = store.db
        .prepare("SELECT COUNT(*) AS n FROM source_provenance WHERE source_id = 's_003'")
        .get() as { n: number };
      expect(orphans.n).toBe(0);
      store.db.exec("DROP TRIGGER fail_third");
      const next = await store.persistSource(run.id, sampleSource("d.md"), () => 4);
      expect(next.source.id).toBe("s_003");
    } finally {
      await store.close();
    }
  });

  it("commits the writes of one turn together, each in its own savepoint: a failed one is rolled back alone", async () => {
    const store = openSqliteStore({ file: freshFile() });
    try {
      const first = await store.createRun(sampleRequest(), origin);
      const second = await store.createRun(sampleRequest(), origin);
      store.db.exec(`CREATE TRIGGER fail_b BEFORE INSERT ON sources WHEN NEW.canonical_anchor = 'b.md'
        BEGIN SELECT RAISE(ABORT, 'disk full (simulated)'); END;`);
      const event = { type: "note", offsetMs: 1, at: origin.originAt, data: {} };
      // Issued in one turn, from two runs, nothing awaited in between.
      const writes = [
        store.persistSource(first.id, sampleSource("a.md"), () => 1),
        store.appendEvent(second.id, event),
        store.persistSource(first.id, sampleSource("b.md"), () => 2),
        store.appendEvent(second.id, event),
        store.persistSource(first.id, sampleSource("c.md"), () => 3),
        store.appendEvent(first.id, event),
      ];
      // Nothing is visible before the group commits at the end of the turn.
      expect(await Promise.resolve(store.db.prepare("SELECT COUNT(*) AS n FROM run_events").get())).toEqual({ n: 0 });
      const settled = await Promise.allSettled(writes);
      expect(settled.map((outcome) => outcome.status)).toEqual([
        "fulfilled",
        "fulfilled",
        "rejected",
        "fulfilled",
        "fulfilled",
        "fulfilled",
      ]);
      expect(settled[2]?.status === "rejected" && String(settled[2].reason)).toMatch(/b\.md was not persisted/);
      const sources = await store.listSources(first.id);
      expect(sources.map((source) => [source.id, source.canonicalAnchor])).toEqual([
        ["s_001", "a.md"],
        ["s_002", "c.md"],
      ]);
      expect((await store.listEvents(second.id)).map((stored) => stored.seq)).toEqual([1, 2]);
      expect((await store.listEvents(first.id)).map((stored) => stored.seq)).toEqual([1]);
    } finally {
      await store.close();
    }
  });

  it("commits the writes still queued when it closes", async () => {
    const file = freshFile();
    const store = openSqliteStore({ file });
    const run = await store.createRun(sampleRequest(), origin);
    const pending = store.appendEvent(run.id, { type: "note", offsetMs: 1, at: origin.originAt, data: {} });
    await store.close();
    expect((await pending).seq).toBe(1);
    const reopened = openSqliteStore({ file });
    try {
      expect((await reopened.listEvents(run.id)).map((stored) => stored.type)).toEqual(["note"]);
    } finally {
      await reopened.close();
    }
  });

  it("upgrades an older database by adding only the missing columns", async () => {
    const file = freshFile();
    const old = new BetterSqlite3(file);
    old.exec(readFileSync(new URL("../__fixtures__/sqlite-v0-schema.sql", import.meta.url), "utf8"));
    expect(tableColumns(old, "runs").has("worker")).toBe(false);
    old.close();

    const store = openSqliteStore({ file });
    try {
      expect(tableColumns(store.db, "runs").has("worker")).toBe(true);
      expect(tableColumns(store.db, "runs").has("finished_at")).toBe(true);
      expect(tableColumns(store.db, "sources").has("content_type")).toBe(true);
      for (const column of ["notes_id", "phase", "stop_reason", "user_id", "options"]) {
        expect(tableColumns(store.db, "runs").has(column)).toBe(true);
      }
      expect(tableColumns(store.db, "sources").has("note")).toBe(true);
      for (const table of INVESTIGATION_TABLES) expect(tableColumns(store.db, table).size).toBeGreaterThan(0);
      expect(tableColumns(store.db, "web_sessions").has("session_sha256")).toBe(true);
      const legacy = await store.getRun(1);
      expect(legacy).toMatchObject({ worker: "", finishedAt: "", request: { question: "An old question" } });
      expect(legacy).toMatchObject({ notesId: "", phase: "", stopReason: "", userId: "local" });
      expect(legacy?.request.investigation).toBeUndefined();
      // The old run can hold an investigation.
      await store.persistSource(1, sampleSource("a.md"), () => 1);
      const noted = { id: "s_001", location: "a.md", domain: "", title: "", note: "read" };
      await store.applyMutation(1, { ...createQuestions("q_001"), sources: [noted] }, { stateSeq: 1 });
      const investigation = await store.loadInvestigation(1);
      expect(investigation.questions.map((question) => question.id)).toEqual(["q_001"]);
      expect(investigation.sources[0]?.note).toBe("read");
      // A second start finds nothing to add.
      expect(migrate(store.db)).toEqual({ ok: true, value: [] });
      const indexes = store.db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'idx_runs_worker'")
        .all();
      expect(indexes).toHaveLength(1);
    } finally {
      await store.close();
    }
  });

  it("stores the investigative knobs as JSON in runs.options and parses them on load", async () => {
    const store = openSqliteStore({ file: freshFile() });
    try {
      const run = await store.createRun(sampleRequest({ investigation: { maxDepth: 2 } }), origin);
      const plain = await store.createRun(sampleRequest(), origin);
      const stored = (id: number) =>
        (store.db.prepare("SELECT options FROM runs WHERE id = ?").get(id) as { options: string }).options;
      expect(JSON.parse(stored(run.id))).toEqual({ investigation: { maxDepth: 2 } });
      expect(stored(plain.id)).toBe("{}");
      // A knob this version does not know (a newer one wrote it) is left out; other keys are ignored.
      store.db
        .prepare("UPDATE runs SET options = ? WHERE id = ?")
        .run('{"investigation": {"maxDepth": 2, "futureKnob": 7}, "other": true}', run.id);
      expect((await store.getRun(run.id))?.request.investigation).toEqual({ maxDepth: 2 });
      store.db.prepare("UPDATE runs SET options = ? WHERE id = ?").run('{"investigation": {"maxDepth": "2"}}', run.id);
      await expect(store.getRun(run.id)).rejects.toThrow(/stored run options are invalid/);
      store.db.prepare("UPDATE runs SET options = ? WHERE id = ?").run("{", run.id);
      await expect(store.getRun(run.id)).rejects.toThrow(/stored run options is not valid JSON/);
    } finally {
      await store.close();
    }
  });

  it("reports a failed upgrade and leaves the database as it was", () => {
    const db = new BetterSqlite3(":memory:");
    try {
      const failed = migrate(db, [{ table: "runs", column: "broken", definition: "TEXT CHECK (" }]);
      expect(failed.ok).toBe(false);
      if (!failed.ok) expect(failed.error).toMatch(/incomplete input|syntax error/);
      // The whole transaction rolled back: not even schema.sql's tables exist.
      expect(tableColumns(db, "runs").size).toBe(0);
    } finally {
      db.close();
    }
  });

  it("a new database gets every column from schema.sql and skips the upgrades", () => {
    const db = new BetterSqlite3(":memory:");
    try {
      expect(migrate(db)).toEqual({ ok: true, value: [] });
      for (const table of INVESTIGATION_TABLES) expect(tableColumns(db, table).size).toBeGreaterThan(0);
    } finally {
      db.close();
    }
  });

  it("refuses a file that is not a database with a clear error", () => {
    const file = freshFile();
    writeFileSync(file, "this is not sqlite at all, just text that is long enough to have a header".repeat(10));
    expect(() => openSqliteStore({ file })).toThrow(/cannot open the database .*assay\.db/);
  });
});
