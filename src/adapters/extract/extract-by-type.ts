/** Picks the extractor for a corpus file by its extension. */
import { extname } from "node:path";
import type { ExtractedDocument } from "./extracted-document.js";
import { extractMarkdown, extractPlainText } from "./text-extractor.js";

export const SUPPORTED_EXTENSIONS = [".md", ".markdown", ".txt", ".text", ".html", ".htm", ".pdf"] as const;

export function isSupportedFile(path: string): boolean {
  return (SUPPORTED_EXTENSIONS as readonly string[]).includes(extname(path).toLowerCase());
}

/** Extracts a file's title and clean text. `name` gives the type and the fallback title. */
export async function extractFile(name: string, bytes: Uint8Array): Promise<ExtractedDocument> {
  const extension = extname(name).toLowerCase();
  const fallbackTitle =
    name
      .split("/")
      .at(-1)
      ?.replace(/\.[^.]+$/, "")
      .replace(/[-_]+/g, " ") || name;
  if (extension === ".pdf") return (await import("./pdf-extractor.js")).extractPdf(bytes, fallbackTitle);
  const raw = new TextDecoder("utf-8").decode(bytes);
  // jsdom and pdf.js load on first use: commands that read no documents start fast.
  if (extension === ".html" || extension === ".htm")
    return (await import("./html-extractor.js")).extractHtml(raw, fallbackTitle);
  if (extension === ".md" || extension === ".markdown") return extractMarkdown(raw, fallbackTitle);
  return extractPlainText(raw, fallbackTitle);
}
