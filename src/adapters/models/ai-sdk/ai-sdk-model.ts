/**
 * Hosted and local models behind the Model port, through the Vercel AI SDK (v6):
 * `openai:`, `anthropic:`, `google:` and `openai-compatible:` (Ollama, vLLM, llama.cpp
 * server, LM Studio). Planning, synthesis and judging ask for structured output; a turn
 * of the research loop (`step`, agent-call.ts) and of the general tool-calling loop (`act`,
 * act-call.ts) use native tool calling. Every reply is validated against the zod wire
 * schemas (`act` returns its calls' arguments unparsed, for the caller to validate); an
 * unusable reply gets exactly one repair round, then the call fails as `malformed`.
 * Failures are values: `timeout`, `cancelled`, `transport` (one line, no secrets),
 * `refused`, `malformed`. Nothing here reads the environment: the shell passes options.
 *
 * @module
 */
import type { JSONSchema7, ModelMessage } from "ai";
import type { z } from "zod";
import { UserError } from "../../../core/errors.js";
import { judgePrompt, judgeReplySchema } from "../../../core/judge/judge-prompt.js";
import type { JudgeOutput } from "../../../core/judge/rubric.js";
import { type PromptPair, plannerPrompt, repairPrompt, synthesisPrompt } from "../../../core/synthesis/prompts.js";
import {
  type PlannerOutput,
  plannerOutputSchema,
  type SynthesisOutput,
  synthesisOutputSchema,
} from "../../../core/synthesis/proposals.js";
import type {
  ActInput,
  ActTurn,
  AgentTurn,
  AgentTurnInput,
  CallOptions,
  Generation,
  GenerationFailureKind,
  JudgeInput,
  Model,
  ModelUsage,
  PlannerInput,
  SynthesisInput,
} from "../../../ports/model.js";
import { actTurn } from "./act-call.js";
import { type AgentCallContext, agentTurn, type TurnOutcome } from "./agent-call.js";
import { parseReply } from "./json-reply.js";
import { type ModelSpec, parseModelSpec } from "./model-spec.js";
import { costOf, defaultPrices, type PriceTable } from "./price-table.js";
import {
  type CallSettings,
  type CallState,
  type ProviderReply,
  type RequestFailure,
  requestWithRetries,
  type StructuredOutputMode,
} from "./provider-call.js";
import { createLanguageModel } from "./provider-registry.js";
import { judgeWireSchema, plannerWireSchema, synthesisWireSchema } from "./wire-schemas.js";

export type { StructuredOutputMode } from "./provider-call.js";

export interface AiSdkModelOptions {
  /** `provider:model`, e.g. `openai:gpt-4.1-mini` or `openai-compatible:llama3.1:8b`. */
  spec: string;
  /** Required for hosted providers; optional for `openai-compatible`. */
  apiKey?: string;
  /** Required for `openai-compatible`; overrides the public endpoint of hosted providers. */
  baseURL?: string;
  /** The fetch implementation (tests, proxies). */
  fetch?: typeof fetch;
  /** An upper bound on each call's time limit; the caller's `CallOptions.timeoutMs` applies too. */
  timeoutMs?: number;
  /** Retries after a retryable failure (408, 409, 429, 5xx, network). Default 2. */
  maxRetries?: number;
  /** The first backoff delay, doubled per retry up to 8 s; a Retry-After header wins. Default 1000. */
  retryBaseDelayMs?: number;
  /** Output token limit per request; the provider's default when absent. */
  maxOutputTokens?: number;
  /** Prices per million tokens; merged over the default table. */
  prices?: PriceTable;
  /**
   * How replies are constrained (see StructuredOutputMode). Default: `native`; for
   * `openai-compatible`, native first with a fallback to JSON in text when the server
   * rejects the schema or the reply does not fit it.
   */
  structuredOutput?: StructuredOutputMode;
}

/** A Model with the cost of its usage; `cost` is undefined for a model without a known price. */
export interface AiSdkModel extends Model {
  readonly kind: "generative";
  cost(usage: ModelUsage): number | undefined;
  act(input: ActInput, options: CallOptions): Promise<Generation<ActTurn>>;
  judge(input: JudgeInput, options: CallOptions): Promise<Generation<JudgeOutput>>;
}

interface Task<T> {
  prompt: PromptPair;
  schema: z.ZodType<T>;
  wireSchema: JSONSchema7;
  schemaName: string;
}

interface ModelContext extends AgentCallContext {
  settings: CallSettings;
  configuredMode: StructuredOutputMode;
  /** Native first, text after a failure: the default for openai-compatible servers. */
  fallback: boolean;
  /** Set once a server refused native structured output and accepted the text form. */
  nativeRejected: boolean;
  timeoutMs?: number;
}

const oneLine = (text: string): string => text.replace(/\s*\n\s*/g, "; ").slice(0, 1_000);
/** Node clamps longer timers to 1 ms, which would time every call out at once. */
const MAX_TIMER_MS = 2_147_483_647;

function startCall(context: ModelContext, options: CallOptions): CallState {
  const limit = Math.min(options.timeoutMs, context.timeoutMs ?? Number.POSITIVE_INFINITY, MAX_TIMER_MS);
  const timeoutMs = Number.isFinite(limit) ? Math.max(1, Math.floor(limit)) : MAX_TIMER_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  return {
    signal,
    cancelled: () => options.signal?.aborted === true,
    timedOut: () => timeout.aborted,
    timeoutMs,
    usage: { inputTokens: 0, outputTokens: 0 },
    attempts: 0,
  };
}

const succeed = <T>(state: CallState, value: T): Generation<T> => ({
  ok: true,
  value,
  usage: state.usage,
  attempts: state.attempts,
});

const fail = <T>(state: CallState, kind: GenerationFailureKind, error: string): Generation<T> => ({
  ok: false,
  kind,
  error,
  usage: state.usage,
  attempts: state.attempts,
});

const failedRequest = <T>(state: CallState, failure: RequestFailure): Generation<T> =>
  fail(state, failure.failure.kind, failure.failure.error);

function request<T>(task: Task<T>, messages: ModelMessage[], mode: StructuredOutputMode) {
  const { system } = task.prompt;
  return { system, messages, mode, wireSchema: task.wireSchema, schemaName: task.schemaName };
}

/** The first reply, falling back from native to text once when the server rejects the schema. */
async function firstReply<T>(context: ModelContext, task: Task<T>, state: CallState, messages: ModelMessage[]) {
  const mode = context.fallback && context.nativeRejected ? "text" : context.configuredMode;
  const reply = await requestWithRetries(context.settings, request(task, messages, mode), state);
  if (reply.ok || !reply.error.nativeRejected || !context.fallback) return reply;
  const textReply = await requestWithRetries(context.settings, request(task, messages, "text"), state);
  if (textReply.ok) context.nativeRejected = true;
  return textReply;
}

const refusal = (reply: ProviderReply): boolean => reply.finishReason === "content-filter";

async function generate<T>(context: ModelContext, task: Task<T>, options: CallOptions): Promise<Generation<T>> {
  const state = startCall(context, options);
  if (state.cancelled()) return fail(state, "cancelled", "the call was cancelled");
  const messages: ModelMessage[] = [{ role: "user", content: task.prompt.prompt }];
  const first = await firstReply(context, task, state, messages);
  if (!first.ok) return failedRequest(state, first.error);
  const parsed = parseReply(first.value.text, task.schema);
  if (parsed.ok) return succeed(state, parsed.value);
  if (refusal(first.value)) return fail(state, "refused", "the provider filtered the reply");

  const repairMessages: ModelMessage[] = [
    ...messages,
    { role: "assistant", content: first.value.text.trim() === "" ? "(empty reply)" : first.value.text },
    { role: "user", content: repairPrompt(parsed.error) },
  ];
  const repairMode = context.fallback ? "text" : context.configuredMode;
  const second = await requestWithRetries(context.settings, request(task, repairMessages, repairMode), state);
  if (!second.ok) return failedRequest(state, second.error);
  const reparsed = parseReply(second.value.text, task.schema);
  if (reparsed.ok) return succeed(state, reparsed.value);
  if (refusal(second.value)) return fail(state, "refused", "the provider filtered the reply");
  return fail(state, "malformed", `the reply still did not fit after one repair round: ${oneLine(reparsed.error)}`);
}

/** A tool-calling turn (`step`, `act`) as a Generation: nothing is sent when already cancelled. */
async function turn<T>(
  context: ModelContext,
  options: CallOptions,
  run: (state: CallState) => Promise<TurnOutcome<T>>,
): Promise<Generation<T>> {
  const state = startCall(context, options);
  if (state.cancelled()) return fail(state, "cancelled", "the call was cancelled");
  const outcome = await run(state);
  return outcome.ok ? succeed(state, outcome.value) : fail(state, outcome.error.kind, outcome.error.error);
}

function contextFor(spec: ModelSpec, options: AiSdkModelOptions): ModelContext {
  const model = createLanguageModel(spec, {
    ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
    ...(options.baseURL === undefined ? {} : { baseURL: options.baseURL }),
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });
  // Usage is metered by middleware, which needs the provider's model object.
  if (typeof model === "string" || model.specificationVersion !== "v3") {
    throw new Error(`bug: the provider "${spec.provider}" did not create a v3 language model`);
  }
  const settings: CallSettings = {
    model,
    provider: spec.provider,
    secrets: options.apiKey ? [options.apiKey] : [],
    maxRetries: Math.max(0, options.maxRetries ?? 2),
    retryBaseDelayMs: Math.max(0, options.retryBaseDelayMs ?? 1_000),
    ...(options.maxOutputTokens === undefined ? {} : { maxOutputTokens: options.maxOutputTokens }),
  };
  return {
    settings,
    configuredMode: options.structuredOutput ?? "native",
    fallback: spec.provider === "openai-compatible" && options.structuredOutput === undefined,
    nativeRejected: false,
    toolFallback: spec.provider === "openai-compatible",
    toolsRejected: false,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  };
}

/** A Model for `options.spec`. Throws UserError on a malformed spec or missing key or base URL. */
export function createAiSdkModel(options: AiSdkModelOptions): AiSdkModel {
  const parsed = parseModelSpec(options.spec);
  if (!parsed.ok) throw new UserError(parsed.error);
  const spec = parsed.value;
  const name = `${spec.provider}:${spec.modelId}`;
  const context = contextFor(spec, options);
  const prices = { ...defaultPrices, ...options.prices };
  return {
    name,
    kind: "generative",
    plan(input: PlannerInput, callOptions: CallOptions): Promise<Generation<PlannerOutput>> {
      const task = {
        prompt: plannerPrompt(input),
        schema: plannerOutputSchema,
        wireSchema: plannerWireSchema,
        schemaName: "query_plan",
      };
      return generate(context, task, callOptions);
    },
    synthesize(input: SynthesisInput, callOptions: CallOptions): Promise<Generation<SynthesisOutput>> {
      const task = {
        prompt: synthesisPrompt(input),
        schema: synthesisOutputSchema,
        wireSchema: synthesisWireSchema,
        schemaName: "synthesis",
      };
      return generate(context, task, callOptions);
    },
    step(input: AgentTurnInput, callOptions: CallOptions): Promise<Generation<AgentTurn>> {
      return turn(context, callOptions, (state) => agentTurn(context, input, state));
    },
    act(input: ActInput, callOptions: CallOptions): Promise<Generation<ActTurn>> {
      return turn(context, callOptions, (state) => actTurn(context, input, state));
    },
    judge(input: JudgeInput, callOptions: CallOptions): Promise<Generation<JudgeOutput>> {
      const task = {
        prompt: judgePrompt(input),
        schema: judgeReplySchema(input),
        wireSchema: judgeWireSchema,
        schemaName: "judgement",
      };
      return generate(context, task, callOptions);
    },
    cost: (usage) => costOf(usage, name, prices),
  };
}
