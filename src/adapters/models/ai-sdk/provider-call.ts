/**
 * One provider request through the AI SDK (a structured reply, or a tool-calling turn),
 * and the retry loop around it.
 *
 * `generateText` runs with `maxRetries: 0`: the loop here decides what is retried
 * (408, 409, 429, 5xx and network failures; never 400/401/403), counts every request as
 * an attempt, sums the usage of every request (at the model boundary, so a response the
 * SDK then rejects still counts), and waits with an abortable backoff.
 */

import type { JSONSchema7, ToolChoice, ToolSet } from "ai";
import {
  generateText,
  jsonSchema,
  type ModelMessage,
  NoObjectGeneratedError,
  Output,
  ToolChoiceViolationError,
  wrapLanguageModel,
} from "ai";
import { err, ok, type Result } from "../../../core/result.js";
import { jsonReplyInstructions } from "../../../core/synthesis/prompts.js";
import type { ModelUsage } from "../../../ports/model.js";
import { sleepUnlessAborted } from "../../shared/abortable-sleep.js";
import { safeParseJson } from "./json-reply.js";
import type { ProviderId } from "./model-spec.js";
import { type CallFailure, classifyFailure, mayRejectStructuredOutput } from "./provider-errors.js";

/**
 * How a reply is constrained to the schema: `native` sends the JSON Schema as the
 * provider's structured-output format; `json` asks for a JSON object (JSON mode) and
 * states the schema in the prompt; `text` only states the schema in the prompt.
 */
export type StructuredOutputMode = "native" | "json" | "text";

export interface ProviderReply {
  text: string;
  finishReason: string;
}

export interface ReplyRequest {
  system: string;
  messages: ModelMessage[];
  mode: StructuredOutputMode;
  wireSchema: JSONSchema7;
  schemaName: string;
}

/** A tool call as the provider returned it, before validation. */
export interface RawToolCall {
  id: string;
  name: string;
  /** The arguments: a parsed JSON value, or the raw text when it was not JSON. */
  input: unknown;
}

/** A tool-calling reply: its calls (ids not yet checked), its text, or what made its text unusable. */
export interface ToolReply {
  calls: RawToolCall[];
  text: string;
  finishReason: string;
  /** The text form only: the reply was not the JSON object asked for. */
  problem?: string;
  /** The text form only: the reply as the model wrote it, when `text` is taken from its JSON. */
  raw?: string;
}

/** A tool-calling request. The tools have no `execute`: the caller runs the calls. */
export interface ToolRequest {
  system: string;
  messages: ModelMessage[];
  tools: ToolSet;
  toolChoice: ToolChoice<ToolSet>;
}

/** A provider's language model object (specification v3), as the provider packages create it. */
export type ProviderModel = Parameters<typeof wrapLanguageModel>[0]["model"];

export interface CallSettings {
  model: ProviderModel;
  provider: ProviderId;
  secrets: readonly string[];
  maxRetries: number;
  retryBaseDelayMs: number;
  maxOutputTokens?: number;
}

/** The state of one Model call: its signals, and the usage and attempts so far. */
export interface CallState {
  signal: AbortSignal;
  cancelled: () => boolean;
  timedOut: () => boolean;
  timeoutMs: number;
  usage: ModelUsage;
  attempts: number;
}

export interface RequestFailure {
  failure: CallFailure;
  /**
   * A request using a native feature (structured output, tool calling) that the server
   * refused with 400/422: it may not support that feature.
   */
  nativeRejected: boolean;
}

const MAX_BACKOFF_MS = 8_000;
const MAX_RETRY_AFTER_MS = 60_000;

/**
 * The model with the usage of every provider response added to `state`, including a
 * response that `generateText` then throws on (no JSON object, a tool choice not obeyed).
 */
export function meteredModel(model: ProviderModel, state: CallState): ProviderModel {
  return wrapLanguageModel({
    model,
    middleware: {
      specificationVersion: "v3",
      wrapGenerate: async ({ doGenerate }) => {
        const result = await doGenerate();
        state.usage.inputTokens += result.usage.inputTokens.total ?? 0;
        state.usage.outputTokens += result.usage.outputTokens.total ?? 0;
        return result;
      },
    },
  });
}

function outputFor(request: ReplyRequest, provider: ProviderId) {
  if (request.mode === "native") {
    // No `validate`: the SDK only checks that the text is JSON; the zod schema decides.
    return { output: Output.object({ schema: jsonSchema(request.wireSchema), name: request.schemaName }) };
  }
  // Anthropic has no schema-less JSON mode; `json` degrades to `text` there.
  if (request.mode === "json" && provider !== "anthropic") return { output: Output.json({ name: request.schemaName }) };
  return {};
}

async function requestOnce(settings: CallSettings, request: ReplyRequest, state: CallState): Promise<ProviderReply> {
  const system =
    request.mode === "native" ? request.system : `${request.system}\n\n${jsonReplyInstructions(request.wireSchema)}`;
  try {
    const result = await generateText({
      model: meteredModel(settings.model, state),
      system,
      messages: request.messages,
      maxRetries: 0,
      abortSignal: state.signal,
      ...(settings.maxOutputTokens === undefined ? {} : { maxOutputTokens: settings.maxOutputTokens }),
      ...outputFor(request, settings.provider),
    });
    return { text: result.text, finishReason: result.finishReason };
  } catch (error) {
    // The reply was not JSON: keep its text for our own extraction and the repair round.
    if (NoObjectGeneratedError.isInstance(error)) {
      return { text: error.text ?? "", finishReason: error.finishReason ?? "other" };
    }
    throw error;
  }
}

/** A call's arguments as JSON when the provider gave them as text (the SDK's own form in errors). */
const parsedInput = (input: unknown): unknown => {
  if (typeof input !== "string") return input;
  const parsed = safeParseJson(input);
  return parsed.ok ? parsed.value : input;
};

/** The reply inside a "the model called no tool / not the required one" error. */
function replyOfViolation(error: ToolChoiceViolationError): ToolReply {
  const calls: RawToolCall[] = [];
  const texts: string[] = [];
  for (const part of error.content) {
    if (part.type === "tool-call") {
      calls.push({ id: part.toolCallId, name: part.toolName, input: parsedInput(part.input) });
    } else if (part.type === "text") {
      texts.push(part.text);
    }
  }
  return { calls, text: texts.join(""), finishReason: error.finishReason };
}

/**
 * One tool-calling request: `generateText` returns the model's calls after one request and
 * never loops. Calls to unknown tools and arguments that are not JSON come back too (the SDK
 * marks them invalid); the caller decides what to do with them.
 */
async function toolRequestOnce(settings: CallSettings, request: ToolRequest, state: CallState): Promise<ToolReply> {
  try {
    const result = await generateText({
      model: meteredModel(settings.model, state),
      system: request.system,
      messages: request.messages,
      tools: request.tools,
      toolChoice: request.toolChoice,
      maxRetries: 0,
      abortSignal: state.signal,
      ...(settings.maxOutputTokens === undefined ? {} : { maxOutputTokens: settings.maxOutputTokens }),
    });
    const calls = result.toolCalls.map((call) => ({
      id: call.toolCallId,
      name: call.toolName,
      input: parsedInput(call.input),
    }));
    return { calls, text: result.text, finishReason: result.finishReason };
  } catch (error) {
    // The SDK rejects a reply that ignores the tool choice; its content goes to the repair round.
    if (ToolChoiceViolationError.isInstance(error)) return replyOfViolation(error);
    throw error;
  }
}

function backoffMs(settings: CallSettings, retry: number, failure: CallFailure): number {
  if (failure.retryAfterMs !== undefined) return Math.min(failure.retryAfterMs, MAX_RETRY_AFTER_MS);
  return Math.min(settings.retryBaseDelayMs * 2 ** retry, MAX_BACKOFF_MS);
}

/**
 * `send` (one provider request), retried on retryable failures. `native`: the request
 * uses a feature a server may refuse with 400/422 (structured output, tools). Never throws.
 */
export async function withRetries<T>(
  settings: CallSettings,
  state: CallState,
  send: () => Promise<T>,
  native: boolean,
): Promise<Result<T, RequestFailure>> {
  const classify = (error: unknown): CallFailure =>
    classifyFailure(error, {
      provider: settings.provider,
      cancelled: state.cancelled(),
      timedOut: state.timedOut(),
      timeoutMs: state.timeoutMs,
      secrets: settings.secrets,
    });
  for (let retry = 0; ; retry += 1) {
    state.attempts += 1;
    try {
      return ok(await send());
    } catch (error) {
      const failure = classify(error);
      const nativeRejected = native && mayRejectStructuredOutput(error);
      if (!failure.retryable || retry >= settings.maxRetries) return err({ failure, nativeRejected });
      if (!(await sleepUnlessAborted(backoffMs(settings, retry, failure), state.signal))) {
        return err({ failure: classify(error), nativeRejected: false });
      }
    }
  }
}

/** One structured-output request, retried on retryable failures. Never throws. */
export function requestWithRetries(
  settings: CallSettings,
  request: ReplyRequest,
  state: CallState,
): Promise<Result<ProviderReply, RequestFailure>> {
  return withRetries(settings, state, () => requestOnce(settings, request, state), request.mode === "native");
}

/** One tool-calling request, retried on retryable failures. Never throws. */
export function toolRequestWithRetries(
  settings: CallSettings,
  request: ToolRequest,
  state: CallState,
): Promise<Result<ToolReply, RequestFailure>> {
  return withRetries(settings, state, () => toolRequestOnce(settings, request, state), true);
}
