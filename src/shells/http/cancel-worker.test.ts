/** A cancel requested through the HTTP API reaches a run that an `assay worker` drives. */
import { afterEach, describe, expect, it } from "vitest";
import { systemClock } from "../../adapters/clock/system-clock.js";
import { startRunWorker } from "../../runtime/run-worker.js";
import { syntheticDocuments } from "../../testing/fake-scope.js";
import { MemoryQueue } from "../../testing/memory-queue.js";
import { type RuntimeFixture, runtimeFixture } from "../../testing/runtime-fixture.js";
import { until } from "../../testing/until.js";

const fixtures: RuntimeFixture[] = [];
afterEach(async () => {
  for (const fixture of fixtures.splice(0)) await fixture.cleanup();
});

describe("a cancel requested from another process", () => {
  it("is read by the worker with its heartbeat: the run stops acquiring and publishes; a queued one never starts", async () => {
    const fixture = runtimeFixture({ documents: syntheticDocuments(4), fetchLatencyMs: 60_000 });
    fixtures.push(fixture);
    const running = await fixture.runtime.createQueued(fixture.request("lithium battery cathode"));
    const waiting = await fixture.runtime.createQueued(fixture.request("lithium battery anode"));
    await fixture.store.updateRun(waiting.id, { cancelRequestedAt: "2026-03-01T10:00:00.000Z" });
    const queue = new MemoryQueue();
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
    expect(queue.outcomes).toEqual([
      `job-${waiting.id} completed on attempt 1`,
      `job-${running.id} completed on attempt 1`,
    ]);
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
