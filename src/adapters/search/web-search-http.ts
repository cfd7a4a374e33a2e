/**
 * The HTTP exchange every web search provider shares: one JSON request under a deadline,
 * retried with backoff on 408, 429, 5xx and network failures (honouring Retry-After), a
 * bounded body, a zod-checked reply, and failures that say who is at fault and never
 * carry the API key.
 */
import type { z } from "zod";
import { AssayError, ExternalServiceError, UserError } from "../../core/errors.js";
import { sleepUnlessAborted } from "../shared/abortable-sleep.js";

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
  /** The provider's error message and code in an error body, or undefined. */
  readError?: (body: unknown) => ErrorSummary | undefined;
  /** A provider-specific meaning of an error status, or undefined for the default reading. */
  explainStatus?: (status: number, summary: ErrorSummary) => StatusFailure | undefined;
}

export interface WebClient {
  /** Sends `request` and returns its checked reply, or throws UserError / ExternalServiceError. */
  getJson<T>(request: WebRequest, reading: ReplyReading<T>, signal?: AbortSignal): Promise<T>;
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
export function statusFailure(label: string, status: number, summary: ErrorSummary, headers: Headers): StatusFailure {
  const said = summary.text ? `: ${summary.text}` : "";
  if (status === 401 || status === 403) {
    return {
      message: `${label} refused the request (HTTP ${status}): the API key is missing or wrong${said}`,
      retryable: false,
      userFault: true,
    };
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

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
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
  const json = parseJson(text);
  if (!json.ok) throw new ExternalServiceError(`${label} answered with a body that is not JSON (${json.error})`);
  const parsed = reading.schema.safeParse(json.value);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`)
    .join("; ");
  throw new ExternalServiceError(`${label} answered with JSON of an unexpected shape (${issues})`);
}

function summarize<T>(text: string, reading: ReplyReading<T>): ErrorSummary {
  const json = parseJson(text);
  const summary = json.ok ? reading.readError?.(json.value) : undefined;
  return summary ?? {};
}

function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : "";
  return `${error.message}${cause}`;
}

/** A client for one provider. `secrets` never appear in a message. */
export function createWebClient(label: string, options: WebSearchOptions, secrets: readonly string[]): WebClient {
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

  async function getJson<T>(request: WebRequest, reading: ReplyReading<T>, callerSignal?: AbortSignal): Promise<T> {
    callerSignal?.throwIfAborted();
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = callerSignal ? AbortSignal.any([callerSignal, deadline]) : deadline;
    const timedOut = (cause?: unknown): AssayError =>
      fail({ message: `${label} did not answer within ${timeoutMs} ms`, retryable: true }, cause);
    for (let retry = 0; ; retry += 1) {
      let failure: StatusFailure;
      let cause: unknown;
      try {
        const response = await fetchImplementation(request.url, {
          method: request.method,
          headers: request.headers,
          redirect: request.redirect,
          signal,
          ...(request.body === undefined ? {} : { body: request.body }),
        });
        const text = await readBody(response, label);
        if (response.ok) return decode(text, reading, label);
        const summary = summarize(text, reading);
        failure =
          reading.explainStatus?.(response.status, summary) ??
          statusFailure(label, response.status, summary, response.headers);
      } catch (error) {
        // A body that is too large or malformed: retrying would get the same answer.
        if (error instanceof AssayError) throw fail({ message: error.message, retryable: false });
        if (callerSignal?.aborted) throw callerSignal.reason;
        if (deadline.aborted) throw timedOut(error);
        failure = { message: `${label} could not be reached: ${describeNetworkError(error)}`, retryable: true };
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
  return { getJson };
}
