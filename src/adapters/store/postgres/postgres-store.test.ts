import { readFileSync } from "node:fs";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { StoreError, UserError } from "../../../core/errors.js";
import { IdConflictError } from "../../../ports/investigation-store.js";
import { IN_CI, missingPostgresError, noticeMissingPostgres, POSTGRES_AVAILABLE } from "../../../testing/postgres.js";
import { useTestPostgres } from "../../../testing/postgres-suite.js";
import { createQuestions, sampleQuestion, sampleTransition } from "../investigation-contract.js";
import { runStoreContract, sampleRequest, sampleSource } from "../store-contract.js";
import { migrate, tableColumns } from "./postgres-migrations.js";
import { openPostgresStore, PostgresStore } from "./postgres-store.js";
import { redactUrl } from "./postgres-url.js";

const origin = { originAt: "2026-01-15T09:00:00.000Z", worker: "test:1" };

noticeMissingPostgres("the PostgreSQL store tests");

describe.runIf(!POSTGRES_AVAILABLE && IN_CI)("PostgreSQL store in CI", () => {
  it("has a PostgreSQL server to test against", () => {
    throw missingPostgresError();
  });
});

describe.runIf(POSTGRES_AVAILABLE)("PostgreSQL store", () => {
  const server = useTestPostgres();

  /** A store on a fresh, empty database of the test server. */
  const freshStore = async (): Promise<{ store: PostgresStore; url: string }> => {
    const url = await server.createDatabase();
    return { store: await openPostgresStore({ url }), url };
  };

  runStoreContract("PostgreSQL", {
    async open() {
      const { store } = await freshStore();
      return { store, cleanup: () => store.close() };
    },
    async deleteRun(store, runId) {
      if (!(store instanceof PostgresStore)) throw new Error("not the PostgreSQL store");
      await store.pool.query("DELETE FROM runs WHERE id = $1", [runId]);
    },
  });

  describe("PostgreSQL adapter", () => {
    it("keeps committed sources across a reopen, with numeric ids and offsets", async () => {
      const { store: first, url } = await freshStore();
      const run = await first.createRun(sampleRequest(), origin);
      await first.persistSource(run.id, sampleSource("a.md"), () => 1.25);
      await first.close();
      await first.close();
      const second = await openPostgresStore({ url });
      try {
        expect(typeof (await second.getRun(run.id))?.id).toBe("number");
        const sources = await second.listSources(run.id);
        expect(sources.map((source) => [source.id, source.runId, source.persistedMs])).toEqual([
          ["s_001", run.id, 1.25],
        ]);
        expect(sources[0]?.chunks).toHaveLength(2);
      } finally {
        await second.close();
      }
    });

    it("a failed source write leaves earlier records intact and writes nothing partial", async () => {
      const { store } = await freshStore();
      try {
        const run = await store.createRun(sampleRequest(), origin);
        await store.persistSource(run.id, sampleSource("a.md"), () => 1);
        await store.persistSource(run.id, sampleSource("b.md"), () => 2);
        // A real PostgreSQL failure in the middle of the transaction: the chunk insert of the third source aborts.
        await store.pool.query(`CREATE FUNCTION fail_third() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN IF NEW.source_id = 's_003' THEN RAISE EXCEPTION 'disk full (simulated)'; END IF; RETURN NEW; END $$`);
        await store.pool.query(
          "CREATE TRIGGER fail_third BEFORE INSERT ON chunks FOR EACH ROW EXECUTE FUNCTION fail_third()",
        );
        await expect(store.persistSource(run.id, sampleSource("c.md"), () => 3)).rejects.toThrow(
          /c\.md was not persisted.*disk full/,
        );
        const sources = await store.listSources(run.id);
        expect(sources.map((source) => [source.id, source.canonicalAnchor, source.chunks.length])).toEqual([
          ["s_001", "a.md", 2],
          ["s_002", "b.md", 2],
        ]);
        const orphans = await store.pool.query("SELECT COUNT(*) AS n FROM source_provenance WHERE source_id = 's_003'");
        expect(orphans.rows[0]).toEqual({ n: 0 });
        await store.pool.query("DROP TRIGGER fail_third ON chunks");
        expect((await store.persistSource(run.id, sampleSource("d.md"), () => 4)).source.id).toBe("s_003");
      } finally {
        await store.close();
      }
    });

    it("gives concurrent writers of one run distinct ids and seqs (two pools, as two processes would)", async () => {
      const { store: a, url } = await freshStore();
      const b = await openPostgresStore({ url });
      try {
        const run = await a.createRun(sampleRequest(), origin);
        const anchors = Array.from({ length: 12 }, (_, index) => `doc-${index}.md`);
        const persisted = await Promise.all(
          anchors.map((anchor, index) => (index % 2 ? a : b).persistSource(run.id, sampleSource(anchor), () => index)),
        );
        const ids = persisted.map((result) => result.source.id).sort();
        expect(ids).toEqual(anchors.map((_, index) => `s_${String(index + 1).padStart(3, "0")}`));
        const event = { type: "tick", offsetMs: 1, at: origin.originAt, data: {} };
        const seqs = await Promise.all(
          Array.from({ length: 10 }, (_, index) => (index % 2 ? a : b).appendEvent(run.id, event)),
        );
        expect(seqs.map((item) => item.seq).sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
        // Two writers proposing the same next question: one wins, the other gets IdConflictError.
        await a.applyMutation(run.id, createQuestions("q_001"), { stateSeq: 1 });
        const results = await Promise.allSettled([
          a.applyMutation(run.id, createQuestions("q_002"), { stateSeq: 2 }),
          b.applyMutation(run.id, createQuestions("q_002"), { stateSeq: 2 }),
        ]);
        expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
        const rejected = results.find((result) => result.status === "rejected");
        expect(rejected?.status === "rejected" && rejected.reason).toBeInstanceOf(IdConflictError);
        const loaded = await b.loadInvestigation(run.id);
        expect(loaded.transitions.map((t) => [t.questionId, t.seq])).toEqual([
          ["q_001", 1],
          ["q_002", 1],
        ]);
      } finally {
        await a.close();
        await b.close();
      }
    });

    it("a mutation whose question parent is written later in it commits (keys checked at COMMIT)", async () => {
      const { store } = await freshStore();
      try {
        const run = await store.createRun(sampleRequest(), origin);
        const mutation = createQuestions("q_001", "q_002");
        await store.applyMutation(run.id, mutation, { stateSeq: 1 });
        // q_003's parent q_004 is inserted after it, in the same mutation.
        const child = sampleQuestion("q_003", { parentId: "q_004", depth: 2 });
        const parent = sampleQuestion("q_004");
        await store.applyMutation(
          run.id,
          {
            ...mutation,
            questions: [child, parent],
            transitions: [sampleTransition("q_003", 1, "pending"), sampleTransition("q_004", 1, "pending")],
          },
          { stateSeq: 2 },
        );
        const loaded = await store.loadInvestigation(run.id);
        expect(loaded.questions.map((q) => [q.id, q.parentId])).toEqual([
          ["q_001", null],
          ["q_002", "q_001"],
          ["q_003", "q_004"],
          ["q_004", "q_001"],
        ]);
      } finally {
        await store.close();
      }
    });

    it("stores JSON columns as the exact text the store wrote", async () => {
      const { store } = await freshStore();
      try {
        const run = await store.createRun(sampleRequest({ investigation: { maxDepth: 2 } }), origin);
        const plain = await store.createRun(sampleRequest(), origin);
        const stored = async (id: number) =>
          (await store.pool.query("SELECT options FROM runs WHERE id = $1", [id])).rows[0]?.options;
        expect(await stored(run.id)).toBe('{"investigation":{"maxDepth":2}}');
        expect(await stored(plain.id)).toBe("{}");
        await store.pool.query("UPDATE runs SET options = $1 WHERE id = $2", ["{", run.id]);
        await expect(store.getRun(run.id)).rejects.toThrow(/stored run options is not valid JSON/);
      } finally {
        await store.close();
      }
    });

    it("upgrades an older database by adding only the missing columns", async () => {
      const url = await server.createDatabase();
      const old = new pg.Client({ connectionString: url });
      await old.connect();
      try {
        await old.query(readFileSync(new URL("../__fixtures__/postgres-v0-schema.sql", import.meta.url), "utf8"));
        expect((await tableColumns(old, "runs")).has("worker")).toBe(false);
      } finally {
        await old.end();
      }
      const store = await openPostgresStore({ url });
      try {
        const client = await store.pool.connect();
        try {
          for (const column of ["worker", "finished_at", "notes_id", "phase", "stop_reason", "user_id", "options"]) {
            expect((await tableColumns(client, "runs")).has(column)).toBe(true);
          }
          expect((await tableColumns(client, "sources")).has("content_type")).toBe(true);
          expect((await tableColumns(client, "sources")).has("note")).toBe(true);
          expect((await tableColumns(client, "inv_questions")).size).toBeGreaterThan(0);
          expect((await tableColumns(client, "web_sessions")).has("session_sha256")).toBe(true);
        } finally {
          client.release();
        }
        const legacy = await store.getRun(1);
        expect(legacy).toMatchObject({ worker: "", finishedAt: "", notesId: "", phase: "", userId: "local" });
        expect(legacy?.request.question).toBe("An old question");
        await store.persistSource(1, sampleSource("a.md"), () => 1);
        await store.applyMutation(1, createQuestions("q_001"), { stateSeq: 1 });
        expect((await store.loadInvestigation(1)).questions.map((q) => q.id)).toEqual(["q_001"]);
        // A second start finds nothing to add.
        expect(await migrate(store.pool)).toEqual({ ok: true, value: [] });
        const index = await store.pool.query("SELECT 1 FROM pg_indexes WHERE indexname = 'idx_runs_worker'");
        expect(index.rowCount).toBe(1);
      } finally {
        await store.close();
      }
    });

    it("a new database gets every column from schema.sql; a failed upgrade leaves it as it was", async () => {
      const url = await server.createDatabase();
      const pool = new pg.Pool({ connectionString: url });
      try {
        const failed = await migrate(pool, [{ table: "runs", column: "broken", definition: "TEXT CHECK (" }]);
        expect(failed.ok).toBe(false);
        if (!failed.ok) expect(failed.error).toMatch(/syntax error/);
        const tables = await pool.query("SELECT 1 FROM information_schema.tables WHERE table_name = 'runs'");
        expect(tables.rowCount).toBe(0);
        expect(await migrate(pool)).toEqual({ ok: true, value: [] });
      } finally {
        await pool.end();
      }
    });

    it("applies the schema once when several processes start together", async () => {
      const url = await server.createDatabase();
      const stores = await Promise.all(Array.from({ length: 4 }, () => openPostgresStore({ url })));
      try {
        const run = await stores[0]?.createRun(sampleRequest(), origin);
        expect(run?.id).toBe(1);
        expect((await stores[3]?.getRun(1))?.request.question).toBe(sampleRequest().question);
      } finally {
        await Promise.all(stores.map((store) => store.close()));
      }
    });

    it("refuses a bad URL or an unreachable server with a clear error that hides the password", async () => {
      await expect(openPostgresStore({ url: "postgres://user:hunter2@[bad/db" })).rejects.toThrow(
        /database URL is not a valid URL/,
      );
      const unreachable = openPostgresStore({
        url: "postgres://assay:hunter2@127.0.0.1:1/assay",
        connectTimeoutMs: 2_000,
      });
      await expect(unreachable).rejects.toBeInstanceOf(UserError);
      const message = await unreachable.catch((error: Error) => error.message);
      expect(message).toMatch(
        /cannot open the database postgres:\/\/assay:\*\*\*@127\.0\.0\.1:1\/assay: .*ECONNREFUSED/,
      );
      expect(message).not.toContain("hunter2");
      expect(redactUrl("postgresql://u:p@h/d?password=x")).toBe("postgresql://u:***@h/d?password=***");
    });

    it("wraps a failed write in StoreError", async () => {
      const { store } = await freshStore();
      try {
        await expect(
          store.appendEvent(999, { type: "x", offsetMs: 0, at: origin.originAt, data: {} }),
        ).rejects.toBeInstanceOf(StoreError);
      } finally {
        await store.close();
      }
    });
  });
});
