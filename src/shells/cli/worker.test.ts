/**
 * `assay run --queue`, `assay worker` and `assay queue` against a real PostgreSQL server, with
 * the built CLI as real child processes: a queued run is published by a worker; a worker
 * SIGKILLed mid-run loses nothing (a second worker resumes the run once the lease runs out,
 * each source persisted once); a run that always fails is retried with backoff and then
 * dead-lettered; a worker killed on the last attempt leaves a dead letter that another worker
 * closes, and `assay queue retry` resumes that run to its publication.
 */
import { cpSync, existsSync, rmSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { openPostgresStore } from "../../adapters/store/postgres/postgres-store.js";
import type { RunRecord } from "../../ports/store.js";
import { BIN, EXAMPLE_CORPUS, runCli } from "../../testing/cli.js";
import { noticeMissingPostgres, POSTGRES_AVAILABLE } from "../../testing/postgres.js";
import { useTestPostgres } from "../../testing/postgres-suite.js";
import { tempDir } from "../../testing/temp-dir.js";
import { until } from "../../testing/until.js";
import { killAll, startWorkerProcess, type WorkerProcess } from "../../testing/worker-process.js";

const cleanups: (() => void)[] = [];
const workers: WorkerProcess[] = [];
afterEach(() => {
  killAll(workers);
  for (const cleanup of cleanups.splice(0)) cleanup();
});
function home(): string {
  const dir = tempDir("assay-worker-");
  cleanups.push(dir.cleanup);
  return dir.path;
}

beforeAll(() => {
  if (!existsSync(BIN) || !existsSync(join(BIN, "../../dist/shells/cli/main.js"))) {
    throw new Error("the CLI is not built: run `npm run build` (npm test does it)");
  }
});

noticeMissingPostgres("the queue and worker tests");

function startWorker(url: string, dir: string, extra: string[] = []): WorkerProcess {
  const worker = startWorkerProcess(url, dir, extra);
  workers.push(worker);
  return worker;
}

async function waitFor<T>(
  what: string,
  read: () => Promise<T | undefined>,
  worker: WorkerProcess,
  timeoutMs = 30_000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}; the worker wrote:\n${worker.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe.runIf(POSTGRES_AVAILABLE)("assay run --queue and assay worker", () => {
  const server = useTestPostgres();

  async function readRun(url: string, runId: number): Promise<RunRecord | undefined> {
    const store = await openPostgresStore({ url });
    try {
      return await store.getRun(runId);
    } finally {
      await store.close();
    }
  }
  const terminal = (url: string, runId: number) => async () => {
    const run = await readRun(url, runId);
    return run && run.status !== "running" ? run : undefined;
  };

  async function enqueue(url: string, dir: string, args: string[]): Promise<number> {
    const result = await runCli(
      ["run", "Who discovered lithium cobalt oxide?", "--db", url, "--queue", "--json", ...args],
      {
        home: dir,
      },
    );
    expect(result.code, result.stderr).toBe(0);
    const printed = JSON.parse(result.stdout.trim()) as { runId: number; status: string };
    expect(printed.status).toBe("queued");
    return printed.runId;
  }

  it("refuses --queue without a PostgreSQL database", async () => {
    const dir = home();
    const result = await runCli(["run", "q", "--corpus", EXAMPLE_CORPUS, "--queue"], { home: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("needs a PostgreSQL database");
  });

  it("a worker takes a queued run and publishes its report; runs list shows queued, then finished with the worker", async () => {
    const url = await server.createDatabase();
    const dir = home();
    const runId = await enqueue(url, dir, ["--corpus", EXAMPLE_CORPUS]);
    const queued = await runCli(["runs", "list", "--db", url, "--json"], { home: dir });
    expect(JSON.parse(queued.stdout)).toMatchObject([{ id: runId, status: "queued", worker: "" }]);

    const worker = startWorker(url, dir);
    const run = await waitFor("the run to finish", terminal(url, runId), worker);
    expect(run.status, worker.stderr()).toBe("finished");
    expect(run.worker).toMatch(/:\d+$/);
    expect(run.artifactStatus).not.toBe("");
    const listed = await runCli(["runs", "list", "--db", url], { home: dir });
    expect(listed.stdout).toContain("finished");
    expect(listed.stdout).toContain(run.worker.slice(0, 20));

    worker.child.kill("SIGTERM");
    expect(await worker.exited).toBe(0);
  }, 60_000);

  it("a worker killed mid-run loses nothing: another resumes it after the lease, each source persisted once", async () => {
    const url = await server.createDatabase();
    const dir = home();
    const runId = await enqueue(url, dir, [
      "--corpus",
      EXAMPLE_CORPUS,
      "--max-sources",
      "5",
      // Long enough that the resumed attempt renews it on a loaded machine; short enough to wait out.
      "--lease",
      "6",
      "--retry-delay",
      "1",
    ]);

    const first = startWorker(url, dir, ["--fault", "crash-after-persisted:2"]);
    expect(await first.exited).toBe("SIGKILL");
    const interrupted = await readRun(url, runId);
    expect(interrupted?.status).toBe("running");

    const second = startWorker(url, dir);
    const run = await waitFor("the resumed run to finish", terminal(url, runId), second);
    expect(run.status, second.stderr()).toBe("finished");
    expect(second.stderr()).toContain(`run ${runId}: attempt 2, resume`);

    const store = await openPostgresStore({ url });
    try {
      const sources = await store.listSources(runId);
      const anchors = sources.map((source) => source.canonicalAnchor);
      expect(new Set(anchors).size).toBe(anchors.length);
      expect(sources.length).toBeGreaterThanOrEqual(2);
      const events = await store.listEvents(runId);
      expect(events.filter((event) => event.type === "run-resumed")).toHaveLength(1);
      expect(events.filter((event) => event.type === "source-persisted")).toHaveLength(sources.length);
    } finally {
      await store.close();
    }
    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
  }, 60_000);

  it("retries a run that always fails with backoff, then records it failed and dead-letters its job", async () => {
    const url = await server.createDatabase();
    const dir = home();
    const corpus = join(dir, "corpus");
    cpSync(EXAMPLE_CORPUS, corpus, { recursive: true });
    const runId = await enqueue(url, dir, ["--corpus", corpus, "--retries", "1", "--retry-delay", "1"]);
    rmSync(corpus, { recursive: true, force: true });

    const worker = startWorker(url, dir);
    const run = await waitFor("the run to be given up", terminal(url, runId), worker);
    expect(run.status).toBe("failed");
    expect(run.error).toContain("gave up after 2 attempts");
    expect(worker.stderr()).toContain(`run ${runId}: attempt 2, start`);

    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const jobs = await client.query<{ name: string; state: string; retry_count: number; data: { runId: number } }>(
        "SELECT name, state, retry_count, data FROM pgboss.job ORDER BY created_on",
      );
      expect(jobs.rows.map((job) => [job.name, job.state, job.retry_count, job.data.runId])).toEqual([
        ["assay-runs", "failed", 1, runId],
        ["assay-runs-dead", "created", 0, runId],
      ]);
    } finally {
      await client.end();
    }
    worker.child.kill("SIGTERM");
    expect(await worker.exited).toBe(0);

    // The dead letter stays for operators until purged; the run stays failed.
    const listed = await runCli(["queue", "list", "--db", url], { home: dir });
    expect(listed.stdout).toContain("Queue: 0 queued, 0 active, 0 retrying, 1 dead-lettered");
    expect(listed.stdout).toMatch(
      new RegExp(`dead-lettered\\s+${runId}\\s+2/2 .*gave up: UserError: the corpus folder `),
    );
    const purged = await runCli(["queue", "purge-dead", "--db", url, "--json"], { home: dir });
    expect(purged.code, purged.stderr).toBe(0);
    expect(JSON.parse(purged.stdout)).toEqual({ removed: 1, runs: [runId], closed: [] });
    const again = await runCli(["queue", "purge-dead", String(runId), "--db", url], { home: dir });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`run ${runId} has no dead-lettered job`);
    expect((await readRun(url, runId))?.status).toBe("failed");
  }, 60_000);

  it("a worker killed on the last attempt: another worker records the run failed, and queue retry resumes it to its report", async () => {
    const url = await server.createDatabase();
    const dir = home();
    const runId = await enqueue(url, dir, [
      "--corpus",
      EXAMPLE_CORPUS,
      "--max-sources",
      "5",
      "--retries",
      "0",
      "--lease",
      "2",
    ]);
    const notYet = await runCli(["queue", "retry", String(runId), "--db", url], { home: dir });
    expect(notYet.code).toBe(2);
    expect(notYet.stderr).toContain(`run ${runId} is in the queue already`);

    const first = startWorker(url, dir, ["--fault", "crash-after-persisted:2"]);
    expect(await first.exited).toBe("SIGKILL");
    // The job's only lease runs out: maintenance dead-letters it, and a worker closes the run.
    const second = startWorker(url, dir);
    const run = await waitFor("the run to be closed", terminal(url, runId), second);
    expect(run.status).toBe("failed");
    expect(run.error).toBe(
      "gave up after 1 attempt: the lease ran out on the last attempt (its worker was killed, or lost the database, and stopped renewing it)",
    );
    expect(run.heartbeatAt).not.toBe("");
    // The worker logs the closing after it has written it: wait for the line, do not assume it is there yet.
    await until(
      () => second.stderr().includes(`run ${runId}: dead-lettered; recorded failed`),
      10_000,
      `the worker's log of closing run ${runId}; its stderr: ${second.stderr()}`,
    );

    const queue = await runCli(["queue", "list", "--db", url, "--json"], { home: dir });
    expect(JSON.parse(queue.stdout)).toMatchObject({
      depth: { queued: 0, active: 0, retrying: 0, deadLettered: 1 },
      jobs: [{ state: "dead-lettered", runId, attempts: 1, leaseExpired: true, error: "the lease ran out" }],
    });
    const health = await runCli(["health", "--db", url, "--json"], { home: dir });
    expect(health.code, health.stdout).toBe(0);
    expect(JSON.parse(health.stdout)).toMatchObject({
      healthy: true,
      queue: { deadLettered: 1 },
      checks: expect.arrayContaining([expect.objectContaining({ name: "jobs", status: "warn" })]),
    });
    // The worker's queue connections carry its name.
    expect(JSON.parse(health.stdout).workers.connected).toContain(`${hostname()}:${second.child.pid}`);

    // The retried attempt gets a lease a loaded machine cannot outrun (the dead job's was 2 s).
    const retried = await runCli(["queue", "retry", String(runId), "--db", url, "--lease", "60"], { home: dir });
    expect(retried.code, retried.stderr).toBe(0);
    expect(retried.stdout).toContain(`Run ${runId} (failed) queued again`);
    const resumed = await waitFor(
      "the retried run to finish",
      async () => {
        const current = await readRun(url, runId);
        return current?.status === "finished" ? current : undefined;
      },
      second,
    );
    expect(resumed).toMatchObject({ status: "finished", error: "" });
    expect(second.stderr()).toContain(`run ${runId}: attempt 1, resume`);

    const store = await openPostgresStore({ url });
    try {
      const sources = await store.listSources(runId);
      const anchors = sources.map((source) => source.canonicalAnchor);
      expect(new Set(anchors).size).toBe(anchors.length);
      const events = await store.listEvents(runId);
      expect(events.find((event) => event.type === "run-requeued")?.data).toEqual({
        previousStatus: "failed",
        previousError: run.error,
        deadLettered: 1,
      });
      expect(events.filter((event) => event.type === "run-resumed")).toHaveLength(1);
    } finally {
      await store.close();
    }
    // The worker records the run finished before it completes the job: wait for the queue to settle.
    let listed = "";
    await until(
      async () => {
        listed = (await runCli(["queue", "list", "--db", url], { home: dir })).stdout;
        return listed.includes("Queue: 0 queued, 0 active, 0 retrying, 0 dead-lettered");
      },
      30_000,
      () => `the queue to empty after the retried run finished; it lists: ${listed}`,
    );
    const done = await runCli(["queue", "retry", String(runId), "--db", url], { home: dir });
    expect(done.code).toBe(2);
    expect(done.stderr).toContain(`run ${runId} finished; only a failed or dead-lettered run can be retried`);
    const unknown = await runCli(["queue", "retry", "999", "--db", url], { home: dir });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("there is no run 999");

    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
  }, 90_000);
});
