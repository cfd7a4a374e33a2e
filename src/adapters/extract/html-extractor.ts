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
import { EventTarget, Node as NodeFacade, parseHTML } from "linkedom";
import { opensWithMetadata } from "../../core/doc-metadata.js";
import { type ExtractedDocument, tidyText } from "./extracted-document.js";
import { MARK_CHARS, marked, type OutlinedText, outlined, termsHeading } from "./outline.js";
import { scriptText } from "./scripts.js";

/**
 * linkedom's EventTarget constructor gives every node its own listener Map in a WeakMap:
 * a tenth of extraction's time and much of its garbage, for listeners nothing here adds
 * (page scripts never run; Readability and the walk below never listen). Node's constructor
 * chain skips it; a listener added anyway is refused with a clear error rather than lost.
 * Applied only where linkedom has the shape this was written for (Node directly extends
 * EventTarget), so another version of it is left as it is. Measured in
 * docs/decisions/0008-linkedom-for-extraction.md.
 */
function withoutPerNodeListeners(): void {
  const LinkedomNode = Object.getPrototypeOf(NodeFacade) as { prototype: object };
  if (Object.getPrototypeOf(LinkedomNode) !== EventTarget) return;
  function NoListenerState(): void {}
  NoListenerState.prototype = EventTarget.prototype;
  Object.setPrototypeOf(LinkedomNode, NoListenerState);
  Object.defineProperties(LinkedomNode.prototype, {
    addEventListener: {
      configurable: true,
      value: () => {
        throw new Error("extraction's DOM takes no event listeners");
      },
    },
    removeEventListener: { configurable: true, value: () => undefined },
  });
}
withoutPerNodeListeners();

/** The setter `object` inherits for `property`, from the nearest prototype that defines it. */
function inheritedSetter(object: object, property: string): ((value: unknown) => void) | undefined {
  for (let proto = Object.getPrototypeOf(object); proto; proto = Object.getPrototypeOf(proto)) {
    const descriptor = Object.getOwnPropertyDescriptor(proto, property);
    if (descriptor) return descriptor.set;
  }
  return undefined;
}

/** `name` in lower case, worked out once per distinct name (a page has few). */
const lowerNames = new Map<string, string>();
function lowerName(name: string): string {
  let lower = lowerNames.get(name);
  if (lower === undefined) {
    lower = name.toLowerCase();
    if (lowerNames.size < 10_000) lowerNames.set(name, lower);
  }
  return lower;
}

/**
 * linkedom's own links between the nodes of a document, in document order (a node's `next`,
 * and the marker that ends an element): found once on a parsed page, and used only if they
 * lead through that page as expected, so that another version of linkedom falls back to the
 * DOM's own methods.
 */
interface Linked {
  [key: symbol]: Linked | undefined;
  nodeType: number;
  localName?: string;
}
const ORDER = ((): { next: symbol; end: symbol } | undefined => {
  const probe = parseHTML("<html><body><p>a</p><b>b</b></body></html>").document.body as unknown as Linked;
  const own = Object.getOwnPropertySymbols(probe);
  const next = own.find((symbol) => symbol.description === "next");
  const end = own.find((symbol) => symbol.description === "end");
  if (!next || !end) return undefined;
  const names: string[] = [];
  for (let node = probe[next]; node && node !== probe[end]; node = node[next])
    if (node.nodeType === 1) names.push(node.localName ?? "");
  return names.join() === "p,b" ? { next, end } : undefined;
})();

/**
 * The elements under `root` whose name (in any case) is one of `wanted` (lower case), in
 * document order: one walk along linkedom's node list, where linkedom's own lookup upper-cases
 * the name of every element it passes.
 */
function elementsNamed(root: Element, wanted: ReadonlySet<string>): Element[] {
  const found: Element[] = [];
  const start = root as unknown as Linked;
  const end = ORDER && start[ORDER.end];
  if (ORDER && end) {
    for (let node = start[ORDER.next]; node && node !== end; node = node[ORDER.next]) {
      if (node.nodeType === 1 && wanted.has(lowerName(node.localName ?? ""))) found.push(node as unknown as Element);
    }
    return found;
  }
  const visit = (parent: Element): void => {
    for (let child = parent.firstElementChild; child; child = child.nextElementSibling) {
      if (wanted.has(lowerName(child.localName))) found.push(child);
      visit(child);
    }
  };
  visit(root);
  return found;
}

/** The steps of Readability's parse that this extractor calls itself, untyped in its declarations. */
interface ReadabilitySteps {
  _doc: Document;
  _unwrapNoscriptImages(document: Document): void;
  _removeScripts(document: Document): void;
  _prepDocument(): void;
  _grabArticle(page?: Element | null): Element | null;
}

/**
 * Readability as this extractor uses it: the same article, found with cheaper reads of the
 * DOM. Each override returns what Readability's own method returns on linkedom's DOM:
 * - tag lookups walk the tree once instead of matching a selector list on every element
 *   (<template> elements, which querySelectorAll would not look into, are gone by then);
 * - visibility reads `style` only when the element has a style attribute (linkedom computes
 *   no other style);
 * - a byline candidate's text is read only once its attributes or class could make it one;
 * - links are not made absolute: the text holds no links;
 * - the page is not serialized before the first attempt (Readability keeps that HTML to start
 *   again from when an attempt finds too little): a retry, which few pages need, prepares the
 *   page anew from its source instead, and the containers an attempt builds (the article among
 *   them) are not serialized for debug logs that are off.
 */
class TextReadability extends Readability<Node> {
  /** Elements given an own `innerHTML` for the length of one parse. */
  private readonly shadowed: Element[] = [];

  /** `source`: the whole page as parsed, which a retry prepares anew. */
  constructor(
    document: Document,
    private readonly source: string,
    private readonly parser: HtmlParser,
  ) {
    super(document, { charThreshold: 200, keepClasses: true, serializer: (element) => element });
  }

  override parse(): ReturnType<Readability<Node>["parse"]> {
    try {
      return super.parse();
    } finally {
      for (const element of this.shadowed.splice(0)) delete (element as { innerHTML?: string }).innerHTML;
    }
  }

  /** The body as Readability's parse has it when its first attempt starts, from the source again. */
  private preparedBodyHtml(): string {
    const document = readablePage(this.parser, this.source);
    const fresh = new TextReadability(document, this.source, this.parser) as unknown as ReadabilitySteps;
    fresh._unwrapNoscriptImages(document);
    fresh._removeScripts(document);
    fresh._prepDocument();
    return document.body?.innerHTML ?? "";
  }

  _grabArticle(page?: Element | null): Element | null {
    const body = page ?? (this as unknown as ReadabilitySteps)._doc.body;
    if (body) {
      const setInner = inheritedSetter(body, "innerHTML");
      const restart = setInner ? (): void => setInner.call(body, this.preparedBodyHtml()) : undefined;
      if (restart) this.shadow(body, restart);
    }
    // The containers an attempt builds (its article, a page's wrapper) are serialized for debug
    // logs that are off: their `innerHTML` reads "" while the attempt runs.
    const document = (this as unknown as ReadabilitySteps)._doc;
    const create = document.createElement;
    document.createElement = ((tag: string, options?: ElementCreationOptions) => {
      const element = create.call(document, tag, options);
      if (tag.toUpperCase() === "DIV") this.shadow(element);
      return element;
    }) as Document["createElement"];
    try {
      return (Readability.prototype as unknown as ReadabilitySteps)._grabArticle.call(this, page);
    } finally {
      delete (document as { createElement?: unknown }).createElement;
    }
  }

  /** `element.innerHTML` reads "" (and writing it calls `write`) until this parse ends. */
  private shadow(element: Element, write?: () => void): void {
    Object.defineProperty(element, "innerHTML", {
      configurable: true,
      get: () => "",
      set: () => write?.(),
    });
    this.shadowed.push(element);
  }

  _getAllNodesWithTag(node: Element, tagNames: readonly string[]): ArrayLike<Element> {
    return elementsNamed(node, new Set(tagNames.map(lowerName)));
  }

  _isProbablyVisible(node: Element): boolean {
    if (node.hasAttribute("style")) {
      const style = (node as HTMLElement).style;
      if (style && (style.display === "none" || style.visibility === "hidden")) return false;
    }
    if (node.hasAttribute("hidden")) return false;
    if (node.getAttribute("aria-hidden") !== "true") return true;
    const className = node.className as unknown;
    return typeof className === "string" && className.includes("fallback-image");
  }

  _isValidByline(node: Element, matchString: string): boolean {
    const itemprop = node.getAttribute("itemprop");
    const candidate =
      node.getAttribute("rel") === "author" ||
      itemprop?.includes("author") === true ||
      (this as unknown as { REGEXPS: { byline: RegExp } }).REGEXPS.byline.test(matchString);
    if (!candidate) return false;
    const length = (node.textContent ?? "").trim().length;
    return length > 0 && length < 100;
  }

  _fixRelativeUris(): void {}
}

const BLOCK = new Set([
  "address",
  "article",
  "aside",
  "blockquote",
  "dd",
  "div",
  "dl",
  "dt",
  "figcaption",
  "figure",
  "footer",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "header",
  "hr",
  "li",
  "main",
  "ol",
  "p",
  "pre",
  "section",
  "table",
  "ul",
]);
// TITLE: a fragment's <title> lands in the body its parse is given; the title is read on its own.
const SKIP = new Set([
  "script",
  "style",
  "noscript",
  "template",
  "svg",
  "iframe",
  "object",
  "embed",
  "canvas",
  "title",
]);
/** The level of each heading element, h1 to h6. */
const HEADING_LEVELS = new Map([1, 2, 3, 4, 5, 6].map((level) => [`h${level}`, level]));
const NOISE =
  "nav, header, footer, aside, form, script, style, noscript, template, iframe, [role=navigation], [aria-hidden=true]";

/** A table cell's text on one line: its paragraphs and breaks joined by spaces. */
const cellText = (cell: Element): string => blockText(cell).replace(/\s+/g, " ").trim();

/** A heading's permalink ("¶", "#", "§" linking to its own anchor): not part of what the page says. */
const isPermalink = (element: Element): boolean =>
  lowerName(element.localName) === "a" &&
  (element.getAttribute("href") ?? "").startsWith("#") &&
  /^[¶§#🔗⚓]$/u.test((element.textContent ?? "").trim());

/** A heading's text on one line, without its permalink. */
function headingText(element: Element): string {
  const parts: string[] = [];
  const visit = (node: Node): void => {
    if (node.nodeType === 3) parts.push(node.nodeValue ?? "");
    else if (node.nodeType === 1 && !SKIP.has(lowerName((node as Element).localName)) && !isPermalink(node as Element))
      for (let child = node.firstChild; child; child = child.nextSibling) visit(child);
  };
  visit(element);
  return parts.join("").replace(MARK_CHARS, "").replace(/\s+/g, " ").trim();
}

/** A term after another term: it heads the same description as the one before it. */
const groupedAfter = (term: Element): boolean => term.previousElementSibling?.tagName === "DT";

/** A term and the terms after it that head one description with it. */
function termGroup(term: Element): Element[] {
  const group = [term];
  for (let next = term.nextElementSibling; next?.tagName === "DT"; next = next.nextElementSibling) group.push(next);
  return group;
}

/** A definition term that heads a description (`<dt>` followed by its `<dd>`): an entry of a reference page. */
function headsDescription(term: Element): boolean {
  return termGroup(term).at(-1)?.nextElementSibling?.tagName === "DD";
}

/**
 * Text of `root` with block elements as paragraphs; a table row is a paragraph of its cells
 * separated by " | " (cells holding paragraphs stay on their row); a <pre> keeps its lines. With `title`, each heading
 * (h1–h6) and each definition term heading a description (an API entry of a reference page)
 * starts a section named by its path of headings; the text after a description list goes back to
 * the section around it. A section starts at its heading's first character.
 */
function outlinedText(root: Node, title?: string): OutlinedText {
  const out: string[] = [];
  const paths: string[][] = [];
  const headings: string[] = [];
  const definitions: string[] = [];
  /** How many definitions enclose each description list being walked. */
  const lists: number[] = [];
  let pending: string[] | undefined;
  /** Inside a <pre>, its line breaks are the text's (code, a transcript). */
  let preformatted = 0;
  const open = (): void => {
    if (title !== undefined) pending = [...headings.filter(Boolean), ...definitions];
  };
  const emit = (text: string): void => {
    if (pending && /\S/.test(text)) {
      out.push(marked(paths.length), text.replace(/^\s+/, ""));
      paths.push(pending);
      pending = undefined;
    } else out.push(text);
  };
  const visit = (node: Node): void => {
    if (node.nodeType === 3) {
      const value = (node.nodeValue ?? "").replace(MARK_CHARS, "");
      emit(preformatted > 0 ? value.replace(/\r\n?/g, "\n").replace(/[^\S\n]+/g, " ") : value.replace(/\s+/g, " "));
      return;
    }
    if (node.nodeType !== 1) return;
    const element = node as Element;
    const tag = lowerName(element.localName);
    if (SKIP.has(tag) || isPermalink(element)) return;
    if (tag === "br") {
      out.push("\n");
      return;
    }
    // "48<sup>3</sup>" is 48^3 and "x<sub>i</sub>" is x_i, not "483" and "xi"; a footnote mark
    // (a link, or a bracketed "[1]") stays as it was.
    if ((tag === "sup" || tag === "sub") && !element.querySelector("a")) {
      const script = scriptText(element.textContent ?? "");
      if (script !== undefined) {
        emit(`${tag === "sup" ? "^" : "_"}${script}`);
        return;
      }
    }
    if (tag === "tr") {
      const cells = Array.from(element.children).filter((cell) => cell.tagName === "TD" || cell.tagName === "TH");
      const line = cells.map(cellText).join(" | ");
      if (line.replace(/[\s|]/g, "").length > 0) {
        out.push("\n\n");
        emit(line.replace(MARK_CHARS, ""));
        out.push("\n\n");
      }
      return;
    }
    const level = HEADING_LEVELS.get(tag);
    const depth = definitions.length;
    if (title !== undefined && level !== undefined) {
      const text = headingText(element);
      if (text) {
        headings.length = level - 1;
        headings[level - 1] = text;
        definitions.length = 0;
        open();
      }
    } else if (title !== undefined && tag === "dt" && headsDescription(element) && !groupedAfter(element)) {
      // Terms that head one description together (a group of constants) name one section.
      const text = termsHeading(termGroup(element).map(headingText).filter(Boolean));
      if (text) {
        // Terms of one list replace each other; a list inside a description nests one deeper.
        definitions.length = Math.min(definitions.length, lists.at(-1) ?? 0);
        definitions.push(text);
        open();
      }
    }
    const block = BLOCK.has(tag);
    if (block) out.push("\n\n");
    if (tag === "li") out.push("- ");
    if (tag === "dl") {
      lists.push(depth);
      for (let child = element.firstChild; child; child = child.nextSibling) visit(child);
      lists.pop();
      // After the list, the text is the surrounding section's again.
      if (definitions.length > depth) {
        definitions.length = depth;
        open();
      }
    } else {
      if (tag === "pre") preformatted++;
      for (let child = element.firstChild; child; child = child.nextSibling) visit(child);
      if (tag === "pre") preformatted--;
    }
    if (block) out.push("\n\n");
  };
  visit(root);
  return outlined(tidyText(out.join("")), paths, title ?? "");
}

/** Text of `root` with block elements as paragraphs (no sections). */
const blockText = (root: Node): string => outlinedText(root).text;

/** Builds a DOM document of a whole HTML page. */
export type HtmlParser = (page: string) => Document;

/** linkedom's parser: scripts are inert text, nothing is loaded. */
const linkedomParser: HtmlParser = (page) => parseHTML(page).document as unknown as Document;

/** `page` parsed for reading: a <template>'s content is inert, never shown, never part of the text. */
function readablePage(parser: HtmlParser, page: string): Document {
  const document = parser(page);
  for (const template of Array.from(document.getElementsByTagName("template"))) template.remove();
  // A version note ("Deprecated since version 3.9: collections.abc.Set now supports …") is a box
  // of links to Readability, which drops it as clutter: its paragraphs stand in its place.
  for (const note of Array.from(document.getElementsByTagName("div")))
    if (note.querySelector("div") === null && opensWithMetadata((note.textContent ?? "").replace(/\s+/g, " ")))
      note.replaceWith(...Array.from(note.childNodes));
  return document;
}

/**
 * `raw` as a whole page: linkedom builds no <html> or <body> around a fragment, as a
 * browser would, so one is given to it.
 */
function wholePage(raw: string): string {
  const whole = /<html[\s>]/i.test(raw) && /<body[\s>]/i.test(raw);
  return whole ? raw : `<!DOCTYPE html><html><head></head><body>${raw}</body></html>`;
}

/**
 * The text of an HTML fragment or page as written, blocks as paragraphs, without judging what
 * is the article (Readability's job on web pages): for HTML that is all content, such as a
 * Word document converted by mammoth or an e-book's chapter. Scripts, styles and embedded
 * objects are left out.
 */
export function htmlFragmentText(html: string): string {
  return htmlFragment(html).text;
}

/** `htmlFragmentText`'s text, with the fragment's first heading (h1–h3, else its <title>), from one parse. */
export function htmlFragment(html: string): { text: string; heading: string } {
  const document = readablePage(linkedomParser, wholePage(html));
  const heading =
    document.querySelector("h1, h2, h3")?.textContent ?? document.querySelector("title")?.textContent ?? "";
  return { text: document.body ? blockText(document.body) : "", heading: heading.replace(/\s+/g, " ").trim() };
}

/**
 * The page's title, or its main heading where that heading begins with the title and goes on
 * ("The Great Price Collapse" and the heading "The Great Price Collapse: Three Decades of
 * Falling Lithium-Ion Battery Costs"): a headline in the page's metadata or a site's title is
 * often the short form of what the page says it is about.
 */
function fullerTitle(title: string, heading: string): string {
  const short = title.replace(/\s+/g, " ");
  const long = heading.replace(/\s+/g, " ");
  return long.length > short.length && long.toLowerCase().startsWith(short.toLowerCase()) ? long : short;
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
  const document = readablePage(parser, page);
  const pageTitle = document.querySelector("title")?.textContent?.trim() ?? "";
  const h1 = document.querySelector("h1")?.textContent?.trim() ?? "";
  // Readability takes the element itself (no serializing and parsing again); it changes the
  // document it reads, so the fallback below reads a fresh one.
  const article = new TextReadability(document, page, parser).parse();
  const content = article?.content as unknown as Node | null | undefined;
  const title = fullerTitle(article?.title?.trim() || h1 || pageTitle || fallbackTitle, h1);
  let outline = content ? outlinedText(content, title) : { text: "", sections: [] };
  if (outline.text.length < 200) {
    const body = parser(page).body;
    if (body) {
      for (const element of Array.from(body.querySelectorAll(NOISE))) element.remove();
      const fallback = outlinedText(body, title);
      // Readability's last-resort result keeps <nav>/<header> text, so it is often the longer
      // one; the page minus its noise holds everything else, so it wins whenever non-empty.
      if (fallback.text.length > 0) outline = fallback;
    }
  }
  return {
    title,
    text: outline.text,
    contentType: "text/html",
    ...(outline.sections.length > 0 ? { sections: outline.sections } : {}),
  };
}
