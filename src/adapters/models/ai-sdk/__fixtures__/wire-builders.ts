/**
 * Test support for the AI SDK model tests: recorded provider bodies, a loopback server that
 * closes after each test, and model factories pointed at it. Not part of the build.
 */
import { readFileSync } from "node:fs";
import { afterEach } from "vitest";
import { type Loopback, type ScriptedReply, startLoopback } from "../../../../testing/loopback-http.js";
import { type AiSdkModel, type AiSdkModelOptions, createAiSdkModel } from "../ai-sdk-model.js";

/** The fake API key every hosted-provider test sends. */
export const KEY = "sk-test-4f9a1c2e7b3d5f6a8c0e";

/** The text of the recorded fixture `name` in this folder. */
export const fixture = (name: string): string => readFileSync(new URL(`./${name}`, import.meta.url), "utf8");

/** One tool call as it appears on the OpenAI wire; `arguments` is sent as JSON text unless already a string. */
export interface WireCall {
  id: string;
  name: string;
  arguments: unknown;
}

/** A recorded chat completion with `content` as the assistant's text. */
export function chatCompletion(content: string, finishReason = "stop"): unknown {
  const body = JSON.parse(fixture("openai-chat-completion.json"));
  body.choices[0].message.content = content;
  body.choices[0].finish_reason = finishReason;
  return body;
}

/** A recorded chat completion whose assistant message says `content` and makes `calls`. */
export function toolCompletion(calls: WireCall[], content: string | null = null, finishReason = "tool_calls"): unknown {
  const body = JSON.parse(fixture("openai-chat-tool-calls.json"));
  body.choices[0].message.content = content;
  body.choices[0].message.tool_calls = calls.map((call) => ({
    id: call.id,
    type: "function",
    function: {
      name: call.name,
      arguments: typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments),
    },
  }));
  body.choices[0].finish_reason = finishReason;
  return body;
}

/** A recorded Anthropic message whose single text block is `text`. */
export function anthropicMessage(text: string): unknown {
  const body = JSON.parse(fixture("anthropic-message.json"));
  body.content[0].text = text;
  return body;
}

/** A recorded Anthropic tool_use message whose content is `blocks`. */
export function toolUse(blocks: unknown[]): unknown {
  const body = JSON.parse(fixture("anthropic-tool-use.json"));
  body.content = blocks;
  return body;
}

/** Registers an afterEach that closes every server; the returned function starts one answering `replies` in order (418 when unexpected). */
export function useLoopback(): (replies: ScriptedReply[]) => Promise<Loopback> {
  const servers: Loopback[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });
  return async (replies) => {
    const server = await startLoopback(replies);
    servers.push(server);
    return server;
  };
}

/** An `openai:gpt-4.1-mini` model on `server` with the test key and a short retry delay. */
export const openaiModel = (server: Loopback): AiSdkModel =>
  createAiSdkModel({ spec: "openai:gpt-4.1-mini", apiKey: KEY, baseURL: `${server.baseUrl}/v1`, retryBaseDelayMs: 5 });

/** An `anthropic:claude-sonnet-4-5` model on `server` with the test key and a short retry delay. */
export const anthropicModel = (server: Loopback): AiSdkModel =>
  createAiSdkModel({
    spec: "anthropic:claude-sonnet-4-5",
    apiKey: KEY,
    baseURL: `${server.baseUrl}/v1`,
    retryBaseDelayMs: 5,
  });

/** A factory of `openai-compatible:<modelId>` models on a server, with a short retry delay and overridable options. */
export const compatibleModel =
  (modelId: string) =>
  (server: Loopback, options: Partial<AiSdkModelOptions> = {}): AiSdkModel =>
    createAiSdkModel({
      spec: `openai-compatible:${modelId}`,
      baseURL: `${server.baseUrl}/v1`,
      retryBaseDelayMs: 5,
      ...options,
    });
