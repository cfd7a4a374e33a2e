import { afterEach, describe, expect, it } from "vitest";
import { systemClock } from "../adapters/clock/system-clock.js";
import type { DeadLetter, RetryPolicy } from "../ports/job-queue.js";
import { syntheticDocuments } from "../testing/fake-scope.js";
import { MemoryQueue } from "../testing/memory-queue.js";
import { type RuntimeFixture, runtimeFixture } from "../testing/runtime-fixture.js";
import { until } from "../testing/until.js";
import { closeDeadLetters, heartbeatPeriodMs, startRunWorker } from "./run-worker.js";

const fixtures: RuntimeFixture[] = [];
afterEach(async () => {
  for (const fixture of fixtures.splice(0)) await fixture.cleanup();
});

/** A dead letter of `runId` whose last lease ran out after 4 attempts. */
const leaseRanOut = (runId: number): DeadLetter => ({
  id: `dead-${runId}`,
  runId,
  attempts: 4,
  leaseSeconds: 1,
  error: "the lease ran out",
  leaseExpired: true,
  at: new Date().toISOString(),
});

const policy: RetryPolicy = { retries: 1, retryDelaySeconds: 1, leaseSeconds: 1 };

describe("the run worker", () => {
  it("starts a queued run, resumes one an earlier worker began, and completes their jobs", async () => {
    const fixture = runtimeFixture({ documents: syntheticDocuments(6) });
    fixtures.push(fixture);
    const queued = await fixture.runtime.createQueued(fixture.request("lithium battery cathode", { maxSources: 3 }));
    expect(queued).toMatchObject({ status: "running", worker: "" });
    const begun = await fixture.runtime.createQueued(fixture.request("lithium battery cathode", { maxSources: 3 }));
    await fixture.store.updateRun(begun.id, { worker: "dead-host:1" });
    const queue = new MemoryQueue();
    await queue.enqueue(queued.id, policy);
    await queue.enqueue(begun.id, policy);
    const lines: string[] = [];
    const worker = startRunWorker({
      queue,
      store: fixture.store,
      clock: systemClock,
      runtimeFor: () => fixture.runtime,
      pollMs: 10,
      log: (line) => lines.push(line),
    });
    await until(() => queue.outcomes.length === 2);
    worker.drain();
    await worker.done;
    expect(queue.outcomes).toEqual([
      `job-${queued.id} completed on attempt 1`,
      `job-${begun.id} completed on attempt 1`,
    ]);
    expect(lines).toContain(`run ${queued.id}: attempt 1, start`);
    expect(lines).toContain(`run ${begun.id}: attempt 1, resume`);
    for (const id of [queued.id, begun.id]) {
      const run = await fixture.store.getRun(id);
      expect(run).toMatchObject({ status: "finished", worker: "test:1" });
      // The worker wrote the run's heartbeat when it took the run.
      expect(Date.parse(run?.heartbeatAt ?? "")).toBeGreaterThan(Date.parse(queued.createdAt) - 1000);
    }
    const started = await fixture.store.listEvents(queued.id);
    expect(started.map((event) => event.type)).toContain("run-started");
    expect((await fixture.store.listEvents(begun.id)).map((event) => event.type)).toContain("run-resumed");
  });

  it("fails an attempt that throws, retries it, and records the run failed after the last", async () => {
    const fixture = runtimeFixture({ documents: syntheticDocuments(2) });
    fixtures.push(fixture);
    const run = await fixture.runtime.createQueued(fixture.request("anything"));
    const queue = new MemoryQueue();
    await queue.enqueue(run.id, policy);
    const worker = startRunWorker({
      queue,
      store: fixture.store,
      clock: systemClock,
      runtimeFor: () => {
        throw new Error("the corpus folder is gone");
      },
      pollMs: 10,
    });
    await until(() => queue.outcomes.length === 2);
    worker.drain();
    await worker.done;
    expect(queue.outcomes).toEqual([
      `job-${run.id} failed on attempt 1: Error`,
      `job-${run.id} failed on attempt 2: Error`,
    ]);
    expect(await fixture.store.getRun(run.id)).toMatchObject({
      status: "failed",
      error: "gave up after 2 attempts: Error: the corpus folder is gone",
    });
  });

  it("records failed a running run whose job was dead-lettered when its last lease ran out", async () => {
    const fixture = runtimeFixture({ documents: syntheticDocuments(2) });
    fixtures.push(fixture);
    const crashed = await fixture.runtime.createQueued(fixture.request("crashed on its last attempt"));
    await fixture.store.updateRun(crashed.id, { worker: "gone-host:4242", heartbeatAt: "2020-01-01T00:00:00.000Z" });
    const finished = await fixture.runtime.createQueued(fixture.request("finished before its job was given up"));
    await fixture.store.updateRun(finished.id, { status: "finished", worker: "gone-host:1" });
    const requeued = await fixture.runtime.createQueued(fixture.request("queued again by an operator"));
    const queue = new MemoryQueue();
    queue.dead.push(leaseRanOut(crashed.id), leaseRanOut(finished.id), leaseRanOut(requeued.id));
    await queue.enqueue(requeued.id, policy);

    const settled = new Set<string>();
    const closed = await closeDeadLetters({ queue, store: fixture.store, clock: systemClock }, settled);
    const error =
      "gave up after 4 attempts: the lease ran out on the last attempt (its worker was killed, or lost the database, and stopped renewing it)";
    expect(closed).toEqual([{ runId: crashed.id, error }]);
    expect(await fixture.store.getRun(crashed.id)).toMatchObject({ status: "failed", error });
    expect((await fixture.store.getRun(crashed.id))?.finishedAt).not.toBe("");
    expect(await fixture.store.getRun(finished.id)).toMatchObject({ status: "finished", error: "" });
    // A run with a pending job is left to that job, and looked at again later.
    expect(await fixture.store.getRun(requeued.id)).toMatchObject({ status: "running", error: "" });
    expect([...settled].sort()).toEqual([`dead-${crashed.id}`, `dead-${finished.id}`]);
    expect(await closeDeadLetters({ queue, store: fixture.store, clock: systemClock }, settled)).toEqual([]);
  });

  it("looks at the dead-lettered jobs when it starts, and logs the runs it closes", async () => {
    const fixture = runtimeFixture({ documents: syntheticDocuments(2) });
    fixtures.push(fixture);
    const run = await fixture.runtime.createQueued(fixture.request("crashed on its last attempt"));
    await fixture.store.updateRun(run.id, { worker: "gone-host:4242" });
    const queue = new MemoryQueue();
    queue.dead.push({ ...leaseRanOut(run.id), attempts: 1 });
    const lines: string[] = [];
    const worker = startRunWorker({
      queue,
      store: fixture.store,
      clock: systemClock,
      runtimeFor: () => fixture.runtime,
      pollMs: 10,
      deadLetterScanMs: 10,
      log: (line) => lines.push(line),
    });
    await until(() => lines.some((line) => line.startsWith(`run ${run.id}: dead-lettered`)));
    worker.drain();
    await worker.done;
    expect(await fixture.store.getRun(run.id)).toMatchObject({
      status: "failed",
      error: expect.stringMatching(/^gave up after 1 attempt: the lease ran out/),
    });
    expect(lines.filter((line) => line.includes("dead-lettered"))).toHaveLength(1);
  });

  it("renews a lease every third of it, at most every 30 s", () => {
    expect(heartbeatPeriodMs(60)).toBe(20_000);
    expect(heartbeatPeriodMs(600)).toBe(30_000);
    expect(heartbeatPeriodMs(0.3)).toBe(250);
  });

  it("refuses to resume a queued run, and to start one that is not queued", async () => {
    const fixture = runtimeFixture({ documents: syntheticDocuments(2) });
    fixtures.push(fixture);
    const run = await fixture.runtime.createQueued(fixture.request("anything"));
    await expect(fixture.runtime.resume(run.id)).rejects.toThrow("is queued");
    await fixture.store.updateRun(run.id, { status: "finished" });
    await expect(fixture.runtime.start(run.id)).rejects.toThrow("is not queued");
  });
});
