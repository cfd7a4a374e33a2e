/** Reader-facing formatting shared by both projections (pure). */
import type {
  Citation,
  Evidence,
  Finding,
  Quote,
  ReportDocument,
  Verification,
  VerificationStatus,
} from "../report/report-document.js";

/** `2026-12-02T10:44:26.726Z` -> `2026-12-02 10:44 UTC`; anything else is returned as is. */
export function readableTime(iso: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(iso);
  return match ? `${match[1]} ${match[2]} UTC` : iso;
}

type CitedPassages = { number: number; passages: readonly number[] };

/** `2: passage 3`, `2: passages 3, 5`: one citation, without brackets. Pure. */
export function citationLabel(citation: CitedPassages): string {
  return `${citation.number}: passage${citation.passages.length > 1 ? "s" : ""} ${citation.passages.join(", ")}`;
}

/** `[2: passage 3]`, `[2: passages 3, 5; 4: passage 1]`: reader-safe citation text. Pure. */
export function citationText(citations: readonly CitedPassages[]): string {
  return `[${citations.map(citationLabel).join("; ")}]`;
}

/** "A", "A and B", "A, B and C". Pure. */
export function spokenList(items: readonly (string | number)[]): string {
  if (items.length <= 1) return String(items[0] ?? "");
  return `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

/** "finding 1", "findings 1 and 3", "findings 1, 2 and 4". */
export function findingList(numbers: readonly number[]): string {
  if (numbers.length === 1) return `finding ${numbers[0]}`;
  return `findings ${spokenList(numbers)}`;
}

/** How a report names a folder it read: `the local folder “notes”`. Pure. */
export function folderScopeLabel(label: string): string {
  return `the local folder “${label}”`;
}

/** How a report names a folder and the web read together. Pure. */
export function hybridScopeLabel(folderLabel: string, webLabel: string): string {
  return `${folderScopeLabel(folderLabel)} and ${webLabel}`;
}

/** The word each projection shows before an item's text; a not-checked item has none (the summary line says so). */
export const VERIFICATION_LABEL: Record<VerificationStatus, string> = {
  verified: "Verified",
  unverified: "Unverified",
  contested: "Contested",
  "not-checked": "",
};

/** One line of an item's verification: a lead and the sources it names. */
export interface VerificationLine {
  lead: string;
  citations: readonly Citation[];
}

/**
 * What a reader needs to audit an item's status, the same in both projections: for a verified
 * item every source that states it and the challenge it survived; for a contested one the
 * sources on each side (their passages are quoted in the item's evidence). Pure.
 */
export function verificationLines(verification: Verification): VerificationLine[] {
  const lines: VerificationLine[] = [];
  if (verification.status === "verified") {
    lines.push({
      lead: verification.supports.length > 1 ? "Stated independently by" : "Stated by",
      citations: verification.supports,
    });
    if (verification.challenge) lines.push({ lead: `Challenge survived: ${verification.challenge}`, citations: [] });
  }
  if (verification.status === "contested") {
    if (verification.supports.length > 0) lines.push({ lead: "Stated by", citations: verification.supports });
    lines.push({ lead: "Contradicted by", citations: verification.contradicts });
  }
  return lines;
}

/** One citation's evidence under an item: what the passage is to the item, and its quotes. */
export interface EvidenceNote {
  role: "cited" | "also-stated" | "contradicting";
  /** "Evidence", "Also stated by", "Contradicting passage". */
  label: string;
  citation: Citation;
  evidence: Evidence;
  /** The one quote is the item's own text (the offline engine quotes its findings): shown once, above. */
  verbatim: boolean;
}

const NOTE_LABEL: Record<EvidenceNote["role"], string> = {
  cited: "Evidence",
  "also-stated": "Also stated by",
  contradicting: "Contradicting passage",
};

const samePassages = (a: Citation, b: Citation): boolean =>
  a.sourceId === b.sourceId &&
  a.chunkIds.length === b.chunkIds.length &&
  a.chunkIds.every((id, i) => b.chunkIds[i] === id);

/**
 * The evidence shown under an item, in order: each citation of the item, then each other
 * source its verification names as stating it, then each source that contradicts it
 * (labelled). Citations without recorded evidence (documents before version 3) show none. Pure.
 */
/** What evidence is shown under: a finding or a recommendation. */
export type EvidencedItem = Pick<Finding, "text" | "citations" | "verification">;

export function evidenceNotes(item: EvidencedItem): EvidenceNote[] {
  const note = (role: EvidenceNote["role"], citation: Citation): EvidenceNote[] => {
    const evidence = citation.evidence;
    if (!evidence) return [];
    const verbatim = role === "cited" && evidence.quotes.length === 1 && evidence.quotes[0]?.text === item.text;
    return [{ role, label: NOTE_LABEL[role], citation, evidence, verbatim }];
  };
  return [
    ...item.citations.flatMap((citation) => note("cited", citation)),
    ...item.verification.supports
      .filter((citation) => !item.citations.some((own) => samePassages(own, citation)))
      .flatMap((citation) => note("also-stated", citation)),
    ...item.verification.contradicts.flatMap((citation) => note("contradicting", citation)),
  ];
}

/** A quote's text as shown: "…" where it starts after its passage's beginning or stops before its end. */
export function quoteText(quote: Pick<Quote, "text" | "cutStart" | "truncated">): string {
  return `${quote.cutStart ? "… " : ""}${quote.text}${quote.truncated ? " …" : ""}`;
}

/**
 * A note's quotes as shown under an item, each `“…”`, preceded by its passage (and place) when
 * the citation has several passages or the passage a place: `(passage 4, slide 3) “…”`. A quote
 * that is the item's own text is not repeated. `escaped` is the projection's escaping (Markdown's). Pure.
 */
export function evidenceQuotes(note: EvidenceNote, escaped: (text: string) => string = (text) => text): string[] {
  const several = note.citation.passages.length > 1;
  return (note.verbatim ? [] : note.evidence.quotes).map(
    (quote) => `${several || quote.location ? `(${escaped(passageName(quote))}) ` : ""}“${escaped(quoteText(quote))}”`,
  );
}

/**
 * What a note says besides its quotes, or "": that the excerpt limits kept words out, or that
 * no sentence could be singled out (then the reader is sent to the passage). Pure.
 */
export function evidenceRemark(note: EvidenceNote): string {
  const { evidence, citation } = note;
  const [only] = evidence.quotes;
  if (note.verbatim && only) return `The finding quotes this source word for word: ${quotePlace(only)}.`;
  const where = `read ${citationLabel(citation).replace(/^(\d+): /, "source $1, ")}`;
  if (evidence.quotes.length === 0 && evidence.omitted > 0)
    return `Not quoted: the report's excerpt limits were reached; ${where}.`;
  if (evidence.quotes.length === 0)
    return note.role === "contradicting"
      ? `Not quoted: no one sentence of the passage could be singled out as the one that contradicts it; ${where}.`
      : `Not quoted: no sentence of the passage could be singled out; ${where}.`;
  if (evidence.omitted > 0)
    return `${evidence.omitted === 1 ? "1 more sentence it rests on is" : `${evidence.omitted} more sentences it rests on are`} not quoted in full (the report's excerpt limits); open the source to read ${evidence.omitted === 1 ? "it" : "them"}.`;
  return "";
}

/** The distinct quotes of each cited source, in passage and text order (where the sources list points). Pure. */
export function quotedPlaces(doc: ReportDocument): Map<string, Quote[]> {
  const places = new Map<string, Quote[]>();
  const items = [...doc.directFindings, ...doc.findings, ...doc.recommendations];
  for (const item of items) {
    for (const { citation, evidence } of evidenceNotes(item)) {
      const known = places.get(citation.sourceId) ?? [];
      for (const quote of evidence.quotes) {
        if (!known.some((other) => other.chunkId === quote.chunkId && other.text === quote.text)) known.push(quote);
      }
      places.set(citation.sourceId, known);
    }
  }
  for (const quotes of places.values()) quotes.sort((a, b) => a.passage - b.passage || (a.start ?? 0) - (b.start ?? 0));
  return places;
}

/** A text fragment directive's part: percent-encoded, with the characters the syntax uses (`-`, `,`, `&`) escaped too. */
const fragmentPart = (text: string): string => encodeURIComponent(text).replace(/-/g, "%2D");

/** At most this many quotes are named in one link (browsers highlight each). */
const FRAGMENT_QUOTES = 5;

/**
 * `url` with a text fragment (`#:~:text=`) for each quote, so that a browser opens the page
 * scrolled to the quoted words and highlights them: a short quote whole, a long one by its
 * first and last four words. The quotes come from Assay's reading of the page, so a page that
 * changed or shows the words differently opens at its top. Pure.
 */
export function textFragmentUrl(url: string, quotes: readonly Pick<Quote, "text">[]): string {
  const directives = quotes.slice(0, FRAGMENT_QUOTES).map(({ text }) => {
    const words = text.replace(/^[\s…]+|[\s…]+$/g, "").split(" ");
    return words.length <= 8
      ? `text=${fragmentPart(words.join(" "))}`
      : `text=${fragmentPart(words.slice(0, 4).join(" "))},${fragmentPart(words.slice(-4).join(" "))}`;
  });
  if (directives.length === 0) return url;
  return `${url}${url.includes("#") ? "" : "#"}:~:${directives.join("&")}`;
}

/** "passage 4", "passage 4 of 9, slide 3": a passage by its position and, when its document names it, its place. Pure. */
export function passageName(passage: {
  passage: number;
  passages?: number | undefined;
  location?: string | undefined;
}): string {
  const of = passage.passages === undefined ? "" : ` of ${passage.passages}`;
  return `passage ${passage.passage}${of}${passage.location ? `, ${passage.location}` : ""}`;
}

/** "passage 4, slide 3 (characters 120–340 of the text read)": where a quote stands in its source. Pure. */
export function quotePlace(quote: Quote): string {
  const span =
    quote.start === undefined || quote.end === undefined
      ? ""
      : ` (characters ${quote.start.toLocaleString("en-US")}–${quote.end.toLocaleString("en-US")} of the text read)`;
  return `${passageName(quote)}${span}`;
}

const counted = (n: number, what: string): string => `${n} ${what}`;

/**
 * The line that counts what the report shows, by verification status: "Verification: 2 of 5
 * findings verified (independent sources and a survived challenge), 1 contested, 2 unverified."
 * When nothing was checked it says so. Empty without findings. Pure.
 */
export function verificationSummary(doc: ReportDocument): string {
  const items = [...doc.directFindings, ...doc.findings];
  if (items.length === 0) return "";
  const count = (status: VerificationStatus) => items.filter((item) => item.verification.status === status).length;
  const notChecked = count("not-checked");
  if (notChecked === items.length)
    return "Verification: not checked. This research cites the passages of each finding but does not cross-check findings against other sources.";
  const contested = count("contested");
  const findings = `of ${items.length} ${items.length === 1 ? "finding" : "findings"}`;
  // Nothing verified or left unverified: say what was contested, without a "0 verified" no check earned.
  if (count("verified") + count("unverified") === 0)
    return `Verification: ${counted(contested, findings)} contested (the sources read contradict ${contested === 1 ? "it" : "them"}; the contradicting passages are quoted)${notChecked > 0 ? `, ${notChecked} not checked` : ""}.`;
  const parts = [
    `${counted(count("verified"), `of ${items.length} ${items.length === 1 ? "finding" : "findings"}`)} verified (stated by independent sources and survived a challenge)`,
    ...(count("contested") > 0 ? [`${count("contested")} contested (sources contradict it)`] : []),
    ...(count("unverified") > 0 ? [`${count("unverified")} unverified`] : []),
    ...(notChecked > 0 ? [`${notChecked} not checked`] : []),
  ];
  return `Verification: ${parts.join(", ")}.`;
}

/**
 * What a follow-up or a revision says about the report it continues: a lead line under the
 * scope, and a section heading with one line per kind of change. Undefined for a new research.
 * Shared by every projection. Pure.
 */
export function lineageText(doc: ReportDocument): { lead: string; heading: string; lines: string[] } | undefined {
  const lineage = doc.lineage;
  if (!lineage) return undefined;
  const parent = `run ${lineage.parentRun}`;
  const revision = lineage.relation === "revision";
  const earlier = revision ? `version ${(lineage.version ?? 2) - 1}` : `${parent}'s report`;
  const lead = revision
    ? `Version ${lineage.version ?? 2} of the report of ${parent} (“${lineage.parentQuestion}”), revised as asked: “${lineage.instruction ?? ""}”. Sources keep the numbers they had in version ${(lineage.version ?? 2) - 1}.`
    : `A follow-up of ${parent} (“${lineage.parentQuestion}”). Sources keep the numbers they have in its report.`;
  const lines: string[] = [];
  const plural = (count: number, one: string): string => `${count} ${one}${count === 1 ? "" : "s"}`;
  lines.push(
    lineage.newFindings.length > 0
      ? `New: ${findingList(lineage.newFindings)}.`
      : `No finding is new: everything found here is also in ${earlier}.`,
  );
  if (lineage.repeatedFindings.length > 0)
    lines.push(
      `Also in ${earlier}: ${spokenList(lineage.repeatedFindings.map((item) => `${item.number} (there ${item.parentNumber})`))}.`,
    );
  for (const item of lineage.changedFindings)
    lines.push(
      `Finding ${item.number} changes finding ${item.parentNumber} of ${earlier}: ${spokenList(item.changes.map((change) => (change === "wording" ? "its wording" : change === "citations" ? "its citations" : "its verification")))}.`,
    );
  for (const item of lineage.removedFindings)
    lines.push(`No longer in this version: “${item.text}” (finding ${item.parentNumber} of ${earlier}).`);
  if (lineage.droppedByInstruction > 0)
    lines.push(
      `Left out as the instruction asked: ${plural(lineage.droppedByInstruction, doc.status === "synthesized" ? "item" : "passage")}.`,
    );
  lines.push(
    `Sources: ${plural(lineage.sourcesFromParent, "source")} taken from ${parent}'s catalog (not fetched again), ${lineage.sourcesNew} new.`,
  );
  return {
    lead,
    heading: revision ? `Changes from ${earlier}` : `What this adds to ${parent}'s report`,
    lines,
  };
}

/** One sentence of the answer block: a finding's text around its marked answer, and where it comes from. */
export interface AnswerLine {
  finding: number;
  /** The finding's text before the answer, the answer (empty when none is marked), and after it. */
  before: string;
  mark: string;
  after: string;
  /** "Via finding 2:" for a finding that names what the answering one is about. */
  lead: string;
  /** The verification word of the finding ("Contested"), or "". */
  label: string;
  citations: ReportDocument["findings"][number]["citations"];
  /**
   * For a contested finding, what the sources against it say (their quoted sentences, with
   * their citations), unless another line of the part already shows it: a conflict shows both
   * sides in the block, whether the other side is a finding of its own or only its evidence.
   */
  against: { lead: string; text: string; citation: ReportDocument["findings"][number]["citations"][number] }[];
}

/** One part of the question in the answer block: its lines, or what the report says instead. */
export interface AnswerEntry {
  asked: string;
  lines: AnswerLine[];
  /** Said where no finding answers the part (or settles a yes/no part). */
  statement?: string;
  relatedSources: number[];
}

/**
 * The answer block of `doc` (pure), the same for every projection: each part of the question
 * with the findings that answer it, their answer marked, bridges after answers; or the report's
 * statement for a part they do not answer. Empty when the document has no answer block.
 */
export function answerEntries(doc: ReportDocument): AnswerEntry[] {
  const findings = new Map([...doc.directFindings, ...doc.findings].map((item) => [item.number, item]));
  return (doc.answer ?? []).map((part) => ({
    asked: part.asked,
    lines: part.findings.flatMap((use): AnswerLine[] => {
      const item = findings.get(use.number);
      if (!item) return [];
      const shown = part.findings.map((other) => findings.get(other.number)?.text ?? "");
      const against = item.verification.contradicts.flatMap((citation) => {
        const text = citation.evidence?.quotes[0]?.text;
        return text && !shown.some((line) => line.includes(text) || text.includes(line))
          ? [{ lead: "Against it:", text, citation }]
          : [];
      });
      const at = use.mark ? item.text.indexOf(use.mark) : -1;
      const mark = at >= 0 && use.mark ? use.mark : "";
      return [
        {
          finding: use.number,
          before: at >= 0 ? item.text.slice(0, at) : item.text,
          mark,
          after: at >= 0 ? item.text.slice(at + mark.length) : "",
          lead: use.role === "bridge" ? `Via finding ${use.number}:` : `Finding ${use.number}:`,
          label: VERIFICATION_LABEL[item.verification.status],
          citations: item.citations,
          against,
        },
      ];
    }),
    ...(part.statement ? { statement: part.statement } : {}),
    relatedSources: part.relatedSources,
  }));
}
