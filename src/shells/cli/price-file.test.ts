import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempDir } from "../../testing/temp-dir.js";
import { readPriceFile } from "./price-file.js";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});
function file(content: string): string {
  const dir = tempDir();
  cleanups.push(dir.cleanup);
  const path = join(dir.path, "prices.json");
  writeFileSync(path, content);
  return path;
}

describe("readPriceFile", () => {
  it("is absent without ASSAY_PRICES and reads a valid table", () => {
    expect(readPriceFile({})).toBeUndefined();
    const path = file(JSON.stringify({ "openai-compatible:llama3": { inputPerMillion: 0, outputPerMillion: 0.1 } }));
    expect(readPriceFile({ ASSAY_PRICES: path })).toEqual({
      "openai-compatible:llama3": { inputPerMillion: 0, outputPerMillion: 0.1 },
    });
  });

  it("explains what is wrong with a bad file", () => {
    expect(() => readPriceFile({ ASSAY_PRICES: "/nonexistent/prices.json" })).toThrow(/cannot read/);
    expect(() => readPriceFile({ ASSAY_PRICES: file("{nope") })).toThrow(/is not JSON/);
    expect(() =>
      readPriceFile({ ASSAY_PRICES: file(JSON.stringify({ gpt: { inputPerMillion: 1, outputPerMillion: 2 } })) }),
    ).toThrow(/provider:model-name/);
    expect(() =>
      readPriceFile({
        ASSAY_PRICES: file(JSON.stringify({ "openai:x": { inputPerMillion: -1, outputPerMillion: 2 } })),
      }),
    ).toThrow(/ASSAY_PRICES/);
  });
});
