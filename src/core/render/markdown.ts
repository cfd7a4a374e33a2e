/**
 * Markdown projection of a ReportDocument (pure). Source text is escaped so that no
 * Markdown or HTML in it becomes markup, a link or a heading.
 */
import type { Quote, ReportDocument, SourceEntry, Verification } from "../report/report-document.js";
import {
  answerEntries,
  citationText,
  type EvidencedItem,
  evidenceNotes,
  evidenceQuotes,
  evidenceRemark,
  findingList,
  lineageText,
  passageName,
  quotedPlaces,
  quotePlace,
  readableTime,
  spokenList,
  textFragmentUrl,
  VERIFICATION_LABEL,
  verificationLines,
  verificationSummary,
} from "./format.js";

const MARKDOWN_SPECIAL = /[\\`*_[\]<>|~&]/g;

/**
 * Escapes text for inline Markdown: characters that make emphasis, code, links, HTML,
 * tables or entities are backslash-escaped, and so is a leading heading, list or quote marker.
 */
export function escapeMarkdown(text: string): string {
  return (
    text
      .replace(MARKDOWN_SPECIAL, (char) => `\\${char}`)
      .replace(/^(\s*)([#+=-])/, (_match, space: string, marker: string) => `${space}\\${marker}`)
      // "1. " starts an ordered list; "24.5 s" does not. A backslash only escapes punctuation.
      .replace(
        /^(\s*)(\d+)([.)])(?=\s|$)/,
        (_match, space: string, digits: string, mark: string) => `${space}${digits}\\${mark}`,
      )
  );
}

/** Inverse of escapeMarkdown, for tests and tools that read reports back. */
export function unescapeMarkdown(text: string): string {
  return text.replace(/\\(.)/g, "$1");
}

/** An autolink: the URL is already serialized (percent-encoded); only what would end the autolink is escaped. */
const autolink = (url: string): string => `<${url.replace(/[<>\s]/g, (char) => encodeURIComponent(char))}>`;

function location(source: SourceEntry): string {
  if (source.url !== undefined) return autolink(source.url);
  if (source.path !== undefined) return `\`${source.path.replaceAll("`", "'")}\``;
  return "";
}

/** A scholarly search's listing of the work, marked as the listing it is (not evidence). */
function listing(source: SourceEntry): string {
  return source.listedAs === undefined ? "" : `; listed as: ${escapeMarkdown(source.listedAs)}`;
}

/** Under a cited source: where the report quotes it and, for a web page, a link that opens it at the quoted words. */
function quotedAt(source: SourceEntry, quotes: readonly Quote[] | undefined): string[] {
  if (!quotes || quotes.length === 0) return [];
  const indent = " ".repeat(String(source.number).length + 2);
  const link = source.url === undefined ? "" : `: ${autolink(textFragmentUrl(source.url, quotes))}`;
  return [`${indent}- Quoted from ${escapeMarkdown(spokenList(quotes.map(quotePlace)))}${link}`];
}

/**
 * A source's line. Numbered as a Markdown list item; a report that keeps its parent's numbers
 * (which may skip some) writes them as `[n]`, since a Markdown list renumbers its items.
 */
function sourceLine(source: SourceEntry, quotes?: readonly Quote[], kept = false): string {
  return [
    `${kept ? `- [${source.number}]` : `${source.number}.`} ${escapeMarkdown(source.title)} — ${location(source)} (read ${readableTime(source.capturedAt)}${listing(source)})`,
    ...quotedAt(source, quotes),
  ].join("\n");
}

/**
 * An item's evidence as quoted notes indented under it (`indent` spaces): one line per
 * citation, its label, the citation and its quotes (each with its passage when it cites
 * several), then what the limits left out; lines of a blockquote kept apart by empty ones.
 */
function evidenceLines(item: EvidencedItem, indent: number): string[] {
  const pad = " ".repeat(indent);
  const lines = evidenceNotes(item).map((note) => {
    const quotes = evidenceQuotes(note, escapeMarkdown);
    const remark = evidenceRemark(note);
    const said = [...quotes, ...(remark ? [`*${escapeMarkdown(remark)}*`] : [])].join(" ");
    return `${pad}> ${escapeMarkdown(note.label)} ${citationText([note.citation])}: ${said}`;
  });
  return lines.flatMap((line, index) => (index === 0 ? [line] : [`${pad}>`, line]));
}

/** Renders `doc` as Markdown. Pure. */
export function renderMarkdown(doc: ReportDocument): string {
  const byId = new Map([...doc.sources, ...doc.reviewedSources].map((source) => [source.id, source]));
  const out: string[] = [`# ${escapeMarkdown(doc.title)}`, "", `> ${escapeMarkdown(doc.notice)}`, ""];
  if (doc.question !== doc.title) out.push(`**Question:** ${escapeMarkdown(doc.question)}`, "");
  out.push(`**Evidence scope:** ${escapeMarkdown(doc.boundary.statement)}`, "");

  const lineage = lineageText(doc);
  if (lineage) out.push(`**Continues:** ${escapeMarkdown(lineage.lead)}`, "");
  if (doc.producedBy) out.push(`*${escapeMarkdown(doc.producedBy)}*`, "");
  const summary = verificationSummary(doc);
  if (summary) out.push(`**${escapeMarkdown(summary)}**`, "");
  if (lineage)
    out.push(
      `## ${escapeMarkdown(lineage.heading)}`,
      "",
      ...lineage.lines.map((line) => `- ${escapeMarkdown(line)}`),
      "",
    );
  const label = (item: { verification: Verification }): string => {
    const word = VERIFICATION_LABEL[item.verification.status];
    return word ? `**${word}:** ` : "";
  };
  // The verification of an item, as lines indented under it (`indent` spaces).
  const checked = (verification: Verification, indent: number): string[] =>
    verificationLines(verification).map((line) => {
      const cited = line.citations.length > 0 ? ` ${citationText(line.citations)}` : "";
      return `${" ".repeat(indent)}- ${escapeMarkdown(line.lead)}${cited}`;
    });
  const finding = (item: ReportDocument["findings"][number]): string => {
    const basis =
      item.kind === "derivation"
        ? ` (derived from ${findingList(item.basedOn)}${item.method ? `: ${escapeMarkdown(item.method)}` : ""})`
        : "";
    const head = `${item.number}. ${label(item)}${escapeMarkdown(item.text)}${basis} ${citationText(item.citations)}`;
    const indent = String(item.number).length + 2;
    return [head, ...checked(item.verification, indent), ...evidenceLines(item, indent)].join("\n");
  };
  const answers = answerEntries(doc);
  if (answers.length > 0) {
    out.push("## Answer", "");
    for (const entry of answers) {
      const related =
        entry.relatedSources.length > 0 ? ` (see ${entry.relatedSources.map((n) => `[${n}]`).join(", ")})` : "";
      out.push(
        `**${escapeMarkdown(entry.asked)}**${entry.statement ? ` ${escapeMarkdown(entry.statement)}${related}` : ""}`,
        "",
      );
      for (const line of entry.lines) {
        const marked = line.mark ? `**${escapeMarkdown(line.mark)}**` : "";
        const label = line.label ? `**${line.label}:** ` : "";
        out.push(
          `- ${escapeMarkdown(line.lead)} ${label}${escapeMarkdown(line.before)}${marked}${escapeMarkdown(line.after)} ${citationText(line.citations)}`,
          ...line.against.map(
            (side) => `  - ${side.lead} “${escapeMarkdown(side.text)}” ${citationText([side.citation])}`,
          ),
        );
      }
      if (entry.lines.length > 0) out.push("");
    }
  }
  if (doc.directFindings.length > 0) {
    out.push("## Direct findings", "", ...doc.directFindings.map(finding), "");
  }
  if (doc.findings.length > 0) {
    out.push("## Further findings", "", ...doc.findings.map(finding), "");
  }
  if (doc.recommendations.length > 0) {
    out.push("## Recommendations", "");
    for (const item of doc.recommendations) {
      const conditions = item.conditions.length > 0 ? ` When: ${item.conditions.map(escapeMarkdown).join("; ")}.` : "";
      out.push(
        `- **Recommendation:** ${label(item)}${escapeMarkdown(item.text)} (based on ${findingList(item.basedOn)}).${conditions} ${citationText(item.citations)}`,
        ...checked(item.verification, 2),
        ...evidenceLines(item, 2),
      );
    }
    out.push("");
  }
  if (doc.gaps.length > 0) {
    out.push("## Gaps", "");
    for (const gap of doc.gaps) {
      const related =
        gap.relatedSources.length > 0 ? ` (related: ${gap.relatedSources.map((n) => `[${n}]`).join(", ")})` : "";
      out.push(`- ${escapeMarkdown(gap.text)}${related}`);
    }
    out.push("");
  }

  if (doc.sourceCards.length > 0) {
    out.push("## Source excerpts", "");
    for (const card of doc.sourceCards) {
      const source = byId.get(card.sourceId);
      if (source === undefined) continue;
      out.push(`### [${source.number}] ${escapeMarkdown(source.title)}`, "");
      out.push(`${location(source)} · read ${readableTime(source.capturedAt)}`, "");
      for (const excerpt of card.excerpts) {
        out.push(`> ${excerpt.cutStart ? "… " : ""}${escapeMarkdown(excerpt.text)}${excerpt.truncated ? " …" : ""}`);
        out.push(`> — ${escapeMarkdown(passageName(excerpt))} [${source.number}]`, "");
      }
    }
  }

  if (doc.acquisitionBoundaries.length > 0) {
    out.push("## Limits of this research", "");
    for (const line of doc.acquisitionBoundaries) out.push(`- ${escapeMarkdown(line)}`);
    out.push("");
  }

  out.push("## Searches run", "");
  if (doc.attemptedQueries.length === 0) out.push("No search was run.");
  for (const query of doc.attemptedQueries) out.push(`- ${escapeMarkdown(query)}`);
  out.push("");

  if (doc.sources.length > 0) {
    out.push("## Sources", "");
    const places = quotedPlaces(doc);
    for (const source of doc.sources) out.push(sourceLine(source, places.get(source.id), lineage !== undefined));
    out.push("");
  }
  if (doc.reviewedSources.length > 0) {
    out.push("## Also read (not cited)", "");
    for (const source of doc.reviewedSources) out.push(sourceLine(source, undefined, lineage !== undefined));
    out.push("");
  }
  out.push(`---`, "", `Generated by Assay on ${readableTime(doc.generatedAt)}.`, "");
  return out.join("\n");
}
