/**
 * Text of a PDF with pdf.js (no eval, no fonts loaded, no network). Pages become paragraphs.
 */
import { type ExtractedDocument, firstLineTitle, tidyText } from "./extracted-document.js";

interface TextItem {
  str?: string;
  hasEOL?: boolean;
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
      for (const item of content.items as TextItem[]) {
        if (typeof item.str !== "string") continue;
        parts.push(item.str);
        parts.push(item.hasEOL ? "\n" : "");
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
