/**
 * Chooses bounded verbatim excerpts for source cards (pure, deterministic).
 */
import { contentWords, cutAtWord, isControlCode, isSpaceCode, keyTerms, stripControl } from "../text.js";
import type { Excerpt } from "./report-document.js";

export interface ExcerptChunk {
  id: string;
  seq: number;
  /** Offset of the passage in its source's stored text. */
  start: number;
  text: string;
  /** Where the passage stands in its document ("slide 3"), when the document says. */
  location?: string;
}

/** Collapses whitespace: the excerpt keeps the source's words and order exactly. */
export const normalizeExcerptText = (text: string): string => stripControl(text).replace(/\s+/g, " ").trim();

/**
 * Where the characters at `indexes` (ascending) of `normalizeExcerptText(text)` stand in `text`
 * (a collapsed run of whitespace stands where the run begins); `text.length` past the end. One
 * pass over `text`.
 */
function sourceOffsets(text: string, indexes: readonly number[]): number[] {
  const offsets: number[] = [];
  let wanted = 0;
  let emitted = 0;
  let space = -1;
  let started = false;
  const found = (at: number): boolean => {
    while (wanted < indexes.length && indexes[wanted] === emitted) {
      offsets.push(at);
      wanted++;
    }
    return wanted === indexes.length;
  };
  for (let at = 0; at < text.length && wanted < indexes.length; at++) {
    const code = text.charCodeAt(at);
    if (isControlCode(code)) continue;
    if (isSpaceCode(code)) {
      if (started && space < 0) space = at;
      continue;
    }
    if (space >= 0) {
      if (found(space)) break;
      emitted++;
      space = -1;
    }
    if (found(at)) break;
    emitted++;
    started = true;
  }
  while (offsets.length < indexes.length) offsets.push(text.length);
  return offsets;
}

/**
 * Where the character at `index` of `normalizeExcerptText(text)` stands in `text` (a collapsed
 * run of whitespace stands where the run begins); `text.length` past the end. Linear in `text`.
 */
export function sourceOffset(text: string, index: number): number {
  return sourceOffsets(text, [index])[0] ?? text.length;
}

/** The offsets in its source's stored text of `[start, end)` of a passage's normalized text. */
export function storedSpan(chunk: ExcerptChunk, start: number, end: number): { start: number; end: number } {
  const [from = chunk.text.length, last = chunk.text.length] =
    end - 1 >= start
      ? sourceOffsets(chunk.text, [start, end - 1])
      : [sourceOffset(chunk.text, start), sourceOffset(chunk.text, end - 1)];
  return { start: chunk.start + from, end: chunk.start + last + 1 };
}

/**
 * Relevance of a passage to the question's terms: distinct terms matched, then frequency. The
 * headings it stands under (its location) count with its text: on a long page the sections whose
 * headings match the question come first.
 */
export function passageScore(terms: readonly string[], passage: { text: string; location?: string }): number {
  if (terms.length === 0) return 0;
  const words = contentWords(passage.location ? `${passage.location}\n${passage.text}` : passage.text);
  const wanted = new Set(terms);
  const seen = new Set<string>();
  let hits = 0;
  for (const word of words) {
    if (wanted.has(word)) {
      hits++;
      seen.add(word);
    }
  }
  return seen.size * 10 + Math.min(hits, 20) / Math.sqrt(Math.max(words.length, 1));
}

/** Less room than this and no further excerpt is started. */
export const MIN_EXCERPT_CHARS = 60;

/** Offset of the first sentence of `text` that contains one of `terms` (0 when none does). */
function firstRelevantSentence(text: string, terms: ReadonlySet<string>): number {
  for (const sentence of text.matchAll(/[^.!?]+(?:[.!?]+["')\]’”]*\s*|$)/g)) {
    if (contentWords(sentence[0]).some((word) => terms.has(word))) return sentence.index;
  }
  return 0;
}

/**
 * Picks passages of one source for `question`, most relevant first (ties: earlier passage),
 * within `maxChars` in total. A passage longer than the room left starts at its first
 * sentence that matches the question and is cut at a word; both cuts are marked.
 */
export function selectExcerpts(question: string, chunks: readonly ExcerptChunk[], maxChars: number): Excerpt[] {
  const terms = keyTerms(question);
  const wanted = new Set(terms);
  const ranked = chunks
    .map((chunk) => ({ chunk, score: passageScore(terms, chunk) }))
    .sort((a, b) => b.score - a.score || a.chunk.seq - b.chunk.seq);
  const excerpts: Excerpt[] = [];
  let room = maxChars;
  for (const { chunk } of ranked) {
    if (room < MIN_EXCERPT_CHARS) break;
    const full = normalizeExcerptText(chunk.text);
    if (full.length === 0) continue;
    const start = full.length <= room ? 0 : firstRelevantSentence(full, wanted);
    const rest = full.slice(start);
    const text = rest.length <= room ? rest : cutAtWord(rest, room);
    if (text.length === 0) continue;
    excerpts.push({
      text,
      cutStart: start > 0,
      truncated: start + text.length < full.length,
      chunkId: chunk.id,
      passage: chunk.seq,
      ...(chunk.location ? { location: chunk.location } : {}),
      passages: chunks.length,
      ...storedSpan(chunk, start, start + text.length),
    });
    room -= text.length;
  }
  return excerpts.sort((a, b) => a.passage - b.passage);
}
