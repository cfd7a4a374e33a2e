import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  noticeMissingPostgres,
  POSTGRES_AVAILABLE,
  startTestPostgres,
  type TestPostgres,
} from "../../../testing/postgres.js";
import { openPgBossQueue, RUN_QUEUE } from "./pg-boss-queue.js";

noticeMissingPostgres("the pg-boss queue tests");

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.runIf(POSTGRES_AVAILABLE)("pg-boss run queue", () => {
  let server: TestPostgres;
  beforeAll(async () => {
    server = await startTestPostgres();
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("keeps a job leased while it heartbeats, and loses it once the heartbeats stop", async () => {
    const url = await server.createDatabase();
    const queue = await openPgBossQueue({ url, supervise: true, maintenanceIntervalSeconds: 1 });
    try {
      const id = await queue.enqueue(7, { retries: 2, retryDelaySeconds: 1, leaseSeconds: 1 });
      const job = await queue.take();
      expect(job).toMatchObject({ id, runId: 7, attempt: 1, lastAttempt: false, leaseSeconds: 1 });
      for (let beat = 0; beat < 8; beat++) {
        await sleep(300);
        expect(await job?.heartbeat()).toBe(true);
      }
      expect(await queue.jobState(RUN_QUEUE, id)).toBe("active");
      await sleep(3500);
      expect(await job?.heartbeat()).toBe(false);
      expect(await queue.jobState(RUN_QUEUE, id)).toBe("retry");
      // The old holder's completion is ignored: the job is no longer its own.
      await job?.complete();
      expect(await queue.jobState(RUN_QUEUE, id)).toBe("retry");
      await sleep(2500);
      const again = await queue.take();
      expect(again).toMatchObject({ id, runId: 7, attempt: 2 });
      await again?.complete();
      expect(await queue.jobState(RUN_QUEUE, id)).toBe("completed");
    } finally {
      await queue.close();
    }
  }, 30_000);
});
