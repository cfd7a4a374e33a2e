/**
 * The AI SDK language models behind `provider:model` specs (model-spec.ts parses and checks them).
 *
 * Every setting is passed explicitly (API key and base URL included), so the provider
 * packages never fall back to reading environment variables: only the shells read the
 * environment. `openai:` uses the Chat Completions API (`openai.chat`), the same wire
 * protocol as `openai-compatible:` servers; the calls here are single-turn, so the
 * Responses API's server-side state would bring nothing.
 */
import { createAnthropic } from "@ai-sdk/anthropic";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModel } from "ai";
import { checkProviderSettings, defaultBaseURLs, type ModelSpec, type ProviderSettings } from "./model-spec.js";

export interface LanguageModelSettings extends ProviderSettings {
  fetch?: typeof fetch;
}

/** The AI SDK model for `spec`. Throws UserError on a missing key or base URL. */
export function createLanguageModel(spec: ModelSpec, settings: LanguageModelSettings): LanguageModel {
  checkProviderSettings(spec, settings);
  const apiKey = settings.apiKey ?? "";
  const fetchOption = settings.fetch ? { fetch: settings.fetch } : {};
  switch (spec.provider) {
    case "openai": {
      const baseURL = settings.baseURL ?? defaultBaseURLs.openai;
      return createOpenAI({ apiKey, baseURL, ...fetchOption }).chat(spec.modelId);
    }
    case "anthropic": {
      const baseURL = settings.baseURL ?? defaultBaseURLs.anthropic;
      return createAnthropic({ apiKey, baseURL, ...fetchOption })(spec.modelId);
    }
    case "google": {
      const baseURL = settings.baseURL ?? defaultBaseURLs.google;
      return createGoogleGenerativeAI({ apiKey, baseURL, ...fetchOption })(spec.modelId);
    }
    case "openai-compatible": {
      return createOpenAICompatible({
        name: "openai-compatible",
        baseURL: settings.baseURL ?? "",
        ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
        ...fetchOption,
        // Send the JSON Schema as `response_format: json_schema` in native mode; the
        // adapter falls back to JSON in text when a server rejects or ignores it.
        supportsStructuredOutputs: true,
      }).chatModel(spec.modelId);
    }
  }
}
