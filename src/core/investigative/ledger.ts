/**
 * The claim ledger of the investigative strategy (seed 000 "Claims and cross-checking"):
 * sources, claims and datapoints, their supports/contradicts links and the contradictions
 * between claims. Pure: every change takes the current immutable `Ledger` and returns the
 * next one with the rows it changed (a `Mutation`), or a `Rejection` the model can act on.
 * `VERIFIED` is reachable only through `updateClaim`, which checks the source count, the
 * independence of the sources and the survived challenges in code.
 */
import { chunkId } from "../ids.js";
import { err, ok, type Result } from "../result.js";
import { normalizeWording } from "../text.js";
import {
  type Challenge,
  type Claim,
  type ClaimSource,
  type ClaimStatus,
  type Contradiction,
  type DecisionContext,
  EMPTY_MUTATION,
  type InvestigationConfig,
  type Ledger,
  type LedgerSource,
  type Mutation,
  type Rejection,
} from "./types.js";

export type Stance = ClaimSource["stance"];

/** A change to the ledger: the next ledger and the rows to persist. */
export interface LedgerChange {
  ledger: Ledger;
  mutation: Mutation;
}

export const EMPTY_LEDGER: Ledger = Object.freeze({ sources: [], claims: [], claimSources: [], contradictions: [] });

const reject = (rule: string, message: string): Result<never, Rejection> => err({ rule, message });

/** The next id of a per-run counter: max existing number with `prefix` + 1, three digits (`c_007`). */
export function nextSequentialId(prefix: string, ids: Iterable<string>): string {
  const pattern = new RegExp(`^${prefix}_(\\d+)$`);
  let max = 0;
  for (const id of ids) {
    const match = pattern.exec(id);
    if (match) max = Math.max(max, Number(match[1]));
  }
  return `${prefix}_${String(max + 1).padStart(3, "0")}`;
}

/**
 * What makes two sources independent: the registrable domain of a web source, or for a
 * corpus document (domain '') the document itself.
 */
export function independenceKey(source: Pick<LedgerSource, "domain" | "location">): string {
  return source.domain || `corpus:${source.location}`;
}

/**
 * True when `id` is the Host id of a passage of `sourceId` (`s_001.p03` of `s_001`), by the
 * form of Host chunk ids. Whether that passage exists is the Host's catalog to say (the tools
 * check it, and the store refuses a link to a chunk it does not hold). Pure.
 */
export function isPassageOf(id: string, sourceId: string): boolean {
  const prefix = `${sourceId}.p`;
  if (!id.startsWith(prefix)) return false;
  const seq = id.slice(prefix.length);
  return /^\d+$/.test(seq) && Number(seq) >= 1 && chunkId(sourceId, Number(seq)) === id;
}

/** The passage ids of `sourceId` that are not of its form, as a rejection, or undefined. */
function passageProblem(sourceId: string, chunkIds: readonly string[]): Rejection | undefined {
  const foreign = chunkIds.filter((id) => !isPassageOf(id, sourceId));
  if (foreign.length === 0) return undefined;
  return {
    rule: "passage",
    message: `${foreign.join(", ")} ${foreign.length === 1 ? "is not a passage" : "are not passages"} of ${sourceId}: cite passage ids of that source as shown (${sourceId}.p01, ${sourceId}.p02, …)`,
  };
}

/**
 * Registers a Host-persisted source, idempotent by id. A known id keeps its location and
 * domain (its identity); a non-empty title or note replaces the stored one.
 */
export function registerSource(ledger: Ledger, source: LedgerSource): Result<LedgerChange, Rejection> {
  if (!source.id.trim() || !source.location.trim()) {
    return reject("source", "a source needs the Host id (s_001) and its location");
  }
  const existing = ledger.sources.find((known) => known.id === source.id);
  if (!existing) {
    const added = { ...source };
    return ok({
      ledger: { ...ledger, sources: [...ledger.sources, added] },
      mutation: { ...EMPTY_MUTATION, sources: [added] },
    });
  }
  if (existing.location !== source.location || existing.domain !== source.domain) {
    return reject(
      "source-identity",
      `${source.id} is already registered for ${existing.location}; a source id never changes its location or domain`,
    );
  }
  const updated: LedgerSource = {
    ...existing,
    title: source.title || existing.title,
    note: source.note || existing.note,
  };
  if (updated.title === existing.title && updated.note === existing.note)
    return ok({ ledger, mutation: EMPTY_MUTATION });
  return ok({
    ledger: { ...ledger, sources: ledger.sources.map((known) => (known.id === updated.id ? updated : known)) },
    mutation: { ...EMPTY_MUTATION, sources: [updated] },
  });
}

export interface ClaimInput {
  kind: "claim" | "datapoint";
  text: string;
  /** Required for a datapoint. */
  value?: string;
  /** Required for a datapoint. */
  unit?: string;
  questionId: string | null;
  /** Sources that support it: at least one, each registered. */
  sourceIds: readonly string[];
  /** What would verify it. */
  check?: string;
  /**
   * The passages that support it, by source id: each key one of `sourceIds`, each value
   * passage ids of that source. A source without an entry is linked without passages.
   */
  chunkIds?: ReadonlyMap<string, readonly string[]>;
}

/**
 * Appends an UNVERIFIED claim (`c_NNN`) or datapoint (`d_NNN`) with its supporting sources,
 * each link carrying the passages given for its source.
 */
export function appendClaim(
  ledger: Ledger,
  input: ClaimInput,
  ctx: DecisionContext,
): Result<LedgerChange & { claim: Claim }, Rejection> {
  const text = input.text.trim();
  if (!text) return reject("claim-text", "a claim needs its text: one self-contained assertion");
  const value = input.value?.trim() ?? "";
  const unit = input.unit?.trim() ?? "";
  if (input.kind === "datapoint" && (!value || !unit)) {
    return reject("datapoint", "a datapoint needs its value and unit (e.g. value '11', unit 'GB')");
  }
  const sourceIds = [...new Set(input.sourceIds)];
  if (sourceIds.length === 0) {
    return reject("claim-sources", "a claim needs at least one source id (s_001) it was read from");
  }
  const unknown = sourceIds.filter((id) => !ledger.sources.some((source) => source.id === id));
  if (unknown.length > 0) {
    return reject("unknown-source", `unknown source id(s): ${unknown.join(", ")}; cite only sources you were shown`);
  }
  for (const [sourceId, chunkIds] of input.chunkIds ?? []) {
    if (!sourceIds.includes(sourceId)) {
      return reject(
        "passage",
        `passages of ${sourceId} were given, but ${sourceId} is not one of the claim's sources (${sourceIds.join(", ")})`,
      );
    }
    const problem = passageProblem(sourceId, chunkIds);
    if (problem) return err(problem);
  }
  // Two sub-agents (or one, twice) reading the same sentence record it once.
  const wording = normalizeWording(text);
  const same = ledger.claims.find(
    (known) =>
      known.kind === input.kind &&
      (known.status === "UNVERIFIED" || known.status === "VERIFIED") &&
      normalizeWording(known.text) === wording &&
      known.value === value &&
      known.unit === unit,
  );
  if (same) {
    return reject(
      "duplicate-claim",
      `${same.id} already records this ${input.kind}: cite ${same.id}, or add a further source to it with notes_update(add_source)`,
    );
  }
  const prefix = input.kind === "datapoint" ? "d" : "c";
  const claim: Claim = {
    id: nextSequentialId(
      prefix,
      ledger.claims.map((known) => known.id),
    ),
    questionId: input.questionId,
    kind: input.kind,
    text,
    value,
    unit,
    status: "UNVERIFIED",
    check: input.check?.trim() ?? "",
    independence: "",
    createdAt: ctx.now,
    updatedAt: ctx.now,
  };
  const links: ClaimSource[] = sourceIds.map((sourceId) => ({
    claimId: claim.id,
    sourceId,
    stance: "supports",
    chunkIds: [...new Set(input.chunkIds?.get(sourceId) ?? [])],
  }));
  return ok({
    ledger: { ...ledger, claims: [...ledger.claims, claim], claimSources: [...ledger.claimSources, ...links] },
    mutation: { ...EMPTY_MUTATION, claims: [claim], claimSources: links },
    claim,
  });
}

/** A link to make: the claim, the source, its stance and the passages of that source. */
export interface LinkInput {
  claimId: string;
  sourceId: string;
  stance: Stance;
  /** Passage ids of `sourceId` (`s_001.p03`); none when omitted. */
  chunkIds?: readonly string[];
}

/**
 * Links a source to a claim with a stance and its passages. One stance per (claim, source):
 * linking again with the same stance adds the passages not yet on the link (nothing new
 * changes nothing); with the other stance it is rejected.
 */
export function linkSource(ledger: Ledger, input: LinkInput): Result<LedgerChange & { link: ClaimSource }, Rejection> {
  const { claimId, sourceId, stance } = input;
  if (!ledger.claims.some((claim) => claim.id === claimId)) return unknownClaim(claimId);
  if (!ledger.sources.some((source) => source.id === sourceId)) {
    return reject("unknown-source", `unknown source id: ${sourceId}; cite only sources you were shown`);
  }
  const chunkIds = [...new Set(input.chunkIds ?? [])];
  const problem = passageProblem(sourceId, chunkIds);
  if (problem) return err(problem);
  const existing = ledger.claimSources.find((link) => link.claimId === claimId && link.sourceId === sourceId);
  if (existing && existing.stance !== stance) {
    return reject(
      "stance",
      `${sourceId} is already linked to ${claimId} as '${existing.stance}'; a source has one stance per claim`,
    );
  }
  const added = chunkIds.filter((id) => !existing?.chunkIds.includes(id));
  if (existing && added.length === 0) return ok({ ledger, mutation: EMPTY_MUTATION, link: existing });
  const link: ClaimSource = existing
    ? { ...existing, chunkIds: [...existing.chunkIds, ...added] }
    : { claimId, sourceId, stance, chunkIds };
  const claimSources = existing
    ? ledger.claimSources.map((known) => (known === existing ? link : known))
    : [...ledger.claimSources, link];
  return ok({
    ledger: { ...ledger, claimSources },
    mutation: { ...EMPTY_MUTATION, claimSources: [link] },
    link,
  });
}

/** Closed challenges of a claim with the given outcome. */
function closedOutcomes(challenges: readonly Challenge[], claimId: string, outcome: Challenge["outcome"]): number {
  return challenges.filter(
    (challenge) =>
      challenge.targetType === "claim" &&
      challenge.targetId === claimId &&
      challenge.status === "closed" &&
      challenge.outcome === outcome,
  ).length;
}

/** The origin key of a source: its derived origin (copies share one), else its independence key. */
export function sourceKey(
  ledger: Pick<Ledger, "origins">,
  source: Pick<LedgerSource, "id" | "domain" | "location">,
): string {
  return ledger.origins?.bySource[source.id] ?? independenceKey(source);
}

/**
 * The distinct origins of the sources that support a claim: a statement attributed to an
 * origin counts as that origin's (`origins.byLink`), else its source's (`sourceKey`).
 */
export function supportingKeys(ledger: Ledger, claimId: string): string[] {
  const keys = new Set<string>();
  for (const link of ledger.claimSources) {
    if (link.claimId !== claimId || link.stance !== "supports") continue;
    const source = ledger.sources.find((known) => known.id === link.sourceId);
    if (!source) continue;
    keys.add(ledger.origins?.byLink[`${claimId} ${link.sourceId}`] ?? sourceKey(ledger, source));
  }
  return [...keys];
}

/**
 * What a claim still lacks to become VERIFIED (empty when nothing): supporting sources
 * with distinct independence keys (sources of a common origin count once), no contradicting
 * source, survived challenges on the claim, and the statement of independence.
 */
export function verificationGaps(
  ledger: Ledger,
  challenges: readonly Challenge[],
  claimId: string,
  config: Pick<InvestigationConfig, "minIndependentSources" | "minChallenges">,
): string[] {
  const claim = ledger.claims.find((known) => known.id === claimId);
  if (!claim) return [`${claimId} is not a recorded claim`];
  const gaps: string[] = [];
  const supports = ledger.claimSources.filter((link) => link.claimId === claimId && link.stance === "supports");
  const keys = supportingKeys(ledger, claimId);
  if (keys.length < config.minIndependentSources) {
    const origin =
      supports.length > keys.length ? ` (its ${supports.length} sources share origins: ${keys.join(", ")})` : "";
    gaps.push(
      `${config.minIndependentSources} supporting sources of distinct origins; it has ${keys.length}${origin}: link a source from an independent origin`,
    );
  }
  // Nothing read may contradict it: a contradicting source blocks VERIFIED, whatever supports it.
  const against = ledger.claimSources.filter((link) => link.claimId === claimId && link.stance === "contradicts");
  if (against.length > 0) {
    gaps.push(
      `no source that contradicts it; ${against.map((link) => link.sourceId).join(", ")} ${against.length === 1 ? "does" : "do"}: a contradicted claim cannot be VERIFIED`,
    );
  }
  const survived = closedOutcomes(challenges, claimId, "survived");
  if (survived < config.minChallenges) {
    gaps.push(
      `${config.minChallenges} closed challenge(s) with outcome survived on ${claimId}; it has ${survived}: challenge it`,
    );
  }
  if (!claim.independence.trim()) {
    gaps.push("a statement of why its supporting sources are independent (independence)");
  }
  return gaps;
}

export interface ClaimChange {
  id: string;
  status?: ClaimStatus;
  /** Linked before the status is checked, so it can count toward VERIFIED or REFUTED. */
  addSource?: { sourceId: string; stance: Stance; chunkIds?: readonly string[] };
  /** Why the supporting sources are independent; must not be empty when given. */
  independence?: string;
  /** Required to RETRACT: why the claim is withdrawn (the caller records it in the notes). */
  retractReason?: string;
  /** A qualification (scope) appended to the text; a VERIFIED claim it amends returns to UNVERIFIED. */
  amendText?: string;
}

const FINAL_STATUSES: readonly ClaimStatus[] = ["REFUTED", "RETRACTED"];

/**
 * Applies one change to a claim, all or nothing. `refuted` is true when the claim became
 * REFUTED now, so the caller reopens the questions citing it (`questionsCiting`).
 */
export function updateClaim(
  ledger: Ledger,
  challenges: readonly Challenge[],
  change: ClaimChange,
  config: Pick<InvestigationConfig, "minIndependentSources" | "minChallenges">,
  ctx: DecisionContext,
): Result<LedgerChange & { claim: Claim; refuted: boolean }, Rejection> {
  const current = ledger.claims.find((claim) => claim.id === change.id);
  if (!current) return unknownClaim(change.id);
  let next = ledger;
  let links: readonly ClaimSource[] = [];
  if (change.addSource) {
    const linked = linkSource(ledger, { claimId: change.id, ...change.addSource });
    if (!linked.ok) return linked;
    next = linked.value.ledger;
    links = linked.value.mutation.claimSources;
  }
  if (change.independence !== undefined && !change.independence.trim()) {
    return reject(
      "independence",
      "the independence statement is empty: say why the supporting sources are independent",
    );
  }
  const amend = change.amendText?.trim() ?? "";
  if (change.amendText !== undefined && !amend) {
    return reject("amend", "the amendment is empty: give the scope or qualification to add to the claim text");
  }
  if (amend && FINAL_STATUSES.includes(current.status)) {
    return reject("claim-final", `${current.id} is ${current.status}; record a new claim instead of amending it`);
  }
  const status = change.status ?? (amend && current.status === "VERIFIED" ? "UNVERIFIED" : current.status);
  const candidate: Claim = {
    ...current,
    text: amend ? `${current.text} (scope: ${amend})` : current.text,
    independence: change.independence?.trim() ?? current.independence,
    status,
    updatedAt: ctx.now,
  };
  next = { ...next, claims: next.claims.map((claim) => (claim.id === candidate.id ? candidate : claim)) };
  const refusal = checkStatus(next, challenges, current, change, config);
  if (refusal) return err(refusal);
  const unchanged =
    candidate.text === current.text && candidate.independence === current.independence && status === current.status;
  if (unchanged && links.length === 0) return ok({ ledger, mutation: EMPTY_MUTATION, claim: current, refuted: false });
  return ok({
    ledger: unchanged ? { ...next, claims: ledger.claims } : next,
    mutation: { ...EMPTY_MUTATION, claims: unchanged ? [] : [candidate], claimSources: links },
    claim: unchanged ? current : candidate,
    refuted: status === "REFUTED" && current.status !== "REFUTED",
  });
}

/** The rule a status change breaks, checked on the ledger after the rest of the change. */
function checkStatus(
  next: Ledger,
  challenges: readonly Challenge[],
  current: Claim,
  change: ClaimChange,
  config: Pick<InvestigationConfig, "minIndependentSources" | "minChallenges">,
): Rejection | undefined {
  const status = change.status;
  if (status === undefined) return undefined;
  if (FINAL_STATUSES.includes(current.status) && (status === "VERIFIED" || status === "UNVERIFIED")) {
    return {
      rule: "claim-final",
      message: `${current.id} is ${current.status} and cannot become ${status} again; record a new claim if new evidence supports it`,
    };
  }
  if (status === "VERIFIED") {
    const gaps = verificationGaps(next, challenges, current.id, config);
    if (gaps.length > 0) {
      return { rule: "verification", message: `${current.id} cannot be VERIFIED yet; it needs ${gaps.join("; ")}` };
    }
  }
  if (status === "REFUTED" && current.status !== "REFUTED") {
    const contradicted = next.claimSources.some((link) => link.claimId === current.id && link.stance === "contradicts");
    if (!contradicted && closedOutcomes(challenges, current.id, "refuted") === 0) {
      return {
        rule: "refutation",
        message: `${current.id} cannot be REFUTED without evidence: link a contradicting source (addSource with stance 'contradicts') or record a refuted challenge on it`,
      };
    }
  }
  if (status === "RETRACTED" && current.status !== "RETRACTED" && !change.retractReason?.trim()) {
    return {
      rule: "retraction",
      message: `say why ${current.id} is withdrawn (retractReason: source unreliable or misread)`,
    };
  }
  return undefined;
}

/** Records two claims in conflict (either order is the same pair); a later call may set the spawned question. */
export function addContradiction(
  ledger: Ledger,
  claimId: string,
  otherClaimId: string,
  questionId: string,
): Result<LedgerChange & { contradiction: Contradiction }, Rejection> {
  for (const id of [claimId, otherClaimId]) {
    if (!ledger.claims.some((claim) => claim.id === id)) return unknownClaim(id);
  }
  if (claimId === otherClaimId) return reject("contradiction", "a claim cannot contradict itself; name two claims");
  const existing = ledger.contradictions.find((row) => samePair(row, claimId, otherClaimId));
  if (existing) {
    if (!questionId || existing.questionId === questionId) {
      return ok({ ledger, mutation: EMPTY_MUTATION, contradiction: existing });
    }
    return replaceContradiction(ledger, existing, { ...existing, questionId });
  }
  const contradiction: Contradiction = { claimId, otherClaimId, questionId, addressed: false };
  return ok({
    ledger: { ...ledger, contradictions: [...ledger.contradictions, contradiction] },
    mutation: { ...EMPTY_MUTATION, contradictions: [contradiction] },
    contradiction,
  });
}

/** Marks a contradiction settled: it leaves the Contradictions section. */
export function addressContradiction(
  ledger: Ledger,
  claimId: string,
  otherClaimId: string,
): Result<LedgerChange & { contradiction: Contradiction }, Rejection> {
  const existing = ledger.contradictions.find((row) => samePair(row, claimId, otherClaimId));
  if (!existing) {
    return reject("contradiction", `no contradiction between ${claimId} and ${otherClaimId} is recorded`);
  }
  if (existing.addressed) return ok({ ledger, mutation: EMPTY_MUTATION, contradiction: existing });
  return replaceContradiction(ledger, existing, { ...existing, addressed: true });
}

function replaceContradiction(
  ledger: Ledger,
  existing: Contradiction,
  updated: Contradiction,
): Result<LedgerChange & { contradiction: Contradiction }, never> {
  return ok({
    ledger: { ...ledger, contradictions: ledger.contradictions.map((row) => (row === existing ? updated : row)) },
    mutation: { ...EMPTY_MUTATION, contradictions: [updated] },
    contradiction: updated,
  });
}

const samePair = (row: Contradiction, a: string, b: string): boolean =>
  (row.claimId === a && row.otherClaimId === b) || (row.claimId === b && row.otherClaimId === a);

export interface CitingQuestion {
  id: string;
  status: string;
  claimIds: readonly string[];
  answer?: string;
}

/**
 * The resolved questions whose answers cite a claim (in `claimIds`, or by id in the answer
 * text): after a refutation of that claim the caller reopens them.
 */
export function questionsCiting<Q extends CitingQuestion>(claimId: string, questions: readonly Q[]): Q[] {
  const mention = new RegExp(`(^|[^\\w])${claimId.replace(/[^\w]/g, "")}(?![\\w])`);
  return questions.filter(
    (question) =>
      question.status === "resolved" &&
      (question.claimIds.includes(claimId) || (question.answer !== undefined && mention.test(question.answer))),
  );
}

function unknownClaim(claimId: string): Result<never, Rejection> {
  return reject("unknown-claim", `unknown claim id: ${claimId}; refer only to claim ids shown in the notes`);
}

/**
 * Whether a contradiction is settled: marked addressed; or, when a question was spawned to
 * resolve it, that question reached a terminal status (resolved, unresolvable, pruned);
 * or, without a question, one of its claims was refuted or retracted. Unsettled ones stay
 * in notes' Contradictions and block the exploration gate.
 */
export function contradictionSettled(
  contradiction: Contradiction,
  claims: readonly Pick<Claim, "id" | "status">[],
  questions: readonly { id: string; status: string }[],
): boolean {
  if (contradiction.addressed) return true;
  if (contradiction.questionId !== "") {
    const question = questions.find((row) => row.id === contradiction.questionId);
    return question !== undefined && ["resolved", "unresolvable", "pruned"].includes(question.status);
  }
  const dead = (id: string) =>
    claims.some((claim) => claim.id === id && (claim.status === "REFUTED" || claim.status === "RETRACTED"));
  return dead(contradiction.claimId) || dead(contradiction.otherClaimId);
}
