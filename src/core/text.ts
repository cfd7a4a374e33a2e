/**
 * Small pure text helpers shared by chunking, excerpts and reader-safe rendering.
 */

// biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u200B-\u200F\u202A-\u202E\u2066-\u2069]/g;

/** Every run of whitespace as one space, trimmed. */
export const collapseWhitespace = (text: string): string => text.replace(/\s+/g, " ").trim();

/** One character stripControl removes (test it a character at a time). */
export const CONTROL_CHAR = new RegExp(CONTROL.source);

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
    "his her him my me was were being having doing during until since while against through above below again further once"
  ).split(" "),
);

/** Lower-cased content words of `text` (letters and digits, no stopwords), in order, duplicates kept. */
export function contentWords(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? [];
  return words.map((word) => word.replace(/['’-]+$/u, "")).filter((word) => word.length > 1 && !STOPWORDS.has(word));
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
