/**
 * Development measurement of the offline engine on a HotpotQA-style corpus (see
 * ../shared/eval/README.md): per case, plain BM25 over the question (A) against the
 * offline engine's acquisition and extractive synthesis (B), built from the public blocks
 * (CorpusIndex, chunking, Host ids, the offline Model). Not the pipeline itself.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CorpusIndex } from "../adapters/corpus/corpus-index.js";
import { chunkContent } from "../core/chunking.js";
import { coreQueryIndex, coreReadTarget } from "../core/framing.js";
import { chunkId, sourceId } from "../core/ids.js";
import type { Model, PacketSource } from "../ports/model.js";
import { type EvalCase, parseCases } from "./cases.js";
import { containsAnswer, normalizeAnswer } from "./scoring.js";

export interface EvalOptions {
  /** Sources read per case, for (A) and (B) alike. */
  sources: number;
  /** The part of `sources` fetched from the bootstrap search before planning. */
  bootstrapSources: number;
  maxQueries: number;
  maxQueryChars: number;
  /** Characters of source text in the synthesis packet. */
  maxPacketChars: number;
  /** Hits asked of one search. */
  searchLimit: number;
}

export const DEFAULT_EVAL_OPTIONS: Readonly<EvalOptions> = Object.freeze({
  sources: 8,
  bootstrapSources: 3,
  maxQueries: 5,
  maxQueryChars: 200,
  maxPacketChars: 48_000,
  searchLimit: 30,
});

export interface CaseResult {
  id: string;
  baselineRecall: number;
  /** BM25 over the question, as many top documents as (B) cited: a size-matched baseline. */
  baselineAtCitedRecall: number;
  readRecall: number;
  citedRecall: number;
  cited: number;
  citedGold: number;
  read: number;
  facts: number;
  gaps: number;
  /** null: the case has no accepted answer. */
  answerInFacts: boolean | null;
  /** The accepted answers are all "yes"/"no", which an extractive engine cannot state. */
  yesNo: boolean;
  queries: string[];
  ms: number;
}

/** The cases of `file` (the format of docs/eval.md). Throws UserError on a bad line. */
export function loadCases(file: string): EvalCase[] {
  return parseCases(readFileSync(file, "utf8"), file);
}

/** Opens and refreshes an index of `corpus` in `folder` (a fresh temporary folder). */
export async function openIndex(corpus: string, folder: string): Promise<CorpusIndex> {
  const index = CorpusIndex.open(corpus, join(folder, "index.sqlite"));
  await index.refresh();
  return index;
}

const recall = (found: Iterable<string>, gold: readonly string[]): number => {
  if (gold.length === 0) return 0;
  const set = new Set(found);
  return gold.filter((path) => set.has(path)).length / gold.length;
};

/** Hits of several ranked lists, interleaved by rank, in list order within a rank. */
export function interleave(lists: readonly (readonly string[])[]): string[] {
  const result: string[] = [];
  const depth = Math.max(0, ...lists.map((list) => list.length));
  for (let rank = 0; rank < depth; rank++) {
    for (const list of lists) {
      const hit = list[rank];
      if (hit !== undefined) result.push(hit);
    }
  }
  return result;
}

type Documents = ReadonlyMap<string, { title: string; body: string }>;

/** All indexed documents by path. */
export function loadDocuments(index: CorpusIndex): Map<string, { title: string; body: string }> {
  const documents = new Map<string, { title: string; body: string }>();
  for (const document of index.documents())
    documents.set(document.path, { title: document.title, body: document.body });
  return documents;
}

function packetSource(n: number, path: string, documents: Documents): PacketSource {
  const document = documents.get(path) ?? { title: path, body: "" };
  const id = sourceId(n);
  return {
    id,
    title: document.title,
    location: path,
    chunks: chunkContent(document.body).map((chunk) => ({ id: chunkId(id, chunk.seq), text: chunk.text })),
  };
}

/** Drops chunks past the packet's character budget, keeping source order. */
function boundPacket(sources: readonly PacketSource[], maxChars: number): PacketSource[] {
  let room = maxChars;
  return sources.map((source) => {
    const chunks = source.chunks.filter((chunk) => {
      if (chunk.text.length > room) return false;
      room -= chunk.text.length;
      return true;
    });
    return { ...source, chunks };
  });
}

export async function evaluateCase(
  index: CorpusIndex,
  documents: Documents,
  model: Model,
  testCase: EvalCase,
  options: EvalOptions,
): Promise<CaseResult> {
  const started = performance.now();
  const search = (text: string): string[] => index.search(text, options.searchLimit).map((hit) => hit.path);
  const bootstrapHits = search(testCase.question);
  const baseline = bootstrapHits.slice(0, options.sources);

  const read: string[] = [];
  const take = (paths: readonly string[], until: number): void => {
    for (const path of paths) {
      if (read.length >= until) return;
      if (!read.includes(path)) read.push(path);
    }
  };
  take(bootstrapHits, Math.min(options.bootstrapSources, options.sources));
  const bootstrapSources = read.map((path, i) => packetSource(i + 1, path, documents));
  const timeoutMs = 10_000;
  const plan = await model.plan(
    {
      question: testCase.question,
      language: "en",
      scope: "the local folder “corpus”",
      scopeKind: "corpus",
      maxQueries: options.maxQueries,
      maxQueryChars: options.maxQueryChars,
      bootstrap: Promise.resolve(bootstrapSources),
    },
    { timeoutMs },
  );
  const queries = plan.ok ? plan.value.queries.flatMap((query) => (query.text ? [query.text] : [])) : [];
  const lists = queries.map(search);
  const remainder = bootstrapHits.slice(read.length);
  // As the pipeline does: a framed request's core gets the bootstrap's share of reading too.
  const core = lists[coreQueryIndex(testCase.question, queries)];
  if (core) take(core, Math.min(options.sources, coreReadTarget(options.bootstrapSources)));
  // Rank by rank: the planner's queries in their order, then the rest of the bootstrap ranking.
  take(interleave([...lists, remainder]), options.sources);

  const packet = boundPacket(
    read.map((path, i) => packetSource(i + 1, path, documents)),
    options.maxPacketChars,
  );
  const synthesis = await model.synthesize(
    { question: testCase.question, language: "en", scope: "", boundary: "", sources: packet },
    { timeoutMs },
  );
  const facts = synthesis.ok ? synthesis.value.facts : [];
  const pathOf = new Map(packet.map((source) => [source.id, source.location]));
  const cited = [...new Set(facts.map((fact) => pathOf.get(fact.sourceId) ?? ""))].filter((path) => path !== "");
  const gold = new Set(testCase.gold);
  const yesNo =
    testCase.answers.length > 0 && testCase.answers.every((answer) => /^(yes|no)$/i.test(normalizeAnswer(answer)));
  return {
    id: testCase.id,
    baselineRecall: recall(baseline, testCase.gold),
    baselineAtCitedRecall: recall(bootstrapHits.slice(0, cited.length), testCase.gold),
    readRecall: recall(read, testCase.gold),
    citedRecall: recall(cited, testCase.gold),
    cited: cited.length,
    citedGold: cited.filter((path) => gold.has(path)).length,
    read: read.length,
    facts: facts.length,
    gaps: synthesis.ok ? synthesis.value.gaps.length : 0,
    answerInFacts:
      testCase.answers.length === 0
        ? null
        : containsAnswer(facts.map((fact) => fact.text).join(" \n "), testCase.answers),
    yesNo,
    queries,
    ms: performance.now() - started,
  };
}

export interface Summary {
  cases: number;
  baselineRecall: number;
  baselineAtCitedRecall: number;
  readRecall: number;
  citedRecall: number;
  citedPerCase: number;
  citedPrecision: number;
  factsPerCase: number;
  answerShare: number;
  answerCases: number;
  answerShareNoYesNo: number;
  answerCasesNoYesNo: number;
  msPerCase: number;
}

const mean = (values: readonly number[]): number =>
  values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;

export function summarize(results: readonly CaseResult[]): Summary {
  const answered = results.filter((result) => result.answerInFacts !== null);
  const open = answered.filter((result) => !result.yesNo);
  const cited = results.reduce((sum, result) => sum + result.cited, 0);
  return {
    cases: results.length,
    baselineRecall: mean(results.map((result) => result.baselineRecall)),
    baselineAtCitedRecall: mean(results.map((result) => result.baselineAtCitedRecall)),
    readRecall: mean(results.map((result) => result.readRecall)),
    citedRecall: mean(results.map((result) => result.citedRecall)),
    citedPerCase: mean(results.map((result) => result.cited)),
    citedPrecision: cited === 0 ? 0 : results.reduce((sum, result) => sum + result.citedGold, 0) / cited,
    factsPerCase: mean(results.map((result) => result.facts)),
    answerShare: mean(answered.map((result) => (result.answerInFacts ? 1 : 0))),
    answerCases: answered.length,
    answerShareNoYesNo: mean(open.map((result) => (result.answerInFacts ? 1 : 0))),
    answerCasesNoYesNo: open.length,
    msPerCase: mean(results.map((result) => result.ms)),
  };
}
