/**
 * Model prices in USD per million tokens, for the cost line of a run. A model that is
 * not in the table has no cost (undefined), never an estimated one. Pure.
 */
import type { ModelUsage } from "../../../ports/model.js";

export interface ModelPrice {
  inputPerMillion: number;
  outputPerMillion: number;
  /** The price holds for prompts up to this many input tokens; above it the cost is unknown. */
  upToInputTokens?: number;
}

/** Keyed by the full model spec, `provider:model`. */
export type PriceTable = Readonly<Record<string, ModelPrice>>;

/**
 * Standard (non-batch, uncached) list prices of a few well-known models, as published by
 * their providers in late 2025. Override or extend them through the model options.
 */
export const defaultPrices: PriceTable = {
  "openai:gpt-4o": { inputPerMillion: 2.5, outputPerMillion: 10 },
  "openai:gpt-4o-mini": { inputPerMillion: 0.15, outputPerMillion: 0.6 },
  "openai:gpt-4.1": { inputPerMillion: 2, outputPerMillion: 8 },
  "openai:gpt-4.1-mini": { inputPerMillion: 0.4, outputPerMillion: 1.6 },
  "openai:gpt-4.1-nano": { inputPerMillion: 0.1, outputPerMillion: 0.4 },
  "openai:gpt-5": { inputPerMillion: 1.25, outputPerMillion: 10 },
  "openai:gpt-5-mini": { inputPerMillion: 0.25, outputPerMillion: 2 },
  "openai:gpt-5-nano": { inputPerMillion: 0.05, outputPerMillion: 0.4 },
  "anthropic:claude-sonnet-4-5": { inputPerMillion: 3, outputPerMillion: 15, upToInputTokens: 200_000 },
  "anthropic:claude-haiku-4-5": { inputPerMillion: 1, outputPerMillion: 5 },
  "anthropic:claude-opus-4-1": { inputPerMillion: 15, outputPerMillion: 75 },
  "google:gemini-2.5-pro": { inputPerMillion: 1.25, outputPerMillion: 10, upToInputTokens: 200_000 },
  "google:gemini-2.5-flash": { inputPerMillion: 0.3, outputPerMillion: 2.5 },
  "google:gemini-2.5-flash-lite": { inputPerMillion: 0.1, outputPerMillion: 0.4 },
};

/**
 * The cost in USD of `usage` for the model `spec`, or undefined when its price is not
 * known (not in the table, or the prompt exceeds the price's input tier). Pure.
 */
export function costOf(usage: ModelUsage, spec: string, prices: PriceTable = defaultPrices): number | undefined {
  const price = Object.hasOwn(prices, spec) ? prices[spec] : undefined;
  if (!price) return undefined;
  if (price.upToInputTokens !== undefined && usage.inputTokens > price.upToInputTokens) return undefined;
  return (usage.inputTokens * price.inputPerMillion + usage.outputTokens * price.outputPerMillion) / 1_000_000;
}
