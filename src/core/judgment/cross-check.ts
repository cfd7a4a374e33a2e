/**
 * Every published finding checked against everything the run read (pure, given a judge):
 * the passages of other sources that contradict it, one per source, so that it is published
 * contested with both sides quoted, whichever strategy or model proposed it. Run over all the
 * findings, it marks both sides of a disagreement when both are findings.
 */
import { stemSet } from "../lexicon.js";
import type { CitedPassages, VerificationMap } from "../report/synthesized-items.js";
import type { FactProposal } from "../synthesis/proposals.js";
import type { Judge } from "./judge.js";
import { CORRECTION, DENIAL } from "./markers.js";
import { comparable, type Quantity, quantitiesIn } from "./quantities.js";

/** At most this many contradicting sources are cited against one finding. */
export const MAX_CONTRADICTIONS = 2;

/** A finding to check: its text and the source it rests on (never its own contradiction). */
export interface CheckedText {
  id: string;
  text: string;
  sourceId: string;
}

/** A source read, with its passages and where each stands. */
export interface ReadSource {
  id: string;
  title: string;
  chunks: readonly { id: string; text: string; section?: string }[];
}

/**
 * Content stems shared (with the passage, its heading and its source's title) from which a
 * passage is worth judging against a finding: two. No more: a contradiction in other words
 * ("opened to traffic in 1932", "the crossing was inaugurated in 1929") shares little else.
 */
const SHARED_STEMS = 2;

/** A negation or a denial: what a passage needs to deny a claim outright. */
const NEGATION = /\b(?:not|never|no|none|neither|nor|without|cannot)\b|n['’]t\b/iu;

/** A passage that shares this share of a finding's stems may state its opposite ("fell" for "rose"). */
const OPPOSITE_SHARE = 0.5;

/**
 * Whether a passage could contradict a finding at all, by what every contradiction the judge
 * finds needs: a value of the same kind as one of the finding's (another year, another length),
 * a negation, a denial or a correction, or most of the finding's words (its opposite predicate).
 * The judge decides; this only spares it the passages that could not.
 */
function mayContradict(
  claim: { quantities: readonly Quantity[]; stems: ReadonlySet<string> },
  passage: { text: string; quantities: () => readonly Quantity[]; shared: number },
): boolean {
  if (NEGATION.test(passage.text) || DENIAL.test(passage.text) || CORRECTION.test(passage.text)) return true;
  if (passage.shared >= Math.ceil(claim.stems.size * OPPOSITE_SHARE)) return true;
  if (claim.quantities.length === 0) return false;
  const written = passage.quantities();
  return claim.quantities.some((quantity) => written.some((other) => comparable(other, quantity)));
}

/** `read` of a chunk's text, once per chunk id (within one cross-check). */
function byChunk<T>(read: (text: string) => T): (id: string, text: string) => T {
  const known = new Map<string, T>();
  return (id, text) => {
    const found = known.get(id);
    if (found !== undefined) return found;
    const made = read(text);
    known.set(id, made);
    return made;
  };
}

/**
 * The passages of `read` that contradict each text, by the text's id: at most
 * `MAX_CONTRADICTIONS` sources, the first contradicting passage of each, with the sentence
 * that decides quoted as the passage writes it (whitespace collapsed). A source never
 * contradicts a text it supports itself; texts with none are absent from the map.
 */
export function contradictionsOf(
  texts: readonly CheckedText[],
  read: readonly ReadSource[],
  judge: Judge,
  exclude: (text: CheckedText, sourceId: string) => boolean = (text, sourceId) => text.sourceId === sourceId,
): Map<string, CitedPassages[]> {
  const stemsOf = byChunk(stemSet);
  const quantitiesOf = byChunk(quantitiesIn);
  const found = new Map<string, CitedPassages[]>();
  for (const text of texts) {
    const own = stemSet(text.text);
    const claim = { quantities: quantitiesIn(text.text), stems: own };
    const needed = Math.min(SHARED_STEMS, own.size);
    const against: CitedPassages[] = [];
    for (const source of read) {
      if (against.length >= MAX_CONTRADICTIONS) break;
      if (exclude(text, source.id)) continue;
      for (const [index, chunk] of source.chunks.entries()) {
        let shared = 0;
        const context = `${source.title}\n${chunk.section ?? ""}\n${chunk.text}`;
        for (const stem of stemsOf(chunk.id, context)) if (own.has(stem)) shared++;
        if (shared < needed) continue;
        const passage = { text: chunk.text, quantities: () => quantitiesOf(chunk.id, chunk.text), shared };
        if (!mayContradict(claim, passage)) continue;
        const previous = index > 0 ? source.chunks[index - 1]?.text : undefined;
        const judgement = judge.judge(text.text, {
          text: chunk.text,
          title: source.title,
          ...(chunk.section ? { heading: chunk.section } : {}),
          ...(previous ? { before: previous.slice(-400) } : {}),
        });
        if (judgement.verdict !== "contradicts") continue;
        const quote = judgement.passage.map((span) => span.text).join(" ");
        against.push({ sourceId: source.id, chunkIds: [chunk.id], ...(quote ? { quote } : {}) });
        break;
      }
    }
    if (against.length > 0) found.set(text.id, against);
  }
  return found;
}

/**
 * The verification of every admitted fact once checked against everything read: a fact some
 * other source contradicts is contested (its own supports kept, the contradicting passages
 * added, one per source), whatever the strategy said of it; a verified fact is never
 * published as verified when something read contradicts it. Facts nothing contradicts keep
 * what the strategy said. Pure.
 */
export function checkedVerification(
  facts: readonly FactProposal[],
  given: VerificationMap,
  read: readonly ReadSource[],
  judge: Judge,
): VerificationMap {
  const found = contradictionsOf(
    facts.map((fact) => ({ id: fact.id, text: fact.text, sourceId: fact.sourceId })),
    read,
    judge,
    // A source the strategy counts in support of a fact does not contradict it.
    (text, sourceId) =>
      text.sourceId === sourceId || (given.get(text.id)?.supports ?? []).some((cited) => cited.sourceId === sourceId),
  );
  // A disagreement has two sides: the finding that a passage contradicts contradicts the
  // finding that quotes that passage, whether or not the judge reads it the other way round.
  const squeeze = (text: string) => text.replace(/\s+/g, " ").trim();
  for (const fact of facts) {
    for (const cited of [...(found.get(fact.id) ?? []), ...(given.get(fact.id)?.contradicts ?? [])]) {
      const quote = squeeze(cited.quote ?? "");
      for (const other of facts) {
        if (other === fact || other.sourceId !== cited.sourceId || quote === "") continue;
        const text = squeeze(other.text);
        if (
          !other.chunkIds.some((id) => cited.chunkIds.includes(id)) ||
          !(text.includes(quote) || quote.includes(text))
        )
          continue;
        const mine = found.get(other.id) ?? [];
        if (mine.some((known) => known.sourceId === fact.sourceId)) continue;
        found.set(other.id, [...mine, { sourceId: fact.sourceId, chunkIds: fact.chunkIds, quote: fact.text }]);
      }
    }
  }
  const checked = new Map(given);
  for (const fact of facts) {
    const against = found.get(fact.id);
    const draft = given.get(fact.id);
    const proposed = fact.contradictedBy ?? [];
    if (!against || against.length === 0) continue;
    const known = [...(draft?.contradicts ?? []), ...proposed];
    const added = against.filter((cited) => !known.some((other) => other.sourceId === cited.sourceId));
    const supports =
      draft && draft.supports.length > 0 ? draft.supports : [{ sourceId: fact.sourceId, chunkIds: fact.chunkIds }];
    checked.set(fact.id, { status: "contested", supports, contradicts: [...known, ...added] });
  }
  return checked;
}
