/**
 * The model configuration from the environment. Pure: the caller passes the environment
 * (`process.env` in main, a plain object in tests).
 *
 * - `ASSAY_MODEL` (or `--model`): `provider:model`; absent, empty or `offline` means the
 *   offline engine.
 * - `ASSAY_MODEL_BASE_URL`: the endpoint of an `openai-compatible` server (required for it)
 *   and of nothing else: a hosted provider never sends its key there.
 * - Each hosted provider talks to its official endpoint unless its own variable moves it:
 *   `OPENAI_BASE_URL`, `ANTHROPIC_BASE_URL`, `GOOGLE_GENERATIVE_AI_BASE_URL`.
 * - Keys: `OPENAI_API_KEY`, `ANTHROPIC_API_KEY`, `GOOGLE_GENERATIVE_AI_API_KEY`, and the
 *   optional `ASSAY_MODEL_API_KEY` for an `openai-compatible` server.
 */
import type { AiSdkModelOptions } from "../../adapters/models/ai-sdk/ai-sdk-model.js";
import { defaultBaseURLs, type HostedProviderId, parseModelSpec } from "../../adapters/models/ai-sdk/model-spec.js";
import { UserError } from "../../core/errors.js";

export const keyVariables: Readonly<Record<HostedProviderId, string>> = {
  openai: "OPENAI_API_KEY",
  anthropic: "ANTHROPIC_API_KEY",
  google: "GOOGLE_GENERATIVE_AI_API_KEY",
};

/**
 * The variable that moves each hosted provider off its official endpoint. `OPENAI_BASE_URL`
 * and `ANTHROPIC_BASE_URL` are the names the AI SDK providers document; the Google provider
 * reads none, so the name follows its key's.
 */
export const baseURLVariables: Readonly<Record<HostedProviderId, string>> = {
  openai: "OPENAI_BASE_URL",
  anthropic: "ANTHROPIC_BASE_URL",
  google: "GOOGLE_GENERATIVE_AI_BASE_URL",
};

const COMPATIBLE_BASE_URL = "ASSAY_MODEL_BASE_URL";
const COMPATIBLE_KEY = "ASSAY_MODEL_API_KEY";

const setting = (environment: Record<string, string | undefined>, name: string): string | undefined => {
  const value = environment[name]?.trim();
  return value === undefined || value === "" ? undefined : value;
};

interface BaseURLSetting {
  /** The variable it came from, named in the error. */
  variable: string;
  value: string;
  /** Where the key goes instead of the URL's user information. */
  keyVariable: string;
  /** A well-formed value, shown when this one is not a URL. */
  example: string;
}

/** The value when it is an http(s) URL without credentials; a UserError naming the variable otherwise. */
function checkedBaseURL({ variable, value, keyVariable, example }: BaseURLSetting): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UserError(`${variable} "${value}" is not a URL (for example ${example})`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new UserError(`${variable} must be an http or https URL, not "${url.protocol}"`);
  }
  if (url.username !== "" || url.password !== "") {
    throw new UserError(`${variable} must not contain credentials; use ${keyVariable}`);
  }
  return value;
}

/**
 * The options for `createAiSdkModel`, or undefined when no model is configured (the
 * offline engine is used then). A hosted provider's options always carry its base URL:
 * its own variable's, else the official endpoint. Throws UserError on a malformed spec,
 * an unknown provider, a missing key, or a missing or invalid base URL.
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
  const where = { source, spec: wanted };
  return provider === "openai-compatible"
    ? compatibleOptions(where, environment)
    : hostedOptions(where, provider, environment);
}

/** Where a spec came from (`--model` or `ASSAY_MODEL`) and the spec, for error messages. */
interface SpecSource {
  source: string;
  spec: string;
}

function compatibleOptions(
  { source, spec }: SpecSource,
  environment: Record<string, string | undefined>,
): AiSdkModelOptions {
  const base = setting(environment, COMPATIBLE_BASE_URL);
  if (base === undefined) {
    throw new UserError(
      `${source}: "${spec}" needs ${COMPATIBLE_BASE_URL}, the server's OpenAI-compatible endpoint ` +
        "(Ollama: http://localhost:11434/v1, LM Studio: http://localhost:1234/v1, vLLM: http://localhost:8000/v1)",
    );
  }
  const baseURL = checkedBaseURL({
    variable: COMPATIBLE_BASE_URL,
    value: base,
    keyVariable: COMPATIBLE_KEY,
    example: "http://localhost:11434/v1",
  });
  const apiKey = setting(environment, COMPATIBLE_KEY);
  return { spec, baseURL, ...(apiKey === undefined ? {} : { apiKey }) };
}

/**
 * A hosted provider's key goes to its own endpoint only: ASSAY_MODEL_BASE_URL (a local
 * server) never applies here, so a server set up for Ollama does not send OPENAI_API_KEY
 * to Ollama when a user picks `openai:`.
 */
function hostedOptions(
  { source, spec }: SpecSource,
  provider: HostedProviderId,
  environment: Record<string, string | undefined>,
): AiSdkModelOptions {
  const keyVariable = keyVariables[provider];
  const baseVariable = baseURLVariables[provider];
  const base = setting(environment, baseVariable);
  const official = defaultBaseURLs[provider];
  const baseURL =
    base === undefined
      ? official
      : checkedBaseURL({ variable: baseVariable, value: base, keyVariable, example: official });
  const apiKey = setting(environment, keyVariable);
  if (apiKey === undefined) throw new UserError(`${source}: "${spec}" needs ${keyVariable} to be set`);
  return { spec, apiKey, baseURL };
}
