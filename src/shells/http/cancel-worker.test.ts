/** A cancel requested through the HTTP API reaches a run that an `assay worker` drives. */
import { afterEach, describe, expect, it } from "vitest";
import { systemClock } from "../../adapters/clock/system-clock.js";
import type { JobQueue, LeasedJob } from "../../ports/job-queue.js";
import { startRunWorker } from "../../runtime/run-worker.js";
import { syntheticDocuments } from "../../testing/fake-scope.js";
import { type RuntimeFixture, runtimeFixture } from "../../testing/runtime-fixture.js";

const fixtures: RuntimeFixture[] = [];
afterEach(async () => {
  for (const fixture of fixtures.splice(0)) await fixture.cleanup();
});

/** Hands out each enqueued run once, with a one-second lease (a heartbeat every third of it). */
class OneShotQueue implements JobQueue {
  readonly ready: number[] = [];
  readonly outcomes: string[] = [];
  async enqueue(runId: number): Promise<string> {
    this.ready.push(runId);
    return `job-${runId}`;
  }
  async take(): Promise<LeasedJob | undefined> {
    const runId = this.ready.shift();
    if (runId === undefined) return undefined;
    return {
      id: `job-${runId}`,
      runId,
      attempt: 1,
      lastAttempt: true,
      leaseSeconds: 1,
      heartbeat: async () => true,
      complete: async () => {
        this.outcomes.push(`${runId} completed`);
      },
      fail: async (error) => {
        this.outcomes.push(`${runId} failed: ${error}`);
      },
    };
  }
  async deadLetters() {
    return [];
  }
  async hasPendingJob(runId: number): Promise<boolean> {
    return this.ready.includes(runId);
  }
  async close(): Promise<void> {}
}

async function until(condition: () => Promise<boolean> | boolean): Promise<void> {
  for (let tries = 0; !(await condition()); tries++) {
    if (tries > 500) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("a cancel requested from another process", () => {
  it("is read by the worker with its heartbeat: the run stops acquiring and publishes; a queued one never starts", async () => {
    const fixture = runtimeFixture({ documents: syntheticDocuments(4), fetchLatencyMs: 60_000 });
    fixtures.push(fixture);
    const running = await fixture.runtime.createQueued(fixture.request("lithium battery cathode"));
    const waiting = await fixture.runtime.createQueued(fixture.request("lithium battery anode"));
    await fixture.store.updateRun(waiting.id, { cancelRequestedAt: "2026-03-01T10:00:00.000Z" });
    const queue = new OneShotQueue();
    await queue.enqueue(waiting.id);
    await queue.enqueue(running.id);
    const lines: string[] = [];
    const worker = startRunWorker({
      queue,
      store: fixture.store,
      clock: systemClock,
      runtimeFor: () => fixture.runtime,
      pollMs: 10,
      log: (line) => lines.push(line),
    });
    await until(async () => (await fixture.store.getRun(running.id))?.worker === "test:1");
    await fixture.store.updateRun(running.id, { cancelRequestedAt: new Date().toISOString() });
    await until(() => queue.outcomes.length === 2);
    worker.drain();
    await worker.done;
    expect(queue.outcomes).toEqual([`${waiting.id} completed`, `${running.id} completed`]);
    expect(await fixture.store.getRun(waiting.id)).toMatchObject({
      status: "failed",
      error: "cancelled before a worker started it",
    });
    expect((await fixture.store.listEvents(waiting.id)).length).toBe(0);
    const events = (await fixture.store.listEvents(running.id)).map((event) => event.type);
    expect(events).toContain("run-cancelled");
    expect(events.at(-1)).toBe("run-finished");
    expect((await fixture.store.getRun(running.id))?.status).toBe("finished");
    expect(lines.some((line) => line.includes(`run ${running.id}: cancel requested`))).toBe(true);
  }, 30_000);
});
