import { mkdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { PostgresArtifactStore } from "../../adapters/artifacts/postgres/postgres-artifact-store.js";
import { systemClock } from "../../adapters/clock/system-clock.js";
import { openPgBossQueue } from "../../adapters/queue/pg-boss/pg-boss-queue.js";
import { openPostgresStore, type PostgresStore } from "../../adapters/store/postgres/postgres-store.js";
import { startRunWorker } from "../../runtime/run-worker.js";
import { createRuntime } from "../../runtime/runtime.js";
import { fakeScopeOpener } from "../../testing/fake-scope.js";
import { noticeMissingPostgres, POSTGRES_AVAILABLE } from "../../testing/postgres.js";
import { useTestPostgres } from "../../testing/postgres-suite.js";
import { tempDir } from "../../testing/temp-dir.js";
import { createHttpApp, type HttpAppOptions } from "./app.js";
import { createToken } from "./tokens.js";

noticeMissingPostgres("the HTTP API over PostgreSQL");

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe.runIf(POSTGRES_AVAILABLE)("HTTP API over PostgreSQL", () => {
  const server = useTestPostgres();

  async function harness(overrides: Partial<HttpAppOptions> = {}, url?: string) {
    const dir = tempDir("assay-http-pg-");
    mkdirSync(join(dir.path, "corpora", "batteries"), { recursive: true });
    const store: PostgresStore = await openPostgresStore({ url: url ?? (await server.createDatabase()) });
    const artifacts = new PostgresArtifactStore({ pool: store.pool });
    const scopes = fakeScopeOpener({
      documents: [{ path: "a.md", title: "Sony", text: "Sony sold the first lithium-ion battery in 1991." }],
    });
    const { app, drives } = createHttpApp({
      store,
      artifacts,
      runtimeFor: () =>
        createRuntime({
          store,
          artifacts,
          clock: systemClock,
          scopes,
          defaultOutDir: (id) => join(dir.path, String(id)),
        }),
      defaultModel: "none",
      corpusRoots: [realpathSync(join(dir.path, "corpora"))],
      pollMs: 5,
      ...overrides,
    });
    cleanups.push(async () => {
      await drives.shutdown();
      await store.close();
      dir.cleanup();
    });
    const secret = (await createToken(store, "alice", "", new Date())).secret;
    const other = (await createToken(store, "bob", "", new Date())).secret;
    const call = (path: string, init: RequestInit = {}, token = secret) =>
      Promise.resolve(app.request(path, { ...init, headers: { ...init.headers, Authorization: `Bearer ${token}` } }));
    const create = () =>
      call("/api/runs", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          question: "Who sold the first lithium-ion battery?",
          scope: { kind: "corpus", path: "batteries" },
        }),
      });
    return {
      store,
      drives,
      call,
      create,
      other,
      runtime: createRuntime({
        store,
        artifacts,
        clock: systemClock,
        scopes,
        defaultOutDir: (id) => join(dir.path, String(id)),
      }),
    };
  }

  it("drives a run in-process and serves its report from the database", async () => {
    const h = await harness();
    const created = await h.create();
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    await h.drives.settled(id);
    const markdown = await h.call(`/api/runs/${id}/report.md`);
    expect(markdown.status).toBe(200);
    expect(await markdown.text()).toContain("Sony");
    expect((await h.call(`/api/runs/${id}/report.md`, {}, h.other)).status).toBe(404);
  });

  it("with a queue: records the run queued for workers, owned by the caller, and counts it against the limit", async () => {
    const enqueued: number[] = [];
    const h = await harness({
      enqueue: async (runId) => {
        enqueued.push(runId);
      },
      limits: { concurrentRuns: 1 },
    });
    const created = await h.create();
    expect(created.status).toBe(201);
    const run = (await created.json()) as { id: number; status: string };
    expect(run.status).toBe("queued");
    expect(enqueued).toEqual([run.id]);
    expect(await h.store.getRun(run.id)).toMatchObject({ userId: "alice", worker: "", status: "running" });
    expect(h.drives.size).toBe(0);
    expect((await h.create()).status).toBe(429);
    // The worker that takes it reads the request (see cancel-worker.test.ts).
    const cancel = await h.call(`/api/runs/${run.id}/cancel`, { method: "POST" });
    expect(cancel.status).toBe(202);
    expect((await h.store.getRun(run.id))?.cancelRequestedAt).not.toBe("");
    expect((await h.store.getRun(run.id))?.status).toBe("running");
    expect((await h.call(`/api/runs/${run.id}/resume`, { method: "POST" })).status).toBe(409);
  });

  it("with pg-boss and a worker: the API queues the run, the worker drives it, the API streams and serves it", async () => {
    const url = await server.createDatabase();
    const queue = await openPgBossQueue({ url, supervise: true, maintenanceIntervalSeconds: 1 });
    cleanups.push(() => queue.close());
    const h = await harness(
      {
        enqueue: async (runId) =>
          void (await queue.enqueue(runId, { retries: 0, retryDelaySeconds: 1, leaseSeconds: 30 })),
      },
      url,
    );
    const created = await h.create();
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    const worker = startRunWorker({
      queue,
      store: h.store,
      clock: systemClock,
      runtimeFor: () => h.runtime,
      pollMs: 20,
    });
    try {
      const events = await (await h.call(`/api/runs/${id}/events`)).text();
      expect(events).toContain("event: run-started");
      expect(events).toContain("event: run-finished");
    } finally {
      worker.drain();
      await worker.done;
    }
    const run = (await (await h.call(`/api/runs/${id}`)).json()) as { status: string };
    expect(run.status).toBe("finished");
    expect(await (await h.call(`/api/runs/${id}/report.md`)).text()).toContain("Sony");
  }, 60_000);
});
