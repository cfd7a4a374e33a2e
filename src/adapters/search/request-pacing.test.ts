import { describe, expect, it } from "vitest";
import { paced } from "./request-pacing.js";

describe("request pacing", () => {
  it("starts requests under one key in the order they asked, each a full interval after the last", async () => {
    const key = `pacing-order-${Math.random()}`;
    const started: { index: number; at: number }[] = [];
    const asked = Date.now();
    await Promise.all(
      [0, 1, 2].map(async (index) => {
        await paced(key, 40);
        started.push({ index, at: Date.now() });
      }),
    );
    expect(started.map((start) => start.index)).toEqual([0, 1, 2]);
    // Lower bounds only, from when they asked: the i-th starts no sooner than i intervals later
    // (a timer never fires early; a loaded machine may fire one late, which shortens the next gap).
    for (const [i, start] of started.entries()) expect(start.at - asked).toBeGreaterThanOrEqual(i * 40 - 2);
  });

  it("keeps keys apart, and a waiting request rejects with the signal's reason when it aborts", async () => {
    const key = `pacing-abort-${Math.random()}`;
    await paced(key, 60_000);
    // Another key is not held up by this one's long interval.
    await paced(`${key}-other`, 60_000);
    const controller = new AbortController();
    const waiting = paced(key, 60_000, controller.signal);
    controller.abort(new Error("the run was cancelled"));
    await expect(waiting).rejects.toThrow("the run was cancelled");
  });
});
