/**
 * Readable text of an HTML page: Readability over jsdom (scripts never run), headings and
 * list items kept as their own paragraphs; navigation, scripts and styles dropped.
 */
import { Readability } from "@mozilla/readability";
import { JSDOM } from "jsdom";
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
const SKIP = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "SVG", "IFRAME", "OBJECT", "EMBED", "CANVAS"]);
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

export function extractHtml(raw: string, fallbackTitle: string, url = "https://corpus.invalid/"): ExtractedDocument {
  const dom = new JSDOM(raw, { url, contentType: "text/html" });
  try {
    const document = dom.window.document;
    const pageTitle = document.querySelector("title")?.textContent?.trim() ?? "";
    const h1 = document.querySelector("h1")?.textContent?.trim() ?? "";
    const article = new Readability(document.cloneNode(true) as Document, { charThreshold: 200 }).parse();
    let text = "";
    if (article?.content) {
      const holder = document.createElement("div");
      holder.innerHTML = article.content;
      text = blockText(holder);
    }
    if (text.length < 200) {
      const body = document.body;
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
  } finally {
    dom.window.close();
  }
}
