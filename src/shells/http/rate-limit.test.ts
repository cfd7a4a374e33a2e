import { describe, expect, it } from "vitest";
import { RateLimiter } from "./rate-limit.js";
import { hashToken, newTokenSecret, TOKEN_PREFIX } from "./tokens.js";

describe("RateLimiter", () => {
  it("allows a burst, then refills at the rate per key, and says when to retry", () => {
    let now = 0;
    const limiter = new RateLimiter({ perMinute: 6, burst: 2 }, () => now);
    expect(limiter.take("a")).toEqual({ allowed: true });
    expect(limiter.take("a")).toEqual({ allowed: true });
    expect(limiter.take("a")).toEqual({ allowed: false, retryAfterSeconds: 10 });
    expect(limiter.take("b")).toEqual({ allowed: true });
    now += 4_000;
    expect(limiter.take("a")).toEqual({ allowed: false, retryAfterSeconds: 6 });
    now += 6_000;
    expect(limiter.take("a")).toEqual({ allowed: true });
    now += 3_600_000;
    // Never more than the burst after a quiet hour.
    expect([limiter.take("a"), limiter.take("a"), limiter.take("a")].map((d) => d.allowed)).toEqual([
      true,
      true,
      false,
    ]);
    expect(limiter.describe()).toBe("6 requests a minute");
  });
});

describe("API token secrets", () => {
  it("are the prefix and 32 random bytes, and hash to 64 hex digits", () => {
    const a = newTokenSecret();
    expect(a.startsWith(TOKEN_PREFIX)).toBe(true);
    expect(Buffer.from(a.slice(TOKEN_PREFIX.length), "base64url").length).toBe(32);
    expect(newTokenSecret()).not.toBe(a);
    expect(hashToken(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashToken(a)).toBe(hashToken(a));
  });
});
