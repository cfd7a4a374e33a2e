/**
 * The words each citation rests on (pure, deterministic). For every citation of a published
 * item: the sentences of its cited passages that bear on the item (the whole passage when it
 * is short), verbatim, each with its place in the source, all within the run's public excerpt
 * limits (per source and in all, seed 004). What the limits keep out is counted, never dropped
 * silently.
 */
import { isMetadataLine } from "../doc-metadata.js";
import { stemSet } from "../lexicon.js";
import { numbersIn, sentencesOf } from "../statements.js";
import { cutAtWord, stripControl } from "../text.js";
import { type ExcerptChunk, MIN_EXCERPT_CHARS, normalizeExcerptText, sourceOffset, storedSpan } from "./excerpts.js";
import type { Evidence, Quote } from "./report-document.js";

/** One citation whose evidence is wanted. */
export interface EvidenceRequest {
  sourceId: string;
  chunkIds: readonly string[];
  /** The texts the passages should bear on: the item's own, or the facts a derived item rests on. */
  about: readonly string[];
  /**
   * A sentence the strategy or the model named as the one the citation rests on: quoted first
   * when the passage writes it (checked here, never trusted).
   */
  hint?: string;
  /**
   * `contradicts`: the citation contradicts the item, so only the named sentence is quoted (a
   * sentence chosen for sharing the item's words could be one that agrees with it).
   */
  stance: "supports" | "contradicts";
}

export interface EvidenceLimits {
  /** Characters of quotes from one source, across the whole report. */
  perSource: number;
  /** Characters of quotes in the whole report. */
  total: number;
}

/** A passage this short is quoted whole. */
export const SHORT_PASSAGE_CHARS = 320;
/** No single quote is longer than this. */
export const MAX_QUOTE_CHARS = 600;
/** What follows a label in a hint ("heading: New in version 3.5.") this short is no sign the passage is quoted. */
const MIN_QUOTED_CHARS = 12;

/**
 * Where the passage writes the named words: the whole hint, else what follows a label in it
 * ("exception json.JSONDecodeError(…): New in version 3.5." names a line under that heading), the
 * longest first.
 */
function namedAt(normalized: string, hint: string): { at: number; length: number } {
  if (hint === "") return { at: -1, length: 0 };
  const tails = [hint];
  for (let at = hint.indexOf(": "); at >= 0; at = hint.indexOf(": ", at + 2)) {
    const tail = hint.slice(at + 2);
    if (tail.length >= MIN_QUOTED_CHARS) tails.push(tail);
  }
  for (const tail of tails) {
    const at = normalized.indexOf(tail);
    if (at >= 0) return { at, length: tail.length };
  }
  return { at: -1, length: 0 };
}
/** At most this many sentences of one passage are quoted for one citation. */
const MAX_SENTENCES = 3;

/** A span of one passage's normalized text, `[start, end)`. */
interface Span {
  chunk: ExcerptChunk;
  normalized: string;
  start: number;
  end: number;
}

/** Sentence spans of a passage's normalized text (the whole text when no sentence is found in it). */
function sentenceSpans(normalized: string, raw: string): { start: number; end: number }[] {
  const spans: { start: number; end: number }[] = [];
  let from = 0;
  for (const sentence of sentencesOf(stripControl(raw))) {
    const at = normalized.indexOf(sentence, from);
    if (at < 0) continue;
    spans.push({ start: at, end: at + sentence.length });
    from = at + sentence.length;
  }
  return spans.length > 0 ? spans : [{ start: 0, end: normalized.length }];
}

/**
 * A heading rather than a sentence: its own paragraph (a blank line, or the passage's end,
 * after it) that ends without a sentence's punctuation. A list item or a table row, one line
 * among others, is not one.
 */
function isHeading(chunk: ExcerptChunk, normalized: string, span: { start: number; end: number }): boolean {
  const text = normalized.slice(span.start, span.end);
  // A metadata line ("New in version 3.6: Flag, IntFlag") ends without a stop but says something.
  if (/[.!?:;…]["”’)\]]?$/u.test(text) || isMetadataLine(text)) return false;
  const after = chunk.text.slice(sourceOffset(chunk.text, span.end - 1) + 1);
  return /^[ \t]*(\n[ \t]*\n|$)/.test(after);
}

/** How much a sentence shares with the texts it should bear on: shared stems, each shared number thrice. */
function relevance(sentence: string, wanted: ReadonlySet<string>, numbers: ReadonlySet<string>): number {
  let score = 0;
  for (const stem of stemSet(sentence)) if (wanted.has(stem)) score++;
  for (const number of new Set(numbersIn(sentence))) if (numbers.has(number)) score += 2;
  return score;
}

/**
 * The spans a citation wants quoted, most wanted first: the best span overall, then the best of
 * each other passage, then the other supporting sentences. Per passage: for a supporting citation
 * the whole passage when it is short; else the sentences the named words stand in when the passage
 * writes them, or what follows a label in them (a fact quoted from its source is quoted as it
 * stands); else its sentences that share at
 * least half as much with the item as the best one (at most three); else, when none shares a
 * word, the passage's first sentence (what it opens with, for the reader to judge).
 */
function wantedSpans(request: EvidenceRequest, chunks: ReadonlyMap<string, ExcerptChunk>): Span[] {
  const about = [...request.about, request.hint ?? ""].join(" ");
  const wanted = stemSet(about);
  const numbers = new Set(numbersIn(about));
  const hint = request.hint === undefined ? "" : normalizeExcerptText(request.hint);
  const perPassage = request.chunkIds.map((chunkId): { span: Span; score: number }[] => {
    const chunk = chunks.get(chunkId);
    if (!chunk) return [];
    const normalized = normalizeExcerptText(chunk.text);
    if (normalized === "") return [];
    const span = (start: number, end: number) => ({ chunk, normalized, start, end });
    const all = sentenceSpans(normalized, chunk.text);
    // Headings are where a passage is, not what it says: never quoted as evidence (unless nothing else is there).
    const prose = all.filter((item) => !isHeading(chunk, normalized, item));
    const sentences = prose.length > 0 ? prose : all;
    if (request.stance === "supports" && normalized.length <= SHORT_PASSAGE_CHARS) {
      // Whole, from its first sentence to its last (a heading over it left out).
      const from = sentences[0]?.start ?? 0;
      const to = sentences.at(-1)?.end ?? normalized.length;
      return [{ span: span(from, to), score: relevance(normalized.slice(from, to), wanted, numbers) }];
    }
    const { at: named, length } = namedAt(normalized, hint);
    if (named >= 0) {
      // The whole sentences the named words stand in (a model may name a phrase).
      const around = sentences.filter((item) => item.start < named + length && item.end > named);
      const start = Math.min(named, ...around.map((item) => item.start));
      const end = Math.max(named + length, ...around.map((item) => item.end));
      return [{ span: span(start, end), score: Number.POSITIVE_INFINITY }];
    }
    if (request.stance === "contradicts") return [];
    const scored = sentences.map(({ start, end }) => ({
      span: span(start, end),
      score: relevance(normalized.slice(start, end), wanted, numbers),
    }));
    const best = Math.max(...scored.map((item) => item.score));
    if (best === 0) return scored.slice(0, 1);
    return scored
      .filter((item) => item.score >= Math.max(1, best / 2))
      .sort((a, b) => b.score - a.score || a.span.start - b.span.start)
      .slice(0, MAX_SENTENCES);
  });
  const firsts = perPassage.flatMap((spans) => spans.slice(0, 1));
  const top = [...firsts].sort((a, b) => b.score - a.score)[0];
  return [
    ...(top ? [top] : []),
    ...firsts.filter((item) => item !== top),
    ...perPassage.flatMap((spans) => spans.slice(1)),
  ].map((item) => item.span);
}

/**
 * Taken spans merged: overlapping or separated by one space (in passage order), as long as the
 * merged quote stays within `maxChars`; two that would not are quoted apart.
 */
function merged(spans: readonly Span[], maxChars = MAX_QUOTE_CHARS): Span[] {
  const out: Span[] = [];
  for (const span of [...spans].sort((a, b) => a.start - b.start)) {
    const last = out.at(-1);
    const end = last ? Math.max(last.end, span.end) : 0;
    if (last && span.start <= last.end + 1 && end - last.start <= maxChars) last.end = end;
    else out.push({ ...span });
  }
  return out;
}

/**
 * Characters of one passage that its shown spans put before the reader: their union, with the
 * one space between two neighbours counted (a citation that quotes both shows it). Merged
 * without a length cap, so it is never less than what any citation's own quotes show.
 */
function shownChars(spans: readonly Span[]): number {
  return merged(spans, Number.POSITIVE_INFINITY).reduce((sum, span) => sum + span.end - span.start, 0);
}

function quoteOf(span: Span): Quote {
  return {
    text: span.normalized.slice(span.start, span.end),
    cutStart: span.start > 0,
    truncated: span.end < span.normalized.length,
    chunkId: span.chunk.id,
    passage: span.chunk.seq,
    ...(span.chunk.location ? { location: span.chunk.location } : {}),
    ...storedSpan(span.chunk, span.start, span.end),
  };
}

/**
 * The evidence of each request, in request order (pass them in reading order: what a reader
 * meets first is quoted first). Two rounds share the limits: first every citation's most wanted
 * span, then the rest, so one long finding cannot starve the others. A span already quoted
 * (the same words of the same passage, for another citation) costs nothing again, and one that
 * overlaps a quoted span costs only its new characters; one that does not fit is cut at a word
 * when enough room is left, else left out; both are counted in `omitted`.
 */
export function quoteEvidence(
  requests: readonly EvidenceRequest[],
  chunks: ReadonlyMap<string, ExcerptChunk>,
  limits: EvidenceLimits,
): Evidence[] {
  const wanted = requests.map((request) => wantedSpans(request, chunks));
  const taken: Span[][] = requests.map(() => []);
  const omitted = requests.map(() => 0);
  const shown = new Map<string, Span[]>();
  const roomOf = new Map<string, number>();
  let total = limits.total;

  const take = (index: number, span: Span): void => {
    const chunkShown = shown.get(span.chunk.id) ?? [];
    const before = shownChars(chunkShown);
    const cost = (candidate: Span) => shownChars([...chunkShown, candidate]) - before;
    const sourceId = requests[index]?.sourceId ?? "";
    const sourceRoom = roomOf.get(sourceId) ?? limits.perSource;
    const room = Math.min(sourceRoom, total, MAX_QUOTE_CHARS);
    let kept = span;
    if (cost(kept) > room) {
      omitted[index] = (omitted[index] ?? 0) + 1;
      if (room < MIN_EXCERPT_CHARS) return;
      // Two characters kept back: the spaces that may join the cut span to its neighbours.
      kept = { ...span, end: span.start + cutAtWord(span.normalized.slice(span.start, span.end), room - 2).length };
      if (cost(kept) > room) return;
    }
    const spent = cost(kept);
    roomOf.set(sourceId, sourceRoom - spent);
    total -= spent;
    shown.set(span.chunk.id, [...chunkShown, kept]);
    taken[index]?.push(kept);
  };

  wanted.forEach((spans, index) => {
    const [first] = spans;
    if (first) take(index, first);
  });
  wanted.forEach((spans, index) => {
    for (const span of spans.slice(1)) take(index, span);
  });

  return requests.map((request, index) => {
    const byChunk = request.chunkIds.flatMap((chunkId) =>
      merged((taken[index] ?? []).filter((span) => span.chunk.id === chunkId)),
    );
    return { quotes: byChunk.map(quoteOf), omitted: omitted[index] ?? 0 };
  });
}
