/**
 * Extractive synthesis of the offline engine (pure, deterministic). Every sentence of the
 * packet is scored against the request: its terms weighted by their rarity among the
 * packet's sentences (IDF), a bonus for the request's names and numbers, context from the
 * source's title, and a second pass that also rewards the names the best sentences bring
 * in (the bridge of a two-hop question). The best sentences are proposed as facts, quoted
 * verbatim (whitespace collapsed only). Terms of the request that no sentence mentions
 * become gaps. Nothing is derived or recommended: an extractive engine cannot derive.
 */

import { answerQuestion } from "../../../core/answer/answer.js";
import { HEADING_SEPARATOR } from "../../../core/chunking.js";
import { isMetadataLine, metadataMeaning } from "../../../core/doc-metadata.js";
import type { Judge } from "../../../core/judgment/judge.js";
import { isContent } from "../../../core/judgment/statement.js";
import { hasVerb, isVerbLike, namesIn, normalizePhrase, stemSet } from "../../../core/lexicon.js";
import { isRecordLine } from "../../../core/records.js";
import { type SentenceSpan, splitSentences } from "../../../core/sentences.js";
import { readerTextProblem } from "../../../core/synthesis/admission.js";
import type { FactProposal, SynthesisOutput } from "../../../core/synthesis/proposals.js";
import { contentWords, collapseWhitespace as squeezed } from "../../../core/text.js";
import type { PacketSource } from "../../../ports/model.js";
import { englishJudge } from "../../language/english-judge.js";
import { answerShapes, shapeLift, shapesOf } from "./answer-shape.js";
import { gapsFor, mentionsOf } from "./gaps.js";
import { profileRequest, type RequestProfile } from "./request.js";

export interface ExtractionLimits {
  maxFacts: number;
  maxFactsPerSource: number;
  maxGaps: number;
}

export const DEFAULT_EXTRACTION_LIMITS: Readonly<ExtractionLimits> = Object.freeze({
  maxFacts: 8,
  maxFactsPerSource: 2,
  maxGaps: 4,
});

/** A sentence below this share of the best score is not proposed. */
const RELATIVE_FLOOR = 0.2;
/** Stem overlap (Jaccard) from which two sentences count as near-duplicates. */
const DUPLICATE_OVERLAP = 0.6;
/** Sentences that contribute bridge names in the second pass. */
const BRIDGE_SENTENCES = 3;
/** How much of the weight of the request's terms its section's headings give a sentence. */
const SECTION_WEIGHT = 0.3;

interface Candidate {
  sourceId: string;
  /** Position of the source in the packet (its reading order): ties are broken by it, not by its id. */
  sourceOrder: number;
  chunkId: string;
  position: number;
  /** Position of the first sentence quoted: the one before `position` when the sentence points back to it. */
  first: number;
  text: string;
  normalized: string;
  stems: Set<string>;
  /** First sentence of its source that is not a heading: usually says what the source is about. */
  lead: boolean;
  quality: number;
  /** Its source's title, as written. */
  title: string;
  titleStems: Set<string>;
  /** Stems of the headings the passage stands under (its section), when its document has them. */
  sectionStems: Set<string>;
  /** The headings the passage stands under, as its document writes them ("" when none). */
  section: string;
  /** For a metadata line quoted after its heading: the stems of that heading and of what the line names after its colon. */
  about?: Set<string>;
  /** Stems of the title without a trailing qualifier: "Strandloper (novel)" -> strandloper. */
  subjectStems: Set<string>;
  /** Extra score of a source whose subject a best sentence of another source names (a bridge). */
  boost: number;
  /**
   * The parts of the request the text answers itself: its salient terms (names, numbers) the text
   * holds ("term:2020") and the answer shapes asked that the text has ("shape:cause").
   */
  answers: string[];
  /** How much more the text is worth for having them, or for its section's heading giving them (`shapeLift`). */
  shape: number;
  score: number;
}

/** What a metadata line ("New in version 3.5.") is worth: short and verbless, but a whole statement about its section. */
const METADATA_QUALITY = 0.8;

/** How much a sentence is worth quoting, whatever it says: 0 (never) to 1. */
function quality(text: string, standalone: boolean, listItem: boolean, headings: readonly string[]): number {
  if (readerTextProblem(text) !== undefined) return 0;
  if (!isContent(text, listItem, headings)) return 0;
  if (isMetadataLine(text)) return METADATA_QUALITY;
  // Table rows (cells joined by " | ") are not sentences a reader can check on their own.
  if ((text.match(/ \| /g) ?? []).length >= 2) return 0;
  // A spreadsheet row with its headers ("Year: 2024; Price: 115") states its values on its own, not
  // as a heading; it says less than a sentence with a verb, and weighs as one without.
  if (isRecordLine(text)) return 0.5;
  const words = text.split(" ").length;
  let factor = 1;
  if (words < 4) factor *= 0.2;
  else if (words < 7) factor *= 0.6;
  else if (words > 70) factor *= 0.6;
  if (standalone) factor *= 0.15;
  if (listItem) factor *= 0.7;
  if (!hasVerb(text)) factor *= 0.5;
  return factor;
}

/**
 * Openers that point back to what came before ("He built…", "This meant…", "However, …"): such
 * a sentence says nothing checkable without the sentence it depends on.
 */
const POINTS_BACK =
  /^(?:he|she|it|they|this|these|those|his|her|its|their|however|therefore|thus|hence|moreover|furthermore|nevertheless|consequently|instead|meanwhile|such)\b/i;

/** An "it" that points forward, to the clause it introduces. */
const EXPLETIVE_IT =
  /^it\s+(?:is|was|has been|had been|will be|would be|seems|seemed|appears|appeared|remains|remained)\s+(?:[\p{L}-]+\s+){0,3}?(?:that|to|whether|until|when|how|why)\b/iu;

/**
 * A possessive in an opening phrase whose owner the sentence names right after it: "In its 2020
 * survey, BNEF reported…" (the pronoun points forward, to BNEF).
 */
const POINTS_FORWARD = /^(?:\S+\s+){0,2}?(?:its|his|her|their)\s[^,.;:]{1,60},\s+\p{Lu}[\p{L}\p{N}-]*\s+\p{Ll}/u;

/** A personal pronoun early in a sentence ("In 1985 he built…"), with what comes before it. */
const EARLY_PRONOUN = /^((?:\S+\s+){0,5}?)(?:he|she|him|his|her|it|its|they|them|their)\b/i;

/**
 * Whether `sentence` depends on the one before it: it opens on a word that points back, or a
 * personal pronoun comes in its first words with no name before it to refer to.
 */
export function pointsBack(sentence: string): boolean {
  const text = sentence.replace(/^["“‘(]+/u, "");
  // "It is false that…", "It was not until…": an "it" that stands for the clause after it.
  if (EXPLETIVE_IT.test(text)) return false;
  if (POINTS_BACK.test(text)) return true;
  if (POINTS_FORWARD.test(text)) return false;
  const early = EARLY_PRONOUN.exec(text);
  if (!early) return false;
  // A capitalised word that opens the sentence and is followed by its verb is the subject the
  // pronoun refers to ("Norland gets 23 percent of its electricity …"), though it opens the sentence.
  const subjectVerb = /^\p{Lu}[\p{L}-]+\s+(\p{Ll}+)\b/u.exec(early[1] ?? "")?.[1];
  if (
    subjectVerb !== undefined &&
    (isVerbLike(subjectVerb) || /[^s]s$/.test(subjectVerb)) &&
    contentWords(text.split(/\s/)[0] ?? "").length > 0
  )
    return false;
  return !namesIn(early[1] ?? "").some((name) => !name.initial || name.text.includes(" "));
}

/** Sentences quoted back from a sentence that points back, to reach the one it refers to. */
const MAX_BACK = 2;

/**
 * Where the sentence at `position` (which points back) should be quoted from: the nearest
 * earlier sentence of its passage that does not point back itself, within `MAX_BACK`, with no
 * heading or list item between; undefined when there is none.
 */
function antecedent(sentences: readonly SentenceSpan[], position: number): number | undefined {
  for (let from = position - 1; from >= Math.max(0, position - MAX_BACK); from--) {
    const earlier = sentences[from];
    if (!earlier || earlier.standalone || earlier.listItem) return undefined;
    if (!pointsBack(earlier.text)) return from;
  }
  return undefined;
}

/** The innermost heading of a section's path ("Exceptions › json.JSONDecodeError(…)" -> "json.JSONDecodeError(…)"). */
const innermostHeading = (section: string | undefined): string =>
  (section?.split(HEADING_SEPARATOR).at(-1) ?? "").replace(/^…$/, "").trim();

/**
 * A metadata line says what it says of its section's heading ("New in version 3.5." of
 * "exception json.JSONDecodeError(msg, doc, pos)"): it is quoted after that heading, so the
 * reader knows what it is about; other sentences as they stand.
 */
const withHeading = (text: string, section: string | undefined): string => {
  const heading = innermostHeading(section);
  return heading && isMetadataLine(text) ? `${heading}: ${text}` : text;
};

function candidatesOf(sources: readonly PacketSource[]): Candidate[] {
  const candidates: Candidate[] = [];
  for (const [sourceOrder, source] of sources.entries()) {
    const titleStems = stemSet(source.title);
    const subjectStems = stemSet(source.title.replace(/\s*\([^)]*\)\s*$/, ""));
    let leadSeen = false;
    for (const chunk of source.chunks) {
      const sentences = splitSentences(chunk.text);
      const sectionStems = stemSet(chunk.section ?? "");
      // The headings around the innermost one, for a line quoted after that innermost heading.
      const outerStems = stemSet(chunk.section?.split(HEADING_SEPARATOR).slice(0, -1).join(" ") ?? "");
      sentences.forEach((sentence, position) => {
        const lead = !leadSeen && !sentence.standalone && sentence.text.split(" ").length >= 4;
        if (lead) leadSeen = true;
        // A sentence that points back is quoted from the sentence it refers to (one verbatim span of
        // the passage, at most two sentences back), or not at all when its passage has none.
        const back = pointsBack(sentence.text);
        const from = back ? antecedent(sentences, position) : position;
        const joined = from !== undefined && from < position;
        const quoted = joined ? squeezed(chunk.text.slice(sentences[from]?.start, sentence.end)) : sentence.text;
        // A metadata line quoted after its heading carries the heading's words itself; one with no
        // heading to quote it after says nothing a reader can use ("New in version 3.4.").
        const text = withHeading(quoted, chunk.section);
        const headless = text === quoted && isMetadataLine(quoted);
        // A sentence that is no content (a heading, one about the document itself) is none quoted after
        // the sentence it points back to either ("…for speed. This article introduces…").
        const headings = [source.title, chunk.section ?? ""];
        const worth =
          from === undefined || headless || (joined && !isContent(sentence.text, sentence.listItem, headings))
            ? 0
            : quality(quoted, sentence.standalone, sentence.listItem, headings);
        candidates.push({
          sourceId: source.id,
          sourceOrder,
          chunkId: chunk.id,
          position,
          first: from ?? position,
          text,
          normalized: ` ${normalizePhrase(text)} `,
          // "New in version 3.5" says the thing was added then: a question asks it in those words.
          stems: stemSet(`${text} ${metadataMeaning(quoted)}`),
          lead,
          quality: worth,
          title: source.title,
          titleStems,
          sectionStems: text === quoted ? sectionStems : outerStems,
          section: chunk.section ?? "",
          ...(text === quoted
            ? {}
            : { about: stemSet(`${innermostHeading(chunk.section)} ${quoted.slice(quoted.indexOf(":") + 1)}`) }),
          subjectStems,
          boost: 0,
          answers: [],
          shape: 0,
          score: 0,
        });
      });
    }
  }
  return candidates;
}

type Weights = ReadonlyMap<string, number>;

/** Inverse document frequency of each stem over the packet's sentences. */
function idfOf(candidates: readonly Candidate[]): (term: string) => number {
  const df = new Map<string, number>();
  for (const candidate of candidates) for (const term of candidate.stems) df.set(term, (df.get(term) ?? 0) + 1);
  const total = candidates.length;
  return (term) => Math.log(1 + total / (1 + (df.get(term) ?? 0)));
}

const overlapScore = (stems: ReadonlySet<string>, weights: Weights): number => {
  let score = 0;
  for (const [term, weight] of weights) if (stems.has(term)) score += weight;
  return score;
};

const NONE: Weights = new Map();

function scoreAll(
  candidates: Candidate[],
  subject: ReadonlySet<string>,
  weightsOf: (sourceId: string) => Weights,
  phrases: readonly [string, number][],
  lentOf: (sourceId: string) => Weights = () => NONE,
): void {
  for (const candidate of candidates) {
    const weights = weightsOf(candidate.sourceId);
    // A metadata line is about its heading (and what it names): about nothing the request asks, it answers nothing.
    if (candidate.about && ![...subject].some((term) => candidate.about?.has(term))) {
      candidate.score = 0;
      continue;
    }
    // The words its title lends a source count in its sentences, not as the title's own match.
    let match = overlapScore(candidate.stems, weights) + overlapScore(candidate.stems, lentOf(candidate.sourceId));
    for (const [phrase, bonus] of phrases) if (candidate.normalized.includes(phrase)) match += bonus;
    const related = match > 0 || candidate.lead;
    const title = overlapScore(candidate.titleStems, weights);
    // The headings a passage stands under say what each of its sentences is about.
    const section = overlapScore(candidate.sectionStems, weights);
    const context = related ? title * (candidate.lead ? 0.6 : 0.3) + section * SECTION_WEIGHT : 0;
    const bridge = related ? candidate.boost * (candidate.lead ? 1 : 0.5) : 0;
    candidate.score = (match + context + bridge) * candidate.quality * (1 + candidate.shape);
  }
}

const subset = (inner: ReadonlySet<string>, outer: ReadonlySet<string>): boolean =>
  [...inner].every((term) => outer.has(term));

/**
 * Marks bridge sources: a source whose subject (its title) one of the best sentences of
 * another source names, and the request does not. Its sentences, its lead above all, say
 * what the second hop of a two-hop question needs ("... by Engelbert Humperdinck" ->
 * "Engelbert Humperdinck is an English pop singer").
 */
function markBridges(
  candidates: readonly Candidate[],
  best: readonly Candidate[],
  request: ReadonlySet<string>,
  idf: (term: string) => number,
): void {
  const top = best[0]?.score ?? 0;
  if (top <= 0) return;
  const strength = new Map<string, number>();
  for (const candidate of candidates) {
    if (strength.has(candidate.sourceId)) continue;
    const subject = candidate.subjectStems;
    let value = 0;
    if (subject.size > 0 && !subset(subject, request)) {
      for (const sentence of best) {
        if (sentence.sourceId !== candidate.sourceId && subset(subject, sentence.stems)) {
          value = Math.max(value, sentence.score / top);
        }
      }
    }
    strength.set(candidate.sourceId, value * [...subject].reduce((sum, term) => sum + idf(term), 0));
  }
  for (const candidate of candidates) candidate.boost = strength.get(candidate.sourceId) ?? 0;
}

/** Share of the request's weight a source's title must carry for its other words to count as the request's. */
const TITLE_COVERAGE = 0.3;
/** How much of its rarity a title's own word (not the request's) weighs in its source's sentences. */
const TITLE_WORD_WEIGHT = 0.75;

/**
 * The words a source's title uses beside the request's, when that title names a good part of what
 * the request asks (`TITLE_COVERAGE` of its weight: "The Great Price Collapse: … Falling
 * Lithium-Ion Battery Costs" for "How did lithium-ion battery costs change…"): the source's own
 * words for the subject ("price", "fall"), which weigh in its sentences (and only there) at a
 * share of their rarity. Numbers are left out: a year in a title is not in every sentence under it.
 */
function titleWords(
  candidates: readonly Candidate[],
  request: Weights,
  idf: (term: string) => number,
): Map<string, [string, number][]> {
  const total = [...request.values()].reduce((sum, weight) => sum + weight, 0);
  const words = new Map<string, [string, number][]>();
  if (total <= 0) return words;
  for (const candidate of candidates) {
    if (words.has(candidate.sourceId)) continue;
    const covered = overlapScore(candidate.titleStems, request) / total;
    const own = [...candidate.titleStems].filter((term) => !request.has(term) && !/^\d+$/.test(term));
    words.set(
      candidate.sourceId,
      covered >= TITLE_COVERAGE ? own.map((term) => [term, TITLE_WORD_WEIGHT * idf(term)] as [string, number]) : [],
    );
  }
  return words;
}

const byScore = (a: Candidate, b: Candidate): number =>
  b.score - a.score ||
  a.sourceOrder - b.sourceOrder ||
  (a.chunkId < b.chunkId ? -1 : a.chunkId > b.chunkId ? 1 : 0) ||
  a.position - b.position;

function requestWeights(profile: RequestProfile, idf: (term: string) => number): Map<string, number> {
  return new Map(profile.stems.map((term) => [term, idf(term) * (profile.salient.has(term) ? 1.5 : 1)]));
}

/**
 * Names in the best sentences that the request does not mention, as extra weighted terms, each
 * with the sources whose sentences named it: a bridge leads to another source, so a name adds
 * nothing to the sentences of the only source that names it (a sentence full of names would
 * otherwise lift itself).
 */
function bridgeTerms(
  best: readonly Candidate[],
  request: Weights,
  idf: (term: string) => number,
): Map<string, { weight: number; sources: Set<string> }> {
  const bridge = new Map<string, { weight: number; sources: Set<string> }>();
  for (const candidate of best) {
    for (const name of namesIn(candidate.text)) {
      for (const term of stemSet(name.text)) {
        if (request.has(term) || candidate.titleStems.has(term)) continue;
        const entry = bridge.get(term) ?? { weight: 0.5 * idf(term), sources: new Set<string>() };
        entry.sources.add(candidate.sourceId);
        bridge.set(term, entry);
      }
    }
  }
  return bridge;
}

const jaccard = (a: ReadonlySet<string>, b: ReadonlySet<string>): number => {
  let shared = 0;
  for (const term of a) if (b.has(term)) shared++;
  const union = a.size + b.size - shared;
  return union === 0 ? 1 : shared / union;
};

/** `a` quotes every sentence `b` quotes, and more (b's sentence and the one that points back to it). */
const covers = (a: Candidate, b: Candidate): boolean =>
  a.chunkId === b.chunkId &&
  a.first <= b.first &&
  a.position >= b.position &&
  a.position - a.first > b.position - b.first;

/** Two candidates quote a sentence in common (one points back to the other's sentence). */
const overlaps = (a: Candidate, b: Candidate): boolean =>
  a.chunkId === b.chunkId && a.first <= b.position && b.first <= a.position;

/** Whether `sentence` answers a part of the request (`answers`) that none of `chosen` answers. */
export function answersMore(
  sentence: { answers: readonly string[] },
  chosen: readonly { answers: readonly string[] }[],
): boolean {
  return sentence.answers.some((part) => !chosen.some((other) => other.answers.includes(part)));
}

/**
 * `ranked` in the order a selection should consider it: first each sentence that answers a part
 * of the request no sentence before it here answers (best first: the 97 percent fall for
 * "1991", the 2020 pack price for "2020", a "because" for "why"), then the others as ranked. One
 * sentence per part of the question before a second on any, whatever their scores.
 */
export function answersFirst<T extends { answers: readonly string[] }>(ranked: readonly T[]): T[] {
  const first: T[] = [];
  const rest: T[] = [];
  for (const sentence of ranked) (answersMore(sentence, first) ? first : rest).push(sentence);
  return [...first, ...rest];
}

function selectFacts(ranked: readonly Candidate[], limits: ExtractionLimits): Candidate[] {
  const best = ranked[0]?.score ?? 0;
  if (best <= 0) return [];
  const chosen: Candidate[] = [];
  const perSource = new Map<string, number>();
  for (const candidate of answersFirst(ranked.filter((candidate) => candidate.score >= best * RELATIVE_FLOOR))) {
    if (chosen.length >= limits.maxFacts) break;
    // A sentence chosen alone gives way to the same sentence quoted with the one that points back to it.
    const covered = chosen.findIndex((other) => covers(candidate, other));
    if (covered >= 0) {
      chosen[covered] = candidate;
      continue;
    }
    // A source past its share still gives a finding that answers a part of the request nothing chosen answers.
    if ((perSource.get(candidate.sourceId) ?? 0) >= limits.maxFactsPerSource && !answersMore(candidate, chosen))
      continue;
    if (
      chosen.some((other) => jaccard(other.stems, candidate.stems) >= DUPLICATE_OVERLAP || overlaps(other, candidate))
    )
      continue;
    chosen.push(candidate);
    perSource.set(candidate.sourceId, (perSource.get(candidate.sourceId) ?? 0) + 1);
  }
  // Chosen one per part of the request first; proposed best first.
  return chosen.sort(byScore);
}

export interface RankedSentence {
  sourceId: string;
  chunkId: string;
  /** Position of the sentence in its chunk. */
  position: number;
  text: string;
  score: number;
  /** The parts of the request it answers itself (`Candidate.answers`). */
  answers: string[];
}

function rank(profile: RequestProfile, candidates: Candidate[]): Candidate[] {
  const shapes = answerShapes(profile.core);
  for (const candidate of candidates) {
    // What the sentence says itself answers a part of the request; its heading only lifts it.
    candidate.answers = [
      ...[...profile.salient].filter((term) => candidate.stems.has(term)).map((term) => `term:${term}`),
      ...[...shapesOf(candidate.text, shapes)].map((shape) => `shape:${shape}`),
    ];
    candidate.shape = shapeLift(shapesOf(candidate.text, shapes, candidate.section), shapes);
  }
  const idf = idfOf(candidates);
  const weights = requestWeights(profile, idf);
  // What the request asks about: its names, numbers and code names, else all its terms.
  const subject = profile.salient.size > 0 ? profile.salient : new Set(profile.stems);
  const phrases = profile.names
    .map((name): [string, number] => {
      const terms = [...stemSet(name)];
      return [` ${normalizePhrase(name)} `, 0.5 * terms.reduce((sum, term) => sum + idf(term), 0)];
    })
    .filter(([phrase]) => phrase.trim().includes(" "));
  scoreAll(candidates, subject, () => weights, phrases);
  const firstPass = [...candidates].sort(byScore).filter((candidate) => candidate.score > 0);
  const best = firstPass.slice(0, BRIDGE_SENTENCES);
  markBridges(candidates, best, new Set(profile.stems), idf);
  const bridge = [...bridgeTerms(best, weights, idf)];
  const titled = titleWords(candidates, weights, idf);
  const bySource = new Map<string, Weights>();
  const weightsOf = (sourceId: string): Weights => {
    let own = bySource.get(sourceId);
    if (!own) {
      const leading = bridge.filter(([, entry]) => [...entry.sources].some((source) => source !== sourceId));
      own = new Map([...weights, ...leading.map(([term, entry]) => [term, entry.weight] as const)]);
      bySource.set(sourceId, own);
    }
    return own;
  };
  const lent = new Map<string, Weights>();
  const lentOf = (sourceId: string): Weights => {
    let own = lent.get(sourceId);
    if (!own) {
      own = new Map((titled.get(sourceId) ?? []).filter(([term]) => !weightsOf(sourceId).has(term)));
      lent.set(sourceId, own);
    }
    return own;
  };
  scoreAll(candidates, subject, weightsOf, phrases, lentOf);
  return candidates.filter((candidate) => candidate.score > 0).sort(byScore);
}

/**
 * A sentence the ranking scored nothing because it shares nothing with the question, not because
 * it is no content, points back to nothing, or is a metadata line about another entry.
 */
const unscored = (candidate: Candidate): boolean =>
  !(candidate.score > 0) && candidate.quality > 0 && candidate.about === undefined;

/** The ranked sentences, then every other of `candidates` that is only `unscored`. */
const withUnscored = (ranked: readonly Candidate[], candidates: readonly Candidate[]): Candidate[] => [
  ...ranked,
  ...candidates.filter(unscored),
];

/**
 * The sentences that answer a part of `question` (core/answer, over the sentences of the packet
 * as quoted, with what they stand under) first, in the order of the parts, then `selected`; at
 * most `limits.maxFacts`, or as many as answer. A sentence that only bears on the question's words
 * comes after every one that answers it. The sentences the ranking scored nothing only because
 * they share no word of the question are offered too (`unscored`): a passage that answers a why
 * may write the cause in one ("The answer turned out to be ethylene carbonate (EC).").
 */
function answeringFirst(
  question: string,
  offerable: readonly Candidate[],
  selected: readonly Candidate[],
  limits: ExtractionLimits,
  judge: Judge | undefined,
): Candidate[] {
  const key = (candidate: Candidate): string => `${candidate.chunkId}:${candidate.position}`;
  const byKey = new Map(offerable.map((candidate) => [key(candidate), candidate]));
  const offered = offerable.map((candidate) => ({
    key: key(candidate),
    text: candidate.text,
    sourceId: candidate.sourceId,
    about: `${candidate.title} ${candidate.section}`,
    passage: candidate.chunkId,
  }));
  const answering = answerQuestion(question, offered, offered, judge ? { judge } : {})
    .flatMap((part) => part.uses)
    .flatMap((use) => byKey.get(use.key) ?? []);
  const chosen: Candidate[] = [];
  for (const candidate of [...answering, ...selected]) {
    if (chosen.some((other) => other === candidate || covers(other, candidate) || overlaps(other, candidate))) continue;
    chosen.push(candidate);
  }
  return chosen.slice(0, Math.max(limits.maxFacts, new Set(answering).size));
}

/**
 * The packet's sentences that relate to `question`, best first, with their scores; with
 * `unscored`, also those that share nothing with it, after them (a passage may write the answer in
 * one: "The answer turned out to be ethylene carbonate (EC).").
 */
export function rankSentences(
  question: string,
  sources: readonly PacketSource[],
  options: { unscored?: boolean } = {},
): RankedSentence[] {
  const candidates = candidatesOf(sources);
  const ranked = rank(profileRequest(question), candidates);
  return (options.unscored ? withUnscored(ranked, candidates) : ranked).map(
    ({ sourceId, chunkId, position, text, score, answers }) => ({ sourceId, chunkId, position, text, score, answers }),
  );
}

/** What an extractive synthesis needs besides the question and the packet. */
export interface ExtractiveOptions {
  /** Decides whether a term of the request is mentioned (its synonyms and forms count). Default: the English judge. */
  judge?: Judge;
  limits?: ExtractionLimits;
  language?: string;
  /** Every source the run read, of which the packet may be a part (default: the packet). */
  read?: readonly PacketSource[];
}

/**
 * The extractive synthesis of `question` over the closed packet `sources`. Its gaps are
 * computed against `read` (every source the run read, of which the packet may be a part):
 * a term is called unmentioned only when no passage read mentions it or a synonym or form of
 * it (the judge's `mentionsOf`). Whether another source contradicts a fact is not decided
 * here: the Host cross-checks every admitted fact against everything read (`crossCheck`).
 */
export function extractiveSynthesis(
  question: string,
  sources: readonly PacketSource[],
  options: ExtractiveOptions = {},
): SynthesisOutput {
  const limits = options.limits ?? DEFAULT_EXTRACTION_LIMITS;
  const profile = profileRequest(question);
  const all = candidatesOf(sources);
  const ranked = rank(profile, all);
  const facts: FactProposal[] = answeringFirst(
    question,
    withUnscored(ranked, all),
    selectFacts(ranked, limits),
    limits,
    options.judge,
  ).map((candidate, index) => ({
    id: `f${index + 1}`,
    text: candidate.text,
    sourceId: candidate.sourceId,
    chunkIds: [candidate.chunkId],
  }));
  const gaps = gapsFor(profile, mentionsOf([...(options.read ?? sources), ...sources]), {
    maxGaps: limits.maxGaps,
    language: options.language ?? "en",
    judge: options.judge ?? englishJudge(),
  });
  return { facts, derivations: [], recommendations: [], gaps };
}
