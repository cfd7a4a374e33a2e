/**
 * The HTTP exchange every web search provider shares: one request under a deadline, paced
 * where the provider's terms ask for it, retried with backoff on 408, 429, 5xx and network
 * failures (honouring Retry-After), a bounded body parsed as JSON (or XML, or HTML, by the
 * provider's own parser) and zod-checked, and failures that say who is at fault and never
 * carry the API key.
 */
import type { z } from "zod";
import { AssayError, ExternalServiceError, UserError } from "../../core/errors.js";
import { sleepUnlessAborted } from "../shared/abortable-sleep.js";
import { paced } from "./request-pacing.js";

/** The factory options every web search provider takes. */
export interface WebSearchOptions {
  /** The provider's API key; the shell reads it from the environment. */
  apiKey?: string;
  /** Overrides the provider's public endpoint (a proxy, a self-hosted instance, a test server). */
  baseUrl?: string;
  /** The fetch implementation; the global (undici) fetch when absent. */
  fetch?: typeof globalThis.fetch;
  /** The limit on one search, retries and waits included. Default 30 000. */
  timeoutMs?: number;
  /** Retries after a retryable failure (408, 429, 5xx, network). Default 2. */
  maxRetries?: number;
  /** The first backoff delay, doubled per retry up to 8 s; a Retry-After header wins. Default 500. */
  retryBaseDelayMs?: number;
  /**
   * The shortest time between two requests to this provider from this process (its terms:
   * arXiv one per 3 s, PubMed three per second). Overrides the provider's default; 0 turns
   * pacing off (tests).
   */
  minIntervalMs?: number;
}

export interface WebRequest {
  url: URL;
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: string;
  /** `manual` for requests that carry a key, so a redirect never forwards it to another host. */
  redirect: "follow" | "manual";
}

/** What an error body says, read with the provider's own error schema. */
export interface ErrorSummary {
  text?: string;
  code?: string;
}

export interface StatusFailure {
  message: string;
  retryable: boolean;
  /** The user can fix it (a key, a setting): thrown as UserError. */
  userFault?: boolean;
  retryAfterMs?: number;
}

/** How to read one provider's replies. */
export interface ReplyReading<T> {
  schema: z.ZodType<T>;
  /** What the body is: "JSON" (the default, parsed with JSON.parse), "XML" or "HTML". */
  format?: string;
  /** Parses a body of `format` other than JSON into the value `schema` checks; throws on a malformed one. */
  parse?: (text: string) => unknown;
  /**
   * A successful (2xx) body that is a refusal all the same (a block page, an error document
   * sent with 200), read before parsing; undefined for a body to parse.
   */
  refusal?: (text: string) => StatusFailure | undefined;
  /** The provider's error message and code in an error body, or undefined. */
  readError?: (body: unknown) => ErrorSummary | undefined;
  /** A provider-specific meaning of an error status, or undefined for the default reading. */
  explainStatus?: (status: number, summary: ErrorSummary) => StatusFailure | undefined;
}

export interface WebClient {
  /** Sends `request` and returns its checked reply, or throws UserError / ExternalServiceError. */
  get<T>(request: WebRequest, reading: ReplyReading<T>, signal?: AbortSignal): Promise<T>;
}

/** How a client is paced: requests sharing `key` in this process are at least `intervalMs` apart. */
export interface Pacing {
  key: string;
  intervalMs: number;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
/** A Retry-After longer than this is not waited for: the search fails and says how long to wait. */
export const MAX_RETRY_AFTER_MS = 10_000;
const MAX_BACKOFF_MS = 8_000;
const MAX_BODY_BYTES = 5_000_000;
const MAX_MESSAGE_CHARS = 300;

/** One line, bounded, with every secret replaced. Pure. */
export function redact(text: string, secrets: readonly string[]): string {
  let line = text;
  for (const secret of secrets) if (secret.length >= 4) line = line.split(secret).join("[redacted]");
  line = line.replace(/\s+/g, " ").trim();
  return line.length <= MAX_MESSAGE_CHARS ? line : `${line.slice(0, MAX_MESSAGE_CHARS - 1)}…`;
}

/** Milliseconds to wait from a Retry-After value (seconds or an HTTP date), or undefined. Pure. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Number.parseFloat(value) * 1000;
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
}

/** The default reading of an error status. Pure. */
export function statusFailure(
  label: string,
  status: number,
  summary: ErrorSummary,
  headers: Headers,
  keyed = true,
): StatusFailure {
  const said = summary.text ? `: ${summary.text}` : "";
  if (status === 401 || status === 403) {
    // A keyless provider that refuses has blocked this client (or the network it is on), not a key.
    return keyed
      ? {
          message: `${label} refused the request (HTTP ${status}): the API key is missing or wrong${said}`,
          retryable: false,
          userFault: true,
        }
      : { message: `${label} refused the request (HTTP ${status})${said}`, retryable: false };
  }
  if (status >= 300 && status < 400) {
    return {
      message: `${label} answered with a redirect (HTTP ${status}); set the base URL to the address it redirects to`,
      retryable: false,
      userFault: true,
    };
  }
  const retryable = status === 408 || status === 429 || status >= 500;
  const after = retryable ? retryAfterMs(headers.get("retry-after")) : undefined;
  return {
    message: `${label} answered HTTP ${status}${said}`,
    retryable,
    ...(after === undefined ? {} : { retryAfterMs: after }),
  };
}

function parseBody(
  text: string,
  parse: (text: string) => unknown = JSON.parse,
): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: parse(text) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

async function readBody(response: Response, label: string): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      throw new ExternalServiceError(`${label} answered with a body larger than ${MAX_BODY_BYTES} bytes`);
    }
    parts.push(value);
  }
  return Buffer.concat(parts).toString("utf8");
}

function decode<T>(text: string, reading: ReplyReading<T>, label: string): T {
  const format = reading.format ?? "JSON";
  const body = parseBody(text, reading.parse);
  if (!body.ok) throw new ExternalServiceError(`${label} answered with a body that is not ${format} (${body.error})`);
  const parsed = reading.schema.safeParse(body.value);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`)
    .join("; ");
  throw new ExternalServiceError(`${label} answered with ${format} of an unexpected shape (${issues})`);
}

function summarize<T>(text: string, reading: ReplyReading<T>): ErrorSummary {
  const body = parseBody(text, reading.parse);
  const summary = body.ok ? reading.readError?.(body.value) : undefined;
  return summary ?? {};
}

/** Whether a fetch failed because its host name does not resolve (ENOTFOUND). */
function unresolvable(error: unknown): boolean {
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  return cause?.code === "ENOTFOUND";
}

function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : "";
  return `${error.message}${cause}`;
}

/**
 * A client for one provider. `secrets` never appear in a message. With `pacing`, every
 * attempt (retries too) waits its turn among the process's requests with the same key;
 * `options.minIntervalMs` overrides the interval.
 */
export function createWebClient(
  label: string,
  options: WebSearchOptions,
  secrets: readonly string[],
  pacing?: Pacing,
): WebClient {
  const intervalMs = Math.max(0, options.minIntervalMs ?? pacing?.intervalMs ?? 0);
  const fetchImplementation = options.fetch ?? globalThis.fetch;
  const timeoutMs = Math.max(1, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const maxRetries = Math.max(0, options.maxRetries ?? 2);
  const baseDelayMs = Math.max(0, options.retryBaseDelayMs ?? 500);
  const fail = (failure: StatusFailure, cause?: unknown): AssayError => {
    const message = redact(failure.message, secrets);
    const context = cause === undefined ? {} : { cause };
    return failure.userFault
      ? new UserError(message, context)
      : new ExternalServiceError(message, { ...context, isRetryable: failure.retryable });
  };

  async function get<T>(request: WebRequest, reading: ReplyReading<T>, callerSignal?: AbortSignal): Promise<T> {
    callerSignal?.throwIfAborted();
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = callerSignal ? AbortSignal.any([callerSignal, deadline]) : deadline;
    const timedOut = (cause?: unknown): AssayError =>
      fail({ message: `${label} did not answer within ${timeoutMs} ms`, retryable: true }, cause);
    for (let retry = 0; ; retry += 1) {
      let failure: StatusFailure;
      let cause: unknown;
      try {
        if (pacing && intervalMs > 0) await paced(pacing.key, intervalMs, signal);
        const response = await fetchImplementation(request.url, {
          method: request.method,
          headers: request.headers,
          redirect: request.redirect,
          signal,
          ...(request.body === undefined ? {} : { body: request.body }),
        });
        const text = await readBody(response, label);
        const refused = response.ok ? reading.refusal?.(text) : undefined;
        if (response.ok && !refused) return decode(text, reading, label);
        const summary = summarize(text, reading);
        failure =
          refused ??
          reading.explainStatus?.(response.status, summary) ??
          statusFailure(label, response.status, summary, response.headers, secrets.length > 0);
      } catch (error) {
        // A body that is too large or malformed: retrying would get the same answer.
        if (error instanceof AssayError) throw fail({ message: error.message, retryable: false });
        if (callerSignal?.aborted) throw callerSignal.reason;
        if (deadline.aborted) throw timedOut(error);
        // A host name that does not resolve will not resolve a second later (no network, a typo).
        failure = {
          message: `${label} could not be reached: ${describeNetworkError(error)}`,
          retryable: !unresolvable(error),
        };
        cause = error;
      }
      if (!failure.retryable || retry >= maxRetries) throw fail(failure, cause);
      const wait = failure.retryAfterMs ?? Math.min(baseDelayMs * 2 ** retry, MAX_BACKOFF_MS);
      if (wait > MAX_RETRY_AFTER_MS) {
        throw fail({ ...failure, message: `${failure.message}; it asks to wait ${Math.ceil(wait / 1000)} s` }, cause);
      }
      if (!(await sleepUnlessAborted(wait, signal))) {
        if (callerSignal?.aborted) throw callerSignal.reason;
        throw timedOut();
      }
    }
  }
  return { get };
}
