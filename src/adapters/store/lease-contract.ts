/**
 * The run lease every Store implementation keeps (runtime/run-lease.ts): compare-and-set
 * taking, renewal, release, and fencing: a store view whose lease was taken by another holder
 * cannot commit anything for that run afterwards, whatever it writes.
 */
import { describe, expect, it } from "vitest";
import { type LeaseAttempt, LeaseLostError, type RunLease } from "../../ports/store.js";
import { createQuestions, type InvestigationStoreFactory } from "./investigation-contract.js";
import { sampleRequest, sampleSource } from "./store-contract.js";

const T0 = Date.parse("2026-01-15T09:00:00.000Z");
const at = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();
const claim = (holder: string, seconds: number, length = 60) => ({
  holder,
  now: at(seconds),
  expiresAt: at(seconds + length),
});
const held = (attempt: LeaseAttempt): RunLease => {
  if (!attempt.ok) throw new Error(`the lease was refused: held by ${attempt.holder}`);
  return attempt.lease;
};

export function runLeaseContract(name: string, factory: InvestigationStoreFactory): void {
  const withRun = async (
    test: (store: Awaited<ReturnType<typeof factory.open>>["store"], runId: number) => Promise<void>,
  ) => {
    const { store, cleanup } = await factory.open();
    try {
      const run = await store.createRun(sampleRequest(), { originAt: at(0), worker: "test:1" });
      await test(store, run.id);
    } finally {
      await cleanup();
    }
  };

  describe(`Run lease contract: ${name}`, () => {
    it("is taken by one holder at a time; a lapsed or released lease is taken over with a higher epoch", () =>
      withRun(async (store, runId) => {
        const first = held(await store.acquireLease(runId, claim("a:1/x", 0)));
        expect(first.epoch).toBe(1);
        expect(await store.acquireLease(runId, claim("b:2/y", 30))).toEqual({
          ok: false,
          holder: "a:1/x",
          expiresAt: at(60),
          status: "running",
        });
        const run = await store.getRun(runId);
        expect(run).toMatchObject({ leaseHolder: "a:1/x", leaseEpoch: 1, leaseExpiresAt: at(60), heartbeatAt: at(0) });
        // Renewed, it holds past its first expiry.
        const renewed = await store.renewLease(first, { now: at(50), expiresAt: at(110) });
        expect(renewed?.expiresAt).toBe(at(110));
        expect((await store.acquireLease(runId, claim("b:2/y", 100))).ok).toBe(false);
        // Lapsed: taken over; the old holder can no longer renew or release it.
        const second = held(await store.acquireLease(runId, claim("b:2/y", 111)));
        expect(second.epoch).toBe(2);
        expect(await store.renewLease(first, { now: at(112), expiresAt: at(172) })).toBeUndefined();
        await store.releaseLease(first);
        expect((await store.getRun(runId))?.leaseHolder).toBe("b:2/y");
        // Released: free at once.
        await store.releaseLease(second);
        expect(await store.getRun(runId)).toMatchObject({ leaseHolder: "", leaseExpiresAt: "" });
        expect(held(await store.acquireLease(runId, claim("c:3/z", 112))).epoch).toBe(3);
      }));

    it("is taken from a holder named as dead at once, and never for a run that is not running", () =>
      withRun(async (store, runId) => {
        held(await store.acquireLease(runId, claim("a:1/x", 0)));
        expect((await store.acquireLease(runId, { ...claim("b:2/y", 1), replacing: "other:9/q" })).ok).toBe(false);
        expect(held(await store.acquireLease(runId, { ...claim("b:2/y", 1), replacing: "a:1/x" })).epoch).toBe(2);
        await store.updateRun(runId, { status: "finished" });
        expect(await store.acquireLease(runId, claim("c:3/z", 500))).toMatchObject({ ok: false, status: "finished" });
        expect(await store.acquireLease(runId + 1000, claim("c:3/z", 500))).toMatchObject({
          ok: false,
          status: "missing",
        });
      }));

    it("of two holders racing for a free lease, exactly one wins", () =>
      withRun(async (store, runId) => {
        const attempts = await Promise.all(
          Array.from({ length: 6 }, (_, index) => store.acquireLease(runId, claim(`p:${index}/r`, 0))),
        );
        expect(attempts.filter((attempt) => attempt.ok)).toHaveLength(1);
      }));

    it("fences every write of a run whose lease moved on: nothing commits, and the holder hears of it", () =>
      withRun(async (store, runId) => {
        const first = held(await store.acquireLease(runId, claim("a:1/x", 0)));
        const lost: LeaseLostError[] = [];
        const fenced = store.fenced(first, (error) => lost.push(error));
        // While held, fenced writes commit.
        await fenced.appendEvent(runId, { type: "run-started", offsetMs: 1, at: at(1), data: {} });
        await fenced.persistSource(runId, sampleSource("a.md"), () => 2);
        // Another holder takes the lapsed lease.
        held(await store.acquireLease(runId, claim("b:2/y", 61)));
        const refused = [
          fenced.appendEvent(runId, { type: "late", offsetMs: 3, at: at(62), data: {} }),
          fenced.persistSource(runId, sampleSource("b.md"), () => 3),
          fenced.recordSearchCall(runId, {
            origin: "planner",
            query: { kind: "text", text: "late" },
            status: "ok",
            hits: [],
            error: "",
            startedMs: 3,
            finishedMs: 4,
          }),
          fenced.addDiagnostic(runId, { stage: "s", code: "late", message: "late", offsetMs: 3 }),
          fenced.updateRun(runId, { status: "finished", artifactStatus: "synthesized" }),
          fenced.applyMutation(runId, createQuestions("q_001"), { stateSeq: 1 }),
        ];
        const settled = await Promise.allSettled(refused);
        for (const write of settled) expect(write.status === "rejected" && write.reason).toBeInstanceOf(LeaseLostError);
        expect(lost.length).toBe(refused.length);
        expect((await store.listEvents(runId)).map((event) => event.type)).toEqual(["run-started"]);
        expect((await store.listSources(runId)).map((source) => source.canonicalAnchor)).toEqual(["a.md"]);
        expect(await store.listSearchCalls(runId)).toEqual([]);
        expect(await store.listDiagnostics(runId)).toEqual([]);
        expect(await store.getRun(runId)).toMatchObject({ status: "running", artifactStatus: "" });
        expect((await store.loadInvestigation(runId)).questions).toEqual([]);
        // Another run's writes are not fenced by this lease; closing the view leaves the store open.
        const other = await store.createRun(sampleRequest(), { originAt: at(0), worker: "test:1" });
        await fenced.appendEvent(other.id, { type: "other", offsetMs: 1, at: at(63), data: {} });
        await fenced.close();
        expect((await store.listEvents(other.id)).map((event) => event.type)).toEqual(["other"]);
      }));
  });
}
