import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { createOfflineModel } from "../adapters/models/offline/offline-model.js";
import { tempDir } from "../testing/temp-dir.js";
import {
  type CaseResult,
  DEFAULT_EVAL_OPTIONS,
  evaluateCase,
  interleave,
  loadCases,
  loadDocuments,
  openIndex,
  summarize,
} from "./hotpot-eval.js";
import { containsAnswer, normalizeAnswer } from "./scoring.js";

describe("hotpot eval helpers", () => {
  it("interleaves ranked lists by rank", () => {
    expect(interleave([["a1", "a2", "a3"], ["b1"], [], ["c1", "c2"]])).toEqual(["a1", "b1", "c1", "a2", "c2", "a3"]);
  });

  it("matches accepted answers on normalised whole words", () => {
    expect(normalizeAnswer("The  WB!")).toBe("wb");
    expect(containsAnswer("The series was broadcast by The WB for eight seasons.", ["The WB"])).toBe(true);
    expect(containsAnswer("It was awarded in 1993.", ["1993"])).toBe(true);
    expect(containsAnswer("It was awarded in 19934.", ["1993"])).toBe(false);
    expect(containsAnswer("anything", [""])).toBe(false);
  });
});

// The evaluation data lives outside the repository (see ../shared/eval/README.md).
const SET = resolve(process.cwd(), "../shared/eval/hotpotqa-train100");
const available = existsSync(join(SET, "cases.jsonl")) && existsSync(join(SET, "corpus"));
if (!available) {
  console.warn(`NOTICE: skipping the HotpotQA offline-engine evaluation: ${SET} is absent.`);
}

describe.skipIf(!available)("hotpot eval on ../shared/eval/hotpotqa-train100 (skipped when absent)", () => {
  it("the offline engine's cited sources recall more gold documents than plain BM25 with the same K", async () => {
    const folder = tempDir("assay-hotpot-eval-test-");
    try {
      const index = await openIndex(join(SET, "corpus"), folder.path);
      try {
        const documents = loadDocuments(index);
        const model = createOfflineModel();
        const results: CaseResult[] = [];
        for (const testCase of loadCases(join(SET, "cases.jsonl"))) {
          results.push(await evaluateCase(index, documents, model, testCase, DEFAULT_EVAL_OPTIONS));
        }
        const summary = summarize(results);
        expect(summary.cases).toBe(100);
        expect(summary.citedRecall).toBeGreaterThan(summary.baselineRecall);
        expect(summary.readRecall).toBeGreaterThanOrEqual(summary.citedRecall);
        expect(summary.factsPerCase).toBeLessThanOrEqual(8);
      } finally {
        index.close();
      }
    } finally {
      folder.cleanup();
    }
  });
});
