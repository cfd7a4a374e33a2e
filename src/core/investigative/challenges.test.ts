import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Result } from "../result.js";
import {
  attachAttempt,
  type ChallengeContext,
  type ChallengeInput,
  CONTRADICTION_PRIORITY,
  challengeForQuery,
  challengesOn,
  normalizeQuery,
  openChallenges,
  queryTerms,
  recordChallengeResult,
  registerChallenge,
  renderChallenges,
  validateChallenge,
} from "./challenges.js";
import {
  CHALLENGE_STRATEGIES,
  type Challenge,
  type Claim,
  DEFAULT_INVESTIGATION_CONFIG,
  type DecisionContext,
  EMPTY_MUTATION,
  type Rejection,
} from "./types.js";

const ctx: DecisionContext = { now: "2025-01-01T00:00:00.000Z", actor: "agent" };
const later: DecisionContext = { now: "2025-01-01T00:05:00.000Z", actor: "agent" };

function value<T>(result: Result<T, Rejection>): T {
  if (!result.ok) throw new Error(`unexpected rejection ${result.error.rule}: ${result.error.message}`);
  return result.value;
}

function rejection<T>(result: Result<T, Rejection>): Rejection {
  if (result.ok) throw new Error("expected a rejection");
  return result.error;
}

const claim = (id: string, text: string, status: Claim["status"] = "UNVERIFIED"): Claim => ({
  id,
  questionId: "q_002",
  kind: "claim",
  text,
  value: "",
  unit: "",
  status,
  check: "",
  independence: "",
  createdAt: ctx.now,
  updatedAt: ctx.now,
});

const CLAIMS = [
  claim("c_001", "Model X needs 11 GB of memory"),
  claim("c_002", "Library L supports feature F", "VERIFIED"),
  claim("c_003", "L was released in 2020", "REFUTED"),
  claim("c_004", "L is maintained", "RETRACTED"),
];

const QUESTIONS = [
  { id: "q_001", question: "How much memory does X need?", status: "in_progress" as const, depth: 0, answer: "" },
  {
    id: "q_002",
    question: "Does L support F?",
    status: "resolved" as const,
    depth: 1,
    answer: "Yes, L supports F since version 2",
  },
];

const context = (overrides: Partial<ChallengeContext> = {}): ChallengeContext => ({
  challenges: [],
  claims: CLAIMS,
  questions: QUESTIONS,
  attemptQueries: ["model x memory requirements"],
  conclusion: "X runs on a single consumer GPU.",
  config: DEFAULT_INVESTIGATION_CONFIG,
  ...overrides,
});

const input = (overrides: Partial<ChallengeInput> = {}): ChallengeInput => ({
  targetType: "claim",
  targetId: "c_001",
  negation: "X needs substantially more or less than 11 GB",
  strategy: "negation",
  expectedIfFalse: "benchmarks reporting another memory figure",
  query: "model X out of memory 11 GB not enough",
  questionId: "q_001",
  ...overrides,
});

/** Registers a valid challenge and returns the list. */
function registered(challenges: readonly Challenge[], overrides: Partial<ChallengeInput> = {}): readonly Challenge[] {
  const valid = value(validateChallenge(input(overrides), context({ challenges })));
  return value(registerChallenge(challenges, valid, ctx)).challenges;
}

const known = { sourceIds: ["s_001", "s_002"], claims: CLAIMS };

describe("normalizeQuery and queryTerms", () => {
  it("lower-cases and collapses punctuation and whitespace", () => {
    expect(normalizeQuery("  Model-X:  memory,\tREQUIREMENTS? ")).toBe("model x memory requirements");
  });

  it("keeps words of three letters or more, negations included, fillers left out", () => {
    expect([...queryTerms("X is NOT the 11 GB answer, again")]).toEqual(["not", "answer"]);
  });
});

describe("validateChallenge: rule 1, the target and the fields", () => {
  it("accepts a well-formed challenge of a claim", () => {
    expect(value(validateChallenge(input(), context()))).toMatchObject({
      targetType: "claim",
      targetId: "c_001",
      strategy: "negation",
      query: "model X out of memory 11 GB not enough",
    });
  });

  it("rejects an unknown target type", () => {
    expect(rejection(validateChallenge(input({ targetType: "answer" }), context()))).toEqual({
      rule: "target",
      message: "unknown target_type 'answer'; choose one of: claim, question_answer, conclusion",
    });
  });

  it("rejects a claim challenge without a claim id or with an unknown one", () => {
    expect(rejection(validateChallenge(input({ targetId: "" }), context())).message).toBe(
      "name the claim to challenge: target_id is a claim id (c_001 or d_001)",
    );
    expect(rejection(validateChallenge(input({ targetId: "c_404" }), context()))).toEqual({
      rule: "target",
      message: "unknown claim id: c_404; challenge a claim shown in the notes",
    });
  });

  it("accepts UNVERIFIED and VERIFIED claims, rejects REFUTED and RETRACTED ones", () => {
    const verified = input({ targetId: "c_002", query: "L feature F broken issue" });
    expect(validateChallenge(verified, context()).ok).toBe(true);
    expect(rejection(validateChallenge(input({ targetId: "c_003" }), context()))).toEqual({
      rule: "target-status",
      message: "c_003 is REFUTED; only UNVERIFIED or VERIFIED claims are challenged",
    });
    expect(rejection(validateChallenge(input({ targetId: "c_004" }), context())).rule).toBe("target-status");
  });

  it("rejects a question_answer challenge without a question id or with an unknown one", () => {
    const answer = { targetType: "question_answer", query: "L drops F in version 3" };
    expect(rejection(validateChallenge(input({ ...answer, targetId: "" }), context())).message).toBe(
      "name the question whose answer is challenged: target_id is a question id (q_001)",
    );
    expect(rejection(validateChallenge(input({ ...answer, targetId: "q_404" }), context())).message).toBe(
      "unknown question id: q_404; challenge a question of the frontier",
    );
    expect(validateChallenge(input({ ...answer, targetId: "q_002" }), context()).ok).toBe(true);
  });

  it("rejects a conclusion challenge with a target id or before the conclusion is stated", () => {
    const conclusion = { targetType: "conclusion", targetId: "", query: "X fails on consumer hardware" };
    expect(value(validateChallenge(input(conclusion), context()))).toMatchObject({ targetId: "" });
    expect(rejection(validateChallenge(input({ ...conclusion, targetId: "q_001" }), context())).message).toBe(
      "a conclusion challenge names no target_id; leave it empty",
    );
    expect(rejection(validateChallenge(input(conclusion), context({ conclusion: " " }))).message).toBe(
      "state the conclusion in a few sentences in Scratch (notes_scratch) before challenging it",
    );
  });

  it("rejects a strategy outside the vocabulary", () => {
    expect(rejection(validateChallenge(input({ strategy: "rephrase" }), context()))).toEqual({
      rule: "strategy",
      message:
        "unknown strategy 'rephrase'; choose one of: negation, discrepancy, criticism, alternative_method, scope_limit, primary_source, staleness",
    });
  });

  it("rejects an empty negation, expected_if_false or query", () => {
    expect(rejection(validateChallenge(input({ negation: " " }), context()))).toEqual({
      rule: "negation",
      message: "state the negation: the belief inverted into the statement the search tries to prove",
    });
    expect(rejection(validateChallenge(input({ expectedIfFalse: "" }), context()))).toEqual({
      rule: "expected-if-false",
      message: "state expected_if_false: what the evidence would look like if the belief were wrong",
    });
    expect(rejection(validateChallenge(input({ query: " ?! " }), context()))).toEqual({
      rule: "query",
      message: "the query is empty: build it from the negation and the strategy",
    });
  });
});

describe("validateChallenge: rule 2, a new query", () => {
  it("rejects a rephrasing of an earlier attempt on the question", () => {
    const refused = rejection(validateChallenge(input({ query: "Model X: memory requirements!" }), context()));
    expect(refused.rule).toBe("distinct-query");
    expect(refused.message).toBe(
      `the query repeats the earlier query "model x memory requirements"; a rephrasing finds the same pages — build a new query from the negation and the strategy 'negation'`,
    );
  });

  it("rejects the query of an earlier challenge of the same target, not of another target", () => {
    const challenges = registered([]);
    const same = input({ strategy: "criticism" });
    expect(rejection(validateChallenge(same, context({ challenges }))).rule).toBe("distinct-query");
    const other = input({ targetId: "c_002", strategy: "criticism" });
    expect(validateChallenge(other, context({ challenges })).ok).toBe(true);
  });
});

describe("validateChallenge: rule 3, strategies per target", () => {
  it("rejects a strategy already used on the target and names the unused ones", () => {
    const challenges = registered([]);
    expect(rejection(validateChallenge(input({ query: "X needs 24 GB" }), context({ challenges })))).toEqual({
      rule: "strategy-reuse",
      message:
        "the strategy 'negation' was already used on c_001; choose one of: discrepancy, criticism, alternative_method, scope_limit, primary_source, staleness",
    });
  });

  it("allows at most max_challenges_per_target on one target", () => {
    let challenges = registered([]);
    challenges = registered(challenges, { strategy: "discrepancy", query: "X memory 16 GB conflicting reports" });
    challenges = registered(challenges, { strategy: "criticism", query: "X memory leak issue" });
    const fourth = input({ strategy: "staleness", query: "X memory 2025 newer release" });
    expect(rejection(validateChallenge(fourth, context({ challenges })))).toEqual({
      rule: "max-challenges",
      message: "c_001 already has 3 challenges (max_challenges_per_target is 3); record their results and move on",
    });
    const config = { ...DEFAULT_INVESTIGATION_CONFIG, maxChallengesPerTarget: 4 };
    expect(validateChallenge(fourth, context({ challenges, config })).ok).toBe(true);
  });
});

describe("validateChallenge: rule 4, terms the target does not contain", () => {
  it("rejects the claim's own text again", () => {
    expect(rejection(validateChallenge(input({ query: "model X needs 11 GB memory" }), context()))).toEqual({
      rule: "new-terms",
      message:
        "the query only repeats the text of c_001; add terms of the negation or the strategy 'negation' that the target does not contain",
    });
    expect(
      rejection(validateChallenge(input({ query: "the model X needs 11 GB of memory again" }), context())).rule,
    ).toBe("new-terms");
  });

  it("allows the claim plus the word 'not'", () => {
    expect(validateChallenge(input({ query: "model X does not need 11 GB of memory" }), context()).ok).toBe(true);
  });

  it("compares a question_answer with its answer, or its question when unanswered, and the conclusion with its text", () => {
    const answer = { targetType: "question_answer", targetId: "q_002", query: "L supports F since version 2" };
    expect(rejection(validateChallenge(input(answer), context())).message).toContain("the text of q_002");
    const question = { targetType: "question_answer", targetId: "q_001", query: "how much memory does X need" };
    expect(rejection(validateChallenge(input(question), context())).rule).toBe("new-terms");
    const conclusion = { targetType: "conclusion", targetId: "", query: "X runs on a single consumer GPU" };
    expect(rejection(validateChallenge(input(conclusion), context())).message).toContain("the text of the conclusion");
  });
});

describe("registerChallenge", () => {
  it("registers an open challenge with the next id and lists it in the mutation", () => {
    const valid = value(validateChallenge(input(), context()));
    const change = value(registerChallenge([], valid, ctx));
    expect(change.challenge).toEqual({
      id: "ch_001",
      questionId: "q_001",
      targetType: "claim",
      targetId: "c_001",
      negation: "X needs substantially more or less than 11 GB",
      strategy: "negation",
      expectedIfFalse: "benchmarks reporting another memory figure",
      query: "model X out of memory 11 GB not enough",
      attempt: null,
      status: "open",
      outcome: "",
      evidence: "",
      sourceIds: [],
      resultClaimId: null,
      createdAt: ctx.now,
      closedAt: null,
    });
    expect(change.mutation).toEqual({ ...EMPTY_MUTATION, challenges: [change.challenge] });
    const next = registered(change.challenges, { targetId: "c_002", query: "L F broken" });
    expect(next.map((challenge) => challenge.id)).toEqual(["ch_001", "ch_002"]);
  });

  it("checks rule 3 again against the challenges registered since the validation", () => {
    const valid = value(validateChallenge(input(), context()));
    const challenges = registered([]);
    expect(rejection(registerChallenge(challenges, valid, ctx)).rule).toBe("strategy-reuse");
  });
});

describe("attachAttempt and challengeForQuery", () => {
  const challenges = registered([]);

  it("finds the open, unexecuted challenge of a query and attaches its attempt once", () => {
    expect(challengeForQuery(challenges, "Model X out-of-memory 11 GB, not enough")?.id).toBe("ch_001");
    const change = value(attachAttempt(challenges, "ch_001", { questionId: "q_001", seq: 2 }));
    expect(change.challenge.attempt).toEqual({ questionId: "q_001", seq: 2 });
    expect(change.mutation.challenges).toEqual([change.challenge]);
    expect(challengeForQuery(change.challenges, "model x out of memory 11 gb not enough")).toBeUndefined();
    const same = value(attachAttempt(change.challenges, "ch_001", { questionId: "q_001", seq: 2 }));
    expect(same.mutation).toBe(EMPTY_MUTATION);
    expect(rejection(attachAttempt(change.challenges, "ch_001", { questionId: "q_001", seq: 3 })).message).toBe(
      "ch_001 was already executed by attempt 2 of q_001",
    );
  });

  it("rejects an unknown challenge, a bad attempt and a closed challenge", () => {
    expect(rejection(attachAttempt(challenges, "ch_009", { questionId: "q_001", seq: 1 }))).toEqual({
      rule: "unknown-challenge",
      message: "unknown challenge id: ch_009; see challenges_view for the open ones",
    });
    expect(rejection(attachAttempt(challenges, "ch_001", { questionId: "q_001", seq: 0 })).rule).toBe("attempt");
    const closed = value(
      recordChallengeResult(
        challenges,
        { challengeId: "ch_001", outcome: "inconclusive", evidence: "", sourceIds: [] },
        known,
        ctx,
      ),
    ).challenges;
    expect(rejection(attachAttempt(closed, "ch_001", { questionId: "q_001", seq: 1 })).rule).toBe("challenge-closed");
  });
});

describe("recordChallengeResult", () => {
  const open = registered([]);
  const executed = value(attachAttempt(open, "ch_001", { questionId: "q_001", seq: 2 })).challenges;
  const verdict = (
    outcome: string,
    overrides: Partial<{ evidence: string; sourceIds: string[]; resultClaimId: string }> = {},
  ) => ({
    challengeId: "ch_001",
    outcome,
    evidence: "a benchmark shows 24 GB",
    sourceIds: ["s_002"],
    ...overrides,
  });

  it("closes a survived, executed challenge with no consequences", () => {
    const change = value(recordChallengeResult(executed, verdict("survived", { sourceIds: [] }), known, later));
    expect(change.challenge).toMatchObject({ status: "closed", outcome: "survived", closedAt: later.now });
    expect(change.consequences).toEqual([]);
    expect(change.mutation.challenges).toEqual([change.challenge]);
  });

  it("limits survived to an executed challenge", () => {
    expect(rejection(recordChallengeResult(open, verdict("survived"), known, later))).toEqual({
      rule: "not-executed",
      message: 'ch_001 was not executed: run search with its query "model X out of memory 11 GB not enough" first',
    });
  });

  it("requires sources and evidence for refuted and weakened", () => {
    for (const outcome of ["refuted", "weakened"]) {
      expect(rejection(recordChallengeResult(executed, verdict(outcome, { sourceIds: [] }), known, later))).toEqual({
        rule: "verdict-evidence",
        message: `a ${outcome} verdict needs the evidence (what was found) and at least one source id that shows it`,
      });
      expect(rejection(recordChallengeResult(executed, verdict(outcome, { evidence: " " }), known, later)).rule).toBe(
        "verdict-evidence",
      );
    }
  });

  it("rejects an unknown challenge, outcome, source or result claim, and a second verdict", () => {
    expect(
      rejection(recordChallengeResult(executed, { ...verdict("refuted"), challengeId: "ch_404" }, known, later)).rule,
    ).toBe("unknown-challenge");
    expect(rejection(recordChallengeResult(executed, verdict("maybe"), known, later)).message).toBe(
      "unknown outcome 'maybe'; choose one of: survived, weakened, refuted, inconclusive",
    );
    expect(
      rejection(recordChallengeResult(executed, verdict("refuted", { sourceIds: ["s_404"] }), known, later)),
    ).toEqual({
      rule: "unknown-source",
      message: "unknown source id(s): s_404; cite only sources you were shown",
    });
    expect(
      rejection(recordChallengeResult(executed, verdict("refuted", { resultClaimId: "c_404" }), known, later)).rule,
    ).toBe("unknown-claim");
    const closed = value(recordChallengeResult(executed, verdict("inconclusive"), known, later)).challenges;
    expect(rejection(recordChallengeResult(closed, verdict("survived"), known, later))).toEqual({
      rule: "challenge-closed",
      message:
        "ch_001 is already closed (inconclusive); a verdict is set once — register a new challenge with another strategy",
    });
  });

  it("turns a refuted claim into a refutation, a contradiction, a high-priority question and reopenings", () => {
    const change = value(recordChallengeResult(executed, verdict("refuted", { resultClaimId: "c_002" }), known, later));
    expect(change.challenge).toMatchObject({ outcome: "refuted", sourceIds: ["s_002"], resultClaimId: "c_002" });
    expect(change.consequences).toEqual([
      { kind: "refute-claim", claimId: "c_001", sourceIds: ["s_002"], causedBy: "ch_001" },
      { kind: "add-contradiction", claimId: "c_001", otherClaimId: "c_002" },
      {
        kind: "spawn-question",
        question:
          'Resolve the contradiction: "Model X needs 11 GB of memory" (c_001) against a benchmark shows 24 GB (s_002)',
        priority: CONTRADICTION_PRIORITY,
        parentId: "q_001",
        causedBy: "ch_001",
      },
      { kind: "reopen-citing", claimId: "c_001", causedBy: "ch_001" },
    ]);
    expect(CONTRADICTION_PRIORITY).toBe(0.9);
  });

  it("amends a weakened claim and records nothing for inconclusive", () => {
    const weakened = value(recordChallengeResult(executed, verdict("weakened"), known, later));
    expect(weakened.consequences).toEqual([
      { kind: "amend-claim", claimId: "c_001", scope: "a benchmark shows 24 GB" },
    ]);
    const inconclusive = value(recordChallengeResult(open, verdict("inconclusive", { sourceIds: [] }), known, later));
    expect(inconclusive.consequences).toEqual([]);
  });

  it("reopens a refuted answer and notes a weakened one", () => {
    const challenges = registered([], {
      targetType: "question_answer",
      targetId: "q_002",
      query: "L drops F version 3",
    });
    const refuted = value(recordChallengeResult(challenges, verdict("refuted"), known, later));
    expect(refuted.consequences).toEqual([
      {
        kind: "reopen-question",
        questionId: "q_002",
        reason: "answer refuted by ch_001: a benchmark shows 24 GB",
        causedBy: "ch_001",
      },
    ]);
    const weakened = value(recordChallengeResult(challenges, verdict("weakened"), known, later));
    expect(weakened.consequences).toEqual([
      { kind: "note", text: "q_002 answer weakened by ch_001: a benchmark shows 24 GB" },
    ]);
  });

  it("continues exploration when the conclusion is refuted or weakened", () => {
    const challenges = registered([], {
      targetType: "conclusion",
      targetId: "",
      query: "X fails on consumer hardware",
    });
    for (const outcome of ["refuted", "weakened"]) {
      expect(value(recordChallengeResult(challenges, verdict(outcome), known, later)).consequences).toEqual([
        { kind: "continue-exploration", reason: `the conclusion was ${outcome} by ch_001: a benchmark shows 24 GB` },
      ]);
    }
  });
});

describe("views", () => {
  let challenges = registered([]);
  challenges = registered(challenges, {
    targetType: "conclusion",
    targetId: "",
    query: "X fails on consumer hardware",
  });
  challenges = value(attachAttempt(challenges, "ch_001", { questionId: "q_001", seq: 2 })).challenges;
  const closed = value(
    recordChallengeResult(
      challenges,
      { challengeId: "ch_001", outcome: "weakened", evidence: "only with 8-bit weights", sourceIds: ["s_001"] },
      known,
      later,
    ),
  ).challenges;

  it("lists open challenges and those on a target", () => {
    expect(openChallenges(challenges).map((challenge) => challenge.id)).toEqual(["ch_001", "ch_002"]);
    expect(openChallenges(closed).map((challenge) => challenge.id)).toEqual(["ch_002"]);
    expect(challengesOn(closed, "conclusion", "").map((challenge) => challenge.id)).toEqual(["ch_002"]);
    expect(challengesOn(closed, "claim", "c_001").map((challenge) => challenge.id)).toEqual(["ch_001"]);
  });

  it("renders compact lines, filtered by target or status", () => {
    expect(renderChallenges(challenges)).toBe(
      [
        '[ch_001] open claim c_001 · negation · "model X out of memory 11 GB not enough"',
        '[ch_002] open conclusion · negation · "X fails on consumer hardware" · not run yet',
      ].join("\n"),
    );
    expect(renderChallenges(closed, { status: "closed" })).toBe(
      '[ch_001] closed weakened claim c_001 · negation · "model X out of memory 11 GB not enough" · only with 8-bit weights · s_001',
    );
    expect(renderChallenges(closed, { targetId: "c_009" })).toBe("(no challenges)");
  });
});

describe("property: a refuted claim always yields reopen-citing", () => {
  it("holds for any strategy, target claim, evidence and sources", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("c_001", "c_002"),
        fc.constantFrom(...CHALLENGE_STRATEGIES),
        fc.string({ minLength: 1, maxLength: 80 }).filter((text) => text.trim() !== ""),
        fc.subarray(["s_001", "s_002"], { minLength: 1 }),
        fc.boolean(),
        (targetId, strategy, evidence, sourceIds, executedFirst) => {
          let challenges = registered([], { targetId, strategy, query: `${strategy} counter evidence` });
          if (executedFirst)
            challenges = value(attachAttempt(challenges, "ch_001", { questionId: "q_001", seq: 1 })).challenges;
          const change = value(
            recordChallengeResult(
              challenges,
              { challengeId: "ch_001", outcome: "refuted", evidence, sourceIds },
              known,
              later,
            ),
          );
          expect(change.consequences).toContainEqual({ kind: "reopen-citing", claimId: targetId, causedBy: "ch_001" });
          expect(change.consequences).toContainEqual(
            expect.objectContaining({ kind: "spawn-question", priority: CONTRADICTION_PRIORITY }),
          );
          expect(change.challenge.status).toBe("closed");
        },
      ),
    );
  });
});
