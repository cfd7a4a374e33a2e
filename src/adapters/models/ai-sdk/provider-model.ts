/**
 * A provider's model as the shells build it: its spec, key and base URL checked now, its
 * price known now, and the AI SDK (with the provider packages, ~0.3 s of imports) loaded at
 * its first call, so that commands which build a model but never call it start fast.
 */
import { UserError } from "../../../core/errors.js";
import type { Model } from "../../../ports/model.js";
import type { AiSdkModel, AiSdkModelOptions } from "./ai-sdk-model.js";
import { checkProviderSettings, parseModelSpec } from "./model-spec.js";
import { costOf, defaultPrices } from "./price-table.js";

/** The model of `options.spec`; throws UserError for a bad spec, a missing key or base URL. */
export function createProviderModel(options: AiSdkModelOptions): Model {
  const parsed = parseModelSpec(options.spec);
  if (!parsed.ok) throw new UserError(parsed.error);
  checkProviderSettings(parsed.value, options);
  const name = `${parsed.value.provider}:${parsed.value.modelId}`;
  const prices = { ...defaultPrices, ...options.prices };
  let loading: Promise<AiSdkModel> | undefined;
  const model = (): Promise<AiSdkModel> => {
    loading ??= import("./ai-sdk-model.js").then(({ createAiSdkModel }) => createAiSdkModel(options));
    return loading;
  };
  return {
    name,
    kind: "generative",
    plan: async (input, call) => (await model()).plan(input, call),
    synthesize: async (input, call) => (await model()).synthesize(input, call),
    step: async (input, call) => (await model()).step(input, call),
    act: async (input, call) => (await model()).act(input, call),
    judge: async (input, call) => (await model()).judge(input, call),
    cost: (usage) => costOf(usage, name, prices),
  };
}
