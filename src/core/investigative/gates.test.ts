import { describe, expect, it } from "vitest";
import {
  explorationGate,
  finalVerificationQueue,
  frontierExhausted,
  sourcesInNotes,
  unverifiedExemption,
} from "./gates.js";
import {
  type Challenge,
  type Claim,
  type ClaimSource,
  DEFAULT_INVESTIGATION_CONFIG,
  type Investigation,
  type LedgerSource,
  type Question,
  type Transition,
} from "./types.js";

const NOW = "2026-03-01T12:00:00.000Z";

function question(id: string, patch: Partial<Question> = {}): Question {
  return {
    id,
    parentId: id === "q_001" ? null : "q_001",
    depth: id === "q_001" ? 0 : 1,
    kind: "question",
    question: `question ${id}`,
    rationale: "",
    priority: 0.5,
    status: "pending",
    validationCriteria: "a figure",
    targetSources: [],
    answer: "",
    claimIds: [],
    exemption: "",
    claimedBy: null,
    agent: 0,
    reopens: 0,
    createdAt: NOW,
    updatedAt: NOW,
    ...patch,
  };
}

function claim(id: string, status: Claim["status"], patch: Partial<Claim> = {}): Claim {
  return {
    id,
    questionId: null,
    kind: id.startsWith("d_") ? "datapoint" : "claim",
    text: `text of ${id}`,
    value: "",
    unit: "",
    status,
    check: "",
    independence: "",
    createdAt: NOW,
    updatedAt: NOW,
    ...patch,
  };
}

function challenge(id: string, patch: Partial<Challenge> = {}): Challenge {
  return {
    id,
    questionId: null,
    targetType: "conclusion",
    targetId: "",
    negation: "it is false",
    strategy: "negation",
    expectedIfFalse: "a counter-example",
    query: `query ${id}`,
    attempt: { questionId: "q_002", seq: 1 },
    status: "closed",
    outcome: "survived",
    evidence: "",
    sourceIds: [],
    resultClaimId: null,
    createdAt: NOW,
    closedAt: NOW,
    ...patch,
  };
}

const source = (id: string, domain: string, note = ""): LedgerSource => ({
  id,
  location: domain ? `https://${domain}/${id}` : `docs/${id}.md`,
  domain,
  title: `title ${id}`,
  note,
});

const supports = (claimId: string, sourceId: string): ClaimSource => ({
  claimId,
  sourceId,
  stance: "supports",
  chunkIds: [],
});

/**
 * A run that passes the gate: the root resolved on a VERIFIED claim, q_002 resolved on an
 * UNVERIFIED one with a stored reason, a low-priority pending question, five sources in notes
 * (s_006 backs only a refuted claim, s_007 carries no note) from four origins, the conclusion
 * challenged and survived.
 */
function passing(): Investigation {
  return {
    runId: 1,
    config: { ...DEFAULT_INVESTIGATION_CONFIG },
    frontier: {
      objective: "objective",
      questions: [
        question("q_001", { status: "resolved", priority: 1, answer: "24 GB", claimIds: ["c_001"] }),
        question("q_002", {
          status: "resolved",
          answer: "fp16",
          claimIds: ["c_002"],
          exemption: "only the vendor states it",
        }),
        question("q_003", { priority: 0.3 }),
      ],
      dependencies: [],
      attempts: [],
      transitions: [],
      rootAtomic: false,
    },
    ledger: {
      sources: [
        source("s_001", "alpha.example"),
        source("s_002", "beta.example"),
        source("s_003", "gamma.example"),
        source("s_004", "gamma.example", "read, nothing relevant"),
        source("s_005", ""),
        source("s_006", "delta.example"),
        source("s_007", "epsilon.example"),
      ],
      claims: [
        claim("c_001", "VERIFIED"),
        claim("c_002", "UNVERIFIED"),
        claim("c_003", "REFUTED"),
        claim("d_001", "UNVERIFIED"),
      ],
      claimSources: [
        supports("c_001", "s_001"),
        supports("c_001", "s_002"),
        supports("c_002", "s_003"),
        supports("c_003", "s_006"),
        supports("d_001", "s_005"),
      ],
      contradictions: [{ claimId: "c_001", otherClaimId: "c_003", questionId: "q_004", addressed: true }],
    },
    challenges: [challenge("ch_001", { targetType: "claim", targetId: "c_001" }), challenge("ch_002")],
    scratch: "Conclusion: 24 GB at fp16.",
    stateSeq: 0,
  };
}

const withQuestions = (investigation: Investigation, ...questions: Question[]): Investigation => {
  const byId = new Map(questions.map((q) => [q.id, q]));
  const known = new Set(investigation.frontier.questions.map((q) => q.id));
  return {
    ...investigation,
    frontier: {
      ...investigation.frontier,
      questions: [
        ...investigation.frontier.questions.map((q) => byId.get(q.id) ?? q),
        ...questions.filter((q) => !known.has(q.id)),
      ],
    },
  };
};

const transition = (questionId: string, causedBy: string): Transition => ({
  questionId,
  seq: 1,
  fromStatus: "",
  toStatus: "pending",
  trigger: "created",
  actor: "agent",
  reason: "",
  priority: 0.8,
  attempts: 0,
  causedBy,
  stateSeq: 0,
  createdAt: NOW,
});

describe("explorationGate", () => {
  it("passes a run that meets every check", () => {
    expect(explorationGate(passing())).toEqual({ passed: true, missing: [] });
  });

  it("requires the root resolved, or unresolvable with a stated assumption", () => {
    const pending = withQuestions(passing(), question("q_001", { priority: 1 }));
    expect(explorationGate(pending).missing).toEqual([
      "The root question q_001 is pending: resolve it (resolve_question with its answer and claim ids), or, when it " +
        "cannot be answered, it must end unresolvable with a stated assumption.",
    ]);
    const bare = withQuestions(passing(), question("q_001", { status: "unresolvable", answer: " " }));
    expect(explorationGate(bare).missing).toEqual([
      "The root question q_001 is unresolvable with no stated assumption: state the assumption the report rests on.",
    ]);
    const assumed = withQuestions(passing(), question("q_001", { status: "unresolvable", answer: "assume fp16" }));
    expect(explorationGate(assumed)).toEqual({ passed: true, missing: [] });
  });

  it("lists actionable pending questions at or above gate_priority, dependencies at their dependant's priority", () => {
    const investigation = {
      ...withQuestions(
        passing(),
        question("q_004", { priority: 0.7 }),
        question("q_005", { priority: 0.9 }),
        question("q_006", { priority: 0.2 }),
        question("q_007", { priority: 0.95, status: "blocked" }),
        question("q_008", { priority: 0.5 }),
      ),
    };
    const waiting = {
      ...investigation,
      frontier: { ...investigation.frontier, dependencies: [{ questionId: "q_005", dependsOnId: "q_006" }] },
    };
    expect(explorationGate(waiting).missing).toEqual([
      "3 actionable pending question(s) with priority >= 0.50 (gate_priority): q_006 (P 0.90, needed by q_005), " +
        "q_004 (P 0.70), q_008 (P 0.50). Work on them (frontier_next), lower their priority (set_priority) or prune " +
        "them (prune_branch) with a reason.",
    ]);
    const raised = { ...waiting, config: { ...waiting.config, gatePriority: 0.95 } };
    expect(explorationGate(raised).passed).toBe(true);
  });

  it("counts only sources in notes, and their independence keys", () => {
    expect(sourcesInNotes(passing()).map((s) => s.id)).toEqual(["s_001", "s_002", "s_003", "s_004", "s_005"]);
    const strict = { ...passing(), config: { ...DEFAULT_INVESTIGATION_CONFIG, minSources: 6, minDomains: 5 } };
    expect(explorationGate(strict).missing).toEqual([
      "The notes use 5 distinct source(s) (s_001, s_002, s_003, s_004, s_005); the gate needs 6 (min_sources): read " +
        "more sources and cite them in claims or datapoints, or note what each one held (notes_append section sources).",
      "The sources in the notes come from 4 independent origin(s) (alpha.example, beta.example, gamma.example, " +
        "corpus:docs/s_005.md); the gate needs 5 (min_domains): find sources on other domains.",
    ]);
  });

  it("counts a source that contradicts a live claim, not one behind a retracted claim only", () => {
    const base = passing();
    const ledger = {
      ...base.ledger,
      claims: base.ledger.claims.map((c) => (c.id === "d_001" ? { ...c, status: "RETRACTED" as const } : c)),
      claimSources: [
        ...base.ledger.claimSources,
        { claimId: "c_002", sourceId: "s_007", stance: "contradicts" as const, chunkIds: [] },
      ],
    };
    expect(sourcesInNotes({ ledger }).map((s) => s.id)).toEqual(["s_001", "s_002", "s_003", "s_004", "s_007"]);
  });

  it("reports an empty ledger with no figures in brackets", () => {
    const base = passing();
    const empty = { ...base, ledger: { sources: [], claims: [], claimSources: [], contradictions: [] } };
    const missing = explorationGate(empty).missing;
    expect(missing).toContain(
      "The notes use 0 distinct source(s); the gate needs 5 (min_sources): read more sources and cite them in claims " +
        "or datapoints, or note what each one held (notes_append section sources).",
    );
    expect(missing).toContain(
      "The sources in the notes come from 0 independent origin(s); the gate needs 3 (min_domains): find sources on other domains.",
    );
  });

  it("requires every resolved question to cite a VERIFIED claim or store why UNVERIFIED is the best available", () => {
    const investigation = withQuestions(
      passing(),
      question("q_002", { status: "resolved", answer: "fp16", claimIds: ["c_002", "c_009"] }),
      question("q_005", { status: "resolved", answer: "none", claimIds: [] }),
    );
    expect(explorationGate(investigation).missing).toEqual([
      "2 resolved question(s) cite no VERIFIED claim and store no reason why UNVERIFIED is the best available: " +
        "q_002 (cites c_002 UNVERIFIED, c_009 unknown), q_005 (cites no claim). Verify a claim each one cites " +
        "(notes_update status VERIFIED), or reopen it and resolve it again with a reason.",
    ]);
  });

  it("does not take the root's atomic statement for a reason why UNVERIFIED is the best available", () => {
    const atomic = question("q_001", { status: "resolved", claimIds: ["c_002"], exemption: "atomic: one fact" });
    expect(unverifiedExemption(atomic)).toBe("");
    expect(explorationGate(withQuestions(passing(), atomic)).passed).toBe(false);
    const reasoned = { ...atomic, exemption: "atomic: one fact; only the vendor publishes it" };
    expect(unverifiedExemption(reasoned)).toBe("only the vendor publishes it");
    expect(explorationGate(withQuestions(passing(), reasoned)).passed).toBe(true);
  });

  it("requires every contradiction addressed", () => {
    const base = passing();
    const investigation = {
      ...base,
      ledger: {
        ...base.ledger,
        contradictions: [
          ...base.ledger.contradictions,
          { claimId: "c_002", otherClaimId: "d_001", questionId: "q_009", addressed: false },
          { claimId: "c_001", otherClaimId: "c_002", questionId: "", addressed: false },
        ],
      },
    };
    expect(explorationGate(investigation).missing).toEqual([
      "2 unaddressed contradiction(s) in Contradictions: c_002 vs d_001 (q_009), c_001 vs c_002 (no question yet). " +
        "Settle each one: answer its question and refute or retract the claim that does not hold.",
    ]);
  });

  it("requires no open challenge", () => {
    const base = passing();
    const investigation = {
      ...base,
      challenges: [
        ...base.challenges,
        challenge("ch_003", { targetType: "claim", targetId: "c_002", status: "open", outcome: "", closedAt: null }),
        challenge("ch_004", { status: "open", outcome: "", closedAt: null }),
      ],
    };
    expect(explorationGate(investigation).missing).toEqual([
      "2 open challenge(s): ch_003 (claim c_002), ch_004 (the conclusion). Run each one's query and record its " +
        "verdict (record_challenge_result).",
    ]);
  });

  it("requires a conclusion challenge that survived", () => {
    const base = passing();
    const none = { ...base, challenges: base.challenges.filter((c) => c.targetType !== "conclusion") };
    const message =
      "The conclusion has no closed challenge with outcome survived: state the conclusion in Scratch (notes_scratch), " +
      "challenge it (challenge with target_type conclusion), run its query and record the verdict.";
    expect(explorationGate(none).missing).toEqual([message]);
    const inconclusive = {
      ...none,
      challenges: [...none.challenges, challenge("ch_005", { outcome: "inconclusive" })],
    };
    expect(explorationGate(inconclusive).missing).toEqual([message]);
    const onClaim = { ...none, challenges: [challenge("ch_006", { targetType: "claim", targetId: "c_001" })] };
    expect(explorationGate(onClaim).missing).toEqual([message]);
  });

  it("goes on after a weakened or refuted conclusion, with the questions it opened", () => {
    const base = passing();
    const later = "2026-03-01T13:00:00.000Z";
    const weakened = {
      ...withQuestions(base, question("q_010", { priority: 0.4 }), question("q_011", { status: "pruned" })),
      challenges: [
        ...base.challenges,
        challenge("ch_003", { outcome: "weakened", evidence: "only at batch 1", closedAt: later }),
      ],
    };
    const opened = {
      ...weakened,
      frontier: {
        ...weakened.frontier,
        transitions: [transition("q_010", "ch_003"), transition("q_011", "ch_003"), transition("q_003", "ch_001")],
      },
    };
    expect(explorationGate(opened).missing).toEqual([
      "The conclusion was weakened by ch_003 (only at batch 1): exploration goes on with the questions it opened " +
        "(q_010); then revise the conclusion in Scratch and challenge it again.",
    ]);
    const refuted = {
      ...base,
      challenges: [...base.challenges, challenge("ch_003", { outcome: "refuted", evidence: "32 GB", closedAt: later })],
    };
    expect(explorationGate(refuted).missing).toEqual([
      "The conclusion was refuted by ch_003 (32 GB): exploration goes on with the questions it opened (none yet: add " +
        "them); then revise the conclusion in Scratch and challenge it again.",
    ]);
    const survivedAgain = {
      ...refuted,
      challenges: [
        ...refuted.challenges,
        challenge("ch_004", { closedAt: "2026-03-01T14:00:00.000Z" }),
        challenge("ch_005", { outcome: "inconclusive", closedAt: "2026-03-01T15:00:00.000Z" }),
      ],
    };
    expect(explorationGate(survivedAgain).passed).toBe(true);
  });

  it("lists every failing check of a fresh run, in order", () => {
    const base = passing();
    const fresh: Investigation = {
      ...base,
      frontier: { ...base.frontier, questions: [question("q_001", { priority: 1 })] },
      ledger: { sources: [], claims: [], claimSources: [], contradictions: [] },
      challenges: [challenge("ch_001", { status: "open", outcome: "", closedAt: null })],
    };
    const missing = explorationGate(fresh).missing;
    expect(missing.map((line) => line.slice(0, 24))).toEqual([
      "The root question q_001 ",
      "The notes use 0 distinct",
      "The sources in the notes",
      "1 open challenge(s): ch_",
      "The conclusion has no cl",
    ]);
    expect(explorationGate({ ...fresh, frontier: { ...fresh.frontier, questions: [] } }).missing[0]).toBe(
      "The root question q_001 is missing from the frontier.",
    );
  });
});

describe("frontierExhausted and finalVerificationQueue", () => {
  it("is not exhausted before the root's first sub-questions, nor while a question is in progress", () => {
    const base = passing();
    const fresh = { ...base.frontier, questions: [question("q_001", { priority: 1 })] };
    expect(frontierExhausted({ frontier: fresh })).toBe(false);
    expect(frontierExhausted({ frontier: { ...fresh, rootAtomic: true } })).toBe(false);
    const working = withQuestions(base, question("q_003", { status: "in_progress" }));
    expect(frontierExhausted(working)).toBe(false);
    expect(frontierExhausted(base)).toBe(false);
  });

  it("is exhausted when nothing is actionable: resolved, blocked, or waiting on a failed dependency", () => {
    const base = withQuestions(
      passing(),
      question("q_003", { status: "resolved", claimIds: ["c_001"] }),
      question("q_004", { status: "blocked" }),
      question("q_005", { status: "pending" }),
    );
    const investigation = {
      ...base,
      frontier: { ...base.frontier, dependencies: [{ questionId: "q_005", dependsOnId: "q_004" }] },
    };
    expect(frontierExhausted(investigation)).toBe(true);
  });

  it("queues the UNVERIFIED claims resolved questions cite, each once", () => {
    const investigation = withQuestions(
      passing(),
      question("q_003", { status: "resolved", claimIds: ["c_002", "d_001", "c_003"] }),
      question("q_004", { status: "pending", claimIds: ["c_002"] }),
    );
    expect(finalVerificationQueue(investigation)).toEqual(["c_002", "d_001"]);
    const verified = withQuestions(passing(), question("q_002", { status: "resolved", claimIds: ["c_001"] }));
    expect(finalVerificationQueue(verified)).toEqual([]);
  });
});
