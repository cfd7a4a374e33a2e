import { afterEach, describe, expect, it } from "vitest";
import { systemClock } from "../adapters/clock/system-clock.js";
import type { JobQueue, LeasedJob, RetryPolicy } from "../ports/job-queue.js";
import { syntheticDocuments } from "../testing/fake-scope.js";
import { type RuntimeFixture, runtimeFixture } from "../testing/runtime-fixture.js";
import { startRunWorker } from "./run-worker.js";

const fixtures: RuntimeFixture[] = [];
afterEach(async () => {
  for (const fixture of fixtures.splice(0)) await fixture.cleanup();
});

/** An in-memory queue that records what happened to each job; every job has `attempts` deliveries. */
class MemoryQueue implements JobQueue {
  readonly ready: { runId: number; attempt: number; attempts: number }[] = [];
  readonly outcomes: string[] = [];

  async enqueue(runId: number, policy: RetryPolicy): Promise<string> {
    this.ready.push({ runId, attempt: 1, attempts: policy.retries + 1 });
    return `job-${runId}`;
  }

  async take(): Promise<LeasedJob | undefined> {
    const next = this.ready.shift();
    if (!next) return undefined;
    const id = `job-${next.runId}`;
    return {
      id,
      runId: next.runId,
      attempt: next.attempt,
      lastAttempt: next.attempt >= next.attempts,
      leaseSeconds: 1,
      heartbeat: async () => true,
      complete: async () => {
        this.outcomes.push(`${id} completed on attempt ${next.attempt}`);
      },
      fail: async (error) => {
        this.outcomes.push(`${id} failed on attempt ${next.attempt}: ${error.split(":")[0]}`);
        if (next.attempt < next.attempts) this.ready.push({ ...next, attempt: next.attempt + 1 });
      },
    };
  }

  async close(): Promise<void> {}
}

const policy: RetryPolicy = { retries: 1, retryDelaySeconds: 1, leaseSeconds: 1 };

async function until(condition: () => boolean): Promise<void> {
  for (let tries = 0; !condition(); tries++) {
    if (tries > 200) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

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
      expect(await fixture.store.getRun(id)).toMatchObject({ status: "finished", worker: "test:1" });
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

  it("refuses to resume a queued run, and to start one that is not queued", async () => {
    const fixture = runtimeFixture({ documents: syntheticDocuments(2) });
    fixtures.push(fixture);
    const run = await fixture.runtime.createQueued(fixture.request("anything"));
    await expect(fixture.runtime.resume(run.id)).rejects.toThrow("is queued");
    await fixture.store.updateRun(run.id, { status: "finished" });
    await expect(fixture.runtime.start(run.id)).rejects.toThrow("is not queued");
  });
});
