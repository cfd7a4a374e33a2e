import { describe, expect, it } from "vitest";
import { ExternalServiceError } from "../../../core/errors.js";
import { IN_CI, missingPostgresError, noticeMissingPostgres, POSTGRES_AVAILABLE } from "../../../testing/postgres.js";
import { useTestPostgres } from "../../../testing/postgres-suite.js";
import { openPostgresStore, type PostgresStore } from "../../store/postgres/postgres-store.js";
import { sampleRequest } from "../../store/store-contract.js";
import { markedPair, runArtifactContract } from "../artifact-contract.js";
import { PostgresArtifactStore, sha256Hex } from "./postgres-artifact-store.js";

const origin = { originAt: "2026-01-15T09:00:00.000Z", worker: "test:1" };
const accept = (): undefined => undefined;

noticeMissingPostgres("the PostgreSQL artifact store tests");

describe.runIf(!POSTGRES_AVAILABLE && IN_CI)("PostgreSQL artifact store in CI", () => {
  it("has a PostgreSQL server to test against", () => {
    throw missingPostgresError();
  });
});

describe.runIf(POSTGRES_AVAILABLE)("PostgreSQL artifact store", () => {
  const server = useTestPostgres();

  const freshStore = async (): Promise<PostgresStore> => openPostgresStore({ url: await server.createDatabase() });
  const newRun = async (store: PostgresStore) => {
    const run = await store.createRun(sampleRequest(), origin);
    return { runId: run.id, outDir: run.request.outDir };
  };

  runArtifactContract("PostgreSQL", {
    async open() {
      const store = await freshStore();
      return {
        artifacts: new PostgresArtifactStore({ pool: store.pool }),
        newTarget: () => newRun(store),
        reopen: () => new PostgresArtifactStore({ pool: store.pool }),
        cleanup: () => store.close(),
      };
    },
  });

  describe("PostgreSQL adapter", () => {
    it("stores each file's bytes with their hash, keeps the newest three versions, and returns keys", async () => {
      const store = await freshStore();
      try {
        const artifacts = new PostgresArtifactStore({ pool: store.pool, now: () => new Date("2026-01-15T10:00:00Z") });
        const target = await newRun(store);
        let published: Awaited<ReturnType<PostgresArtifactStore["publish"]>> | undefined;
        for (const marker of ["a", "b", "c", "d"])
          published = await artifacts.publish(target, markedPair(marker), accept);
        expect(published).toEqual({ version: "0004", paths: PostgresArtifactStore.keys(target.runId) });
        expect(published?.paths.json).toBe(`postgres:runs/${target.runId}/report.json`);
        const rows = await store.pool.query<{ version: number; name: string; content: Buffer; sha256: string }>(
          "SELECT version, name, content, sha256 FROM artifacts WHERE run_id = $1 ORDER BY version, kind",
          [target.runId],
        );
        expect([...new Set(rows.rows.map((row) => row.version))]).toEqual([2, 3, 4]);
        for (const row of rows.rows) expect(row.sha256).toBe(sha256Hex(row.content));
        const stored = await artifacts.currentVersion(target.runId);
        expect(stored?.version).toBe("0004");
        expect(stored?.files.map((file) => file.name).sort()).toEqual(["report.html", "report.json", "report.md"]);
        const json = stored?.files.find((file) => file.kind === "json");
        expect(json?.content.equals(Buffer.from(markedPair("d").json, "utf8"))).toBe(true);
      } finally {
        await store.close();
      }
    });

    it("serves one process's report to another process's store", async () => {
      const url = await server.createDatabase();
      const writer = await openPostgresStore({ url });
      const reader = await openPostgresStore({ url });
      try {
        const target = await newRun(writer);
        await new PostgresArtifactStore({ pool: writer.pool }).publish(target, markedPair("shared"), accept);
        const current = await new PostgresArtifactStore({ pool: reader.pool }).current(target);
        expect(current?.files).toEqual(markedPair("shared"));
      } finally {
        await writer.close();
        await reader.close();
      }
    });

    it("refuses to publish for a run the database does not hold", async () => {
      const store = await freshStore();
      try {
        const artifacts = new PostgresArtifactStore({ pool: store.pool });
        await expect(artifacts.publish({ runId: 999, outDir: "/tmp/x" }, markedPair("x"), accept)).rejects.toThrow(
          ExternalServiceError,
        );
        expect(await artifacts.current({ runId: 999, outDir: "/tmp/x" })).toBeUndefined();
      } finally {
        await store.close();
      }
    });

    it("deletes a run's artifacts with the run", async () => {
      const store = await freshStore();
      try {
        const artifacts = new PostgresArtifactStore({ pool: store.pool });
        const target = await newRun(store);
        await artifacts.publish(target, markedPair("gone"), accept);
        await store.pool.query("DELETE FROM runs WHERE id = $1", [target.runId]);
        expect(await artifacts.current(target)).toBeUndefined();
        const left = await store.pool.query("SELECT 1 FROM artifacts WHERE run_id = $1", [target.runId]);
        expect(left.rowCount).toBe(0);
      } finally {
        await store.close();
      }
    });
  });
});
