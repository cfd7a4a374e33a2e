/**
 * Adversarial queries (seed 000 "Adversarial queries"): validating and registering a
 * challenge, attaching the attempt that executed it, recording its verdict, and the
 * compact view. Pure: the verdict's effects on claims and questions come back as data
 * (`ChallengeConsequence`) for the caller to apply through the ledger and frontier.
 */
import { err, ok, type Result } from "../result.js";
import { normalizeWording, readerLine } from "../text.js";
import { holderOf } from "./frontier-queries.js";
import { nextSequentialId } from "./ledger.js";
import {
  CHALLENGE_OUTCOMES,
  CHALLENGE_STRATEGIES,
  CHALLENGE_TARGETS,
  type Challenge,
  type ChallengeOutcome,
  type ChallengeStrategy,
  type ChallengeTarget,
  type Claim,
  type DecisionContext,
  EMPTY_MUTATION,
  type Investigation,
  type InvestigationConfig,
  type Mutation,
  type QuestionStatus,
  type Rejection,
} from "./types.js";

/** The priority of the question a refuted claim spawns ("high-priority"). */
export const CONTRADICTION_PRIORITY = 0.9;

/** A `challenge` tool call, as the model proposed it (strategy and target type still unchecked). */
export interface ChallengeInput {
  targetType: string;
  /** A claim id, a question id, or absent/'' for the conclusion. */
  targetId?: string;
  negation: string;
  strategy: string;
  expectedIfFalse: string;
  query: string;
  /** The question being worked on when it was raised. */
  questionId: string | null;
}

/** What a challenge is checked against. */
export interface ChallengeContext {
  challenges: readonly Challenge[];
  claims: readonly Pick<Claim, "id" | "text" | "value" | "unit" | "status">[];
  questions: readonly { id: string; question: string; status: QuestionStatus; depth: number; answer: string }[];
  /** Queries already attempted on the challenge's question (its attempt log). */
  attemptQueries: readonly string[];
  /** The run's conclusion as stated in Scratch; required to challenge it. */
  conclusion?: string;
  config: Pick<InvestigationConfig, "maxChallengesPerTarget">;
}

declare const validated: unique symbol;

/** A challenge that passed `validateChallenge`: the only input `registerChallenge` takes. */
export interface ValidChallenge {
  readonly [validated]: true;
  questionId: string | null;
  targetType: ChallengeTarget;
  targetId: string;
  negation: string;
  strategy: ChallengeStrategy;
  expectedIfFalse: string;
  query: string;
}

const reject = (rule: string, message: string): Result<never, Rejection> => err({ rule, message });

/** Two queries equal here are one query. */
export const normalizeQuery = normalizeWording;

// Fillers that make a rephrasing look new without attacking anything; negations ("not", "never") stay terms.
const FILLERS = new Set(
  "the and for with that this from are was were has have had its into than then there their about again also".split(
    " ",
  ),
);

/** The terms of a text for rule 4: lower-cased words of at least three letters, fillers left out. */
export function queryTerms(text: string): Set<string> {
  const words = text.toLowerCase().match(/\p{L}+/gu) ?? [];
  return new Set(words.filter((word) => word.length >= 3 && !FILLERS.has(word)));
}

const targetLabel = (targetType: ChallengeTarget, targetId: string): string =>
  targetType === "conclusion" ? "the conclusion" : targetId;

/** Checks a proposed challenge against seed 000's rules 1 to 4 and the target's eligibility. */
export function validateChallenge(input: ChallengeInput, context: ChallengeContext): Result<ValidChallenge, Rejection> {
  const target = resolveTarget(input, context);
  if (!target.ok) return target;
  const { targetType, targetId, text } = target.value;
  const strategy = CHALLENGE_STRATEGIES.find((known) => known === input.strategy);
  if (!strategy) {
    return reject(
      "strategy",
      `unknown strategy '${input.strategy}'; choose one of: ${CHALLENGE_STRATEGIES.join(", ")}`,
    );
  }
  const negation = input.negation.trim();
  if (!negation) {
    return reject("negation", "state the negation: the belief inverted into the statement the search tries to prove");
  }
  const expectedIfFalse = input.expectedIfFalse.trim();
  if (!expectedIfFalse) {
    return reject(
      "expected-if-false",
      "state expected_if_false: what the evidence would look like if the belief were wrong",
    );
  }
  const query = input.query.trim();
  if (!normalizeQuery(query)) return reject("query", "the query is empty: build it from the negation and the strategy");
  const onTarget = challengesOn(context.challenges, targetType, targetId);
  const label = targetLabel(targetType, targetId);
  const repeated = checkStrategy(onTarget, strategy, label, context.config.maxChallengesPerTarget);
  if (repeated) return err(repeated);
  const normalized = normalizeQuery(query);
  const earlier = [...context.attemptQueries, ...onTarget.map((challenge) => challenge.query)];
  const same = earlier.find((previous) => normalizeQuery(previous) === normalized);
  if (same !== undefined) {
    return reject(
      "distinct-query",
      `the query repeats the earlier query "${readerLine(same, 120)}"; a rephrasing finds the same pages — build a new query from the negation and the strategy '${strategy}'`,
    );
  }
  const own = queryTerms(text);
  if (![...queryTerms(query)].some((term) => !own.has(term))) {
    return reject(
      "new-terms",
      `the query only repeats the text of ${label}; add terms of the negation or the strategy '${strategy}' that the target does not contain`,
    );
  }
  return ok({
    questionId: input.questionId,
    targetType,
    targetId,
    negation,
    strategy,
    expectedIfFalse,
    query,
  } as ValidChallenge);
}

/** Rule 1 and eligibility: the target exists and may be challenged; its own text for rule 4. */
function resolveTarget(
  input: ChallengeInput,
  context: ChallengeContext,
): Result<{ targetType: ChallengeTarget; targetId: string; text: string }, Rejection> {
  const targetType = CHALLENGE_TARGETS.find((known) => known === input.targetType);
  if (!targetType) {
    return reject(
      "target",
      `unknown target_type '${input.targetType}'; choose one of: ${CHALLENGE_TARGETS.join(", ")}`,
    );
  }
  const targetId = input.targetId?.trim() ?? "";
  if (targetType === "conclusion") {
    if (targetId) return reject("target", "a conclusion challenge names no target_id; leave it empty");
    const conclusion = context.conclusion?.trim() ?? "";
    if (!conclusion) {
      return reject(
        "target",
        "state the conclusion in a few sentences in Scratch (notes_scratch) before challenging it",
      );
    }
    return ok({ targetType, targetId, text: conclusion });
  }
  if (targetType === "claim") {
    if (!targetId) return reject("target", "name the claim to challenge: target_id is a claim id (c_001 or d_001)");
    const claim = context.claims.find((known) => known.id === targetId);
    if (!claim) return reject("target", `unknown claim id: ${targetId}; challenge a claim shown in the notes`);
    if (claim.status !== "UNVERIFIED" && claim.status !== "VERIFIED") {
      return reject(
        "target-status",
        `${targetId} is ${claim.status}; only UNVERIFIED or VERIFIED claims are challenged`,
      );
    }
    return ok({ targetType, targetId, text: `${claim.text} ${claim.value} ${claim.unit}` });
  }
  if (!targetId)
    return reject("target", "name the question whose answer is challenged: target_id is a question id (q_001)");
  const question = context.questions.find((known) => known.id === targetId);
  if (!question) return reject("target", `unknown question id: ${targetId}; challenge a question of the frontier`);
  return ok({ targetType, targetId, text: question.answer || question.question });
}

/** Rule 3: one use of a strategy per target, at most `max` challenges per target. */
function checkStrategy(
  onTarget: readonly Challenge[],
  strategy: ChallengeStrategy,
  label: string,
  max: number,
): Rejection | undefined {
  if (onTarget.length >= max) {
    return {
      rule: "max-challenges",
      message: `${label} already has ${onTarget.length} challenges (max_challenges_per_target is ${max}); record their results and move on`,
    };
  }
  if (onTarget.some((challenge) => challenge.strategy === strategy)) {
    const unused = CHALLENGE_STRATEGIES.filter((known) => !onTarget.some((challenge) => challenge.strategy === known));
    return {
      rule: "strategy-reuse",
      message: `the strategy '${strategy}' was already used on ${label}; choose one of: ${unused.join(", ")}`,
    };
  }
  return undefined;
}

export interface ChallengeChange {
  challenges: readonly Challenge[];
  challenge: Challenge;
  mutation: Mutation;
}

/**
 * Registers a validated challenge as open (`ch_NNN`). Rule 3 is checked again against
 * `challenges`, in case another challenge was registered since the validation.
 */
export function registerChallenge(
  challenges: readonly Challenge[],
  input: ValidChallenge,
  ctx: DecisionContext,
): Result<ChallengeChange, Rejection> {
  const onTarget = challengesOn(challenges, input.targetType, input.targetId);
  const label = targetLabel(input.targetType, input.targetId);
  const refusal = checkStrategy(onTarget, input.strategy, label, Number.POSITIVE_INFINITY);
  if (refusal) return err(refusal);
  const challenge: Challenge = {
    id: nextSequentialId(
      "ch",
      challenges.map((known) => known.id),
    ),
    questionId: input.questionId,
    targetType: input.targetType,
    targetId: input.targetId,
    negation: input.negation,
    strategy: input.strategy,
    expectedIfFalse: input.expectedIfFalse,
    query: input.query,
    attempt: null,
    status: "open",
    outcome: "",
    evidence: "",
    sourceIds: [],
    resultClaimId: null,
    createdAt: ctx.now,
    closedAt: null,
  };
  return ok({
    challenges: [...challenges, challenge],
    challenge,
    mutation: { ...EMPTY_MUTATION, challenges: [challenge] },
  });
}

/** The open, not yet executed challenge whose query this is (normalized), if any. */
export function challengeForQuery(challenges: readonly Challenge[], query: string): Challenge | undefined {
  const normalized = normalizeQuery(query);
  return challenges.find(
    (challenge) => challenge.status === "open" && !challenge.attempt && normalizeQuery(challenge.query) === normalized,
  );
}

/** Rule 5: points an open challenge at the attempt that executed its query. */
export function attachAttempt(
  challenges: readonly Challenge[],
  challengeId: string,
  attempt: { questionId: string; seq: number },
): Result<ChallengeChange, Rejection> {
  const challenge = challenges.find((known) => known.id === challengeId);
  if (!challenge) return unknownChallenge(challengeId);
  if (challenge.status !== "open") {
    return reject("challenge-closed", `${challengeId} is closed (${challenge.outcome}); its attempt cannot change`);
  }
  if (!Number.isInteger(attempt.seq) || attempt.seq < 1 || !attempt.questionId) {
    return reject("attempt", "an attempt is a question id and its attempt number (1, 2, …)");
  }
  if (challenge.attempt) {
    if (challenge.attempt.questionId === attempt.questionId && challenge.attempt.seq === attempt.seq) {
      return ok({ challenges, challenge, mutation: EMPTY_MUTATION });
    }
    return reject(
      "attempt",
      `${challengeId} was already executed by attempt ${challenge.attempt.seq} of ${challenge.attempt.questionId}`,
    );
  }
  return replace(challenges, { ...challenge, attempt: { questionId: attempt.questionId, seq: attempt.seq } });
}

export interface ChallengeResultInput {
  challengeId: string;
  outcome: string;
  evidence: string;
  sourceIds: readonly string[];
  resultClaimId?: string;
}

/** What a verdict requires of the ledger and frontier, for the caller to apply. */
export type ChallengeConsequence =
  /** Set the claim REFUTED, linking `sourceIds` as `contradicts`. */
  | { kind: "refute-claim"; claimId: string; sourceIds: readonly string[]; causedBy: string }
  /** Record the contradiction between the claim and the counter-claim the evidence produced. */
  | { kind: "add-contradiction"; claimId: string; otherClaimId: string }
  /** Spawn a high-priority question to resolve the contradiction. */
  | { kind: "spawn-question"; question: string; priority: number; parentId: string | null; causedBy: string }
  /** Reopen every resolved question whose answer cites the claim (`questionsCiting`). */
  | { kind: "reopen-citing"; claimId: string; causedBy: string }
  /** Append the scope to the claim text (`updateClaim` amendText); a VERIFIED claim returns to UNVERIFIED. */
  | { kind: "amend-claim"; claimId: string; scope: string }
  /** Reopen the question whose answer was refuted. */
  | { kind: "reopen-question"; questionId: string; reason: string; causedBy: string }
  /** Record a qualification in the notes. */
  | { kind: "note"; text: string }
  /** The conclusion did not hold: exploration continues. */
  | { kind: "continue-exploration"; reason: string };

/** What is known when a verdict is recorded: the persisted source ids and the claims. */
export interface ResultContext {
  sourceIds: readonly string[];
  claims: readonly Pick<Claim, "id" | "text">[];
}

/** Closes an open challenge with its verdict and returns the consequences as data. */
export function recordChallengeResult(
  challenges: readonly Challenge[],
  input: ChallengeResultInput,
  known: ResultContext,
  ctx: DecisionContext,
): Result<ChallengeChange & { consequences: ChallengeConsequence[] }, Rejection> {
  const challenge = challenges.find((row) => row.id === input.challengeId);
  if (!challenge) return unknownChallenge(input.challengeId);
  if (challenge.status !== "open") {
    return reject(
      "challenge-closed",
      `${challenge.id} is already closed (${challenge.outcome}); a verdict is set once — register a new challenge with another strategy`,
    );
  }
  const outcome = CHALLENGE_OUTCOMES.find((value) => value === input.outcome);
  if (!outcome)
    return reject("outcome", `unknown outcome '${input.outcome}'; choose one of: ${CHALLENGE_OUTCOMES.join(", ")}`);
  const sourceIds = [...new Set(input.sourceIds)];
  const unknown = sourceIds.filter((id) => !known.sourceIds.includes(id));
  if (unknown.length > 0) {
    return reject("unknown-source", `unknown source id(s): ${unknown.join(", ")}; cite only sources you were shown`);
  }
  const evidence = input.evidence.trim();
  if ((outcome === "refuted" || outcome === "weakened") && (sourceIds.length === 0 || !evidence)) {
    return reject(
      "verdict-evidence",
      `a ${outcome} verdict needs the evidence (what was found) and at least one source id that shows it`,
    );
  }
  if (outcome === "survived" && !challenge.attempt) {
    return reject(
      "not-executed",
      `${challenge.id} was not executed: run search with its query "${readerLine(challenge.query, 120)}" first`,
    );
  }
  const resultClaimId = input.resultClaimId?.trim() || null;
  if (resultClaimId && !known.claims.some((claim) => claim.id === resultClaimId)) {
    return reject("unknown-claim", `unknown result claim id: ${resultClaimId}; record the counter-claim first`);
  }
  const closed: Challenge = {
    ...challenge,
    status: "closed",
    outcome,
    evidence,
    sourceIds,
    resultClaimId,
    closedAt: ctx.now,
  };
  const change = replace(challenges, closed);
  return ok({ ...change.value, consequences: consequencesOf(closed, outcome, known.claims) });
}

function consequencesOf(
  challenge: Challenge,
  outcome: ChallengeOutcome,
  claims: readonly Pick<Claim, "id" | "text">[],
): ChallengeConsequence[] {
  const { id: causedBy, targetId, evidence } = challenge;
  if (outcome === "inconclusive" || outcome === "survived") return [];
  if (challenge.targetType === "conclusion") {
    return [{ kind: "continue-exploration", reason: `the conclusion was ${outcome} by ${causedBy}: ${evidence}` }];
  }
  if (challenge.targetType === "question_answer") {
    if (outcome === "weakened")
      return [{ kind: "note", text: `${targetId} answer weakened by ${causedBy}: ${evidence}` }];
    return [
      { kind: "reopen-question", questionId: targetId, reason: `answer refuted by ${causedBy}: ${evidence}`, causedBy },
    ];
  }
  if (outcome === "weakened") return [{ kind: "amend-claim", claimId: targetId, scope: evidence }];
  const claimText = claims.find((claim) => claim.id === targetId)?.text ?? targetId;
  const consequences: ChallengeConsequence[] = [
    { kind: "refute-claim", claimId: targetId, sourceIds: challenge.sourceIds, causedBy },
  ];
  if (challenge.resultClaimId && challenge.resultClaimId !== targetId) {
    consequences.push({ kind: "add-contradiction", claimId: targetId, otherClaimId: challenge.resultClaimId });
  }
  consequences.push(
    {
      kind: "spawn-question",
      question: readerLine(
        `${CONTRADICTION_QUESTION}"${claimText}" (${targetId}) against ${evidence} (${challenge.sourceIds.join(", ")})`,
        400,
      ),
      priority: CONTRADICTION_PRIORITY,
      parentId: challenge.questionId,
      causedBy,
    },
    { kind: "reopen-citing", claimId: targetId, causedBy },
  );
  return consequences;
}

/** How a question spawned to resolve a refuted claim's contradiction opens: `Resolve the contradiction: "<claim>" …`. */
export const CONTRADICTION_QUESTION = "Resolve the contradiction: ";

export const openChallenges = (challenges: readonly Challenge[]): Challenge[] =>
  challenges.filter((challenge) => challenge.status === "open");

/**
 * The open challenges the calling sub-agent works (`max_parallel` > 1): those registered under
 * the question it holds; one whose question no other sub-agent holds is sub-agent 1's. So two
 * sub-agents never run and judge the same challenge. With one sub-agent: every open challenge.
 */
export function ownOpenChallenges(investigation: Investigation): Challenge[] {
  const agent = investigation.agent ?? 1;
  const holders = new Map(
    investigation.frontier.questions
      .filter((question) => question.status === "in_progress")
      .map((question) => [question.id, holderOf(question)]),
  );
  return openChallenges(investigation.challenges).filter(
    (challenge) => (holders.get(challenge.questionId ?? "") ?? 1) === agent,
  );
}

/** The challenges of one target ('' is the conclusion's id). */
export const challengesOn = (
  challenges: readonly Challenge[],
  targetType: ChallengeTarget,
  targetId: string,
): Challenge[] =>
  challenges.filter((challenge) => challenge.targetType === targetType && challenge.targetId === targetId);

/** The compact `challenges_view` lines, optionally only those on one target or with one status. */
export function renderChallenges(
  challenges: readonly Challenge[],
  filter: { targetId?: string; status?: Challenge["status"] } = {},
): string {
  const lines = challenges
    .filter((challenge) => filter.targetId === undefined || challenge.targetId === filter.targetId)
    .filter((challenge) => filter.status === undefined || challenge.status === filter.status)
    .map(renderChallenge);
  return lines.length > 0 ? lines.join("\n") : "(no challenges)";
}

function renderChallenge(challenge: Challenge): string {
  const target = challenge.targetType === "conclusion" ? "conclusion" : `${challenge.targetType} ${challenge.targetId}`;
  const state = challenge.status === "open" ? "open" : `closed ${challenge.outcome}`;
  const head = `[${challenge.id}] ${state} ${target} · ${challenge.strategy} · "${readerLine(challenge.query, 160)}"`;
  if (challenge.status === "open") return challenge.attempt ? head : `${head} · not run yet`;
  const evidence = challenge.evidence ? ` · ${readerLine(challenge.evidence, 160)}` : "";
  const sources = challenge.sourceIds.length > 0 ? ` · ${challenge.sourceIds.join(", ")}` : "";
  return `${head}${evidence}${sources}`;
}

function replace(challenges: readonly Challenge[], updated: Challenge): { ok: true; value: ChallengeChange } {
  return {
    ok: true,
    value: {
      challenges: challenges.map((row) => (row.id === updated.id ? updated : row)),
      challenge: updated,
      mutation: { ...EMPTY_MUTATION, challenges: [updated] },
    },
  };
}

function unknownChallenge(challengeId: string): Result<never, Rejection> {
  return reject("unknown-challenge", `unknown challenge id: ${challengeId}; see challenges_view for the open ones`);
}
