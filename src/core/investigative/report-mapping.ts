/**
 * The investigative final report as synthesis proposals (DESIGN "The three strategies": the
 * synthesis phase hands the Host a structured report, which goes through the same admission
 * and `ReportDocument` as the pipeline's). The `FinalReport` cites claims; a published finding
 * cites passages: this maps each item to facts citing the passages recorded on the claims'
 * source links, says how code checked each (its verification, from the ledger, never from the
 * model), adds the contested claims the ledger holds, and says which items could not be mapped
 * and why. Admission (`admitSynthesis`) still decides what is published. Pure.
 */

import type { Judge } from "../judgment/judge.js";
import type { VerificationDraft } from "../report/synthesized-items.js";
import { numbersIn, unsupportedTerms } from "../statements.js";
import type { AdmissionCatalog, AdmissionDiagnostic } from "../synthesis/admission.js";
import type { FactProposal, GapProposal, SynthesisOutput } from "../synthesis/proposals.js";
import type { FinalReport, FinalReportItem } from "./final-report.js";
import { sourceKey } from "./ledger.js";
import type { Challenge, Claim, ClaimSource, Investigation } from "./types.js";

/** A fact cites at most this many passages (the fact proposal schema's bound). */
const MAX_PASSAGES = 8;
/** Contested claims added to the report beyond its items, at most. */
const MAX_CONTESTED = 10;

/** The proposals of a final report, how each fact was checked, and the items that became none, with why. */
export interface ReportMapping {
  output: SynthesisOutput;
  /** By fact id: the verification code gives it from the ledger. */
  verification: Map<string, VerificationDraft>;
  /** Items left out before admission (`itemId` `item3`, kind `fact`): internal diagnostics, never reader text. */
  dropped: AdmissionDiagnostic[];
  /** Items naming VERIFIED claims that are published as unverified, and why (internal diagnostics). */
  demoted: AdmissionDiagnostic[];
}

const unique = <T>(values: Iterable<T>): T[] => [...new Set(values)];

// Ids written in the text are citations for the gate, not reader text; their digits would
// also read as numbers the passages must contain. Bracketed lists go whole, then bare ids.
const ID = String.raw`(?:[cd]_\d+|s_\d+(?:\.p\d+)?|q_\d+|ch_\d+)`;
const BRACKETED_IDS = new RegExp(String.raw`\s*[[(]\s*${ID}(?:\s*[,;/]\s*${ID})*\s*[\])]`, "g");
const BARE_ID = new RegExp(String.raw`\b${ID}\b`, "g");

/** `text` without the Host and ledger ids written in it, whitespace tidied: the one id-stripping rule. Pure. */
export function withoutIds(text: string): string {
  return text
    .replace(BRACKETED_IDS, "")
    .replace(BARE_ID, "")
    .replace(/\s+([,.;:!?])/g, "$1")
    .replace(/\s{2,}/g, " ")
    .trim();
}

/** What a claim states, as one text: a datapoint's value and unit, then its text. The one claim-statement rule. Pure. */
export function claimStatement(claim: Pick<Claim, "kind" | "text" | "value" | "unit">): string {
  return claim.kind === "datapoint" ? `${claim.value} ${claim.unit}: ${claim.text}` : claim.text;
}

/** The passages of `link` that the catalog holds, in the link's order, bounded. */
function catalogPassages(link: ClaimSource, catalog: AdmissionCatalog): string[] {
  const chunks = catalog.get(link.sourceId);
  if (!chunks) return [];
  return unique(link.chunkIds.filter((chunkId) => chunks.has(chunkId))).slice(0, MAX_PASSAGES);
}

const passageText = (catalog: AdmissionCatalog, sourceId: string, chunkIds: readonly string[]): string =>
  chunkIds.map((chunkId) => catalog.get(sourceId)?.get(chunkId) ?? "").join(" ");

/** A claim's links of one stance whose passages the catalog holds, in ledger order. */
function linksOf(
  investigation: Investigation,
  claimId: string,
  stance: ClaimSource["stance"],
  catalog: AdmissionCatalog,
): { link: ClaimSource; chunkIds: string[] }[] {
  return investigation.ledger.claimSources
    .filter((link) => link.claimId === claimId && link.stance === stance)
    .map((link) => ({ link, chunkIds: catalogPassages(link, catalog) }))
    .filter((candidate) => candidate.chunkIds.length > 0);
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
  const candidates = linksOf(investigation, claimId, "supports", catalog);
  const shown = (candidate: { link: ClaimSource }) => (item.sourceIds.includes(candidate.link.sourceId) ? 0 : 1);
  const ordered = candidates.map((candidate, index) => ({ candidate, index }));
  ordered.sort((a, b) => shown(a.candidate) - shown(b.candidate) || a.index - b.index);
  const numbers = numbersIn(text);
  const holdsNumbers = ({ link, chunkIds }: { link: ClaimSource; chunkIds: string[] }): boolean => {
    const cited = new Set(numbersIn(passageText(catalog, link.sourceId, chunkIds)));
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
 * The sentences of the passages that, by the judge, stand to `claim` as `stance` says,
 * verbatim (whitespace collapsed); none when the judge does not find it so (a quote that is
 * not the other side would mislead more than no quote).
 */
function quoteFor(
  passages: string,
  claim: string,
  stance: "supports" | "contradicts",
  judge: Judge,
): string | undefined {
  const judgement = judge.judge(claim, { text: passages });
  if (judgement.verdict !== stance) return undefined;
  return judgement.passage.map((span) => span.text).join(" ") || undefined;
}

/** The cited passages of a claim's links of one stance, each with its quote and whether the judge confirms the stance. */
function citedPassages(
  investigation: Investigation,
  claim: Claim,
  stance: "supports" | "contradicts",
  catalog: AdmissionCatalog,
  judge: Judge,
) {
  const statement = claimStatement(claim);
  return linksOf(investigation, claim.id, stance, catalog).map(({ link, chunkIds }) => {
    const quote = quoteFor(passageText(catalog, link.sourceId, chunkIds), statement, stance, judge);
    return { sourceId: link.sourceId, chunkIds, ...(quote ? { quote } : {}) };
  });
}

const STRATEGY_WORDS: Record<Challenge["strategy"], string> = {
  negation: "a search for sources that deny it",
  alternative_method: "a search for an independent account",
  discrepancy: "a search for conflicting figures",
  criticism: "a search for corrections and criticism",
  scope_limit: "a search for limits and exceptions",
  primary_source: "a search for the primary record",
  staleness: "a search for newer sources",
};

/** Reader text of the challenge a claim survived, from its record (ids removed), or undefined when it survived none. */
function survivedChallenge(investigation: Investigation, claimId: string): string | undefined {
  const survived = investigation.challenges.findLast(
    (challenge) =>
      challenge.targetType === "claim" && challenge.targetId === claimId && challenge.outcome === "survived",
  );
  if (!survived) return undefined;
  // Evidence that names ledger ids is for the ledger, not the reader (the ids mean nothing in the report).
  const evidence = survived.evidence.trim();
  const readable = evidence !== "" && withoutIds(evidence) === evidence.replace(/\s{2,}/g, " ");
  return `${STRATEGY_WORDS[survived.strategy]} (“${withoutIds(survived.query)}”)${readable ? `: ${evidence}` : ""}`;
}

/**
 * How code checks an item resting on `claimIds`, from the ledger and the judge: contested when
 * a source contradicts one of its claims; verified when every claim is VERIFIED, survived a
 * challenge, the judge finds that supporting passages of distinct origins (at least
 * `min_independent_sources`) state each claim, and the item's text stays inside them (every
 * number and name it writes is in them, and the judge finds the passages state it);
 * otherwise unverified. `demoted` says why a VERIFIED item was not published as verified.
 */
function itemVerification(
  text: string,
  claimIds: readonly string[],
  investigation: Investigation,
  catalog: AdmissionCatalog,
  judge: Judge,
): { verification: VerificationDraft; demoted?: string } {
  const claims = claimIds
    .map((claimId) => investigation.ledger.claims.find((claim) => claim.id === claimId))
    .filter((claim): claim is Claim => claim !== undefined);
  const supports = claims.flatMap((claim) => citedPassages(investigation, claim, "supports", catalog, judge));
  const contradicts = claims.flatMap((claim) => citedPassages(investigation, claim, "contradicts", catalog, judge));
  if (contradicts.length > 0) return { verification: { status: "contested", supports, contradicts } };
  const unverified: VerificationDraft = { status: "unverified", supports: [], contradicts: [] };
  if (claims.length === 0 || claims.some((claim) => claim.status !== "VERIFIED")) return { verification: unverified };
  const challenges = claims.map((claim) => survivedChallenge(investigation, claim.id));
  if (challenges.some((challenge) => challenge === undefined))
    return { verification: unverified, demoted: "a VERIFIED claim it rests on has no survived challenge on record" };
  // Each claim stated, by the judge, by passages of enough distinct origins.
  const { minIndependentSources } = investigation.config;
  for (const claim of claims) {
    const stating = citedPassages(investigation, claim, "supports", catalog, judge).filter((cited) => cited.quote);
    const origins = new Set(
      stating.map((cited) => {
        const source = investigation.ledger.sources.find((known) => known.id === cited.sourceId);
        const byLink = investigation.ledger.origins?.byLink[`${claim.id} ${cited.sourceId}`];
        return byLink ?? (source ? sourceKey(investigation.ledger, source) : cited.sourceId);
      }),
    );
    if (origins.size < minIndependentSources)
      return {
        verification: unverified,
        demoted: `the judge finds ${origins.size} independent origin(s) whose passages state a VERIFIED claim it rests on; ${minIndependentSources} are needed: published as unverified`,
      };
  }
  const evidence = supports.map((cited) => passageText(catalog, cited.sourceId, cited.chunkIds)).join(" ");
  const outside = unsupportedTerms(text, evidence);
  if (outside.numbers.length > 0 || outside.names.length > 0) {
    const terms = [...outside.numbers, ...outside.names].map((term) => `“${term}”`).join(", ");
    return {
      verification: unverified,
      demoted: `its text writes ${terms}, which the passages of its VERIFIED claims do not: published as unverified`,
    };
  }
  // The item's own words (a model's) must be what the passages state, not only the claims'.
  const itemStated = supports.some(
    (cited) => judge.judge(text, { text: passageText(catalog, cited.sourceId, cited.chunkIds) }).verdict === "supports",
  );
  if (!itemStated) {
    return {
      verification: unverified,
      demoted:
        "the judge does not find its text stated by the passages of its VERIFIED claims: published as unverified",
    };
  }
  return {
    verification: {
      status: "verified",
      supports,
      contradicts: [],
      challenge: unique(challenges as string[]).join("; "),
    },
  };
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
 * - **Verification** (`itemVerification`), by fact id: verified lists every supporting source
 *   and the survived challenge; an item naming a VERIFIED claim whose text writes a number or
 *   name its passages lack is published as unverified, with a diagnostic. VERIFIED comes from
 *   the ledger, never from the model.
 * - **Contested claims.** A claim the ledger holds with both supporting and contradicting
 *   sources (REFUTED by them, or still open) that no item cites is published too, in its own
 *   words, as contested: both sides cited and quoted (`contested<n>`, at most 10).
 * - **Gaps.** Each report gap becomes a gap proposal (`gap<n>`) with no related sources.
 * - Ids written in texts (`c_001`, `[s_002]`) are removed: they are the gate's citations,
 *   not reader text.
 *
 * The summary and `keyClaims` are not mapped: the report's findings and their verification
 * carry them. Admission then checks every fact against the catalog (passages exist, numbers in
 * the text appear in them) like any other synthesis.
 */
export function finalReportToSynthesis(
  report: FinalReport,
  investigation: Investigation,
  catalog: AdmissionCatalog,
  judge: Judge,
): ReportMapping {
  const claims = new Map(investigation.ledger.claims.map((claim) => [claim.id, claim]));
  const facts: FactProposal[] = [];
  const verification = new Map<string, VerificationDraft>();
  const dropped: AdmissionDiagnostic[] = [];
  const demoted: AdmissionDiagnostic[] = [];
  report.items.forEach((item, index) => {
    const itemId = `item${index + 1}`;
    const problem = claimProblem(item, claims);
    if (problem) {
      dropped.push({ itemId, kind: "fact", reason: problem });
      return;
    }
    const text = withoutIds(item.text);
    const checked = itemVerification(text, unique(item.claimIds), investigation, catalog, judge);
    const mapped = unique(item.claimIds).flatMap((claimId): FactProposal[] => {
      const cited = citedLink(claimId, item, text, investigation, catalog);
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
    if (checked.demoted) demoted.push({ itemId, kind: "fact", reason: checked.demoted });
    for (const fact of mapped) verification.set(fact.id, checked.verification);
    facts.push(...mapped);
  });
  const cited = new Set(report.items.flatMap((item) => item.claimIds));
  const contested = investigation.ledger.claims
    .filter((claim) => claim.status !== "RETRACTED" && !cited.has(claim.id))
    .filter((claim) => linksOf(investigation, claim.id, "contradicts", catalog).length > 0)
    .slice(0, MAX_CONTESTED);
  contested.forEach((claim, index) => {
    const text = withoutIds(claimStatement(claim));
    const link = citedLink(claim.id, { text, claimIds: [claim.id], sourceIds: [] }, text, investigation, catalog);
    if (!link) return;
    const id = `contested${index + 1}`;
    facts.push({ id, text, sourceId: link.link.sourceId, chunkIds: link.chunkIds });
    verification.set(id, itemVerification(text, [claim.id], investigation, catalog, judge).verification);
  });
  const gaps: GapProposal[] = report.gaps.map((gap, index) => ({
    id: `gap${index + 1}`,
    text: withoutIds(gap.text),
    relatedSourceIds: [],
  }));
  return { output: { facts, derivations: [], recommendations: [], gaps }, verification, dropped, demoted };
}
