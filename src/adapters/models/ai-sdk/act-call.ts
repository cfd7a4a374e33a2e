/**
 * One turn of the general tool-calling loop (`Model.act`, the investigative strategy)
 * through the AI SDK, on the turn runner of agent-call.ts (retries, usage, the repair round,
 * the text fallback of `openai-compatible` servers).
 *
 * The tools are the caller's `ToolSpec`s, their parameters sent as JSON Schemas. A forced
 * tool is the only one offered. The calls' arguments come back as the model wrote them,
 * unparsed: the caller validates them against its own schemas. A call to a tool that was not
 * offered is dropped. A reply with no usable call is a valid turn under `auto` (the loop
 * reminds the model); otherwise it gets one repair round, then the turn fails as `malformed`.
 */
import { type JSONSchema7, jsonSchema, type ToolChoice, type ToolSet } from "ai";
import { err, ok, type Result } from "../../../core/result.js";
import { neutralizeDelimiters } from "../../../core/synthesis/prompts.js";
import type { ActInput, ActMessage, ActTurn, ToolSpec } from "../../../ports/model.js";
import {
  type AgentCallContext,
  nativeRepairMessages,
  runTurn,
  sendTextForm,
  type TurnForm,
  type TurnOutcome,
  textRepairMessages,
} from "./agent-call.js";
import { nativeMessages, textFormMessages, toolRepairPrompt, usedCallIds, withUniqueIds } from "./agent-messages.js";
import { extractJsonObject } from "./json-reply.js";
import { type CallState, type RawToolCall, type ToolReply, toolRequestWithRetries } from "./provider-call.js";

type ToolChoiceInput = ActInput["toolChoice"];

/** What one `act` call offers: its tools (only the forced one when a tool is forced) and its rules. */
interface ActTurnPlan {
  input: ActInput;
  offered: readonly ToolSpec[];
  names: readonly string[];
  /** The ids the conversation already uses; a reply's ids must differ from them. */
  usedIds: ReadonlySet<string>;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const shownName = (name: string): string => neutralizeDelimiters(name).slice(0, 60);

/** The tools offered. A forced tool that is not among `tools` is the caller's bug. */
function offeredTools(input: ActInput): readonly ToolSpec[] {
  const choice = input.toolChoice;
  if (typeof choice === "string") return input.tools;
  const forced = input.tools.filter((tool) => tool.name === choice.tool);
  if (forced.length === 0) throw new Error(`bug: the forced tool "${choice.tool}" is not among the tools`);
  return forced;
}

/**
 * The SDK tools. No `execute`: the caller runs the calls. The parameters are the caller's
 * plain JSON Schema data, typed by the SDK as draft 7; nothing here validates against them.
 */
function toolSet(specs: readonly ToolSpec[]): ToolSet {
  const entries = specs.map((spec) => [
    spec.name,
    { description: spec.description, inputSchema: jsonSchema(spec.parameters as JSONSchema7) },
  ]);
  return Object.fromEntries(entries);
}

const sdkToolChoice = (choice: ToolChoiceInput): ToolChoice<ToolSet> =>
  typeof choice === "string" ? choice : { type: "tool", toolName: choice.tool };

const repairInstruction = (names: readonly string[]): string =>
  `Call one of these tools: ${names.join(", ")}, with arguments that follow the tool's schema.`;

/**
 * The turn a reply makes: the calls to offered tools, with ids unique in the conversation,
 * and their arguments as written. Under `auto` a reply without such calls is a turn too.
 */
function interpretAct(reply: ToolReply, plan: ActTurnPlan): Result<ActTurn> {
  const offered = reply.calls.filter((call) => plan.names.includes(call.name));
  const calls = withUniqueIds(offered, plan.usedIds).map(({ id, name, input }) => ({ id, name, args: input }));
  if (calls.length > 0) return ok({ text: reply.text, calls });
  // A filtered reply is a refusal even where a reply without calls would do.
  if (reply.finishReason === "content-filter") return err("the provider filtered the reply");
  if (plan.input.toolChoice === "auto") return ok({ text: reply.text, calls: [] });
  if (reply.problem !== undefined) return err(reply.problem);
  if (reply.calls.length === 0) return err("the reply called no tool");
  const named = reply.calls.map((call) => shownName(call.name)).join(", ");
  return err(`the reply called only tools that are not offered here: ${named}`);
}

function nativeForm(context: AgentCallContext, plan: ActTurnPlan, state: CallState): TurnForm {
  const { input } = plan;
  const request = { system: input.system, tools: toolSet(plan.offered), toolChoice: sdkToolChoice(input.toolChoice) };
  return {
    messages: nativeMessages(input.messages),
    send: (messages) => toolRequestWithRetries(context.settings, { ...request, messages }, state),
    repair: (messages, reply, problem) =>
      nativeRepairMessages(messages, reply, toolRepairPrompt(problem, repairInstruction(plan.names))),
  };
}

/** The reply format of the text form, as a JSON Schema stated in the system message. */
function textWireSchema(names: readonly string[]): JSONSchema7 {
  const call: JSONSchema7 = {
    type: "object",
    properties: {
      name: { type: "string", enum: [...names] },
      args: { type: "object", description: "The arguments, following the tool's JSON Schema." },
    },
    required: ["name", "args"],
  };
  return {
    type: "object",
    properties: {
      text: { type: "string", description: "What you say this turn; may be empty." },
      calls: { type: "array", description: "The tool calls of this turn; may be empty.", items: call },
    },
    required: ["text", "calls"],
  };
}

/** How to call the tools in text, appended to the system message in the text form. Pure. */
export function actTextInstructions(offered: readonly ToolSpec[], choice: ToolChoiceInput): string {
  const rule =
    choice === "auto"
      ? 'To reply without calling a tool, give "calls": [].'
      : choice === "required"
        ? "Call at least one tool."
        : `Call the ${choice.tool} tool.`;
  const tools = offered.map(
    (tool) => `- ${tool.name}: ${tool.description}\n  arguments (JSON Schema): ${JSON.stringify(tool.parameters)}`,
  );
  return [
    "Tool calls are not available here: call the tools by replying with JSON instead,",
    'as {"text": "…", "calls": [{"name": …, "args": {…}}]}; the host replies with the results.',
    rule,
    "The tools:",
    ...tools,
  ].join("\n");
}

/** The calls and text of a text-form reply, or what is wrong with it. Pure. */
export function actTextReply(text: string): Result<Pick<ToolReply, "calls" | "text">> {
  const extracted = extractJsonObject(text);
  if (!extracted.ok) return extracted;
  const reply = extracted.value;
  const calls = reply.calls ?? [];
  if (!Array.isArray(calls)) return err('"calls" is not an array');
  const said = typeof reply.text === "string" ? reply.text : "";
  return ok({
    text: said,
    calls: calls.map((call): RawToolCall => {
      if (!isPlainObject(call) || typeof call.name !== "string") return { id: "", name: "(none)", input: call };
      return { id: "", name: call.name, input: call.args ?? {} };
    }),
  });
}

const textAssistant = (message: Extract<ActMessage, { role: "assistant" }>): string =>
  JSON.stringify({ text: message.text, calls: message.calls.map(({ name, args }) => ({ name, args })) });

function textForm(context: AgentCallContext, plan: ActTurnPlan, state: CallState): TurnForm {
  const { input } = plan;
  const system = `${input.system}\n\n${actTextInstructions(plan.offered, input.toolChoice)}`;
  const wireSchema = textWireSchema(plan.names);
  return {
    messages: textFormMessages(input.messages, textAssistant),
    send: (messages) =>
      sendTextForm(
        context,
        { system, messages, mode: "text", wireSchema, schemaName: "act_turn" },
        state,
        actTextReply,
      ),
    repair: textRepairMessages,
  };
}

/** One turn of the general tool-calling loop. Never throws, except for a forced tool not offered (a bug). */
export function actTurn(context: AgentCallContext, input: ActInput, state: CallState): Promise<TurnOutcome<ActTurn>> {
  const offered = offeredTools(input);
  const plan: ActTurnPlan = {
    input,
    offered,
    names: offered.map((tool) => tool.name),
    usedIds: usedCallIds(input.messages),
  };
  return runTurn(context, {
    native: () => nativeForm(context, plan, state),
    text: () => textForm(context, plan, state),
    interpret: (reply) => interpretAct(reply, plan),
  });
}
