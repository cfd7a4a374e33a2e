/**
 * The general tool-calling turn (`act`) on the AI SDK model, against a loopback HTTP server
 * that speaks the providers' wire formats: OpenAI Chat Completions with `tool_calls`,
 * Anthropic Messages with `tool_use` blocks. No real network, no real keys.
 */
import { describe, expect, it } from "vitest";
import type { ActInput, ActMessage, ToolSpec } from "../../../ports/model.js";
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

const loopback = useLoopback();

const searchSchema = {
  type: "object",
  properties: { query: { type: "string", description: "At most 300 characters." } },
  required: ["query"],
  additionalProperties: false,
};
const noteSchema = {
  type: "object",
  properties: { text: { type: "string" }, tags: { type: "array", items: { type: "string" } } },
  required: ["text", "tags"],
  additionalProperties: false,
};
const tools: ToolSpec[] = [
  { name: "search", description: "Search the evidence scope.", parameters: searchSchema },
  { name: "note", description: "Write a working note.", parameters: noteSchema },
];

const hitsText = 'Hits for "LFP":\n<hits>\n<hit handle="h1">\ntitle: LFP cells\n</hit>\n</hits>';

const conversation: ActMessage[] = [
  { role: "user", content: "Investigate: which battery chemistry suits home storage?" },
  {
    role: "assistant",
    text: "I will search first.",
    calls: [{ id: "call_s1", name: "search", args: { query: "LFP" } }],
  },
  { role: "tool", callId: "call_s1", name: "search", content: hitsText },
  {
    role: "assistant",
    text: "",
    calls: [
      { id: "call_n1", name: "note", args: { text: "LFP lasts long", tags: ["lfp"] } },
      { id: "call_s2", name: "search", args: { query: "NMC" } },
    ],
  },
  { role: "tool", callId: "call_n1", name: "note", content: "Noted as n1." },
  { role: "tool", callId: "call_s2", name: "search", content: "No hits." },
  { role: "assistant", text: "Let me think about it.", calls: [] },
  { role: "user", content: "Reminder: call a tool, or finish." },
];

const actInput: ActInput = { system: "You investigate with tools.", messages: conversation, tools, toolChoice: "auto" };
const call = { timeoutMs: 10_000 };

const compatible = compatibleModel("qwen2.5:7b");

describe("act over Chat Completions (openai-compatible)", () => {
  it("sends the tools with their JSON Schemas, tool_choice auto and the mapped conversation", async () => {
    const server = await loopback([{ body: JSON.parse(fixture("openai-chat-tool-calls.json")) }]);
    const result = await compatible(server).act(actInput, call);
    expect(result).toEqual({
      ok: true,
      value: {
        text: "",
        calls: [
          { id: "call_Qm2n8VfT1xLwYb3cR7pK0sDe", name: "search", args: { query: "LFP cycle life home storage" } },
        ],
      },
      usage: { inputTokens: 812, outputTokens: 23 },
      attempts: 1,
    });
    const body = server.seen[0]?.body;
    expect(body.tool_choice).toBe("auto");
    expect(body.tools).toEqual([
      {
        type: "function",
        function: { name: "search", description: "Search the evidence scope.", parameters: searchSchema },
      },
      { type: "function", function: { name: "note", description: "Write a working note.", parameters: noteSchema } },
    ]);
    expect(body.messages).toEqual([
      { role: "system", content: "You investigate with tools." },
      { role: "user", content: "Investigate: which battery chemistry suits home storage?" },
      {
        role: "assistant",
        content: "I will search first.",
        tool_calls: [{ id: "call_s1", type: "function", function: { name: "search", arguments: '{"query":"LFP"}' } }],
      },
      { role: "tool", tool_call_id: "call_s1", content: hitsText },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          {
            id: "call_n1",
            type: "function",
            function: { name: "note", arguments: '{"text":"LFP lasts long","tags":["lfp"]}' },
          },
          { id: "call_s2", type: "function", function: { name: "search", arguments: '{"query":"NMC"}' } },
        ],
      },
      { role: "tool", tool_call_id: "call_n1", content: "Noted as n1." },
      { role: "tool", tool_call_id: "call_s2", content: "No hits." },
      { role: "assistant", content: "Let me think about it." },
      { role: "user", content: "Reminder: call a tool, or finish." },
    ]);
  });

  it("maps required to tool_choice required, and a forced tool to the only tool offered", async () => {
    const server = await loopback([
      { body: toolCompletion([{ id: "call_a", name: "search", arguments: { query: "LFP" } }]) },
      { body: toolCompletion([{ id: "call_b", name: "note", arguments: { text: "done", tags: [] } }]) },
    ]);
    const model = compatible(server);
    expect(await model.act({ ...actInput, toolChoice: "required" }, call)).toMatchObject({ ok: true });
    const forced = await model.act({ ...actInput, toolChoice: { tool: "note" } }, call);
    expect(forced).toMatchObject({ ok: true, value: { calls: [{ id: "call_b", name: "note" }] } });
    expect(server.seen[0]?.body.tool_choice).toBe("required");
    expect(server.seen[0]?.body.tools).toHaveLength(2);
    expect(server.seen[1]?.body.tool_choice).toEqual({ type: "function", function: { name: "note" } });
    expect(server.seen[1]?.body.tools.map((tool: { function: { name: string } }) => tool.function.name)).toEqual([
      "note",
    ]);
  });

  it("returns the text and the arguments unparsed, even when they break the schema or are not JSON", async () => {
    const server = await loopback([
      {
        body: toolCompletion(
          [
            { id: "call_1", name: "search", arguments: { query: 42, extra: true } },
            { id: "call_2", name: "note", arguments: '{"text": ' },
            { id: "call_3", name: "search", arguments: { query: "  " } },
          ],
          "Searching again.",
        ),
      },
    ]);
    const result = await compatible(server).act(actInput, call);
    expect(result).toEqual({
      ok: true,
      value: {
        text: "Searching again.",
        calls: [
          { id: "call_1", name: "search", args: { query: 42, extra: true } },
          { id: "call_2", name: "note", args: '{"text": ' },
          { id: "call_3", name: "search", args: { query: "  " } },
        ],
      },
      usage: { inputTokens: 812, outputTokens: 23 },
      attempts: 1,
    });
  });

  it("drops a call to a tool not offered, and replaces ids the conversation already uses", async () => {
    const server = await loopback([
      {
        body: toolCompletion([
          { id: "call_s1", name: "search", arguments: { query: "NMC" } },
          { id: "call_x", name: "fetch", arguments: { url: "https://example.com" } },
          { id: "call 0/1", name: "note", arguments: { text: "x", tags: [] } },
        ]),
      },
    ]);
    const result = await compatible(server).act(actInput, call);
    expect(result.ok && result.value.calls).toEqual([
      { id: "call_1", name: "search", args: { query: "NMC" } },
      { id: "call_2", name: "note", args: { text: "x", tags: [] } },
    ]);
    expect(server.seen).toHaveLength(1);
  });

  it("takes a plain-text reply as a turn without calls under auto", async () => {
    const server = await loopback([
      { body: chatCompletion("I have enough evidence.") },
      { body: toolCompletion([{ id: "call_x", name: "fetch", arguments: {} }], "Fetching.") },
    ]);
    const model = compatible(server);
    expect(await model.act(actInput, call)).toMatchObject({
      ok: true,
      value: { text: "I have enough evidence.", calls: [] },
      attempts: 1,
    });
    expect(await model.act(actInput, call)).toMatchObject({
      ok: true,
      value: { text: "Fetching.", calls: [] },
      attempts: 1,
    });
  });

  it("repairs a reply without a call when a tool is required, summing the usage", async () => {
    const server = await loopback([
      { body: chatCompletion("LFP, clearly.") },
      { body: toolCompletion([{ id: "call_9", name: "search", arguments: { query: "LFP" } }]) },
    ]);
    const result = await compatible(server).act({ ...actInput, toolChoice: "required" }, call);
    expect(result).toMatchObject({
      ok: true,
      value: { calls: [{ id: "call_9", name: "search", args: { query: "LFP" } }] },
      usage: { inputTokens: 2052, outputTokens: 235 },
      attempts: 2,
    });
    const messages = server.seen[1]?.body.messages;
    expect(messages).toHaveLength(server.seen[0]?.body.messages.length + 2);
    expect(messages.at(-2)).toEqual({ role: "assistant", content: "LFP, clearly." });
    expect(messages.at(-1).content).toContain("the reply called no tool");
    expect(messages.at(-1).content).toContain("Call one of these tools: search, note");
  });

  it("fails as malformed when a forced tool is still not called after the repair round", async () => {
    const server = await loopback([
      { body: toolCompletion([{ id: "call_1", name: "search", arguments: { query: "LFP" } }]) },
      { body: chatCompletion("I would rather not take notes.") },
    ]);
    const result = await compatible(server).act({ ...actInput, toolChoice: { tool: "note" } }, call);
    expect(result).toMatchObject({
      ok: false,
      kind: "malformed",
      attempts: 2,
      usage: { inputTokens: 812 + 1240, outputTokens: 23 + 212 },
    });
    expect(result.ok || result.error).toContain("after one repair round");
    const repair = server.seen[1]?.body;
    expect(repair.tool_choice).toEqual({ type: "function", function: { name: "note" } });
    expect(repair.messages.at(-1).content).toContain("only tools that are not offered here: search");
    expect(repair.messages.at(-1).content).toContain("Call one of these tools: note");
  });

  it("retries a 500 and sums the usage of the replies", async () => {
    const server = await loopback([
      { status: 500, body: JSON.parse(fixture("openai-error-500.json")) },
      { body: JSON.parse(fixture("openai-chat-tool-calls.json")) },
    ]);
    const result = await compatible(server).act(actInput, call);
    expect(result).toMatchObject({ ok: true, attempts: 2, usage: { inputTokens: 812, outputTokens: 23 } });
    expect(server.seen).toHaveLength(2);
  });

  it("fails as timeout when the server is slower than the time limit", async () => {
    const server = await loopback([{ body: JSON.parse(fixture("openai-chat-tool-calls.json")), delayMs: NEVER_MS }]);
    // The reply never comes while the test runs: the call ended by its own time limit.
    const result = await compatible(server).act(actInput, { timeoutMs: 150 });
    expect(result).toMatchObject({ ok: false, kind: "timeout", attempts: 1 });
  });

  it("fails as cancelled when the caller aborts, and sends nothing when already cancelled", async () => {
    const server = await loopback([{ body: JSON.parse(fixture("openai-chat-tool-calls.json")), delayMs: 5_000 }]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const result = await compatible(server).act(actInput, { ...call, signal: controller.signal });
    expect(result).toMatchObject({ ok: false, kind: "cancelled" });
    const before = server.seen.length;
    const aborted = await compatible(server).act(actInput, { ...call, signal: AbortSignal.abort() });
    expect(aborted).toMatchObject({ ok: false, kind: "cancelled", attempts: 0 });
    expect(server.seen).toHaveLength(before);
  });

  it("maps a content filter stop without a call to refused, even under auto", async () => {
    const server = await loopback([{ body: toolCompletion([], null, "content_filter") }]);
    const result = await compatible(server).act(actInput, call);
    expect(result).toMatchObject({ ok: false, kind: "refused", attempts: 1 });
  });

  it("rejects a forced tool that is not among the tools as a bug, sending nothing", async () => {
    const server = await loopback([]);
    await expect(compatible(server).act({ ...actInput, toolChoice: { tool: "answer" } }, call)).rejects.toThrow(
      'the forced tool "answer"',
    );
    expect(server.seen).toHaveLength(0);
  });
});

describe("act's text fallback (openai-compatible servers without tools)", () => {
  const rejection = { status: 400, body: { error: { message: "tools are not supported by this model" } } };

  it("asks once for a JSON reply in text, parses it with fresh ids, and remembers it", async () => {
    const reply = {
      text: "Two searches.",
      calls: [
        { name: "search", args: { query: "LFP cycle life" } },
        { name: "search", args: { query: 7 } },
        { name: "fetch", args: { url: "https://example.com" } },
      ],
    };
    const server = await loopback([
      rejection,
      { body: chatCompletion(`\`\`\`json\n${JSON.stringify(reply)}\n\`\`\``) },
      { body: chatCompletion('{"text": "", "calls": [{"name": "note", "args": {"text": "x", "tags": []}}]}') },
    ]);
    const model = compatible(server);
    const first = await model.act(actInput, call);
    expect(first).toMatchObject({
      ok: true,
      attempts: 2,
      value: {
        text: "Two searches.",
        calls: [
          { id: "call_1", name: "search", args: { query: "LFP cycle life" } },
          { id: "call_2", name: "search", args: { query: 7 } },
        ],
      },
    });
    expect(server.seen[0]?.body.tools).toHaveLength(2);
    const text = server.seen[1]?.body;
    expect(text.tools).toBeUndefined();
    expect(text.tool_choice).toBeUndefined();
    const system = text.messages[0].content;
    expect(system).toContain("You investigate with tools.");
    expect(system).toContain("Tool calls are not available here");
    expect(system).toContain(
      `- search: Search the evidence scope.\n  arguments (JSON Schema): ${JSON.stringify(searchSchema)}`,
    );
    expect(system).toContain("JSON Schema");
    expect(text.messages.slice(1).map((message: { role: string }) => message.role)).toEqual([
      "user",
      "assistant",
      "user",
      "assistant",
      "user",
      "assistant",
      "user",
    ]);
    expect(JSON.parse(text.messages[2].content)).toEqual({
      text: "I will search first.",
      calls: [{ name: "search", args: { query: "LFP" } }],
    });
    expect(text.messages[3].content).toContain(hitsText);
    expect(text.messages[5].content).toBe(
      "Result of your note call:\nNoted as n1.\n\nResult of your search call:\nNo hits.",
    );

    const second = await model.act({ ...actInput, toolChoice: { tool: "note" } }, call);
    expect(second).toMatchObject({ ok: true, attempts: 1, value: { calls: [{ id: "call_1", name: "note" }] } });
    expect(server.seen[2]?.body.tools).toBeUndefined();
    expect(server.seen[2]?.body.messages[0].content).toContain("Call the note tool.");
    expect(server.seen[2]?.body.messages[0].content).not.toContain("- search:");
  });

  it("takes prose as a turn without calls under auto", async () => {
    const server = await loopback([rejection, { body: chatCompletion("I think LFP is the answer.") }]);
    const result = await compatible(server).act(actInput, call);
    expect(result).toMatchObject({ ok: true, attempts: 2, value: { text: "I think LFP is the answer.", calls: [] } });
  });

  it("repairs prose once with the JSON repair prompt when a tool is required, then fails as malformed", async () => {
    const server = await loopback([
      { status: 422, body: { error: { message: "unknown field: tools" } } },
      { body: chatCompletion("I will search for LFP.") },
      { body: chatCompletion("Still prose.") },
    ]);
    const result = await compatible(server).act({ ...actInput, toolChoice: "required" }, call);
    expect(result).toMatchObject({ ok: false, kind: "malformed", attempts: 3 });
    const repair = server.seen[2]?.body.messages;
    expect(repair.at(-2)).toEqual({ role: "assistant", content: "I will search for LFP." });
    expect(repair.at(-1).content).toContain("Your previous reply could not be used");
  });

  it("does not fall back to text for a hosted provider", async () => {
    const server = await loopback([{ status: 400, body: { error: { message: "bad request" } } }]);
    const model = createAiSdkModel({ spec: "openai:gpt-4.1-mini", apiKey: KEY, baseURL: `${server.baseUrl}/v1` });
    const result = await model.act(actInput, call);
    expect(result).toMatchObject({ ok: false, kind: "transport", attempts: 1 });
    expect(server.seen).toHaveLength(1);
  });
});

describe("act over Anthropic Messages", () => {
  it("sends the tools and the conversation as tool_use and tool_result blocks, and returns text and calls", async () => {
    const server = await loopback([{ body: JSON.parse(fixture("anthropic-tool-use.json")) }]);
    const result = await anthropicModel(server).act(actInput, call);
    expect(result).toEqual({
      ok: true,
      value: {
        text: "I will search the folder first.",
        calls: [
          { id: "toolu_01A9sXk3Pz7QwE2rT5yU8iOp", name: "search", args: { query: "LFP cycle life home storage" } },
        ],
      },
      usage: { inputTokens: 1530, outputTokens: 61 },
      attempts: 1,
    });
    const body = server.seen[0]?.body;
    expect(body.tool_choice).toEqual({ type: "auto" });
    expect(body.tools).toEqual([
      { name: "search", description: "Search the evidence scope.", input_schema: searchSchema },
      { name: "note", description: "Write a working note.", input_schema: noteSchema },
    ]);
    expect(body.system).toEqual([{ type: "text", text: "You investigate with tools." }]);
    const messages = body.messages;
    expect(messages[1].content).toEqual([
      { type: "text", text: "I will search first." },
      { type: "tool_use", id: "call_s1", name: "search", input: { query: "LFP" } },
    ]);
    expect(messages[2].content).toEqual([{ type: "tool_result", tool_use_id: "call_s1", content: hitsText }]);
    expect(messages[4].content).toEqual([
      { type: "tool_result", tool_use_id: "call_n1", content: "Noted as n1." },
      { type: "tool_result", tool_use_id: "call_s2", content: "No hits." },
    ]);
    expect(messages[5].content).toEqual([{ type: "text", text: "Let me think about it." }]);
  });

  it("maps required to any and a forced tool to tool, offering only that tool", async () => {
    const reply = { body: toolUse([{ type: "tool_use", id: "toolu_01N", name: "note", input: { text: 3 } }]) };
    const server = await loopback([reply, reply]);
    const model = anthropicModel(server);
    expect(await model.act({ ...actInput, toolChoice: "required" }, call)).toMatchObject({ ok: true });
    const forced = await model.act({ ...actInput, toolChoice: { tool: "note" } }, call);
    expect(forced).toMatchObject({
      ok: true,
      value: { calls: [{ id: "toolu_01N", name: "note", args: { text: 3 } }] },
    });
    expect(server.seen[0]?.body.tool_choice).toEqual({ type: "any" });
    expect(server.seen[1]?.body.tool_choice).toEqual({ type: "tool", name: "note" });
    expect(server.seen[1]?.body.tools.map((tool: { name: string }) => tool.name)).toEqual(["note"]);
  });

  it("repairs a forced turn that called another tool, then fails as malformed, summing the usage", async () => {
    const reply = { body: toolUse([{ type: "tool_use", id: "toolu_01S", name: "search", input: { query: "x" } }]) };
    const server = await loopback([reply, reply]);
    const result = await anthropicModel(server).act({ ...actInput, toolChoice: { tool: "note" } }, call);
    expect(result).toMatchObject({
      ok: false,
      kind: "malformed",
      attempts: 2,
      usage: { inputTokens: 3060, outputTokens: 122 },
    });
    expect(JSON.stringify(server.seen[1]?.body.messages.at(-1))).toContain("Call one of these tools: note");
  });
});
