#!/usr/bin/env node
// Fits the answer's weights (src/core/answer/answer-weights.ts) on the HotpotQA development set.
// The data stays outside the repository: ASSAY_HOTPOT_DEV names a HotpotQA JSON file (the original
// hotpot_dev_distractor_v1.json, or a part of it). Run after `npm run build`:
//   ASSAY_HOTPOT_DEV=/data/hotpot_dev_distractor_v1.json npm run fit:answer [-- --dry-run]
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const path = process.env.ASSAY_HOTPOT_DEV;
if (!path) {
  console.error("Set ASSAY_HOTPOT_DEV to a HotpotQA JSON file (for example hotpot_dev_distractor_v1.json).");
  process.exit(2);
}
const { hotpotCases, fitWeights } = await import(join(root, "dist/eval/answer-fit.js"));
const { ANSWER_WEIGHTS } = await import(join(root, "dist/core/answer/answer-weights.js"));
const { englishJudge } = await import(join(root, "dist/adapters/language/english-judge.js"));

let cases;
try {
  cases = hotpotCases(JSON.parse(readFileSync(path, "utf8")));
} catch (error) {
  const why =
    error?.code === "ENOENT"
      ? "no such file."
      : error?.code === "EISDIR"
        ? "it is a folder, not a file."
        : error instanceof SyntaxError
          ? `it is not JSON (${error.message}).`
          : error instanceof Error
            ? error.message
            : String(error);
  console.error(`Cannot read ${path}: ${why}`);
  process.exit(2);
}
const grid = {
  passage: [0, 0.125, 0.25, 0.375, 0.5],
  answerFloor: [0.36, 0.39, 0.42, 0.45, 0.48],
  bridgedFloor: [0.3, 0.35, 0.4, 0.45],
  firstHopFloor: [0.1, 0.14, 0.18, 0.21],
  alone: [0.5, 0.6, 0.7, 0.8, 0.9],
  bridgeMargin: [0, 0.05, 0.1, 0.15, 0.2],
};
const started = performance.now();
const { weights, before, after } = fitWeights(cases, ANSWER_WEIGHTS, grid, { judge: englishJudge() });
const share = (score) =>
  `first ${score.first}/${score.cases} (${((100 * score.first) / score.cases).toFixed(1)}%), any ${score.any}, "not said" ${score.notSaid}`;
console.log(`${cases.length} questions with a text answer from ${path}`);
console.log(`before: ${share(before)}`);
console.log(`after:  ${share(after)}`);
console.log(JSON.stringify(weights));
console.log(`(${((performance.now() - started) / 1000).toFixed(1)} s)`);
if (process.argv.includes("--dry-run")) process.exit(0);
const file = join(root, "src/core/answer/answer-weights.ts");
const source = readFileSync(file, "utf8");
const body = Object.entries(weights)
  .map(([name, value]) => `  ${name}: ${value},`)
  .join("\n");
writeFileSync(
  file,
  source.replace(
    /export const ANSWER_WEIGHTS: AnswerWeights = \{[^}]*\};/u,
    `export const ANSWER_WEIGHTS: AnswerWeights = {\n${body}\n};`,
  ),
);
console.log(`wrote ${file}`);
