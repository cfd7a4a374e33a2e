import type { Section } from "../../core/chunking.js";

/** What an extractor returns: a title and clean text with paragraphs separated by blank lines. */
export interface ExtractedDocument {
  title: string;
  text: string;
  contentType: string;
  /** Named parts of the text (a slide, a sheet's rows, a notebook cell, a chapter), in text order. */
  sections?: Section[];
  /** True when a cap cut the document (a sheet's rows past the limit): the text is its beginning. */
  truncated?: boolean;
}

/** Normalizes extracted text: trims lines, at most one blank line between paragraphs. */
export function tidyText(text: string): string {
  return (
    text
      .replace(/\r\n?/g, "\n")
      .split("\n")
      // A lone space is left as it is (matching every space would rebuild every line).
      .map((line) => line.replace(/[ \t\f\v\u00a0]{2,}|[\t\f\v\u00a0]/g, " ").trim())
      .join("\n")
      .replace(/\n{3,}/g, "\n\n")
      .trim()
  );
}

/** A document's title when its metadata gives none: its first line when short enough to be one, else `fallback`. */
export function firstLineTitle(text: string, fallback: string): string {
  const firstLine = text.split("\n", 1)[0]?.trim() ?? "";
  return firstLine.length > 0 && firstLine.length <= 150 ? firstLine : fallback;
}
