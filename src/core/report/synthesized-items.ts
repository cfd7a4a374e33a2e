/**
 * Turns admitted proposals into the reader-facing items of a ReportDocument (pure):
 * numbered findings with their citation closure, recommendations with their conditions and
 * premises, gaps with related sources. Local proposal ids never reach the document.
 */
import type { Admitted } from "../synthesis/admission.js";
import type { FactProposal } from "../synthesis/proposals.js";
import { readerLine } from "../text.js";
import { type EvidenceLimits, type EvidenceRequest, quoteEvidence } from "./evidence.js";
import type { ExcerptChunk } from "./excerpts.js";
import type { Citation, Finding, Gap, Recommendation, Verification, VerificationStatus } from "./report-document.js";

/** At most this many findings go to the direct-findings area. */
export const DIRECT_FINDINGS = 3;

export interface ItemSource {
  id: string;
  chunks: readonly ExcerptChunk[];
}

export interface SynthesizedItems {
  directFindings: Finding[];
  findings: Finding[];
  recommendations: Recommendation[];
  gaps: Gap[];
}

type Draft = Omit<Citation, "number" | "evidence">;

/** Passages of one source, by chunk id. */
export interface CitedPassages {
  sourceId: string;
  chunkIds: readonly string[];
  /** The sentence of those passages the verification rests on, as the strategy or model named it (checked before it is quoted). */
  quote?: string;
}

/**
 * How the strategy checked a fact, keyed by the fact's id: given by code from the claim ledger
 * (never by a model). A fact without one is `contested` when its proposal names sources that
 * contradict it (`contradictedBy`, checked for structure by admission), else `not-checked`.
 */
export interface VerificationDraft {
  status: VerificationStatus;
  supports: readonly CitedPassages[];
  contradicts: readonly CitedPassages[];
  challenge?: string;
}

export type VerificationMap = ReadonlyMap<string, VerificationDraft>;

const NOT_CHECKED: VerificationDraft = { status: "not-checked", supports: [], contradicts: [] };

/** The verification of `fact`: the strategy's, else contested by the sources its proposal names, else not checked. */
function verificationOfFact(fact: FactProposal, verification: VerificationMap): VerificationDraft {
  const given = verification.get(fact.id);
  if (given) return given;
  const against = fact.contradictedBy ?? [];
  if (against.length === 0) return NOT_CHECKED;
  return {
    status: "contested",
    supports: [{ sourceId: fact.sourceId, chunkIds: fact.chunkIds }],
    contradicts: against,
  };
}

/**
 * Sources cited by the admitted items, in order of first citation: the facts' own, then
 * those their verification lists (supporting and contradicting). Derivations and
 * recommendations cite only through their premises, which end in facts.
 */
export function citedSourceIds(admitted: Admitted, verification: VerificationMap = new Map()): string[] {
  const checked = admitted.facts.flatMap((fact) => {
    const draft = verificationOfFact(fact, verification);
    return [...draft.supports, ...draft.contradicts].map((cited) => cited.sourceId);
  });
  return [...new Set([...admitted.facts.map((fact) => fact.sourceId), ...checked])];
}

/** The verification of an item resting on premises: contested when one is, else unverified when one is, else not checked. */
function derived(premises: readonly VerificationDraft[]): VerificationDraft {
  const contested = premises.filter((premise) => premise.status === "contested");
  if (contested.length > 0)
    return { status: "contested", supports: [], contradicts: contested.flatMap((premise) => premise.contradicts) };
  if (premises.some((premise) => premise.status === "unverified"))
    return { status: "unverified", supports: [], contradicts: [] };
  return NOT_CHECKED;
}

/** Merges the citations of several items, one entry per source, chunks in first-seen order. */
function merge(drafts: readonly Draft[]): Draft[] {
  const bySource = new Map<string, Draft>();
  for (const citation of drafts) {
    const known = bySource.get(citation.sourceId) ?? { sourceId: citation.sourceId, chunkIds: [], passages: [] };
    citation.chunkIds.forEach((chunkId, index) => {
      if (!known.chunkIds.includes(chunkId)) {
        known.chunkIds.push(chunkId);
        known.passages.push(citation.passages[index] ?? 1);
      }
    });
    bySource.set(citation.sourceId, known);
  }
  return [...bySource.values()];
}

/**
 * Builds the items. `numberOf` gives the ledger number of a source. Every citation carries its
 * evidence, quoted from `sources` within `limits`, in reading order. Pure.
 */
export function synthesizedItems(
  admitted: Admitted,
  sources: readonly ItemSource[],
  numberOf: (sourceId: string) => number,
  limits: EvidenceLimits,
  verification: VerificationMap = new Map(),
  /** How many of the first findings are direct (those that answer the question, when that is known). */
  direct = DIRECT_FINDINGS,
): SynthesizedItems {
  const chunkOf = new Map(sources.flatMap((source) => source.chunks.map((chunk) => [chunk.id, chunk] as const)));
  const seqOf = (chunkId: string) => chunkOf.get(chunkId)?.seq ?? 1;
  const drafts = new Map<string, VerificationDraft>(
    admitted.facts.map((fact) => [fact.id, verificationOfFact(fact, verification)]),
  );
  const draftOf = (cited: CitedPassages): Draft => ({
    sourceId: cited.sourceId,
    chunkIds: [...cited.chunkIds],
    passages: cited.chunkIds.map(seqOf),
  });
  const closure = new Map<string, Draft[]>();
  /** The facts an item rests on, itself for a fact (what its citations' quotes should bear on). */
  const factsOf = new Map<string, FactProposal[]>();
  for (const fact of admitted.facts) {
    closure.set(fact.id, [draftOf(fact)]);
    factsOf.set(fact.id, [fact]);
  }
  // Admission guarantees every premise is admitted and the graph is acyclic: resolve to a fixpoint.
  let unresolved = [...admitted.derivations];
  while (unresolved.length > 0) {
    const ready = unresolved.filter((derivation) => derivation.premiseIds.every((id) => closure.has(id)));
    if (ready.length === 0) break;
    for (const derivation of ready) {
      closure.set(derivation.id, merge(derivation.premiseIds.flatMap((id) => closure.get(id) ?? [])));
      factsOf.set(derivation.id, [...new Set(derivation.premiseIds.flatMap((id) => factsOf.get(id) ?? []))]);
      drafts.set(derivation.id, derived(derivation.premiseIds.map((id) => drafts.get(id) ?? NOT_CHECKED)));
    }
    unresolved = unresolved.filter((derivation) => !ready.includes(derivation));
  }

  // Citations are made in reading order; their evidence is quoted once all are known.
  const pending: { citation: Citation; request: EvidenceRequest }[] = [];
  const cite = (draft: Draft, request: Omit<EvidenceRequest, "sourceId" | "chunkIds">): Citation => {
    const citation: Citation = { ...draft, number: numberOf(draft.sourceId) };
    pending.push({ citation, request: { ...request, sourceId: draft.sourceId, chunkIds: draft.chunkIds } });
    return citation;
  };
  /** An item's own citations: each source's passages, quoted for what the item's facts say of that source. */
  const ownCitations = (itemId: string): Citation[] => {
    const facts = factsOf.get(itemId) ?? [];
    return (closure.get(itemId) ?? []).map((draft) => {
      const about = facts.filter((fact) => fact.sourceId === draft.sourceId).map((fact) => fact.text);
      // A fact its passage writes word for word (the offline engine's) is quoted as it stands, whole sentences.
      return cite(draft, { about, stance: "supports", ...(about.length === 1 ? { hint: about[0] } : {}) });
    });
  };
  const ordered = [...admitted.facts, ...admitted.derivations];
  const numberOfItem = new Map(ordered.map((item, index) => [item.id, index + 1]));
  const premiseNumbers = (ids: readonly string[]): number[] =>
    ids.map((id) => numberOfItem.get(id)).filter((number): number is number => number !== undefined);
  // One citation per source; the first sentence named for it is the hint.
  const checked = (cited: readonly CitedPassages[], about: readonly string[], stance: EvidenceRequest["stance"]) =>
    merge(cited.map(draftOf)).map((draft) => {
      const hint = cited.find((item) => item.sourceId === draft.sourceId && item.quote)?.quote;
      return cite(draft, { about, stance, ...(hint ? { hint } : {}) });
    });
  const verificationOf = (itemId: string, draft: VerificationDraft): Verification => {
    const about = (factsOf.get(itemId) ?? []).map((fact) => fact.text);
    return {
      status: draft.status,
      supports: checked(draft.supports, about, "supports"),
      contradicts: checked(draft.contradicts, about, "contradicts"),
      ...(draft.challenge ? { challenge: readerLine(draft.challenge, 600) } : {}),
    };
  };

  const findings: Finding[] = [
    ...admitted.facts.map(
      (fact, index): Finding => ({
        number: index + 1,
        kind: "fact",
        text: readerLine(fact.text, 2_000),
        basedOn: [],
        citations: ownCitations(fact.id),
        verification: verificationOf(fact.id, drafts.get(fact.id) ?? NOT_CHECKED),
      }),
    ),
    ...admitted.derivations.map(
      (derivation, index): Finding => ({
        number: admitted.facts.length + index + 1,
        kind: "derivation",
        text: readerLine(derivation.text, 2_000),
        basedOn: premiseNumbers(derivation.premiseIds),
        method: readerLine(derivation.method, 300),
        citations: ownCitations(derivation.id),
        verification: verificationOf(derivation.id, drafts.get(derivation.id) ?? NOT_CHECKED),
      }),
    ),
  ];
  const recommendations = admitted.recommendations.map((recommendation): Recommendation => {
    factsOf.set(recommendation.id, [...new Set(recommendation.premiseIds.flatMap((id) => factsOf.get(id) ?? []))]);
    closure.set(recommendation.id, merge(recommendation.premiseIds.flatMap((id) => closure.get(id) ?? [])));
    return {
      text: readerLine(recommendation.text, 2_000),
      conditions: recommendation.conditions.map((condition) => readerLine(condition, 300)),
      basedOn: premiseNumbers(recommendation.premiseIds),
      citations: ownCitations(recommendation.id),
      verification: verificationOf(
        recommendation.id,
        derived(recommendation.premiseIds.map((id) => drafts.get(id) ?? NOT_CHECKED)),
      ),
    };
  });
  const evidence = quoteEvidence(
    pending.map((item) => item.request),
    chunkOf,
    limits,
  );
  pending.forEach((item, index) => {
    item.citation.evidence = evidence[index] ?? { quotes: [], omitted: 0 };
  });
  return {
    directFindings: findings.slice(0, direct),
    findings: findings.slice(direct),
    recommendations,
    gaps: admitted.gaps.map((gap) => ({
      text: readerLine(gap.text, 2_000),
      relatedSources: gap.relatedSourceIds.map(numberOf),
    })),
  };
}
