/**
 * What the offline engine reads from a request (pure): its stemmed terms, the names,
 * quoted phrases and numbers it mentions, and its runs of adjacent content words.
 */

import { unframed } from "../../../core/framing.js";
import { chunksIn, codeNamesIn, namesIn, normalizePhrase, quotedIn, stem, stemSet } from "../../../core/lexicon.js";
import { numbersIn } from "../../../core/statements.js";
import { contentWords } from "../../../core/text.js";

export interface RequestProfile {
  /** The request as written. */
  question: string;
  /** What its frame holds (`unframed`): the request itself when it has none. Every field below is of this. */
  core: string;
  /** Distinct stems of the request's content words, in order. */
  stems: string[];
  /** Stems that belong to a name, a quoted phrase or a number of the request. */
  salient: Set<string>;
  /** Quoted phrases, dotted names of code, then capitalised names, as written; distinct after normalisation. */
  names: string[];
  numbers: string[];
  /** Runs of adjacent content words, as written. */
  chunks: string[];
  /** Content words as written (original case), distinct by stem, in order. */
  words: string[];
}

/** Imperative openers that are capitalised only because they start the request. */
const OPENERS = new Set(["name", "identify", "list", "give", "tell", "describe", "explain", "compare", "find", "show"]);

export function profileRequest(request: string): RequestProfile {
  const question = unframed(request);
  const seen = new Set<string>();
  const names: string[] = [];
  const candidates = [
    ...quotedIn(question),
    ...codeNamesIn(question),
    ...namesIn(question)
      .filter((name) => !(name.initial && OPENERS.has(name.text.toLowerCase())))
      .map((name) => name.text),
  ];
  for (const name of candidates) {
    const key = normalizePhrase(name);
    if (key === "" || seen.has(key)) continue;
    seen.add(key);
    names.push(name);
  }
  const numbers = [...new Set(numbersIn(question))];
  const salient = new Set<string>();
  for (const phrase of [...names, ...numbers]) for (const term of stemSet(phrase)) salient.add(term);
  const words: string[] = [];
  const wordStems = new Set<string>();
  for (const match of question.matchAll(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu)) {
    const word = match[0].replace(/['’-]+$/u, "");
    if (contentWords(word).length === 0) continue;
    const term = stem(word.toLowerCase());
    if (wordStems.has(term)) continue;
    wordStems.add(term);
    words.push(word);
  }
  return {
    question: request,
    core: question,
    stems: [...stemSet(question)],
    salient,
    names,
    numbers,
    chunks: chunksIn(question),
    words,
  };
}
