import { isMetadataLine } from "./doc-metadata.js";

/**
 * Splits fetched content into passages (pure). A chunk's text is always
 * an exact substring of the content: `content.slice(start, end) === text`.
 */
/** A passage of a source. Its Host id is `chunkId(sourceId, seq)`. */
export interface Chunk {
  /** 1-based position within the source. */
  seq: number;
  start: number;
  end: number;
  text: string;
  /** Where in its document the passage stands ("slide 3", "sheet Prices, rows 2–21"), when the document says. */
  location?: string;
}

/** Joins the headings of a section's location, outermost first ("Exceptions › json.JSONDecodeError"). */
export const HEADING_SEPARATOR = " › ";

/**
 * A part of a document with a name readers can find it by: from `start` (an offset into the
 * text) to the next section's start. Structured documents (slides, sheets, notebook cells,
 * chapters) give them; a passage never spans two.
 */
export interface Section {
  start: number;
  location: string;
}

export interface ChunkOptions {
  /** Soft target; a single sentence longer than this is cut at a word. */
  maxChars: number;
  /** Sections of the content, in text order; passages are cut at their starts and carry their location. */
  sections: readonly Section[];
}

const DEFAULT_OPTIONS: ChunkOptions = { maxChars: 1_200, sections: [] };

interface Span {
  start: number;
  end: number;
}

/** Paragraph spans of `content[from, to)`: runs of text separated by blank lines, trimmed. */
function paragraphs(content: string, from: number, to: number): Span[] {
  const spans: Span[] = [];
  const separator = /\n[ \t]*\n/g;
  separator.lastIndex = from;
  let start = from;
  for (let match = separator.exec(content); match && match.index < to; match = separator.exec(content)) {
    pushTrimmed(content, start, Math.min(match.index, to), spans);
    start = match.index + match[0].length;
  }
  if (start < to) pushTrimmed(content, start, to, spans);
  return spans;
}

function pushTrimmed(content: string, start: number, end: number, spans: Span[]): void {
  let s = start;
  let e = end;
  while (s < e && /\s/.test(content[s] ?? "")) s++;
  while (e > s && /\s/.test(content[e - 1] ?? "")) e--;
  if (e > s) spans.push({ start: s, end: e });
}

/** Cuts a long span at sentence ends, then at spaces, so no piece exceeds maxChars. */
function splitLong(content: string, span: Span, maxChars: number): Span[] {
  if (span.end - span.start <= maxChars) return [span];
  const pieces: Span[] = [];
  let start = span.start;
  while (span.end - start > maxChars) {
    const window = content.slice(start, start + maxChars);
    let cut = -1;
    for (const match of window.matchAll(/[.!?][)"'’”]?\s+/g)) {
      if (match.index > maxChars * 0.3) cut = match.index + match[0].length;
    }
    if (cut < 0) {
      const space = window.lastIndexOf(" ");
      cut = space > maxChars * 0.3 ? space + 1 : maxChars;
    }
    pushTrimmed(content, start, start + cut, pieces);
    start += cut;
  }
  pushTrimmed(content, start, span.end, pieces);
  return pieces;
}

/** Chunks `content`: never across a section's start. Pure and deterministic. */
export function chunkContent(content: string, options: Partial<ChunkOptions> = {}): Chunk[] {
  const { maxChars, sections } = { ...DEFAULT_OPTIONS, ...options };
  // The text before the first section (or all of it) is a part with no location.
  const parts: { start: number; end: number; location?: string }[] = [];
  const starts = sections.filter((section) => section.start >= 0 && section.start < content.length);
  parts.push({ start: 0, end: starts[0]?.start ?? content.length });
  starts.forEach((section, index) => {
    const end = Math.max(section.start, Math.min(starts[index + 1]?.start ?? content.length, content.length));
    parts.push({ start: section.start, end, location: section.location });
  });
  const chunks: Chunk[] = [];
  for (const part of parts) {
    const pieces = paragraphs(content, part.start, part.end).flatMap((span) => splitLong(content, span, maxChars));
    const groups: Span[] = [];
    for (const piece of pieces) {
      const last = groups.at(-1);
      // Short pieces join the next; a metadata line stays with the passage it is about.
      const joins =
        last !== undefined &&
        (last.end - last.start < maxChars / 3 || isMetadataLine(content.slice(piece.start, piece.end)));
      if (last && joins && piece.end - last.start <= maxChars) {
        last.end = piece.end;
      } else {
        groups.push({ ...piece });
      }
    }
    for (const span of groups)
      chunks.push({
        seq: chunks.length + 1,
        start: span.start,
        end: span.end,
        text: content.slice(span.start, span.end),
        ...(part.location ? { location: part.location } : {}),
      });
  }
  return chunks;
}
