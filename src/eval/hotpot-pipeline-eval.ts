/**
 * The whole pipeline, as a user runs it, on a HotpotQA-style corpus: one research per case
 * through createRuntime (real SQLite store, corpus index, offline engine, publication), scored
 * from the published report.json. Baseline: plain BM25 top-K of the question.
 *
 *   node dist/eval/hotpot-pipeline-eval.js <cases.jsonl> <corpus dir> [--limit N] [--sources K]
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { FilesystemArtifactStore } from "../adapters/artifacts/filesystem/filesystem-artifact-store.js";
import { systemClock } from "../adapters/clock/system-clock.js";
import { CorpusIndex, indexFileFor } from "../adapters/corpus/corpus-index.js";
import { resolveCorpusRoot } from "../adapters/corpus/corpus-paths.js";
import { corpusScopeOpener } from "../adapters/corpus/corpus-scope.js";
import { createOfflineModel } from "../adapters/models/offline/offline-model.js";
import { openSqliteStore } from "../adapters/store/sqlite/sqlite-store.js";
import { resolveBudgets } from "../core/budgets.js";
import { parseReportDocument } from "../core/report/report-document.js";
import { createRuntime } from "../runtime/runtime.js";
import { containsAnswer, loadCases } from "./hotpot-eval.js";

const argv = process.argv.slice(2);
const flag = (name: string, fallback: number): number => {
  const index = argv.indexOf(name);
  return index >= 0 ? Number(argv[index + 1]) : fallback;
};
const [casesFile, corpusDir] = argv.filter((arg, index) => !arg.startsWith("--") && !argv[index - 1]?.startsWith("--"));
if (!casesFile || !corpusDir) {
  process.stderr.write("usage: hotpot-pipeline-eval <cases.jsonl> <corpus dir> [--limit N] [--sources K]\n");
  process.exit(2);
}
const limit = flag("--limit", Number.POSITIVE_INFINITY);
const sources = flag("--sources", 8);

const work = mkdtempSync(join(tmpdir(), "assay-hotpot-"));
const root = await resolveCorpusRoot(corpusDir);
const indexDir = join(work, "index");
const baselineIndex = CorpusIndex.open(root, indexFileFor(indexDir, root));
await baselineIndex.refresh();
const store = openSqliteStore({ file: join(work, "assay.db") });
const runtime = createRuntime({
  store,
  artifacts: new FilesystemArtifactStore(),
  clock: systemClock,
  scopes: corpusScopeOpener({ indexDir }),
  model: createOfflineModel(),
});
const budgets = resolveBudgets({ maxSources: sources, maxFetchAttempts: sources * 2 });
if (!budgets.ok) throw new Error(budgets.error);

const cases = loadCases(resolve(casesFile)).slice(0, limit);
const rows: {
  baseline: number;
  cited: number;
  read: number;
  hasGold: boolean;
  answer: boolean | null;
  ms: number;
  citedCount: number;
}[] = [];
const recall = (found: readonly string[], gold: readonly string[]): number =>
  gold.length === 0 ? 0 : gold.filter((name) => found.includes(name)).length / gold.length;
const started = performance.now();
for (const testCase of cases) {
  const out = join(work, "out", testCase.id.replace(/[^A-Za-z0-9_-]/g, "_"));
  const t0 = performance.now();
  const outcome = await runtime.run({
    question: testCase.question,
    language: "en",
    strategy: "pipeline",
    model: "offline",
    scope: { kind: "corpus", root, label: "hotpotqa" },
    budgets: budgets.value,
    outDir: out,
  });
  const ms = performance.now() - t0;
  const parsed = parseReportDocument(JSON.parse(readFileSync(join(out, "report.json"), "utf8")));
  if (!parsed.ok) throw new Error(parsed.error);
  const doc = parsed.value;
  const cited = doc.sources.map((source) => source.path ?? "");
  const read = (await store.listSources(outcome.runId)).map((source) => source.path ?? "");
  const baseline = baselineIndex.search(testCase.question, sources).map((hit) => hit.path);
  const yesNo = testCase.answers.length > 0 && testCase.answers.every((answer) => /^(yes|no)$/i.test(answer.trim()));
  const findings = [...doc.directFindings, ...doc.findings].map((finding) => finding.text).join(" ");
  rows.push({
    baseline: recall(baseline, testCase.gold),
    cited: recall(cited, testCase.gold),
    read: recall(read, testCase.gold),
    hasGold: testCase.gold.length > 0,
    answer: yesNo || testCase.answers.length === 0 ? null : containsAnswer(findings, testCase.answers),
    ms,
    citedCount: cited.length,
  });
}
const mean = (values: readonly number[]): number =>
  values.reduce((sum, value) => sum + value, 0) / Math.max(values.length, 1);
const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};
const pct = (value: number): string => `${(value * 100).toFixed(1)}%`;
const answered = rows.filter((row) => row.answer !== null);
const withGold = rows.filter((row) => row.hasGold);
const lines = [
  `command: node dist/eval/hotpot-pipeline-eval.js ${argv.join(" ")}`,
  `cases: ${rows.length} (${withGold.length} with gold documents, which the recall figures average over); sources per case (K): ${sources}; model: offline; strategy: pipeline`,
  "",
  "| measure | value |",
  "|---|---|",
  `| BM25 top-${sources} gold-document recall (baseline) | ${pct(mean(withGold.map((row) => row.baseline)))} |`,
  `| pipeline: cited-source gold recall | ${pct(mean(withGold.map((row) => row.cited)))} |`,
  `| pipeline: read-source gold recall | ${pct(mean(withGold.map((row) => row.read)))} |`,
  `| pipeline: cited sources per case | ${mean(rows.map((row) => row.citedCount)).toFixed(2)} |`,
  `| pipeline: reports containing an accepted answer (excl. yes/no, ${answered.length} cases) | ${pct(mean(answered.map((row) => (row.answer ? 1 : 0))))} |`,
  `| time per research, median | ${median(rows.map((row) => row.ms)).toFixed(0)} ms |`,
  `| total | ${((performance.now() - started) / 1000).toFixed(1)} s |`,
];
process.stdout.write(`${lines.join("\n")}\n`);
baselineIndex.close();
await store.close();
rmSync(work, { recursive: true, force: true });
