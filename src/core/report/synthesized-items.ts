/**
 * Turns admitted proposals into the reader-facing items of a ReportDocument (pure):
 * numbered findings with their citation closure, recommendations with their conditions and
 * premises, gaps with related sources. Local proposal ids never reach the document.
 */
import type { Admitted } from "../synthesis/admission.js";
import { readerLine } from "../text.js";
import type { Citation, Finding, Gap, Recommendation } from "./report-document.js";

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

/**
 * Sources cited by the admitted items, in order of first citation. Derivations and
 * recommendations cite only through their premises, which end in facts.
 */
export function citedSourceIds(admitted: Admitted): string[] {
  return [...new Set(admitted.facts.map((fact) => fact.sourceId))];
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
): SynthesizedItems {
  const seqOf = new Map(sources.flatMap((source) => source.chunks.map((chunk) => [chunk.id, chunk.seq] as const)));
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
    }
    unresolved = unresolved.filter((derivation) => !ready.includes(derivation));
  }

  const ordered = [...admitted.facts, ...admitted.derivations];
  const numberOfItem = new Map(ordered.map((item, index) => [item.id, index + 1]));
  const finish = (drafts: readonly Draft[]): Citation[] =>
    drafts.map((draft) => ({ ...draft, number: numberOf(draft.sourceId) }));
  const premiseNumbers = (ids: readonly string[]): number[] =>
    ids.map((id) => numberOfItem.get(id)).filter((number): number is number => number !== undefined);

  const findings: Finding[] = [
    ...admitted.facts.map(
      (fact, index): Finding => ({
        number: index + 1,
        kind: "fact",
        text: readerLine(fact.text, 2_000),
        basedOn: [],
        citations: finish(closure.get(fact.id) ?? []),
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
    })),
    gaps: admitted.gaps.map((gap) => ({
      text: readerLine(gap.text, 2_000),
      relatedSources: gap.relatedSourceIds.map(numberOf),
    })),
  };
}
