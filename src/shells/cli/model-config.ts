/**
 * The model configuration from the environment. Pure: the caller passes the environment
 * (`process.env` in main, a plain object in tests).
 *
 * - `ASSAY_MODEL` (or `--model`): `provider:model`; absent, empty or `offline` means the
 *   offline engine.
 * - `ASSAY_MODEL_BASE_URL`: required for `openai-compatible`, optional for the others.
 * - Keys: `OPENAI_API_KEY`, `ANTHROPIC_API_KEY`, `GOOGLE_GENERATIVE_AI_API_KEY`, and the
 *   optional `ASSAY_MODEL_API_KEY` for an `openai-compatible` server.
 */
import type { AiSdkModelOptions } from "../../adapters/models/ai-sdk/ai-sdk-model.js";
import { type HostedProviderId, parseModelSpec } from "../../adapters/models/ai-sdk/provider-registry.js";
import { UserError } from "../../core/errors.js";

export const keyVariables: Readonly<Record<HostedProviderId, string>> = {
  openai: "OPENAI_API_KEY",
  anthropic: "ANTHROPIC_API_KEY",
  google: "GOOGLE_GENERATIVE_AI_API_KEY",
};

const setting = (environment: Record<string, string | undefined>, name: string): string | undefined => {
  const value = environment[name]?.trim();
  return value === undefined || value === "" ? undefined : value;
};

function checkedBaseURL(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UserError(`ASSAY_MODEL_BASE_URL "${value}" is not a URL (for example http://localhost:11434/v1)`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new UserError(`ASSAY_MODEL_BASE_URL must be an http or https URL, not "${url.protocol}"`);
  }
  if (url.username !== "" || url.password !== "") {
    throw new UserError("ASSAY_MODEL_BASE_URL must not contain credentials; use ASSAY_MODEL_API_KEY");
  }
  return value;
}

/**
 * The options for `createAiSdkModel`, or undefined when no model is configured (the
 * offline engine is used then). Throws UserError on a malformed spec, an unknown
 * provider, a missing key or a missing base URL.
 */
export function modelOptionsFromEnvironment(
  spec: string | undefined,
  environment: Record<string, string | undefined>,
): AiSdkModelOptions | undefined {
  const given = spec?.trim();
  const fromFlag = given !== undefined && given !== "";
  const source = fromFlag ? "--model" : "ASSAY_MODEL";
  const wanted = fromFlag ? given : setting(environment, "ASSAY_MODEL");
  if (wanted === undefined || wanted === "offline") return undefined;
  const parsed = parseModelSpec(wanted);
  if (!parsed.ok) throw new UserError(`${source}: ${parsed.error}`);
  const { provider } = parsed.value;
  const base = setting(environment, "ASSAY_MODEL_BASE_URL");
  const baseURL = base === undefined ? undefined : checkedBaseURL(base);
  if (provider === "openai-compatible") {
    if (baseURL === undefined) {
      throw new UserError(
        `${source}: "${wanted}" needs ASSAY_MODEL_BASE_URL, the server's OpenAI-compatible endpoint ` +
          "(Ollama: http://localhost:11434/v1, LM Studio: http://localhost:1234/v1, vLLM: http://localhost:8000/v1)",
      );
    }
    const apiKey = setting(environment, "ASSAY_MODEL_API_KEY");
    return { spec: wanted, baseURL, ...(apiKey === undefined ? {} : { apiKey }) };
  }
  const keyVariable = keyVariables[provider];
  const apiKey = setting(environment, keyVariable);
  if (apiKey === undefined) throw new UserError(`${source}: "${wanted}" needs ${keyVariable} to be set`);
  return { spec: wanted, apiKey, ...(baseURL === undefined ? {} : { baseURL }) };
}
