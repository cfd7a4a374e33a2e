/** Which model a run uses: the offline engine by default, none, or a provider (shells only). */
import { createOfflineModel } from "../../adapters/models/offline/offline-model.js";
import { UserError } from "../../core/errors.js";
import type { Model } from "../../ports/model.js";

/** The spec a new run records: `--model`, else ASSAY_MODEL, else the offline engine. */
export function modelSpec(flag: string | undefined, environment: Record<string, string | undefined>): string {
  const spec = (flag ?? environment.ASSAY_MODEL ?? "offline").trim();
  if (spec === "") throw new UserError("the model spec is empty; use offline, none or provider:model-name");
  return spec;
}

/** Builds the model for `spec`; undefined for `none`. Provider secrets come from `environment`. */
export function resolveModel(spec: string, environment: Record<string, string | undefined>): Model | undefined {
  if (spec === "none") return undefined;
  if (spec === "offline") return createOfflineModel();
  return providerModel(spec, environment);
}

let providerModel = (spec: string, _environment: Record<string, string | undefined>): Model => {
  throw new UserError(`unknown model "${spec}": use offline, none or provider:model-name`);
};

/** Installs the provider factory (the AI SDK adapter) for `provider:model` specs. */
export function useProviderModels(
  factory: (spec: string, environment: Record<string, string | undefined>) => Model,
): void {
  providerModel = factory;
}
