/**
 * robots.txt per origin, fetched once and kept for a day. Per RFC 9309 a 4xx means no rules,
 * and an unreachable robots.txt (5xx, network failure) means nothing may be fetched for now.
 */
import { describeError, UserError } from "../../../core/errors.js";
import { isAllowed, type RobotsRule, rulesFor } from "./robots.js";

/** What reading `/robots.txt` gave: a status and the text, or a failure. */
export type RobotsResponse = { status: number; text: string } | { failure: unknown };

export type RobotsVerdict = { allowed: true } | { allowed: false; reason: string; retryable: boolean };

export interface RobotsCacheOptions {
  /** Reads `robotsUrl`, following redirects. */
  read: (robotsUrl: URL) => Promise<RobotsResponse>;
  /** Our product token, lower-cased. */
  token: string;
  now: () => number;
  ttlMs?: number;
  maxOrigins?: number;
}

type Policy = { kind: "rules"; rules: RobotsRule[] } | { kind: "unreachable"; reason: string };

interface Entry {
  policy: Promise<Policy>;
  expires: number;
}

export class RobotsCache {
  readonly #options: RobotsCacheOptions;
  readonly #entries = new Map<string, Entry>();

  constructor(options: RobotsCacheOptions) {
    this.#options = options;
  }

  async check(url: URL): Promise<RobotsVerdict> {
    const policy = await this.#policy(url.origin);
    if (policy.kind === "unreachable") return { allowed: false, reason: policy.reason, retryable: true };
    return isAllowed(policy.rules, url.pathname + url.search)
      ? { allowed: true }
      : { allowed: false, reason: "disallowed by robots.txt", retryable: false };
  }

  #policy(origin: string): Promise<Policy> {
    const now = this.#options.now();
    const cached = this.#entries.get(origin);
    if (cached && cached.expires > now) return cached.policy;
    this.#entries.delete(origin);
    const maxOrigins = this.#options.maxOrigins ?? 1000;
    while (this.#entries.size >= maxOrigins) {
      const oldest = this.#entries.keys().next();
      if (oldest.done) break;
      this.#entries.delete(oldest.value);
    }
    const policy = this.#load(origin);
    const ttl = this.#options.ttlMs ?? 24 * 60 * 60 * 1000;
    const entry: Entry = { policy, expires: now + ttl };
    this.#entries.set(origin, entry);
    // An unreachable robots.txt is retried after a minute rather than a day.
    policy.then(
      (loaded) => {
        if (loaded.kind === "unreachable") entry.expires = Math.min(entry.expires, this.#options.now() + 60_000);
      },
      () => {
        if (this.#entries.get(origin) === entry) this.#entries.delete(origin);
      },
    );
    return policy;
  }

  async #load(origin: string): Promise<Policy> {
    const response = await this.#options
      .read(new URL("/robots.txt", origin))
      .catch((failure: unknown): RobotsResponse => ({ failure }));
    if ("failure" in response) {
      // A refused address is the caller's answer, not an unreachable robots.txt.
      if (response.failure instanceof UserError) throw response.failure;
      return { kind: "unreachable", reason: `robots.txt unreachable (${describeError(response.failure)})` };
    }
    if (response.status >= 500)
      return { kind: "unreachable", reason: `robots.txt unreachable (HTTP ${response.status})` };
    if (response.status >= 400) return { kind: "rules", rules: [] };
    if (response.status >= 300) return { kind: "unreachable", reason: "robots.txt redirects too often" };
    return { kind: "rules", rules: rulesFor(response.text, this.#options.token) };
  }
}
