/**
 * Reads a rendered report back into its items, so tests can check that the Markdown and
 * HTML projections carry the same content and citations.
 */
import { readFileSync } from "node:fs";
import { JSDOM } from "jsdom";
import { unescapeMarkdown } from "../core/render/markdown.js";
import { parseReportDocument, type ReportDocument } from "../core/report/report-document.js";

/** One citation's evidence under an item, as shown: "Evidence [1: passage 4]", its quotes, and the remark. */
export interface ReadEvidence {
  head: string;
  quotes: string[];
  remark: string;
}

export interface ReadItem {
  number: number;
  text: string;
  citation: string;
  evidence: ReadEvidence[];
}

export interface ReadBack {
  title: string;
  notice: string;
  findings: ReadItem[];
  recommendations: { text: string; citation: string; evidence: ReadEvidence[] }[];
  gaps: string[];
  cards: { number: number; title: string; excerpts: { text: string; citation: number; passage: string }[] }[];
  limits: string[];
  queries: string[];
  /** `quoted`: where the report quotes the source ("passage 1 (characters 0–80 of the text read)"), "" when nowhere. */
  sources: { number: number; title: string; location: string; quoted: string }[];
  reviewed: { number: number; title: string; location: string; quoted: string }[];
}

function section(lines: string[], heading: string): string[] {
  const start = lines.indexOf(heading);
  if (start < 0) return [];
  const rest = lines.slice(start + 1);
  const end = rest.findIndex((line) => /^#{1,2} /.test(line) || line === "---");
  return end < 0 ? rest : rest.slice(0, end);
}

const SOURCE_LINE = /^(\d+)\. (.*) — (.*) \(read [^)]*\)$/;

function sourceList(lines: string[]): ReadBack["sources"] {
  const sources: ReadBack["sources"] = [];
  for (const line of lines) {
    const match = SOURCE_LINE.exec(line);
    const quoted = /^\s+- Quoted from (.*?)(?:: <[^>]*>)?$/.exec(line);
    const last = sources.at(-1);
    if (quoted && last) last.quoted = unescapeMarkdown(quoted[1] ?? "");
    if (!match) continue;
    const location = (match[3] ?? "").replace(/^`|`$/g, "").replace(/^<|>$/g, "");
    sources.push({ number: Number(match[1]), title: unescapeMarkdown(match[2] ?? ""), location, quoted: "" });
  }
  return sources;
}

const EVIDENCE_LINE = /^\s+> (Evidence|Also stated by|Contradicting passage) (\[[^\]]*\]): (.*)$/;

/** The evidence notes in the lines under an item (Markdown). */
function evidenceOf(lines: readonly string[]): ReadEvidence[] {
  return lines.flatMap((line) => {
    const match = EVIDENCE_LINE.exec(line);
    if (!match) return [];
    let said = match[3] ?? "";
    const remark = /(?:^| )\*(.*)\*$/.exec(said);
    if (remark) said = said.slice(0, remark.index);
    const quotes = [...said.matchAll(/(?:\(passage \d+\) )?“(.*?)”(?= (?:\(passage \d+\) )?“|$)/g)].map((quote) =>
      unescapeMarkdown(quote[1] ?? ""),
    );
    return [{ head: `${match[1]} ${match[2]}`, quotes, remark: unescapeMarkdown(remark?.[1] ?? "") }];
  });
}

/** Each item line of a section with the lines indented under it. */
function itemBlocks(lines: readonly string[], start: RegExp): { line: string; under: string[] }[] {
  const blocks: { line: string; under: string[] }[] = [];
  for (const line of lines) {
    if (start.test(line)) blocks.push({ line, under: [] });
    else if (/^\s+\S/.test(line)) blocks.at(-1)?.under.push(line);
  }
  return blocks;
}

export function readMarkdown(markdown: string): ReadBack {
  const lines = markdown.split("\n");
  const cards: ReadBack["cards"] = [];
  for (const line of section(lines, "## Source excerpts")) {
    const heading = /^### \[(\d+)\] (.*)$/.exec(line);
    if (heading) {
      cards.push({ number: Number(heading[1]), title: unescapeMarkdown(heading[2] ?? ""), excerpts: [] });
      continue;
    }
    const card = cards.at(-1);
    const footer = /^> — (passage \d+ of \d+) \[(\d+)\]$/.exec(line);
    if (card && footer) {
      const excerpt = card.excerpts.at(-1);
      if (excerpt) {
        excerpt.passage = footer[1] ?? "";
        excerpt.citation = Number(footer[2]);
      }
    } else if (card && line.startsWith("> ")) {
      card.excerpts.push({ text: unescapeMarkdown(line.slice(2)), citation: 0, passage: "" });
    }
  }
  const bullets = (heading: string): string[] =>
    section(lines, heading)
      .filter((line) => line.startsWith("- "))
      .map((line) => unescapeMarkdown(line.slice(2)));
  const findingLine = /^(\d+)\. (.*?)(?: \(derived from [^)]*\))? (\[[^\]]*\])$/;
  const findings = itemBlocks(
    [...section(lines, "## Direct findings"), ...section(lines, "## Further findings")],
    /^\d+\. /,
  ).flatMap(({ line, under }) => {
    const match = findingLine.exec(line);
    return match
      ? [
          {
            number: Number(match[1]),
            text: unescapeMarkdown(match[2] ?? ""),
            citation: match[3] ?? "",
            evidence: evidenceOf(under),
          },
        ]
      : [];
  });
  const recommendations = itemBlocks(section(lines, "## Recommendations"), /^- /).flatMap(({ line, under }) => {
    const match = /^- \*\*Recommendation:\*\* (.*?) \(based on [^)]*\)\..* (\[[^\]]*\])$/.exec(line);
    return match
      ? [{ text: unescapeMarkdown(match[1] ?? ""), citation: match[2] ?? "", evidence: evidenceOf(under) }]
      : [];
  });
  return {
    title: unescapeMarkdown((lines[0] ?? "").replace(/^# /, "")),
    notice: unescapeMarkdown((lines[2] ?? "").replace(/^> /, "")),
    findings,
    recommendations,
    gaps: bullets("## Gaps").map((gap) => gap.replace(/ \(related: [^)]*\)$/, "")),
    cards,
    limits: bullets("## Limits of this research"),
    queries: bullets("## Searches run"),
    sources: sourceList(section(lines, "## Sources")),
    reviewed: sourceList(section(lines, "## Also read (not cited)")),
  };
}

export function readHtml(html: string): ReadBack {
  const dom = new JSDOM(html);
  try {
    const document = dom.window.document;
    const text = (element: Element | null | undefined): string => element?.textContent ?? "";
    const list = (selector: string): ReadBack["sources"] =>
      Array.from(document.querySelectorAll(selector)).map((item) => ({
        number: Number(item.getAttribute("value")),
        title: text(item.querySelector(".title")),
        location: text(item.querySelector(".where")),
        quoted: text(item.querySelector(".quoted-at .places")),
      }));
    // The disclosures (the printed copy says the same).
    const evidence = (item: Element): ReadEvidence[] =>
      Array.from(item.querySelectorAll(":scope > details.evidence")).map((details) => ({
        head: text(details.querySelector("summary")),
        quotes: Array.from(details.querySelectorAll("blockquote > p")).map((quote) => text(quote)),
        remark: text(details.querySelector(".remark")),
      }));
    return {
      title: text(document.querySelector("h1")),
      notice: text(document.querySelector(".notice")),
      // The items themselves, not the lines of their verification; an item's own citation, one link per source.
      findings: Array.from(document.querySelectorAll("#direct-findings > ol > li, #findings > ol > li")).map(
        (item) => ({
          number: Number(item.getAttribute("value")),
          text: text(item.querySelector(".text")),
          citation: text(item.querySelector(":scope > .cites, :scope > .cite")),
          evidence: evidence(item),
        }),
      ),
      recommendations: Array.from(
        document.querySelectorAll("#recommendations > ol > li, #recommendations > ul > li"),
      ).map((item) => ({
        text: text(item.querySelector(".text")),
        citation: text(item.querySelector(":scope > .cites, :scope > .cite")),
        evidence: evidence(item),
      })),
      gaps: Array.from(document.querySelectorAll("#gaps li")).map((item) => text(item.querySelector(".text"))),
      cards: Array.from(document.querySelectorAll("#excerpts article.card")).map((card) => ({
        number: Number(card.getAttribute("data-source")),
        title: text(card.querySelector("h3")).replace(/^\[\d+\] /, ""),
        excerpts: Array.from(card.querySelectorAll("blockquote")).map((quote) => ({
          text: text(quote.querySelector("p")),
          citation: Number(text(quote.querySelector("footer a")).replace(/[[\]]/g, "")),
          passage: text(quote.querySelector("footer")).replace(/\s*\[\d+\]$/, ""),
        })),
      })),
      limits: Array.from(document.querySelectorAll("#limits li")).map((item) => text(item)),
      queries: Array.from(document.querySelectorAll("#searches li")).map((item) => text(item)),
      sources: list("#sources li"),
      reviewed: list("#reviewed li"),
    };
  } finally {
    dom.window.close();
  }
}

/** The ReportDocument a run published in `file` (a report.json), parsed; throws with the schema's complaint. */
export function publishedReport(file: string): ReportDocument {
  const parsed = parseReportDocument(JSON.parse(readFileSync(file, "utf8")));
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.value;
}
