/**
 * Workers starting together on a new database: pg-boss's queue creation deadlocks when two
 * processes create the same new queue at once, so the adapter serializes it. Eight queue
 * handles (eight connection pools, as eight processes would have) open at once, three times.
 */
import { describe, expect, it } from "vitest";
import { noticeMissingPostgres, POSTGRES_AVAILABLE } from "../../../testing/postgres.js";
import { useTestPostgres } from "../../../testing/postgres-suite.js";
import { openPgBossQueue } from "./pg-boss-queue.js";

noticeMissingPostgres("the queue setup test");

describe.runIf(POSTGRES_AVAILABLE)("opening the queue from many processes at once", () => {
  const server = useTestPostgres();

  it("creates the queues once, with no deadlock, on a new database", async () => {
    for (let round = 0; round < 3; round++) {
      const url = await server.createDatabase();
      const opened = await Promise.allSettled(Array.from({ length: 8 }, () => openPgBossQueue({ url })));
      const failures = opened.flatMap((result) => (result.status === "rejected" ? [String(result.reason)] : []));
      for (const result of opened) if (result.status === "fulfilled") await result.value.close();
      expect(failures).toEqual([]);
    }
  }, 120_000);
});
