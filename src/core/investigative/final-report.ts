/**
 * The report `finalize_report` takes (seed 000 "Synthesis loop") and its gate ("Finalization
 * gate"): the value and its zod schema, and the deterministic checks of ids the synthesis
 * must pass before the report is stored. Every check works on ids — claim, source and
 * question ids in the structured fields and ids written in the text — never on what the text
 * means. Pure.
 */
import { z } from "zod";
import { err, ok, type Result } from "../result.js";
import { isVerificationQuestion } from "./breakers.js";
import { type GateResult, gateResult } from "./gates.js";
import { CLAIM_STATUSES, type Claim, type Investigation } from "./types.js";

export const SUMMARY_MAX_CHARS = 1_500;
export const MAX_REPORT_ITEMS = 40;

const text = (max: number) => z.string().trim().min(1).max(max);
const id = z.string().trim().min(1).max(40);

/** One statement of the report, traceable to the claims it rests on and the sources behind them. */
const reportItemSchema = z
  .object({
    text: text(2_000),
    /** The claims (c_…) and datapoints (d_…) the statement rests on. */
    claimIds: z.array(id).min(1).max(20),
    /** Sources shown for the statement; each must support one of its claims. */
    sourceIds: z.array(id).max(20),
  })
  .strict();

/** A gap or assumption: an `unresolvable` question, or a hole the synthesis could not fill. */
const reportGapSchema = z
  .object({
    text: text(1_000),
    questionIds: z.array(id).max(40),
  })
  .strict();

/** The verification status of a claim the report cites, as the report states it. */
const keyClaimSchema = z.object({ claimId: id, status: z.enum(CLAIM_STATUSES) }).strict();

/** The argument of `finalize_report`. */
export const finalReportSchema = z
  .object({
    summary: text(SUMMARY_MAX_CHARS),
    /** Empty when nothing was established: the gaps then say what is missing. */
    items: z.array(reportItemSchema).max(MAX_REPORT_ITEMS),
    gaps: z.array(reportGapSchema).max(80),
    keyClaims: z.array(keyClaimSchema).max(400),
  })
  .strict();

export type FinalReport = z.infer<typeof finalReportSchema>;
export type FinalReportItem = FinalReport["items"][number];

/** Parses a `finalize_report` argument (model output). Never throws. */
export function parseFinalReport(value: unknown): Result<FinalReport> {
  const parsed = finalReportSchema.safeParse(value);
  if (parsed.success) return ok(parsed.data);
  const issues = parsed.error.issues.map((issue) => `${issue.path.join(".") || "report"}: ${issue.message}`);
  return err(`The report does not fit its schema: ${issues.join("; ")}.`);
}

const WITHDRAWN: ReadonlySet<Claim["status"]> = new Set(["REFUTED", "RETRACTED"]);
const CLAIM_ID_IN_TEXT = /\b[cd]_\d+\b/g;
const SOURCE_ID_IN_TEXT = /\bs_\d+\b/g;

const unique = (values: Iterable<string>): string[] => [...new Set(values)];
const ids = (list: readonly string[]): string => list.join(", ");

/** The report's free texts with a label for messages: the summary, each item, each gap. */
function texts(report: FinalReport): { label: string; text: string }[] {
  return [
    { label: "the summary", text: report.summary },
    ...report.items.map((item, index) => ({ label: `item ${index + 1}`, text: item.text })),
    ...report.gaps.map((gap, index) => ({ label: `gap ${index + 1}`, text: gap.text })),
  ];
}

/** Every claim id the report cites: item claimIds and ids written in any text, with where. */
function claimCitations(report: FinalReport): { label: string; claimId: string }[] {
  const fromItems = report.items.flatMap((item, index) =>
    unique(item.claimIds).map((claimId) => ({ label: `item ${index + 1}`, claimId })),
  );
  const fromText = texts(report).flatMap(({ label, text }) =>
    unique(text.match(CLAIM_ID_IN_TEXT) ?? []).map((claimId) => ({ label: `${label} (text)`, claimId })),
  );
  return [...fromItems, ...fromText];
}

function sourceCitations(report: FinalReport): { label: string; sourceId: string }[] {
  const fromItems = report.items.flatMap((item, index) =>
    unique(item.sourceIds).map((sourceId) => ({ label: `item ${index + 1}`, sourceId })),
  );
  const fromText = texts(report).flatMap(({ label, text }) =>
    unique(text.match(SOURCE_ID_IN_TEXT) ?? []).map((sourceId) => ({ label: `${label} (text)`, sourceId })),
  );
  return [...fromItems, ...fromText];
}

function sourceCheck(report: FinalReport, hostSourceIds: readonly string[]): string[] {
  const persisted = new Set(hostSourceIds);
  return sourceCitations(report)
    .filter(({ sourceId }) => !persisted.has(sourceId))
    .map(
      ({ label, sourceId }) =>
        `${label} cites ${sourceId}, which is not a persisted source of this run: cite only source ids you were shown.`,
    );
}

function claimChecks(report: FinalReport, claims: ReadonlyMap<string, Claim>): string[] {
  const missing: string[] = [];
  for (const { label, claimId } of claimCitations(report)) {
    const claim = claims.get(claimId);
    if (!claim) missing.push(`${label} cites ${claimId}, which is not a recorded claim: cite only ledger claim ids.`);
    else if (WITHDRAWN.has(claim.status)) {
      missing.push(
        `${label} cites ${claimId}, which is ${claim.status}: drop it, or rest the statement on a claim that holds.`,
      );
    }
  }
  return missing;
}

/** Each cited claim's real status must be stated in keyClaims, and every stated status must be the real one. */
function keyClaimChecks(report: FinalReport, claims: ReadonlyMap<string, Claim>): string[] {
  const missing: string[] = [];
  const stated = new Set(report.keyClaims.map((entry) => entry.claimId));
  for (const { claimId, status } of report.keyClaims) {
    const claim = claims.get(claimId);
    if (!claim) missing.push(`keyClaims names ${claimId}, which is not a recorded claim.`);
    else if (claim.status !== status) {
      missing.push(`keyClaims states ${claimId} ${status}, but it is ${claim.status}: state its real status.`);
    }
  }
  const cited = unique(report.items.flatMap((item) => item.claimIds));
  const unstated = cited.filter((claimId) => claims.has(claimId) && !stated.has(claimId));
  if (unstated.length > 0) {
    const listed = unstated.map((claimId) => `${claimId} ${claims.get(claimId)?.status ?? ""}`);
    missing.push(`keyClaims must state the status of every cited claim; add: ${ids(listed)}.`);
  }
  return missing;
}

function itemSourceChecks(investigation: Investigation, report: FinalReport, persisted: ReadonlySet<string>): string[] {
  const supports = investigation.ledger.claimSources.filter((link) => link.stance === "supports");
  return report.items.flatMap((item, index) => {
    const linked = new Set(supports.filter((link) => item.claimIds.includes(link.claimId)).map((l) => l.sourceId));
    // Unknown source ids already have their own message.
    const stray = unique(item.sourceIds).filter((sourceId) => persisted.has(sourceId) && !linked.has(sourceId));
    if (stray.length === 0) return [];
    return [
      `item ${index + 1} shows ${ids(stray)}, which support${stray.length === 1 ? "s" : ""} none of its claims ` +
        `(${ids(unique(item.claimIds))}): show only sources linked to them (${linked.size === 0 ? "none" : ids([...linked])}).`,
    ];
  });
}

function gapChecks(investigation: Investigation, report: FinalReport): string[] {
  const { questions } = investigation.frontier;
  const known = new Set(questions.map((question) => question.id));
  const named = new Set(report.gaps.flatMap((gap) => gap.questionIds));
  const missing = report.gaps.flatMap((gap, index) =>
    unique(gap.questionIds)
      .filter((questionId) => !known.has(questionId))
      .map((questionId) => `gap ${index + 1} names ${questionId}, which is not a question of this run.`),
  );
  // A claim's own verification check is shown by the claim's label, never as a gap.
  const absent = questions.filter(
    (question) => question.status === "unresolvable" && !isVerificationQuestion(question) && !named.has(question.id),
  );
  if (absent.length > 0) {
    missing.push(
      `Every unresolvable question must appear under gaps (by questionIds); missing: ${ids(absent.map((q) => q.id))}. ` +
        "Add a gap for each with its assumption.",
    );
  }
  return missing;
}

/**
 * The gate of `finalize_report` (seed 000 "Finalization gate"), in this order: the report
 * cites only Host-persisted source ids (`hostSourceIds`) and recorded claim ids; nothing cites
 * a REFUTED or RETRACTED claim; keyClaims states the real status of every claim the items cite
 * (UNVERIFIED claims may be cited, never passed off as VERIFIED); each item shows only sources
 * that support one of its claims; every `unresolvable` question appears under gaps, but a
 * claim's own verification check (its label says it). Ids written in the summary, item and gap
 * texts (`c_…`, `d_…`, `s_…`) are citations too. Pure.
 */
export function finalizationGate(
  investigation: Investigation,
  report: FinalReport,
  hostSourceIds: readonly string[],
): GateResult {
  const claims = new Map(investigation.ledger.claims.map((claim) => [claim.id, claim]));
  return gateResult([
    ...sourceCheck(report, hostSourceIds),
    ...claimChecks(report, claims),
    ...keyClaimChecks(report, claims),
    ...itemSourceChecks(investigation, report, new Set(hostSourceIds)),
    ...gapChecks(investigation, report),
  ]);
}
