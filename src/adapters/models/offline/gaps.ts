/**
 * Gaps of the offline engine (pure): the request's names, numbers and noun-like words that
 * no passage read mentions — every persisted passage and title of the run, not only the
 * packet. Only gap text is templated, and it says what the sources do not mention; it
 * states nothing about the world, and never names a stop word, a verb of the question or
 * a fragment of a word.
 */

import type { Judge } from "../../../core/judgment/judge.js";
import { isVerbLike, normalizePhrase, stemSet } from "../../../core/lexicon.js";
import { readerTextProblem } from "../../../core/synthesis/admission.js";
import type { GapProposal } from "../../../core/synthesis/proposals.js";
import { contentWords } from "../../../core/text.js";
import type { RequestProfile } from "./request.js";

/** What gap finding needs of a text read (a passage or a title). */
export interface Mention {
  stems: ReadonlySet<string>;
  /** Normalised words (see normalizePhrase), with a space at either end. */
  normalized: string;
}

const mention = (text: string): Mention => ({ stems: stemSet(text), normalized: ` ${normalizePhrase(text)} ` });

/** Every title and passage of `sources`, each source once (its first entry: put the untrimmed ones first). */
export function mentionsOf(
  sources: readonly { id: string; title: string; chunks: readonly { text: string }[] }[],
): Mention[] {
  const seen = new Set<string>();
  const mentions: Mention[] = [];
  for (const source of sources) {
    if (seen.has(source.id)) continue;
    seen.add(source.id);
    mentions.push(mention(source.title), ...source.chunks.map((chunk) => mention(chunk.text)));
  }
  return mentions;
}

/** Words that name the kind of answer wanted ("in what year"), not something to look for. */
const ANSWER_TYPES = new Set(
  (
    "year years date dates name names city country state place person people time times number many much " +
    "kind type sort part first last called known"
  ).split(" "),
);

/** Auxiliaries and "to": the word right after one is the question's verb ("did Sony start", "to fund"). */
const BEFORE_VERB = new Set("do does did will would can could should shall may might must to".split(" "));

/** Base-form verbs questions ask with ("how does X compare"), which are not things a source mentions. */
const QUESTION_VERBS = new Set(
  (
    "start begin compare differ relate work fund affect cause change lead become happen mean matter " +
    "make take give find build sell create develop invent produce increase decrease reduce improve " +
    "win lose grow move live die help stop end get"
  ).split(" "),
);

/** Quantifiers a question asks with ("how many", "how much"): not what it asks about. */
const QUANTIFIERS = new Set("many much few several".split(" "));

/** Whether a word is a quantifier a question asks with ("many", "much"). */
export const isQuantifier = (word: string): boolean => QUANTIFIERS.has(word.toLowerCase());

/**
 * Whether a word of a question only shapes the question (an answer type, a verb questions ask
 * with, a quantifier: "year", "get", "many") rather than naming what it asks about.
 */
export function isQuestionWord(word: string): boolean {
  const lower = word.toLowerCase();
  return ANSWER_TYPES.has(lower) || QUESTION_VERBS.has(lower) || QUANTIFIERS.has(lower) || isVerbLike(lower);
}

/** The question's words that stand right after an auxiliary or "to", lower-cased. */
function verbsOf(question: string): Set<string> {
  const words = (question.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? []).map((word) =>
    word.replace(/['’-]+$/u, ""),
  );
  const verbs = new Set<string>();
  words.forEach((word, index) => {
    const before = words[index - 1];
    if (before !== undefined && BEFORE_VERB.has(before)) verbs.add(word);
  });
  return verbs;
}

/** The gap sentence per report language (primary subtag); English otherwise. */
const TEMPLATES: Readonly<Record<string, (term: string) => string>> = {
  en: (term) => `The sources read do not mention ${term}.`,
  fr: (term) => `Les sources lues ne mentionnent pas ${term}.`,
  de: (term) => `Die gelesenen Quellen erwähnen ${term} nicht.`,
  es: (term) => `Las fuentes leídas no mencionan ${term}.`,
  it: (term) => `Le fonti lette non menzionano ${term}.`,
  pt: (term) => `As fontes lidas não mencionam ${term}.`,
  nl: (term) => `De gelezen bronnen vermelden ${term} niet.`,
};

export const gapText = (term: string, language = "en"): string => {
  const template = TEMPLATES[language.toLowerCase().split(/[-_]/)[0] ?? "en"] ?? TEMPLATES.en;
  return template ? template(term) : `The sources read do not mention ${term}.`;
};

/** How gaps are found and written. */
export interface GapOptions {
  maxGaps: number;
  language: string;
  /** Gives the ways a term may be written (`mentionsOf`: synonyms, narrower and broader words, forms). */
  judge: Pick<Judge, "mentionsOf">;
}

/** Whether one of the ways the judge says `term` may be written is in a text read. */
function mentionedSomehow(
  term: string,
  judge: GapOptions["judge"],
  allStems: ReadonlySet<string>,
  allText: string,
): boolean {
  return judge.mentionsOf(term).some((form) => {
    const phrase = ` ${normalizePhrase(form)} `;
    if (phrase.trim() === "") return false;
    if (allText.includes(phrase)) return true;
    const stems = [...stemSet(form)];
    return stems.length === 1 && allStems.has(stems[0] ?? "");
  });
}

/**
 * Request names, numbers and noun-like words that no text read (`mentions`) mentions, in
 * any of the ways the judge says it may be written ("precipitation" mentions rainfall,
 * "chief executive" mentions CEO).
 */
export function gapsFor(profile: RequestProfile, mentions: readonly Mention[], options: GapOptions): GapProposal[] {
  const { maxGaps, language, judge } = options;
  const allStems = new Set(mentions.flatMap((text) => [...text.stems]));
  const allText = mentions.map((text) => text.normalized).join(" ");
  const verbs = verbsOf(profile.core);
  const missing: string[] = [];
  const covered = new Set<string>();
  for (const name of [...profile.names, ...profile.numbers]) {
    const phrase = ` ${normalizePhrase(name)} `;
    for (const term of stemSet(name)) covered.add(term);
    if (phrase.trim() !== "" && !allText.includes(phrase) && !mentionedSomehow(name, judge, allStems, allText))
      missing.push(name);
  }
  for (const word of profile.words) {
    const terms = stemSet(word);
    const term = [...terms][0];
    if (term === undefined || covered.has(term) || allStems.has(term)) continue;
    const lower = word.toLowerCase().replace(/['’]s$/u, "");
    if (
      lower.length < 4 ||
      isVerbLike(lower) ||
      verbs.has(lower) ||
      QUESTION_VERBS.has(lower) ||
      ANSWER_TYPES.has(lower) ||
      contentWords(lower).length === 0 ||
      // A fragment: a piece of a hyphenated or dotted word, or a word cut short.
      !/^[\p{L}\p{N}]/u.test(lower) ||
      !/[\p{L}\p{N}]$/u.test(lower) ||
      mentionedSomehow(word, judge, allStems, allText)
    )
      continue;
    missing.push(word);
  }
  const gaps: GapProposal[] = [];
  for (const term of missing) {
    if (gaps.length >= maxGaps) break;
    const text = gapText(term, language);
    if (readerTextProblem(text) !== undefined) continue;
    gaps.push({ id: `g${gaps.length + 1}`, text, relatedSourceIds: [] });
  }
  return gaps;
}
