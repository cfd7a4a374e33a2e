import { describe, expect, it } from "vitest";
import { HostLimiter } from "./host-limiter.js";
import { retryDelay } from "./http-request.js";

function fakeTime() {
  let now = 0;
  const sleeps: number[] = [];
  return {
    now: () => now,
    sleeps,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      now += ms;
    },
  };
}

describe("HostLimiter", () => {
  it("keeps at most maxConcurrent tasks per host in flight, other hosts unaffected", async () => {
    const time = fakeTime();
    const limiter = new HostLimiter({ maxConcurrent: 2, delayMs: 0, ...time });
    let active = 0;
    let peak = 0;
    const task = async (): Promise<void> => {
      active++;
      peak = Math.max(peak, active);
      await new Promise((resolve) => setTimeout(resolve, 5));
      active--;
    };
    await Promise.all([
      ...Array.from({ length: 6 }, () => limiter.run("a.example", task)),
      limiter.run("b.example", async () => undefined),
    ]);
    expect(peak).toBe(2);
  });

  it("spaces request starts to one host by the politeness delay", async () => {
    const time = fakeTime();
    const limiter = new HostLimiter({ maxConcurrent: 1, delayMs: 1000, ...time });
    const starts: number[] = [];
    for (let index = 0; index < 3; index++) await limiter.run("a.example", async () => starts.push(time.now()));
    await limiter.run("b.example", async () => starts.push(time.now()));
    expect(starts).toEqual([0, 1000, 2000, 2000]);
  });

  it("lets a queued waiter leave on abort", async () => {
    const time = fakeTime();
    const limiter = new HostLimiter({ maxConcurrent: 1, delayMs: 0, ...time });
    let release = (): void => undefined;
    const first = limiter.run(
      "a.example",
      () =>
        new Promise<void>((resolve) => {
          release = resolve;
        }),
    );
    const controller = new AbortController();
    const second = limiter.run("a.example", async () => "ran", controller.signal);
    controller.abort(new Error("stop"));
    await expect(second).rejects.toThrow("stop");
    release();
    await first;
    expect(await limiter.run("a.example", async () => "free")).toBe("free");
  });
});

describe("retryDelay", () => {
  const settings = { maxRetryDelayMs: 30_000, retryBaseDelayMs: 1000, now: () => Date.parse("2025-01-01T00:00:00Z") };

  it("honours Retry-After in seconds or as a date, and gives up when it is too long", () => {
    expect(retryDelay("2", 0, settings)).toBe(2000);
    expect(retryDelay("Wed, 01 Jan 2025 00:00:05 GMT", 0, settings)).toBe(5000);
    expect(retryDelay("Tue, 31 Dec 2024 00:00:00 GMT", 0, settings)).toBe(0);
    expect(retryDelay("3600", 0, settings)).toBeUndefined();
  });

  it("backs off exponentially without Retry-After, capped", () => {
    expect([0, 1, 2].map((attempt) => retryDelay(undefined, attempt, settings))).toEqual([1000, 2000, 4000]);
    expect(retryDelay("soon", 10, settings)).toBe(30_000);
  });
});
