/**
 * One tool-calling turn through the AI SDK: the research loop's (`step`, the `simple`
 * strategy) here, and the general one (`act`, act-call.ts) on the same runner. The tools
 * carry no `execute`, so `generateText` returns the model's calls after one request and the
 * Host runs them. An unusable reply gets one repair round, then the turn fails as
 * `malformed`. An `openai-compatible` server that refuses tools (400/422) is asked once more
 * for the turn as a JSON reply in text, and is asked that way for the rest of the run.
 */
import { jsonSchema, type ModelMessage, type ToolSet } from "ai";
import { AGENT_TOOL_DESCRIPTIONS, agentPrompt } from "../../../core/agent/prompt.js";
import { err, ok, type Result } from "../../../core/result.js";
import { repairPrompt } from "../../../core/synthesis/prompts.js";
import type { AgentTurn, AgentTurnInput, GenerationFailureKind } from "../../../ports/model.js";
import {
  agentConversation,
  agentRepairInstruction,
  agentTextCalls,
  interpretTurn,
  nativeMessages,
  textFormMessages,
  textReplyCalls,
  textToolInstructions,
  toolRepairPrompt,
  usedCallIds,
  withUniqueIds,
} from "./agent-messages.js";
import {
  type CallSettings,
  type CallState,
  type ReplyRequest,
  type RequestFailure,
  requestWithRetries,
  type ToolReply,
  toolRequestWithRetries,
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

export type TurnOutcome<T> = Result<T, { kind: GenerationFailureKind; error: string }>;

/** How a turn is asked for: native tool calling, or a JSON reply in text. */
export interface TurnForm {
  messages: ModelMessage[];
  send(messages: ModelMessage[]): Promise<Result<ToolReply, RequestFailure>>;
  repair(messages: ModelMessage[], reply: ToolReply, problem: string): ModelMessage[];
}

/** A kind of turn: its two forms (built on demand), and how a reply becomes its value. */
export interface TurnKind<T> {
  native(): TurnForm;
  text(): TurnForm;
  interpret(reply: ToolReply): Result<T>;
}

const oneLine = (text: string): string => text.replace(/\s*\n\s*/g, "; ").slice(0, 1_000);
const replayed = (reply: ToolReply): string => {
  const text = reply.raw ?? reply.text;
  return text.trim() === "" ? "(empty reply)" : text;
};

/** The repair round of the native form. The rejected calls are described, not replayed: none of them ran. */
export function nativeRepairMessages(messages: ModelMessage[], reply: ToolReply, prompt: string): ModelMessage[] {
  return [
    ...messages,
    ...(reply.calls.length === 0 ? [{ role: "assistant" as const, content: replayed(reply) }] : []),
    { role: "user", content: prompt },
  ];
}

/** The repair round of the text form: the reply as written, then what was wrong with it. */
export function textRepairMessages(messages: ModelMessage[], reply: ToolReply, problem: string): ModelMessage[] {
  return [
    ...messages,
    { role: "assistant", content: replayed(reply) },
    { role: "user", content: repairPrompt(problem) },
  ];
}

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

function agentNativeForm(context: AgentCallContext, input: AgentTurnInput, state: CallState): TurnForm {
  const { system } = agentPrompt(input);
  const tools = agentTools(input.mustAnswer);
  const toolChoice = input.mustAnswer ? { type: "tool" as const, toolName: "answer" } : ("required" as const);
  return {
    messages: nativeMessages(agentConversation(input)),
    send: (messages) => toolRequestWithRetries(context.settings, { system, messages, tools, toolChoice }, state),
    repair: (messages, reply, problem) =>
      nativeRepairMessages(messages, reply, toolRepairPrompt(problem, agentRepairInstruction(input.mustAnswer))),
  };
}

/** A text-form request, its reply's calls read by `readCalls`. */
export async function sendTextForm(
  context: AgentCallContext,
  request: ReplyRequest,
  state: CallState,
  readCalls: (text: string) => Result<Pick<ToolReply, "calls" | "text">>,
): Promise<Result<ToolReply, RequestFailure>> {
  const reply = await requestWithRetries(context.settings, request, state);
  if (!reply.ok) return reply;
  const read = readCalls(reply.value.text);
  if (!read.ok) return ok({ ...reply.value, calls: [], problem: read.error });
  return ok({ ...reply.value, ...read.value, raw: reply.value.text });
}

function agentTextForm(context: AgentCallContext, input: AgentTurnInput, state: CallState): TurnForm {
  const system = `${agentPrompt(input).system}\n\n${textToolInstructions(input.mustAnswer)}`;
  const wireSchema = input.mustAnswer ? agentTextAnswerWireSchema : agentTextTurnWireSchema;
  const readCalls = (text: string): Result<Pick<ToolReply, "calls" | "text">> => {
    const calls = textReplyCalls(text);
    return calls.ok ? ok({ calls: calls.value, text }) : calls;
  };
  return {
    messages: textFormMessages(agentConversation(input), agentTextCalls),
    send: (messages) =>
      sendTextForm(context, { system, messages, mode: "text", wireSchema, schemaName: "agent_turn" }, state, readCalls),
    repair: textRepairMessages,
  };
}

/** The first reply, falling back from tools to text once when an openai-compatible server refuses them. */
async function firstReply<T>(context: AgentCallContext, kind: TurnKind<T>) {
  const native = !(context.toolFallback && context.toolsRejected);
  const form = native ? kind.native() : kind.text();
  const reply = await form.send(form.messages);
  if (reply.ok || !native || !reply.error.nativeRejected || !context.toolFallback) return { form, reply };
  const text = kind.text();
  const textReply = await text.send(text.messages);
  if (textReply.ok) context.toolsRejected = true;
  return { form: text, reply: textReply };
}

const refusal = (reply: ToolReply): boolean => reply.finishReason === "content-filter";
const failed = <T>({ failure }: RequestFailure): TurnOutcome<T> => err({ kind: failure.kind, error: failure.error });
const refused = <T>(): TurnOutcome<T> => err({ kind: "refused", error: "the provider filtered the reply" });

/** One turn of `kind`: a request, and one repair round when the reply is unusable. Never throws. */
export async function runTurn<T>(context: AgentCallContext, kind: TurnKind<T>): Promise<TurnOutcome<T>> {
  const { form, reply } = await firstReply(context, kind);
  if (!reply.ok) return failed(reply.error);
  const turn = kind.interpret(reply.value);
  if (turn.ok) return turn;
  if (refusal(reply.value)) return refused();

  const second = await form.send(form.repair(form.messages, reply.value, turn.error));
  if (!second.ok) return failed(second.error);
  const repaired = kind.interpret(second.value);
  if (repaired.ok) return repaired;
  if (refusal(second.value)) return refused();
  return err({
    kind: "malformed",
    error: `the turn was still unusable after one repair round: ${oneLine(repaired.error)}`,
  });
}

/** One turn of the research loop. Never throws. */
export function agentTurn(
  context: AgentCallContext,
  input: AgentTurnInput,
  state: CallState,
): Promise<TurnOutcome<AgentTurn>> {
  const used = usedCallIds(agentConversation(input));
  return runTurn(context, {
    native: () => agentNativeForm(context, input, state),
    text: () => agentTextForm(context, input, state),
    interpret: (reply) =>
      reply.problem === undefined ? interpretTurn(withUniqueIds(reply.calls, used), input) : err(reply.problem),
  });
}
