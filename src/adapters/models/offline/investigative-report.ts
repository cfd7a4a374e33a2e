/**
 * The offline engine's `finalize_report` (pure, deterministic): the report is the ledger's
 * live claims quoted verbatim — VERIFIED first, then UNVERIFIED, each by relevance to the
 * objective and stated with its real status, UNVERIFIED ones far off the objective left out —
 * with the sources that support each one, and one gap per `unresolvable` question
 * with its assumption. A gap says what the investigation left unresolved, not that no
 * source mentions it (the finalization gate wants every unresolvable question reported). It writes no sentence of its own about the world.
 */
import { askedParts } from "../../../core/answer/asked.js";
import { isVerificationQuestion } from "../../../core/investigative/breakers.js";
import { CONTRADICTION_QUESTION } from "../../../core/investigative/challenges.js";
import { type FinalReport, MAX_REPORT_ITEMS, SUMMARY_MAX_CHARS } from "../../../core/investigative/final-report.js";
import { claimStatement, withoutIds } from "../../../core/investigative/report-mapping.js";
import type { Claim, Investigation } from "../../../core/investigative/types.js";
import type { Judge } from "../../../core/judgment/judge.js";
import { normalizeWording, readerLine } from "../../../core/text.js";
import { claimRelevance, disputedClaim, mentioningFocus } from "./investigative-context.js";

/** Claims quoted in the summary. */
const SUMMARY_CLAIMS = 4;
const MAX_GAPS = 80;
const MAX_ITEM_SOURCES = 20;

// Ids written in report text are citations (the finalization gate reads `c_…`, `d_…` and `s_…`
// in any text): a quoted sentence or a question that happens to contain one would cite it by
// accident, so texts go through `withoutIds`; the report cites only through the structured
// fields and the ids this module adds itself.

/** An UNVERIFIED claim below this share of the most relevant claim's relevance is left out of the report. */
const RELATIVE_FLOOR = 0.2;

/**
 * The live claims the report cites: VERIFIED first, then UNVERIFIED, each by relevance to the
 * objective (`claimRelevance`), ledger order among equals. An UNVERIFIED claim far less
 * relevant than the best claim (under 20% of its score: read for a facet, off the question)
 * is left out; a VERIFIED one always stays. Relevance is weighed for each part of the objective
 * too: a claim as relevant to one part as the best claim for it stays, however little it shares
 * with the others ("High recovery rates for lithium…" for "which recycling route recovers
 * lithium best", beside a company and its founder). The claims recorded from one passage are
 * read together: a sentence that gives an answer without the question's words ("The answer
 * turned out to be ethylene carbonate (EC).") stays with the one beside it that has them.
 */
export function reportClaims(investigation: Pick<Investigation, "ledger" | "frontier">): Claim[] {
  const { claims, claimSources } = investigation.ledger;
  const { objective } = investigation.frontier;
  const scores = claimRelevance(investigation, objective);
  const score = (claim: Claim) => scores.get(claim.id) ?? 0;
  const parts = askedParts(objective);
  const floors = [scores, ...(parts.length > 1 ? parts.map((part) => claimRelevance(investigation, part.asked)) : [])];
  const passages = new Map<string, string[]>();
  for (const link of claimSources)
    if (link.stance === "supports")
      passages.set(link.claimId, [...(passages.get(link.claimId) ?? []), ...link.chunkIds]);
  const passagesOf = (claim: Claim): readonly string[] => passages.get(claim.id) ?? [];
  // For the whole objective and each part: the floor, and each passage's best claim.
  const weighed = floors.map((of) => {
    const best = new Map<string, number>();
    for (const claim of claims)
      for (const passage of passagesOf(claim))
        best.set(passage, Math.max(best.get(passage) ?? 0, of.get(claim.id) ?? 0));
    return { of, best, floor: Math.max(0, ...of.values()) * RELATIVE_FLOOR };
  });
  const relevant = (claim: Claim): boolean =>
    weighed.some(({ of, best, floor }) => {
      const own = Math.max(of.get(claim.id) ?? 0, ...passagesOf(claim).map((passage) => best.get(passage) ?? 0));
      return floor > 0 && own >= floor;
    });
  const ranked = (status: Claim["status"]) =>
    claims.filter((claim) => claim.status === status).sort((a, b) => score(b) - score(a));
  const kept = [...ranked("VERIFIED"), ...ranked("UNVERIFIED").filter(relevant)];
  // A claim another one kept quotes whole, as sure or surer ("Metal fluorides … are another conversion
  // family." inside that sentence and the next), adds nothing: the report shows the longer once.
  const worded = new Map(kept.map((claim) => [claim, ` ${normalizeWording(claimStatement(claim))} `]));
  const held = (claim: Claim): boolean =>
    kept.some((other) => {
      const [inner, outer] = [worded.get(claim) ?? "", worded.get(other) ?? ""];
      return (
        other !== claim &&
        outer.length > inner.length &&
        outer.includes(inner) &&
        (other.status === "VERIFIED" || claim.status !== "VERIFIED")
      );
    });
  return kept.filter((claim) => !held(claim)).slice(0, MAX_REPORT_ITEMS);
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
 * each; gaps: each `unresolvable` question (not a claim's verification check) with its
 * assumption. With no live claim the report has no item: its summary and gaps say that nothing
 * was established.
 */
export function offlineFinalReport(
  investigation: Pick<Investigation, "ledger" | "frontier">,
  judge: Pick<Judge, "mentionsOf">,
): FinalReport {
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
  const live = investigation.ledger.claims.filter(
    (claim) => claim.status === "VERIFIED" || claim.status === "UNVERIFIED",
  );
  const gaps = investigation.frontier.questions
    // A claim's own check ("Is c_001 supported by an independent source: …") is shown by its label, never as a gap.
    .filter((question) => question.status === "unresolvable" && !isVerificationQuestion(question))
    .flatMap((question) => {
      // What the claims recorded after it was given up answer is no gap; where they disagree, that is said.
      const disputed = disputedClaim(investigation, judge, question);
      const disagreement = disputed
        ? `The sources read disagree on “${readerLine(disputed, 300)}”: the report shows it contested, with both sides quoted.`
        : undefined;
      if (!disagreement && mentioningFocus(judge, question, live).length > 0) return [];
      const text = question.question.startsWith(CONTRADICTION_QUESTION)
        ? (disagreement ?? question.answer.trim())
        : `${question.question} Left unresolved by the investigation. Assumption: ${disagreement ?? (question.answer.trim() || "none stated")}`;
      return [{ text: withoutIds(readerLine(text, 1_000)), questionIds: [question.id] }];
    })
    .slice(0, MAX_GAPS);
  return {
    summary: summaryOf(investigation.frontier.objective, cited, gaps.length),
    items,
    gaps,
    keyClaims: cited.map((claim) => ({ claimId: claim.id, status: claim.status })),
  };
}
