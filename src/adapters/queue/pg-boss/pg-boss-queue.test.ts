import pg from "pg";
import { describe, expect, it } from "vitest";
import { noticeMissingPostgres, POSTGRES_AVAILABLE } from "../../../testing/postgres.js";
import { useTestPostgres } from "../../../testing/postgres-suite.js";
import { until } from "../../../testing/until.js";
import { queueDepth, queueSchemaState } from "./pg-boss-inspect.js";
import { DEAD_RUN_QUEUE, openPgBossQueue, RUN_QUEUE } from "./pg-boss-queue.js";

noticeMissingPostgres("the pg-boss queue tests");

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.runIf(POSTGRES_AVAILABLE)("pg-boss run queue", () => {
  const server = useTestPostgres();

  it("keeps a job leased while it heartbeats, and loses it once the heartbeats stop", async () => {
    const url = await server.createDatabase();
    const queue = await openPgBossQueue({ url, supervise: true, maintenanceIntervalSeconds: 1 });
    try {
      const id = await queue.enqueue(7, { retries: 2, retryDelaySeconds: 1, leaseSeconds: 2 });
      const job = await queue.take();
      expect(job).toMatchObject({ id, runId: 7, attempt: 1, lastAttempt: false, leaseSeconds: 2 });
      // Beats every 300 ms for 3 s: the job outlives its 2 s lease only because of them.
      for (let beat = 0; beat < 10; beat++) {
        await sleep(300);
        expect(await job?.heartbeat()).toBe(true);
      }
      expect(await queue.jobState(RUN_QUEUE, id)).toBe("active");
      // The beats stop: the supervisor (every second) expires the lease; waited for as a state, not a time.
      await until(async () => (await queue.jobState(RUN_QUEUE, id)) === "retry", 30_000, "the lease to run out");
      expect(await job?.heartbeat()).toBe(false);
      expect(await queue.jobs(7)).toMatchObject([
        {
          id,
          state: "retrying",
          runId: 7,
          attempts: 1,
          maxAttempts: 3,
          error: "the lease ran out",
          leaseExpired: true,
        },
      ]);
      expect(await queue.hasPendingJob(7)).toBe(true);
      // The old holder's completion is ignored: the job is no longer its own.
      await job?.complete();
      expect(await queue.jobState(RUN_QUEUE, id)).toBe("retry");
      // Taken again once its retry delay has passed.
      let again: Awaited<ReturnType<typeof queue.take>>;
      await until(
        async () => {
          again = await queue.take();
          return again !== undefined;
        },
        30_000,
        "the job to be taken again",
      );
      expect(again).toMatchObject({ id, runId: 7, attempt: 2 });
      await again?.complete();
      expect(await queue.jobState(RUN_QUEUE, id)).toBe("completed");
    } finally {
      await queue.close();
    }
  }, 90_000);

  it("counts jobs by state, lists the dead-lettered ones and removes them", async () => {
    const url = await server.createDatabase();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const queue = await openPgBossQueue({ url });
    try {
      expect(await queueSchemaState(client)).toEqual({
        installed: true,
        version: 24,
        queues: [RUN_QUEUE, DEAD_RUN_QUEUE],
      });
      const once = { retries: 0, retryDelaySeconds: 60, leaseSeconds: 30 };
      const twice = { retries: 1, retryDelaySeconds: 60, leaseSeconds: 30 };
      await queue.enqueue(1, twice);
      await queue.enqueue(2, twice);
      await queue.enqueue(3, once);
      await queue.enqueue(4, once);
      const [first, second, third] = [await queue.take(), await queue.take(), await queue.take()];
      expect([first?.runId, second?.runId, third?.runId]).toEqual([1, 2, 3]);
      await second?.fail("the corpus folder is gone");
      await third?.fail("the model key is missing");
      expect(await queueDepth(client)).toEqual({ queued: 1, active: 1, retrying: 1, deadLettered: 1 });
      expect(await queue.depth()).toEqual({ queued: 1, active: 1, retrying: 1, deadLettered: 1 });
      expect((await queue.jobs()).map((job) => [job.state, job.runId, job.attempts, job.maxAttempts])).toEqual([
        ["active", 1, 1, 2],
        ["retrying", 2, 1, 2],
        ["queued", 4, 0, 1],
        // The dead-letter job is a new job, made when run 3's job failed.
        ["dead-lettered", 3, 1, 1],
      ]);
      expect(await queue.deadLetters()).toMatchObject([
        { runId: 3, attempts: 1, leaseSeconds: 30, error: "the model key is missing", leaseExpired: false },
      ]);
      expect(await queue.hasPendingJob(3)).toBe(false);
      expect(await queue.hasPendingJob(2)).toBe(true);
      expect(await queue.dismissDeadLetters(9)).toEqual([]);
      expect((await queue.dismissDeadLetters()).map((letter) => letter.runId)).toEqual([3]);
      expect(await queue.depth()).toEqual({ queued: 1, active: 1, retrying: 1, deadLettered: 0 });
    } finally {
      await queue.close();
      await client.end();
    }
  }, 30_000);

  it("reports a database without pg-boss's schema", async () => {
    const url = await server.createDatabase();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      expect(await queueSchemaState(client)).toEqual({ installed: false, version: null, queues: [] });
    } finally {
      await client.end();
    }
  });
});
