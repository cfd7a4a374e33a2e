/** Picks the extractor for a corpus file by its extension. */
import { extname } from "node:path";
import type { ExtractedDocument } from "./extracted-document.js";
import { extractMarkdown, extractPlainText } from "./text-extractor.js";

/** What each extension is read as; every extractor module loads on first use. */
const EXTRACTORS: Record<string, (bytes: Uint8Array, title: string) => Promise<ExtractedDocument>> = {
  ".md": async (bytes, title) => extractMarkdown(utf8(bytes), title),
  ".markdown": async (bytes, title) => extractMarkdown(utf8(bytes), title),
  ".txt": async (bytes, title) => extractPlainText(utf8(bytes), title),
  ".text": async (bytes, title) => extractPlainText(utf8(bytes), title),
  ".html": async (bytes, title) => (await import("./html-extractor.js")).extractHtml(utf8(bytes), title),
  ".htm": async (bytes, title) => (await import("./html-extractor.js")).extractHtml(utf8(bytes), title),
  ".pdf": async (bytes, title) => (await import("./pdf-extractor.js")).extractPdf(bytes, title),
  ".docx": async (bytes, title) => (await import("./office-extractor.js")).extractDocx(bytes, title),
  ".pptx": async (bytes, title) => (await import("./office-extractor.js")).extractPptx(bytes, title),
  ".xlsx": async (bytes, title) => (await import("./office-extractor.js")).extractXlsx(bytes, title),
  ".odt": async (bytes, title) => (await import("./office-extractor.js")).extractOdt(bytes, title),
  ".ods": async (bytes, title) => (await import("./office-extractor.js")).extractOds(bytes, title),
  ".csv": async (bytes, title) => (await import("./csv-extractor.js")).extractCsv(utf8(bytes), title, false),
  ".tsv": async (bytes, title) => (await import("./csv-extractor.js")).extractCsv(utf8(bytes), title, true),
  ".epub": async (bytes, title) => (await import("./epub-extractor.js")).extractEpub(bytes, title),
  ".ipynb": async (bytes, title) => (await import("./notebook-extractor.js")).extractNotebook(bytes, title),
  ".eml": async (bytes, title) => (await import("./mail-extractor.js")).extractMail(bytes, title),
};

export const SUPPORTED_EXTENSIONS = Object.keys(EXTRACTORS);

/**
 * Types read on the calling thread, one file at a time: plain text and Markdown cost less than a
 * worker's hop. A folder with many of them sends them to the workers in batches (corpus-index.ts).
 */
export const LIGHT_EXTENSIONS = new Set([".md", ".markdown", ".txt", ".text"]);

const utf8 = (bytes: Uint8Array): string => new TextDecoder("utf-8").decode(bytes);

export function isSupportedFile(path: string): boolean {
  return Object.hasOwn(EXTRACTORS, extname(path).toLowerCase());
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
  const extractor = EXTRACTORS[extension] ?? EXTRACTORS[".txt"];
  if (!extractor) throw new Error("no extractor");
  return extractor(bytes, fallbackTitle);
}
