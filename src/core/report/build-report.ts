/**
 * Pure builders of ReportDocuments from persisted state (seed 004 "Preliminary Artifact",
 * "ReportDocument And Public Boundary"). No ids, hashes, raw errors or schema terms reach
 * reader-facing strings.
 */

import type { WorkMetadata } from "../../ports/search-provider.js";
import type { PartAnswer } from "../answer/answer.js";
import { readableTime } from "../render/format.js";
import type { Admitted } from "../synthesis/admission.js";
import { readerLine } from "../text.js";
import { workLine } from "../works.js";
import type { EvidenceLimits } from "./evidence.js";
import { type ExcerptChunk, MIN_EXCERPT_CHARS, selectExcerpts } from "./excerpts.js";
import {
  type AnswerPart,
  REPORT_SCHEMA_VERSION,
  type ReportDocument,
  type SourceCard,
  type SourceEntry,
} from "./report-document.js";
import { citedSourceIds, synthesizedItems, type VerificationMap } from "./synthesized-items.js";

/** A persisted source as the builder sees it. */
export interface CatalogSource {
  id: string;
  title: string;
  /** What a scholarly search listed about it (discovery metadata, never evidence). */
  listedAs?: WorkMetadata;
  path?: string;
  url?: string;
  capturedAt: string;
  chunks: readonly ExcerptChunk[];
}

/** What the Host knows about acquisition, as counts (never raw errors). */
export interface AcquisitionFacts {
  searchCalls: number;
  failedSearches: number;
  /** Searches answered by only some of their providers (the others failed). */
  partialSearches: number;
  /** Results the searches returned, in all (absent in documents built before it was kept). */
  hits?: number;
  fetchAttempts: number;
  failedFetches: number;
  /** Budgets that stopped acquisition, by reader-facing name ("source limit of 8"). */
  limitsReached: readonly string[];
  /** The outer deadline cut acquisition short. */
  deadlineReached: boolean;
  /** The user stopped the run. */
  cancelled: boolean;
}

export interface BuildInput {
  question: string;
  language: string;
  /** Reader-safe description of the evidence scope. */
  scope: string;
  sources: readonly CatalogSource[];
  /** Reader-safe renderings of the queries that were run. */
  attemptedQueries: readonly string[];
  acquisition: AcquisitionFacts;
  /** preliminary: synthesis pending; final: no synthesis produced findings. */
  phase: "preliminary" | "final";
  generatedAt: string;
  excerptCharsPerSource: number;
  excerptCharsTotal: number;
  /**
   * Numbers the sources must keep (by source id): a follow-up's or a revision's sources carried
   * over from its parent keep the parent report's numbers; the others are numbered after them.
   */
  sourceNumbers?: ReadonlyMap<string, number>;
  /** Admitted synthesis proposals, when a synthesis ran, and how the strategy checked each fact (by fact id). */
  synthesis?: { admitted: Admitted; producedBy?: string; verification?: VerificationMap };
  /**
   * How the facts answer each part of the question (`answerQuestion`, keyed by fact id), and
   * what to say of a part they do not answer: the answer block, and the facts that answer
   * become the direct findings, in the order of the parts.
   */
  answer?: { parts: readonly PartAnswer[]; statementOf: (part: PartAnswer) => string };
}

const TITLE_CHARS = 200;

/** The public excerpt limits: source cards and the quotes under findings both come out of them. */
const limitsOf = (input: BuildInput): EvidenceLimits => ({
  perSource: input.excerptCharsPerSource,
  total: input.excerptCharsTotal,
});

function entry(source: CatalogSource, number: number): SourceEntry {
  return {
    id: source.id,
    number,
    title: readerLine(source.title, TITLE_CHARS) || "Untitled document",
    ...(source.path === undefined ? {} : { path: source.path }),
    ...(source.url === undefined ? {} : { url: source.url }),
    capturedAt: source.capturedAt,
    ...listing(source.listedAs),
  };
}

/** A work's listing as the report carries it: bounded reader text, and only what was listed. */
function listing(work: WorkMetadata | undefined): Pick<SourceEntry, "listedAs"> {
  if (!work) return {};
  const line = readerLine(workLine(work), 300);
  return line === "" ? {} : { listedAs: line };
}

/**
 * The reference number of each source, cited ones first: 1..n in that order, or, with `fixed`
 * numbers, those, and the rest numbered after the highest of them.
 */
function numbering(ordered: readonly CatalogSource[], fixed?: ReadonlyMap<string, number>): Map<string, number> {
  const numbers = new Map<string, number>();
  let next = Math.max(0, ...(fixed?.values() ?? [])) + 1;
  for (const source of ordered) numbers.set(source.id, fixed?.get(source.id) ?? next++);
  return numbers;
}

/** The ledger entries of `sources`, in number order. */
function entries(sources: readonly CatalogSource[], numbers: ReadonlyMap<string, number>): SourceEntry[] {
  return sources.map((source) => entry(source, numbers.get(source.id) ?? 0)).sort((a, b) => a.number - b.number);
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** The queries run, each once (a query run twice, by two sub-agents or on a retry, is one line), in first-run order. */
function queriesRun(queries: readonly string[]): string[] {
  return [...new Set(queries.map((query) => readerLine(query, 300)).filter(Boolean))];
}

/** Reader-safe sentences about what limited acquisition. */
export function describeBoundaries(facts: AcquisitionFacts): string[] {
  const lines: string[] = [];
  if (facts.failedSearches > 0) {
    lines.push(`${facts.failedSearches} of ${plural(facts.searchCalls, "search", "searches")} could not be completed.`);
  }
  if (facts.partialSearches > 0) {
    lines.push(
      `${facts.partialSearches} of ${plural(facts.searchCalls, "search", "searches")} ${facts.partialSearches === 1 ? "was" : "were"} answered by only some of ${facts.partialSearches === 1 ? "its" : "their"} search providers: the others failed (assay runs show names them).`,
    );
  }
  if (facts.failedFetches > 0) {
    lines.push(`${facts.failedFetches} of ${plural(facts.fetchAttempts, "document")} could not be read.`);
  }
  for (const limit of facts.limitsReached) {
    const what = /generation|model turns|^cost limit/.test(limit) ? "Model work stopped" : "Reading stopped";
    lines.push(`${what} at the ${readerLine(limit, 120)}.`);
  }
  if (facts.deadlineReached) lines.push("The time limit was reached before all planned reading was done.");
  if (facts.cancelled) lines.push("The research was stopped by the user before all planned reading was done.");
  return lines;
}

const upperFirst = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

function readPeriod(from: string, until: string): string {
  const a = readableTime(from);
  const b = readableTime(until);
  return a === b ? `at ${a}` : `between ${a} and ${b}`;
}

function boundary(input: BuildInput): ReportDocument["boundary"] {
  const times = input.sources.map((source) => source.capturedAt).sort();
  const from = times[0];
  const until = times.at(-1);
  const scope = readerLine(input.scope, 300);
  const statement =
    from === undefined || until === undefined
      ? `${upperFirst(scope)}. No source was read.`
      : `${upperFirst(scope)}, read ${readPeriod(from, until)}. Read times say when Assay read the sources, not when they were written.`;
  return {
    scope,
    ...(from === undefined ? {} : { capturedFrom: from }),
    ...(until === undefined ? {} : { capturedUntil: until }),
    statement,
  };
}

function notice(input: BuildInput): string {
  if (input.sources.length === 0 && input.attemptedQueries.length === 0) {
    return "No evidence: the research stopped before any search ran, so this report has no findings.";
  }
  if (
    input.sources.length === 0 &&
    input.acquisition.searchCalls > 0 &&
    input.acquisition.failedSearches === input.acquisition.searchCalls
  ) {
    return "No evidence: the searches could not be completed, so this report has no findings.";
  }
  // The true reason: nothing in scope matched, or what matched could not be read.
  if (input.sources.length === 0 && input.acquisition.hits === 0) {
    return `No evidence: the ${input.acquisition.searchCalls === 1 ? "search" : `${input.acquisition.searchCalls} searches`} found nothing in ${readerLine(input.scope, 200)}, so this report has no findings.`;
  }
  if (input.sources.length === 0 && input.acquisition.fetchAttempts === 0) {
    return "No evidence: the searches found documents, but none was read before the research stopped, so this report has no findings.";
  }
  if (input.sources.length === 0) {
    return "No evidence: no document that the searches found could be read, so this report has no findings.";
  }
  if (input.phase === "preliminary") {
    return "Preliminary report: these are verbatim excerpts from the sources read so far, not conclusions. The synthesis of findings is still pending and will replace this page when it is ready.";
  }
  if (input.synthesis) {
    return "Source-backed report: the synthesis proposed no finding that passed Assay's checks, so this report shows verbatim excerpts from the sources that were read. The excerpts are evidence to read, not conclusions.";
  }
  return "Source-backed report: no synthesis of findings is available for this run, so this report shows verbatim excerpts from the sources that were read. The excerpts are evidence to read, not conclusions.";
}

/**
 * Builds a preliminary, source-backed or no-evidence document. Excerpts are bounded per
 * source and globally; sources left without an excerpt are listed as reviewed. Pure.
 */
export function buildReport(input: BuildInput): ReportDocument {
  const admitted = input.synthesis?.admitted;
  const published = admitted
    ? admitted.facts.length + admitted.derivations.length + admitted.recommendations.length
    : 0;
  if (!admitted || published === 0) {
    const fallback = buildSourceBackedReport(input);
    if (!admitted || admitted.gaps.length === 0) return fallback;
    // No finding survived: keep the excerpts, and still say what the synthesis found missing.
    const numberOf = new Map(
      [...fallback.sources, ...fallback.reviewedSources].map((entry) => [entry.id, entry.number]),
    );
    const related = admitted.gaps.filter((gap) => gap.relatedSourceIds.every((id) => numberOf.has(id)));
    return {
      ...fallback,
      gaps: synthesizedItems({ ...admitted, gaps: related }, [], (id) => numberOf.get(id) ?? 0, limitsOf(input)).gaps,
    };
  }
  const byId = new Map(input.sources.map((source) => [source.id, source]));
  // Where no sentence read bears on any part of the question (every part `not-said`), what was read
  // is no finding about it: listing it would pad a report that answers nothing. Only the facts a
  // derivation or a recommendation rests on stay.
  const parts = input.answer?.parts ?? [];
  const premises = new Set([...admitted.derivations, ...admitted.recommendations].flatMap((item) => item.premiseIds));
  const bearing =
    parts.length > 0 && parts.every((part) => part.status === "not-said")
      ? admitted.facts.filter((fact) => premises.has(fact.id))
      : admitted.facts;
  const verification = input.synthesis?.verification ?? new Map();
  const cited = citedSourceIds({ ...admitted, facts: bearing }, verification)
    .map((id) => byId.get(id))
    .filter((source): source is CatalogSource => source !== undefined);
  const reviewed = input.sources.filter((source) => !cited.includes(source));
  const numberOf = numbering([...cited, ...reviewed], input.sourceNumbers);
  // The facts that answer the question come first, in the order of its parts: they are the direct findings.
  const answering = [
    ...new Set(
      parts.flatMap((part) =>
        [...part.uses].sort((a, b) => Number(a.role === "bridge") - Number(b.role === "bridge")).map((use) => use.key),
      ),
    ),
  ].filter((id) => admitted.facts.some((fact) => fact.id === id));
  const facts = [
    ...answering.flatMap((id) => bearing.filter((fact) => fact.id === id)),
    ...bearing.filter((fact) => !answering.includes(fact.id)),
  ];
  const items = synthesizedItems(
    { ...admitted, facts },
    input.sources,
    (id) => numberOf.get(id) ?? 0,
    limitsOf(input),
    verification,
    directCount(input.answer?.parts, answering.length),
  );
  const findingOf = new Map(facts.map((fact, index) => [fact.id, index + 1]));
  const answer = input.answer
    ? input.answer.parts.map(
        (part): AnswerPart => ({
          asked: readerLine(part.part.asked, 600),
          kind: part.part.kind,
          status: part.status,
          findings: part.uses.flatMap((use) => {
            const number = findingOf.get(use.key);
            if (number === undefined) return [];
            const text =
              [...items.directFindings, ...items.findings].find((item) => item.number === number)?.text ?? "";
            return [{ number, role: use.role, ...(use.mark && text.includes(use.mark) ? { mark: use.mark } : {}) }];
          }),
          ...(part.status === "answered" ? {} : { statement: input.answer?.statementOf(part) ?? "" }),
          relatedSources: part.related
            .map((id) => numberOf.get(id))
            .filter((n): n is number => n !== undefined && n > 0),
        }),
      )
    : undefined;
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    status: "synthesized",
    preliminary: false,
    title: readerLine(input.question, TITLE_CHARS),
    question: readerLine(input.question, 2_000),
    language: input.language,
    notice: synthesizedNotice(),
    boundary: boundary(input),
    ...(input.synthesis?.producedBy ? { producedBy: input.synthesis.producedBy } : {}),
    ...(answer ? { answer } : {}),
    ...items,
    sourceCards: [],
    attemptedQueries: queriesRun(input.attemptedQueries),
    acquisitionBoundaries: describeBoundaries(input.acquisition),
    sources: entries(cited, numberOf),
    reviewedSources: entries(reviewed, numberOf),
    generatedAt: input.generatedAt,
  };
}

/**
 * How many of the first findings are direct: those that answer a part of the question (none
 * when no finding answers any part); the strategy's first few when the answer is not known.
 */
function directCount(parts: readonly PartAnswer[] | undefined, answering: number): number | undefined {
  return parts && parts.length > 0 ? answering : undefined;
}

function synthesizedNotice(): string {
  return "Synthesized report: every finding cites the passages it comes from, and the words it rests on are quoted under it (as far as the report's excerpt limits allow). Assay checked the structure of each finding (its sources and passages exist), not whether it is true: read the quoted passages before relying on it.";
}

/** The source-backed (or no-evidence) document: bounded verbatim excerpts, no findings. */
export function buildSourceBackedReport(input: BuildInput): ReportDocument {
  const cards: SourceCard[] = [];
  const cited: CatalogSource[] = [];
  const reviewed: CatalogSource[] = [];
  let room = input.excerptCharsTotal;
  for (const source of input.sources) {
    if (room < MIN_EXCERPT_CHARS) {
      // The global excerpt budget is spent: no need to rank this source's passages.
      reviewed.push(source);
      continue;
    }
    const excerpts = selectExcerpts(input.question, source.chunks, Math.min(input.excerptCharsPerSource, room));
    if (excerpts.length === 0) {
      reviewed.push(source);
      continue;
    }
    room -= excerpts.reduce((total, excerpt) => total + excerpt.text.length, 0);
    cards.push({ sourceId: source.id, excerpts });
    cited.push(source);
  }
  const question = readerLine(input.question, 2_000);
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    status: cited.length > 0 ? "source-backed" : "no-evidence",
    preliminary: input.phase === "preliminary" && input.sources.length > 0,
    title: readerLine(input.question, TITLE_CHARS),
    question,
    language: input.language,
    notice: notice(input),
    boundary: boundary(input),
    directFindings: [],
    findings: [],
    recommendations: [],
    gaps: [],
    sourceCards: cards,
    attemptedQueries: queriesRun(input.attemptedQueries),
    acquisitionBoundaries: describeBoundaries(input.acquisition),
    sources: entries(cited, numbering([...cited, ...reviewed], input.sourceNumbers)),
    reviewedSources: entries(reviewed, numbering([...cited, ...reviewed], input.sourceNumbers)),
    generatedAt: input.generatedAt,
  };
}
