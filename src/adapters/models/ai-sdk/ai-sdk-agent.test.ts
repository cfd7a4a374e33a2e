/**
 * The research loop's turn (`step`) and the judge on the AI SDK model, against a loopback
 * HTTP server that speaks the providers' wire formats: OpenAI Chat Completions with
 * `tool_calls`, Anthropic Messages with `tool_use` blocks. No real network, no real keys.
 */
import { describe, expect, it } from "vitest";
import type { AnswerOutput } from "../../../core/agent/turn.js";
import type { AgentTurnInput, JudgeInput } from "../../../ports/model.js";
import { NEVER_MS } from "../../../testing/loopback-http.js";
import {
  anthropicModel,
  chatCompletion,
  compatibleModel,
  fixture,
  KEY,
  toolCompletion,
  toolUse,
  useLoopback,
} from "./__fixtures__/wire-builders.js";
import { createAiSdkModel } from "./ai-sdk-model.js";
import { agentAnswerWireSchema, agentSearchWireSchema } from "./wire-schemas.js";

const loopback = useLoopback();

const answer: AnswerOutput = {
  statements: [{ text: "LFP cells tolerate more than 3000 full cycles.", sourceId: "s_001", chunkIds: ["s_001.p01"] }],
  gaps: [{ text: "The sources read do not compare prices." }],
};

const hitsText = 'Hits for "LFP":\n<hits>\n<hit handle="h1">\ntitle: LFP cells\n</hit>\n</hits>';
const sourceText = 'Read and stored as s_001.\n<sources>\n<source id="s_001">…</source>\n</sources>';

const turnInput: AgentTurnInput = {
  question: "Which battery chemistry suits home storage?",
  language: "en",
  scope: "the local folder “batteries”",
  scopeKind: "corpus",
  transcript: [
    { role: "assistant", calls: [{ id: "call_s1", tool: "search", query: "LFP" }] },
    { role: "tool", callId: "call_s1", tool: "search", content: hitsText },
    {
      role: "assistant",
      calls: [
        { id: "call_r1", tool: "read", hit: "h1" },
        { id: "call_r2", tool: "read", hit: "h2" },
      ],
    },
    { role: "tool", callId: "call_r1", tool: "read", content: sourceText },
    { role: "tool", callId: "call_r2", tool: "read", content: "Not run: the read budget is spent." },
  ],
  searchesLeft: 3,
  readsLeft: 4,
  maxCallsPerTurn: 3,
  mustAnswer: false,
};

const firstTurn: AgentTurnInput = { ...turnInput, transcript: [] };
const call = { timeoutMs: 10_000 };

const compatible = compatibleModel("qwen2.5:7b");

describe("step over Chat Completions (openai-compatible)", () => {
  it("sends the tools, tool_choice required and the mapped transcript, and parses a search call", async () => {
    const server = await loopback([{ body: JSON.parse(fixture("openai-chat-tool-calls.json")) }]);
    const result = await compatible(server).step(turnInput, call);
    expect(result).toEqual({
      ok: true,
      value: {
        kind: "tools",
        calls: [{ id: "call_Qm2n8VfT1xLwYb3cR7pK0sDe", tool: "search", query: "LFP cycle life home storage" }],
      },
      usage: { inputTokens: 812, outputTokens: 23 },
      attempts: 1,
    });
    const [request] = server.seen;
    expect(request?.path).toBe("/v1/chat/completions");
    expect(request?.body.tool_choice).toBe("required");
    expect(request?.body.response_format).toBeUndefined();
    expect(request?.body.tools.map((tool: { function: { name: string } }) => tool.function.name)).toEqual([
      "search",
      "read",
      "answer",
    ]);
    expect(request?.body.tools[0]).toMatchObject({
      type: "function",
      function: { name: "search", parameters: agentSearchWireSchema },
    });
    expect(request?.body.tools[0].function.description).toContain("Search the evidence scope");
    const messages = request?.body.messages;
    expect(messages[0]).toMatchObject({ role: "system" });
    expect(messages[0].content).toContain("You research a request with tools");
    expect(messages[1].role).toBe("user");
    expect(messages[1].content).toContain("<request>\nWhich battery chemistry suits home storage?\n</request>");
    expect(messages.slice(2)).toEqual([
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "call_s1", type: "function", function: { name: "search", arguments: '{"query":"LFP"}' } }],
      },
      { role: "tool", tool_call_id: "call_s1", content: hitsText },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "call_r1", type: "function", function: { name: "read", arguments: '{"hit":"h1"}' } },
          { id: "call_r2", type: "function", function: { name: "read", arguments: '{"hit":"h2"}' } },
        ],
      },
      { role: "tool", tool_call_id: "call_r1", content: sourceText },
      { role: "tool", tool_call_id: "call_r2", content: "Not run: the read budget is spent." },
    ]);
  });

  it("parses several read calls and keeps at most maxCallsPerTurn of them", async () => {
    const reads = ["h1", "h2", "h3", "h4"].map((hit, index) => ({
      id: `call_read${index}`,
      name: "read",
      arguments: { hit },
    }));
    const server = await loopback([{ body: toolCompletion(reads) }]);
    const result = await compatible(server).step(firstTurn, call);
    expect(result.ok && result.value).toEqual({
      kind: "tools",
      calls: [
        { id: "call_read0", tool: "read", hit: "h1" },
        { id: "call_read1", tool: "read", hit: "h2" },
        { id: "call_read2", tool: "read", hit: "h3" },
      ],
    });
  });

  it("lets an answer call win over the other calls of the turn", async () => {
    const server = await loopback([
      {
        body: toolCompletion([
          { id: "call_a", name: "search", arguments: { query: "more" } },
          { id: "call_b", name: "answer", arguments: answer },
        ]),
      },
    ]);
    const result = await compatible(server).step(turnInput, call);
    expect(result).toMatchObject({ ok: true, value: { kind: "answer", answer } });
  });

  it("offers only the answer tool and forces it on the last turn", async () => {
    const server = await loopback([{ body: toolCompletion([{ id: "call_x", name: "answer", arguments: answer }]) }]);
    const result = await compatible(server).step({ ...turnInput, mustAnswer: true }, call);
    expect(result).toMatchObject({ ok: true, value: { kind: "answer", answer } });
    const [request] = server.seen;
    expect(request?.body.tools).toHaveLength(1);
    expect(request?.body.tools[0].function).toMatchObject({ name: "answer", parameters: agentAnswerWireSchema });
    expect(request?.body.tool_choice).toEqual({ type: "function", function: { name: "answer" } });
    expect(request?.body.messages[0].content).toContain("This is your last turn");
  });

  it("repairs invalid arguments in one round, telling the model what was wrong, and sums the usage", async () => {
    const server = await loopback([
      { body: toolCompletion([{ id: "call_1", name: "search", arguments: { query: "   " } }]) },
      { body: toolCompletion([{ id: "call_2", name: "search", arguments: { query: "LFP cycle life" } }]) },
    ]);
    const result = await compatible(server).step(turnInput, call);
    expect(result).toMatchObject({
      ok: true,
      value: { kind: "tools", calls: [{ id: "call_2", tool: "search", query: "LFP cycle life" }] },
      usage: { inputTokens: 1624, outputTokens: 46 },
      attempts: 2,
    });
    const repair = server.seen[1]?.body;
    expect(repair.tools).toHaveLength(3);
    expect(repair.messages).toHaveLength(server.seen[0]?.body.messages.length + 1);
    const last = repair.messages.at(-1);
    expect(last.role).toBe("user");
    expect(last.content).toContain("none of its tool calls was run");
    expect(last.content).toContain("search (call_1): the arguments do not fit");
    expect(last.content).toContain("- query:");
  });

  it("fails as malformed when the repaired turn is still invalid", async () => {
    const server = await loopback([
      { body: toolCompletion([{ id: "call_1", name: "read", arguments: '{"hit": ' }]) },
      { body: toolCompletion([{ id: "call_2", name: "fetch", arguments: { url: "https://example.com" } }]) },
    ]);
    const result = await compatible(server).step(turnInput, call);
    expect(result).toMatchObject({ ok: false, kind: "malformed", attempts: 2 });
    expect(result.ok || result.error).toContain("after one repair round");
    expect(result.ok || result.error).toContain("fetch");
    expect(result.ok || result.error).not.toContain("\n");
    expect(server.seen[1]?.body.messages.at(-1).content).toContain(
      "read (call_1): the arguments are not a JSON object",
    );
  });

  it("repairs a text reply that called no tool, counting the usage of the rejected reply", async () => {
    const server = await loopback([
      { body: chatCompletion("LFP is the better choice.") },
      { body: toolCompletion([{ id: "call_1", name: "answer", arguments: answer }]) },
    ]);
    const result = await compatible(server).step(turnInput, call);
    expect(result).toMatchObject({ ok: true, attempts: 2, usage: { inputTokens: 2052, outputTokens: 235 } });
    const messages = server.seen[1]?.body.messages;
    expect(messages.at(-2)).toMatchObject({ role: "assistant", content: "LFP is the better choice." });
    expect(messages.at(-1).content).toContain("the reply called no tool");
  });

  it("replaces a call id that the conversation already uses or that a provider would refuse", async () => {
    const server = await loopback([
      {
        body: toolCompletion([
          { id: "call_s1", name: "search", arguments: { query: "NMC" } },
          { id: "call 0/1", name: "read", arguments: { hit: "h1" } },
        ]),
      },
    ]);
    const result = await compatible(server).step(turnInput, call);
    expect(result.ok && result.value).toEqual({
      kind: "tools",
      calls: [
        { id: "call_1", tool: "search", query: "NMC" },
        { id: "call_2", tool: "read", hit: "h1" },
      ],
    });
  });

  it("retries a 500 and sums the usage of the replies", async () => {
    const server = await loopback([
      { status: 500, body: JSON.parse(fixture("openai-error-500.json")) },
      { body: JSON.parse(fixture("openai-chat-tool-calls.json")) },
    ]);
    const result = await compatible(server).step(turnInput, call);
    expect(result).toMatchObject({ ok: true, attempts: 2, usage: { inputTokens: 812, outputTokens: 23 } });
    expect(server.seen).toHaveLength(2);
  });

  it("fails as timeout when the server is slower than the time limit", async () => {
    const server = await loopback([{ body: JSON.parse(fixture("openai-chat-tool-calls.json")), delayMs: NEVER_MS }]);
    // The reply never comes while the test runs: the call ended by its own time limit.
    const result = await compatible(server).step(turnInput, { timeoutMs: 150 });
    expect(result).toMatchObject({ ok: false, kind: "timeout", attempts: 1 });
  });

  it("fails as cancelled when the caller aborts, and sends nothing when already cancelled", async () => {
    const server = await loopback([{ body: JSON.parse(fixture("openai-chat-tool-calls.json")), delayMs: 5_000 }]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const result = await compatible(server).step(turnInput, { ...call, signal: controller.signal });
    expect(result).toMatchObject({ ok: false, kind: "cancelled" });
    const before = server.seen.length;
    const aborted = await compatible(server).step(turnInput, { ...call, signal: AbortSignal.abort() });
    expect(aborted).toMatchObject({ ok: false, kind: "cancelled", attempts: 0 });
    expect(server.seen).toHaveLength(before);
  });

  it("maps a content filter stop without a usable call to refused", async () => {
    const server = await loopback([{ body: toolCompletion([], null, "content_filter") }]);
    const result = await compatible(server).step(turnInput, call);
    expect(result).toMatchObject({ ok: false, kind: "refused", attempts: 1 });
  });

  it("falls back to a JSON reply in text when the server rejects tools, and remembers it", async () => {
    const rejection = { status: 400, body: { error: { message: "tools are not supported by this model" } } };
    const calls = { calls: [{ tool: "search", query: "LFP cycle life", hit: null }], answer: null };
    const server = await loopback([
      rejection,
      { body: chatCompletion(JSON.stringify(calls)) },
      { body: chatCompletion(`\`\`\`json\n${JSON.stringify({ answer })}\n\`\`\``) },
    ]);
    const model = compatible(server);
    const first = await model.step(turnInput, call);
    expect(first).toMatchObject({
      ok: true,
      attempts: 2,
      value: { kind: "tools", calls: [{ id: "call_1", tool: "search", query: "LFP cycle life" }] },
    });
    expect(server.seen[0]?.body.tools).toHaveLength(3);
    const text = server.seen[1]?.body;
    expect(text.tools).toBeUndefined();
    expect(text.tool_choice).toBeUndefined();
    expect(text.messages[0].content).toContain("Tool calls are not available here");
    expect(text.messages[0].content).toContain("JSON Schema");
    expect(text.messages.slice(2).map((message: { role: string }) => message.role)).toEqual([
      "assistant",
      "user",
      "assistant",
      "user",
    ]);
    expect(text.messages[2].content).toBe('{"calls":[{"tool":"search","query":"LFP"}]}');
    expect(text.messages[3].content).toContain(hitsText);
    expect(text.messages[5].content).toContain("Not run: the read budget is spent.");

    const second = await model.step({ ...turnInput, mustAnswer: true }, call);
    expect(second).toMatchObject({ ok: true, attempts: 1, value: { kind: "answer", answer } });
    expect(server.seen[2]?.body.tools).toBeUndefined();
    expect(server.seen[2]?.body.messages[0].content).toContain("This is the last turn");
  });

  it("repairs a text-form reply with the JSON repair prompt", async () => {
    const rejection = { status: 422, body: { error: { message: "unknown field: tools" } } };
    const server = await loopback([
      rejection,
      { body: chatCompletion("I will search for LFP.") },
      { body: chatCompletion('{"calls": [{"tool": "read", "hit": "h1", "query": null}], "answer": null}') },
    ]);
    const result = await compatible(server).step(turnInput, call);
    expect(result).toMatchObject({ ok: true, attempts: 3, value: { kind: "tools", calls: [{ tool: "read" }] } });
    const repair = server.seen[2]?.body.messages;
    expect(repair.at(-2)).toMatchObject({ role: "assistant", content: "I will search for LFP." });
    expect(repair.at(-1).content).toContain("Your previous reply could not be used");
  });

  it("does not fall back to text for a hosted provider", async () => {
    const server = await loopback([{ status: 400, body: { error: { message: "bad request" } } }]);
    const model = createAiSdkModel({ spec: "openai:gpt-4.1-mini", apiKey: KEY, baseURL: `${server.baseUrl}/v1` });
    const result = await model.step(turnInput, call);
    expect(result).toMatchObject({ ok: false, kind: "transport", attempts: 1 });
    expect(server.seen).toHaveLength(1);
  });
});

describe("step over Anthropic Messages", () => {
  it("sends the tools and the transcript as tool_use and tool_result blocks, and parses tool_use", async () => {
    const server = await loopback([{ body: JSON.parse(fixture("anthropic-tool-use.json")) }]);
    const result = await anthropicModel(server).step(turnInput, call);
    expect(result).toEqual({
      ok: true,
      value: {
        kind: "tools",
        calls: [{ id: "toolu_01A9sXk3Pz7QwE2rT5yU8iOp", tool: "search", query: "LFP cycle life home storage" }],
      },
      usage: { inputTokens: 1530, outputTokens: 61 },
      attempts: 1,
    });
    const [request] = server.seen;
    expect(request?.path).toBe("/v1/messages");
    expect(request?.body.tool_choice).toEqual({ type: "any" });
    expect(request?.body.tools.map((tool: { name: string }) => tool.name)).toEqual(["search", "read", "answer"]);
    expect(request?.body.tools[0].input_schema).toMatchObject({ type: "object", required: ["query"] });
    const messages = request?.body.messages;
    expect(messages.map((message: { role: string }) => message.role)).toEqual([
      "user",
      "assistant",
      "user",
      "assistant",
      "user",
    ]);
    expect(messages[1].content).toEqual([{ type: "tool_use", id: "call_s1", name: "search", input: { query: "LFP" } }]);
    expect(messages[2].content).toEqual([{ type: "tool_result", tool_use_id: "call_s1", content: hitsText }]);
    expect(messages[4].content).toEqual([
      { type: "tool_result", tool_use_id: "call_r1", content: sourceText },
      { type: "tool_result", tool_use_id: "call_r2", content: "Not run: the read budget is spent." },
    ]);
  });

  it("forces the answer tool on the last turn and parses the answer", async () => {
    const server = await loopback([
      { body: toolUse([{ type: "tool_use", id: "toolu_01Answer", name: "answer", input: answer }]) },
    ]);
    const result = await anthropicModel(server).step({ ...turnInput, mustAnswer: true }, call);
    expect(result).toMatchObject({ ok: true, value: { kind: "answer", answer } });
    expect(server.seen[0]?.body.tool_choice).toEqual({ type: "tool", name: "answer" });
    expect(server.seen[0]?.body.tools.map((tool: { name: string }) => tool.name)).toEqual(["answer"]);
  });

  it("repairs an invalid answer once, then fails as malformed, summing the usage", async () => {
    const invalid = { statements: [{ text: "LFP lasts.", sourceId: "s_001", chunkIds: [] }], gaps: [] };
    const reply = { body: toolUse([{ type: "tool_use", id: "toolu_01Bad", name: "answer", input: invalid }]) };
    const server = await loopback([reply, reply]);
    const result = await anthropicModel(server).step({ ...turnInput, mustAnswer: true }, call);
    expect(result).toMatchObject({
      ok: false,
      kind: "malformed",
      attempts: 2,
      usage: { inputTokens: 3060, outputTokens: 122 },
    });
    expect(result.ok || result.error).toContain("statements[0].chunkIds");
    expect(JSON.stringify(server.seen[1]?.body.messages.at(-1))).toContain("Call the answer tool now");
  });
});

const judgeInput: JudgeInput = {
  question: "Which battery chemistry suits home storage?",
  language: "en",
  items: [
    {
      id: "f1",
      text: "LFP cells tolerate more than 3000 full cycles.",
      passages: [{ id: "s_001.p01", text: "LFP cells tolerate more than 3000 full cycles." }],
    },
    { id: "f2", text: "NMC cells are cheaper.", passages: [{ id: "s_002.p01", text: "NMC cells store more energy." }] },
  ],
  reference: { answers: ["LFP"], evidence: [] },
  reportText: "# Which battery chemistry suits home storage?\n\n1. LFP cells tolerate more than 3000 full cycles.",
};

const verdict = {
  items: [
    { id: "f1", support: "supported", reason: "The passage says it." },
    { id: "f2", support: "unsupported", reason: "The passage does not mention price." },
  ],
  coverage: 2,
  decisionValue: 1,
  language: "matches",
};

describe("judge", () => {
  it("sends the rubric and the report with a judgement schema, and parses the verdict", async () => {
    const server = await loopback([{ body: chatCompletion(JSON.stringify(verdict)) }]);
    const model = createAiSdkModel({ spec: "openai:gpt-4.1-mini", apiKey: KEY, baseURL: `${server.baseUrl}/v1` });
    const result = await model.judge(judgeInput, call);
    expect(result).toEqual({ ok: true, value: verdict, usage: { inputTokens: 1240, outputTokens: 212 }, attempts: 1 });
    const [request] = server.seen;
    expect(request?.body.response_format.json_schema).toMatchObject({ name: "judgement", strict: true });
    expect(request?.body.messages[0].content).toContain("You grade one published research report");
    expect(request?.body.messages[1].content).toContain('<passage id="s_002.p01">\nNMC cells store more energy.');
  });

  it("repairs a verdict that skips an item, then fails as malformed", async () => {
    const partial = { ...verdict, items: [verdict.items[0]] };
    const server = await loopback([
      { body: chatCompletion(JSON.stringify(partial)) },
      { body: chatCompletion(JSON.stringify({ ...verdict, coverage: 3 })) },
    ]);
    const result = await compatible(server).judge(judgeInput, call);
    expect(result).toMatchObject({ ok: false, kind: "malformed", attempts: 2 });
    expect(server.seen[1]?.body.messages.at(-1).content).toContain("missing item ids: f2");
    expect(result.ok || result.error).toContain("coverage");
  });
});
