/**
 * `provider:model` specs and the settings each provider needs, checked without loading the
 * AI SDK (the shells build a model before its first call; the SDK loads with that call).
 */
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

/** What a provider is reached with: its key, and a base URL other than its public one. */
export interface ProviderSettings {
  apiKey?: string;
  baseURL?: string;
}

/** Throws UserError when `spec`'s provider cannot be reached with `settings`: a missing key or base URL. */
export function checkProviderSettings(spec: ModelSpec, settings: ProviderSettings): void {
  if (spec.provider === "openai-compatible") {
    if (!settings.baseURL)
      throw new UserError(
        'the model provider "openai-compatible" needs a base URL (for example http://localhost:11434/v1)',
      );
    return;
  }
  if (settings.apiKey === undefined || settings.apiKey === "")
    throw new UserError(`the model provider "${spec.provider}" needs an API key`);
}
