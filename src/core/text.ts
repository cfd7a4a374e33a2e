/**
 * Small pure text helpers shared by chunking, excerpts and reader-safe rendering.
 */

/** The control and bidi-override characters reader-safe text drops (code point ranges, inclusive). */
const CONTROL_RANGES: readonly (readonly [number, number])[] = [
  [0x00, 0x08],
  [0x0b, 0x0c],
  [0x0e, 0x1f],
  [0x7f, 0x9f],
  [0x200b, 0x200f],
  [0x202a, 0x202e],
  [0x2066, 0x2069],
];
const hex = (code: number): string => `\\u${code.toString(16).padStart(4, "0")}`;
const CONTROL = new RegExp(`[${CONTROL_RANGES.map(([from, to]) => `${hex(from)}-${hex(to)}`).join("")}]`, "g");

/** Every run of whitespace as one space, trimmed. */
export const collapseWhitespace = (text: string): string => text.replace(/\s+/g, " ").trim();

/** Whether the UTF-16 code unit `code` is one stripControl removes. */
export function isControlCode(code: number): boolean {
  if (code >= 0x20 && code < 0x7f) return false;
  for (const [from, to] of CONTROL_RANGES) if (code >= from && code <= to) return true;
  return false;
}

/** Whether the UTF-16 code unit `code` is whitespace as a regular expression's `\s` reads it. */
export function isSpaceCode(code: number): boolean {
  if (code < 0x80) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** Removes control and bidi-override characters; keeps tabs and newlines. */
export function stripControl(text: string): string {
  return text.replace(CONTROL, "");
}

/** One line of reader-safe text: no control characters, whitespace collapsed, bounded. */
export function readerLine(text: string, maxChars = 300): string {
  const line = stripControl(text).replace(/\s+/g, " ").trim();
  return line.length <= maxChars ? line : `${cutAtWord(line, maxChars - 1)}…`;
}

/** The longest prefix of `text` no longer than `maxChars` that ends at a word boundary. */
export function cutAtWord(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const cut = text.slice(0, maxChars);
  const space = cut.lastIndexOf(" ");
  return (space > maxChars * 0.6 ? cut.slice(0, space) : cut).trimEnd();
}

const STOPWORDS = new Set(
  (
    "a an and are as at be been but by can could did do does for from had has have how i if in into is it its " +
    "of on or over than that the their them then there these they this those to under up was were what when where " +
    "which who whom whose why will with would you your about after before between both each few more most other " +
    "some such only own same so too very just also any all not no nor should may might must shall our we us he she " +
    "his her him my me was were being having doing during until since while against through above below again further once rather"
  ).split(" "),
);

const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;
const letterOrDigit = new Map<string, boolean>();

/** Length of the letter or digit at `at` of `text` (2 for one beyond the BMP), 0 when none is there. */
function letterOrDigitAt(text: string, at: number): number {
  const code = text.charCodeAt(at);
  if (code < 0x80)
    return (code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) ? 1 : 0;
  const char = code >= 0xd800 && code <= 0xdbff ? text.slice(at, at + 2) : text.charAt(at);
  let known = letterOrDigit.get(char);
  if (known === undefined) {
    known = LETTER_OR_DIGIT.test(char);
    if (letterOrDigit.size < 65_536) letterOrDigit.set(char, known);
  }
  return known ? char.length : 0;
}

/** An apostrophe or hyphen, which joins the letters of one word ("don't", "lithium-ion"). */
const joiner = (code: number): boolean => code === 0x27 || code === 0x2019 || code === 0x2d;

/**
 * Lower-cased content words of `text` (letters and digits, no stopwords), in order, duplicates kept.
 * A word is a letter or digit followed by letters, digits, apostrophes and hyphens, less the
 * apostrophes and hyphens it ends with: `/[\p{L}\p{N}][\p{L}\p{N}'’-]*\/gu` on the lower-cased
 * text, read here one character at a time (this runs over every passage a report or the offline
 * engine weighs; the expression and a property test say what it reads).
 */
export function contentWords(text: string): string[] {
  const lower = text.toLowerCase();
  const words: string[] = [];
  let at = 0;
  while (at < lower.length) {
    const first = letterOrDigitAt(lower, at);
    if (first === 0) {
      at++;
      continue;
    }
    const start = at;
    at += first;
    let end = at;
    while (at < lower.length) {
      if (joiner(lower.charCodeAt(at))) {
        at++;
        continue;
      }
      const next = letterOrDigitAt(lower, at);
      if (next === 0) break;
      at += next;
      end = at;
    }
    const word = lower.slice(start, end);
    if (word.length > 1 && !STOPWORDS.has(word)) words.push(word);
  }
  return words;
}

/** Distinct content words of `text`, in first-seen order. */
export function keyTerms(text: string): string[] {
  return [...new Set(contentWords(text))];
}

/** Lower case, punctuation and whitespace collapsed to single spaces: two texts equal here say the same words. */
export function normalizeWording(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/** `text` as a regular expression that matches it literally. */
export const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/gu, "\\$&");
