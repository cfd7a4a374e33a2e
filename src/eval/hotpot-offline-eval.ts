/**
 * Measures the offline engine against plain BM25 on a HotpotQA-style set:
 *
 *   node dist/eval/hotpot-offline-eval.js <cases.jsonl> <corpus dir> [--limit N] [--sources K] [--cases]
 *
 * (A) the top K documents of a BM25 search of the question; (B) the offline engine's
 * acquisition (bootstrap, then its planner's queries, interleaved by rank, up to K
 * sources) and its extractive synthesis. Prints gold-document recall of (A), of (B)'s
 * cited and read sources, and the share of cases whose facts contain an accepted answer.
 * The index is built in a temporary folder and removed afterwards.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createOfflineModel } from "../adapters/models/offline/offline-model.js";
import {
  type CaseResult,
  DEFAULT_EVAL_OPTIONS,
  type EvalOptions,
  evaluateCase,
  loadCases,
  loadDocuments,
  openIndex,
  summarize,
} from "./hotpot-eval.js";

interface Arguments {
  cases: string;
  corpus: string;
  limit: number;
  options: EvalOptions;
  perCase: boolean;
}

const USAGE =
  "usage: node dist/eval/hotpot-offline-eval.js <cases.jsonl> <corpus dir> [--limit N] [--sources K] [--cases]";

function positiveInteger(value: string | undefined, flag: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new Error(`${flag} needs a positive integer\n${USAGE}`);
  return number;
}

function parseArguments(argv: readonly string[]): Arguments {
  const positional: string[] = [];
  let limit = Number.MAX_SAFE_INTEGER;
  let sources = DEFAULT_EVAL_OPTIONS.sources;
  let perCase = false;
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] ?? "";
    if (arg === "--limit") limit = positiveInteger(argv[++index], "--limit");
    else if (arg === "--sources") sources = positiveInteger(argv[++index], "--sources");
    else if (arg === "--cases") perCase = true;
    else if (arg.startsWith("--")) throw new Error(`unknown option ${arg}\n${USAGE}`);
    else positional.push(arg);
  }
  const [cases, corpus] = positional;
  if (cases === undefined || corpus === undefined || positional.length > 2) throw new Error(USAGE);
  return {
    cases: resolve(cases),
    corpus: resolve(corpus),
    limit,
    options: {
      ...DEFAULT_EVAL_OPTIONS,
      sources,
      bootstrapSources: Math.min(DEFAULT_EVAL_OPTIONS.bootstrapSources, sources),
    },
    perCase,
  };
}

const pct = (value: number): string => `${(value * 100).toFixed(1)}%`;

function printCase(result: CaseResult): void {
  const answer = result.answerInFacts === null ? "-" : result.answerInFacts ? "yes" : "no";
  console.log(
    `${result.id}\tA ${result.baselineRecall.toFixed(1)}\tB-read ${result.readRecall.toFixed(1)}\tB-cited ${result.citedRecall.toFixed(1)}` +
      `\tcited ${result.cited}\tanswer ${answer}\tqueries ${JSON.stringify(result.queries)}`,
  );
}

async function main(): Promise<void> {
  const args = parseArguments(process.argv.slice(2));
  const cases = loadCases(args.cases).slice(0, args.limit);
  const folder = mkdtempSync(join(tmpdir(), "assay-hotpot-eval-"));
  const started = performance.now();
  try {
    const index = await openIndex(args.corpus, folder);
    const indexMs = performance.now() - started;
    try {
      const documents = loadDocuments(index);
      const model = createOfflineModel();
      const results: CaseResult[] = [];
      for (const testCase of cases) {
        const result = await evaluateCase(index, documents, model, testCase, args.options);
        results.push(result);
        if (args.perCase) printCase(result);
      }
      const summary = summarize(results);
      const k = args.options.sources;
      const rows: [string, string][] = [
        ["cases", String(summary.cases)],
        ["documents in the corpus", String(documents.size)],
        [`(A) BM25 top-${k} gold recall`, pct(summary.baselineRecall)],
        ["(A') BM25 gold recall, as many documents as (B) cited", pct(summary.baselineAtCitedRecall)],
        ["(B) offline cited-source gold recall", pct(summary.citedRecall)],
        [`(B) offline read-source gold recall (${k} read)`, pct(summary.readRecall)],
        ["(B) cited sources per case", summary.citedPerCase.toFixed(2)],
        ["(B) cited-source precision (gold / cited)", pct(summary.citedPrecision)],
        ["(B) facts per case", summary.factsPerCase.toFixed(2)],
        [`(B) answer in facts (${summary.answerCases} cases)`, pct(summary.answerShare)],
        [`(B) answer in facts, yes/no excluded (${summary.answerCasesNoYesNo})`, pct(summary.answerShareNoYesNo)],
        ["index build (ms)", indexMs.toFixed(0)],
        ["time per case (ms)", summary.msPerCase.toFixed(1)],
        ["total time (s)", ((performance.now() - started) / 1000).toFixed(2)],
      ];
      const width = Math.max(...rows.map(([label]) => label.length));
      console.log(`command: node ${process.argv.slice(1).join(" ")}`);
      console.log(`| ${"measure".padEnd(width)} | value |`);
      console.log(`| ${"-".repeat(width)} | ----- |`);
      for (const [label, value] of rows) console.log(`| ${label.padEnd(width)} | ${value} |`);
    } finally {
      index.close();
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
