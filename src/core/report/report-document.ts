/**
 * The one document every strategy ends in (seed 004 "ReportDocument And Public Boundary").
 * Markdown and HTML are projections of it. Versioned: parse with `parseReportDocument`.
 */
import { z } from "zod";
import { err, ok, type Result } from "../result.js";

export const REPORT_SCHEMA_VERSION = 3;

/** What was published, not whether the question was answered. */
export const ARTIFACT_STATUSES = ["synthesized", "source-backed", "no-evidence"] as const;
export type ArtifactStatus = (typeof ARTIFACT_STATUSES)[number];

const sourceEntrySchema = z.object({
  /** Host source id (machine-readable; never printed in prose). */
  id: z.string().regex(/^s_\d{3,}$/),
  /** 1-based reference number used by the renderers. */
  number: z.number().int().positive(),
  title: z.string().min(1),
  /** Corpus-relative path, for corpus sources. */
  path: z.string().min(1).optional(),
  /** Canonical URL, for web sources. */
  url: z.string().url().optional(),
  capturedAt: z.string().datetime(),
  /**
   * What a scholarly search (arXiv, OpenAlex, PubMed) listed about the work: authors, venue,
   * year, DOI, as one line. Discovery metadata: shown as the provider's listing, never evidence.
   */
  listedAs: z.string().min(1).max(300).optional(),
});

/** The fields of a verbatim piece of one passage, shared by source-card excerpts and citation quotes. */
const passageTextFields = {
  /** Whitespace-normalized verbatim text of one passage (possibly cut at a word). */
  text: z.string().min(1),
  /** True when the text starts after the beginning of its passage. */
  cutStart: z.boolean(),
  /** True when the passage continues past the text. */
  truncated: z.boolean(),
  chunkId: z.string().min(1),
  /** Position of the passage in its source, for reader-safe provenance ("passage 2"). */
  passage: z.number().int().positive(),
  /** Where the passage stands in its document ("slide 3", "sheet Prices, rows 2–21"), when the document says. */
  location: z.string().min(1).max(200).optional(),
  /**
   * Character offsets of the text in the source's stored text (`[start, end)`; whitespace
   * there may differ). Absent in documents written before version 3.
   */
  start: z.number().int().nonnegative().optional(),
  end: z.number().int().positive().optional(),
};

const excerptSchema = z.object({
  ...passageTextFields,
  /** How many passages the source has ("passage 2 of 9"). */
  passages: z.number().int().positive(),
});

/** Sentences of a cited passage that the citation rests on, verbatim. */
const quoteSchema = z.object(passageTextFields);

/**
 * The words a citation rests on: quotes of its passages, within the report's excerpt limits.
 * `omitted` counts the sentences it rests on that those limits kept out (or cut short); no
 * quote and nothing omitted means no sentence of the passages could be singled out.
 */
const evidenceSchema = z.object({
  quotes: z.array(quoteSchema),
  omitted: z.number().int().nonnegative(),
});

const sourceCardSchema = z.object({
  sourceId: z.string().min(1),
  excerpts: z.array(excerptSchema),
});

const citationSchema = z.object({
  sourceId: z.string().min(1),
  /** Reference number of the source in the ledger. */
  number: z.number().int().positive(),
  chunkIds: z.array(z.string().min(1)).min(1),
  /** Passage positions ("passage 3") of the cited chunks, for reader-safe provenance. */
  passages: z.array(z.number().int().positive()).min(1),
  /** The words of the cited passages the citation rests on (absent in documents before version 3). */
  evidence: evidenceSchema.optional(),
});

/**
 * How a published item was checked: `verified` (independent sources state it and it survived a
 * challenge: every supporting source is listed, and the challenge), `unverified` (recorded
 * and cited, not verified), `contested` (sources contradict it: they are listed with their
 * passages), `not-checked` (the strategy does not verify: pipeline and simple).
 */
export const VERIFICATION_STATUSES = ["verified", "unverified", "contested", "not-checked"] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

const verificationSchema = z
  .object({
    status: z.enum(VERIFICATION_STATUSES),
    /** The sources that state it, each with its passages (for a verified item: the independent ones). */
    supports: z.array(citationSchema),
    /** The sources that contradict it, each with its passages (a contested item has at least one). */
    contradicts: z.array(citationSchema),
    /** Reader-safe account of the challenge a verified item survived. */
    challenge: z.string().min(1).optional(),
  })
  .superRefine((value, context) => {
    if (value.status === "verified" && (value.supports.length === 0 || value.challenge === undefined))
      context.addIssue({ code: "custom", message: "a verified item lists its supporting sources and its challenge" });
    if (value.status === "contested" && value.contradicts.length === 0)
      context.addIssue({ code: "custom", message: "a contested item lists the sources that contradict it" });
  });

const findingSchema = z.object({
  /** 1-based number across direct and further findings. */
  number: z.number().int().positive(),
  kind: z.enum(["fact", "derivation"]),
  text: z.string().min(1),
  /** For derivations: the findings it rests on, by number, and how it was derived. */
  basedOn: z.array(z.number().int().positive()),
  method: z.string().optional(),
  /** Citation closure: for a derivation, the citations of its premises. */
  citations: z.array(citationSchema).min(1),
  verification: verificationSchema,
});

const recommendationSchema = z.object({
  text: z.string().min(1),
  conditions: z.array(z.string().min(1)),
  basedOn: z.array(z.number().int().positive()).min(1),
  citations: z.array(citationSchema).min(1),
  verification: verificationSchema,
});

const gapSchema = z.object({
  text: z.string().min(1),
  /** Reference numbers of related sources (listed among the sources read). */
  relatedSources: z.array(z.number().int().positive()),
});

const numberSchema = z.number().int().positive();

/** The kinds of answer a part of a question asks for (core/answer/asked.ts). */
export const ANSWER_KINDS = [
  "person",
  "organisation",
  "place",
  "date",
  "number",
  "version",
  "cause",
  "superlative",
  "yes-no",
  "description",
] as const;

/**
 * How the report answers one part of its question. `answered`: findings answer it (and
 * `supported` / `contradicted` for a yes/no part the judge settled); `unsettled`: a source read
 * may answer it but no finding does, or the sources read neither support nor contradict it;
 * `not-said`: no sentence read answers it.
 */
export const ANSWER_STATUSES = ["answered", "supported", "contradicted", "unsettled", "not-said"] as const;

const answerPartSchema = z.object({
  /** The part of the question, as a question of its own. */
  asked: z.string().min(1),
  kind: z.enum(ANSWER_KINDS),
  status: z.enum(ANSWER_STATUSES),
  /**
   * The findings that answer it, by number: `answer` where the finding answers it (`mark`: the
   * words of the finding that are the answer, verbatim), `bridge` where it names what the
   * answering finding is about (multi-hop).
   */
  findings: z.array(
    z.object({
      number: numberSchema,
      role: z.enum(["answer", "bridge"]),
      mark: z.string().min(1).optional(),
    }),
  ),
  /** What the report says when no finding answers it, in reader words. */
  statement: z.string().min(1).optional(),
  /** Sources (by reference number) that bear on it, for an unsettled part. */
  relatedSources: z.array(numberSchema),
});

/**
 * A follow-up's or a revision's relation to the report it continues, and what it adds to or
 * changes in that report (from the structural diff of the two documents). Sources keep the
 * numbers the parent's report gave them; new ones are numbered after the parent's.
 */
const lineageSchema = z.object({
  relation: z.enum(["follow-up", "revision"]),
  parentRun: numberSchema,
  parentQuestion: z.string().min(1),
  /** A revision's instruction, as given. */
  instruction: z.string().min(1).optional(),
  /** A revision: which version of the report this is (the first report is version 1). */
  version: z.number().int().min(2).optional(),
  /** Findings the parent's report did not have, by number. */
  newFindings: z.array(numberSchema),
  /** Findings the parent's report also had, unchanged: this report's number and the parent's. */
  repeatedFindings: z.array(z.object({ number: numberSchema, parentNumber: numberSchema })),
  /** Findings of the parent's report that this one words, cites or verifies differently. */
  changedFindings: z.array(
    z.object({
      number: numberSchema,
      parentNumber: numberSchema,
      changes: z.array(z.enum(["wording", "citations", "verification"])).min(1),
    }),
  ),
  /** A revision: the parent's findings this version no longer has (their text in the parent's report). */
  removedFindings: z.array(z.object({ parentNumber: numberSchema, text: z.string().min(1) })),
  /** A revision: items (passages, in a report of excerpts) left out because the instruction asked to drop their topic. */
  droppedByInstruction: z.number().int().nonnegative(),
  /** Of the sources this report lists: how many it took from the parent's catalog (not fetched again), and how many are new. */
  sourcesFromParent: z.number().int().nonnegative(),
  sourcesNew: z.number().int().nonnegative(),
});

export const reportDocumentSchema = z.object({
  schemaVersion: z.literal(REPORT_SCHEMA_VERSION),
  status: z.enum(ARTIFACT_STATUSES),
  /** True while a later document is expected to replace this one. */
  preliminary: z.boolean(),
  title: z.string().min(1),
  question: z.string().min(1),
  language: z.string().min(2),
  /** Plain statement of what this document is (for example that synthesis is pending). */
  notice: z.string().min(1),
  boundary: z.object({
    scope: z.string().min(1),
    capturedFrom: z.string().datetime().optional(),
    capturedUntil: z.string().datetime().optional(),
    statement: z.string().min(1),
  }),
  /** Who proposed the findings, in plain words (for example the extractive offline engine). */
  producedBy: z.string().min(1).optional(),
  /** Set when the run continues another (a follow-up, a revision). */
  lineage: lineageSchema.optional(),
  /** The answer block: each part of the question and how the findings answer it (absent in documents before it). */
  answer: z.array(answerPartSchema).optional(),
  directFindings: z.array(findingSchema),
  findings: z.array(findingSchema),
  recommendations: z.array(recommendationSchema),
  gaps: z.array(gapSchema),
  sourceCards: z.array(sourceCardSchema),
  attemptedQueries: z.array(z.string().min(1)),
  acquisitionBoundaries: z.array(z.string().min(1)),
  /** Citation closure: every source a published item cites, and no other. */
  sources: z.array(sourceEntrySchema),
  /** Sources read but not cited, listed separately. */
  reviewedSources: z.array(sourceEntrySchema),
  generatedAt: z.string().datetime(),
});

export type ReportDocument = z.infer<typeof reportDocumentSchema>;
export type SourceEntry = z.infer<typeof sourceEntrySchema>;
export type SourceCard = z.infer<typeof sourceCardSchema>;
export type Excerpt = z.infer<typeof excerptSchema>;
export type Quote = z.infer<typeof quoteSchema>;
export type Evidence = z.infer<typeof evidenceSchema>;
export type Citation = z.infer<typeof citationSchema>;
export type Finding = z.infer<typeof findingSchema>;
export type Recommendation = z.infer<typeof recommendationSchema>;
export type Gap = z.infer<typeof gapSchema>;
export type Verification = z.infer<typeof verificationSchema>;
export type ReportLineage = z.infer<typeof lineageSchema>;
export type AnswerPart = z.infer<typeof answerPartSchema>;

/** The prefix version 1 wrote before the text of an investigative finding resting on an unverified claim. */
const V1_UNVERIFIED = "Unverified: ";

type Loose = Record<string, unknown>;
const isRecord = (value: unknown): value is Loose => typeof value === "object" && value !== null;

/** `value[key]` with every item of its list mapped (anything else left as is). */
function mapList(value: Loose, key: string, each: (item: Loose) => Loose): Loose {
  const list = value[key];
  return Array.isArray(list) ? { ...value, [key]: list.map((item) => (isRecord(item) ? each(item) : item)) } : value;
}

const ITEM_LISTS = ["directFindings", "findings", "recommendations"] as const;

/**
 * A version 1 document (no verification data) as version 2: a finding whose text carried the
 * unverified prefix is `unverified` (the prefix dropped); every other item is `not-checked`,
 * since version 1 did not record what verified it.
 */
function fromVersion1(value: Loose): Loose {
  const upgradeItem = (record: Loose): Loose => {
    const text = typeof record.text === "string" ? record.text : "";
    const unverified = text.startsWith(V1_UNVERIFIED);
    return {
      ...record,
      ...(unverified ? { text: text.slice(V1_UNVERIFIED.length) } : {}),
      verification: { status: unverified ? "unverified" : "not-checked", supports: [], contradicts: [] },
    };
  };
  return ITEM_LISTS.reduce<Loose>((doc, key) => mapList(doc, key, upgradeItem), { ...value, schemaVersion: 2 });
}

/**
 * A version 2 document as version 3: the one sentence a version 2 verification quoted
 * (`quote`) becomes the evidence of its citation, placed at its first passage and marked as
 * cut on both sides (version 2 did not record where in the passage it stood).
 */
function fromVersion2(value: Loose): Loose {
  const upgradeCitation = (citation: Loose): Loose => {
    const { quote, ...rest } = citation;
    const chunkId = Array.isArray(citation.chunkIds) ? citation.chunkIds[0] : undefined;
    const passage = Array.isArray(citation.passages) ? citation.passages[0] : undefined;
    if (typeof quote !== "string" || quote === "" || chunkId === undefined || passage === undefined) return rest;
    return {
      ...rest,
      evidence: { quotes: [{ text: quote, cutStart: true, truncated: true, chunkId, passage }], omitted: 0 },
    };
  };
  const upgradeItem = (item: Loose): Loose => {
    const verification = isRecord(item.verification)
      ? mapList(mapList(item.verification, "supports", upgradeCitation), "contradicts", upgradeCitation)
      : item.verification;
    return { ...mapList(item, "citations", upgradeCitation), verification };
  };
  return ITEM_LISTS.reduce<Loose>((doc, key) => mapList(doc, key, upgradeItem), { ...value, schemaVersion: 3 });
}

/** Parses a stored or received document (versions 1 and 2 are read as version 3). Never throws. */
export function parseReportDocument(value: unknown): Result<ReportDocument> {
  let upgraded = value;
  if (isRecord(upgraded) && upgraded.schemaVersion === 1) upgraded = fromVersion1(upgraded);
  if (isRecord(upgraded) && upgraded.schemaVersion === 2) upgraded = fromVersion2(upgraded);
  const parsed = reportDocumentSchema.safeParse(upgraded);
  if (parsed.success) return ok(parsed.data);
  return err(z.prettifyError(parsed.error));
}

/** Checks the document's internal references: every card, citation and number points at a listed source. */
export function checkReportClosure(doc: ReportDocument): Result<ReportDocument> {
  const listed = new Map([...doc.sources, ...doc.reviewedSources].map((source) => [source.id, source]));
  if (listed.size !== doc.sources.length + doc.reviewedSources.length) return err("a source is listed twice");
  const cited = new Map(doc.sources.map((source) => [source.id, source]));
  for (const card of doc.sourceCards) {
    if (!cited.has(card.sourceId)) return err(`a source card cites ${card.sourceId}, which the ledger does not list`);
  }
  const allFindings = [...doc.directFindings, ...doc.findings];
  const citations = [...allFindings, ...doc.recommendations].flatMap((item) => [
    ...item.citations,
    ...item.verification.supports,
    ...item.verification.contradicts,
  ]);
  for (const citation of citations) {
    const source = cited.get(citation.sourceId);
    if (!source || source.number !== citation.number)
      return err(`a citation points at ${citation.sourceId}, which the ledger does not list as [${citation.number}]`);
    for (const quote of citation.evidence?.quotes ?? []) {
      const index = citation.chunkIds.indexOf(quote.chunkId);
      if (index < 0 || citation.passages[index] !== quote.passage)
        return err(`a quote of [${citation.number}] is from a passage the citation does not cite`);
    }
  }
  const numbersSeen = new Set(allFindings.map((finding) => finding.number));
  for (const item of [...allFindings, ...doc.recommendations]) {
    if (item.basedOn.some((number) => !numbersSeen.has(number)))
      return err("an item rests on a finding that is not published");
  }
  const findingText = new Map(allFindings.map((finding) => [finding.number, finding.text]));
  for (const part of doc.answer ?? []) {
    for (const use of part.findings) {
      const text = findingText.get(use.number);
      if (text === undefined) return err("the answer rests on a finding that is not published");
      if (use.mark !== undefined && !text.includes(use.mark))
        return err("an answer's marked words are not in its finding");
    }
  }
  const allNumbers = new Set([...listed.values()].map((source) => source.number));
  if (
    [...doc.gaps, ...(doc.answer ?? [])].some((item) => item.relatedSources.some((number) => !allNumbers.has(number)))
  ) {
    return err("a gap relates to a source that is not listed");
  }
  // 1..n in order; a follow-up or a revision keeps its parent's numbers, so its may have gaps.
  const ascending = (list: readonly SourceEntry[]): boolean =>
    list.every((source, index) => index === 0 || (list[index - 1]?.number ?? 0) < source.number);
  if (doc.lineage) {
    if (allNumbers.size !== listed.size || !ascending(doc.sources) || !ascending(doc.reviewedSources))
      return err("source numbers are not unique and ascending");
  } else {
    const numbers = [...doc.sources, ...doc.reviewedSources].map((source) => source.number);
    if (numbers.some((number, index) => number !== index + 1)) return err("source numbers are not 1..n in order");
  }
  return ok(doc);
}
