/**
 * The run lease in the runtime, on a real SQLite store: every drive holds the lease, a second
 * driver is refused with the holder named, and a driver whose lease was taken commits nothing
 * afterwards and publishes nothing (fencing), whatever it was doing.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { syntheticDocuments } from "../testing/fake-scope.js";
import { type RuntimeFixture, runtimeFixture } from "../testing/runtime-fixture.js";
import { LeaseHeldError } from "./run-lease.js";

const fixtures: RuntimeFixture[] = [];
afterEach(async () => {
  for (const fixture of fixtures.splice(0)) await fixture.cleanup();
});
const make = (...args: Parameters<typeof runtimeFixture>): RuntimeFixture => {
  const fixture = runtimeFixture(...args);
  fixtures.push(fixture);
  return fixture;
};

const QUESTION = "lithium battery cathode energy";
const FAR = "2100-01-01T00:00:00.000Z";
const FARTHER = "2100-01-01T01:00:00.000Z";

describe("the run lease", () => {
  it("is held while a run is driven, renewed with the heartbeat, and released when it ends", async () => {
    const fixture = make({ documents: syntheticDocuments(4) });
    const during: { holder?: string; epoch?: number }[] = [];
    const outcome = await fixture.runtime.run(fixture.request(QUESTION, { maxSources: 2 }), {
      listeners: [
        (event) => {
          if (event.type !== "source-persisted") return;
          const row = fixture.store.db
            .prepare("SELECT lease_holder AS holder, lease_epoch AS epoch FROM runs WHERE id = ?")
            .get(event.runId) as { holder: string; epoch: number };
          during.push(row);
        },
      ],
    });
    expect(outcome.status).toBe("finished");
    expect(during).toHaveLength(2);
    for (const row of during) {
      expect(row.holder).toMatch(/^test:1\/[0-9a-f]{6}$/);
      expect(row.epoch).toBe(1);
    }
    expect(await fixture.store.getRun(outcome.runId)).toMatchObject({ leaseHolder: "", leaseEpoch: 1 });
  });

  it("refuses a second driver while another holds the lease, naming the holder", async () => {
    const fixture = make({ documents: syntheticDocuments(4) });
    const run = await fixture.store.createRun(fixture.request(QUESTION), {
      originAt: new Date().toISOString(),
      worker: "elsewhere:7",
    });
    await fixture.store.acquireLease(run.id, {
      holder: "elsewhere:7/abcdef",
      now: new Date().toISOString(),
      expiresAt: FAR,
    });
    const refused = fixture.runtime.resume(run.id);
    await expect(refused).rejects.toBeInstanceOf(LeaseHeldError);
    await expect(refused).rejects.toThrow(/being driven by elsewhere:7 \(its lease lapses in \d+ s/);
    // Nothing of the refused driver was written.
    expect(await fixture.store.listEvents(run.id)).toEqual([]);
    expect(await fixture.store.getRun(run.id)).toMatchObject({
      worker: "elsewhere:7",
      leaseHolder: "elsewhere:7/abcdef",
    });
  });

  it("fences a driver whose lease was taken: nothing commits afterwards, nothing is published", async () => {
    const fixture = make({ documents: syntheticDocuments(10), fetchLatencyMs: 5 });
    let runId = 0;
    let takenAfter = -1;
    // What the store held the moment the lease was taken (writes committed in the same group as the event seen are in it).
    let atTheft: Promise<{ lastSeq: number; sources: number }> | undefined;
    const outcome = await fixture.runtime.run(fixture.request(QUESTION, { maxSources: 8 }), {
      listeners: [
        (event) => {
          runId = event.runId;
          if (event.type !== "source-persisted" || takenAfter >= 0) return;
          // Another process takes the lease (as if this one had stalled past its expiry).
          takenAfter = event.seq;
          void fixture.store.acquireLease(event.runId, { holder: "thief:9/000000", now: FAR, expiresAt: FARTHER });
          const { store } = fixture;
          atTheft = Promise.all([store.listEvents(event.runId), store.listSources(event.runId)]).then(
            ([events, sources]) => ({ lastSeq: events.at(-1)?.seq ?? 0, sources: sources.length }),
          );
        },
      ],
    });
    expect(takenAfter).toBeGreaterThan(0);
    const before = await atTheft;
    expect(before?.lastSeq).toBeGreaterThanOrEqual(takenAfter);
    // Handed back: still running, for the new holder to resume; no report.
    expect(outcome.status).toBe("running");
    expect(existsSync(join(fixture.outDir, "report.json"))).toBe(false);
    const events = await fixture.store.listEvents(runId);
    expect(events.at(-1)?.seq).toBe(before?.lastSeq);
    expect(await fixture.store.listSources(runId)).toHaveLength(before?.sources ?? -1);
    expect(await fixture.store.getRun(runId)).toMatchObject({
      status: "running",
      artifactStatus: "",
      leaseHolder: "thief:9/000000",
      leaseEpoch: 2,
    });
  });
});
