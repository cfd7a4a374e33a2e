/**
 * Item-local structural admission (seed 004 "Structural Admission"). Pure; never throws.
 *
 * Each proposal is checked on its own: closed, correctly typed identities; existing
 * source and chunk ids; well-formed premise edges; an acyclic graph; bounded, non-control
 * reader text without authored URLs (any scheme, or a host name with a real public suffix);
 * numbers in a fact present in its cited passages, and in a derivation or recommendation
 * present in its premises' passages or derived from them by one of a closed set of operations.
 * An invalid item is dropped with a diagnostic and its independent siblings survive; an
 * item whose premise is dropped is dropped too. Admission establishes structure only:
 * nothing here says an item is true, supported or complete.
 */
import { parse as parseDomain } from "tldts";
import { derivedBy, numbersIn } from "../statements.js";
import { collapseWhitespace as squeezed } from "../text.js";
import type {
  DerivationProposal,
  FactProposal,
  GapProposal,
  RecommendationProposal,
  SynthesisOutput,
} from "./proposals.js";

/** The closed catalog the proposals may refer to: source id -> its chunks' ids and text. */
export type AdmissionCatalog = ReadonlyMap<string, ReadonlyMap<string, string>>;

/** The catalog of `sources` (each with its chunks' ids and text). Pure. */
export function admissionCatalog(
  sources: readonly { id: string; chunks: readonly { id: string; text: string }[] }[],
): AdmissionCatalog {
  return new Map(sources.map((source) => [source.id, new Map(source.chunks.map((chunk) => [chunk.id, chunk.text]))]));
}

export interface AdmissionDiagnostic {
  itemId: string;
  kind: "fact" | "derivation" | "recommendation" | "gap";
  reason: string;
}

export interface Admitted {
  facts: FactProposal[];
  derivations: DerivationProposal[];
  recommendations: RecommendationProposal[];
  gaps: GapProposal[];
  diagnostics: AdmissionDiagnostic[];
}

export const MAX_ITEM_CHARS = 600;
const LOCAL_ID = /^[A-Za-z][A-Za-z0-9_-]{0,39}$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point.
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/;
const SCHEME = /\b(?:https?|ftp|file|javascript|data|mailto):/i;
const HOST_LIKE = /(?<![\p{L}\p{N}@.-])(?:[\p{L}\p{N}-]+\.)+[\p{L}\p{N}-]*\p{L}[\p{L}\p{N}-]*(?![\p{L}\p{N}-])/gu;

/** A host name written in `text` whose ending is a real public suffix (tldts): `evil.ru`, `www.example.co.uk`; not `3.5` or `e.g`. */
function domainIn(text: string): string | undefined {
  for (const match of text.matchAll(HOST_LIKE)) {
    const parsed = parseDomain(match[0], { allowPrivateDomains: false });
    if (parsed.domain && parsed.isIcann && parsed.domainWithoutSuffix) return match[0];
  }
  return undefined;
}

/** Why `text` is not acceptable reader text, or undefined. */
export function readerTextProblem(text: string, maxChars = MAX_ITEM_CHARS): string | undefined {
  const trimmed = text.trim();
  if (trimmed.length === 0) return "empty text";
  if (trimmed.length > maxChars) return `text longer than ${maxChars} characters`;
  if (CONTROL.test(text)) return "text contains control characters";
  if (SCHEME.test(text)) return "text contains an authored URL";
  const domain = domainIn(text);
  if (domain) return `text contains an authored URL (${domain})`;
  if (/[<>]/.test(text) && /<\/?[a-z][^>]*>/i.test(text)) return "text contains markup";
  return undefined;
}

/** The text of the passages a fact cites, joined. */
function citedText(fact: FactProposal, catalog: AdmissionCatalog): string {
  const chunks = catalog.get(fact.sourceId);
  return fact.chunkIds.map((chunkId) => chunks?.get(chunkId) ?? "").join(" ");
}

/**
 * Why the numbers of an item resting on premises are not carried by them, or undefined: each
 * number written must be one of the premises' figures (as written: "1,985" is not "1985"),
 * or follow from two of them by a difference, ratio, percentage change or sum within the
 * rounding it shows (`derivedBy`).
 */
function numbersProblem(texts: readonly string[], premiseNumbers: readonly string[]): string | undefined {
  const carried = new Set(premiseNumbers);
  for (const number of texts.flatMap(numbersIn)) {
    if (carried.has(number) || derivedBy(number, premiseNumbers)) continue;
    return `states the number ${number}, which its premises' passages neither contain nor give by a difference, ratio, percentage change or sum`;
  }
  return undefined;
}

/** Why `chunkIds` of `sourceId` are not a valid citation of the catalog, or undefined. */
function citationProblem(sourceId: string, chunkIds: readonly string[], catalog: AdmissionCatalog): string | undefined {
  const chunks = catalog.get(sourceId);
  if (!chunks) return `cites source ${sourceId}, which is not in the catalog`;
  if (new Set(chunkIds).size !== chunkIds.length) return "cites the same chunk twice";
  for (const chunkId of chunkIds) {
    if (!chunks.has(chunkId)) return `cites chunk ${chunkId}, which is not a chunk of ${sourceId}`;
  }
  return undefined;
}

/**
 * Why a fact's contradictions are not well-formed, or undefined: each cites passages of
 * another source in the catalog and quotes, verbatim, a sentence those passages write.
 * Whether the quote really contradicts the fact is not checked (structure only).
 */
function contradictionsProblem(fact: FactProposal, catalog: AdmissionCatalog): string | undefined {
  for (const against of fact.contradictedBy ?? []) {
    if (against.sourceId === fact.sourceId) return "is contradicted by its own source";
    const problem = citationProblem(against.sourceId, against.chunkIds, catalog) ?? readerTextProblem(against.quote);
    if (problem) return `contradiction: ${problem}`;
    const passages = squeezed(
      against.chunkIds.map((chunkId) => catalog.get(against.sourceId)?.get(chunkId) ?? "").join(" "),
    );
    if (!passages.includes(squeezed(against.quote)))
      return `contradiction: the quote is not written in the passages of ${against.sourceId} it cites`;
  }
  return undefined;
}

function factProblem(fact: FactProposal, catalog: AdmissionCatalog): string | undefined {
  const cited = citationProblem(fact.sourceId, fact.chunkIds, catalog);
  if (cited) return cited;
  const citedNumbers = new Set(numbersIn(citedText(fact, catalog)));
  for (const number of numbersIn(fact.text)) {
    if (!citedNumbers.has(number)) return `states the number ${number}, which its cited passages do not contain`;
  }
  return contradictionsProblem(fact, catalog);
}

/** Admits the proposals of one synthesis generation against `catalog`. Pure. */
export function admitSynthesis(output: SynthesisOutput, catalog: AdmissionCatalog): Admitted {
  const diagnostics: AdmissionDiagnostic[] = [];
  const drop = (itemId: string, kind: AdmissionDiagnostic["kind"], reason: string): void => {
    diagnostics.push({ itemId, kind, reason });
  };

  // Identities: well-formed and unique across all arrays. A reused id makes every item using it ambiguous.
  const counts = new Map<string, number>();
  const all = [...output.facts, ...output.derivations, ...output.recommendations, ...output.gaps];
  for (const item of all) counts.set(item.id, (counts.get(item.id) ?? 0) + 1);
  const identityProblem = (id: string): string | undefined => {
    if (!LOCAL_ID.test(id)) return `local id "${id.slice(0, 40)}" is not of the form letter + letters/digits`;
    if ((counts.get(id) ?? 0) > 1) return `local id ${id} is used by more than one item`;
    return undefined;
  };

  const facts: FactProposal[] = [];
  for (const fact of output.facts) {
    const problem = identityProblem(fact.id) ?? readerTextProblem(fact.text) ?? factProblem(fact, catalog);
    if (problem) drop(fact.id, "fact", problem);
    else facts.push(fact);
  }

  // Derivations may rest on facts and on other derivations: admit to a fixpoint, then refuse cycles.
  const admittedIds = new Set(facts.map((fact) => fact.id));
  const pending = new Map<string, DerivationProposal>();
  for (const derivation of output.derivations) {
    const problem =
      identityProblem(derivation.id) ??
      readerTextProblem(derivation.text) ??
      readerTextProblem(derivation.method, 300) ??
      (derivation.premiseIds.includes(derivation.id) ? "lists itself as a premise" : undefined) ??
      (new Set(derivation.premiseIds).size !== derivation.premiseIds.length ? "lists a premise twice" : undefined);
    if (problem) drop(derivation.id, "derivation", problem);
    else pending.set(derivation.id, derivation);
  }
  // The figures each admitted item may rest on: a fact's cited passages; a derivation's premises' (and those it derived).
  const evidenceNumbers = new Map<string, readonly string[]>(
    facts.map((fact) => [fact.id, numbersIn(citedText(fact, catalog))]),
  );
  const derivations: DerivationProposal[] = [];
  let progressed = true;
  while (progressed) {
    progressed = false;
    for (const [id, derivation] of pending) {
      if (derivation.premiseIds.every((premise) => admittedIds.has(premise))) {
        pending.delete(id);
        progressed = true;
        const premises = derivation.premiseIds.flatMap((premise) => evidenceNumbers.get(premise) ?? []);
        const problem = numbersProblem([derivation.text, derivation.method], premises);
        if (problem) {
          drop(id, "derivation", problem);
          continue;
        }
        admittedIds.add(id);
        evidenceNumbers.set(id, [...premises, ...numbersIn(derivation.text)]);
        derivations.push(derivation);
      }
    }
  }
  const knownIds = new Set(all.map((item) => item.id));
  // Whatever is still pending rests on a dropped or missing item, or on a cycle. Name the
  // dropped premise when there is one (propagated through pending chains); else it is a cycle.
  const blockedBy = new Map<string, string>();
  let spreading = true;
  while (spreading) {
    spreading = false;
    for (const [id, derivation] of pending) {
      if (blockedBy.has(id)) continue;
      const bad = derivation.premiseIds.find(
        (premise) => !admittedIds.has(premise) && (!pending.has(premise) || blockedBy.has(premise)),
      );
      if (bad !== undefined) {
        blockedBy.set(id, bad);
        spreading = true;
      }
    }
  }
  for (const id of pending.keys()) {
    const bad = blockedBy.get(id);
    const reason =
      bad === undefined
        ? "its premises form a cycle"
        : knownIds.has(bad)
          ? `premise ${bad} was not admitted`
          : `premise ${bad} does not exist`;
    drop(id, "derivation", reason);
  }
  // Keep the model's order.
  const order = new Map(output.derivations.map((derivation, index) => [derivation.id, index]));
  derivations.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));

  const recommendations: RecommendationProposal[] = [];
  for (const recommendation of output.recommendations) {
    const problem =
      identityProblem(recommendation.id) ??
      readerTextProblem(recommendation.text) ??
      recommendation.conditions.map((condition) => readerTextProblem(condition, 300)).find(Boolean) ??
      recommendation.premiseIds
        .filter((premise) => !admittedIds.has(premise))
        .map((premise) =>
          knownIds.has(premise) ? `premise ${premise} was not admitted` : `premise ${premise} does not exist`,
        )
        .at(0) ??
      numbersProblem(
        [recommendation.text, ...recommendation.conditions],
        recommendation.premiseIds.flatMap((premise) => evidenceNumbers.get(premise) ?? []),
      );
    if (problem) drop(recommendation.id, "recommendation", problem);
    else recommendations.push(recommendation);
  }

  const gaps: GapProposal[] = [];
  for (const gap of output.gaps) {
    const unknown = gap.relatedSourceIds.find((sourceId) => !catalog.has(sourceId));
    const problem =
      identityProblem(gap.id) ??
      readerTextProblem(gap.text) ??
      (unknown === undefined ? undefined : `relates to source ${unknown}, which is not in the catalog`);
    if (problem) drop(gap.id, "gap", problem);
    else gaps.push(gap);
  }

  return { facts, derivations, recommendations, gaps, diagnostics };
}
