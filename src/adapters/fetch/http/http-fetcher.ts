/**
 * The web fetcher: reads one http(s) URL safely enough to run inside a company network.
 * Every connection goes through the SSRF guard (redirect hops and DNS rebinding included),
 * bodies are read under byte caps and deadlines, redirects are followed by hand and counted
 * (never from https down to plain http unless allowed), robots.txt is respected (read once
 * per origin in the process, and not held back by the politeness delay), each site (registrable
 * domain) gets a concurrency limit and a politeness delay between page requests, and the
 * page's text is extracted by media type.
 */
import { Agent } from "undici";
import { ExternalServiceError, UserError } from "../../../core/errors.js";
import type { FetchedDocument, Fetcher, FetchOptions } from "../../../ports/fetcher.js";
import { canonicalFor, registrableDomain } from "../../web/canonical-url.js";
import { createGuardedConnector } from "./guarded-connector.js";
import { HostLimiter } from "./host-limiter.js";
import { isRetryableStatus } from "./http-errors.js";
import { type HttpResponse, headerValue, type RequestContext, requestWithRetry } from "./http-request.js";
import { type HttpFetcherOptions, type HttpSettings, resolveSettings } from "./http-settings.js";
import { extractResponse } from "./response-extractor.js";
import { productToken } from "./robots.js";
import { type RobotsCache, type RobotsReader, sharedRobotsCache } from "./robots-cache.js";
import { type AllowList, checkLiteralHost, parseAllowList } from "./ssrf-guard.js";

export type { HttpFetcherOptions } from "./http-settings.js";

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const ROBOTS_MAX_BYTES = 512 * 1024;

/** A Fetcher that holds connections: close it when done. */
export interface HttpFetcher extends Fetcher {
  close(): Promise<void>;
}

/** Parses and vets a URL before any connection: http(s) only, no credentials, no refused IP literal. */
function vetUrl(text: string, allow: AllowList, redirect: boolean): URL {
  const refused = redirect ? "refused to follow a redirect to" : "refused to fetch";
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UserError(`${refused} ${JSON.stringify(text.slice(0, 200))}: not a URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new UserError(`${refused} ${url.href.slice(0, 200)}: unsupported scheme "${url.protocol.slice(0, -1)}"`);
  }
  if (url.username !== "" || url.password !== "") {
    throw new UserError(`${refused} ${url.origin}: the URL carries credentials`);
  }
  const verdict = checkLiteralHost(url.hostname, allow);
  if (verdict.refused) throw new UserError(`${refused} ${url.href}: ${verdict.reason}`);
  url.hash = "";
  return url;
}

/** Whether a redirect hop may be followed as far as its schemes go; `reason` names both URLs. */
export type RedirectVerdict = { refused: false } | { refused: true; reason: string };

/**
 * Vets the schemes of one redirect hop, `from` (the URL that answered 3xx) to `to` (its
 * Location, resolved). Pure; never throws. A hop from https to plain http is refused unless
 * `allowHttpsDowngrade`; every other pair (http to http, http to https, https to https) is
 * left to the other checks.
 */
export function vetRedirectScheme(from: URL, to: URL, options: { allowHttpsDowngrade: boolean }): RedirectVerdict {
  if (from.protocol !== "https:" || to.protocol !== "http:" || options.allowHttpsDowngrade) return { refused: false };
  return {
    refused: true,
    reason:
      `refused to follow a redirect from ${from.href.slice(0, 200)} to ${to.href.slice(0, 200)}: ` +
      "it downgrades https to plain http",
  };
}

class HttpFetcherImpl implements HttpFetcher {
  readonly #settings: HttpSettings;
  readonly #allow: AllowList;
  readonly #agent: Agent;
  readonly #limiter: HostLimiter;
  readonly #robots: RobotsCache;
  readonly #robotsReader: RobotsReader;

  constructor(options: HttpFetcherOptions) {
    const settings = resolveSettings(options);
    this.#settings = settings;
    this.#allow = parseAllowList(settings.allowHosts);
    this.#agent = new Agent({
      connect: createGuardedConnector({
        allow: this.#allow,
        lookup: settings.lookup,
        connectTimeoutMs: settings.connectTimeoutMs,
      }),
      headersTimeout: settings.readTimeoutMs,
      bodyTimeout: settings.readTimeoutMs,
      connections: settings.maxConcurrentPerSite,
    });
    this.#limiter = new HostLimiter({
      maxConcurrent: settings.maxConcurrentPerSite,
      delayMs: settings.politenessDelayMs,
      sleep: settings.sleep,
      now: settings.now,
    });
    this.#robots = options.robotsCache ?? sharedRobotsCache();
    this.#robotsReader = { token: productToken(settings.userAgent), read: (robotsUrl) => this.#readRobots(robotsUrl) };
  }

  async fetch(anchor: string, options: FetchOptions): Promise<FetchedDocument> {
    options.signal?.throwIfAborted();
    const context = this.#context(this.#settings.maxBodyBytes, this.#settings.maxDecodedBytes, options.signal, true);
    const response = await this.#follow(vetUrl(anchor.trim(), this.#allow, false), context, true);
    const { url, status, body } = response;
    if (!body || status < 200 || status >= 300) {
      const retryAfter = headerValue(response.headers, "retry-after");
      const hint = retryAfter === undefined ? "" : ` (Retry-After ${retryAfter.slice(0, 40)})`;
      throw new ExternalServiceError(`HTTP ${status}${hint}: ${url.href}`, { isRetryable: isRetryableStatus(status) });
    }
    const page = await extractResponse({
      url,
      contentType: headerValue(response.headers, "content-type"),
      body,
      maxHtmlBytes: this.#settings.maxHtmlBytes,
    });
    const canonical = canonicalFor(url.href, page.canonicalHref);
    const truncated = page.truncated || page.text.length > options.maxChars;
    return {
      requestedAnchor: anchor,
      canonicalAnchor: canonical,
      title: page.title,
      transport: "http",
      url: canonical,
      domain: registrableDomain(canonical),
      content: page.text.slice(0, options.maxChars),
      truncated,
      contentType: page.contentType,
      ...(page.sections ? { sections: page.sections } : {}),
    };
  }

  async close(): Promise<void> {
    await this.#agent.close();
  }

  #context(
    maxBodyBytes: number,
    maxDecodedBytes: number,
    signal: AbortSignal | undefined,
    paced: boolean,
  ): RequestContext {
    return {
      settings: this.#settings,
      dispatcher: this.#agent,
      limiter: this.#limiter,
      limits: { maxBodyBytes, maxDecodedBytes },
      signal,
      paced,
    };
  }

  /** GET `start`, following redirects by hand: each hop is vetted, checked against robots.txt and counted. */
  async #follow(start: URL, context: RequestContext, checkRobots: boolean): Promise<HttpResponse> {
    const visited = new Set<string>([start.href]);
    let url = start;
    for (let hops = 0; ; hops++) {
      if (checkRobots && this.#settings.respectRobots) {
        const verdict = await this.#robots.check(url, this.#robotsReader);
        if (!verdict.allowed) {
          throw new ExternalServiceError(`skipped: ${verdict.reason}: ${url.href}`, { isRetryable: verdict.retryable });
        }
      }
      const response = await requestWithRetry(url, context);
      const location = headerValue(response.headers, "location");
      if (!REDIRECTS.has(response.status) || location === undefined) return response;
      if (hops >= this.#settings.maxRedirects) {
        throw new ExternalServiceError(`too many redirects (more than ${this.#settings.maxRedirects}): ${start.href}`);
      }
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        throw new ExternalServiceError(`bad redirect Location ${JSON.stringify(location.slice(0, 200))}: ${url.href}`);
      }
      next = vetUrl(next.href, this.#allow, true);
      const scheme = vetRedirectScheme(url, next, this.#settings);
      if (scheme.refused) throw new ExternalServiceError(scheme.reason, { isRetryable: false });
      if (visited.has(next.href)) {
        throw new ExternalServiceError(`redirect loop: ${url.href} redirects back to ${next.href}`);
      }
      visited.add(next.href);
      url = next;
    }
  }

  async #readRobots(robotsUrl: URL): Promise<{ status: number; text: string }> {
    // robots.txt and the page it guards are one visit: only page requests are paced.
    const context = this.#context(ROBOTS_MAX_BYTES, ROBOTS_MAX_BYTES, undefined, false);
    const response = await this.#follow(robotsUrl, context, false);
    const text = response.body ? new TextDecoder("utf-8").decode(response.body.bytes) : "";
    return { status: response.status, text };
  }
}

/** The HTTP fetcher. Nothing connects until the first fetch. */
export function createHttpFetcher(options: HttpFetcherOptions = {}): HttpFetcher {
  return new HttpFetcherImpl(options);
}
