/**
 * robots.txt per origin, fetched once and kept for a day. Per RFC 9309 a 4xx means no rules,
 * and an unreachable robots.txt (5xx, network failure) means nothing may be fetched for now
 * (a minute). One cache serves every fetcher of the process (`sharedRobotsCache`), so that
 * the runs of a server read a site's robots.txt once a day, not once each; each fetcher reads
 * it through its own guarded connection (`RobotsReader`), and a read that fetcher refuses is
 * never kept.
 */
import { describeError, UserError } from "../../../core/errors.js";
import { isAllowed, type RobotsRule, rulesFor } from "./robots.js";

/** What reading `/robots.txt` gave: a status and the text, or a failure. */
export type RobotsResponse = { status: number; text: string } | { failure: unknown };

export type RobotsVerdict = { allowed: true } | { allowed: false; reason: string; retryable: boolean };

/** How one fetcher reads robots.txt: its product token and its own guarded request. */
export interface RobotsReader {
  /** Our product token, lower-cased. */
  token: string;
  /** Reads `robotsUrl`, following redirects. */
  read: (robotsUrl: URL) => Promise<RobotsResponse>;
}

export interface RobotsCacheOptions {
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

  async check(url: URL, reader: RobotsReader): Promise<RobotsVerdict> {
    const policy = await this.#policy(url.origin, reader);
    if (policy.kind === "unreachable") return { allowed: false, reason: policy.reason, retryable: true };
    return isAllowed(policy.rules, url.pathname + url.search)
      ? { allowed: true }
      : { allowed: false, reason: "disallowed by robots.txt", retryable: false };
  }

  #policy(origin: string, reader: RobotsReader): Promise<Policy> {
    const now = this.#options.now();
    const key = `${reader.token} ${origin}`;
    const cached = this.#entries.get(key);
    if (cached && cached.expires > now) return cached.policy;
    this.#entries.delete(key);
    const maxOrigins = this.#options.maxOrigins ?? 1000;
    while (this.#entries.size >= maxOrigins) {
      const oldest = this.#entries.keys().next();
      if (oldest.done) break;
      this.#entries.delete(oldest.value);
    }
    const policy = this.#load(origin, reader);
    const ttl = this.#options.ttlMs ?? 24 * 60 * 60 * 1000;
    const entry: Entry = { policy, expires: now + ttl };
    this.#entries.set(key, entry);
    // An unreachable robots.txt is retried after a minute rather than a day.
    policy.then(
      (loaded) => {
        if (loaded.kind === "unreachable") entry.expires = Math.min(entry.expires, this.#options.now() + 60_000);
      },
      () => {
        if (this.#entries.get(key) === entry) this.#entries.delete(key);
      },
    );
    return policy;
  }

  async #load(origin: string, reader: RobotsReader): Promise<Policy> {
    const response = await reader
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
    return { kind: "rules", rules: rulesFor(response.text, reader.token) };
  }
}

let shared: RobotsCache | undefined;

/** The process's robots.txt cache (a day per origin, at most 1,000 origins). */
export function sharedRobotsCache(): RobotsCache {
  shared ??= new RobotsCache({ now: Date.now });
  return shared;
}
