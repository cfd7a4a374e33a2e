/**
 * English for the judge (the `Language` port): words, parts of speech, lemmas and the scope
 * of negation from wink-nlp with its English model, and relations of meaning from WordNet
 * (`WordNetLexicon`). Loaded at the first use, not on import: a process that never judges
 * never pays for the model. Deterministic; tokens are remembered per text (bounded).
 */
import { createRequire } from "node:module";
import type { Language, PartOfSpeech, WordClass, WordRelation, WordToken } from "../../core/judgment/language.js";
import { WordNetLexicon } from "./wordnet-lexicon.js";

interface WinkItem {
  out(its?: unknown): unknown;
}
interface WinkTokens {
  each(callback: (token: WinkItem) => void): void;
}
interface WinkDocument {
  tokens(): WinkTokens;
}
interface WinkNlp {
  readDoc(text: string): WinkDocument;
  its: Record<string, unknown>;
}

const POS = new Set<PartOfSpeech>([
  "NOUN",
  "PROPN",
  "VERB",
  "AUX",
  "ADJ",
  "ADV",
  "NUM",
  "PRON",
  "DET",
  "ADP",
  "PART",
  "CCONJ",
  "SCONJ",
  "PUNCT",
  "SYM",
]);

let wink: WinkNlp | undefined;

function nlp(): WinkNlp {
  if (!wink) {
    const require = createRequire(import.meta.url);
    const winkNlp = require("wink-nlp") as (model: unknown) => WinkNlp;
    wink = winkNlp(require("wink-eng-lite-web-model"));
  }
  return wink;
}

const MEMO_SIZE = 8_192;

export class EnglishLanguage implements Language {
  readonly #lexicon: WordNetLexicon;
  readonly #memo = new Map<string, readonly WordToken[]>();

  constructor(lexicon = new WordNetLexicon()) {
    this.#lexicon = lexicon;
  }

  tokens(text: string): readonly WordToken[] {
    const known = this.#memo.get(text);
    if (known) return known;
    const tokens = readTokens(text);
    if (this.#memo.size >= MEMO_SIZE) this.#memo.clear();
    this.#memo.set(text, tokens);
    return tokens;
  }

  relation(a: string, b: string, wordClass: WordClass): WordRelation | undefined {
    return this.#lexicon.relation(a, b, wordClass);
  }

  variants(lemma: string, wordClass: WordClass): readonly string[] {
    return this.#lexicon.variants(lemma, wordClass);
  }

  /** Whether a noun is a form of a verb ("population", "populate"). */
  derivedAcross(noun: string, verb: string): boolean {
    return this.#lexicon.derivedAcross(noun, verb);
  }
}

function readTokens(text: string): WordToken[] {
  const engine = nlp();
  const { its } = engine;
  const tokens: WordToken[] = [];
  let cursor = 0;
  engine
    .readDoc(text)
    .tokens()
    .each((token) => {
      const value = String(token.out(its.value));
      // wink splits contractions ("did" "n't") and keeps each token's own text: find it from the cursor.
      let start = text.indexOf(value, cursor);
      if (start === -1) start = cursor;
      const end = start === cursor && text.slice(start, start + value.length) !== value ? start : start + value.length;
      cursor = Math.max(cursor, end);
      const pos = String(token.out(its.pos));
      tokens.push({
        text: value,
        start,
        end,
        lemma: String(token.out(its.lemma)).toLowerCase(),
        pos: POS.has(pos as PartOfSpeech) ? (pos as PartOfSpeech) : "X",
        negated: token.out(its.negationFlag) === true,
      });
    });
  return retagged(tokens, text);
}

/**
 * Mends tagging slips the model makes: a word tagged as a verb between a determiner, name or
 * adjective and an auxiliary is the noun of the subject ("The Arden lock was built", "the
 * Harbour bridge was opened"), since a verb is not followed by the auxiliary of its own clause;
 * the second half of a hyphenated compound is an adjective ("EC-based"); and "according to"
 * is a preposition.
 */
function retagged(tokens: WordToken[], text: string): WordToken[] {
  return tokens.map((token, index) => {
    const before = tokens[index - 1];
    const after = tokens[index + 1];
    // "According to", "owing to", "due to": a preposition, not the clause's verb.
    if (/^(?:according|owing|due)$/i.test(token.text) && after?.lemma === "to")
      return { ...token, pos: "ADP" as const };
    // The second half of a hyphenated compound is not a verb: "EC-based", "oil-fired".
    if (token.pos === "VERB" && text[token.start - 1] === "-") return { ...token, pos: "ADJ" as const };
    // "The ticket costs €2.40": a plural-looking noun between the subject and a figure is its verb.
    if (
      token.pos === "NOUN" &&
      /[^s]s$/.test(token.text) &&
      before !== undefined &&
      // (The subject may end in a letter that names it: "Cell A stores 5 Wh".)
      (before.pos === "NOUN" || before.pos === "PROPN" || /^\p{Lu}$/u.test(before.text)) &&
      after !== undefined &&
      (after.pos === "NUM" || after.pos === "SYM") &&
      !tokens.some((other) => other.pos === "VERB")
    )
      return { ...token, pos: "VERB" as const, lemma: token.lemma.replace(/s$/, "") };
    if (token.pos !== "VERB" || !before || !after || after.pos !== "AUX") return token;
    if (!["DET", "PROPN", "ADJ", "NOUN", "NUM"].includes(before.pos)) return token;
    return { ...token, pos: "NOUN" as const, lemma: token.text.toLowerCase() };
  });
}

let shared: EnglishLanguage | undefined;

/** The process's one English language (its model and lexicon are loaded once). */
export function englishLanguage(): EnglishLanguage {
  shared ??= new EnglishLanguage();
  return shared;
}
