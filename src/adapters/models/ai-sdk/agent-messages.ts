/**
 * Tool-calling conversations as AI SDK messages, and the research loop's tool calls as a
 * validated turn. Pure; never throws.
 *
 * A conversation in the general form (`ActMessage`: the `act` turn's own, and the research
 * loop's once mapped by `agentConversation`) has two renderings: native tool calling
 * (assistant `tool-call` parts answered by `tool-result` parts with the Host's text), and a
 * JSON reply in text for servers that refuse tools (each turn's calls as JSON, their results
 * as user messages).
 */
import type { ModelMessage } from "ai";
import type { z } from "zod";
import { agentPrompt } from "../../../core/agent/prompt.js";
import { agentReadArgsSchema, agentSearchArgsSchema, answerOutputSchema } from "../../../core/agent/turn.js";
import { err, ok, type Result } from "../../../core/result.js";
import { neutralizeDelimiters } from "../../../core/synthesis/prompts.js";
import type { ActMessage, AgentToolCall, AgentTurn, AgentTurnInput } from "../../../ports/model.js";
import { describeIssues, dropNullProperties, extractJsonObject } from "./json-reply.js";
import type { RawToolCall } from "./provider-call.js";

type AssistantMessage = Extract<ActMessage, { role: "assistant" }>;

/** Ids a provider accepts back in a transcript (Anthropic's `tool_use.id` pattern). */
const CALL_ID = /^[A-Za-z0-9_-]{1,64}$/;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const callArguments = (call: AgentToolCall): Record<string, string> =>
  call.tool === "search" ? { query: call.query } : { hit: call.hit };

/** The research loop's conversation in the general form: the request, then each turn's calls and results. */
export function agentConversation(input: AgentTurnInput): ActMessage[] {
  const messages: ActMessage[] = [{ role: "user", content: agentPrompt(input).prompt }];
  for (const message of input.transcript) {
    if (message.role === "assistant") {
      const calls = message.calls.map((call) => ({ id: call.id, name: call.tool, args: callArguments(call) }));
      messages.push({ role: "assistant", text: "", calls });
    } else {
      messages.push({ role: "tool", callId: message.callId, name: message.tool, content: message.content });
    }
  }
  return messages;
}

/**
 * A call's arguments as a transcript may carry them back: a JSON object. Providers refuse
 * anything else there (Anthropic's `tool_use.input`, Google's `functionCall.args`, servers that
 * parse an OpenAI `arguments` string into an object), so arguments the model wrote that were
 * not an object (not JSON, or another JSON value) go back as their text under
 * `invalid_arguments`: the model still sees what it wrote, and its result says why it was refused.
 */
function replayedArguments(args: unknown): Record<string, unknown> {
  if (isPlainObject(args)) return args;
  if (args === null || args === undefined) return {};
  return { invalid_arguments: typeof args === "string" ? args : JSON.stringify(args) };
}

function nativeAssistant(message: AssistantMessage): ModelMessage | undefined {
  const text = message.text.trim() === "" ? [] : [{ type: "text" as const, text: message.text }];
  if (message.calls.length === 0) return text.length === 0 ? undefined : { role: "assistant", content: message.text };
  const calls = message.calls.map((call) => ({
    type: "tool-call" as const,
    toolCallId: call.id,
    toolName: call.name,
    input: replayedArguments(call.args),
  }));
  return { role: "assistant", content: [...text, ...calls] };
}

/**
 * The conversation for native tool calling: an assistant message of text and `tool-call`
 * parts per turn (an empty turn is left out), one `tool-result` per call.
 */
export function nativeMessages(conversation: readonly ActMessage[]): ModelMessage[] {
  const messages: ModelMessage[] = [];
  for (const message of conversation) {
    if (message.role === "user") {
      messages.push({ role: "user", content: message.content });
    } else if (message.role === "assistant") {
      const assistant = nativeAssistant(message);
      if (assistant) messages.push(assistant);
    } else {
      const output = { type: "text" as const, value: message.content };
      const part = { type: "tool-result" as const, toolCallId: message.callId, toolName: message.name, output };
      messages.push({ role: "tool", content: [part] });
    }
  }
  return messages;
}

/**
 * The conversation for a JSON reply in text: each assistant turn as `assistantText` renders
 * it (its calls as JSON), the results of its calls as one user message.
 */
export function textFormMessages(
  conversation: readonly ActMessage[],
  assistantText: (message: AssistantMessage) => string,
): ModelMessage[] {
  const messages: ModelMessage[] = [];
  let results: string[] = [];
  const flush = (): void => {
    if (results.length > 0) messages.push({ role: "user", content: results.join("\n\n") });
    results = [];
  };
  for (const message of conversation) {
    if (message.role === "tool") {
      results.push(`Result of your ${message.name} call:\n${message.content}`);
      continue;
    }
    flush();
    if (message.role === "user") messages.push({ role: "user", content: message.content });
    else messages.push({ role: "assistant", content: assistantText(message) });
  }
  flush();
  return messages;
}

/** The research loop's calls as the text form writes them: `{"calls": [{"tool": …, …args}]}`. */
export function agentTextCalls(message: AssistantMessage): string {
  const calls = message.calls.map((call) => ({ tool: call.name, ...(isPlainObject(call.args) ? call.args : {}) }));
  return JSON.stringify({ calls });
}

/** How to call the tools in text, appended to the system message in the text form. Pure. */
export function textToolInstructions(mustAnswer: boolean): string {
  const answer =
    'To answer, reply {"answer": {"statements": [{"text": …, "sourceId": …, "chunkIds": […]}], "gaps": [{"text": …}]}}.';
  if (mustAnswer) return `Tool calls are not available here. This is the last turn: ${answer}`;
  return [
    "Tool calls are not available here: call the tools by replying with JSON instead.",
    'To search or read, reply {"calls": [{"tool": "search", "query": …}, {"tool": "read", "hit": …}], "answer": null}; the host replies with the results.',
    answer,
  ].join("\n");
}

/** The tool calls a text reply states, or what is wrong with it. */
export function textReplyCalls(text: string): Result<RawToolCall[]> {
  const extracted = extractJsonObject(text);
  if (!extracted.ok) return extracted;
  const reply = dropNullProperties(extracted.value);
  if (!isPlainObject(reply)) return err("the reply is not a JSON object");
  if (reply.answer !== undefined) return ok([{ id: "", name: "answer", input: reply.answer }]);
  if (reply.calls === undefined) return ok([]);
  if (!Array.isArray(reply.calls)) return err('"calls" is not an array');
  return ok(
    reply.calls.map((call): RawToolCall => {
      if (!isPlainObject(call)) return { id: "", name: "(none)", input: call };
      const { tool, ...args } = call;
      return { id: "", name: typeof tool === "string" ? tool : "(none)", input: args };
    }),
  );
}

/** The call ids a conversation already uses. */
export function usedCallIds(conversation: readonly ActMessage[]): Set<string> {
  const used = new Set<string>();
  for (const message of conversation) {
    if (message.role === "assistant") for (const call of message.calls) used.add(call.id);
    else if (message.role === "tool") used.add(message.callId);
  }
  return used;
}

/**
 * The calls with ids a provider accepts back and that are unique in the conversation:
 * a missing, malformed or repeated id (some local servers send `call_0` every turn) is
 * replaced by the first free `call_N`.
 */
export function withUniqueIds(calls: readonly RawToolCall[], usedIds: ReadonlySet<string>): RawToolCall[] {
  const used = new Set(usedIds);
  let next = 1;
  return calls.map((call) => {
    let id = call.id;
    if (!CALL_ID.test(id) || used.has(id)) {
      while (used.has(`call_${next}`)) next += 1;
      id = `call_${next}`;
    }
    used.add(id);
    return { ...call, id };
  });
}

function parseArguments<T>(schema: z.ZodType<T>, call: RawToolCall): Result<T> {
  if (!isPlainObject(call.input)) return err(`${call.name} (${call.id}): the arguments are not a JSON object`);
  const checked = schema.safeParse(dropNullProperties(call.input));
  if (checked.success) return ok(checked.data);
  return err(`${call.name} (${call.id}): the arguments do not fit:\n${describeIssues(checked.error)}`);
}

function toolCall(call: RawToolCall): Result<AgentToolCall> {
  if (call.name === "search") {
    const args = parseArguments(agentSearchArgsSchema, call);
    return args.ok ? ok({ id: call.id, tool: "search", query: args.value.query }) : args;
  }
  if (call.name === "read") {
    const args = parseArguments(agentReadArgsSchema, call);
    return args.ok ? ok({ id: call.id, tool: "read", hit: args.value.hit }) : args;
  }
  return err(
    `${neutralizeDelimiters(call.name).slice(0, 60)}: there is no such tool (the tools are search, read and answer)`,
  );
}

/**
 * The turn the calls make: an answer call wins over the other calls of the turn; at most
 * `maxCallsPerTurn` calls are kept; no call, an unknown tool or invalid arguments is an
 * error that the repair round sends back.
 */
export function interpretTurn(calls: readonly RawToolCall[], input: AgentTurnInput): Result<AgentTurn> {
  if (calls.length === 0) {
    return err(input.mustAnswer ? "the reply called no tool: call the answer tool" : "the reply called no tool");
  }
  const answerCall = calls.find((call) => call.name === "answer");
  if (answerCall) {
    const answer = parseArguments(answerOutputSchema, answerCall);
    return answer.ok ? ok({ kind: "answer", answer: answer.value }) : answer;
  }
  if (input.mustAnswer) return err("this is the last turn: only the answer tool may be called");
  const kept: AgentToolCall[] = [];
  const problems: string[] = [];
  for (const call of calls.slice(0, Math.max(1, input.maxCallsPerTurn))) {
    const parsed = toolCall(call);
    if (parsed.ok) kept.push(parsed.value);
    else problems.push(parsed.error);
  }
  return problems.length > 0 ? err(problems.join("\n")) : ok({ kind: "tools", calls: kept });
}

/** The repair round's message for native tool calling: what was wrong, then `instruction`. Pure. */
export function toolRepairPrompt(problem: string, instruction: string): string {
  return [
    "Your previous reply could not be used, and none of its tool calls was run:",
    neutralizeDelimiters(problem),
    instruction,
  ].join("\n");
}

/** What the research loop's repair round asks for. Pure. */
export function agentRepairInstruction(mustAnswer: boolean): string {
  return mustAnswer
    ? "Call the answer tool now, with arguments that follow its schema."
    : "Call the tools again (search, read or answer), with arguments that follow their schemas. Do not reply with text.";
}
