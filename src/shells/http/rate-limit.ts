/**
 * Per-user request rate limit: one token bucket per user (pure, with an injected clock). A
 * bucket holds `burst` requests and refills at `perMinute` a minute.
 */
export interface RateLimitSettings {
  /** Sustained requests a minute. */
  perMinute: number;
  /** Requests allowed at once after a quiet period (default: `perMinute`). */
  burst?: number;
}

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export class RateLimiter {
  readonly #capacity: number;
  readonly #perMs: number;
  readonly #now: () => number;
  readonly #buckets = new Map<string, { tokens: number; at: number }>();

  constructor(settings: RateLimitSettings, now: () => number) {
    this.#capacity = Math.max(1, settings.burst ?? settings.perMinute);
    this.#perMs = settings.perMinute / 60_000;
    this.#now = now;
  }

  /** "120 requests a minute" */
  describe(): string {
    return `${Math.round(this.#perMs * 60_000)} requests a minute`;
  }

  /** Takes one request from `key`'s bucket, or says how long until one is available. */
  take(key: string): RateDecision {
    const now = this.#now();
    const bucket = this.#buckets.get(key) ?? { tokens: this.#capacity, at: now };
    const tokens = Math.min(this.#capacity, bucket.tokens + Math.max(0, now - bucket.at) * this.#perMs);
    if (tokens >= 1) {
      this.#buckets.set(key, { tokens: tokens - 1, at: now });
      return { allowed: true };
    }
    this.#buckets.set(key, { tokens, at: now });
    const waitMs = this.#perMs > 0 ? (1 - tokens) / this.#perMs : 60_000;
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
  }
}
