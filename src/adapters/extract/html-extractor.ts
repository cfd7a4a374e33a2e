/**
 * Readable text of an HTML page: Readability over linkedom (a DOM without a browser: scripts
 * never run, nothing is fetched), headings and list items kept as their own paragraphs;
 * navigation, scripts and styles dropped. linkedom replaced jsdom for speed with the same
 * text (docs/decisions/0008-linkedom-for-extraction.md). Runs in the extraction pool's
 * workers (extraction-pool.ts), never on a server's event loop.
 */
// The DOM's types (Node, Element, Document) for the document linkedom builds and Readability reads.
/// <reference lib="dom" />
import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import { type ExtractedDocument, tidyText } from "./extracted-document.js";

const BLOCK = new Set([
  "ADDRESS",
  "ARTICLE",
  "ASIDE",
  "BLOCKQUOTE",
  "DD",
  "DIV",
  "DL",
  "DT",
  "FIGCAPTION",
  "FIGURE",
  "FOOTER",
  "H1",
  "H2",
  "H3",
  "H4",
  "H5",
  "H6",
  "HEADER",
  "HR",
  "LI",
  "MAIN",
  "OL",
  "P",
  "PRE",
  "SECTION",
  "TABLE",
  "TBODY",
  "THEAD",
  "TR",
  "UL",
]);
// TITLE: a fragment's <title> lands in the body its parse is given; the title is read on its own.
const SKIP = new Set([
  "SCRIPT",
  "STYLE",
  "NOSCRIPT",
  "TEMPLATE",
  "SVG",
  "IFRAME",
  "OBJECT",
  "EMBED",
  "CANVAS",
  "TITLE",
]);
const NOISE =
  "nav, header, footer, aside, form, script, style, noscript, template, iframe, [role=navigation], [aria-hidden=true]";

/** Text of `root` with block elements as paragraphs. */
function blockText(root: Node): string {
  const out: string[] = [];
  const visit = (node: Node): void => {
    if (node.nodeType === 3) {
      out.push((node.nodeValue ?? "").replace(/\s+/g, " "));
      return;
    }
    if (node.nodeType !== 1) return;
    const element = node as Element;
    const tag = element.tagName.toUpperCase();
    if (SKIP.has(tag)) return;
    if (tag === "BR") {
      out.push("\n");
      return;
    }
    const block = BLOCK.has(tag);
    if (block) out.push("\n\n");
    if (tag === "LI") out.push("- ");
    if (tag === "TD" || tag === "TH") out.push(" ");
    for (const child of Array.from(element.childNodes)) visit(child);
    if (block) out.push("\n\n");
  };
  visit(root);
  return tidyText(out.join(""));
}

/** Builds a DOM document of a whole HTML page. */
export type HtmlParser = (page: string) => Document;

/** linkedom's parser: scripts are inert text, nothing is loaded. */
const linkedomParser: HtmlParser = (page) => parseHTML(page).document as unknown as Document;

/**
 * `raw` as a whole page: linkedom builds no <html> or <body> around a fragment, as a
 * browser would, so one is given to it.
 */
function wholePage(raw: string): string {
  const whole = /<html[\s>]/i.test(raw) && /<body[\s>]/i.test(raw);
  return whole ? raw : `<!DOCTYPE html><html><head></head><body>${raw}</body></html>`;
}

/**
 * `_url` is kept for the callers' sake: links are not part of the text, so nothing is
 * resolved against it. `parser` is linkedom's but for the benchmark, which compares DOMs.
 */
export function extractHtml(
  raw: string,
  fallbackTitle: string,
  _url = "https://corpus.invalid/",
  parser: HtmlParser = linkedomParser,
): ExtractedDocument {
  const page = wholePage(raw);
  const document = parser(page);
  const pageTitle = document.querySelector("title")?.textContent?.trim() ?? "";
  const h1 = document.querySelector("h1")?.textContent?.trim() ?? "";
  // Readability takes the element itself (no serializing and parsing again); it changes the
  // document it reads, so the fallback below reads a fresh one.
  const article = new Readability(document, { charThreshold: 200, serializer: (element) => element }).parse();
  const content = article?.content as unknown as Node | null | undefined;
  let text = content ? blockText(content) : "";
  if (text.length < 200) {
    const body = parser(page).body;
    if (body) {
      for (const element of Array.from(body.querySelectorAll(NOISE))) element.remove();
      const fallback = blockText(body);
      // Readability's last-resort result keeps <nav>/<header> text, so it is often the longer
      // one; the page minus its noise holds everything else, so it wins whenever non-empty.
      if (fallback.length > 0) text = fallback;
    }
  }
  const title = (article?.title?.trim() || h1 || pageTitle || fallbackTitle).replace(/\s+/g, " ");
  return { title, text, contentType: "text/html" };
}
