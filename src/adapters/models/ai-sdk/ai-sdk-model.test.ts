/**
 * The AI SDK model against a loopback HTTP server that speaks the providers' real wire
 * formats (OpenAI Chat Completions, Anthropic Messages), with recorded response bodies.
 * No real network, no real keys.
 */
import { describe, expect, it } from "vitest";
import type { PlannerInput, SynthesisInput } from "../../../ports/model.js";
import { NEVER_MS } from "../../../testing/loopback-http.js";
import {
  anthropicMessage,
  anthropicModel,
  chatCompletion,
  compatibleModel,
  fixture,
  KEY,
  openaiModel,
  useLoopback,
} from "./__fixtures__/wire-builders.js";
import { createAiSdkModel } from "./ai-sdk-model.js";

const validReply = fixture("synthesis-reply.json");
const loopback = useLoopback();

const synthesisInput: SynthesisInput = {
  question: "Which battery chemistry suits home storage?",
  language: "en",
  scope: "the local folder “batteries”",
  boundary: "Sources read on 2025-11-05; 2 of 2 sources persisted.",
  sources: [
    {
      id: "s_001",
      title: "LFP cells",
      location: "batteries/lfp.md",
      chunks: [{ id: "c_001_0001", text: "LFP cells tolerate more than 3000 full cycles." }],
    },
    {
      id: "s_002",
      title: "NMC cells",
      location: "batteries/nmc.md",
      chunks: [{ id: "c_002_0001", text: "NMC cells store more energy per kilogram." }],
    },
  ],
};

const plannerInput: PlannerInput = {
  question: "Which battery chemistry suits home storage?",
  language: "en",
  scope: "the local folder “batteries”",
  scopeKind: "corpus",
  maxQueries: 4,
  maxQueryChars: 120,
  bootstrap: new Promise(() => {}),
};

const call = { timeoutMs: 10_000 };
const compatible = compatibleModel("llama3.1:8b");

describe("openai-compatible (Chat Completions)", () => {
  it("parses a valid structured synthesis reply and sends the sources, model and schema", async () => {
    const server = await loopback([{ body: chatCompletion(validReply) }]);
    const result = await compatible(server).synthesize(synthesisInput, call);
    expect(result).toMatchObject({ ok: true, attempts: 1, usage: { inputTokens: 1240, outputTokens: 212 } });
    expect(result.ok && result.value.facts.map((fact) => fact.id)).toEqual(["f1", "f2"]);
    expect(server.seen).toHaveLength(1);
    const [request] = server.seen;
    expect(request?.method).toBe("POST");
    expect(request?.path).toBe("/v1/chat/completions");
    expect(request?.body.model).toBe("llama3.1:8b");
    expect(request?.body.response_format).toMatchObject({ type: "json_schema", json_schema: { name: "synthesis" } });
    expect(request?.headers.authorization).toBeUndefined();
    const user = request?.body.messages.find((message: { role: string }) => message.role === "user");
    expect(user.content).toContain('<source id="s_001">');
    expect(user.content).toContain('<chunk id="c_002_0001">');
    expect(user.content).toContain("Which battery chemistry suits home storage?");
  });

  it("extracts the JSON object from prose and a ```json fence", async () => {
    const wrapped = `Here are the findings.\n\n\`\`\`json\n${validReply}\n\`\`\`\nLet me know if you need more.`;
    const server = await loopback([{ body: chatCompletion(wrapped) }]);
    const result = await compatible(server).synthesize(synthesisInput, call);
    expect(result.ok).toBe(true);
    expect(server.seen).toHaveLength(1);
  });

  it("repairs invalid JSON in exactly one round, sending the error back, and sums the usage", async () => {
    const server = await loopback([
      { body: chatCompletion('{"facts": [ {"id": "f1", "text": ') },
      { body: chatCompletion(validReply) },
    ]);
    const result = await compatible(server).synthesize(synthesisInput, call);
    expect(result).toMatchObject({ ok: true, attempts: 2, usage: { inputTokens: 2480, outputTokens: 424 } });
    expect(server.seen).toHaveLength(2);
    const repair = server.seen[1]?.body.messages;
    expect(repair.at(-2)).toMatchObject({ role: "assistant", content: '{"facts": [ {"id": "f1", "text": ' });
    expect(repair.at(-1).content).toContain("Your previous reply could not be used");
    expect(repair.at(-1).content).toContain("invalid JSON");
    // The fallback for openai-compatible servers: the repair round asks for JSON in text.
    expect(server.seen[1]?.body.response_format).toBeUndefined();
    expect(repair[0].content).toContain("JSON Schema");
  });

  it("sends the schema violations back when the JSON does not fit", async () => {
    const missingChunks = JSON.stringify({
      facts: [{ id: "f1", text: "A fact.", sourceId: "s_001", chunkIds: [] }],
      derivations: [],
      recommendations: [],
      gaps: [],
    });
    const server = await loopback([{ body: chatCompletion(missingChunks) }, { body: chatCompletion(validReply) }]);
    const result = await compatible(server).synthesize(synthesisInput, call);
    expect(result.ok).toBe(true);
    expect(server.seen[1]?.body.messages.at(-1).content).toContain("facts[0].chunkIds");
  });

  it("fails as malformed when the repaired reply is still invalid", async () => {
    const server = await loopback([{ body: chatCompletion("not json") }, { body: chatCompletion('{"facts": 3}') }]);
    const result = await compatible(server).synthesize(synthesisInput, call);
    expect(result).toMatchObject({ ok: false, kind: "malformed", attempts: 2 });
    expect(result.ok || result.error).toContain("after one repair round");
    expect(result.ok || result.error).not.toContain("\n");
    expect(server.seen).toHaveLength(2);
  });

  it("retries a 500 and succeeds", async () => {
    const server = await loopback([
      { status: 500, body: JSON.parse(fixture("openai-error-500.json")) },
      { body: chatCompletion(validReply) },
    ]);
    const result = await compatible(server).synthesize(synthesisInput, call);
    expect(result).toMatchObject({ ok: true, attempts: 2, usage: { inputTokens: 1240, outputTokens: 212 } });
    expect(server.seen).toHaveLength(2);
  });

  it("honours Retry-After on a 429", async () => {
    const server = await loopback([
      { status: 429, headers: { "retry-after-ms": "20" }, body: { error: { message: "Rate limit reached" } } },
      { body: chatCompletion(validReply) },
    ]);
    const result = await compatible(server, { retryBaseDelayMs: 60_000 }).synthesize(synthesisInput, call);
    expect(result).toMatchObject({ ok: true, attempts: 2 });
  });

  it("gives up as transport after the retries are spent", async () => {
    const failure = { status: 503, body: { error: { message: "overloaded" } } };
    const server = await loopback([failure, failure, failure]);
    const result = await compatible(server, { maxRetries: 2 }).synthesize(synthesisInput, call);
    expect(result).toMatchObject({ ok: false, kind: "transport", attempts: 3 });
    expect(result.ok || result.error).toContain("HTTP 503");
  });

  it("reports a refused connection as transport", async () => {
    const server = await loopback([]);
    const baseURL = `${server.baseUrl}/v1`;
    await server.close();
    const model = createAiSdkModel({ spec: "openai-compatible:m", baseURL, maxRetries: 1, retryBaseDelayMs: 5 });
    const result = await model.synthesize(synthesisInput, call);
    expect(result).toMatchObject({ ok: false, kind: "transport", attempts: 2 });
  });

  it("fails as timeout when the server is slower than the time limit", async () => {
    const server = await loopback([{ body: chatCompletion(validReply), delayMs: NEVER_MS }]);
    // The reply never comes while the test runs: the call ended by its own time limit.
    const result = await compatible(server).synthesize(synthesisInput, { timeoutMs: 150 });
    expect(result).toMatchObject({ ok: false, kind: "timeout", attempts: 1 });
  });

  it("applies the model's own time limit when it is the shorter one", async () => {
    const server = await loopback([{ body: chatCompletion(validReply), delayMs: 5_000 }]);
    const result = await compatible(server, { timeoutMs: 100 }).synthesize(synthesisInput, call);
    expect(result).toMatchObject({ ok: false, kind: "timeout" });
  });

  it("treats a time limit beyond the timer range as no limit, not as an immediate timeout", async () => {
    const server = await loopback([{ body: chatCompletion(validReply), delayMs: 50 }]);
    const result = await compatible(server).synthesize(synthesisInput, { timeoutMs: Number.MAX_SAFE_INTEGER });
    expect(result.ok).toBe(true);
  });

  it("fails as cancelled when the caller aborts", async () => {
    const server = await loopback([{ body: chatCompletion(validReply), delayMs: 5_000 }]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const result = await compatible(server).synthesize(synthesisInput, { ...call, signal: controller.signal });
    expect(result).toMatchObject({ ok: false, kind: "cancelled" });
  });

  it("does not send a request when the caller has already cancelled", async () => {
    const server = await loopback([]);
    const result = await compatible(server).synthesize(synthesisInput, { ...call, signal: AbortSignal.abort() });
    expect(result).toMatchObject({ ok: false, kind: "cancelled", attempts: 0 });
    expect(server.seen).toHaveLength(0);
  });

  it("falls back to JSON in text when the server rejects json_schema, and remembers it", async () => {
    const rejection = { status: 400, body: { error: { message: "response_format json_schema is not supported" } } };
    const server = await loopback([
      rejection,
      { body: chatCompletion(validReply) },
      { body: chatCompletion(validReply) },
    ]);
    const model = compatible(server);
    expect(await model.synthesize(synthesisInput, call)).toMatchObject({ ok: true, attempts: 2 });
    expect(server.seen[0]?.body.response_format?.type).toBe("json_schema");
    expect(server.seen[1]?.body.response_format).toBeUndefined();
    expect(await model.synthesize(synthesisInput, call)).toMatchObject({ ok: true, attempts: 1 });
    expect(server.seen[2]?.body.response_format).toBeUndefined();
  });

  it("maps a content filter stop to refused", async () => {
    const server = await loopback([{ body: chatCompletion("", "content_filter") }]);
    const result = await compatible(server).synthesize(synthesisInput, call);
    expect(result).toMatchObject({ ok: false, kind: "refused", attempts: 1 });
  });

  it("reads a fact's contradictions, and a strict reply's null for none as absent", async () => {
    const reply = JSON.stringify({
      facts: [
        {
          id: "f1",
          text: "LFP cells tolerate more than 3000 full cycles.",
          sourceId: "s_001",
          chunkIds: ["c_001_0001"],
          contradictedBy: [
            { sourceId: "s_002", chunkIds: ["c_002_0001"], quote: "NMC cells store more energy per kilogram." },
          ],
        },
        {
          id: "f2",
          text: "NMC cells store more energy per kilogram.",
          sourceId: "s_002",
          chunkIds: ["c_002_0001"],
          contradictedBy: null,
        },
      ],
      derivations: [],
      recommendations: [],
      gaps: [],
    });
    const server = await loopback([{ body: chatCompletion(reply) }]);
    const result = await compatible(server).synthesize(synthesisInput, call);
    expect(result.ok && result.value.facts.map((fact) => fact.contradictedBy)).toEqual([
      [{ sourceId: "s_002", chunkIds: ["c_002_0001"], quote: "NMC cells store more energy per kilogram." }],
      undefined,
    ]);
    const schema = server.seen[0]?.body.response_format.json_schema.schema;
    expect(schema.properties.facts.items.required).toContain("contradictedBy");
  });

  it("plans queries, turning the strict schema's nulls into absent fields", async () => {
    const reply = JSON.stringify({
      queries: [
        { text: "LFP cycle life", pattern: null, pathPrefix: null },
        { text: null, pattern: "cycles?\\b", pathPrefix: "batteries" },
      ],
    });
    const server = await loopback([{ body: chatCompletion(reply) }]);
    const result = await compatible(server).plan(plannerInput, call);
    expect(result.ok && result.value).toEqual({
      queries: [{ text: "LFP cycle life" }, { pattern: "cycles?\\b", pathPrefix: "batteries" }],
    });
    expect(server.seen[0]?.body.response_format.json_schema.name).toBe("query_plan");
  });

  it("asks for JSON in text, without response_format, in text mode", async () => {
    const server = await loopback([{ body: chatCompletion(validReply) }]);
    const result = await compatible(server, { structuredOutput: "text" }).synthesize(synthesisInput, call);
    expect(result.ok).toBe(true);
    expect(server.seen[0]?.body.response_format).toBeUndefined();
    expect(server.seen[0]?.body.messages[0]).toMatchObject({ role: "system" });
    expect(server.seen[0]?.body.messages[0].content).toContain("JSON Schema");
  });

  it("uses JSON mode in json mode", async () => {
    const server = await loopback([{ body: chatCompletion(validReply) }]);
    const result = await compatible(server, { structuredOutput: "json" }).synthesize(synthesisInput, call);
    expect(result.ok).toBe(true);
    expect(server.seen[0]?.body.response_format).toEqual({ type: "json_object" });
  });

  it("sends the optional API key as a bearer token", async () => {
    const server = await loopback([{ body: chatCompletion(validReply) }]);
    await compatible(server, { apiKey: "local-key" }).synthesize(synthesisInput, call);
    expect(server.seen[0]?.headers.authorization).toBe("Bearer local-key");
  });
});

describe("openai (Chat Completions, strict json_schema)", () => {
  it("sends the key, the model and a strict schema, and parses the reply", async () => {
    const server = await loopback([{ body: chatCompletion(validReply) }]);
    const model = openaiModel(server);
    expect(model.name).toBe("openai:gpt-4.1-mini");
    const result = await model.synthesize(synthesisInput, call);
    expect(result).toMatchObject({ ok: true, attempts: 1, usage: { inputTokens: 1240, outputTokens: 212 } });
    const [request] = server.seen;
    expect(request?.path).toBe("/v1/chat/completions");
    expect(request?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request?.body.model).toBe("gpt-4.1-mini");
    expect(request?.body.response_format.json_schema).toMatchObject({ name: "synthesis", strict: true });
    expect(request?.raw).toContain('<source id=\\"s_002\\">');
    expect(model.cost({ inputTokens: 1_000_000, outputTokens: 1_000_000 })).toBeCloseTo(2);
  });

  it("does not retry a 401 and keeps the key out of the error", async () => {
    const body = JSON.parse(fixture("openai-error-401.json").replace("REPLACED_BY_TEST", KEY));
    const server = await loopback([{ status: 401, body }, { body: chatCompletion(validReply) }]);
    const result = await openaiModel(server).synthesize(synthesisInput, call);
    expect(result).toMatchObject({ ok: false, kind: "transport", attempts: 1 });
    expect(server.seen).toHaveLength(1);
    const error = result.ok ? "" : result.error;
    expect(error).toContain("HTTP 401");
    expect(error).toContain("Incorrect API key provided");
    expect(error).not.toContain(KEY);
    expect(error).not.toContain("4f9a1c2e");
    expect(error).not.toContain("\n");
  });

  it("does not retry a 400", async () => {
    const server = await loopback([{ status: 400, body: { error: { message: "bad request" } } }]);
    const result = await openaiModel(server).synthesize(synthesisInput, call);
    expect(result).toMatchObject({ ok: false, kind: "transport", attempts: 1 });
  });
});

describe("anthropic (Messages)", () => {
  it("sends the key, the model and the output format, and parses the text content", async () => {
    const server = await loopback([{ body: anthropicMessage(validReply) }]);
    const result = await anthropicModel(server).synthesize(synthesisInput, call);
    expect(result).toMatchObject({ ok: true, attempts: 1, usage: { inputTokens: 2095, outputTokens: 503 } });
    const [request] = server.seen;
    expect(request?.path).toBe("/v1/messages");
    expect(request?.headers["x-api-key"]).toBe(KEY);
    expect(request?.body.model).toBe("claude-sonnet-4-5");
    expect(request?.body.output_config.format.type).toBe("json_schema");
    expect(JSON.stringify(request?.body.system)).toContain("untrusted data");
    expect(JSON.stringify(request?.body.messages)).toContain('<source id=\\"s_001\\">');
  });

  it("repairs once and sums the usage over both requests", async () => {
    const server = await loopback([
      { body: anthropicMessage("I cannot produce JSON right now.") },
      { body: anthropicMessage(validReply) },
    ]);
    const result = await anthropicModel(server).synthesize(synthesisInput, call);
    expect(result).toMatchObject({ ok: true, attempts: 2, usage: { inputTokens: 4190, outputTokens: 1006 } });
    expect(JSON.stringify(server.seen[1]?.body.messages)).toContain("Your previous reply could not be used");
  });

  it("retries an overloaded 529 and succeeds", async () => {
    const overloaded = { type: "error", error: { type: "overloaded_error", message: "Overloaded" } };
    const server = await loopback([{ status: 529, body: overloaded }, { body: anthropicMessage(validReply) }]);
    const result = await anthropicModel(server).synthesize(synthesisInput, call);
    expect(result).toMatchObject({ ok: true, attempts: 2 });
  });
});

describe("google (generateContent)", () => {
  it("plans with a nullable response schema and parses the candidate text", async () => {
    const body = JSON.parse(fixture("google-generate-content.json"));
    body.candidates[0].content.parts[0].text = JSON.stringify({
      queries: [{ text: "LFP", pattern: null, pathPrefix: null }],
    });
    const server = await loopback([{ body }]);
    const model = createAiSdkModel({ spec: "google:gemini-2.5-flash", apiKey: KEY, baseURL: `${server.baseUrl}/v1` });
    const result = await model.plan(plannerInput, call);
    expect(result).toMatchObject({ ok: true, value: { queries: [{ text: "LFP" }] }, usage: { inputTokens: 312 } });
    const [request] = server.seen;
    expect(request?.path).toBe("/v1/models/gemini-2.5-flash:generateContent");
    expect(request?.headers["x-goog-api-key"]).toBe(KEY);
    expect(request?.body.generationConfig.responseMimeType).toBe("application/json");
    const query = request?.body.generationConfig.responseSchema.properties.queries.items.properties;
    expect(query.text).toMatchObject({ type: "string", nullable: true });
    expect(request?.raw).toContain("Request language: English (en)");
  });
});
