/**
 * What the judge needs of a language, as plain data and one small interface (the port
 * `Language`, implemented by adapters/language): words with their part of speech, lemma and
 * whether a negation governs them, and how two lemmas relate in meaning. The judge itself is
 * pure; a `Language` is deterministic for the same text.
 */

/** Universal part-of-speech tags (the subset the judge reads; others are `X`). */
export type PartOfSpeech =
  | "NOUN"
  | "PROPN"
  | "VERB"
  | "AUX"
  | "ADJ"
  | "ADV"
  | "NUM"
  | "PRON"
  | "DET"
  | "ADP"
  | "PART"
  | "CCONJ"
  | "SCONJ"
  | "PUNCT"
  | "SYM"
  | "X";

/** One word of a text, where it stands (UTF-16 offsets into the text given), and how it reads. */
export interface WordToken {
  text: string;
  start: number;
  end: number;
  /** Lower-case base form ("inaugurated" → "inaugurate", "studies" → "study"). */
  lemma: string;
  pos: PartOfSpeech;
  /** A negation ("not", "never", "no", "n't") governs this word. */
  negated: boolean;
}

/** Word classes the lexicon relates within. */
export type WordClass = "noun" | "verb" | "adj" | "adv";

/**
 * How a word `a` relates to a word `b` in meaning: the same lemma; a synonym (one shared
 * sense); `narrower` when `a` is a kind of `b` ("rainfall" of "precipitation", "inaugurate" of
 * "open"); `broader` the other way round; `derived` when one is formed from the other
 * ("founder", "found"); `antonym` when they are opposites ("rise", "fall").
 */
export type WordRelation = "same" | "synonym" | "narrower" | "broader" | "derived" | "antonym";

/** A language as the judge reads it (the port; adapters/language implements English). */
export interface Language {
  /** The words of `text`, in order, offsets into `text`. */
  tokens(text: string): readonly WordToken[];
  /** How lemma `a` relates to lemma `b` in `wordClass`, or undefined when they are unrelated. */
  relation(a: string, b: string, wordClass: WordClass): WordRelation | undefined;
  /**
   * Words that name what `lemma` names, or a kind of it, or what it is a kind of, or a form of
   * it (synonyms, one step narrower or broader, derived forms), lower case, multi-word ones
   * with spaces: what a mention of it may be written as.
   */
  variants(lemma: string, wordClass: WordClass): readonly string[];
  /** Whether a noun and a verb are forms of one another ("founder" and "found", "population" and "populate"). */
  derivedAcross(noun: string, verb: string): boolean;
}

/** The lexicon's word class of a part of speech, or undefined for words the lexicon does not relate. */
export function wordClassOf(pos: PartOfSpeech): WordClass | undefined {
  if (pos === "NOUN" || pos === "PROPN") return "noun";
  if (pos === "VERB") return "verb";
  if (pos === "ADJ") return "adj";
  if (pos === "ADV") return "adv";
  return undefined;
}
