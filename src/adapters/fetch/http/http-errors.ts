/** Turns what undici, node:net and node:tls throw into one-line typed errors. */
import { AssayError, ExternalServiceError, UserError } from "../../../core/errors.js";
import { RefusedAddressError } from "./guarded-connector.js";

const RETRYABLE_STATUS = new Set([408, 425, 429, 500, 502, 503, 504]);

export function isRetryableStatus(status: number): boolean {
  return RETRYABLE_STATUS.has(status) || status >= 520;
}

function codeOf(error: unknown): string {
  if (typeof error !== "object" || error === null) return "";
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string") return code;
  return codeOf((error as { cause?: unknown }).cause);
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim().slice(0, 300);
}

export interface FailureContext {
  url: string;
  /** Aborted when the per-request read deadline passed. */
  deadline: AbortSignal;
  readTimeoutMs: number;
  /** The caller's signal: its abort reason is rethrown as is. */
  signal?: AbortSignal | undefined;
}

/** The error to throw for a failed request. Our own typed errors pass through. */
export function requestFailure(error: unknown, context: FailureContext): unknown {
  if (context.signal?.aborted) return context.signal.reason;
  if (error instanceof RefusedAddressError) {
    return new UserError(`refused to fetch ${context.url}: ${error.reason}`, { cause: error });
  }
  if (error instanceof AssayError) return error;
  const at = context.url;
  const fail = (reason: string, isRetryable: boolean): ExternalServiceError =>
    new ExternalServiceError(oneLine(`${reason}: ${at}`), { cause: error, isRetryable });
  if (context.deadline.aborted) return fail(`timed out after ${context.readTimeoutMs} ms`, true);
  const code = codeOf(error);
  const message = error instanceof Error ? error.message : String(error);
  switch (code) {
    case "UND_ERR_CONNECT_TIMEOUT":
      return fail("connect timeout", true);
    case "UND_ERR_HEADERS_TIMEOUT":
    case "UND_ERR_BODY_TIMEOUT":
      return fail("read timeout", true);
    case "ENOTFOUND":
      return fail("cannot resolve host", false);
    case "EAI_AGAIN":
      return fail("DNS lookup failed temporarily", true);
    case "ECONNREFUSED":
      return fail("connection refused", true);
    case "ECONNRESET":
    case "EPIPE":
    case "UND_ERR_SOCKET":
      return fail("connection closed by the server", true);
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return fail("host unreachable", true);
    case "UND_ERR_HEADERS_OVERFLOW":
      return fail("response headers too large", false);
  }
  if (code.startsWith("HPE_")) return fail("malformed HTTP response", false);
  if (code.startsWith("ERR_TLS") || code.includes("CERT") || code.startsWith("ERR_SSL")) {
    return fail(oneLine(`TLS error (${message})`), false);
  }
  return fail(oneLine(`request failed (${message})`), false);
}
