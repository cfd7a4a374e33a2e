/**
 * The investigative strategy end to end through the real AI SDK adapter: `createRuntime().run()`
 * with a model built as the CLI builds it (`resolveModel`, `openai-compatible:` pointed at a
 * loopback server), the server speaking OpenAI Chat Completions (`tools`, `tool_choice`,
 * `tool_calls`, `role: "tool"` results, `usage`). The server plays an investigator that
 * decides each reply from the request alone — the tools offered, the tool choice, the
 * previous turn's tool results and the scratchpad — as a model would. No real network.
 */
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { toolCompletion, type WireCall } from "../../adapters/models/ai-sdk/__fixtures__/wire-builders.js";
import { TURN_EVENT, type TurnEventData } from "../../core/investigative/turn-events.js";
import { EXPLORATION_TOOLS, NOTES_TOOLS, SYNTHESIS_TOOLS } from "../../core/investigative/turns.js";
import type { InvestigationConfig } from "../../core/investigative/types.js";
import { resolveModel } from "../../shells/cli/model-choice.js";
import type { FakeDocument } from "../../testing/fake-scope.js";
import {
  type LoopbackResponder,
  type Responder,
  type ScriptedReply,
  type SeenRequest,
  startResponder,
} from "../../testing/loopback-http.js";
import { publishedReport } from "../../testing/read-report.js";
import { type RuntimeFixture, runtimeFixture } from "../../testing/runtime-fixture.js";

const fixtures: RuntimeFixture[] = [];
const servers: LoopbackResponder[] = [];
afterEach(async () => {
  for (const fixture of fixtures.splice(0)) await fixture.cleanup();
  for (const server of servers.splice(0)) await server.close();
});

const QUESTION = "How much energy does cell A store?";
const CLAIM = "Cell A stores 5 Wh of energy.";
/** A sentence only the specification's page holds: present while the page is in the window. */
const PAGE_MARK = "anodized aluminium with a laser-etched serial number";

const DOCUMENTS: FakeDocument[] = [
  {
    path: "a/spec.md",
    title: "Cell A specification",
    text: `${CLAIM} It weighs 40 g. ${`The casing of cell A is ${PAGE_MARK}. `.repeat(30)}`,
  },
  { path: "c/other.md", title: "Cell B notes", text: "Cell B stores 7 Wh. Cell B is heavier than cell A." },
];

// The OpenAI Chat Completions request body, as far as these tests read it.
interface WireToolCall {
  id: string;
  type: string;
  function: { name: string; arguments: string };
}
interface WireMessage {
  role: "system" | "user" | "assistant" | "tool";
  content: string | null;
  tool_calls?: WireToolCall[];
  tool_call_id?: string;
}
interface WireTool {
  type: string;
  function: { name: string; description: string; parameters: Record<string, unknown> };
}
interface WireBody {
  model: string;
  messages: WireMessage[];
  tools: WireTool[];
  tool_choice: "auto" | "required" | { type: string; function: { name: string } };
}

const wire = (request: SeenRequest): WireBody => request.body as WireBody;
const offered = (body: WireBody): string[] => body.tools.map((tool) => tool.function.name);
const forcedTool = (body: WireBody): string | undefined =>
  typeof body.tool_choice === "object" ? body.tool_choice.function.name : undefined;
const textOf = (message: WireMessage | undefined): string => message?.content ?? "";

/** The scratchpad (notes.md, the frontier, the current question): the user message that starts with it. */
const scratchpad = (body: WireBody): string =>
  textOf(body.messages.find((message) => message.role === "user" && textOf(message).startsWith("Scratchpad:")));

/** The results of the last turn shown (the tool messages after the last assistant message), with their calls' names. */
function lastResults(body: WireBody): { name: string; content: string }[] {
  const at = body.messages.findLastIndex((message) => message.role === "assistant");
  if (at < 0) return [];
  const calls = body.messages[at]?.tool_calls ?? [];
  return body.messages
    .slice(at + 1)
    .filter((message) => message.role === "tool")
    .map((message) => ({
      name: calls.find((call) => call.id === message.tool_call_id)?.function.name ?? "(unknown)",
      content: textOf(message),
    }));
}

/** Every tool call made earlier in the conversation the request shows. */
const earlierCalls = (body: WireBody): WireToolCall[] => body.messages.flatMap((message) => message.tool_calls ?? []);

function match(text: string, pattern: RegExp, what: string): RegExpExecArray {
  const found = pattern.exec(text);
  if (!found) throw new Error(`the request shows no ${what}`);
  return found;
}

/** The usage the server reports for its reply to request `index`: distinct per request. */
const usageOf = (index: number) => ({
  prompt_tokens: 1_000 + 10 * index,
  completion_tokens: 20 + index,
  total_tokens: 1_020 + 11 * index,
});

/** A chat completion making `calls` (or saying `text` without a call), with this request's usage. */
function reply(index: number, calls: WireCall[], text: string | null = null): ScriptedReply {
  const body = toolCompletion(calls, text, calls.length > 0 ? "tool_calls" : "stop") as {
    choices: { message: Record<string, unknown> }[];
    usage: Record<string, unknown>;
  };
  if (calls.length === 0) delete body.choices[0]?.message.tool_calls;
  body.usage = { ...body.usage, ...usageOf(index) };
  return { body };
}

const call = (index: number, name: string, args: unknown): WireCall => ({
  id: `call_${index}_${name}`,
  name,
  arguments: args,
});

/**
 * The investigator: what a model would answer to this request, read from the request alone.
 * Synthesis (finalize_report offered): notes_read once, then the report from the claim in
 * notes.md. Extraction (tool_choice required, the notes tools): the claim with the passage id
 * the page shows. Exploration: expand, search, read the specification's hit, resolve the
 * question with the claim, answer once in plain text, then look at the frontier.
 */
const investigator: Responder = (request, index) => {
  const body = wire(request);
  const names = offered(body);
  if (names.includes("finalize_report")) {
    if (
      forcedTool(body) !== "finalize_report" &&
      !earlierCalls(body).some((made) => made.function.name === "notes_read")
    ) {
      return reply(index, [call(index, "notes_read", {})]);
    }
    const [, claimId, status, claimText, sourceId] = match(
      scratchpad(body),
      /^- \[(c_\d+)\] (UNVERIFIED|VERIFIED) {2}(.+?) {2}src: (s_\d+)/m,
      "claim in notes.md",
    );
    return reply(index, [
      call(index, "finalize_report", {
        summary: `Cell A stores 5 Wh, by one specification (${claimId}).`,
        items: [{ text: claimText, claimIds: [claimId], sourceIds: [sourceId] }],
        gaps: [],
        keyClaims: [{ claimId, status }],
      }),
    ]);
  }
  if (body.tool_choice === "required") {
    const page = body.messages.map(textOf).join("\n");
    const [, passageId, sourceId] = match(page, /^\[((s_\d+)\.p\d+)\] [^\n]*5 Wh/m, "passage stating 5 Wh");
    const [, questionId] = match(scratchpad(body), /<question>\n\[(q_\d+)\]/, "current question");
    return reply(index, [
      call(index, "notes_append", {
        section: "unverified",
        entries: [
          {
            text: CLAIM,
            source_ids: [sourceId],
            passage_ids: [passageId],
            question_id: questionId,
            check: "a second, independent source",
          },
        ],
      }),
    ]);
  }
  const lastMessage = textOf(body.messages.at(-1));
  if (lastMessage.startsWith("You answered without a tool")) return reply(index, [call(index, "frontier_view", {})]);
  // Before the expansion no question is selected: add the first sub-question.
  if (!scratchpad(body).includes("<question>")) {
    return reply(index, [
      call(index, "add_question", {
        parent_id: "q_001",
        question: "What energy does cell A store, in Wh?",
        rationale: "the objective asks for it",
        priority: 0.9,
        validation_criteria: "a passage stating cell A's energy in Wh",
        target_sources: [],
      }),
    ]);
  }
  const previous = lastResults(body).at(-1);
  switch (previous?.name) {
    case "add_question":
      return reply(index, [call(index, "search", { query: "cell A energy Wh" })]);
    case "search": {
      const [, handle] = match(previous.content, /^(h\d+): Cell A specification/m, "hit of the specification");
      return reply(index, [call(index, "fetch_page", { hit: handle })]);
    }
    case "notes_append": {
      const [, claimId] = match(previous.content, /\b(c_\d+)\b/, "claim id in the notes_append result");
      const [, questionId] = match(scratchpad(body), /<question>\n\[(q_\d+)\]/, "current question");
      return reply(index, [
        call(index, "resolve_question", {
          id: questionId,
          answer: "Cell A stores 5 Wh.",
          claim_ids: [claimId],
          reason: "one specification states it",
        }),
      ]);
    }
    case "resolve_question":
      return reply(index, [], "The question is answered; let me think about what is left.");
    default:
      return reply(index, [call(index, "frontier_view", {})]);
  }
};

async function start(responder: Responder) {
  const server = await startResponder(responder);
  servers.push(server);
  // As the CLI builds it: `--model openai-compatible:…` with ASSAY_MODEL_BASE_URL.
  const model = resolveModel("openai-compatible:qwen2.5:7b", { ASSAY_MODEL_BASE_URL: `${server.baseUrl}/v1` });
  if (!model) throw new Error("no model");
  const fixture = runtimeFixture({ documents: DOCUMENTS }, undefined, model);
  fixtures.push(fixture);
  return { server, fixture };
}

const investigative = (fixture: RuntimeFixture, investigation: Partial<InvestigationConfig>) => ({
  ...fixture.request(QUESTION, { maxSearchCalls: 20, maxFetchAttempts: 20, maxSources: 12, maxTurns: 60 }),
  strategy: "investigative" as const,
  investigation: { minSources: 2, minDomains: 2, ...investigation },
});

async function turnEvents(fixture: RuntimeFixture, runId: number): Promise<TurnEventData[]> {
  return (await fixture.store.listEvents(runId))
    .filter((event) => event.type === TURN_EVENT)
    .map((event) => event.data as unknown as TurnEventData);
}

function reportOf(fixture: RuntimeFixture) {
  return publishedReport(join(fixture.outDir, "report.json"));
}

/** Every tool is a function tool whose parameters are a JSON Schema object at the top level. */
function expectObjectSchemas(body: WireBody): void {
  for (const tool of body.tools) {
    expect(tool.type).toBe("function");
    expect(typeof tool.function.description).toBe("string");
    const { parameters } = tool.function;
    expect(parameters.type, tool.function.name).toBe("object");
    for (const keyword of ["anyOf", "oneOf", "allOf", "not", "enum", "$ref", "$schema"]) {
      expect(parameters, `${tool.function.name}: ${keyword}`).not.toHaveProperty(keyword);
    }
    expect(typeof parameters.properties, tool.function.name).toBe("object");
  }
}

/** The characters of a request's prompt, counted as `promptSize` counts them: every text, and each call's id, name and arguments. */
const wireChars = (body: WireBody): number =>
  body.messages.reduce(
    (total, message) =>
      total +
      textOf(message).length +
      (message.tool_calls ?? []).reduce(
        (sum, made) => sum + made.id.length + made.function.name.length + made.function.arguments.length,
        0,
      ),
    0,
  );

/** The tool results of the previous turn are `role: "tool"` messages answering its calls by id. */
function expectResultsOf(body: WireBody, calls: readonly WireToolCall[]): void {
  const at = body.messages.findIndex(
    (message) => message.role === "assistant" && message.tool_calls?.some((made) => made.id === calls[0]?.id),
  );
  expect(at, `the calls ${calls.map((made) => made.id).join(", ")} are in the conversation`).toBeGreaterThan(0);
  expect(body.messages[at]?.tool_calls).toEqual(calls);
  const results = body.messages.slice(at + 1, at + 1 + calls.length);
  expect(results.map((message) => message.role)).toEqual(calls.map(() => "tool"));
  expect(results.map((message) => message.tool_call_id)).toEqual(calls.map((made) => made.id));
  calls.forEach((made, position) => {
    expect(textOf(results[position])).toContain(`<result tool="${made.function.name}" call="${made.id}"`);
  });
}

/** Every `role: "tool"` message answers a call of the assistant message before it. */
function expectWellFormedConversation(body: WireBody): void {
  expect(body.messages[0]?.role).toBe("system");
  expect(body.messages.filter((message) => message.role === "system")).toHaveLength(1);
  let open = new Set<string>();
  for (const message of body.messages.slice(1)) {
    if (message.role === "assistant") {
      expect(open.size, "every call of the previous assistant message was answered").toBe(0);
      open = new Set((message.tool_calls ?? []).map((made) => made.id));
    } else if (message.role === "tool") {
      expect(open.has(message.tool_call_id ?? ""), `${message.tool_call_id} answers an open call`).toBe(true);
      open.delete(message.tool_call_id ?? "");
    } else {
      expect(open.size, "no user message between calls and their results").toBe(0);
    }
  }
  expect(open.size, "every call of the last assistant message was answered").toBe(0);
}

describe("the investigative strategy over an OpenAI-compatible server", () => {
  it("investigates through the real adapter: expansion, search, read, forced extraction, resolution, then the breaker moves to synthesis and the forced finalize_report publishes the claim", async () => {
    const { server, fixture } = await start(investigator);
    // max_iterations 10 with a 0.2 reserve: exploration may use 8 turns, synthesis 2 (the second forced).
    // extraction_threshold 1 000: the specification's page (~2 300 characters) forces an extraction turn.
    const outcome = await fixture.runtime.run(
      investigative(fixture, { maxIterations: 10, synthesisReserve: 0.2, extractionThreshold: 1_000 }),
    );
    expect(server.errors).toEqual([]);
    expect(outcome.status).toBe("finished");
    expect(outcome.artifactStatus).toBe("synthesized");

    const bodies = server.seen.map(wire);
    expect(server.seen.map((request) => `${request.method} ${request.path}`)).toEqual(
      bodies.map(() => "POST /v1/chat/completions"),
    );
    expect(bodies.map((body) => body.model)).toEqual(bodies.map(() => "qwen2.5:7b"));
    // Only the prompt and the tools go out: the loop's state for rule-following engines (ActInput.state) stays home.
    for (const body of bodies) expect(Object.keys(body).sort()).toEqual(["messages", "model", "tool_choice", "tools"]);
    // One request a turn: no retry, no repair round.
    const events = await turnEvents(fixture, outcome.runId);
    expect(bodies).toHaveLength(10);
    expect(events).toHaveLength(10);

    // What each turn offered, with which tool choice, and what the investigator called.
    const exploration = [...EXPLORATION_TOOLS];
    expect(bodies.map((body) => [offered(body), body.tool_choice])).toEqual([
      [exploration, "auto"],
      [exploration, "auto"],
      [exploration, "auto"],
      [[...NOTES_TOOLS], "required"],
      [exploration, "auto"],
      [exploration, "auto"],
      [exploration, "auto"],
      [exploration, "auto"],
      [[...SYNTHESIS_TOOLS], "auto"],
      [["finalize_report"], { type: "function", function: { name: "finalize_report" } }],
    ]);
    expect(events.map((event) => [event.phase, event.mode, event.calls.map((made) => made.name).join()])).toEqual([
      ["exploration", "normal", "add_question"],
      ["exploration", "normal", "search"],
      ["exploration", "normal", "fetch_page"],
      ["exploration", "extraction", "notes_append"],
      ["exploration", "normal", "resolve_question"],
      ["exploration", "normal", ""],
      ["exploration", "normal", "frontier_view"],
      ["exploration", "normal", "frontier_view"],
      ["synthesis", "normal", "notes_read"],
      ["synthesis", "normal", "finalize_report"],
    ]);
    expect(events.every((event) => event.failed === undefined)).toBe(true);
    expect(events.flatMap((event) => event.calls.filter((made) => !made.ok).map((made) => made.text))).toEqual([]);
    expect(events.map((event) => event.toolChoice)).toEqual([
      ...Array(3).fill("auto"),
      "required",
      ...Array(5).fill("auto"),
      { tool: "finalize_report" },
    ]);

    // Every request: function tools with object schemas (finalize_report included), one system prompt, a well-formed conversation.
    for (const body of bodies) {
      expectObjectSchemas(body);
      expectWellFormedConversation(body);
    }
    const finalize = bodies[9]?.tools[0]?.function.parameters;
    expect(finalize).toMatchObject({ type: "object", additionalProperties: false });
    expect(Object.keys((finalize?.properties ?? {}) as object)).toEqual([
      "summary",
      "items",
      "gaps",
      "keyClaims",
      "reopen",
    ]);
    expect(textOf(bodies[0]?.messages[0])).toContain("You are the exploration loop");
    expect(textOf(bodies[3]?.messages[0])).toContain("This turn is restricted to the notes tools");
    expect(textOf(bodies[8]?.messages[0])).toContain("You are the synthesis loop");
    expect(textOf(bodies[0]?.messages[1])).toBe(`Task:\n<task>\n${QUESTION}\n</task>`);

    // The previous turn's calls, as the server made them, answered by role "tool" results with their ids.
    for (let index = 1; index < bodies.length; index++) {
      const previous = replyCalls(server, index - 1);
      if (previous.length > 0) expectResultsOf(bodies[index] as WireBody, previous);
    }
    // The hit handle the investigator read from the search result, and the passage id from the page.
    expect(lastResults(bodies[2] as WireBody)[0]?.content).toMatch(/^h\d+: Cell A specification — a\/spec\.md$/m);
    expect(events[2]?.calls[0]?.args).toEqual({ hit: expect.stringMatching(/^h\d+$/) });
    expect(lastResults(bodies[3] as WireBody)[0]?.content).toContain(`[s_001.p01] ${CLAIM}`);
    expect(events[3]?.calls[0]?.args).toMatchObject({
      entries: [{ source_ids: ["s_001"], passage_ids: ["s_001.p01"], question_id: "q_002" }],
    });
    expect(events[3]?.commits).toEqual([{ turn: 3, callId: events[2]?.calls[0]?.id, how: "extracted" }]);
    // The plain-text turn: no call, the reminder as the last user message of the next request.
    expect(textOf(bodies[6]?.messages.at(-1))).toContain("You answered without a tool");

    // The prompt is rebuilt each turn: the page is in the window while it is being extracted, then leaves it.
    const withPage = bodies.map((body) => JSON.stringify(body.messages).includes(PAGE_MARK));
    expect(withPage).toEqual([false, false, false, true, true, false, false, false, false, false]);
    // The conversation (all but the system prompt, whose tool list differs by mode) shrinks once the page left.
    const sizes = bodies.map((body) => JSON.stringify(body.messages.slice(1)).length);
    for (const size of sizes.slice(5)) expect(size).toBeLessThan(sizes[3] ?? 0);
    // The prompt size the strategy records is what went over the wire.
    expect(events.map((event) => event.prompt.chars)).toEqual(bodies.map(wireChars));
    // notes.md carries the claim forward in every later scratchpad.
    for (const body of bodies.slice(4)) expect(scratchpad(body)).toContain(CLAIM);

    // The server's usage, per turn, in the turn events.
    expect(events.map((event) => event.usage)).toEqual(
      bodies.map((_, index) => ({
        inputTokens: usageOf(index).prompt_tokens,
        outputTokens: usageOf(index).completion_tokens,
      })),
    );
    expect(events.every((event) => event.model === "openai-compatible:qwen2.5:7b")).toBe(true);

    // The outcome: cut short by the iteration breaker, the claim published as unverified.
    const run = await fixture.store.getRun(outcome.runId);
    expect(run?.stopReason).toBe("breaker:iterations");
    const doc = reportOf(fixture);
    expect(
      [...doc.directFindings, ...doc.findings].map((finding) => [finding.verification.status, finding.text]),
    ).toEqual([["unverified", CLAIM]]);
    expect(doc.producedBy).toContain("by the model openai-compatible:qwen2.5:7b");
    // The loop's own check of the claim, still pending, is no gap: the finding says unverified.
    expect(doc.gaps.map((gap) => gap.text).join(" ")).not.toMatch(/independent source|breaker|\b[cq]_\d{3}\b/);
  });

  it("a malformed call is refused and the loop goes on; a turn the server answers with HTTP 500 fails and the loop goes on; three failed turns in a row end it (model_failed)", async () => {
    const MALFORMED = '{"query": "cell A energy';
    const serverError = {
      status: 500,
      body: { error: { message: "The server had an error while processing your request.", type: "server_error" } },
      // No backoff between the adapter's retries (it honours the provider's retry-after-ms).
      headers: { "retry-after-ms": "0" },
    };
    // By request: the expansion; a search whose arguments are not JSON; one turn of 500s (3 attempts:
    // the request and the adapter's 2 retries); a search; then 500s for good.
    const { server, fixture } = await start((request, index) => {
      if (index === 0) return investigator(request, index, []);
      if (index === 1) return reply(index, [call(index, "search", MALFORMED)]);
      if (index === 5) return reply(index, [call(index, "search", { query: "cell A energy Wh" })]);
      return serverError;
    });
    const outcome = await fixture.runtime.run(investigative(fixture, { maxIterations: 20 }));
    expect(server.errors).toEqual([]);
    // 1 + 1 + 3 + 1 requests, then three failed exploration turns and one failed synthesis turn of 3 each.
    expect(server.seen).toHaveLength(18);

    const events = await turnEvents(fixture, outcome.runId);
    const HTTP_500 =
      "transport: openai-compatible answered HTTP 500: The server had an error while processing your request.";
    expect(
      events.map((event) => [event.phase, event.failed ?? "", event.calls.map((made) => made.name).join()]),
    ).toEqual([
      ["exploration", "", "add_question"],
      ["exploration", "", "search"],
      ["exploration", HTTP_500, ""],
      ["exploration", "", "search"],
      ["exploration", HTTP_500, ""],
      ["exploration", HTTP_500, ""],
      ["exploration", HTTP_500, ""],
      ["synthesis", HTTP_500, ""],
    ]);
    // The malformed call: the adapter passes the arguments on as written; the loop refuses the call, not the turn.
    const refused = events[1]?.calls[0];
    expect(refused).toMatchObject({ id: "call_1_search", args: MALFORMED, ok: false });
    expect(refused?.text).toContain("Refused: the arguments do not fit search");
    // The next request answers it by id, and carries the call back with object arguments holding what was written.
    const next = wire(server.seen[2] as SeenRequest);
    expectWellFormedConversation(next);
    const replayed = next.messages
      .flatMap((message) => message.tool_calls ?? [])
      .find((made) => made.id === "call_1_search");
    expect(JSON.parse(replayed?.function.arguments ?? "")).toEqual({ invalid_arguments: MALFORMED });
    const result = next.messages.find((message) => message.tool_call_id === "call_1_search");
    expect(result?.role).toBe("tool");
    expect(textOf(result)).toContain("Refused: the arguments do not fit search");
    // A failed turn is the same request three times (the adapter's retries), with no usage; the loop goes on.
    expect(server.seen[3]?.raw).toBe(server.seen[2]?.raw);
    expect(server.seen[4]?.raw).toBe(server.seen[2]?.raw);
    expect(events[2]?.usage).toEqual({ inputTokens: 0, outputTokens: 0 });
    expect(events[3]?.calls[0]).toMatchObject({ name: "search", ok: true });
    expect(events[3]?.usage).toEqual({
      inputTokens: usageOf(5).prompt_tokens,
      outputTokens: usageOf(5).completion_tokens,
    });
    for (const body of server.seen.map(wire)) expectObjectSchemas(body);

    // Three failed turns in a row end exploration (model_failed); synthesis fails too and the run ends with what is
    // persisted: no page was read, so code salvaged what the request finds and the Host published it.
    expect(outcome.status).toBe("finished");
    expect(outcome.artifactStatus).toBe("source-backed");
    const run = await fixture.store.getRun(outcome.runId);
    expect(run?.stopReason).toBe("model_failed");
    const phases = (await fixture.store.listEvents(outcome.runId)).filter(
      (event) => event.type === "investigative-phase",
    );
    expect(phases.map((event) => [event.data.phase, event.data.stopReason ?? ""])).toEqual([
      ["exploration", ""],
      ["synthesis", "model_failed"],
      ["finished", "model_failed"],
    ]);
  });
});

/** The tool calls of the server's reply to request `index`, as the wire carried them. */
function replyCalls(server: LoopbackResponder, index: number): WireToolCall[] {
  const body = server.replies[index]?.body as { choices?: { message?: { tool_calls?: WireToolCall[] } }[] } | undefined;
  return body?.choices?.[0]?.message?.tool_calls ?? [];
}
