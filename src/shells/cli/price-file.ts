/** ASSAY_PRICES: a JSON file of model prices that overrides and extends the built-in table. */
import { readFileSync } from "node:fs";
import { z } from "zod";
import type { PriceTable } from "../../adapters/models/ai-sdk/price-table.js";
import { UserError } from "../../core/errors.js";

const priceFileSchema = z.record(
  z.string(),
  z.object({
    inputPerMillion: z.number().nonnegative(),
    outputPerMillion: z.number().nonnegative(),
    upToInputTokens: z.number().int().positive().optional(),
  }),
);

/** Reads the price file named by ASSAY_PRICES, or returns undefined when none is set. */
export function readPriceFile(environment: Record<string, string | undefined>): PriceTable | undefined {
  const file = environment.ASSAY_PRICES?.trim();
  if (!file) return undefined;
  let raw: string;
  try {
    raw = readFileSync(file, "utf8");
  } catch {
    throw new UserError(`ASSAY_PRICES: cannot read ${file}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new UserError(`ASSAY_PRICES: ${file} is not JSON`);
  }
  const parsed = priceFileSchema.safeParse(value);
  if (!parsed.success) throw new UserError(`ASSAY_PRICES: ${file}: ${z.prettifyError(parsed.error)}`);
  const badKey = Object.keys(parsed.data).find((key) => !/^[a-z-]+:.+$/.test(key));
  if (badKey !== undefined)
    throw new UserError(`ASSAY_PRICES: "${badKey}" is not a model spec; keys are provider:model-name`);
  const table: Record<string, { inputPerMillion: number; outputPerMillion: number; upToInputTokens?: number }> = {};
  for (const [spec, price] of Object.entries(parsed.data)) {
    table[spec] = {
      inputPerMillion: price.inputPerMillion,
      outputPerMillion: price.outputPerMillion,
      ...(price.upToInputTokens === undefined ? {} : { upToInputTokens: price.upToInputTokens }),
    };
  }
  return table;
}
