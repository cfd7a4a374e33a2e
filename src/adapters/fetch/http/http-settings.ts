/** Options of the HTTP fetcher, their defaults and their validation. */
import { lookup as dnsLookup } from "node:dns/promises";
import { setTimeout as delay } from "node:timers/promises";
import { UserError } from "../../../core/errors.js";
import { ASSAY_USER_AGENT } from "../../../version.js";
import type { HostLookup } from "./guarded-connector.js";
import type { Sleep } from "./host-limiter.js";
import type { RobotsCache } from "./robots-cache.js";

export interface HttpFetcherOptions {
  /** Sent on every request; its product token (`Assay`) is the name robots.txt rules are matched against. */
  userAgent?: string;
  /** Hosts, addresses and CIDR ranges reachable even when private or loopback (tests, intranets). */
  allowHosts?: readonly string[];
  /** Resolves a host to all its addresses; default node:dns lookup. */
  lookup?: HostLookup;
  /** Default 10 s. */
  connectTimeoutMs?: number;
  /** Whole response of one request, headers and body; default 30 s. */
  readTimeoutMs?: number;
  /** Most bytes read from the wire per response; default 10 MiB. */
  maxBodyBytes?: number;
  /** Most bytes after decompression; default 20 MiB. */
  maxDecodedBytes?: number;
  /**
   * Most bytes of HTML handed to the extractor (Readability costs about a second per MiB of
   * paragraph-dense markup, in a worker); the page is cut there and marked truncated. Default 2 MiB.
   */
  maxHtmlBytes?: number;
  /** Default 5. */
  maxRedirects?: number;
  /**
   * Follow a redirect from an https URL to a plain http one. Default false: such a hop fails
   * the read, since the page would come over a connection anyone on the path can read and
   * rewrite.
   */
  allowHttpsDowngrade?: boolean;
  /** Retries after 429 or 503; default 2. */
  maxRetries?: number;
  /** A longer Retry-After fails instead of waiting; default 30 s. */
  maxRetryDelayMs?: number;
  /** First backoff when no Retry-After is given, doubled on each retry; default 1 s. */
  retryBaseDelayMs?: number;
  /** Default true. */
  respectRobots?: boolean;
  /** Default 2. */
  /** Page requests to one site (registrable domain) in flight at once; default 2. */
  maxConcurrentPerSite?: number;
  /** Least time between two page request starts to one site; default 1 s. robots.txt is not held back by it. */
  politenessDelayMs?: number;
  /** Where robots.txt verdicts are kept; default the process's (`sharedRobotsCache`). */
  robotsCache?: RobotsCache;
  sleep?: Sleep;
  now?: () => number;
}

export type HttpSettings = Required<Omit<HttpFetcherOptions, "allowHosts" | "robotsCache">> & {
  allowHosts: readonly string[];
};

const defaultLookup: HostLookup = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

const defaultSleep: Sleep = async (ms, signal) => {
  await delay(ms, undefined, signal ? { signal } : {});
};

function positive(name: string, value: number | undefined, fallback: number, allowZero = false): number {
  const chosen = value ?? fallback;
  if (!Number.isFinite(chosen) || chosen < 0 || (!allowZero && chosen === 0)) {
    throw new UserError(`HTTP fetcher option ${name} must be a ${allowZero ? "non-negative" : "positive"} number`);
  }
  return chosen;
}

/** Fills defaults; throws UserError on a nonsensical value. */
export function resolveSettings(options: HttpFetcherOptions): HttpSettings {
  const userAgent = (options.userAgent ?? ASSAY_USER_AGENT).trim();
  if (userAgent === "" || /[\r\n]/.test(userAgent))
    throw new UserError("HTTP fetcher userAgent must be one non-empty line");
  const maxBodyBytes = positive("maxBodyBytes", options.maxBodyBytes, 10 * 1024 * 1024);
  return {
    userAgent,
    allowHosts: options.allowHosts ?? [],
    lookup: options.lookup ?? defaultLookup,
    connectTimeoutMs: positive("connectTimeoutMs", options.connectTimeoutMs, 10_000),
    readTimeoutMs: positive("readTimeoutMs", options.readTimeoutMs, 30_000),
    maxBodyBytes,
    maxDecodedBytes: positive("maxDecodedBytes", options.maxDecodedBytes, Math.max(maxBodyBytes, 20 * 1024 * 1024)),
    maxHtmlBytes: positive("maxHtmlBytes", options.maxHtmlBytes, 2 * 1024 * 1024),
    maxRedirects: positive("maxRedirects", options.maxRedirects, 5, true),
    allowHttpsDowngrade: options.allowHttpsDowngrade ?? false,
    maxRetries: positive("maxRetries", options.maxRetries, 2, true),
    maxRetryDelayMs: positive("maxRetryDelayMs", options.maxRetryDelayMs, 30_000, true),
    retryBaseDelayMs: positive("retryBaseDelayMs", options.retryBaseDelayMs, 1000, true),
    respectRobots: options.respectRobots ?? true,
    maxConcurrentPerSite: positive("maxConcurrentPerSite", options.maxConcurrentPerSite, 2),
    politenessDelayMs: positive("politenessDelayMs", options.politenessDelayMs, 1000, true),
    sleep: options.sleep ?? defaultSleep,
    now: options.now ?? Date.now,
  };
}
