/**
 * `provider:model` specs and the AI SDK language models behind them.
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
import { UserError } from "../../../core/errors.js";
import { err, ok, type Result } from "../../../core/result.js";

export const providerIds = ["openai", "anthropic", "google", "openai-compatible"] as const;
export type ProviderId = (typeof providerIds)[number];
export type HostedProviderId = Exclude<ProviderId, "openai-compatible">;

export interface ModelSpec {
  provider: ProviderId;
  /** Everything after the first colon: `llama3.1:8b` stays whole. */
  modelId: string;
}

/** The providers' public endpoints, used when no base URL is given. */
export const defaultBaseURLs: Readonly<Record<HostedProviderId, string>> = {
  openai: "https://api.openai.com/v1",
  anthropic: "https://api.anthropic.com/v1",
  google: "https://generativelanguage.googleapis.com/v1beta",
};

const isProviderId = (value: string): value is ProviderId => (providerIds as readonly string[]).includes(value);

/** Parses `provider:model`. Pure; never throws. */
export function parseModelSpec(spec: string): Result<ModelSpec> {
  const colon = spec.indexOf(":");
  if (colon < 0) {
    return err(`model "${spec}" is not of the form provider:model (providers: ${providerIds.join(", ")})`);
  }
  const provider = spec.slice(0, colon).trim();
  const modelId = spec.slice(colon + 1).trim();
  if (!isProviderId(provider)) {
    return err(`unknown model provider "${provider}" (known: ${providerIds.join(", ")})`);
  }
  if (modelId === "" || /\s/.test(modelId) || modelId.length > 200) {
    return err(`model "${spec}" needs a model name after "${provider}:" (no spaces)`);
  }
  return ok({ provider, modelId });
}

export interface LanguageModelSettings {
  apiKey?: string;
  baseURL?: string;
  fetch?: typeof fetch;
}

function requireKey(spec: ModelSpec, apiKey: string | undefined): string {
  if (apiKey === undefined || apiKey === "")
    throw new UserError(`the model provider "${spec.provider}" needs an API key`);
  return apiKey;
}

/** The AI SDK model for `spec`. Throws UserError on a missing key or base URL. */
export function createLanguageModel(spec: ModelSpec, settings: LanguageModelSettings): LanguageModel {
  const fetchOption = settings.fetch ? { fetch: settings.fetch } : {};
  switch (spec.provider) {
    case "openai": {
      const apiKey = requireKey(spec, settings.apiKey);
      const baseURL = settings.baseURL ?? defaultBaseURLs.openai;
      return createOpenAI({ apiKey, baseURL, ...fetchOption }).chat(spec.modelId);
    }
    case "anthropic": {
      const apiKey = requireKey(spec, settings.apiKey);
      const baseURL = settings.baseURL ?? defaultBaseURLs.anthropic;
      return createAnthropic({ apiKey, baseURL, ...fetchOption })(spec.modelId);
    }
    case "google": {
      const apiKey = requireKey(spec, settings.apiKey);
      const baseURL = settings.baseURL ?? defaultBaseURLs.google;
      return createGoogleGenerativeAI({ apiKey, baseURL, ...fetchOption })(spec.modelId);
    }
    case "openai-compatible": {
      if (!settings.baseURL) {
        throw new UserError(
          'the model provider "openai-compatible" needs a base URL (for example http://localhost:11434/v1)',
        );
      }
      return createOpenAICompatible({
        name: "openai-compatible",
        baseURL: settings.baseURL,
        ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
        ...fetchOption,
        // Send the JSON Schema as `response_format: json_schema` in native mode; the
        // adapter falls back to JSON in text when a server rejects or ignores it.
        supportsStructuredOutputs: true,
      }).chatModel(spec.modelId);
    }
  }
}
