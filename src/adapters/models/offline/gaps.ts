/**
 * Gaps of the offline engine (pure): the request's names, numbers and noun-like words that
 * no sentence of the packet mentions. Only gap text is templated, and it says what the
 * sources do not mention; it states nothing about the world.
 */
import { readerTextProblem } from "../../../core/synthesis/admission.js";
import type { GapProposal } from "../../../core/synthesis/proposals.js";
import { contentWords } from "../../../core/text.js";
import { isVerbLike, normalizePhrase, stemSet } from "./lexicon.js";
import type { RequestProfile } from "./request.js";

/** What gap finding needs of a packet sentence. */
export interface PacketSentence {
  stems: ReadonlySet<string>;
  /** Normalised words (see normalizePhrase), with a space at either end. */
  normalized: string;
}

/** Words that name the kind of answer wanted ("in what year"), not something to look for. */
const ANSWER_TYPES = new Set(
  (
    "year years date dates name names city country state place person people time times number many much " +
    "kind type sort part first last called known"
  ).split(" "),
);

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

/** Request names, numbers and noun-like words that no sentence of the packet mentions. */
export function gapsFor(
  profile: RequestProfile,
  sentences: readonly PacketSentence[],
  maxGaps: number,
  language = "en",
): GapProposal[] {
  const allStems = new Set(sentences.flatMap((sentence) => [...sentence.stems]));
  const allText = sentences.map((sentence) => sentence.normalized).join(" ");
  const missing: string[] = [];
  const covered = new Set<string>();
  for (const name of [...profile.names, ...profile.numbers]) {
    const phrase = ` ${normalizePhrase(name)} `;
    for (const term of stemSet(name)) covered.add(term);
    if (phrase.trim() !== "" && !allText.includes(phrase)) missing.push(name);
  }
  for (const word of profile.words) {
    const terms = stemSet(word);
    const term = [...terms][0];
    if (term === undefined || covered.has(term) || allStems.has(term)) continue;
    const lower = word.toLowerCase().replace(/['’]s$/u, "");
    if (lower.length < 4 || isVerbLike(lower) || ANSWER_TYPES.has(lower) || contentWords(lower).length === 0) continue;
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
