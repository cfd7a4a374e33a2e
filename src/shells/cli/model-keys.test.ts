/**
 * Keys go only where they belong: models built the way every shell builds them
 * (`resolveModel`, used by `assay run`, `assay serve` for each request's model, the MCP
 * server and the workers) against loopback servers standing in for an `openai-compatible`
 * server and the hosted providers' endpoints. No real network, no real keys.
 */
import { afterEach, describe, expect, it } from "vitest";
import { anthropicMessage, chatCompletion, fixture } from "../../adapters/models/ai-sdk/__fixtures__/wire-builders.js";
import { createAiSdkModel } from "../../adapters/models/ai-sdk/ai-sdk-model.js";
import type { PlannerInput } from "../../ports/model.js";
import { type LoopbackResponder, type ScriptedReply, startResponder } from "../../testing/loopback-http.js";
import { resolveModel } from "./model-choice.js";
import { modelOptionsFromEnvironment } from "./model-config.js";

const KEYS = {
  openai: "sk-openai-7c1e4b9d2a",
  anthropic: "sk-ant-3f8a6d0b5e",
  google: "goog-9b2d7e4c1f",
  compatible: "local-5a0c8e3f6b",
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
const plan = JSON.stringify({ queries: [{ text: "LFP cycle life", pattern: null, pathPrefix: null }] });

function googleReply(): unknown {
  const body = JSON.parse(fixture("google-generate-content.json"));
  body.candidates[0].content.parts[0].text = plan;
  return body;
}

type Kind = "openai" | "anthropic" | "google" | "compatible";
const replyOf: Record<Kind, () => ScriptedReply> = {
  openai: () => ({ body: chatCompletion(plan) }),
  compatible: () => ({ body: chatCompletion(plan) }),
  anthropic: () => ({ body: anthropicMessage(plan) }),
  google: () => ({ body: googleReply() }),
};

const servers: LoopbackResponder[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function standIns(): Promise<Record<Kind, LoopbackResponder>> {
  const start = async (kind: Kind) => {
    const server = await startResponder(replyOf[kind]);
    servers.push(server);
    return server;
  };
  return {
    openai: await start("openai"),
    anthropic: await start("anthropic"),
    google: await start("google"),
    compatible: await start("compatible"),
  };
}

/** Every header value a server received, as one string per request. */
const headerText = (server: LoopbackResponder): string[] =>
  server.seen.map((request) => JSON.stringify(Object.values(request.headers)));

describe("model keys and endpoints", () => {
  it("sends each hosted provider's key to its own endpoint only, never to ASSAY_MODEL_BASE_URL", async () => {
    const s = await standIns();
    const environment = {
      ASSAY_MODEL_BASE_URL: `${s.compatible.baseUrl}/v1`,
      ASSAY_MODEL_API_KEY: KEYS.compatible,
      OPENAI_BASE_URL: `${s.openai.baseUrl}/v1`,
      OPENAI_API_KEY: KEYS.openai,
      ANTHROPIC_BASE_URL: `${s.anthropic.baseUrl}/v1`,
      ANTHROPIC_API_KEY: KEYS.anthropic,
      GOOGLE_GENERATIVE_AI_BASE_URL: `${s.google.baseUrl}/v1beta`,
      GOOGLE_GENERATIVE_AI_API_KEY: KEYS.google,
    };

    const openai = await resolveModel("openai:gpt-4.1-mini", environment)?.plan(plannerInput, call);
    expect(openai).toMatchObject({ ok: true, value: { queries: [{ text: "LFP cycle life" }] } });
    expect(s.compatible.seen).toEqual([]);
    expect(s.openai.seen.map((request) => request.path)).toEqual(["/v1/chat/completions"]);
    expect(s.openai.seen[0]?.headers.authorization).toBe(`Bearer ${KEYS.openai}`);

    const anthropic = await resolveModel("anthropic:claude-haiku-4-5", environment)?.plan(plannerInput, call);
    expect(anthropic).toMatchObject({ ok: true });
    expect(s.anthropic.seen.map((request) => request.path)).toEqual(["/v1/messages"]);
    expect(s.anthropic.seen[0]?.headers["x-api-key"]).toBe(KEYS.anthropic);

    const google = await resolveModel("google:gemini-2.5-flash", environment)?.plan(plannerInput, call);
    expect(google).toMatchObject({ ok: true });
    expect(s.google.seen.map((request) => request.path)).toEqual(["/v1beta/models/gemini-2.5-flash:generateContent"]);
    expect(s.google.seen[0]?.headers["x-goog-api-key"]).toBe(KEYS.google);

    const compatible = await resolveModel("openai-compatible:qwen3", environment)?.plan(plannerInput, call);
    expect(compatible).toMatchObject({ ok: true });
    expect(s.compatible.seen.map((request) => request.path)).toEqual(["/v1/chat/completions"]);
    expect(s.compatible.seen[0]?.headers.authorization).toBe(`Bearer ${KEYS.compatible}`);

    // Each server saw one request, carrying its own key and nobody else's.
    for (const [kind, server] of Object.entries(s) as [Kind, LoopbackResponder][]) {
      expect(server.seen, kind).toHaveLength(1);
      expect(server.errors, kind).toEqual([]);
      for (const [other, key] of Object.entries(KEYS)) {
        const headers = headerText(server);
        if (other === kind) expect(headers.join(), kind).toContain(key);
        else expect(headers.join(), `${kind} must not see the ${other} key`).not.toContain(key);
        expect(server.seen.map((request) => request.raw).join(), `${other} key in a ${kind} body`).not.toContain(key);
      }
    }
  });

  it("does not send OPENAI_API_KEY to the ASSAY_MODEL_BASE_URL server when no OPENAI_BASE_URL is set", async () => {
    const s = await standIns();
    const environment = {
      ASSAY_MODEL_BASE_URL: `${s.compatible.baseUrl}/v1`,
      OPENAI_API_KEY: KEYS.openai,
      ANTHROPIC_API_KEY: KEYS.anthropic,
    };
    const options = modelOptionsFromEnvironment("openai:gpt-4.1-mini", environment);
    expect(options).toEqual({ spec: "openai:gpt-4.1-mini", apiKey: KEYS.openai, baseURL: "https://api.openai.com/v1" });
    // The request the SDK would send, caught by a fetch that answers itself: nothing leaves the machine.
    const sent: { url: string; authorization: string | null }[] = [];
    const answering: typeof fetch = async (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      sent.push({ url, authorization: new Headers(init?.headers).get("authorization") });
      return new Response(JSON.stringify(chatCompletion(plan)), { headers: { "content-type": "application/json" } });
    };
    if (!options) throw new Error("expected model options");
    const result = await createAiSdkModel({ ...options, fetch: answering }).plan(plannerInput, call);
    expect(result).toMatchObject({ ok: true });
    expect(sent).toEqual([
      { url: "https://api.openai.com/v1/chat/completions", authorization: `Bearer ${KEYS.openai}` },
    ]);
    expect(s.compatible.seen).toEqual([]);
  });
});
