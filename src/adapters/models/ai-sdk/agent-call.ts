/**
 * One turn of the research loop (the `simple` strategy) through the AI SDK, with native
 * tool calling: the tools carry no `execute`, so `generateText` returns the model's calls
 * after one request and the Host runs them. A reply that calls no tool or calls one with
 * invalid arguments gets one repair round, then the turn fails as `malformed`. An
 * `openai-compatible` server that refuses tools (400/422) is asked once more for the turn
 * as a JSON reply in text, and is asked that way for the rest of the run.
 */
import { generateText, jsonSchema, type ModelMessage, ToolChoiceViolationError, type ToolSet } from "ai";
import { AGENT_TOOL_DESCRIPTIONS, agentPrompt } from "../../../core/agent/prompt.js";
import { err, ok, type Result } from "../../../core/result.js";
import { repairPrompt } from "../../../core/synthesis/prompts.js";
import type { AgentTurn, AgentTurnInput, GenerationFailureKind } from "../../../ports/model.js";
import {
  interpretTurn,
  type RawToolCall,
  textReplyCalls,
  textToolInstructions,
  textTurnMessages,
  toolCallingMessages,
  toolRepairPrompt,
  withUniqueIds,
} from "./agent-messages.js";
import { safeParseJson } from "./json-reply.js";
import {
  type CallSettings,
  type CallState,
  meteredModel,
  type RequestFailure,
  requestWithRetries,
  withRetries,
} from "./provider-call.js";
import {
  agentAnswerWireSchema,
  agentReadWireSchema,
  agentSearchWireSchema,
  agentTextAnswerWireSchema,
  agentTextTurnWireSchema,
} from "./wire-schemas.js";

export interface AgentCallContext {
  settings: CallSettings;
  /** Fall back to a JSON reply in text when the server refuses tools (`openai-compatible`). */
  toolFallback: boolean;
  /** Set once a server refused tools and accepted the text form. */
  toolsRejected: boolean;
}

export type TurnOutcome = Result<AgentTurn, { kind: GenerationFailureKind; error: string }>;

/** A reply: its tool calls (ids not yet checked), its text, or what made its text unusable. */
interface TurnReply {
  calls: RawToolCall[];
  text: string;
  finishReason: string;
  /** The text form only: the reply was not the JSON object asked for. */
  problem?: string;
}

/** How a turn is asked for: native tool calling, or a JSON reply in text. */
interface TurnForm {
  messages: ModelMessage[];
  send(messages: ModelMessage[]): Promise<Result<TurnReply, RequestFailure>>;
  repair(messages: ModelMessage[], reply: TurnReply, problem: string): ModelMessage[];
}

const oneLine = (text: string): string => text.replace(/\s*\n\s*/g, "; ").slice(0, 1_000);

/**
 * The tools offered: only `answer` on the last turn. No `execute`: the Host runs the calls.
 * Plain objects rather than `tool()`, whose `Tool<INPUT, never>` does not fit `ToolSet`
 * under `exactOptionalPropertyTypes`.
 */
function agentTools(mustAnswer: boolean): ToolSet {
  const answer = { description: AGENT_TOOL_DESCRIPTIONS.answer, inputSchema: jsonSchema(agentAnswerWireSchema) };
  if (mustAnswer) return { answer };
  return {
    search: { description: AGENT_TOOL_DESCRIPTIONS.search, inputSchema: jsonSchema(agentSearchWireSchema) },
    read: { description: AGENT_TOOL_DESCRIPTIONS.read, inputSchema: jsonSchema(agentReadWireSchema) },
    answer,
  };
}

/** A call's arguments as JSON when the provider gave them as text (the SDK's own form in errors). */
const parsedInput = (input: unknown): unknown => {
  if (typeof input !== "string") return input;
  const parsed = safeParseJson(input);
  return parsed.ok ? parsed.value : input;
};

/** The reply inside a "the model called no tool / not the required one" error. */
function replyOfViolation(error: ToolChoiceViolationError): TurnReply {
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

async function toolRequest(
  settings: CallSettings,
  state: CallState,
  request: { system: string; messages: ModelMessage[]; mustAnswer: boolean },
): Promise<TurnReply> {
  try {
    const result = await generateText({
      model: meteredModel(settings.model, state),
      system: request.system,
      messages: request.messages,
      tools: agentTools(request.mustAnswer),
      toolChoice: request.mustAnswer ? { type: "tool", toolName: "answer" } : "required",
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

function nativeForm(context: AgentCallContext, input: AgentTurnInput, state: CallState): TurnForm {
  const { system } = agentPrompt(input);
  return {
    messages: toolCallingMessages(input),
    send: (messages) =>
      withRetries(
        context.settings,
        state,
        () => toolRequest(context.settings, state, { system, messages, mustAnswer: input.mustAnswer }),
        true,
      ),
    // The rejected calls are described, not replayed: none of them ran, so none has a result.
    repair: (messages, reply, problem) => [
      ...messages,
      ...(reply.calls.length === 0
        ? [{ role: "assistant" as const, content: reply.text.trim() === "" ? "(empty reply)" : reply.text }]
        : []),
      { role: "user", content: toolRepairPrompt(problem, input.mustAnswer) },
    ],
  };
}

function textForm(context: AgentCallContext, input: AgentTurnInput, state: CallState): TurnForm {
  const system = `${agentPrompt(input).system}\n\n${textToolInstructions(input.mustAnswer)}`;
  const wireSchema = input.mustAnswer ? agentTextAnswerWireSchema : agentTextTurnWireSchema;
  return {
    messages: textTurnMessages(input),
    send: async (messages) => {
      const request = { system, messages, mode: "text" as const, wireSchema, schemaName: "agent_turn" };
      const reply = await requestWithRetries(context.settings, request, state);
      if (!reply.ok) return reply;
      const calls = textReplyCalls(reply.value.text);
      return ok({ ...reply.value, calls: calls.ok ? calls.value : [], ...(calls.ok ? {} : { problem: calls.error }) });
    },
    repair: (messages, reply, problem) => [
      ...messages,
      { role: "assistant", content: reply.text.trim() === "" ? "(empty reply)" : reply.text },
      { role: "user", content: repairPrompt(problem) },
    ],
  };
}

/** The first reply, falling back from tools to text once when an openai-compatible server refuses them. */
async function firstReply(context: AgentCallContext, input: AgentTurnInput, state: CallState) {
  const native = !(context.toolFallback && context.toolsRejected);
  const form = native ? nativeForm(context, input, state) : textForm(context, input, state);
  const reply = await form.send(form.messages);
  if (reply.ok || !native || !reply.error.nativeRejected || !context.toolFallback) return { form, reply };
  const text = textForm(context, input, state);
  const textReply = await text.send(text.messages);
  if (textReply.ok) context.toolsRejected = true;
  return { form: text, reply: textReply };
}

const interpret = (reply: TurnReply, input: AgentTurnInput): Result<AgentTurn> =>
  reply.problem === undefined ? interpretTurn(withUniqueIds(reply.calls, input), input) : err(reply.problem);

const refusal = (reply: TurnReply): boolean => reply.finishReason === "content-filter";
const failed = ({ failure }: RequestFailure): TurnOutcome => err({ kind: failure.kind, error: failure.error });

/** One turn: a request, and one repair round when the reply is unusable. Never throws. */
export async function agentTurn(
  context: AgentCallContext,
  input: AgentTurnInput,
  state: CallState,
): Promise<TurnOutcome> {
  const { form, reply } = await firstReply(context, input, state);
  if (!reply.ok) return failed(reply.error);
  const turn = interpret(reply.value, input);
  if (turn.ok) return turn;
  if (refusal(reply.value)) return err({ kind: "refused", error: "the provider filtered the reply" });

  const second = await form.send(form.repair(form.messages, reply.value, turn.error));
  if (!second.ok) return failed(second.error);
  const repaired = interpret(second.value, input);
  if (repaired.ok) return repaired;
  if (refusal(second.value)) return err({ kind: "refused", error: "the provider filtered the reply" });
  return err({
    kind: "malformed",
    error: `the turn was still unusable after one repair round: ${oneLine(repaired.error)}`,
  });
}
