/**
 * The offline engine's `finalize_report` (pure, deterministic): the report is the ledger's
 * live claims quoted verbatim — VERIFIED first, then UNVERIFIED, each stated with its real
 * status — with the sources that support each one, and one gap per `unresolvable` question
 * with its assumption. It writes no sentence of its own about the world.
 */
import { type FinalReport, MAX_REPORT_ITEMS, SUMMARY_MAX_CHARS } from "../../../core/investigative/final-report.js";
import type { Claim, Investigation } from "../../../core/investigative/types.js";
import { readerLine } from "../../../core/text.js";

/** Claims quoted in the summary. */
const SUMMARY_CLAIMS = 4;
const MAX_GAPS = 80;
const MAX_ITEM_SOURCES = 20;

/**
 * Ids written in report text are citations (the finalization gate reads `c_…`, `d_…` and
 * `s_…` in any text). A quoted sentence or a question that happens to contain one would cite
 * it by accident, so such tokens are written with a hyphen (`c-001`); the report cites only
 * through the structured fields and the ids this module adds itself.
 */
export const withoutIds = (text: string): string => text.replace(/\b([cds])_(\d+)\b/g, "$1-$2");

const claimStatement = (claim: Claim): string =>
  claim.kind === "datapoint" ? `${claim.value} ${claim.unit}: ${claim.text}` : claim.text;

/** The live claims the report cites, VERIFIED first, ledger order within a status. */
export function reportClaims(investigation: Pick<Investigation, "ledger">): Claim[] {
  const { claims } = investigation.ledger;
  return [
    ...claims.filter((claim) => claim.status === "VERIFIED"),
    ...claims.filter((claim) => claim.status === "UNVERIFIED"),
  ].slice(0, MAX_REPORT_ITEMS);
}

function summaryOf(objective: string, cited: readonly Claim[], gapCount: number): string {
  const segments = [
    `Findings on: ${withoutIds(readerLine(objective, 300)).replace(/[^.?!]$/u, "$&.")}`,
    ...cited
      .slice(0, SUMMARY_CLAIMS)
      .map((claim) => `“${withoutIds(readerLine(claimStatement(claim), 320))}” (${claim.id}, ${claim.status}).`),
    ...(cited.length === 0 ? ["No source read stated a finding that could be recorded."] : []),
    ...(gapCount > 0 ? [`${gapCount} question(s) stayed unanswered; see the gaps.`] : []),
  ];
  // Whole segments only: a cut id ("c_0…") would cite a claim that does not exist.
  let summary = "";
  for (const segment of segments) {
    const next = summary === "" ? segment : `${summary} ${segment}`;
    if (next.length > SUMMARY_MAX_CHARS) break;
    summary = next;
  }
  return summary;
}

/**
 * The report of the investigation. Items: one per live claim; keyClaims: the real status of
 * each; gaps: each `unresolvable` question with its assumption. With no live claim the report
 * has no item: its summary and gaps say that nothing was established.
 */
export function offlineFinalReport(investigation: Pick<Investigation, "ledger" | "frontier">): FinalReport {
  const cited = reportClaims(investigation);
  const supports = investigation.ledger.claimSources.filter((link) => link.stance === "supports");
  const items = cited.map((claim) => ({
    text: withoutIds(readerLine(claimStatement(claim), 2_000)),
    claimIds: [claim.id],
    sourceIds: [...new Set(supports.filter((link) => link.claimId === claim.id).map((link) => link.sourceId))].slice(
      0,
      MAX_ITEM_SOURCES,
    ),
  }));
  const gaps = investigation.frontier.questions
    .filter((question) => question.status === "unresolvable")
    .slice(0, MAX_GAPS)
    .map((question) => ({
      text: withoutIds(
        readerLine(
          `${question.question} Not answered by the sources read. Assumption: ${question.answer.trim() || "none stated"}`,
          1_000,
        ),
      ),
      questionIds: [question.id],
    }));
  return {
    summary: summaryOf(investigation.frontier.objective, cited, gaps.length),
    items,
    gaps,
    keyClaims: cited.map((claim) => ({ claimId: claim.id, status: claim.status })),
  };
}
