/**
 * Word-level helpers of the offline engine (pure, deterministic): a light stemmer, stemmed
 * content terms, a verb-likeness test, and the surface forms a request or a source names
 * (capitalised names, quoted phrases); numbers are `numbersIn` in statements.ts.
 */
import { IRREGULAR_VERBS } from "./irregular-verbs.js";
import { contentWords } from "./text.js";

/**
 * A light suffix stemmer, then a cut to seven characters, so that "translated",
 * "translation" and "translating" share a stem. Crude, but enough to match a request's
 * words against a source's inflections. An irregular past form is stemmed as its verb ("became"
 * as "become", "won" as "win"). Expects a lower-case word.
 */
export function stem(word: string): string {
  // "Sony's", and an inflection written after an apostrophe: "DJ'ed", "OK'd".
  let w = word.replace(/['’](?:s|d|ed|ing)$/u, "");
  w = IRREGULAR_VERBS.get(w) ?? w;
  if (/^\p{N}/u.test(w) || w.length <= 3) return w;
  if (w.endsWith("ies") && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith("sses")) w = w.slice(0, -2);
  else if (w.endsWith("s") && !/[sui]s$/.test(w)) w = w.slice(0, -1);
  if (w.endsWith("ing") && w.length > 5) w = w.slice(0, -3);
  else if (w.endsWith("ed") && w.length > 4) w = w.slice(0, -2);
  else if (w.endsWith("ly") && w.length > 5) w = w.slice(0, -2);
  if (w.length > 3 && /([b-df-hj-np-tv-z])\1$/.test(w) && !/(ll|ss|zz)$/.test(w)) w = w.slice(0, -1);
  if (w.length > 4 && w.endsWith("e")) w = w.slice(0, -1);
  return w.slice(0, 7);
}

/** Stemmed content words of `text`, in order, duplicates kept; hyphenated words also by part. */
export function stems(text: string): string[] {
  return contentWords(text).flatMap((word) => {
    const parts = word.split("-").filter((part) => part.length > 1);
    return parts.length > 1 ? [stem(word), ...parts.map(stem)] : [stem(word)];
  });
}

/** Distinct stemmed content words of `text`, in first-seen order. */
export function stemSet(text: string): Set<string> {
  return new Set(stems(text));
}

const VERBS = new Set(
  (
    "is are was were be been being am has have had do does did can could will would shall should may might must " +
    "became become becomes began begun begins won wins win led leads lead made makes make took takes take gave gives " +
    "give wrote writes write found finds find held holds hold born died dies known said says came comes come went goes " +
    "saw sees left leaves ran runs run built builds grew grows lies lay lost loses set sets sold sells told tells " +
    "bought brought got gets kept keeps meant means met paid put puts stood stands taught thought uses use used " +
    "refers refer includes include contains contain serves serve plays play features feature remains remain"
  ).split(" "),
);

/** Whether a lower-case word looks like a verb form (an auxiliary, a common verb, -ed or -ing). */
export function isVerbLike(word: string): boolean {
  return VERBS.has(word) || (word.length > 4 && /(?:ed|ing|ized|ised|izes|ises)$/.test(word));
}

/** Whether `text` has at least one verb-like word. */
export function hasVerb(text: string): boolean {
  return (text.toLowerCase().match(/\p{L}+/gu) ?? []).some(isVerbLike);
}

interface Token {
  text: string;
  start: number;
  end: number;
}

const TOKEN = /[\p{L}\p{N}]+(?:['’.&-][\p{L}\p{N}]+)*/gu;

function tokens(text: string): Token[] {
  return [...text.matchAll(TOKEN)].map((match) => ({
    text: match[0],
    start: match.index,
    end: match.index + match[0].length,
  }));
}

/** Lower-case words that may join two capitalised words inside one name ("Haymo of Faversham"). */
const CONNECTORS = new Set([
  ...["of", "the", "to", "a", "an"],
  ...["de", "del", "der", "van", "von", "la", "le", "du", "da", "di"],
]);

const isStopword = (word: string): boolean => contentWords(word).length === 0;

/** Capitalised (or mixed-case, or containing a digit inside letters: "LiCoO2") word. */
const isNameWord = (word: string): boolean =>
  /^\p{Lu}/u.test(word) || (/\p{L}/u.test(word) && /\p{Lu}/u.test(word.slice(1)) && /\p{Ll}/u.test(word));

export interface Name {
  text: string;
  start: number;
  /** The name starts a sentence, so its capital letter may be only the sentence's. */
  initial: boolean;
}

const spaceOnly = (text: string, from: number, to: number): boolean => /^[ \t]+$/.test(text.slice(from, to));

/** Two words of one name are joined by spaces, or by ". " after an initial ("E. B. White"). */
const joins = (text: string, previous: Token, next: Token): boolean =>
  spaceOnly(text, previous.end, next.start) ||
  (/^\p{Lu}$/u.test(previous.text) && /^\.[ \t]*$/.test(text.slice(previous.end, next.start)));

/**
 * Names in `text`: runs of capitalised words (joined by connectors such as "of the" when a
 * capitalised word follows), not broken by punctuation or line breaks. A capitalised
 * stopword at either end is dropped ("Which", "The"), so is a run of stopwords only.
 */
export function namesIn(text: string): Name[] {
  const words = tokens(text);
  const names: Name[] = [];
  let run: Token[] = [];
  // A stopword may open or close a run ("Which", "The"), but an initial ("E. B. White") stays.
  const trimmable = (word: Token | undefined): boolean =>
    word !== undefined && isStopword(word.text) && !(/^\p{Lu}$/u.test(word.text) && text[word.end] === ".");
  const flush = (): void => {
    while (run.length > 0 && trimmable(run[0])) run.shift();
    while (run.length > 0 && trimmable(run.at(-1))) run.pop();
    const first = run[0];
    const last = run.at(-1);
    if (first && last) {
      const before = text.slice(0, first.start).replace(/[\s"'“‘(]+$/u, "");
      const name = text.slice(first.start, last.end).replace(/['’]s$/u, "");
      names.push({ text: name, start: first.start, initial: /(^|[.!?:])$/.test(before) });
    }
    run = [];
  };
  for (let index = 0; index < words.length; index++) {
    const word = words[index];
    if (!word) continue;
    const previous = run.at(-1);
    if (previous && !joins(text, previous, word)) flush();
    if (isNameWord(word.text)) {
      run.push(word);
      continue;
    }
    let ahead = index;
    while (CONNECTORS.has(words[ahead]?.text.toLowerCase() ?? "")) {
      const here = words[ahead];
      const next = words[ahead + 1];
      if (!here || !next || !spaceOnly(text, here.end, next.start)) break;
      ahead++;
    }
    const target = words[ahead];
    if (run.length > 0 && ahead > index && target && isNameWord(target.text)) run.push(word);
    else flush();
  }
  flush();
  return names;
}

/** Phrases in straight or typographic double quotes. */
export function quotedIn(text: string): string[] {
  return [...text.matchAll(/"([^"\n]{2,80})"|“([^”\n]{2,80})”/g)]
    .map((match) => (match[1] ?? match[2] ?? "").trim())
    .filter((phrase) => contentWords(phrase).length > 0);
}

/**
 * Dotted names of code as written ("json.dumps", "shutil.which", "os.path.join"): a name whose
 * every part counts, stop words included ("which" in shutil.which). Abbreviations ("e.g.",
 * "U.S.") are not: the first part has two characters or more, and one part three or more.
 */
export function codeNamesIn(text: string): string[] {
  return [...text.matchAll(/(?<![\w.])[A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)+(?![\w])/g)]
    .map((match) => match[0])
    .filter((name) => {
      const parts = name.split(".");
      return (parts[0]?.length ?? 0) >= 2 && parts.some((part) => part.length >= 3);
    });
}

/**
 * Runs of adjacent content words (no stopword or punctuation between them), as written:
 * "lithium cobalt oxide", "film directors". Single words are included.
 */
export function chunksIn(text: string): string[] {
  const words = tokens(text);
  const chunks: string[] = [];
  let run: Token[] = [];
  const flush = (): void => {
    const first = run[0];
    const last = run.at(-1);
    if (first && last) chunks.push(text.slice(first.start, last.end));
    run = [];
  };
  for (const word of words) {
    const previous = run.at(-1);
    if (previous && !/^[ \t]+$/.test(text.slice(previous.end, word.start))) flush();
    if (isStopword(word.text)) flush();
    else run.push(word);
  }
  flush();
  return chunks;
}

/** Lower case, whitespace collapsed, for comparing phrases. */
export const normalizePhrase = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();

/** A nationality or a people's adjective ("English", "Australian", "Dutch"): it describes, it names no one thing. */
export const isNationality = (word: string): boolean =>
  /^(?:\p{Lu}\p{Ll}+(?:ese|ish|ian|ean|ican)|German|French|Dutch|Greek|Thai|Swiss|Welsh|Irish|Israeli|Iraqi|Pakistani)$/u.test(
    word,
  );

/** A month or a day of the week ("February", "monday"): it dates, it names nothing to look up. */
export const isCalendarWord = (word: string): boolean =>
  /^(?:january|february|march|april|may|june|july|august|september|october|november|december|monday|tuesday|wednesday|thursday|friday|saturday|sunday)$/iu.test(
    word,
  );

/** "National Football League" is also written "NFL": the initials of a name of three words or more, lower case. */
export const acronymsOf = (text: string): string[] =>
  namesIn(text)
    .map((name) => name.text.split(/\s+/u).filter((word) => /^\p{Lu}/u.test(word)))
    .filter((words) => words.length >= 3)
    .map((words) => words.map((word) => word.charAt(0).toLowerCase()).join(""));
