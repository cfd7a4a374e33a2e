/**
 * A documentation check over real pages no one here wrote: the Python library reference of
 * Debian's python3.11-doc package (or a later one), served on a loopback "web" — a SearXNG-shaped
 * search endpoint ranking the pages by BM25, and the pages themselves — and asked questions whose
 * answers are the metadata lines under an API entry's heading ("New in version 3.5.", "Deprecated
 * since version 3.4"). The questions are read off the pages (every entry that has such a line),
 * never written by hand for the engine.
 *
 * Used by `npm run bench` (section D, every question) and by an end-to-end test (a handful).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { parseHTML } from "linkedom";
import { groupPrefixes } from "../core/answer/answer.js";
import type { ReportDocument } from "../core/report/report-document.js";
import { searxngReply } from "./loopback-http.js";

/** Where Debian installs python3.X-doc's HTML, newest first. */
const INSTALLED_PYTHON_DOCS = ["3.13", "3.12", "3.11"].map((version) => `/usr/share/doc/python${version}/html`);

/** The installed Python reference's root, when a python3.X-doc package is installed. */
export function installedPythonDocs(): string | undefined {
  return INSTALLED_PYTHON_DOCS.find((root) => existsSync(join(root, "library", "json.html")));
}

export interface DocQuestion {
  /** The page holding the answer, relative to the docs root ("library/json.html"). */
  page: string;
  /** The entry the question is about, as its heading's anchor names it ("json.JSONDecodeError"). */
  name: string;
  kind: "added" | "deprecated";
  /** The version the metadata line gives ("3.5"). */
  version: string;
  question: string;
}

const METADATA: readonly { kind: DocQuestion["kind"]; className: string; pattern: RegExp }[] = [
  { kind: "added", className: "versionadded", pattern: /(?:New|Added) in version (\d+(?:\.\d+)+)/i },
  { kind: "deprecated", className: "deprecated", pattern: /Deprecated since version (\d+(?:\.\d+)+)/i },
];

const phrase = (kind: DocQuestion["kind"], name: string): string =>
  kind === "added" ? `In which version was ${name} added?` : `Since which version is ${name} deprecated?`;

/**
 * The questions one page answers with a metadata line: for every API entry (a `<dt id>` of a
 * `<dl class="py …">`) whose description has a "New in version" or "Deprecated since version"
 * line of its own (not one of a nested entry's), one question, in page order.
 */
export function pageQuestions(html: string, page: string): DocQuestion[] {
  const { document } = parseHTML(html);
  const questions: DocQuestion[] = [];
  for (const term of Array.from(document.querySelectorAll("dl.py > dt[id]"))) {
    const name = term.getAttribute("id") ?? "";
    let description = term.nextElementSibling;
    while (description && description.tagName === "DT") description = description.nextElementSibling;
    if (!name || !description || description.tagName !== "DD") continue;
    for (const { kind, className, pattern } of METADATA) {
      const line = Array.from(description.children).find((child) => child.classList.contains(className));
      const version = pattern.exec(line?.textContent ?? "")?.[1];
      if (version) questions.push({ page, name, kind, version, question: phrase(kind, name) });
    }
  }
  return questions;
}

/** The library reference's pages, relative to `root`, in path order. */
export function libraryPages(root: string): string[] {
  return readdirSync(join(root, "library"))
    .filter((name) => name.endsWith(".html"))
    .sort()
    .map((name) => `library/${name}`);
}

/** The questions of `pages`, in page order. */
export function docQuestions(root: string, pages: readonly string[]): DocQuestion[] {
  return pages.flatMap((page) => pageQuestions(readFileSync(join(root, page), "utf8"), page));
}

// ---------------------------------------------------------------------------------------------
// The loopback web

interface IndexedPage {
  path: string;
  title: string;
  text: string;
  terms: Map<string, number>;
  length: number;
}

const tokens = (text: string): string[] => text.toLowerCase().match(/[a-z0-9_]+/g) ?? [];

/** A page's visible text, roughly (for the search index and snippets only: the run extracts the page itself). */
function roughText(html: string): { title: string; text: string } {
  const title = /<title>([\s\S]*?)<\/title>/i.exec(html)?.[1]?.replace(/\s+/g, " ").trim() ?? "";
  const body = html
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&[a-z#0-9]+;/gi, " ")
    .replace(/\s+/g, " ")
    .trim();
  return { title, text: body };
}

/** BM25 over the pages (k1 1.2, b 0.75), the title's words counted three times. */
function searchIndex(pages: readonly IndexedPage[]): (query: string, limit: number) => IndexedPage[] {
  const df = new Map<string, number>();
  for (const page of pages) for (const term of page.terms.keys()) df.set(term, (df.get(term) ?? 0) + 1);
  const average = pages.reduce((sum, page) => sum + page.length, 0) / Math.max(1, pages.length);
  return (query, limit) => {
    const terms = [...new Set(tokens(query))];
    return pages
      .map((page) => {
        let score = 0;
        for (const term of terms) {
          const frequency = page.terms.get(term) ?? 0;
          if (frequency === 0) continue;
          const idf = Math.log(1 + (pages.length - (df.get(term) ?? 0) + 0.5) / ((df.get(term) ?? 0) + 0.5));
          score += (idf * frequency * 2.2) / (frequency + 1.2 * (0.25 + (0.75 * page.length) / average));
        }
        return { page, score };
      })
      .filter((entry) => entry.score > 0)
      .sort((a, b) => b.score - a.score || (a.page.path < b.page.path ? -1 : 1))
      .slice(0, limit)
      .map((entry) => entry.page);
  };
}

export interface DocWeb {
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  /** The page's address on this web. */
  urlOf(page: string): string;
  close(): Promise<void>;
}

/** Serves `pages` of `root` and a SearXNG-shaped `/search` over them on 127.0.0.1. */
export async function startDocWeb(root: string, pages: readonly string[]): Promise<DocWeb> {
  const indexed: IndexedPage[] = pages.map((path) => {
    const { title, text } = roughText(readFileSync(join(root, path), "utf8"));
    const terms = new Map<string, number>();
    const words = [...tokens(title), ...tokens(title), ...tokens(title), ...tokens(text)];
    for (const word of words) terms.set(word, (terms.get(word) ?? 0) + 1);
    return { path, title, text, terms, length: words.length };
  });
  const search = searchIndex(indexed);
  const served = new Set(pages);
  let origin = "";
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", origin);
    if (url.pathname === "/search") {
      const hits = search(url.searchParams.get("q") ?? "", 10);
      response.setHeader("content-type", "application/json");
      response.end(
        JSON.stringify(
          searxngReply(
            url.searchParams.get("q") ?? "",
            hits.map((page, index) => ({
              url: `${origin}/${page.path}`,
              title: page.title,
              content: page.text.slice(0, 240),
              engine: "loopback",
              score: 10 - index,
            })),
          ),
        ),
      );
      return;
    }
    const path = decodeURIComponent(url.pathname.slice(1));
    if (!served.has(path)) {
      response.statusCode = 404;
      response.end("not found");
      return;
    }
    response.setHeader("content-type", "text/html; charset=utf-8");
    response.end(readFileSync(join(root, path)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    urlOf: (page) => `${origin}/${page}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The arguments of `assay run` that research this web (`--json` and `--out` are the caller's). */
export const docWebArgs = (web: DocWeb): string[] => [
  "--web",
  "--search",
  `searxng:${web.origin}`,
  "--allow-host",
  "127.0.0.1",
  "--max-sources",
  "5",
];

export interface DocAnswer {
  /** The run read the page holding the answer. */
  read: boolean;
  /** A finding cited to that page carries the version ("version 3.5"). */
  versionQuoted: boolean;
  /** …and says which entry it is about: its name (or a group that holds it, "mmap.MADV_*") is in the finding or in where the quoted passage stands. */
  answered: boolean;
  /** …and that finding answers the question in the report's answer block. */
  inAnswerBlock: boolean;
}

/** The last part of an entry's name, as a reader would look for it ("json.JSONDecoder.decode" -> "decode"). */
const shortName = (name: string): string => name.split(".").at(-1) ?? name;

/** How far `report` answers `question`. */
export function docAnswer(report: ReportDocument, question: DocQuestion, web: DocWeb): DocAnswer {
  const url = web.urlOf(question.page);
  const source = report.sources.find((entry) => entry.url === url);
  if (!source) return { read: false, versionQuoted: false, answered: false, inAnswerBlock: false };
  const version = new RegExp(`\\bversion ${question.version.replace(/\./g, "\\.")}(?![\\d.]*\\d)`, "i");
  const name = shortName(question.name).toLowerCase();
  let versionQuoted = false;
  let answered = false;
  const answering = new Set<number>();
  for (const finding of [...report.directFindings, ...report.findings]) {
    const cited = finding.citations.filter((citation) => citation.sourceId === source.id);
    if (cited.length === 0) continue;
    const quotes = cited.flatMap((citation) => citation.evidence?.quotes ?? []);
    const said = [finding.text, ...quotes.map((quote) => quote.text)].join(" ");
    if (!version.test(said)) continue;
    versionQuoted = true;
    const where = [finding.text, ...quotes.map((quote) => `${quote.location ?? ""} ${quote.text}`)]
      .join(" ")
      .toLowerCase();
    // The entry is named where it is written, or by the group its heading names ("mmap.MADV_*").
    if (where.includes(name) || groupPrefixes(where).some((prefix) => name.startsWith(prefix) && name !== prefix)) {
      answered = true;
      answering.add(finding.number);
    }
  }
  const inAnswerBlock = (report.answer ?? []).some((part) =>
    part.findings.some((use) => use.role === "answer" && answering.has(use.number)),
  );
  return { read: true, versionQuoted, answered, inAnswerBlock };
}
