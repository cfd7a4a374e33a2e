/**
 * The report as an ordered list of blocks of plain text (pure), for the projections that lay
 * out pages themselves (PDF, Word): the same content in the same order as the Markdown and
 * HTML projections — title, notice, question and evidence scope, findings with their
 * verification and evidence, recommendations, gaps, source excerpts, limits, searches, sources.
 * Text is literal (never markup); each renderer escapes what its format needs.
 */
import type { Citation, Quote, ReportDocument, SourceEntry, Verification } from "../report/report-document.js";
import {
  answerEntries,
  citationLabel,
  type EvidencedItem,
  evidenceNotes,
  evidenceQuotes,
  evidenceRemark,
  findingList,
  lineageText,
  passageName,
  quotedPlaces,
  quotePlace,
  quoteText,
  readableTime,
  spokenList,
  VERIFICATION_LABEL,
  verificationLines,
  verificationSummary,
} from "./format.js";

/** A reference to a source in the sources list: `[2: passage 3]`, linked to source 2. */
export interface Reference {
  source: number;
  text: string;
}

/** A run of a line: plain text, or a reference that links to its source. */
export type Run = string | Reference;

export type Block =
  | { kind: "title"; text: string }
  | { kind: "notice"; text: string }
  | { kind: "field"; label: string; text: string }
  | { kind: "emphasis"; text: string; strong: boolean }
  | { kind: "heading"; text: string; level: 2 | 3 }
  /** A numbered or bulleted item (`marker` "3." or "•"), `label` in bold before its text. */
  | { kind: "item"; marker: string; label: string; runs: Run[] }
  /** A line under an item: its verification or its evidence. */
  | { kind: "detail"; runs: Run[] }
  /** A verbatim excerpt of a source and where it stands. */
  | { kind: "quote"; text: string; footer: Run[] }
  /** An entry of the sources list, the target of its references. */
  | { kind: "source"; number: number; title: string; where: string; read: string; details: string[] }
  | { kind: "line"; text: string };

/** `[2: passage 3]` for each citation, each its own reference. */
export function references(citations: readonly Pick<Citation, "number" | "passages">[]): Reference[] {
  return citations.map((citation) => ({
    source: citation.number,
    text: `[${citationLabel(citation)}]`,
  }));
}

/** Runs separated by spaces. */
function spaced(parts: readonly (Run | readonly Run[])[]): Run[] {
  const runs: Run[] = [];
  for (const part of parts) {
    const items = Array.isArray(part) ? part : [part as Run];
    for (const item of items) {
      if (runs.length > 0) runs.push(" ");
      runs.push(item);
    }
  }
  return runs;
}

function where(source: SourceEntry): string {
  return source.url ?? source.path ?? "";
}

function verificationDetails(verification: Verification): Block[] {
  return verificationLines(verification).map((line) => ({
    kind: "detail",
    runs: spaced([line.lead, references(line.citations)]),
  }));
}

function evidenceDetails(item: EvidencedItem): Block[] {
  return evidenceNotes(item).map((note) => {
    const quotes = evidenceQuotes(note);
    const remark = evidenceRemark(note);
    return {
      kind: "detail",
      runs: [
        ...spaced([note.label, references([note.citation])]),
        ":",
        " ",
        ...spaced([...quotes, ...(remark ? [remark] : [])]),
      ],
    };
  });
}

/** The blocks of `doc`, in reading order. Pure. */
export function reportOutline(doc: ReportDocument): Block[] {
  const blocks: Block[] = [
    { kind: "title", text: doc.title },
    { kind: "notice", text: doc.notice },
  ];
  if (doc.question !== doc.title) blocks.push({ kind: "field", label: "Question", text: doc.question });
  blocks.push({ kind: "field", label: "Evidence scope", text: doc.boundary.statement });
  const lineage = lineageText(doc);
  if (lineage) blocks.push({ kind: "field", label: "Continues", text: lineage.lead });
  if (doc.producedBy) blocks.push({ kind: "emphasis", text: doc.producedBy, strong: false });
  const summary = verificationSummary(doc);
  if (summary) blocks.push({ kind: "emphasis", text: summary, strong: true });
  if (lineage) {
    blocks.push({ kind: "heading", text: lineage.heading, level: 2 });
    for (const line of lineage.lines) blocks.push({ kind: "item", marker: "•", label: "", runs: [line] });
  }
  const label = (verification: Verification): string => {
    const word = VERIFICATION_LABEL[verification.status];
    return word ? `${word}:` : "";
  };
  const findings = (heading: string, items: ReportDocument["findings"]): void => {
    if (items.length === 0) return;
    blocks.push({ kind: "heading", text: heading, level: 2 });
    for (const item of items) {
      const basis =
        item.kind === "derivation"
          ? ` (derived from ${findingList(item.basedOn)}${item.method ? `: ${item.method}` : ""})`
          : "";
      blocks.push(
        {
          kind: "item",
          marker: `${item.number}.`,
          label: label(item.verification),
          runs: spaced([`${item.text}${basis}`, references(item.citations)]),
        },
        ...verificationDetails(item.verification),
        ...evidenceDetails(item),
      );
    }
  };
  const answers = answerEntries(doc);
  if (answers.length > 0) {
    blocks.push({ kind: "heading", text: "Answer", level: 2 });
    for (const entry of answers) {
      const related =
        entry.relatedSources.length > 0 ? ` (see ${entry.relatedSources.map((n) => `[${n}]`).join(", ")})` : "";
      blocks.push({
        kind: "item",
        marker: "•",
        label: entry.asked,
        runs: entry.statement ? [`${entry.statement}${related}`] : [],
      });
      for (const line of entry.lines) {
        // The answer itself is set off in brackets «…»: the page has no bold inside a line.
        const text = line.mark ? `${line.before}«${line.mark}»${line.after}` : line.before;
        blocks.push({
          kind: "detail",
          runs: spaced([`${line.lead}${line.label ? ` ${line.label}:` : ""} ${text}`, references(line.citations)]),
        });
        for (const side of line.against)
          blocks.push({ kind: "detail", runs: spaced([`${side.lead} “${side.text}”`, references([side.citation])]) });
      }
    }
  }
  findings("Direct findings", doc.directFindings);
  findings("Further findings", doc.findings);
  if (doc.recommendations.length > 0) {
    blocks.push({ kind: "heading", text: "Recommendations", level: 2 });
    for (const item of doc.recommendations) {
      const conditions = item.conditions.length > 0 ? ` When: ${item.conditions.join("; ")}.` : "";
      blocks.push(
        {
          kind: "item",
          marker: "•",
          label: ["Recommendation:", label(item.verification)].filter(Boolean).join(" "),
          runs: spaced([
            `${item.text} (based on ${findingList(item.basedOn)}).${conditions}`,
            references(item.citations),
          ]),
        },
        ...verificationDetails(item.verification),
        ...evidenceDetails(item),
      );
    }
  }
  if (doc.gaps.length > 0) {
    blocks.push({ kind: "heading", text: "Gaps", level: 2 });
    for (const gap of doc.gaps) {
      const related = gap.relatedSources.map((source) => ({ source, text: `[${source}]` }));
      blocks.push({
        kind: "item",
        marker: "•",
        label: "",
        runs: related.length > 0 ? [...spaced([gap.text, "(related:", related]), ")"] : [gap.text],
      });
    }
  }
  const byId = new Map([...doc.sources, ...doc.reviewedSources].map((source) => [source.id, source]));
  if (doc.sourceCards.length > 0) {
    blocks.push({ kind: "heading", text: "Source excerpts", level: 2 });
    for (const card of doc.sourceCards) {
      const source = byId.get(card.sourceId);
      if (source === undefined) continue;
      blocks.push(
        { kind: "heading", text: `[${source.number}] ${source.title}`, level: 3 },
        { kind: "line", text: `${where(source)} · read ${readableTime(source.capturedAt)}` },
      );
      for (const excerpt of card.excerpts)
        blocks.push({
          kind: "quote",
          text: quoteText(excerpt),
          footer: [`— ${passageName(excerpt)} `, { source: source.number, text: `[${source.number}]` }],
        });
    }
  }
  if (doc.acquisitionBoundaries.length > 0) {
    blocks.push({ kind: "heading", text: "Limits of this research", level: 2 });
    for (const line of doc.acquisitionBoundaries) blocks.push({ kind: "item", marker: "•", label: "", runs: [line] });
  }
  blocks.push({ kind: "heading", text: "Searches run", level: 2 });
  if (doc.attemptedQueries.length === 0) blocks.push({ kind: "line", text: "No search was run." });
  for (const query of doc.attemptedQueries) blocks.push({ kind: "item", marker: "•", label: "", runs: [query] });
  const sourceBlock = (source: SourceEntry, quoted?: readonly Quote[]): Block => ({
    kind: "source",
    number: source.number,
    title: source.title,
    where: where(source),
    read: `read ${readableTime(source.capturedAt)}${source.listedAs ? `; listed as: ${source.listedAs}` : ""}`,
    details: quoted && quoted.length > 0 ? [`Quoted from ${spokenList(quoted.map(quotePlace))}`] : [],
  });
  if (doc.sources.length > 0) {
    blocks.push({ kind: "heading", text: "Sources", level: 2 });
    const places = quotedPlaces(doc);
    for (const source of doc.sources) blocks.push(sourceBlock(source, places.get(source.id)));
  }
  if (doc.reviewedSources.length > 0) {
    blocks.push({ kind: "heading", text: "Also read (not cited)", level: 2 });
    for (const source of doc.reviewedSources) blocks.push(sourceBlock(source));
  }
  blocks.push({ kind: "line", text: `Generated by Assay on ${readableTime(doc.generatedAt)}.` });
  return blocks;
}
