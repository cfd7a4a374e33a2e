/**
 * The exploration gate and the end of the exploration loop (seed 000 "Two loops",
 * "Finalization gate"). Deterministic checks in code: `finish_exploration` passes only when
 * `explorationGate` returns no missing item, and each missing item is one plain message the
 * model can act on (what is missing, with ids and figures). Pure: no I/O, no clock.
 */
import { readerLine } from "../text.js";
import { challengesOn, openChallenges } from "./challenges.js";
import { isDeclaredAtomic } from "./frontier.js";
import { findQuestion, isExpanded, OPEN, p2, ROOT_QUESTION_ID, rankActionable } from "./frontier-queries.js";
import { contradictionSettled, sourceKey } from "./ledger.js";
import type { Challenge, Claim, Frontier, Investigation, LedgerSource, Question } from "./types.js";

/** A gate's verdict: `missing` lists one message per failing check, in a fixed order. */
export interface GateResult {
  passed: boolean;
  missing: string[];
}

export const gateResult = (missing: string[]): GateResult => ({ passed: missing.length === 0, missing });

const TEXT_CHARS = 120;
const ids = (list: readonly string[]): string => list.join(", ");

// ---------------------------------------------------------------------------------------------
// Reading helpers the gate and the loop share

/** Claim statuses the notes still show (Verified, Unverified, Datapoints). */
const LIVE: ReadonlySet<Claim["status"]> = new Set(["VERIFIED", "UNVERIFIED"]);

/**
 * The sources "in notes" (seed 000: "at least `min_sources` distinct sources in notes"): the
 * ledger sources the notes actually use — linked (supports or contradicts) to a claim or
 * datapoint the notes still show (VERIFIED or UNVERIFIED), or carrying a non-empty access note
 * (a Sources line that says what was read in it). A source registered but never used, or used
 * only by a REFUTED or RETRACTED claim and noted nowhere, is not counted. Ledger order. Pure.
 */
export function sourcesInNotes(investigation: Pick<Investigation, "ledger">): LedgerSource[] {
  const { ledger } = investigation;
  const live = new Set(ledger.claims.filter((claim) => LIVE.has(claim.status)).map((claim) => claim.id));
  const cited = new Set(ledger.claimSources.filter((link) => live.has(link.claimId)).map((link) => link.sourceId));
  return ledger.sources.filter((source) => cited.has(source.id) || source.note.trim() !== "");
}

const ATOMIC_PREFIX = "atomic: ";

/**
 * The stored reason why UNVERIFIED is the best available for a resolved question. The root
 * keeps its atomic statement in the same field (`atomic: <why>; <reason>`, see
 * `resolveQuestion`), which is not such a reason and is left out.
 */
export function unverifiedExemption(question: Question): string {
  const stored = question.exemption.trim();
  if (question.id !== ROOT_QUESTION_ID || !isDeclaredAtomic([question])) return stored;
  const separator = stored.indexOf("; ", ATOMIC_PREFIX.length);
  return separator === -1 ? "" : stored.slice(separator + 2).trim();
}

/**
 * Whether the frontier has no work left for exploration: no question in progress and none
 * actionable. A root that still waits for its first sub-questions (not declared atomic, no
 * children) is work, so a new frontier is not exhausted. Pure.
 */
export function frontierExhausted(investigation: Pick<Investigation, "frontier">): boolean {
  const { frontier } = investigation;
  if (frontier.questions.some((question) => question.status === "in_progress")) return false;
  const root = findQuestion(frontier, ROOT_QUESTION_ID);
  if (root?.status === "pending" && !isExpanded(frontier)) return false;
  return rankActionable(frontier).length === 0;
}

/**
 * The seed's final check before exploration ends on an exhausted frontier: the UNVERIFIED
 * claims (and datapoints) that resolved questions cite, each once, by id. Exploration ends when
 * it is empty; otherwise the loop queues them for verification. Pure.
 */
export function finalVerificationQueue(investigation: Pick<Investigation, "frontier" | "ledger">): string[] {
  const cited = new Set(
    investigation.frontier.questions.filter((q) => q.status === "resolved").flatMap((q) => q.claimIds),
  );
  return investigation.ledger.claims
    .filter((claim) => claim.status === "UNVERIFIED" && cited.has(claim.id))
    .map((claim) => claim.id);
}

// ---------------------------------------------------------------------------------------------
// The checks, one message each

function rootCheck(frontier: Frontier): string | undefined {
  const root = findQuestion(frontier, ROOT_QUESTION_ID);
  if (!root) return `The root question ${ROOT_QUESTION_ID} is missing from the frontier.`;
  if (root.status === "resolved") return undefined;
  if (root.status === "unresolvable") {
    if (root.answer.trim() !== "") return undefined;
    return (
      `The root question ${ROOT_QUESTION_ID} is unresolvable with no stated assumption: state the assumption ` +
      "the report rests on."
    );
  }
  return (
    `The root question ${ROOT_QUESTION_ID} is ${root.status}: resolve it (resolve_question with its answer and ` +
    "claim ids), or, when it cannot be answered, it must end unresolvable with a stated assumption."
  );
}

function actionableCheck(investigation: Investigation): string | undefined {
  const { gatePriority } = investigation.config;
  // Selection's effective priority: a low-priority question an important one waits on counts at that priority.
  const open = rankActionable(investigation.frontier).filter((ranked) => ranked.effectivePriority >= gatePriority);
  if (open.length === 0) return undefined;
  const listed = open.map(({ question, effectivePriority, raisedBy }) =>
    raisedBy !== undefined && effectivePriority > question.priority
      ? `${question.id} (P ${p2(effectivePriority)}, needed by ${raisedBy})`
      : `${question.id} (P ${p2(question.priority)})`,
  );
  return (
    `${open.length} actionable pending question(s) with priority >= ${p2(gatePriority)} (gate_priority): ` +
    `${ids(listed)}. Work on them (frontier_next), lower their priority (set_priority) or prune them ` +
    "(prune_branch) with a reason."
  );
}

function sourceChecks(investigation: Investigation): string[] {
  const { minSources, minDomains } = investigation.config;
  const used = sourcesInNotes(investigation);
  const keys = [...new Set(used.map((source) => sourceKey(investigation.ledger, source)))];
  const missing: string[] = [];
  if (used.length < minSources) {
    missing.push(
      `The notes use ${used.length} distinct source(s)${used.length > 0 ? ` (${ids(used.map((s) => s.id))})` : ""}; ` +
        `the gate needs ${minSources} (min_sources): read more sources and cite them in claims or datapoints, or ` +
        "note what each one held (notes_append section sources).",
    );
  }
  if (keys.length < minDomains) {
    missing.push(
      `The sources in the notes come from ${keys.length} independent origin(s)${keys.length > 0 ? ` (${ids(keys)})` : ""}; ` +
        `the gate needs ${minDomains} (min_domains): find sources on other domains.`,
    );
  }
  return missing;
}

function verifiedCheck(investigation: Investigation): string | undefined {
  const claims = new Map(investigation.ledger.claims.map((claim) => [claim.id, claim]));
  const failing = investigation.frontier.questions
    .filter((question) => question.status === "resolved")
    .filter((question) => unverifiedExemption(question) === "")
    .filter((question) => !question.claimIds.some((id) => claims.get(id)?.status === "VERIFIED"))
    .map((question) => {
      const cites = question.claimIds.map((id) => `${id} ${claims.get(id)?.status ?? "unknown"}`);
      return `${question.id} (${cites.length === 0 ? "cites no claim" : `cites ${ids(cites)}`})`;
    });
  if (failing.length === 0) return undefined;
  return (
    `${failing.length} resolved question(s) cite no VERIFIED claim and store no reason why UNVERIFIED is the best ` +
    `available: ${ids(failing)}. Verify a claim each one cites (notes_update status VERIFIED), or reopen it and ` +
    "resolve it again with a reason."
  );
}

function contradictionCheck(investigation: Investigation): string | undefined {
  const { claims } = investigation.ledger;
  const open = investigation.ledger.contradictions.filter(
    (contradiction) => !contradictionSettled(contradiction, claims, investigation.frontier.questions),
  );
  if (open.length === 0) return undefined;
  const listed = open.map(
    (entry) =>
      `${entry.claimId} vs ${entry.otherClaimId} (${entry.questionId === "" ? "no question yet" : entry.questionId})`,
  );
  return (
    `${open.length} unaddressed contradiction(s) in Contradictions: ${ids(listed)}. Settle each one: answer its ` +
    "question and refute or retract the claim that does not hold."
  );
}

const target = (challenge: Challenge): string =>
  challenge.targetType === "conclusion" ? "the conclusion" : `${challenge.targetType} ${challenge.targetId}`;

function openChallengeCheck(challenges: readonly Challenge[]): string | undefined {
  const open = openChallenges(challenges);
  if (open.length === 0) return undefined;
  return (
    `${open.length} open challenge(s): ${ids(open.map((challenge) => `${challenge.id} (${target(challenge)})`))}. ` +
    "Run each one's query and record its verdict (record_challenge_result)."
  );
}

const challengeNumber = (id: string): number => Number(/^ch_(\d+)$/.exec(id)?.[1] ?? 0);

/** Questions created or reopened because of `causedBy`, still open. */
function questionsOpenedBy(frontier: Frontier, causedBy: string): string[] {
  const touched = new Set(frontier.transitions.filter((row) => row.causedBy === causedBy).map((row) => row.questionId));
  return frontier.questions
    .filter((question) => touched.has(question.id) && OPEN.has(question.status))
    .map((question) => question.id);
}

function conclusionCheck(investigation: Investigation): string | undefined {
  // The latest decisive verdict on the conclusion counts: inconclusive ones neither pass nor undo it.
  const decisive = challengesOn(investigation.challenges, "conclusion", "")
    .filter((challenge) => challenge.status === "closed" && challenge.outcome !== "inconclusive")
    .sort(
      (a, b) => (a.closedAt ?? "").localeCompare(b.closedAt ?? "") || challengeNumber(a.id) - challengeNumber(b.id),
    );
  const last = decisive.at(-1);
  if (last?.outcome === "survived") return undefined;
  if (!last) {
    return (
      "The conclusion has no closed challenge with outcome survived: state the conclusion in Scratch " +
      "(notes_scratch), challenge it (challenge with target_type conclusion), run its query and record the verdict."
    );
  }
  const opened = questionsOpenedBy(investigation.frontier, last.id);
  return (
    `The conclusion was ${last.outcome} by ${last.id} (${readerLine(last.evidence, TEXT_CHARS)}): exploration goes on ` +
    `with the questions it opened (${opened.length === 0 ? "none yet: add them" : ids(opened)}); then revise the ` +
    "conclusion in Scratch and challenge it again."
  );
}

/**
 * The exploration gate of `finish_exploration` (seed 000 "Finalization gate"), in this order:
 * the root is resolved (or unresolvable with a stated assumption); no actionable pending
 * question at or above `gatePriority`; at least `minSources` sources in notes (`sourcesInNotes`)
 * from at least `minDomains` independence keys; every resolved question cites a VERIFIED claim
 * or stores why UNVERIFIED is the best available; no unaddressed contradiction; no open
 * challenge; the conclusion's latest decisive challenge survived. Pure.
 */
export function explorationGate(investigation: Investigation): GateResult {
  const missing = [
    rootCheck(investigation.frontier),
    actionableCheck(investigation),
    ...sourceChecks(investigation),
    verifiedCheck(investigation),
    contradictionCheck(investigation),
    openChallengeCheck(investigation.challenges),
    conclusionCheck(investigation),
  ].filter((message): message is string => message !== undefined);
  return gateResult(missing);
}
