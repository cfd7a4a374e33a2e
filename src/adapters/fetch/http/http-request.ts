/**
 * One HTTP GET through the guarded agent, inside the per-site limiter, under a read deadline;
 * 429 and 503 are retried with Retry-After or exponential backoff, a bounded number of times.
 * Only a 2xx body is read (under the caps); any other body is discarded.
 */
import { type Dispatcher, request } from "undici";
import { registrableDomain } from "../../web/canonical-url.js";
import { type BodyLimits, type BodyRead, readBody, SUPPORTED_ENCODINGS } from "./body-reader.js";
import type { HostLimiter } from "./host-limiter.js";
import { requestFailure } from "./http-errors.js";
import type { HttpSettings } from "./http-settings.js";

const ACCEPT =
  "text/html,application/xhtml+xml;q=0.9,text/plain;q=0.8,application/pdf;q=0.8,application/json;q=0.7,*/*;q=0.1";

export interface HttpResponse {
  url: URL;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body of a 2xx response. */
  body?: BodyRead;
}

export interface RequestContext {
  settings: HttpSettings;
  dispatcher: Dispatcher;
  limiter: HostLimiter;
  limits: BodyLimits;
  signal?: AbortSignal | undefined;
  /** Whether requests wait for and move the site's politeness delay (not for robots.txt). */
  paced: boolean;
}

/** The site a URL belongs to, for politeness: its registrable domain, else its host name. */
function siteOf(url: URL): string {
  return registrableDomain(url.href) || url.hostname;
}

/** The first value of a response header. */
export function headerValue(headers: HttpResponse["headers"], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

async function requestOnce(url: URL, context: RequestContext): Promise<HttpResponse> {
  const { settings } = context;
  const deadline = AbortSignal.timeout(settings.readTimeoutMs);
  const signal = context.signal ? AbortSignal.any([context.signal, deadline]) : deadline;
  try {
    const response = await request(url, {
      dispatcher: context.dispatcher,
      method: "GET",
      headers: { "user-agent": settings.userAgent, accept: ACCEPT, "accept-encoding": SUPPORTED_ENCODINGS },
      signal,
    });
    const { statusCode: status, headers } = response;
    if (status < 200 || status >= 300) {
      // A small body is drained so the connection can be reused; a large one is cut off.
      await response.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
      return { url, status, headers };
    }
    const body = await readBody(response.body, headerValue(headers, "content-encoding"), context.limits);
    return { url, status, headers, body };
  } catch (error) {
    throw requestFailure(error, {
      url: url.href,
      deadline,
      readTimeoutMs: settings.readTimeoutMs,
      signal: context.signal,
    });
  }
}

/**
 * How long to wait before retry number `attempt + 1`: the Retry-After (seconds or an HTTP date),
 * else exponential backoff capped at maxRetryDelayMs. Undefined when Retry-After asks for longer
 * than maxRetryDelayMs: waiting that long is not worth it. Pure.
 */
export function retryDelay(
  retryAfter: string | undefined,
  attempt: number,
  settings: Pick<HttpSettings, "maxRetryDelayMs" | "retryBaseDelayMs" | "now">,
): number | undefined {
  const backoff = Math.min(settings.retryBaseDelayMs * 2 ** attempt, settings.maxRetryDelayMs);
  const text = retryAfter?.trim() ?? "";
  if (text === "") return backoff;
  let wait: number;
  if (/^[0-9]+$/.test(text)) {
    wait = Number(text) * 1000;
  } else {
    const date = Date.parse(text);
    if (Number.isNaN(date)) return backoff;
    wait = Math.max(0, date - settings.now());
  }
  return wait > settings.maxRetryDelayMs ? undefined : wait;
}

/** GET `url`, retrying 429 and 503 responses; the last response is returned whatever its status. */
export async function requestWithRetry(url: URL, context: RequestContext): Promise<HttpResponse> {
  const { settings } = context;
  for (let attempt = 0; ; attempt++) {
    const response = await context.limiter.run(
      siteOf(url),
      () => requestOnce(url, context),
      context.signal,
      context.paced,
    );
    if (response.status !== 429 && response.status !== 503) return response;
    if (attempt >= settings.maxRetries) return response;
    const wait = retryDelay(headerValue(response.headers, "retry-after"), attempt, settings);
    if (wait === undefined) return response;
    await settings.sleep(wait, context.signal);
  }
}
