/**
 * Text of a PDF with pdf.js (no eval, no fonts loaded, no network). Pages become paragraphs.
 */
import { type ExtractedDocument, firstLineTitle, tidyText } from "./extracted-document.js";
import { scriptText } from "./scripts.js";

interface TextItem {
  str?: string;
  hasEOL?: boolean;
  /** [a, b, c, d, x, y]: the item's scale and where its baseline starts. */
  transform?: number[];
  height?: number;
}

/**
 * How an item sits against the one before it on the same line: raised and smaller (a
 * superscript, "48" then a raised "3"), lowered and smaller (a subscript), or on the line.
 */
function scriptOf(item: TextItem, previous: TextItem | undefined): "^" | "_" | "" {
  const [y, size] = [item.transform?.[5], item.height ?? item.transform?.[3]];
  const [baseline, lineSize] = [previous?.transform?.[5], previous?.height ?? previous?.transform?.[3]];
  if (y === undefined || size === undefined || baseline === undefined || lineSize === undefined || lineSize <= 0)
    return "";
  if (size > lineSize * 0.85 || Math.abs(y - baseline) > lineSize) return "";
  if (y - baseline > lineSize * 0.2) return "^";
  if (baseline - y > lineSize * 0.1) return "_";
  return "";
}

export async function extractPdf(bytes: Uint8Array, fallbackTitle: string): Promise<ExtractedDocument> {
  const pdfjs = await import("pdfjs-dist/legacy/build/pdf.mjs");
  const task = pdfjs.getDocument({
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    stopAtErrors: false,
    verbosity: 0,
  });
  try {
    // Inside the try: a PDF that fails to open must still destroy its task, or its bytes stay alive.
    const pdf = await task.promise;
    const pages: string[] = [];
    for (let number = 1; number <= pdf.numPages; number++) {
      const page = await pdf.getPage(number);
      const content = await page.getTextContent();
      const parts: string[] = [];
      let previous: TextItem | undefined;
      for (const item of content.items as TextItem[]) {
        if (typeof item.str !== "string") continue;
        // A raised or lowered smaller run of a few characters is an exponent or an index: "48^3", "CO_2".
        const script = item.str.trim() !== "" ? scriptOf(item, previous) : "";
        const text = script && scriptText(item.str) !== undefined ? `${script}${scriptText(item.str)}` : item.str;
        parts.push(text);
        parts.push(item.hasEOL ? "\n" : "");
        // The line's own size stays the reference across a script (the item after "^3" is on the line again).
        if (!script && item.str.trim() !== "") previous = item;
      }
      pages.push(parts.join("").replace(/[ \t]*\n[ \t]*(?=\n)/g, "\n"));
      page.cleanup();
    }
    const text = tidyText(pages.join("\n\n"));
    const metadata = await pdf.getMetadata().catch(() => undefined);
    const info = metadata?.info as { Title?: unknown } | undefined;
    const metaTitle = typeof info?.Title === "string" ? info.Title.trim() : "";
    const title = metaTitle || firstLineTitle(text, fallbackTitle);
    return { title, text, contentType: "application/pdf" };
  } finally {
    await task.destroy();
  }
}
