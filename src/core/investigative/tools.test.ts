import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { attachAttempt, openChallenges, ownOpenChallenges } from "./challenges.js";
import { applyFrontierMutation, createFrontier, recordAttempt, replayStatuses, wouldCycle } from "./frontier.js";
import { EMPTY_LEDGER, independenceKey } from "./ledger.js";
import { TOOL_SCHEMAS } from "./tool-schemas.js";
import { decide, notesText, type ToolContext, type ToolOutcome } from "./tools.js";
import {
  CHALLENGE_STRATEGIES,
  type Claim,
  DEFAULT_INVESTIGATION_CONFIG,
  EMPTY_MUTATION,
  type Investigation,
  type InvestigationConfig,
  type LedgerSource,
  type Mutation,
  type Question,
  type QuestionStatus,
  type Rejection,
} from "./types.js";

// ---------------------------------------------------------------------------------------------
// The fixture: a run with four web sources on distinct domains and two corpus documents.

const NOW = "2026-03-01T12:00:00.000Z";
const OBJECTIVE = "How much GPU memory does model X need at fp16?";
const HOST_SOURCES: readonly LedgerSource[] = [
  { id: "s_001", location: "https://alpha.example/card", domain: "alpha.example", title: "Alpha card", note: "" },
  { id: "s_002", location: "https://beta.example/bench", domain: "beta.example", title: "Beta bench", note: "" },
  { id: "s_003", location: "https://gamma.example/paper", domain: "gamma.example", title: "Gamma paper", note: "" },
  { id: "s_004", location: "https://delta.example/post", domain: "delta.example", title: "Delta post", note: "" },
  { id: "s_005", location: "docs/memory.md", domain: "", title: "Memory notes", note: "" },
  { id: "s_006", location: "docs/profiling.md", domain: "", title: "Profiling log", note: "" },
];
const READ_SOURCES = HOST_SOURCES.map((source) => source.id).join(", ");
/** Each source has three passages (`s_001.p01`–`s_001.p03`). */
const HOST_CHUNKS: ReadonlyMap<string, readonly string[]> = new Map(
  HOST_SOURCES.map((source) => [source.id, [1, 2, 3].map((n) => `${source.id}.p0${n}`)]),
);
const CTX: ToolContext = { now: NOW, hostSources: HOST_SOURCES, hostChunks: HOST_CHUNKS };

const frozen = new WeakSet<object>();
/** Freezes a value deeply, so a decision that edits its input in place throws instead of passing. */
function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== "object" || frozen.has(value)) return value;
  frozen.add(value);
  Object.freeze(value);
  for (const child of Object.values(value)) deepFreeze(child);
  return value;
}

function newInvestigation(config: Partial<InvestigationConfig> = {}): Investigation {
  const created = createFrontier(
    OBJECTIVE,
    { now: NOW, actor: "code" },
    { validationCriteria: "a figure in GB with its precision and batch size" },
  );
  if (!created.ok) throw new Error(created.error.message);
  return deepFreeze({
    runId: 1,
    config: { ...DEFAULT_INVESTIGATION_CONFIG, ...config },
    frontier: created.value.frontier,
    ledger: { ...EMPTY_LEDGER, sources: HOST_SOURCES },
    challenges: [],
    scratch: "",
    stateSeq: 0,
  });
}

const upsert = <T>(rows: readonly T[], changed: readonly T[], key: (row: T) => string): T[] => {
  const byKey = new Map(changed.map((row) => [key(row), row]));
  const known = new Set(rows.map(key));
  return [...rows.map((row) => byKey.get(key(row)) ?? row), ...changed.filter((row) => !known.has(key(row)))];
};

/** The old investigation plus the mutation's rows, as the store would rebuild it. */
function applyMutation(before: Investigation, mutation: Mutation, after: Investigation): Investigation {
  return {
    ...before,
    frontier: { ...applyFrontierMutation(before.frontier, mutation), rootAtomic: after.frontier.rootAtomic },
    ledger: {
      sources: upsert(before.ledger.sources, mutation.sources, (row) => row.id),
      claims: upsert(before.ledger.claims, mutation.claims, (row) => row.id),
      claimSources: upsert(
        before.ledger.claimSources,
        mutation.claimSources,
        (row) => `${row.claimId}|${row.sourceId}`,
      ),
      contradictions: upsert(
        before.ledger.contradictions,
        mutation.contradictions,
        (row) => `${row.claimId}|${row.otherClaimId}`,
      ),
    },
    challenges: upsert(before.challenges, mutation.challenges, (row) => row.id),
    scratch: after.scratch,
  };
}

const NOTES_REASONS: Record<string, string> = {
  notes_append: "notes_append",
  notes_update: "notes_update",
  notes_scratch: "notes_scratch",
};

/** An accepted decision's rows rebuild its value, and notes are versioned exactly when they change. */
function expectConsistent(before: Investigation, name: string, outcome: ToolOutcome): void {
  const { investigation: after, mutation } = outcome;
  expect(applyMutation(before, mutation, after)).toEqual(after);
  if (after.frontier.rootAtomic !== before.frontier.rootAtomic) expect(name).toBe("declare_atomic");
  if (after.scratch !== before.scratch) expect(name).toBe("notes_scratch");
  const notes = notesText(after);
  if (notes === notesText(before)) expect(mutation.notes).toBeUndefined();
  else expect(mutation.notes).toEqual({ text: notes, reason: NOTES_REASONS[name] ?? "frontier" });
}

/** A run driven through `decide` only, threading the investigation from each outcome. */
class Session {
  investigation: Investigation;

  constructor(config: Partial<InvestigationConfig> = {}) {
    this.investigation = newInvestigation(config);
  }

  ok(name: string, args: unknown = {}): ToolOutcome {
    const before = this.investigation;
    const result = decide(before, { name, args }, CTX);
    if (!result.ok) throw new Error(`${name} refused (${result.error.rule}): ${result.error.message}`);
    expectConsistent(before, name, result.value);
    this.investigation = deepFreeze(result.value.investigation);
    return result.value;
  }

  no(name: string, args: unknown = {}): Rejection {
    const result = decide(this.investigation, { name, args }, CTX);
    if (result.ok) throw new Error(`${name} was accepted: ${result.value.text}`);
    expect(result.error.rule).not.toBe("");
    expect(result.error.message).not.toBe("");
    return result.error;
  }

  /** Stage 1 has no search loop: the test points the challenge at the attempt that ran its query. */
  attach(challengeId: string, attempt = { questionId: "q_001", seq: 1 }): void {
    const attached = attachAttempt(this.investigation.challenges, challengeId, attempt);
    if (!attached.ok) throw new Error(attached.error.message);
    this.investigation = deepFreeze({ ...this.investigation, challenges: attached.value.challenges });
  }

  question(id: string): Question {
    const question = this.investigation.frontier.questions.find((row) => row.id === id);
    if (!question) throw new Error(`no question ${id}`);
    return question;
  }

  claim(id: string): Claim {
    const claim = this.investigation.ledger.claims.find((row) => row.id === id);
    if (!claim) throw new Error(`no claim ${id}`);
    return claim;
  }

  notes(): string {
    return notesText(this.investigation);
  }

  /** Records an unverified claim and returns its id. */
  addClaim(text: string, sourceIds: readonly string[]): string {
    const outcome = this.ok("notes_append", { section: "unverified", entries: [{ text, source_ids: sourceIds }] });
    const id = /\[(c_\d+)\]/.exec(outcome.text)?.[1];
    if (!id) throw new Error(outcome.text);
    return id;
  }

  /** Registers a challenge and returns its id. */
  challenge(args: Record<string, unknown>): string {
    const outcome = this.ok("challenge", args);
    const id = /Registered (ch_\d+)/.exec(outcome.text)?.[1];
    if (!id) throw new Error(outcome.text);
    return id;
  }

  /** A challenge of `targetId` that ran and found nothing against it. */
  survive(targetType: string, targetId: string, strategy: string, query: string): string {
    const id = this.challenge(attack(targetId, strategy, query, targetType));
    this.attach(id);
    this.ok("record_challenge_result", {
      challenge_id: id,
      outcome: "survived",
      evidence: "nothing credible against it",
      source_ids: [],
    });
    return id;
  }
}

const sub = (parentId: string, question: string, priority: number, extra: Record<string, unknown> = {}) => ({
  parent_id: parentId,
  question,
  rationale: `needed to answer ${parentId}`,
  priority,
  validation_criteria: "a figure from a primary source",
  target_sources: ["benchmarks"],
  ...extra,
});

const attack = (targetId: string | undefined, strategy: string, query: string, targetType = "claim") => ({
  target_type: targetType,
  ...(targetId === undefined ? {} : { target_id: targetId }),
  negation: "the opposite holds",
  strategy,
  expected_if_false: "a benchmark or card that reports another figure",
  query,
});

/** Root plus q_002 (P 0.8) and q_003 (P 0.6) at depth 1, and q_002 selected. */
function expanded(config: Partial<InvestigationConfig> = {}): Session {
  const session = new Session(config);
  session.ok("add_question", sub("q_001", "What is the parameter count of model X?", 0.8));
  session.ok("add_question", sub("q_001", "How large is the activation memory during inference?", 0.6));
  session.ok("frontier_next");
  return session;
}

// ---------------------------------------------------------------------------------------------

describe("decide: routing and arguments", () => {
  it("refuses an unknown tool, naming the tools there are", () => {
    const rejection = new Session().no("web_search", { query: "model X" });
    expect(rejection.rule).toBe("unknown-tool");
    expect(rejection.message).toContain('There is no tool "web_search"');
    for (const name of Object.keys(TOOL_SCHEMAS)) expect(rejection.message).toContain(name);
  });

  it("refuses arguments that do not fit the schema, naming the field", () => {
    const session = new Session();
    const { priority: _priority, ...noPriority } = sub("q_001", "What is the parameter count?", 0.5);
    const missing = session.no("add_question", noPriority);
    expect(missing.rule).toBe("arguments");
    expect(missing.message).toMatch(/^The arguments of add_question do not fit its schema: priority: /);
    expect(missing.message).toContain("Fix them and call again.");
    expect(session.no("add_question", sub("q_001", "What?", 2)).message).toContain("priority: ");
    expect(session.no("declare_atomic", { reason: "   " }).message).toContain("reason: ");
    const nested = session.no("notes_append", { section: "unverified", entries: [{ text: "x", source_ids: "s_001" }] });
    expect(nested.message).toContain("entries.0.source_ids: ");
    const extra = session.no("frontier_next", { id: "q_002" });
    expect(extra.rule).toBe("arguments");
    expect(extra.message).toContain("id");
    expect(session.no("notes_scratch", null).message).toContain("text: ");
  });

  it("reads absent arguments of a tool without parameters as {}", () => {
    const session = new Session();
    const outcome = session.ok("frontier_view", undefined);
    expect(outcome.text).toBe(`[q_001] pending (P 1.00, depth 0) ${OBJECTIVE}`);
    expect(outcome.investigation).toBe(session.investigation);
  });
});

describe("sub-agents (max_parallel > 1)", () => {
  it("each claims its own question; notes land on the caller's question; another's is not its to resolve", () => {
    const session = expanded({ maxParallel: 2 });
    expect(session.question("q_002")).toMatchObject({ status: "in_progress", agent: 1, claimedBy: 1 });
    session.investigation = deepFreeze({ ...session.investigation, agent: 2 });
    const next = session.ok("frontier_next");
    expect(next.text).toContain("[q_003] in_progress");
    expect(session.question("q_003")).toMatchObject({ agent: 2, claimedBy: 1 });
    expect(next.mutation.transitions).toMatchObject([{ questionId: "q_003", reason: "selected by sub-agent 2" }]);
    // Sub-agent 2's claim is recorded on its own question.
    const claimId = session.addClaim("Model X has 7 billion parameters.", ["s_001"]);
    expect(session.claim(claimId).questionId).toBe("q_003");
    const held = session.no("resolve_question", { id: "q_002", answer: "7B", claim_ids: [claimId], reason: "r" });
    expect(held.rule).toBe("held-by-another");
    expect(held.message).toContain("q_002 is in progress with sub-agent 1");
    expect(session.no("retry_question", { id: "q_002", new_query: "x", why: "w" }).rule).toBe("held-by-another");
    // Both in progress: max_parallel 2 is reached for a third sub-agent.
    session.investigation = deepFreeze({ ...session.investigation, agent: 3 });
    expect(session.no("frontier_next").message).toContain("(max_parallel 2)");
  });
});

describe("sub-agents' open challenges", () => {
  it("each works the challenges registered under the question it holds; an unheld one is sub-agent 1's", () => {
    const session = expanded({ maxParallel: 2 });
    const first = session.addClaim("Model X has 7 billion parameters.", ["s_001"]);
    const ofFirst = session.challenge(attack(first, "negation", "model X parameter count not 7 billion"));
    session.investigation = deepFreeze({ ...session.investigation, agent: 2 });
    session.ok("frontier_next");
    const second = session.addClaim("Activations take 2 GB at batch size 1.", ["s_002"]);
    const ofSecond = session.challenge(attack(second, "negation", "activation memory batch 1 not 2 GB"));
    const own = (agent: number) =>
      ownOpenChallenges({ ...session.investigation, agent }).map((challenge) => challenge.id);
    expect(own(1)).toEqual([ofFirst]);
    expect(own(2)).toEqual([ofSecond]);
    // With one sub-agent (or once q_002 is no longer held) sub-agent 1 sees both.
    expect(openChallenges(session.investigation.challenges).map((challenge) => challenge.id)).toEqual([
      ofFirst,
      ofSecond,
    ]);
  });
});

describe("frontier_next and the broad expansion", () => {
  it("is refused before the root has a child, then selects after add_question", () => {
    const session = new Session();
    const first = session.no("frontier_next");
    expect(first.rule).toBe("broad-expansion-first");
    expect(first.message).toContain('add_question(parent_id: "q_001"');
    session.ok("add_question", sub("q_001", "What is the parameter count of model X?", 0.8));
    const next = session.ok("frontier_next");
    expect(next.text).toContain("Work on this question now; act to satisfy its criteria.");
    expect(next.text).toContain("[q_002] in_progress (P 0.80, depth 1) What is the parameter count of model X?");
    expect(next.text).toContain("tried: nothing yet");
    expect(next.mutation.transitions).toMatchObject([
      { questionId: "q_002", fromStatus: "pending", toStatus: "in_progress", trigger: "selected", actor: "agent" },
    ]);
    expect(next.mutation.notes).toBeUndefined();
    expect(session.no("frontier_next").rule).toBe("max-parallel");
  });

  it("is allowed on an atomic objective after declare_atomic, which the expanded root refuses", () => {
    const session = new Session();
    const declared = session.ok("declare_atomic", { reason: "one figure from the model card" });
    expect(declared.text).toMatch(/^The objective is declared atomic: call frontier_next\./);
    expect(session.investigation.frontier.rootAtomic).toBe(true);
    expect(session.question("q_001").exemption).toBe("atomic: one figure from the model card");
    session.ok("frontier_next");
    expect(session.question("q_001").status).toBe("in_progress");
    expect(expanded().no("declare_atomic", { reason: "one figure" }).rule).toBe("root-has-children");
  });

  it("says when nothing is actionable", () => {
    const session = expanded();
    session.ok("prune_branch", { id: "q_002", reason: "does not alter the conclusion" });
    session.ok("prune_branch", { id: "q_003", reason: "does not alter the conclusion" });
    expect(session.no("frontier_next").rule).toBe("nothing-actionable");
  });
});

describe("add_question", () => {
  it("assigns the id and depth by code and returns the affected question with the summary", () => {
    const session = new Session();
    const outcome = session.ok("add_question", sub("q_001", "What is the parameter count of model X?", 0.8));
    expect(outcome.text).toMatch(/^Added\.\n\[q_002\] pending \(P 0\.80, depth 1\) What is the parameter count/);
    expect(outcome.mutation.questions).toMatchObject([{ id: "q_002", parentId: "q_001", depth: 1, priority: 0.8 }]);
    expect(outcome.mutation.transitions).toMatchObject([{ trigger: "created", actor: "agent", causedBy: "q_001" }]);
  });

  it("refuses a child beyond the depth cap with the seed's message", () => {
    const session = new Session();
    session.ok("add_question", sub("q_001", "What is the parameter count?", 0.8));
    session.ok("add_question", sub("q_002", "Which checkpoint is the reference?", 0.5));
    session.ok("add_question", sub("q_003", "Where is the checkpoint published?", 0.5));
    expect(session.question("q_004").depth).toBe(3);
    const rejection = session.no("add_question", sub("q_004", "Who mirrors the checkpoint?", 0.5));
    expect(rejection).toEqual({
      rule: "depth-cap",
      message: "pruned by depth cap; record it as an open gap in notes instead",
    });
  });

  it("refuses a near-duplicate, naming the existing question", () => {
    const session = expanded();
    const rejection = session.no("add_question", sub("q_003", "what is THE parameter count of model x", 0.3));
    expect(rejection.rule).toBe("duplicate-question");
    expect(rejection.message).toContain("Near-duplicate of q_002");
  });

  it("makes a blocking child a dependency of its parent, at least at the parent's priority", () => {
    const session = expanded();
    session.ok("add_question", sub("q_002", "Which tokenizer does model X use?", 0.2, { blocks_parent: true }));
    expect(session.question("q_004").priority).toBe(0.8);
    expect(session.investigation.frontier.dependencies).toEqual([{ questionId: "q_002", dependsOnId: "q_004" }]);
  });

  it("refuses an unknown parent or dependency, and a question past max_questions", () => {
    const session = new Session({ maxQuestions: 3 });
    expect(session.no("add_question", sub("q_404", "Which?", 0.5)).rule).toBe("unknown-question");
    expect(session.no("add_question", sub("q_001", "Which?", 0.5, { depends_on: ["q_404"] })).rule).toBe(
      "unknown-question",
    );
    session.ok("add_question", sub("q_001", "What is the parameter count?", 0.8));
    session.ok("add_question", sub("q_001", "What is the activation memory?", 0.6));
    expect(session.no("add_question", sub("q_001", "What is the KV cache size?", 0.6)).rule).toBe("max-questions");
  });
});

describe("retry_question", () => {
  it("logs the attempt, returns the question to pending and refuses a query that is not distinct", () => {
    const session = expanded();
    const retried = session.ok("retry_question", {
      id: "q_002",
      new_query: "model X parameter count fp16",
      why: "only forum rumours",
    });
    expect(session.question("q_002").status).toBe("pending");
    expect(retried.mutation.attempts).toMatchObject([{ questionId: "q_002", seq: 1, tool: "retry_question" }]);
    expect(retried.mutation.transitions).toMatchObject([{ trigger: "retried", toStatus: "pending" }]);
    session.ok("frontier_next");
    const rejection = session.no("retry_question", {
      id: "q_002",
      new_query: "Model X: parameter count, FP16!",
      why: "again",
    });
    expect(rejection.rule).toBe("query-not-distinct");
    expect(rejection.message).toContain('repeats the earlier query "model X parameter count fp16"');
  });

  it("requires an assumption at the attempt cap, then marks the question unresolvable and shows the gap", () => {
    const session = expanded({ maxAttempts: 2 });
    session.ok("retry_question", { id: "q_002", new_query: "model X parameters", why: "nothing" });
    const last = { id: "q_002", new_query: "model X model card size", why: "nothing either" };
    const rejection = session.no("retry_question", last);
    expect(rejection.rule).toBe("assumption-required");
    expect(rejection.message).toContain("max_attempts 2");
    const outcome = session.ok("retry_question", { ...last, assumption: "assume 7B parameters" });
    expect(session.question("q_002")).toMatchObject({ status: "unresolvable", answer: "assume 7B parameters" });
    expect(outcome.mutation.transitions).toMatchObject([{ trigger: "attempts_exhausted", actor: "code" }]);
    expect(outcome.mutation.notes?.reason).toBe("frontier");
    expect(outcome.mutation.notes?.text).toContain(
      "## Assumptions & gaps\n- q_002 unresolvable: assume 7B parameters\n",
    );
    expect(session.no("retry_question", { ...last, new_query: "other" }).rule).toBe("invalid-status");
  });
});

describe("resolve_question", () => {
  it("refuses an unknown claim and a REFUTED or RETRACTED one", () => {
    const session = expanded();
    const claim = session.addClaim("Model X has 7B parameters.", ["s_001"]);
    const unknown = session.no("resolve_question", { id: "q_002", answer: "7B", claim_ids: ["c_099"], reason: "r" });
    expect(unknown).toEqual({
      rule: "unknown-claim",
      message: "c_099 is not a recorded claim; record it with notes_append first.",
    });
    session.ok("notes_update", {
      id: claim,
      status: "REFUTED",
      add_source: { source_id: "s_002", stance: "contradicts" },
    });
    const refuted = session.no("resolve_question", { id: "q_002", answer: "7B", claim_ids: [claim], reason: "r" });
    expect(refuted.rule).toBe("claim-status");
    expect(refuted.message).toContain("c_001 is REFUTED: an answer cannot rest on it.");
    const other = session.addClaim("Model X has 13B parameters.", ["s_003"]);
    session.ok("notes_update", { id: other, status: "RETRACTED", reason: "misread the card" });
    expect(
      session.no("resolve_question", { id: "q_002", answer: "13B", claim_ids: [other], reason: "r" }).message,
    ).toContain("c_002 is RETRACTED");
    expect(session.no("resolve_question", { id: "q_404", answer: "x", claim_ids: [] }).rule).toBe("unknown-question");
  });

  it("requires a depth 0/1 answer to survive a challenge, or a reason", () => {
    const session = expanded();
    const claim = session.addClaim("Model X has 7B parameters.", ["s_001"]);
    const resolve = { id: "q_002", answer: "7B parameters", claim_ids: [claim] };
    const rejection = session.no("resolve_question", resolve);
    expect(rejection.rule).toBe("answer-challenge");
    expect(rejection.message).toContain("q_002 is at depth 1");
    // A refuted challenge of the answer does not count.
    const refuted = session.challenge(attack("q_002", "negation", "model X not 7B parameters 13B", "question_answer"));
    const verdict = session.ok("record_challenge_result", {
      challenge_id: refuted,
      outcome: "refuted",
      evidence: "the card says 13B",
      source_ids: ["s_003"],
    });
    expect(verdict.text).toContain("q_002 was not reopened");
    expect(session.no("resolve_question", resolve).rule).toBe("answer-challenge");
    // Nor does an inconclusive one: no usable search is no test of the answer.
    const inconclusive = session.challenge(
      attack("q_002", "staleness", "model X parameters newer release 2026", "question_answer"),
    );
    session.ok("record_challenge_result", {
      challenge_id: inconclusive,
      outcome: "inconclusive",
      evidence: "",
      source_ids: [],
    });
    expect(session.no("resolve_question", resolve).rule).toBe("answer-challenge");
    session.survive("question_answer", "q_002", "primary_source", "model X release notes parameter table");
    const resolved = session.ok("resolve_question", resolve);
    expect(resolved.text).toMatch(/^Resolved\.\n\[q_002\] resolved \(P 0\.80, depth 1\)/);
    expect(session.question("q_002")).toMatchObject({ status: "resolved", claimIds: [claim], answer: "7B parameters" });
  });

  it("accepts a depth 0/1 answer with a reason and stores it as the exemption", () => {
    const session = expanded();
    session.ok("resolve_question", { id: "q_003", answer: "about 2 GB", claim_ids: [], reason: "a side figure" });
    expect(session.question("q_003")).toMatchObject({ status: "resolved", exemption: "a side figure" });
  });

  it("needs no answer challenge below depth 1", () => {
    const session = expanded();
    const claim = session.addClaim("Model X has 7B parameters.", ["s_001"]);
    session.ok("add_question", sub("q_002", "Which checkpoint is the reference?", 0.5));
    session.ok("resolve_question", { id: "q_004", answer: "the base checkpoint", claim_ids: [claim] });
    expect(session.question("q_004").status).toBe("resolved");
  });

  it("requires a hypothesis to be searched from both sides, or a reason", () => {
    const session = expanded();
    const claim = session.addClaim("Model X fits in 16 GB.", ["s_002"]);
    session.ok("add_question", sub("q_002", "Model X fits in 16 GB at fp16", 0.7, { kind: "hypothesis" }));
    const resolve = { id: "q_004", answer: "it fits", claim_ids: [claim] };
    const neither = session.no("resolve_question", resolve);
    expect(neither.rule).toBe("hypothesis-both-sides");
    expect(neither.message).toContain("lacks a confirming search and a refuting (challenge) search");
    session.ok("retry_question", { id: "q_004", new_query: "model X 16GB fits fp16", why: "inconclusive" });
    const oneSide = session.no("resolve_question", resolve);
    expect(oneSide.message).toContain("lacks a refuting (challenge) search");
    expect(oneSide.message).not.toContain("a confirming search");
    expect(session.ok("resolve_question", { ...resolve, reason: "no counter-source exists" }).text).toContain(
      "[q_004] resolved",
    );
  });

  it("resolves a hypothesis whose attempt log holds a challenge search", () => {
    const session = expanded();
    const claim = session.addClaim("Model X fits in 16 GB.", ["s_002"]);
    session.ok("add_question", sub("q_002", "Model X fits in 16 GB at fp16", 0.7, { kind: "hypothesis" }));
    session.ok("retry_question", { id: "q_004", new_query: "model X 16GB fits fp16", why: "inconclusive" });
    // The search loop (not in stage 1) logs a challenge's query as an attempt with tool "challenge".
    const logged = recordAttempt(
      session.investigation.frontier,
      { questionId: "q_004", query: "model X out of memory 16GB", tool: "challenge", outcome: "nothing" },
      { now: NOW, actor: "code" },
    );
    if (!logged.ok) throw new Error(logged.error.message);
    session.investigation = deepFreeze({ ...session.investigation, frontier: logged.value.frontier });
    session.ok("resolve_question", { id: "q_004", answer: "it fits", claim_ids: [claim] });
    expect(session.question("q_004").status).toBe("resolved");
  });
});

describe("reopen_question, set_priority and prune_branch", () => {
  it("reopens a resolved question with raised priority, and refuses an open one", () => {
    const session = expanded();
    session.ok("add_question", sub("q_002", "Which checkpoint is the reference?", 0.5));
    session.ok("resolve_question", {
      id: "q_004",
      answer: "the base one",
      claim_ids: [],
      reason: "stated by the agent",
    });
    const reopened = session.ok("reopen_question", { id: "q_004", why: "a newer card exists" });
    expect(reopened.text).toMatch(/^Reopened\.\n\[q_004\] pending \(P 0\.70/);
    expect(session.question("q_004")).toMatchObject({ status: "pending", priority: 0.7, reopens: 1 });
    expect(reopened.mutation.transitions).toMatchObject([{ trigger: "reopened", actor: "agent" }]);
    expect(session.no("reopen_question", { id: "q_003", why: "x" }).rule).toBe("invalid-status");
  });

  it("changes a priority, raising the floor of dependencies, and refuses no change", () => {
    const session = expanded();
    session.ok("add_question", sub("q_003", "What sequence length is assumed?", 0.2, { blocks_parent: true }));
    session.ok("set_priority", { id: "q_003", priority: 0.9, why: "it decides the budget" });
    expect(session.question("q_004").priority).toBe(0.9);
    expect(session.no("set_priority", { id: "q_003", priority: 0.9, why: "again" }).rule).toBe("priority-unchanged");
  });

  it("prunes a branch with its open descendants, never the root", () => {
    const session = expanded();
    session.ok("add_question", sub("q_003", "What sequence length is assumed?", 0.2));
    const pruned = session.ok("prune_branch", { id: "q_003", reason: "does not alter the conclusion" });
    expect(pruned.text).toMatch(/^Pruned\./);
    expect(session.question("q_004").status).toBe("pruned");
    expect(session.no("prune_branch", { id: "q_001", reason: "x" }).rule).toBe("root-not-prunable");
  });
});

describe("notes_append", () => {
  it("appends an unverified claim tied to the current question", () => {
    const session = expanded();
    const outcome = session.ok("notes_append", {
      section: "unverified",
      entries: [{ text: "Model X has 7B parameters.", source_ids: ["s_001"], check: "an independent model card" }],
    });
    expect(outcome.text).toBe("Appended to unverified:\n[c_001] UNVERIFIED  Model X has 7B parameters.");
    expect(session.claim("c_001")).toMatchObject({ questionId: "q_002", status: "UNVERIFIED" });
    expect(outcome.mutation.claimSources).toEqual([
      { claimId: "c_001", sourceId: "s_001", stance: "supports", chunkIds: [] },
    ]);
    expect(outcome.mutation.notes?.reason).toBe("notes_append");
    expect(session.notes()).toContain(
      "- [c_001] UNVERIFIED  Model X has 7B parameters.  src: s_001  | check: an independent model card\n",
    );
  });

  it("appends datapoints with value and unit, and appends nothing when one entry is invalid", () => {
    const session = expanded();
    const point = { text: "VRAM budget of the target GPU", value: "16", unit: "GB", source_ids: ["s_005"] };
    const outcome = session.ok("notes_append", { section: "datapoints", entries: [point] });
    expect(outcome.text).toBe("Appended to datapoints:\n[d_001] UNVERIFIED  16 GB | VRAM budget of the target GPU");
    expect(session.notes()).toContain("- [d_001] 16  GB  | VRAM budget of the target GPU  | s_005\n");
    const { unit: _unit, ...noUnit } = point;
    const rejection = session.no("notes_append", {
      section: "datapoints",
      entries: [{ ...point, value: "24" }, noUnit],
    });
    expect(rejection.rule).toBe("datapoint");
    expect(rejection.message).toMatch(/^entry 2: a datapoint needs its value and unit.* Nothing was appended\.$/);
  });

  it("refuses a source the run has not read, listing the read sources", () => {
    const session = expanded();
    const claim = session.no("notes_append", {
      section: "unverified",
      entries: [{ text: "Model X has 7B parameters.", source_ids: ["s_001", "s_404"] }],
    });
    expect(claim.rule).toBe("unknown-source");
    expect(claim.message).toContain(`s_404 is not a source this run has read (read sources: ${READ_SOURCES}).`);
    const source = session.no("notes_append", { section: "sources", entries: [{ source_id: "s_404" }] });
    expect(source).toEqual({
      rule: "unknown-source",
      message: `entry 1: s_404 is not a source this run has read (read sources: ${READ_SOURCES}). Nothing was appended.`,
    });
  });

  it("records an access note on a source", () => {
    const session = expanded();
    const outcome = session.ok("notes_append", {
      section: "sources",
      entries: [{ source_id: "s_003", note: "read, nothing relevant" }],
    });
    expect(outcome.text).toBe("Appended to sources:\n[s_003] Gamma paper — read, nothing relevant");
    expect(session.notes()).toContain(
      '- [s_003] https://gamma.example/paper  "Gamma paper"  — read, nothing relevant  (gamma.example)\n',
    );
  });

  it("records a contradiction and spawns a high-priority question under the current question", () => {
    const session = expanded();
    const seven = session.addClaim("Model X has 7B parameters.", ["s_001"]);
    const thirteen = session.addClaim("Model X has 13B parameters.", ["s_002"]);
    const outcome = session.ok("notes_append", {
      section: "contradictions",
      entries: [{ claim_id: seven, other_claim_id: thirteen, text: "the card and the bench disagree" }],
    });
    expect(outcome.text).toBe("Appended to contradictions:\nc_001 vs c_002 -> q_004 (P 0.90)");
    const spawned = session.question("q_004");
    expect(spawned).toMatchObject({ parentId: "q_002", depth: 2, status: "pending" });
    expect(spawned.priority).toBeGreaterThanOrEqual(0.9);
    expect(spawned.question).toContain("Which holds: c_001 or c_002?");
    expect(outcome.mutation.transitions).toMatchObject([{ questionId: "q_004", actor: "code", causedBy: "c_001" }]);
    expect(session.investigation.ledger.contradictions).toEqual([
      { claimId: "c_001", otherClaimId: "c_002", questionId: "q_004", addressed: false },
    ]);
    expect(session.notes()).toContain("## Contradictions\n- c_001 vs c_002 -> q_004\n");
  });

  it("spawns under the deepest ancestor within the depth cap when the current question is at the cap", () => {
    const session = new Session();
    session.ok("add_question", sub("q_001", "What is the parameter count?", 0.5));
    session.ok("add_question", sub("q_002", "Which checkpoint is the reference?", 0.5));
    session.ok("add_question", sub("q_003", "Where is the checkpoint published?", 1));
    session.ok("frontier_next");
    expect(session.question("q_004")).toMatchObject({ status: "in_progress", depth: 3 });
    const a = session.addClaim("The checkpoint is on the hub.", ["s_001"]);
    const b = session.addClaim("The checkpoint is not public.", ["s_004"]);
    session.ok("notes_append", { section: "contradictions", entries: [{ claim_id: a, other_claim_id: b }] });
    expect(session.question("q_005")).toMatchObject({ parentId: "q_003", depth: 3, priority: 0.9 });
  });

  it("refuses a contradiction without both claims or with an unknown one, spawning nothing", () => {
    const session = expanded();
    const claim = session.addClaim("Model X has 7B parameters.", ["s_001"]);
    const half = session.no("notes_append", { section: "contradictions", entries: [{ claim_id: claim }] });
    expect(half.rule).toBe("contradiction");
    expect(half.message).toContain("A contradiction names claim_id and other_claim_id.");
    const entries = [{ claim_id: claim, other_claim_id: "c_404" }];
    expect(session.no("notes_append", { section: "contradictions", entries }).rule).toBe("unknown-claim");
    expect(session.investigation.frontier.questions).toHaveLength(3);
  });

  it("refuses a claim tied to a question that does not exist", () => {
    const session = expanded();
    const rejection = session.no("notes_append", {
      section: "unverified",
      entries: [{ text: "Model X has 7B parameters.", source_ids: ["s_001"], question_id: "q_404" }],
    });
    expect(rejection.rule).toBe("unknown-question");
    expect(rejection.message).toMatch(/^entry 1: .*q_404/);
    session.ok("notes_append", {
      section: "unverified",
      entries: [{ text: "Model X has 7B parameters.", source_ids: ["s_001"], question_id: "q_003" }],
    });
    expect(session.claim("c_001").questionId).toBe("q_003");
  });
});

describe("notes_append passages", () => {
  it("stores each passage on the link of the source it belongs to, and confirms them", () => {
    const session = expanded();
    const outcome = session.ok("notes_append", {
      section: "datapoints",
      entries: [
        {
          text: "fp16 weights of model X",
          value: "14",
          unit: "GB",
          source_ids: ["s_001", "s_002"],
          passage_ids: ["s_002.p03", "s_001.p01", "s_002.p01", "s_001.p01"],
        },
      ],
    });
    expect(outcome.mutation.claimSources).toEqual([
      { claimId: "d_001", sourceId: "s_001", stance: "supports", chunkIds: ["s_001.p01"] },
      { claimId: "d_001", sourceId: "s_002", stance: "supports", chunkIds: ["s_002.p03", "s_002.p01"] },
    ]);
    expect(outcome.text).toContain("(passages: s_002.p03, s_001.p01, s_002.p01)");
  });

  it("refuses a passage of a source the entry does not cite, naming that source", () => {
    const session = expanded();
    const rejection = session.no("notes_append", {
      section: "unverified",
      entries: [
        { text: "Model X has 7B parameters.", source_ids: ["s_001"] },
        { text: "Model X needs 14 GB at fp16.", source_ids: ["s_001", "s_003"], passage_ids: ["s_004.p02"] },
      ],
    });
    expect(rejection).toEqual({
      rule: "passage",
      message:
        "entry 2: s_004.p02 is a passage of s_004, which is not among the finding's sources (s_001, s_003): add s_004 to its sources or drop the passage. Nothing was appended.",
    });
    expect(session.investigation.ledger.claims).toEqual([]);
  });

  it("refuses a passage no read source has, listing the passages of the entry's sources", () => {
    const session = expanded();
    const rejection = session.no("notes_append", {
      section: "unverified",
      entries: [{ text: "Model X has 7B parameters.", source_ids: ["s_001"], passage_ids: ["s_001.p09"] }],
    });
    expect(rejection.rule).toBe("passage");
    expect(rejection.message).toBe(
      "entry 1: s_001.p09 is not a passage of any source this run has read; cite passages of the finding's sources (s_001 has s_001.p01–s_001.p03). Nothing was appended.",
    );
  });

  it("refuses passage_ids on source and contradiction entries", () => {
    const session = expanded();
    const rejection = session.no("notes_append", {
      section: "sources",
      entries: [{ source_id: "s_001", note: "read", passage_ids: ["s_001.p01"] }],
    });
    expect(rejection.rule).toBe("passage");
    expect(rejection.message).toContain(
      "passage_ids belong to unverified claims and datapoints, not to sources entries",
    );
  });

  it("adds passages with add_source, also to a link that had none", () => {
    const session = expanded();
    const claim = session.addClaim("Model X has 7B parameters.", ["s_001"]);
    const added = session.ok("notes_update", {
      id: claim,
      add_source: { source_id: "s_001", stance: "supports", passage_ids: ["s_001.p02"] },
    });
    expect(added.mutation.claimSources).toEqual([
      { claimId: claim, sourceId: "s_001", stance: "supports", chunkIds: ["s_001.p02"] },
    ]);
    expect(added.text).toBe("[c_001] UNVERIFIED  Model X has 7B parameters. (passages: s_001.p02)");
    const contradicting = session.ok("notes_update", {
      id: claim,
      add_source: { source_id: "s_003", stance: "contradicts", passage_ids: ["s_003.p01"] },
    });
    expect(contradicting.mutation.claimSources).toEqual([
      { claimId: claim, sourceId: "s_003", stance: "contradicts", chunkIds: ["s_003.p01"] },
    ]);
    const wrong = session.no("notes_update", {
      id: claim,
      add_source: { source_id: "s_005", stance: "supports", passage_ids: ["s_001.p03"] },
    });
    expect(wrong.rule).toBe("passage");
    expect(wrong.message).toContain(
      "s_001.p03 is a passage of s_001, which is not among the finding's sources (s_005)",
    );
  });
});

describe("notes_update", () => {
  it("refuses VERIFIED listing what is missing, and accepts it once all of it holds", () => {
    const session = expanded();
    const claim = session.addClaim("Model X has 7B parameters.", ["s_001"]);
    const missing = session.no("notes_update", { id: claim, status: "VERIFIED" });
    expect(missing.rule).toBe("verification");
    expect(missing.message).toContain("c_001 cannot be VERIFIED yet");
    expect(missing.message).toContain("2 supporting sources of distinct origins; it has 1");
    expect(missing.message).toContain("1 closed challenge(s) with outcome survived on c_001; it has 0");
    expect(missing.message).toContain("a statement of why its supporting sources are independent");
    const linked = session.ok("notes_update", { id: claim, add_source: { source_id: "s_005", stance: "supports" } });
    expect(linked.mutation.claimSources).toEqual([
      { claimId: claim, sourceId: "s_005", stance: "supports", chunkIds: [] },
    ]);
    expect(session.no("notes_update", { id: claim, status: "VERIFIED" }).message).not.toContain("distinct domains");
    session.ok("notes_update", { id: claim, independence: "a vendor card and a local profiling log, written apart" });
    const stillMissing = session.no("notes_update", { id: claim, status: "VERIFIED" });
    expect(stillMissing.message).toContain("survived");
    expect(stillMissing.message).not.toContain("independence");
    session.survive("claim", claim, "alternative_method", "model X independent reproduction parameter benchmark");
    const verified = session.ok("notes_update", { id: claim, status: "VERIFIED" });
    expect(verified.text).toBe("[c_001] VERIFIED  Model X has 7B parameters.");
    expect(verified.mutation.notes?.reason).toBe("notes_update");
    expect(session.notes()).toContain(
      "## Verified\n- [c_001] VERIFIED  Model X has 7B parameters.  src: s_001, s_005\n",
    );
  });

  it("refuses an unknown claim, and an unknown source listing the read sources", () => {
    const session = expanded();
    const claim = session.addClaim("Model X has 7B parameters.", ["s_001"]);
    expect(session.no("notes_update", { id: "c_404", status: "RETRACTED", reason: "x" })).toEqual({
      rule: "unknown-claim",
      message: "c_404 is not a recorded claim or datapoint.",
    });
    const rejection = session.no("notes_update", { id: claim, add_source: { source_id: "s_404", stance: "supports" } });
    expect(rejection.rule).toBe("unknown-source");
    expect(rejection.message).toContain(`(read sources: ${READ_SOURCES})`);
    expect(session.no("notes_update", { id: claim, status: "RETRACTED" }).rule).toBe("retraction");
  });

  it("REFUTED needs contradicting evidence, then reopens by code every resolved question citing the claim", () => {
    const session = expanded();
    const claim = session.addClaim("Model X has 7B parameters.", ["s_001"]);
    const other = session.addClaim("Model X uses bf16 weights.", ["s_002"]);
    session.ok("add_question", sub("q_002", "Which checkpoint is the reference?", 0.5));
    session.ok("add_question", sub("q_003", "What sequence length is assumed?", 0.5));
    session.ok("add_question", sub("q_003", "Which precision is used?", 0.5));
    session.ok("resolve_question", { id: "q_003", answer: "2 GB", claim_ids: [claim], reason: "a side figure" });
    session.ok("resolve_question", { id: "q_004", answer: "base", claim_ids: [claim] });
    session.ok("resolve_question", { id: "q_005", answer: "2k tokens", claim_ids: [claim, other] });
    session.ok("resolve_question", { id: "q_006", answer: "bf16", claim_ids: [other] });
    expect(session.no("notes_update", { id: claim, status: "REFUTED" }).rule).toBe("refutation");
    const outcome = session.ok("notes_update", {
      id: claim,
      status: "REFUTED",
      add_source: { source_id: "s_004", stance: "contradicts" },
    });
    expect(session.claim(claim).status).toBe("REFUTED");
    expect(outcome.text).toBe(
      "[c_001] REFUTED  Model X has 7B parameters.\nReopened by code (they cite c_001): q_003, q_004, q_005",
    );
    for (const id of ["q_003", "q_004", "q_005"]) expect(session.question(id).status).toBe("pending");
    expect(session.question("q_006").status).toBe("resolved");
    const reopens = outcome.mutation.transitions.filter((row) => row.fromStatus === "resolved");
    expect(reopens).toHaveLength(3);
    for (const row of reopens) {
      expect(row).toMatchObject({ toStatus: "pending", trigger: "contradiction", actor: "code", causedBy: claim });
    }
    expect(outcome.mutation.notes?.reason).toBe("notes_update");
    expect(session.notes()).not.toContain("[c_001]");
  });
});

describe("challenge", () => {
  it("registers an open challenge on the current question and lists it in challenges_view", () => {
    const session = expanded();
    const claim = session.addClaim("Model X has 7B parameters.", ["s_001"]);
    const outcome = session.ok("challenge", attack(claim, "negation", "model X does not have 7B parameters 13B"));
    expect(outcome.text).toBe(
      'Registered ch_001 (open). Now run its query with a search: "model X does not have 7B parameters 13B", then call record_challenge_result.',
    );
    expect(outcome.mutation.notes).toBeUndefined();
    expect(session.investigation.challenges).toMatchObject([
      { id: "ch_001", questionId: "q_002", targetType: "claim", targetId: claim, status: "open", attempt: null },
    ]);
    const view = session.ok("challenges_view", {});
    expect(view.text).toBe(
      '[ch_001] open claim c_001 · negation · "model X does not have 7B parameters 13B" · not run yet',
    );
    expect(view.investigation).toBe(session.investigation);
    expect(view.mutation).toEqual(EMPTY_MUTATION);
    expect(session.ok("challenges_view", { target_id: "c_404" }).text).toBe("(no challenges)");
    expect(session.ok("challenges_view", { status: "closed" }).text).toBe("(no challenges)");
  });

  it("refuses a query that repeats an attempt of the question or an earlier challenge of the target", () => {
    const session = expanded();
    const claim = session.addClaim("Model X has 7B parameters.", ["s_001"]);
    session.ok("retry_question", { id: "q_002", new_query: "model X parameter count 13B", why: "unclear" });
    session.ok("frontier_next");
    const repeated = session.no("challenge", attack(claim, "negation", "Model X: parameter count, 13B"));
    expect(repeated.rule).toBe("distinct-query");
    expect(repeated.message).toContain('repeats the earlier query "model X parameter count 13B"');
    session.challenge(attack(claim, "negation", "model X not 7B parameters"));
    expect(session.no("challenge", attack(claim, "criticism", "model X NOT 7B parameters!")).rule).toBe(
      "distinct-query",
    );
  });

  it("refuses a strategy used twice on a target and more challenges than the cap", () => {
    const session = expanded();
    const claim = session.addClaim("Model X has 7B parameters.", ["s_001"]);
    session.challenge(attack(claim, "negation", "model X not 7B parameters"));
    const reuse = session.no("challenge", attack(claim, "negation", "model X fewer parameters than claimed"));
    expect(reuse.rule).toBe("strategy-reuse");
    expect(reuse.message).toContain("choose one of: discrepancy, criticism, alternative_method");
    session.challenge(attack(claim, "criticism", "model X parameter count erratum"));
    session.challenge(attack(claim, "staleness", "model X newer release parameters 2026"));
    const capped = session.no("challenge", attack(claim, "scope_limit", "model X parameters only quantized"));
    expect(capped).toEqual({
      rule: "max-challenges",
      message: "c_001 already has 3 challenges (max_challenges_per_target is 3); record their results and move on",
    });
  });

  it("refuses a query that only repeats the target's text", () => {
    const session = expanded();
    const claim = session.addClaim("Model X has 7B parameters.", ["s_001"]);
    const rejection = session.no("challenge", attack(claim, "negation", "model X has 7B parameters"));
    expect(rejection.rule).toBe("new-terms");
    expect(rejection.message).toContain("the query only repeats the text of c_001");
  });

  it("requires the conclusion in Scratch before it is challenged", () => {
    const session = expanded();
    const conclusion = attack(undefined, "negation", "model X needs far more than 14GB", "conclusion");
    const rejection = session.no("challenge", conclusion);
    expect(rejection.rule).toBe("target");
    expect(rejection.message).toContain("Scratch");
    session.ok("notes_scratch", { text: "Conclusion: model X needs about 14 GB at fp16." });
    session.ok("challenge", conclusion);
    expect(session.investigation.challenges).toMatchObject([{ targetType: "conclusion", targetId: "" }]);
  });

  it("refuses a REFUTED claim as a target", () => {
    const session = expanded();
    const claim = session.addClaim("Model X has 7B parameters.", ["s_001"]);
    session.ok("notes_update", {
      id: claim,
      status: "REFUTED",
      add_source: { source_id: "s_002", stance: "contradicts" },
    });
    expect(session.no("challenge", attack(claim, "negation", "model X not 7B parameters")).rule).toBe("target-status");
  });
});

describe("record_challenge_result", () => {
  it("requires sources and evidence for refuted or weakened, and an executed attempt for survived", () => {
    const session = expanded();
    const claim = session.addClaim("Model X has 7B parameters.", ["s_001"]);
    const id = session.challenge(attack(claim, "negation", "model X not 7B parameters"));
    const verdict = (outcome: string, evidence: string, sourceIds: string[]) => ({
      challenge_id: id,
      outcome,
      evidence,
      source_ids: sourceIds,
    });
    expect(session.no("record_challenge_result", verdict("refuted", "the card says 13B", [])).rule).toBe(
      "verdict-evidence",
    );
    expect(session.no("record_challenge_result", verdict("weakened", "", ["s_002"])).rule).toBe("verdict-evidence");
    expect(session.no("record_challenge_result", verdict("refuted", "x", ["s_404"])).rule).toBe("unknown-source");
    const notRun = session.no("record_challenge_result", verdict("survived", "", []));
    expect(notRun.rule).toBe("not-executed");
    expect(notRun.message).toContain("run search with its query");
    expect(session.no("record_challenge_result", { ...verdict("survived", "", []), challenge_id: "ch_404" }).rule).toBe(
      "unknown-challenge",
    );
    session.attach(id, { questionId: "q_002", seq: 1 });
    const survived = session.ok("record_challenge_result", verdict("survived", "nothing credible against it", []));
    expect(survived.text).toBe(
      '[ch_001] closed survived claim c_001 · negation · "model X not 7B parameters" · nothing credible against it',
    );
    expect(session.investigation.challenges[0]).toMatchObject({ status: "closed", outcome: "survived" });
    expect(session.no("record_challenge_result", verdict("survived", "", [])).rule).toBe("challenge-closed");
  });

  it("refutes a claim: contradicts links, a spawned question, the contradiction and the citing answers reopened", () => {
    const session = expanded();
    const claim = session.addClaim("Model X has 7B parameters.", ["s_001"]);
    const counter = session.addClaim("Model X has 13B parameters.", ["s_002"]);
    session.ok("add_question", sub("q_002", "Which checkpoint is the reference?", 0.5));
    session.ok("resolve_question", { id: "q_004", answer: "the 7B base", claim_ids: [claim] });
    const id = session.challenge(attack(claim, "discrepancy", "model X 13B parameters conflicting documentation"));
    const outcome = session.ok("record_challenge_result", {
      challenge_id: id,
      outcome: "refuted",
      evidence: "the model card lists 13B parameters",
      source_ids: ["s_002", "s_003"],
      result_claim_id: counter,
    });
    expect(session.claim(claim).status).toBe("REFUTED");
    expect(session.investigation.ledger.claimSources).toEqual(
      expect.arrayContaining([
        { claimId: claim, sourceId: "s_002", stance: "contradicts", chunkIds: [] },
        { claimId: claim, sourceId: "s_003", stance: "contradicts", chunkIds: [] },
      ]),
    );
    const spawned = session.question("q_005");
    expect(spawned).toMatchObject({ parentId: "q_002", status: "pending" });
    expect(spawned.priority).toBeGreaterThanOrEqual(0.9);
    expect(session.question("q_004").status).toBe("pending");
    const codeRows = outcome.mutation.transitions.filter((row) => row.actor === "code");
    expect(codeRows).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ questionId: "q_005", trigger: "created", causedBy: id }),
        expect.objectContaining({ questionId: "q_004", trigger: "contradiction", causedBy: id }),
      ]),
    );
    expect(session.investigation.ledger.contradictions).toEqual([
      { claimId: claim, otherClaimId: counter, questionId: "q_005", addressed: false },
    ]);
    expect(outcome.text).toContain("c_001 is now REFUTED.");
    expect(outcome.text).toContain("Contradiction: c_001 vs c_002.");
    expect(outcome.text).toContain("Spawned q_005 (P 0.90)");
    expect(outcome.text).toContain("Reopened by code (they cite c_001): q_004");
    expect(outcome.mutation.notes?.reason).toBe("frontier");
    expect(session.notes()).toContain("## Contradictions\n- c_001 vs c_002 -> q_005\n");
  });

  it("amends a weakened claim, and a VERIFIED one returns to UNVERIFIED", () => {
    const session = expanded();
    const claim = session.addClaim("Model X has 7B parameters.", ["s_001", "s_006"]);
    session.ok("notes_update", { id: claim, independence: "a vendor card and a local log" });
    session.survive("claim", claim, "primary_source", "model X release notes parameter table");
    session.ok("notes_update", { id: claim, status: "VERIFIED" });
    const id = session.challenge(attack(claim, "scope_limit", "model X parameters only when quantized"));
    const outcome = session.ok("record_challenge_result", {
      challenge_id: id,
      outcome: "weakened",
      evidence: "only for the instruction-tuned variant",
      source_ids: ["s_004"],
    });
    expect(session.claim(claim)).toMatchObject({
      status: "UNVERIFIED",
      text: "Model X has 7B parameters. (scope: only for the instruction-tuned variant)",
    });
    expect(outcome.text).toContain("Amended: [c_001] UNVERIFIED  Model X has 7B parameters. (scope:");
  });

  it("reopens a resolved answer that its challenge refuted", () => {
    const session = expanded();
    session.ok("add_question", sub("q_002", "Which checkpoint is the reference?", 0.5));
    session.ok("resolve_question", { id: "q_004", answer: "the base", claim_ids: [], reason: "agent's reading" });
    const id = session.challenge(attack("q_004", "staleness", "model X newer checkpoint 2026", "question_answer"));
    const outcome = session.ok("record_challenge_result", {
      challenge_id: id,
      outcome: "refuted",
      evidence: "a newer checkpoint replaced it",
      source_ids: ["s_003"],
    });
    expect(outcome.text).toContain("Reopened q_004.");
    expect(session.question("q_004").status).toBe("pending");
    expect(outcome.mutation.transitions).toMatchObject([
      { questionId: "q_004", trigger: "contradiction", actor: "code", causedBy: id },
    ]);
  });

  it("continues exploration when the conclusion is refuted", () => {
    const session = expanded();
    session.ok("notes_scratch", { text: "Conclusion: model X needs about 14 GB at fp16." });
    const id = session.challenge(attack(undefined, "negation", "model X needs far more than 14GB", "conclusion"));
    const outcome = session.ok("record_challenge_result", {
      challenge_id: id,
      outcome: "refuted",
      evidence: "activations add 6 GB",
      source_ids: ["s_006"],
    });
    expect(outcome.text).toContain(`Exploration continues: the conclusion was refuted by ${id}: activations add 6 GB`);
  });
});

describe("frontier_view and notes_scratch", () => {
  it("lists questions compactly, filters by status, and details one with its attempt log", () => {
    const session = expanded();
    session.ok("retry_question", { id: "q_002", new_query: "model X parameters", why: "only rumours" });
    const all = session.ok("frontier_view", {});
    expect(all.text).toBe(
      [
        `[q_001] pending (P 1.00, depth 0) ${OBJECTIVE}`,
        "[q_002] pending (P 0.80, depth 1) What is the parameter count of model X?",
        "[q_003] pending (P 0.60, depth 1) How large is the activation memory during inference?",
      ].join("\n"),
    );
    expect(all.investigation).toBe(session.investigation);
    expect(all.mutation).toEqual(EMPTY_MUTATION);
    expect(session.ok("frontier_view", { status: "pruned" }).text).toBe("No pruned questions.");
    const detail = session.ok("frontier_view", { id: "q_002" }).text;
    expect(detail).toContain("  rationale: needed to answer q_001");
    expect(detail).toContain("  criteria: a figure from a primary source");
    expect(detail).toContain("  target sources: benchmarks");
    expect(detail).toContain('  tried:\n  - #1 retry_question: "model X parameters" → only rumours');
    expect(session.no("frontier_view", { id: "q_404" }).rule).toBe("unknown-question");
  });

  it("replaces Scratch, writing a notes version only when the text changes", () => {
    const session = expanded();
    const outcome = session.ok("notes_scratch", { text: "Plan: check the model card first." });
    expect(outcome.text).toBe("Scratch replaced (33 characters).");
    expect(outcome.mutation.notes?.reason).toBe("notes_scratch");
    expect(session.notes().endsWith("## Scratch\nPlan: check the model card first.\n")).toBe(true);
    expect(session.ok("notes_scratch", { text: "Plan: check the model card first." }).mutation.notes).toBeUndefined();
  });
});

// ---------------------------------------------------------------------------------------------
// Properties over random sequences of plausible tool calls.

const OPS = [
  ["add_question", 5],
  ["frontier_next", 4],
  ["retry_question", 3],
  ["resolve_question", 4],
  ["reopen_question", 1],
  ["set_priority", 1],
  ["prune_branch", 1],
  ["append_claim", 4],
  ["append_datapoint", 1],
  ["append_contradiction", 1],
  ["append_source", 1],
  ["notes_update", 5],
  ["challenge", 4],
  ["record", 8],
  ["declare_atomic", 1],
  ["notes_scratch", 1],
  ["view", 1],
  ["nonsense", 1],
] as const;
type Op = (typeof OPS)[number][0];

interface Intent {
  op: Op;
  a: number;
  b: number;
  c: number;
  /** 0 asks for a bogus id or a broken argument where the op has one. */
  bogus: number;
}

const intentArbitrary: fc.Arbitrary<Intent> = fc.record({
  op: fc.oneof(...OPS.map(([op, weight]) => ({ arbitrary: fc.constant(op), weight }))),
  a: fc.nat(999),
  b: fc.nat(999),
  c: fc.nat(999),
  bogus: fc.nat(9),
});

const pick = <T>(items: readonly T[], n: number): T | undefined => items[n % Math.max(1, items.length)];
const QUESTION_TEXTS = [
  "What is the parameter count?",
  "How large is the KV cache?",
  "Which precision do the weights use?",
  "What does the model card say about memory?",
  "How much activation memory does inference need?",
  "Does quantization change the footprint?",
];
const ALIVE: readonly Claim["status"][] = ["UNVERIFIED", "VERIFIED"];
const OUTCOMES = ["survived", "survived", "survived", "survived", "refuted", "refuted", "weakened", "inconclusive"];

function pickQuestion(investigation: Investigation, intent: Intent, prefer: readonly QuestionStatus[] = []): string {
  if (intent.bogus === 0) return "q_999";
  const questions = investigation.frontier.questions;
  const preferred = questions.filter((question) => prefer.includes(question.status));
  return pick(preferred.length > 0 && intent.c % 5 !== 0 ? preferred : questions, intent.a)?.id ?? "q_001";
}

const survivedOn = (investigation: Investigation, claimId: string): boolean =>
  investigation.challenges.some((challenge) => challenge.targetId === claimId && challenge.outcome === "survived");

/** Whether an UNVERIFIED claim has a survived challenge. */
const verifiable = (investigation: Investigation): boolean =>
  investigation.ledger.claims.some((claim) => claim.status === "UNVERIFIED" && survivedOn(investigation, claim.id));

/** A claim id, mostly of a live claim; to verify, mostly one whose challenge survived (as an agent would). */
function pickClaim(investigation: Investigation, n: number, bogus: boolean, toVerify = false): string {
  const claims = investigation.ledger.claims;
  if (bogus || claims.length === 0) return "c_999";
  const alive = claims.filter((claim) => ALIVE.includes(claim.status));
  const survived = alive.filter((claim) => survivedOn(investigation, claim.id));
  if (toVerify && survived.length > 0 && n % 4 !== 0) return pick(survived, n)?.id ?? "c_999";
  return pick(alive.length > 0 && n % 4 !== 0 ? alive : claims, n)?.id ?? "c_999";
}

/** The question being worked on, else one already tried (an agent keeps at a question), else any. */
function pickRetried(investigation: Investigation, intent: Intent): string {
  const questions = investigation.frontier.questions;
  const tried = questions.filter(
    (question) =>
      question.status === "pending" && investigation.frontier.attempts.some((row) => row.questionId === question.id),
  );
  if (intent.bogus === 0) return "q_999";
  return (
    questions.find((question) => question.status === "in_progress")?.id ??
    (intent.c % 3 === 0 ? undefined : pick(tried, intent.a)?.id) ??
    pickQuestion(investigation, intent, ["pending"])
  );
}

const pickSource = (n: number, bogus: boolean): string => (bogus ? "s_404" : (pick(HOST_SOURCES, n)?.id ?? "s_001"));

/** The op, or the step an agent takes first when the op's object does not exist yet (unless asked for nonsense). */
function productiveOp(investigation: Investigation, intent: Intent): Op {
  if (intent.bogus === 1) return intent.op;
  const alive = investigation.ledger.claims.some((claim) => ALIVE.includes(claim.status));
  const open = investigation.challenges.some((challenge) => challenge.status === "open");
  const onClaims =
    ["notes_update", "append_contradiction"].includes(intent.op) || (intent.op === "challenge" && intent.c % 5 <= 2);
  if (onClaims && !alive) return "append_claim";
  if (intent.op === "record" && !open) return alive ? "challenge" : "append_claim";
  return intent.op;
}

/** A plausible tool call for the current state (and, for `record`, the investigation with the attempt attached). */
function planCall(
  investigation: Investigation,
  intent: Intent,
): { investigation: Investigation; name: string; args: unknown } {
  const { a, b, c, bogus } = intent;
  const call = (name: string, args: unknown) => ({ investigation, name, args });
  switch (productiveOp(investigation, intent)) {
    case "add_question":
      return call("add_question", {
        ...sub(
          pickQuestion(investigation, intent, ["pending", "in_progress"]),
          `${pick(QUESTION_TEXTS, b)}${c % 3 === 0 ? "" : ` (aspect ${c % 11})`}`,
          (a % 11) / 10,
        ),
        ...(c % 5 === 0 ? { blocks_parent: true } : {}),
        ...(c % 7 === 1 ? { depends_on: [pickQuestion(investigation, { ...intent, a: b })] } : {}),
        ...(c % 6 === 2 ? { kind: "hypothesis" } : {}),
      });
    case "frontier_next":
      return call("frontier_next", {});
    case "retry_question":
      return call("retry_question", {
        id: pickRetried(investigation, intent),
        new_query: `model X memory query ${b % 5}`,
        why: "inconclusive results",
        ...(c % 2 === 0 ? { assumption: "assume the vendor figure" } : {}),
      });
    case "resolve_question": {
      const claims = [pickClaim(investigation, b, bogus === 1), pickClaim(investigation, c, false)].slice(0, c % 3);
      return call("resolve_question", {
        id: pickQuestion(investigation, intent, ["in_progress", "pending"]),
        answer: `answer ${a}`,
        claim_ids: [...new Set(claims)],
        ...(b % 3 === 0 ? { reason: "no claim applies directly" } : {}),
      });
    }
    case "reopen_question":
      return call("reopen_question", { id: pickQuestion(investigation, intent, ["resolved"]), why: "new evidence" });
    case "set_priority":
      return call("set_priority", { id: pickQuestion(investigation, intent), priority: (b % 11) / 10, why: "re-rank" });
    case "prune_branch":
      return call("prune_branch", { id: pickQuestion(investigation, intent, ["pending", "blocked"]), reason: "moot" });
    case "append_claim": {
      const sources = [pickSource(a, bogus === 1), ...(b % 3 === 0 ? [] : [pickSource(b, false)])];
      return call("notes_append", {
        section: "unverified",
        entries: [
          {
            text: `Model X claim ${c % 17} about memory.`,
            source_ids: sources,
            check: "another source",
            // Sometimes a passage of a source the entry does not cite (refused).
            ...(c % 2 === 0 ? { passage_ids: [`${pickSource(c % 4 === 0 ? a : b + 1, false)}.p0${(b % 3) + 1}`] } : {}),
          },
        ],
      });
    }
    case "append_datapoint":
      return call("notes_append", {
        section: "datapoints",
        entries: [
          {
            text: "VRAM needed",
            value: String(a % 40),
            source_ids: [pickSource(b, bogus === 1)],
            ...(bogus === 2 ? {} : { unit: "GB" }),
          },
        ],
      });
    case "append_contradiction":
      return call("notes_append", {
        section: "contradictions",
        entries: [
          { claim_id: pickClaim(investigation, a, bogus === 1), other_claim_id: pickClaim(investigation, b, false) },
        ],
      });
    case "append_source":
      return call("notes_append", {
        section: "sources",
        entries: [{ source_id: pickSource(a, bogus === 1), note: `note ${b % 3}` }],
      });
    case "notes_update": {
      // After a challenge of a claim survived, an agent mostly goes on to verify it.
      const variant = verifiable(investigation) && c % 2 === 0 ? 3 : c % 7;
      const id = pickClaim(investigation, a, bogus === 1, variant === 3 || variant === 4);
      const source = pickSource(b, bogus === 2);
      const changes = [
        { add_source: { source_id: source, stance: "supports", passage_ids: [`${source}.p0${(c % 3) + 1}`] } },
        { add_source: { source_id: source, stance: "contradicts" } },
        { independence: "different publishers measured it separately" },
        {
          status: "VERIFIED",
          add_source: { source_id: source, stance: "supports" },
          independence: "different publishers measured it separately",
        },
        { status: "VERIFIED" },
        { status: "REFUTED", ...(c % 2 === 0 ? { add_source: { source_id: source, stance: "contradicts" } } : {}) },
        { status: "RETRACTED", ...(bogus === 3 ? {} : { reason: "misread" }) },
      ];
      return call("notes_update", { id, ...pick(changes, variant) });
    }
    case "challenge": {
      const strategy = pick(CHALLENGE_STRATEGIES, b) ?? "negation";
      const kind = c % 5;
      const target =
        kind <= 2
          ? { type: "claim", id: pickClaim(investigation, a, bogus === 1) }
          : kind === 3
            ? { type: "question_answer", id: pickQuestion(investigation, intent, ["resolved", "in_progress"]) }
            : { type: "conclusion", id: undefined };
      const earlier = pick(investigation.challenges, a)?.query;
      const query = bogus === 2 && earlier ? earlier : `${strategy} evidence against ${target.id ?? "conclusion"} ${a}`;
      return call("challenge", attack(target.id, strategy, query, target.type));
    }
    case "record": {
      const open = investigation.challenges.filter((challenge) => challenge.status === "open");
      const challenge = bogus === 1 ? undefined : pick(open, a);
      let next = investigation;
      if (challenge && !challenge.attempt && c % 5 !== 0) {
        const attempt = { questionId: challenge.questionId ?? "q_001", seq: 1 + (b % 3) };
        const attached = attachAttempt(investigation.challenges, challenge.id, attempt);
        if (attached.ok) next = deepFreeze({ ...investigation, challenges: attached.value.challenges });
      }
      const outcome = pick(OUTCOMES, b) ?? "survived";
      const withSources = outcome === "refuted" || outcome === "weakened" ? bogus !== 2 : c % 2 === 0;
      return {
        investigation: next,
        name: "record_challenge_result",
        args: {
          challenge_id: challenge?.id ?? "ch_999",
          outcome,
          evidence: bogus === 3 ? "" : "found counter-evidence",
          source_ids: withSources ? [pickSource(c, false)] : [],
          ...(a % 3 === 0 ? { result_claim_id: pickClaim(investigation, c, false) } : {}),
        },
      };
    }
    case "declare_atomic":
      return call("declare_atomic", { reason: "the objective is one figure" });
    case "notes_scratch":
      return call("notes_scratch", { text: `Conclusion: model X needs about ${a % 30} GB.` });
    case "view":
      return a % 2 === 0
        ? call("frontier_view", a % 4 === 0 ? {} : { id: pickQuestion(investigation, intent) })
        : call("challenges_view", b % 2 === 0 ? {} : { status: "open" });
    case "nonsense":
      return b % 2 === 0 ? call("web_search", { query: "x" }) : call("set_priority", { id: "q_001", priority: "high" });
  }
}

function expectAcyclic(investigation: Investigation): void {
  const edges = investigation.frontier.dependencies;
  edges.forEach((edge, index) => {
    const others = edges.filter((_, other) => other !== index);
    expect(wouldCycle(others, edge.questionId, edge.dependsOnId)).toBe(false);
  });
}

function expectInvariants(investigation: Investigation): void {
  const { frontier, ledger, config } = investigation;
  expectAcyclic(investigation);
  const replayed = replayStatuses(frontier.transitions);
  expect(replayed.size).toBe(frontier.questions.length);
  for (const question of frontier.questions) {
    expect(replayed.get(question.id)).toBe(question.status);
    expect(question.depth).toBeLessThanOrEqual(config.maxDepth);
  }
  expect(frontier.questions.length).toBeLessThanOrEqual(config.maxQuestions);
  for (const link of ledger.claimSources) {
    for (const passage of link.chunkIds) expect(HOST_CHUNKS.get(link.sourceId)).toContain(passage);
  }
  for (const claim of ledger.claims) {
    if (claim.status === "VERIFIED") {
      const keys = new Set(
        ledger.claimSources
          .filter((link) => link.claimId === claim.id && link.stance === "supports")
          .map((link) => ledger.sources.find((source) => source.id === link.sourceId))
          .flatMap((source) => (source ? [independenceKey(source)] : [])),
      );
      expect(keys.size).toBeGreaterThanOrEqual(config.minIndependentSources);
      const survived = investigation.challenges.filter(
        (challenge) =>
          challenge.targetType === "claim" &&
          challenge.targetId === claim.id &&
          challenge.status === "closed" &&
          challenge.outcome === "survived",
      );
      expect(survived.length).toBeGreaterThanOrEqual(config.minChallenges);
      expect(claim.independence.trim()).not.toBe("");
    }
    if (claim.status === "REFUTED") {
      const citing = frontier.questions.filter((q) => q.status === "resolved" && q.claimIds.includes(claim.id));
      expect(citing.map((question) => question.id)).toEqual([]);
    }
  }
  for (const challenge of investigation.challenges) {
    if (challenge.status === "closed" && challenge.outcome === "survived") expect(challenge.attempt).not.toBeNull();
  }
}

const reached = { runs: 0, verified: 0, refuted: 0, selected: 0, unresolvable: 0, spawned: 0, refusals: 0 };

function statusOf(investigation: Investigation, claimId: string): Claim["status"] | undefined {
  return investigation.ledger.claims.find((claim) => claim.id === claimId)?.status;
}

/** The caps the properties vary, so that small runs reach them. */
const configArbitrary: fc.Arbitrary<Partial<InvestigationConfig>> = fc.record({
  maxAttempts: fc.integer({ min: 2, max: 4 }),
  maxDepth: fc.integer({ min: 2, max: 3 }),
  maxQuestions: fc.integer({ min: 6, max: 40 }),
});

function ancestorsOf(investigation: Investigation, id: string): string[] {
  const parent = investigation.frontier.questions.find((question) => question.id === id)?.parentId;
  return parent ? [parent, ...ancestorsOf(investigation, parent)] : [];
}

function runSequence(config: Partial<InvestigationConfig>, intents: readonly Intent[]): void {
  let investigation = newInvestigation(config);
  const seen = { verified: false, refuted: false, selected: false, unresolvable: false, spawned: false };
  for (const intent of intents) {
    const planned = planCall(investigation, intent);
    const before = planned.investigation;
    const result = decide(before, { name: planned.name, args: planned.args }, CTX);
    if (!result.ok) {
      // `before` is deeply frozen: a refusal that had edited it in place would have thrown.
      expect(result.error.rule).not.toBe("");
      expect(result.error.message.trim()).not.toBe("");
      reached.refusals += 1;
      investigation = before;
      continue;
    }
    const after = deepFreeze(result.value.investigation);
    expectConsistent(before, planned.name, result.value);
    expect(result.value.text.trim()).not.toBe("");
    if (planned.name === "frontier_view" || planned.name === "challenges_view") expect(after).toBe(before);
    if (planned.name === "frontier_next") {
      const expandedRoot = before.frontier.questions.some((question) => question.parentId === "q_001");
      expect(expandedRoot || before.frontier.rootAtomic).toBe(true);
      seen.selected = true;
    }
    for (const claim of after.ledger.claims) {
      if (claim.status !== "REFUTED" || statusOf(before, claim.id) === "REFUTED") continue;
      seen.refuted = true;
      for (const question of before.frontier.questions) {
        if (question.status !== "resolved" || !question.claimIds.includes(claim.id)) continue;
        const reopened = result.value.mutation.transitions.find(
          (row) => row.questionId === question.id && row.fromStatus === "resolved",
        );
        expect(reopened).toMatchObject({ toStatus: "pending", trigger: "contradiction", actor: "code" });
      }
    }
    if (after.ledger.claims.some((claim) => claim.status === "VERIFIED")) seen.verified = true;
    if (after.frontier.questions.some((question) => question.status === "unresolvable")) seen.unresolvable = true;
    if (planned.name === "notes_append" && (planned.args as { section: string }).section === "contradictions") {
      const spawned = result.value.mutation.questions.filter(
        (question) => !before.frontier.questions.some((old) => old.id === question.id),
      );
      expect(spawned).toHaveLength(1);
      expect(spawned[0]?.priority).toBeGreaterThanOrEqual(0.9);
      const current = before.frontier.questions.find((question) => question.status === "in_progress");
      const parentId = spawned[0]?.parentId ?? "";
      if (current && current.depth < before.config.maxDepth) expect(parentId).toBe(current.id);
      else if (current) expect(ancestorsOf(before, current.id)).toContain(parentId);
      else expect(parentId).toBe("q_001");
      seen.spawned = true;
    }
    expectInvariants(after);
    investigation = after;
  }
  reached.runs += 1;
  for (const key of Object.keys(seen) as (keyof typeof seen)[]) if (seen[key]) reached[key] += 1;
}

describe("properties of decide over random tool-call sequences", () => {
  it("keeps the frontier, ledger and challenge invariants after every call, and reaches VERIFIED and REFUTED", () => {
    fc.assert(fc.property(configArbitrary, fc.array(intentArbitrary, { minLength: 10, maxLength: 90 }), runSequence), {
      numRuns: 300,
    });
    expect(reached.runs).toBeGreaterThanOrEqual(300);
    expect(reached.verified).toBeGreaterThan(0);
    expect(reached.refuted).toBeGreaterThan(0);
    expect(reached.selected).toBeGreaterThan(0);
    expect(reached.unresolvable).toBeGreaterThan(0);
    expect(reached.spawned).toBeGreaterThan(0);
    expect(reached.refusals).toBeGreaterThan(0);
  });

  it("refuses frontier_next in every sequence until the root is expanded or declared atomic", () => {
    fc.assert(
      fc.property(fc.array(intentArbitrary, { maxLength: 25 }), (intents) => {
        let investigation = newInvestigation();
        for (const intent of intents) {
          const planned = planCall(investigation, intent);
          const ready =
            planned.investigation.frontier.rootAtomic ||
            planned.investigation.frontier.questions.some((question) => question.parentId === "q_001");
          const next = decide(planned.investigation, { name: "frontier_next", args: {} }, CTX);
          if (!ready) expect(next.ok ? "accepted" : next.error.rule).toBe("broad-expansion-first");
          const result = decide(planned.investigation, { name: planned.name, args: planned.args }, CTX);
          investigation = result.ok ? deepFreeze(result.value.investigation) : planned.investigation;
        }
      }),
      { numRuns: 100 },
    );
  });
});
