/** Which model a run uses: the offline engine by default, none, or a provider (shells only). */
import { createProviderModel } from "../../adapters/models/ai-sdk/provider-model.js";
import { createOfflineModel } from "../../adapters/models/offline/offline-model.js";
import { UserError } from "../../core/errors.js";
import type { Model } from "../../ports/model.js";
import { modelOptionsFromEnvironment } from "./model-config.js";
import { readPriceFile } from "./price-file.js";

/** The spec a new run records: `--model`, else ASSAY_MODEL, else the offline engine. */
export function modelSpec(flag: string | undefined, environment: Record<string, string | undefined>): string {
  if (flag !== undefined) {
    const spec = flag.trim();
    if (spec === "") throw new UserError("--model is empty; use offline, none or provider:model-name");
    return spec;
  }
  return environment.ASSAY_MODEL?.trim() || "offline";
}

/** Builds the model for `spec`; undefined for `none`. Provider secrets come from `environment`. */
export function resolveModel(spec: string, environment: Record<string, string | undefined>): Model | undefined {
  if (spec === "none") return undefined;
  if (spec === "offline") return createOfflineModel();
  return providerModel(spec, environment);
}

function providerModel(spec: string, environment: Record<string, string | undefined>): Model {
  const options = modelOptionsFromEnvironment(spec, environment);
  if (!options) return createOfflineModel();
  const prices = readPriceFile(environment);
  return createProviderModel(prices ? { ...options, prices } : options);
}
