/**
 * Splits passage text into sentences (pure, deterministic). A sentence is a span of the
 * passage: `text.slice(start, end)`; its reader text is that span with whitespace
 * collapsed, nothing else, so a quoted fact is always a verbatim part of its passage.
 */

export interface SentenceSpan {
  start: number;
  end: number;
  /** The span, whitespace collapsed to single spaces and trimmed. */
  text: string;
  /** The span is a line of its own without closing punctuation (a heading or label). */
  standalone: boolean;
  /** The span starts with a list marker. */
  listItem: boolean;
}

/** Collapses whitespace runs to one space and trims; the only change made to quoted text. */
import { collapseWhitespace } from "./text.js";

const ABBREVIATIONS = new Set(
  (
    "mr mrs ms dr prof st jr sr vs etc inc ltd co corp no nos vol fig gen col lt sgt capt rev hon mt ft approx est " +
    "dept univ jan feb mar apr jun jul aug sep sept oct nov dec ca cf al op pp ed eds"
  ).split(" "),
);

const LIST_MARKER = /^(?:[-*•–]\s|\d{1,3}[.)]\s|\(?[a-z][)]\s)/u;

interface Line {
  start: number;
  end: number;
}

/** Lines of `text` with their trimmed bounds; empty lines are dropped. */
function lines(text: string): Line[] {
  const result: Line[] = [];
  let from = 0;
  while (from <= text.length) {
    const newline = text.indexOf("\n", from);
    const stop = newline < 0 ? text.length : newline;
    let start = from;
    let end = stop;
    while (start < end && /\s/.test(text[start] ?? "")) start++;
    while (end > start && /\s/.test(text[end - 1] ?? "")) end--;
    if (end > start) result.push({ start, end });
    if (newline < 0) break;
    from = newline + 1;
  }
  return result;
}

/**
 * Blocks: lines joined while they look like one hard-wrapped paragraph. A line break ends
 * a block after closing punctuation, after a short line (a heading), before a list item,
 * and at a blank line.
 */
function blocks(text: string): Line[] {
  const result: Line[] = [];
  for (const line of lines(text)) {
    const last = result.at(-1);
    const lineText = text.slice(line.start, line.end);
    if (last) {
      const between = text.slice(last.end, line.start);
      const previous = text.slice(last.start, last.end);
      const previousLine = previous.slice(previous.lastIndexOf("\n") + 1);
      const continues =
        !/\n[ \t]*\n/.test(between) &&
        !/[.!?:;"”’)]$/u.test(previousLine) &&
        previousLine.length >= 40 &&
        !LIST_MARKER.test(lineText) &&
        !LIST_MARKER.test(previous);
      if (continues) {
        last.end = line.end;
        continue;
      }
    }
    result.push({ ...line });
  }
  return result;
}

/** Whether the terminator at `index` (a '.') follows an abbreviation or an initial. */
function abbreviationBefore(text: string, index: number): boolean {
  const word = /([\p{L}.]+)$/u.exec(text.slice(Math.max(0, index - 12), index))?.[1] ?? "";
  if (word === "") return false;
  // An initial ("John B. Goodenough") or a one-letter abbreviation ("c. 1243", "b. 1952").
  if (/^\p{L}$/u.test(word)) return true;
  if (/\p{L}\.\p{L}$/u.test(word)) return true;
  return ABBREVIATIONS.has(word.toLowerCase());
}

/** Sentence ends inside one block: offsets just past each sentence's closing punctuation. */
function sentenceEnds(text: string, block: Line): number[] {
  const ends: number[] = [];
  const body = text.slice(block.start, block.end);
  for (const match of body.matchAll(/[.!?]+["'”’)\]]*(?=\s+["'“‘([]?[\p{Lu}\p{N}])/gu)) {
    const at = block.start + match.index;
    if (match[0].startsWith(".") && match[0].length === 1 && abbreviationBefore(text, at)) continue;
    ends.push(at + match[0].length);
  }
  ends.push(block.end);
  return ends;
}

/** The sentences of `text`, in order. */
export function splitSentences(text: string): SentenceSpan[] {
  const sentences: SentenceSpan[] = [];
  for (const block of blocks(text)) {
    let start = block.start;
    for (const end of sentenceEnds(text, block)) {
      let from = start;
      while (from < end && /\s/.test(text[from] ?? "")) from++;
      // A list marker is layout, not content: the sentence starts after it (still an exact substring).
      const begin = from;
      const marker = LIST_MARKER.exec(text.slice(from, end));
      const listItem = marker !== null;
      if (marker) from += marker[0].length;
      if (end > from) {
        const raw = text.slice(from, end);
        const single = !raw.includes("\n") && begin === block.start && end === block.end;
        sentences.push({
          start: from,
          end,
          text: collapseWhitespace(raw),
          standalone: single && !/[.!?]["'”’)\]]*$/u.test(raw),
          listItem,
        });
      }
      start = end;
    }
  }
  return sentences;
}
