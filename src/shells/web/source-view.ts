/**
 * The web UI's source view (pure): the text Assay read and kept of one source, passage by
 * passage, with the words its report quotes highlighted. The report's "open at these words"
 * links land here, at the passage (`#passage-4`). Every text is escaped.
 */
import { quotedPlaces, readableTime } from "../../core/render/format.js";
import { escapeHtml as e, locationHtml } from "../../core/render/html.js";
import type { ReportDocument, SourceEntry } from "../../core/report/report-document.js";

/** A passage as the store keeps it: its place in the source's stored text and its text. */
export interface StoredPassage {
  seq: number;
  start: number;
  text: string;
  location?: string;
}

/** Where the report quotes `sourceId` (its findings' evidence and its excerpts), as offsets in the stored text. */
export function quotedSpans(doc: ReportDocument, sourceId: string): { start: number; end: number }[] {
  const quotes = [
    ...(quotedPlaces(doc).get(sourceId) ?? []),
    ...doc.sourceCards.filter((card) => card.sourceId === sourceId).flatMap((card) => card.excerpts),
  ];
  return quotes.flatMap((quote) =>
    quote.start === undefined || quote.end === undefined ? [] : [{ start: quote.start, end: quote.end }],
  );
}

/** `text` (which starts at `offset` of the stored text) escaped, with the parts inside `spans` in `<mark>`. */
export function markedText(text: string, offset: number, spans: readonly { start: number; end: number }[]): string {
  const inside = spans
    .map((span) => ({ start: Math.max(0, span.start - offset), end: Math.min(text.length, span.end - offset) }))
    .filter((span) => span.start < span.end)
    .sort((a, b) => a.start - b.start);
  const merged: { start: number; end: number }[] = [];
  for (const span of inside) {
    const last = merged.at(-1);
    if (last && span.start <= last.end) last.end = Math.max(last.end, span.end);
    else merged.push({ ...span });
  }
  let html = "";
  let at = 0;
  for (const span of merged) {
    html += `${e(text.slice(at, span.start))}<mark>${e(text.slice(span.start, span.end))}</mark>`;
    at = span.end;
  }
  return html + e(text.slice(at));
}

/** The body of the source view: title, where it is, then each passage, quoted words marked. */
export function sourceViewBody(
  entry: SourceEntry,
  passages: readonly StoredPassage[],
  spans: readonly { start: number; end: number }[],
  reportHref: string,
): string {
  const where = locationHtml(entry.url ?? entry.path ?? "");
  const sections = passages.map((passage) => {
    const end = passage.start + passage.text.length;
    const quoted = spans.some((span) => span.start < end && span.end > passage.start);
    return `<section class="passage${quoted ? " quoted" : ""}" id="passage-${passage.seq}" aria-labelledby="passage-${passage.seq}-title"><h2 id="passage-${passage.seq}-title">Passage ${passage.seq} of ${passages.length}${passage.location ? `, ${e(passage.location)}` : ""}${quoted ? ' <span class="hint">(quoted in the report)</span>' : ""}</h2><p class="stored">${markedText(passage.text, passage.start, spans)}</p></section>`;
  });
  return [
    `<p><a href="${e(reportHref)}#source-${entry.number}">← Back to the report</a></p>`,
    `<h1>[${entry.number}] ${e(entry.title)}</h1>`,
    `<p class="where">${where} · read <time datetime="${e(entry.capturedAt)}">${e(readableTime(entry.capturedAt))}</time></p>`,
    `<p class="hint">The text Assay read and kept of this source, in the passages the report cites by number. Highlighted: the words the report quotes.${entry.url === undefined ? "" : " The page itself may have changed since."}</p>`,
    ...sections,
  ].join("\n");
}
