/**
 * What a failed provider call means for the Model port: its failure kind, whether it may
 * be retried, and a one-line message that never carries a secret. Pure.
 */
import { APICallError } from "ai";
import type { GenerationFailureKind } from "../../../ports/model.js";

export interface CallFailure {
  kind: GenerationFailureKind;
  error: string;
  retryable: boolean;
  /** The provider's Retry-After, when it sent one. */
  retryAfterMs?: number;
}

export interface FailureContext {
  provider: string;
  /** The caller's signal fired. */
  cancelled: boolean;
  /** The per-call time limit fired. */
  timedOut: boolean;
  timeoutMs: number;
  /** Values that must never appear in a message (the API key). */
  secrets: readonly string[];
}

const MAX_MESSAGE_CHARS = 300;
// Key shapes of the supported providers, in case a server echoes one that is not ours.
const KEY_LIKE = /\b(?:sk-[A-Za-z0-9_*-]{8,}|AIza[0-9A-Za-z_-]{20,})/g;

/** One line, bounded, with every secret and key-like token replaced. */
export function safeMessage(text: string, secrets: readonly string[]): string {
  let line = text;
  for (const secret of secrets) {
    if (secret.length >= 4) line = line.split(secret).join("[redacted]");
  }
  line = line.replace(KEY_LIKE, "[redacted]").replace(/\s+/g, " ").trim();
  return line.length <= MAX_MESSAGE_CHARS ? line : `${line.slice(0, MAX_MESSAGE_CHARS - 1)}…`;
}

function retryAfterMs(headers: Record<string, string> | undefined): number | undefined {
  if (!headers) return undefined;
  const milliseconds = Number.parseFloat(headers["retry-after-ms"] ?? "");
  if (Number.isFinite(milliseconds) && milliseconds >= 0) return milliseconds;
  const value = headers["retry-after"];
  if (value === undefined) return undefined;
  const seconds = Number.parseFloat(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined;
}

const RETRYABLE_STATUS = (status: number): boolean =>
  status === 408 || status === 409 || status === 429 || status >= 500;

export function classifyFailure(error: unknown, context: FailureContext): CallFailure {
  if (context.cancelled) return { kind: "cancelled", error: "the call was cancelled", retryable: false };
  if (context.timedOut) {
    return { kind: "timeout", error: `no reply within ${context.timeoutMs} ms`, retryable: false };
  }
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    const message = safeMessage(error.message, context.secrets);
    if (status === undefined) {
      return { kind: "transport", error: `${context.provider}: ${message}`, retryable: error.isRetryable };
    }
    const after = retryAfterMs(error.responseHeaders);
    return {
      kind: "transport",
      error: `${context.provider} answered HTTP ${status}: ${message}`,
      // Our own rule, not only the SDK's flag: a 400/401/403/404/422 is never retried.
      retryable: RETRYABLE_STATUS(status),
      ...(after === undefined ? {} : { retryAfterMs: after }),
    };
  }
  const description = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return {
    kind: "transport",
    error: `${context.provider}: ${safeMessage(description, context.secrets)}`,
    retryable: false,
  };
}

/** A 400 or 422 to a native structured-output request: the server may not support `json_schema`. */
export function mayRejectStructuredOutput(error: unknown): boolean {
  return APICallError.isInstance(error) && (error.statusCode === 400 || error.statusCode === 422);
}
