/**
 * Turns admitted proposals into the reader-facing items of a ReportDocument (pure):
 * numbered findings with their citation closure, recommendations with their conditions and
 * premises, gaps with related sources. Local proposal ids never reach the document.
 */
import type { Admitted } from "../synthesis/admission.js";
import type { FactProposal } from "../synthesis/proposals.js";
import { readerLine } from "../text.js";
import type { Citation, Finding, Gap, Recommendation, Verification, VerificationStatus } from "./report-document.js";

/** At most this many findings go to the direct-findings area. */
export const DIRECT_FINDINGS = 3;

export interface ItemSource {
  id: string;
  chunks: readonly { id: string; seq: number }[];
}

export interface SynthesizedItems {
  directFindings: Finding[];
  findings: Finding[];
  recommendations: Recommendation[];
  gaps: Gap[];
}

type Draft = Omit<Citation, "number">;

/** Passages of one source, by chunk id. */
export interface CitedPassages {
  sourceId: string;
  chunkIds: readonly string[];
  /** The sentence of those passages the verification rests on, verbatim. */
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

/** Builds the items. `numberOf` gives the ledger number of a source. Pure. */
export function synthesizedItems(
  admitted: Admitted,
  sources: readonly ItemSource[],
  numberOf: (sourceId: string) => number,
  verification: VerificationMap = new Map(),
): SynthesizedItems {
  const seqOf = new Map(sources.flatMap((source) => source.chunks.map((chunk) => [chunk.id, chunk.seq] as const)));
  const drafts = new Map<string, VerificationDraft>(
    admitted.facts.map((fact) => [fact.id, verificationOfFact(fact, verification)]),
  );
  const draftOf = (cited: CitedPassages): Draft => ({
    sourceId: cited.sourceId,
    chunkIds: [...cited.chunkIds],
    passages: cited.chunkIds.map((id) => seqOf.get(id) ?? 1),
  });
  const closure = new Map<string, Draft[]>();
  for (const fact of admitted.facts) {
    closure.set(fact.id, [
      {
        sourceId: fact.sourceId,
        chunkIds: [...fact.chunkIds],
        passages: fact.chunkIds.map((id) => seqOf.get(id) ?? 1),
      },
    ]);
  }
  // Admission guarantees every premise is admitted and the graph is acyclic: resolve to a fixpoint.
  let unresolved = [...admitted.derivations];
  while (unresolved.length > 0) {
    const ready = unresolved.filter((derivation) => derivation.premiseIds.every((id) => closure.has(id)));
    if (ready.length === 0) break;
    for (const derivation of ready) {
      closure.set(derivation.id, merge(derivation.premiseIds.flatMap((id) => closure.get(id) ?? [])));
      drafts.set(derivation.id, derived(derivation.premiseIds.map((id) => drafts.get(id) ?? NOT_CHECKED)));
    }
    unresolved = unresolved.filter((derivation) => !ready.includes(derivation));
  }

  const ordered = [...admitted.facts, ...admitted.derivations];
  const numberOfItem = new Map(ordered.map((item, index) => [item.id, index + 1]));
  const finish = (drafts: readonly Draft[]): Citation[] =>
    drafts.map((draft) => ({ ...draft, number: numberOf(draft.sourceId) }));
  const premiseNumbers = (ids: readonly string[]): number[] =>
    ids.map((id) => numberOfItem.get(id)).filter((number): number is number => number !== undefined);
  // One citation per source, the first quote given for it kept.
  const quoted = (cited: readonly CitedPassages[]): Citation[] =>
    finish(merge(cited.map(draftOf))).map((citation) => {
      const quote = cited.find((item) => item.sourceId === citation.sourceId && item.quote)?.quote;
      return quote ? { ...citation, quote: readerLine(quote, 600) } : citation;
    });
  const verificationOf = (draft: VerificationDraft): Verification => ({
    status: draft.status,
    supports: quoted(draft.supports),
    contradicts: quoted(draft.contradicts),
    ...(draft.challenge ? { challenge: readerLine(draft.challenge, 600) } : {}),
  });

  const findings: Finding[] = [
    ...admitted.facts.map(
      (fact, index): Finding => ({
        number: index + 1,
        kind: "fact",
        text: readerLine(fact.text, 2_000),
        basedOn: [],
        citations: finish(closure.get(fact.id) ?? []),
        verification: verificationOf(drafts.get(fact.id) ?? NOT_CHECKED),
      }),
    ),
    ...admitted.derivations.map(
      (derivation, index): Finding => ({
        number: admitted.facts.length + index + 1,
        kind: "derivation",
        text: readerLine(derivation.text, 2_000),
        basedOn: premiseNumbers(derivation.premiseIds),
        method: readerLine(derivation.method, 300),
        citations: finish(closure.get(derivation.id) ?? []),
        verification: verificationOf(drafts.get(derivation.id) ?? NOT_CHECKED),
      }),
    ),
  ];
  return {
    directFindings: findings.slice(0, DIRECT_FINDINGS),
    findings: findings.slice(DIRECT_FINDINGS),
    recommendations: admitted.recommendations.map((recommendation) => ({
      text: readerLine(recommendation.text, 2_000),
      conditions: recommendation.conditions.map((condition) => readerLine(condition, 300)),
      basedOn: premiseNumbers(recommendation.premiseIds),
      citations: finish(merge(recommendation.premiseIds.flatMap((id) => closure.get(id) ?? []))),
      verification: verificationOf(derived(recommendation.premiseIds.map((id) => drafts.get(id) ?? NOT_CHECKED))),
    })),
    gaps: admitted.gaps.map((gap) => ({
      text: readerLine(gap.text, 2_000),
      relatedSources: gap.relatedSourceIds.map(numberOf),
    })),
  };
}
