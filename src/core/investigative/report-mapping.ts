/**
 * The investigative final report as synthesis proposals (DESIGN "The three strategies": the
 * synthesis phase hands the Host a structured report, which goes through the same admission
 * and `ReportDocument` as the pipeline's). The `FinalReport` cites claims; a published finding
 * cites passages: this maps each item to facts citing the passages recorded on the claims'
 * source links, marks what rests on unverified claims, and says which items could not be
 * mapped and why. Admission (`admitSynthesis`) still decides what is published. Pure.
 */
import { type AdmissionCatalog, type AdmissionDiagnostic, numbersIn } from "../synthesis/admission.js";
import type { FactProposal, GapProposal, SynthesisOutput } from "../synthesis/proposals.js";
import type { FinalReport, FinalReportItem } from "./final-report.js";
import type { Claim, ClaimSource, Investigation } from "./types.js";

/** The prefix that marks, in the published text, a finding resting on a claim that is not VERIFIED. */
export const UNVERIFIED_MARKER = "Unverified: ";

/** A fact cites at most this many passages (the fact proposal schema's bound). */
const MAX_PASSAGES = 8;

/** The proposals of a final report, and the items that became none, with why. */
export interface ReportMapping {
  output: SynthesisOutput;
  /** Items left out before admission (`itemId` `item3`, kind `fact`): internal diagnostics, never reader text. */
  dropped: AdmissionDiagnostic[];
}

const unique = <T>(values: Iterable<T>): T[] => [...new Set(values)];

// Ids written in the text are citations for the gate, not reader text; their digits would
// also read as numbers the passages must contain. Bracketed lists go whole, then bare ids.
const ID = String.raw`(?:[cd]_\d+|s_\d+(?:\.p\d+)?|q_\d+|ch_\d+)`;
const BRACKETED_IDS = new RegExp(String.raw`\s*[[(]\s*${ID}(?:\s*[,;/]\s*${ID})*\s*[\])]`, "g");
const BARE_ID = new RegExp(String.raw`\b${ID}\b`, "g");

/** `text` without the Host and ledger ids written in it, whitespace tidied. Pure. */
export function withoutIds(text: string): string {
  return text
    .replace(BRACKETED_IDS, "")
    .replace(BARE_ID, "")
    .replace(/\s+([,.;:!?])/g, "$1")
    .replace(/\s{2,}/g, " ")
    .trim();
}

/** True when every claim the item rests on is VERIFIED. */
function itemVerified(item: FinalReportItem, claims: ReadonlyMap<string, Claim>): boolean {
  return unique(item.claimIds).every((claimId) => claims.get(claimId)?.status === "VERIFIED");
}

/** The passages of `link` that the catalog holds, in the link's order, bounded. */
function catalogPassages(link: ClaimSource, catalog: AdmissionCatalog): string[] {
  const chunks = catalog.get(link.sourceId);
  if (!chunks) return [];
  return unique(link.chunkIds.filter((chunkId) => chunks.has(chunkId))).slice(0, MAX_PASSAGES);
}

/**
 * The link a claim's fact cites: among its supporting links with passages in the catalog,
 * those of sources the item shows first, then the ledger's order; the first whose passages
 * hold every number of `text` (so admission's number check can pass), else the first.
 */
function citedLink(
  claimId: string,
  item: FinalReportItem,
  text: string,
  investigation: Investigation,
  catalog: AdmissionCatalog,
): { link: ClaimSource; chunkIds: string[] } | undefined {
  const candidates = investigation.ledger.claimSources
    .filter((link) => link.claimId === claimId && link.stance === "supports")
    .map((link) => ({ link, chunkIds: catalogPassages(link, catalog) }))
    .filter((candidate) => candidate.chunkIds.length > 0);
  const shown = (candidate: { link: ClaimSource }) => (item.sourceIds.includes(candidate.link.sourceId) ? 0 : 1);
  const ordered = candidates.map((candidate, index) => ({ candidate, index }));
  ordered.sort((a, b) => shown(a.candidate) - shown(b.candidate) || a.index - b.index);
  const numbers = numbersIn(text);
  const holdsNumbers = ({ link, chunkIds }: { link: ClaimSource; chunkIds: string[] }): boolean => {
    const chunks = catalog.get(link.sourceId);
    const cited = new Set(numbersIn(chunkIds.map((chunkId) => chunks?.get(chunkId) ?? "").join(" ")));
    return numbers.every((number) => cited.has(number));
  };
  return (ordered.find(({ candidate }) => holdsNumbers(candidate)) ?? ordered[0])?.candidate;
}

/** Why an item cannot be mapped at all (a claim unknown or withdrawn), or undefined. */
function claimProblem(item: FinalReportItem, claims: ReadonlyMap<string, Claim>): string | undefined {
  for (const claimId of unique(item.claimIds)) {
    const claim = claims.get(claimId);
    if (!claim) return `rests on ${claimId}, which is not a recorded claim`;
    if (claim.status === "REFUTED" || claim.status === "RETRACTED")
      return `rests on ${claimId}, which is ${claim.status}`;
  }
  return undefined;
}

/**
 * Maps a final report to synthesis proposals, item by item (pure; never throws):
 *
 * - **Facts.** An item becomes one fact per claim it rests on: the item's text, citing one
 *   source link of that claim and the link's passages (those the catalog holds, at most 8).
 *   When a claim has several supporting sources it still gives one fact, not one per source:
 *   the first supporting link with passages, preferring the sources the item shows and, among
 *   those, a link whose passages contain the numbers of the text. A claim with no such link
 *   gives no fact; an item none of whose claims has one is dropped with that reason, as is an
 *   item resting on a claim that is unknown, REFUTED or RETRACTED. Fact ids are
 *   `item<n>_<claim id>` (`item2_c_004`).
 * - **The unverified marker.** When any claim an item rests on is not VERIFIED, each of its
 *   facts reads `Unverified: <text>`, so the published report marks it; an item whose claims
 *   are all VERIFIED keeps its text unchanged.
 * - **Gaps.** Each report gap becomes a gap proposal (`gap<n>`) with no related sources.
 * - Ids written in texts (`c_001`, `[s_002]`) are removed: they are the gate's citations,
 *   not reader text.
 *
 * The summary and `keyClaims` are not mapped: the report's findings and the verification
 * note (`verificationNote`) carry them. Admission then checks every fact against the catalog
 * (passages exist, numbers in the text appear in them) like any other synthesis.
 */
export function finalReportToSynthesis(
  report: FinalReport,
  investigation: Investigation,
  catalog: AdmissionCatalog,
): ReportMapping {
  const claims = new Map(investigation.ledger.claims.map((claim) => [claim.id, claim]));
  const facts: FactProposal[] = [];
  const dropped: AdmissionDiagnostic[] = [];
  report.items.forEach((item, index) => {
    const itemId = `item${index + 1}`;
    const problem = claimProblem(item, claims);
    if (problem) {
      dropped.push({ itemId, kind: "fact", reason: problem });
      return;
    }
    const base = withoutIds(item.text);
    const text = itemVerified(item, claims) ? base : `${UNVERIFIED_MARKER}${base}`;
    const mapped = unique(item.claimIds).flatMap((claimId): FactProposal[] => {
      const cited = citedLink(claimId, item, base, investigation, catalog);
      if (!cited) return [];
      return [{ id: `${itemId}_${claimId}`, text, sourceId: cited.link.sourceId, chunkIds: cited.chunkIds }];
    });
    if (mapped.length === 0) {
      dropped.push({
        itemId,
        kind: "fact",
        reason: `no supporting source link of ${unique(item.claimIds).join(", ")} has passages in the catalog`,
      });
      return;
    }
    facts.push(...mapped);
  });
  const gaps: GapProposal[] = report.gaps.map((gap, index) => ({
    id: `gap${index + 1}`,
    text: withoutIds(gap.text),
    relatedSourceIds: [],
  }));
  return { output: { facts, derivations: [], recommendations: [], gaps }, dropped };
}

const count = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

/**
 * One line for the report's `producedBy`: how many of the report's items rest only on VERIFIED
 * claims (independent supporting sources and a survived challenge, checked in code) and how
 * many are marked unverified. Counts the report's items, before admission. Pure.
 */
export function verificationNote(report: FinalReport, investigation: Investigation): string {
  const claims = new Map(investigation.ledger.claims.map((claim) => [claim.id, claim]));
  const verified = report.items.filter((item) => itemVerified(item, claims)).length;
  const unverified = report.items.length - verified;
  const basis = "claims verified by independent sources and a survived challenge";
  if (unverified === 0) {
    return `${count(verified, "finding rests", "findings rest")} on ${basis}.`;
  }
  if (verified === 0) {
    return `No finding rests on ${basis}; ${count(unverified, "finding is", "findings are")} unverified and marked.`;
  }
  return `${count(verified, "finding rests", "findings rest")} on ${basis}; ${count(unverified, "is", "are")} unverified and marked.`;
}
