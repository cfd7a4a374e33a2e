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
}

export interface ChunkOptions {
  /** Soft target; a single sentence longer than this is cut at a word. */
  maxChars: number;
}

const DEFAULT_OPTIONS: ChunkOptions = { maxChars: 1_200 };

interface Span {
  start: number;
  end: number;
}

/** Paragraph spans: runs of text separated by blank lines, trimmed. */
function paragraphs(content: string): Span[] {
  const spans: Span[] = [];
  const separator = /\n[ \t]*\n/g;
  let from = 0;
  for (const match of content.matchAll(separator)) {
    pushTrimmed(content, from, match.index, spans);
    from = match.index + match[0].length;
  }
  pushTrimmed(content, from, content.length, spans);
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

/** Chunks `content`. Pure and deterministic. */
export function chunkContent(content: string, options: Partial<ChunkOptions> = {}): Chunk[] {
  const { maxChars } = { ...DEFAULT_OPTIONS, ...options };
  const pieces = paragraphs(content).flatMap((span) => splitLong(content, span, maxChars));
  const groups: Span[] = [];
  for (const piece of pieces) {
    const last = groups.at(-1);
    if (last && piece.end - last.start <= maxChars && last.end - last.start < maxChars / 3) {
      last.end = piece.end;
    } else {
      groups.push({ ...piece });
    }
  }
  return groups.map((span, index) => ({
    seq: index + 1,
    start: span.start,
    end: span.end,
    text: content.slice(span.start, span.end),
  }));
}
