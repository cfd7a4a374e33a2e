import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Result } from "../result.js";
import {
  type AddQuestionInput,
  actionable,
  addDependency,
  addQuestion,
  applyCleanups,
  applyFrontierMutation,
  attemptCount,
  counts,
  createFrontier,
  declareAtomic,
  type FrontierChange,
  type FrontierContext,
  findQuestion,
  frontierNext,
  isDeclaredAtomic,
  normalizeQuestion,
  pruneBranch,
  rankActionable,
  recordAttempt,
  reopenQuestion,
  replayStatuses,
  resolveQuestion,
  retryQuestion,
  selectNext,
  setPriority,
  wouldCycle,
} from "./frontier.js";
import {
  DEFAULT_INVESTIGATION_CONFIG,
  type Frontier,
  type InvestigationConfig,
  type Question,
  type Rejection,
} from "./types.js";

const config: InvestigationConfig = { ...DEFAULT_INVESTIGATION_CONFIG };
const ctx: FrontierContext = { now: "2026-01-01T00:00:00.000Z", actor: "agent" };
const code: FrontierContext = { now: "2026-01-01T00:00:01.000Z", actor: "code" };

/** The change of a result that must succeed, checked against "old frontier + mutation". */
function must<T>(before: Frontier | undefined, result: Result<FrontierChange<T>, Rejection>): FrontierChange<T> {
  if (!result.ok) throw new Error(`unexpected rejection ${result.error.rule}: ${result.error.message}`);
  const { frontier, mutation } = result.value;
  const base = before ?? { ...frontier, questions: [], dependencies: [], attempts: [], transitions: [] };
  expect(applyFrontierMutation({ ...base, rootAtomic: frontier.rootAtomic }, mutation)).toEqual(frontier);
  expect(mutation.sources).toEqual([]);
  expect(mutation.claims).toEqual([]);
  return result.value;
}

function rejected<T>(result: Result<T, Rejection>): Rejection {
  if (result.ok) throw new Error("expected a rejection");
  return result.error;
}

const child = (parentId: string, question: string, extra: Partial<AddQuestionInput> = {}): AddQuestionInput => ({
  parentId,
  question,
  rationale: `why ${question}`,
  priority: 0.5,
  validationCriteria: `criteria for ${question}`,
  targetSources: ["benchmarks"],
  ...extra,
});

function add(frontier: Frontier, input: AddQuestionInput, at = ctx): Frontier {
  return must(frontier, addQuestion(frontier, input, config, at)).frontier;
}

const root = (): Frontier =>
  must(undefined, createFrontier("How fast is X?", ctx, { validationCriteria: "a figure with a source" })).frontier;

/** Root with q_002 (P 0.5), q_003 (P 0.8), q_004 (P 0.8, depth 2 under q_002). */
function sample(): Frontier {
  let frontier = root();
  frontier = add(frontier, child("q_001", "What is the latency of X?"));
  frontier = add(frontier, child("q_001", "What is the throughput of X?", { priority: 0.8 }));
  frontier = add(frontier, child("q_002", "Which benchmark measures X?", { priority: 0.8 }));
  return frontier;
}

const q = (frontier: Frontier, id: string): Question => {
  const question = findQuestion(frontier, id);
  if (!question) throw new Error(`no ${id}`);
  return question;
};

describe("createFrontier", () => {
  it("creates the root q_001 at depth 0, priority 1, pending, with its creation transition", () => {
    const { frontier, mutation, question } = must(undefined, createFrontier("How fast is X?", ctx));
    expect(question).toMatchObject({ id: "q_001", parentId: null, depth: 0, priority: 1, status: "pending" });
    expect(frontier.objective).toBe("How fast is X?");
    expect(frontier.rootAtomic).toBe(false);
    expect(mutation.questions).toEqual([question]);
    expect(mutation.transitions).toEqual([
      expect.objectContaining({ questionId: "q_001", seq: 1, fromStatus: "", toStatus: "pending", trigger: "created" }),
    ]);
  });

  it("rejects an empty objective", () => {
    expect(rejected(createFrontier("  ", ctx)).rule).toBe("objective-required");
  });

  it("stamps the state sequence on transitions", () => {
    const { mutation } = must(undefined, createFrontier("X", { ...ctx, stateSeq: 7 }));
    expect(mutation.transitions[0]?.stateSeq).toBe(7);
  });
});

describe("normalizeQuestion", () => {
  it("lower-cases, removes punctuation and extra whitespace, drops articles", () => {
    expect(normalizeQuestion("  What is THE latency of   a U-Net?! ")).toBe("what is latency of unet");
    expect(normalizeQuestion("An apple, the pear")).toBe("apple pear");
  });
});

describe("addQuestion", () => {
  it("assigns the next id and depth parent+1, defaults kind, logs the creation", () => {
    const frontier = sample();
    const result = must(
      frontier,
      addQuestion(frontier, child("q_004", "Where is the benchmark published?"), config, ctx),
    );
    expect(result.question).toMatchObject({ id: "q_005", parentId: "q_004", depth: 3, kind: "question" });
    expect(result.mutation.transitions).toEqual([
      expect.objectContaining({ questionId: "q_005", seq: 1, fromStatus: "", trigger: "created", causedBy: "q_004" }),
    ]);
    expect(result.mutation.dependencies).toEqual([]);
  });

  it("rejects an unknown parent, a pruned parent, an empty question or criteria, and a priority outside 0..1", () => {
    let frontier = sample();
    expect(rejected(addQuestion(frontier, child("q_099", "New?"), config, ctx))).toEqual({
      rule: "unknown-question",
      message: 'Unknown parent id "q_099": use an id shown in the frontier summary or frontier_view.',
    });
    frontier = must(frontier, pruneBranch(frontier, { id: "q_003", reason: "irrelevant" }, ctx)).frontier;
    expect(rejected(addQuestion(frontier, child("q_003", "New?"), config, ctx)).rule).toBe("parent-pruned");
    expect(rejected(addQuestion(frontier, child("q_001", " "), config, ctx)).rule).toBe("question-required");
    const noCriteria = child("q_001", "New?", { validationCriteria: "" });
    expect(rejected(addQuestion(frontier, noCriteria, config, ctx)).rule).toBe("criteria-required");
    for (const priority of [-0.1, 1.5, Number.NaN]) {
      const error = rejected(addQuestion(frontier, child("q_001", "New?", { priority }), config, ctx));
      expect(error.rule).toBe("priority-range");
      expect(error.message).toContain("give a number from 0");
    }
  });

  it("rejects a node deeper than max_depth with the seed's message", () => {
    let frontier = sample();
    frontier = add(frontier, child("q_004", "Depth three?"));
    expect(rejected(addQuestion(frontier, child("q_005", "Depth four?"), config, ctx))).toEqual({
      rule: "depth-cap",
      message: "pruned by depth cap; record it as an open gap in notes instead",
    });
  });

  it("rejects a near-duplicate of any question, naming it", () => {
    const frontier = sample();
    const error = rejected(addQuestion(frontier, child("q_003", "what is  the LATENCY of X"), config, ctx));
    expect(error.rule).toBe("duplicate-question");
    expect(error.message).toContain("Near-duplicate of q_002");
    expect(rejected(addQuestion(frontier, child("q_002", "How fast is X"), config, ctx)).message).toContain("q_001");
  });

  it("enforces max_questions per run, pruned ones included, and says to resolve or prune", () => {
    const small = { ...config, maxQuestions: 4 };
    const frontier = sample();
    const error = rejected(addQuestion(frontier, child("q_001", "One more?"), small, ctx));
    expect(error.rule).toBe("max-questions");
    expect(error.message).toMatch(/max_questions \(4\).*resolve them, or prune_branch/);
  });

  it("checks depends_on: ids must exist and not be pruned or unresolvable", () => {
    let frontier = sample();
    const unknownDep = child("q_001", "New?", { dependsOn: ["q_042"] });
    expect(rejected(addQuestion(frontier, unknownDep, config, ctx)).message).toContain('depends_on id "q_042"');
    frontier = must(frontier, pruneBranch(frontier, { id: "q_003", reason: "off topic" }, ctx)).frontier;
    const error = rejected(addQuestion(frontier, child("q_001", "New?", { dependsOn: ["q_003"] }), config, ctx));
    expect(error).toEqual({
      rule: "dependency-failed",
      message: "q_003 is pruned: a dependency on it can never be met. Depend on an open question instead.",
    });
  });

  it("adds the dependency edges, deduplicated", () => {
    const frontier = sample();
    const input = child("q_001", "New?", { dependsOn: ["q_002", "q_003", "q_002"] });
    const { mutation } = must(frontier, addQuestion(frontier, input, config, ctx));
    expect(mutation.dependencies).toEqual([
      { questionId: "q_005", dependsOnId: "q_002" },
      { questionId: "q_005", dependsOnId: "q_003" },
    ]);
  });

  it("makes an unblocking child a dependency of its parent with at least the parent's priority", () => {
    const frontier = sample();
    const input = child("q_003", "Is the throughput figure per core?", { priority: 0.3, unblocksParent: true });
    const { question, mutation, frontier: after } = must(frontier, addQuestion(frontier, input, config, ctx));
    expect(question.priority).toBe(0.8);
    expect(mutation.dependencies).toEqual([{ questionId: "q_003", dependsOnId: "q_005" }]);
    expect(actionable(after, "q_003")).toBe(false);
    expect(rankActionable(after).map((entry) => entry.question.id)).toEqual(["q_005", "q_004", "q_002"]);
  });

  it("rejects an unblocking child that would close a cycle", () => {
    const frontier = sample();
    const input = child("q_002", "Cycle?", { dependsOn: ["q_002"], unblocksParent: true });
    const error = rejected(addQuestion(frontier, input, config, ctx));
    expect(error.rule).toBe("cycle");
    expect(error.message).toContain("q_002 → q_005 → q_002");
  });

  it("rejects an unblocking child of a closed parent", () => {
    let frontier = sample();
    frontier = must(
      frontier,
      resolveQuestion(frontier, { id: "q_003", answer: "10/s", claimIds: ["c_001"] }, ctx),
    ).frontier;
    const input = child("q_003", "Later?", { unblocksParent: true });
    expect(rejected(addQuestion(frontier, input, config, ctx)).rule).toBe("invalid-status");
  });
});

describe("dependencies", () => {
  it("wouldCycle detects self-edges and transitive cycles", () => {
    const edges = [
      { questionId: "a", dependsOnId: "b" },
      { questionId: "b", dependsOnId: "c" },
    ];
    expect(wouldCycle(edges, "a", "a")).toBe(true);
    expect(wouldCycle(edges, "c", "a")).toBe(true);
    expect(wouldCycle(edges, "a", "c")).toBe(false);
  });

  it("addDependency adds a DAG edge and rejects cycles with the path", () => {
    let frontier = sample();
    const result = must(frontier, addDependency(frontier, "q_002", "q_003", ctx));
    expect(result.mutation.dependencies).toEqual([{ questionId: "q_002", dependsOnId: "q_003" }]);
    expect(result.mutation.questions).toEqual([]);
    frontier = result.frontier;
    frontier = must(frontier, addDependency(frontier, "q_003", "q_004", ctx)).frontier;
    const error = rejected(addDependency(frontier, "q_004", "q_002", ctx));
    expect(error.rule).toBe("cycle");
    expect(error.message).toBe(
      '"q_004 depends on q_002" would close the dependency cycle q_004 → q_002 → q_003 → q_004; dependencies must ' +
        "form a DAG: drop this edge, or make the prerequisite a separate question.",
    );
    expect(rejected(addDependency(frontier, "q_002", "q_002", ctx)).rule).toBe("cycle");
  });

  it("addDependency rejects unknown ids, duplicates, closed dependants and failed targets", () => {
    let frontier = sample();
    expect(rejected(addDependency(frontier, "q_009", "q_002", ctx)).rule).toBe("unknown-question");
    expect(rejected(addDependency(frontier, "q_002", "q_009", ctx)).rule).toBe("unknown-question");
    frontier = must(frontier, addDependency(frontier, "q_002", "q_003", ctx)).frontier;
    expect(rejected(addDependency(frontier, "q_002", "q_003", ctx)).rule).toBe("duplicate-dependency");
    frontier = must(frontier, pruneBranch(frontier, { id: "q_004", reason: "moot" }, ctx)).frontier;
    expect(rejected(addDependency(frontier, "q_004", "q_003", ctx)).rule).toBe("invalid-status");
    expect(rejected(addDependency(frontier, "q_003", "q_004", ctx)).rule).toBe("dependency-failed");
  });
});

describe("selection", () => {
  it("picks the highest priority, then lower depth, then the older one", () => {
    const frontier = sample();
    // q_003 and q_004 share P 0.8; q_003 is broader (depth 1).
    expect(selectNext(frontier)?.id).toBe("q_003");
    const equal = add(root(), child("q_001", "First?"));
    const both = add(equal, child("q_001", "Second?"));
    expect(selectNext(both)?.id).toBe("q_002");
  });

  it("considers an unresolved dependency of the top question first, at the dependant's priority", () => {
    let frontier = sample();
    frontier = add(frontier, child("q_001", "Critical?", { priority: 0.95 }));
    frontier = add(frontier, child("q_001", "Prerequisite?", { priority: 0.1 }));
    frontier = add(frontier, child("q_001", "Deeper prerequisite?", { priority: 0.1 }));
    frontier = must(frontier, addDependency(frontier, "q_005", "q_006", ctx)).frontier;
    frontier = must(frontier, addDependency(frontier, "q_006", "q_007", ctx)).frontier;
    expect(rankActionable(frontier)[0]).toMatchObject({ effectivePriority: 0.95, raisedBy: "q_005" });
    expect(selectNext(frontier)?.id).toBe("q_007");
  });

  it("returns undefined when nothing is actionable; actionable needs pending and resolved dependencies", () => {
    let frontier = root();
    frontier = must(frontier, declareAtomic(frontier, "one fact", ctx)).frontier;
    frontier = must(frontier, frontierNext(frontier, config, ctx)).frontier;
    expect(selectNext(frontier)).toBeUndefined();
    expect(actionable(frontier, "q_001")).toBe(false);
    expect(actionable(frontier, "q_404")).toBe(false);
  });
});

describe("frontierNext", () => {
  it("is refused until the root has a child (broad expansion first)", () => {
    const frontier = root();
    const error = rejected(frontierNext(frontier, config, ctx));
    expect(error.rule).toBe("broad-expansion-first");
    expect(error.message).toContain('add_question(parent_id: "q_001"');
    expect(error.message).toContain("atomic");
  });

  it("is allowed once the objective is declared atomic", () => {
    let frontier = root();
    const atomic = must(frontier, declareAtomic(frontier, "a single figure", ctx));
    expect(atomic.frontier.rootAtomic).toBe(true);
    // Persisted on the root's row, so a reloaded frontier knows it too.
    expect(atomic.mutation.questions.map((question) => question.exemption)).toEqual(["atomic: a single figure"]);
    expect(isDeclaredAtomic(atomic.mutation.questions)).toBe(true);
    frontier = atomic.frontier;
    expect(must(frontier, frontierNext(frontier, config, ctx)).question.id).toBe("q_001");
  });

  it("declareAtomic is refused when the root has children or without a reason", () => {
    expect(rejected(declareAtomic(sample(), "x", ctx)).rule).toBe("root-has-children");
    expect(rejected(declareAtomic(root(), " ", ctx)).rule).toBe("reason-required");
  });

  it("marks the selected question in_progress with a `selected` transition", () => {
    const frontier = sample();
    const { question, mutation } = must(frontier, frontierNext(frontier, config, ctx));
    expect(question).toMatchObject({ id: "q_003", status: "in_progress" });
    expect(mutation.transitions).toEqual([
      expect.objectContaining({
        questionId: "q_003",
        seq: 2,
        fromStatus: "pending",
        toStatus: "in_progress",
        trigger: "selected",
        actor: "agent",
      }),
    ]);
  });

  it("refuses a selection beyond max_parallel", () => {
    let frontier = sample();
    frontier = must(frontier, frontierNext(frontier, config, ctx)).frontier;
    // The same sub-agent cannot hold two; another is bounded by max_parallel.
    const error = rejected(frontierNext(frontier, { maxParallel: 2 }, ctx));
    expect(error.rule).toBe("max-parallel");
    expect(error.message).toContain("q_003 already in progress: resolve it");
    const second = { ...ctx, agent: 2, runId: 7 };
    expect(rejected(frontierNext(frontier, config, second)).message).toContain(
      "q_003 already in progress (max_parallel 1)",
    );
    const claimed = must(frontier, frontierNext(frontier, { maxParallel: 2 }, second)).question;
    expect(claimed).toMatchObject({ id: "q_004", status: "in_progress", agent: 2, claimedBy: 7 });
  });

  it("releases the claim when the question leaves in_progress", () => {
    let frontier = sample();
    const selected = must(frontier, frontierNext(frontier, config, { ...ctx, agent: 1, runId: 7 }));
    expect(selected.question).toMatchObject({ agent: 1, claimedBy: 7 });
    frontier = selected.frontier;
    const retried = must(
      frontier,
      retryQuestion(
        frontier,
        { id: selected.question.id, newQuery: "another query", why: "nothing found" },
        config,
        ctx,
      ),
    );
    expect(findQuestion(retried.frontier, selected.question.id)).toMatchObject({
      status: "pending",
      agent: 0,
      claimedBy: null,
    });
  });

  it("raises the dependency it selects first (reprioritized, actor code) before selecting it", () => {
    let frontier = sample();
    frontier = must(frontier, addDependency(frontier, "q_003", "q_002", ctx)).frontier;
    const { question, mutation } = must(frontier, frontierNext(frontier, config, ctx));
    expect(question).toMatchObject({ id: "q_002", priority: 0.8, status: "in_progress" });
    expect(
      mutation.transitions.map((row) => [row.trigger, row.actor, row.fromStatus, row.toStatus, row.causedBy]),
    ).toEqual([
      ["reprioritized", "code", "pending", "pending", "q_003"],
      ["selected", "agent", "pending", "in_progress", ""],
    ]);
    expect(mutation.questions).toHaveLength(1);
  });

  it("says when nothing is actionable, with the pending and blocked counts", () => {
    let frontier = sample();
    frontier = must(frontier, addDependency(frontier, "q_003", "q_004", ctx)).frontier;
    frontier = must(frontier, pruneBranch(frontier, { id: "q_002", reason: "moot" }, ctx)).frontier;
    expect(counts(frontier)).toMatchObject({ pending: 1, blocked: 1, pruned: 2 });
    const error = rejected(frontierNext(frontier, config, ctx));
    expect(error.rule).toBe("nothing-actionable");
    expect(error.message).toContain(
      "No actionable question: 0 pending (each waiting on an unresolved dependency), 1 blocked.",
    );
    expect(error.message).toContain("finish_exploration");
  });
});

describe("attempts and retries", () => {
  it("recordAttempt appends an attempt with a per-question seq and no transition", () => {
    let frontier = sample();
    const first = must(
      frontier,
      recordAttempt(frontier, { questionId: "q_002", query: "x latency", tool: "web_search", outcome: "none" }, ctx),
    );
    expect(first.attempt.seq).toBe(1);
    expect(first.mutation.transitions).toEqual([]);
    expect(first.mutation.questions).toEqual([]);
    frontier = first.frontier;
    const second = must(
      frontier,
      recordAttempt(frontier, { questionId: "q_002", query: "x p99", tool: "fetch_page", outcome: "ok" }, ctx),
    );
    expect(second.attempt.seq).toBe(2);
    expect(attemptCount(second.frontier, "q_002")).toBe(2);
    expect(
      rejected(recordAttempt(frontier, { questionId: "q_404", query: "q", tool: "t", outcome: "" }, ctx)).rule,
    ).toBe("unknown-question");
    expect(
      rejected(recordAttempt(frontier, { questionId: "q_002", query: " ", tool: "t", outcome: "" }, ctx)).rule,
    ).toBe("query-required");
  });

  it("attempts count distinct formulations in the attempt log", () => {
    let frontier = sample();
    for (const query of ["X latency", "x  LATENCY!", "X p99"]) {
      frontier = must(
        frontier,
        recordAttempt(frontier, { questionId: "q_002", query, tool: "web_search", outcome: "" }, ctx),
      ).frontier;
    }
    expect(attemptCount(frontier, "q_002")).toBe(2);
  });

  it("retry logs the new query and returns the question to pending", () => {
    let frontier = sample();
    frontier = must(frontier, frontierNext(frontier, config, ctx)).frontier;
    const result = must(
      frontier,
      retryQuestion(frontier, { id: "q_003", newQuery: "X ops per second", why: "no figure" }, config, ctx),
    );
    expect(result.question.status).toBe("pending");
    expect(result.mutation.attempts).toEqual([
      expect.objectContaining({ questionId: "q_003", seq: 1, query: "X ops per second", outcome: "no figure" }),
    ]);
    expect(result.mutation.transitions).toEqual([
      expect.objectContaining({
        seq: 3,
        fromStatus: "in_progress",
        toStatus: "pending",
        trigger: "retried",
        attempts: 1,
      }),
    ]);
  });

  it("rejects a query that repeats an earlier one, naming it", () => {
    let frontier = sample();
    frontier = must(
      frontier,
      retryQuestion(frontier, { id: "q_003", newQuery: "X ops per second", why: "w" }, config, ctx),
    ).frontier;
    const error = rejected(
      retryQuestion(frontier, { id: "q_003", newQuery: "the x OPS per second?", why: "w" }, config, ctx),
    );
    expect(error.rule).toBe("query-not-distinct");
    expect(error.message).toContain('repeats the earlier query "X ops per second" of q_003');
    expect(rejected(retryQuestion(frontier, { id: "q_003", newQuery: "", why: "w" }, config, ctx)).rule).toBe(
      "query-required",
    );
  });

  it("rejects a retry of a closed question", () => {
    let frontier = sample();
    frontier = must(
      frontier,
      resolveQuestion(frontier, { id: "q_003", answer: "a", claimIds: ["c_001"] }, ctx),
    ).frontier;
    const error = rejected(retryQuestion(frontier, { id: "q_003", newQuery: "q", why: "w" }, config, ctx));
    expect(error.rule).toBe("invalid-status");
    expect(error.message).toContain("reopen_question");
    expect(rejected(retryQuestion(frontier, { id: "q_404", newQuery: "q", why: "w" }, config, ctx)).rule).toBe(
      "unknown-question",
    );
  });

  it("requires an assumption on the last attempt, then marks the question unresolvable and blocks dependants", () => {
    const small = { ...config, maxAttempts: 2 };
    let frontier = sample();
    frontier = must(frontier, addDependency(frontier, "q_002", "q_003", ctx)).frontier;
    frontier = must(
      frontier,
      retryQuestion(frontier, { id: "q_003", newQuery: "first", why: "w" }, small, ctx),
    ).frontier;
    const error = rejected(retryQuestion(frontier, { id: "q_003", newQuery: "second", why: "w" }, small, ctx));
    expect(error).toEqual({
      rule: "assumption-required",
      message:
        "This is the last attempt for q_003 (max_attempts 2): it becomes unresolvable. Call retry_question again " +
        "with an assumption: what the report assumes in place of the missing answer.",
    });
    const input = { id: "q_003", newQuery: "second", why: "still nothing", assumption: "assume 10/s" };
    const { question, mutation } = must(frontier, retryQuestion(frontier, input, small, code));
    expect(question).toMatchObject({ status: "unresolvable", answer: "assume 10/s" });
    expect(
      mutation.transitions.map((row) => [row.questionId, row.trigger, row.actor, row.toStatus, row.causedBy]),
    ).toEqual([
      ["q_003", "attempts_exhausted", "code", "unresolvable", ""],
      ["q_002", "dependency_failed", "code", "blocked", "q_003"],
    ]);
    expect(mutation.attempts).toHaveLength(1);
    expect(mutation.questions.map((row) => row.id)).toEqual(["q_003", "q_002"]);
  });
});

describe("resolveQuestion", () => {
  it("sets resolved with the answer and claim ids", () => {
    const frontier = sample();
    const { question, mutation } = must(
      frontier,
      resolveQuestion(frontier, { id: "q_002", answer: "3 ms", claimIds: ["c_001"] }, ctx),
    );
    expect(question).toMatchObject({ status: "resolved", answer: "3 ms", claimIds: ["c_001"], exemption: "" });
    expect(mutation.transitions).toEqual([expect.objectContaining({ trigger: "resolved", toStatus: "resolved" })]);
  });

  it("rejects a closed or unknown question, an empty answer, missing claims without a reason", () => {
    let frontier = sample();
    expect(rejected(resolveQuestion(frontier, { id: "q_404", answer: "a", claimIds: ["c"] }, ctx)).rule).toBe(
      "unknown-question",
    );
    expect(rejected(resolveQuestion(frontier, { id: "q_002", answer: " ", claimIds: ["c"] }, ctx)).rule).toBe(
      "answer-required",
    );
    const error = rejected(resolveQuestion(frontier, { id: "q_002", answer: "a", claimIds: [] }, ctx));
    expect(error.rule).toBe("claims-required");
    expect(error.message).toContain("give a reason");
    const exempt = must(
      frontier,
      resolveQuestion(frontier, { id: "q_002", answer: "a", claimIds: [], reason: "no source states it" }, ctx),
    );
    expect(exempt.question.exemption).toBe("no source states it");
    frontier = exempt.frontier;
    expect(rejected(resolveQuestion(frontier, { id: "q_002", answer: "a", claimIds: ["c"] }, ctx)).rule).toBe(
      "invalid-status",
    );
  });

  it("requires validation criteria (a root has default ones unless it was given none)", () => {
    expect(must(undefined, createFrontier("X?", ctx)).frontier.questions[0]?.validationCriteria).toContain(
      "an answer to the objective",
    );
    let frontier = must(undefined, createFrontier("X?", ctx, { validationCriteria: "" })).frontier;
    frontier = must(frontier, declareAtomic(frontier, "atomic", ctx)).frontier;
    expect(rejected(resolveQuestion(frontier, { id: "q_001", answer: "a", claimIds: ["c"] }, ctx)).rule).toBe(
      "criteria-required",
    );
  });

  it("requires a confirming and a refuting search for a hypothesis, or a reason", () => {
    let frontier = add(sample(), child("q_001", "X is fast because of caching", { kind: "hypothesis" }));
    const input = { id: "q_005", answer: "confirmed", claimIds: ["c_001"] };
    const both = rejected(resolveQuestion(frontier, input, ctx));
    expect(both.rule).toBe("hypothesis-both-sides");
    expect(both.message).toContain("lacks a confirming search and a refuting (challenge) search");
    frontier = must(
      frontier,
      recordAttempt(frontier, { questionId: "q_005", query: "x cache", tool: "web_search", outcome: "" }, ctx),
    ).frontier;
    expect(rejected(resolveQuestion(frontier, input, ctx)).message).toContain("lacks a refuting (challenge) search in");
    const withReason = must(
      frontier,
      resolveQuestion(frontier, { ...input, reason: "nothing refutes a tautology" }, ctx),
    );
    expect(withReason.question.exemption).toBe("nothing refutes a tautology");
    frontier = must(
      frontier,
      recordAttempt(frontier, { questionId: "q_005", query: "x not cache", tool: "challenge", outcome: "" }, ctx),
    ).frontier;
    expect(must(frontier, resolveQuestion(frontier, input, ctx)).question.status).toBe("resolved");
  });
});

describe("reopenQuestion", () => {
  const resolved = (): Frontier => {
    const frontier = sample();
    return must(frontier, resolveQuestion(frontier, { id: "q_002", answer: "3 ms", claimIds: ["c_001"] }, ctx))
      .frontier;
  };

  it("returns a resolved question to pending with priority +0.2, reopens+1", () => {
    const frontier = resolved();
    const { question, mutation } = must(
      frontier,
      reopenQuestion(frontier, { id: "q_002", why: "c_004 contradicts it" }, ctx),
    );
    expect(question).toMatchObject({ status: "pending", priority: 0.7, reopens: 1 });
    expect(mutation.transitions).toEqual([
      expect.objectContaining({ trigger: "reopened", fromStatus: "resolved", priority: 0.7 }),
    ]);
  });

  it("never lowers the priority and caps it at 1", () => {
    const frontier = resolved();
    expect(
      must(frontier, reopenQuestion(frontier, { id: "q_002", why: "w", priority: 0.1 }, ctx)).question.priority,
    ).toBe(0.5);
    expect(
      must(frontier, reopenQuestion(frontier, { id: "q_002", why: "w", priority: 0.9 }, ctx)).question.priority,
    ).toBe(0.9);
    const top = must(frontier, setPriority(frontier, { id: "q_002", priority: 0.95, why: "w" }, ctx)).frontier;
    expect(must(top, reopenQuestion(top, { id: "q_002", why: "w" }, ctx)).question.priority).toBe(1);
  });

  it("uses `contradiction` when code reopens it for a claim or challenge, or when told", () => {
    const frontier = resolved();
    const byCode = must(frontier, reopenQuestion(frontier, { id: "q_002", why: "refuted", causedBy: "ch_003" }, code));
    expect(byCode.mutation.transitions[0]).toMatchObject({
      trigger: "contradiction",
      actor: "code",
      causedBy: "ch_003",
    });
    const told = must(frontier, reopenQuestion(frontier, { id: "q_002", why: "w", trigger: "contradiction" }, ctx));
    expect(told.mutation.transitions[0]?.trigger).toBe("contradiction");
  });

  it("rejects a question that is not resolved, an empty why, a bad priority", () => {
    const frontier = resolved();
    const error = rejected(reopenQuestion(frontier, { id: "q_003", why: "w" }, ctx));
    expect(error).toEqual({
      rule: "invalid-status",
      message: "q_003 is pending; this applies only to a resolved question. Only a resolved answer can be reopened.",
    });
    expect(rejected(reopenQuestion(frontier, { id: "q_002", why: " " }, ctx)).rule).toBe("reason-required");
    expect(rejected(reopenQuestion(frontier, { id: "q_002", why: "w", priority: 2 }, ctx)).rule).toBe("priority-range");
    expect(rejected(reopenQuestion(frontier, { id: "q_404", why: "w" }, ctx)).rule).toBe("unknown-question");
  });
});

describe("setPriority", () => {
  it("raising a question raises the floor of its transitive open dependencies", () => {
    let frontier = sample();
    frontier = must(frontier, addDependency(frontier, "q_003", "q_002", ctx)).frontier;
    frontier = must(frontier, addDependency(frontier, "q_002", "q_004", ctx)).frontier;
    const { mutation } = must(frontier, setPriority(frontier, { id: "q_003", priority: 0.9, why: "core" }, ctx));
    expect(
      mutation.transitions.map((row) => [row.questionId, row.actor, row.priority, row.causedBy, row.trigger]),
    ).toEqual([
      ["q_003", "agent", 0.9, "", "reprioritized"],
      ["q_002", "code", 0.9, "q_003", "reprioritized"],
      ["q_004", "code", 0.9, "q_003", "reprioritized"],
    ]);
    expect(mutation.transitions.every((row) => row.fromStatus === row.toStatus)).toBe(true);
  });

  it("lowering lowers nothing else", () => {
    let frontier = sample();
    frontier = must(frontier, addDependency(frontier, "q_003", "q_004", ctx)).frontier;
    const { mutation } = must(frontier, setPriority(frontier, { id: "q_003", priority: 0.1, why: "minor" }, ctx));
    expect(mutation.questions.map((row) => row.id)).toEqual(["q_003"]);
  });

  it("rejects a bad priority, no reason, no change, a pruned question", () => {
    let frontier = sample();
    expect(rejected(setPriority(frontier, { id: "q_003", priority: 1.2, why: "w" }, ctx)).rule).toBe("priority-range");
    expect(rejected(setPriority(frontier, { id: "q_003", priority: 0.2, why: "" }, ctx)).rule).toBe("reason-required");
    expect(rejected(setPriority(frontier, { id: "q_003", priority: 0.8, why: "w" }, ctx)).rule).toBe(
      "priority-unchanged",
    );
    expect(rejected(setPriority(frontier, { id: "q_404", priority: 0.8, why: "w" }, ctx)).rule).toBe(
      "unknown-question",
    );
    frontier = must(frontier, pruneBranch(frontier, { id: "q_003", reason: "moot" }, ctx)).frontier;
    expect(rejected(setPriority(frontier, { id: "q_003", priority: 0.2, why: "w" }, ctx)).rule).toBe("invalid-status");
  });
});

describe("pruneBranch", () => {
  it("prunes the question and its pending/blocked descendants, keeps resolved ones, one transition each", () => {
    let frontier = sample();
    frontier = add(frontier, child("q_004", "Grandchild one?"));
    frontier = add(frontier, child("q_004", "Grandchild two?"));
    frontier = must(frontier, resolveQuestion(frontier, { id: "q_004", answer: "a", claimIds: ["c"] }, ctx)).frontier;
    frontier = must(frontier, resolveQuestion(frontier, { id: "q_006", answer: "b", claimIds: ["c"] }, ctx)).frontier;
    const {
      mutation,
      pruned,
      frontier: after,
    } = must(frontier, pruneBranch(frontier, { id: "q_002", reason: "deprecated" }, ctx));
    expect(pruned).toEqual(["q_002", "q_005"]);
    expect(mutation.transitions.map((row) => [row.questionId, row.trigger, row.actor, row.causedBy])).toEqual([
      ["q_002", "pruned_scope", "agent", ""],
      ["q_005", "pruned_branch", "code", "q_002"],
    ]);
    expect(q(after, "q_005").answer).toBe("deprecated");
    expect(q(after, "q_004").status).toBe("resolved");
    expect(q(after, "q_006").status).toBe("resolved");
  });

  it("blocks the dependants of a pruned question in the same mutation", () => {
    let frontier = sample();
    frontier = must(frontier, addDependency(frontier, "q_003", "q_004", ctx)).frontier;
    const { mutation } = must(
      frontier,
      pruneBranch(frontier, { id: "q_004", reason: "moot", trigger: "pruned_depth" }, ctx),
    );
    expect(mutation.transitions.map((row) => [row.questionId, row.trigger, row.toStatus])).toEqual([
      ["q_004", "pruned_depth", "pruned"],
      ["q_003", "dependency_failed", "blocked"],
    ]);
  });

  it("rejects the root, a closed question, an empty reason", () => {
    let frontier = sample();
    expect(rejected(pruneBranch(frontier, { id: "q_001", reason: "r" }, ctx))).toEqual({
      rule: "root-not-prunable",
      message: "q_001 is the objective and cannot be pruned: prune its sub-questions, or call finalize_report.",
    });
    expect(rejected(pruneBranch(frontier, { id: "q_002", reason: "" }, ctx)).rule).toBe("reason-required");
    expect(rejected(pruneBranch(frontier, { id: "q_404", reason: "r" }, ctx)).rule).toBe("unknown-question");
    frontier = must(frontier, pruneBranch(frontier, { id: "q_002", reason: "r" }, ctx)).frontier;
    expect(rejected(pruneBranch(frontier, { id: "q_002", reason: "r" }, ctx)).rule).toBe("invalid-status");
  });
});

describe("cleanups and replay", () => {
  it("unblocks a blocked question with no failed dependency left", () => {
    let frontier = sample();
    frontier = must(frontier, addDependency(frontier, "q_003", "q_004", ctx)).frontier;
    frontier = must(frontier, pruneBranch(frontier, { id: "q_004", reason: "moot" }, ctx)).frontier;
    const rewritten: Frontier = { ...frontier, dependencies: [] }; // the edge dropped by a rewrite
    const { frontier: after, mutation } = applyCleanups(rewritten, code);
    expect(q(after, "q_003").status).toBe("pending");
    expect(mutation.transitions).toEqual([
      expect.objectContaining({ questionId: "q_003", trigger: "dependency_met", actor: "code", fromStatus: "blocked" }),
    ]);
    expect(applyCleanups(after, code).mutation.transitions).toEqual([]);
  });

  it("replayStatuses takes each question's latest transition", () => {
    let frontier = sample();
    frontier = must(frontier, frontierNext(frontier, config, ctx)).frontier;
    frontier = must(frontier, resolveQuestion(frontier, { id: "q_003", answer: "a", claimIds: ["c"] }, ctx)).frontier;
    const statuses = replayStatuses([...frontier.transitions].reverse());
    expect(Object.fromEntries(statuses)).toEqual({
      q_001: "pending",
      q_002: "pending",
      q_003: "resolved",
      q_004: "pending",
    });
  });
});

// ---------------------------------------------------------------------------------------------
// Properties over random sequences of frontier operations

const vocabulary = ["latency", "throughput", "cost", "memory", "the cost", "Latency?", "energy", "accuracy"];
const index = fc.nat({ max: 20 });
const priority = fc.oneof(
  { weight: 6, arbitrary: fc.oneof(fc.constantFrom(0, 0.2, 0.5, 0.8, 1), fc.double({ min: 0, max: 1, noNaN: true })) },
  { weight: 1, arbitrary: fc.constantFrom(-0.2, 1.2) },
);
const addOperation = fc.record({
  op: fc.constant("add" as const),
  parent: index,
  words: fc.array(fc.constantFrom(...vocabulary), { minLength: 1, maxLength: 3 }),
  deps: fc.array(index, { maxLength: 2 }),
  priority,
  unblocks: fc.nat({ max: 3 }).map((n) => n === 0),
  hypothesis: fc.boolean(),
});
const operation = fc.oneof(
  { weight: 5, arbitrary: addOperation },
  { weight: 4, arbitrary: fc.record({ op: fc.constant("next" as const) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("atomic" as const) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("dep" as const), a: index, b: index }) },
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant("retry" as const),
      target: index,
      query: fc.constantFrom(...vocabulary),
      assume: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant("attempt" as const),
      target: index,
      query: fc.constantFrom(...vocabulary),
      challenge: fc.boolean(),
    }),
  },
  { weight: 3, arbitrary: fc.record({ op: fc.constant("resolve" as const), target: index, cite: fc.boolean() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant("reopen" as const),
      target: index,
      priority: fc.option(priority, { nil: undefined }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("priority" as const), target: index, priority }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("prune" as const), target: index }) },
);
type Operation = typeof operation extends fc.Arbitrary<infer T> ? T : never;

const smallConfig: InvestigationConfig = { ...config, maxDepth: 2, maxQuestions: 9, maxAttempts: 3 };

function run(frontier: Frontier, operation: Operation, limits: InvestigationConfig, at: FrontierContext) {
  const pick = (n: number): string => frontier.questions[n % frontier.questions.length]?.id ?? "q_001";
  switch (operation.op) {
    case "add": {
      const question = `${operation.words.join(" ")} ${operation.parent % 3}`;
      const input = child(pick(operation.parent), question, {
        dependsOn: operation.deps.map(pick),
        priority: operation.priority,
        unblocksParent: operation.unblocks,
        kind: operation.hypothesis ? "hypothesis" : "question",
      });
      return addQuestion(frontier, input, limits, at);
    }
    case "next":
      return frontierNext(frontier, limits, at);
    case "atomic":
      return declareAtomic(frontier, "atomic", at);
    case "dep":
      return addDependency(frontier, pick(operation.a), pick(operation.b), at);
    case "retry": {
      const input = { id: pick(operation.target), newQuery: operation.query, why: "inconclusive" };
      return retryQuestion(frontier, operation.assume ? { ...input, assumption: "assumed" } : input, limits, at);
    }
    case "attempt": {
      const tool = operation.challenge ? "challenge" : "web_search";
      return recordAttempt(
        frontier,
        { questionId: pick(operation.target), query: operation.query, tool, outcome: "" },
        at,
      );
    }
    case "resolve":
      return resolveQuestion(
        frontier,
        { id: pick(operation.target), answer: "a", claimIds: operation.cite ? ["c_001"] : [] },
        at,
      );
    case "reopen": {
      const input = { id: pick(operation.target), why: "contradicted" };
      return reopenQuestion(
        frontier,
        operation.priority === undefined ? input : { ...input, priority: operation.priority },
        at,
      );
    }
    case "priority":
      return setPriority(frontier, { id: pick(operation.target), priority: operation.priority, why: "w" }, at);
    case "prune":
      return pruneBranch(frontier, { id: pick(operation.target), reason: "moot" }, at);
  }
}

function hasCycle(frontier: Frontier): boolean {
  const state = new Map<string, "open" | "done">();
  const visit = (id: string): boolean => {
    if (state.get(id) === "done") return false;
    if (state.get(id) === "open") return true;
    state.set(id, "open");
    const cyclic = frontier.dependencies
      .filter((edge) => edge.questionId === id)
      .some((edge) => visit(edge.dependsOnId));
    state.set(id, "done");
    return cyclic;
  };
  return frontier.questions.some((question) => visit(question.id));
}

function checkInvariants(before: Frontier, after: Frontier, change: FrontierChange, limits: InvestigationConfig): void {
  expect(applyFrontierMutation({ ...before, rootAtomic: after.rootAtomic }, change.mutation)).toEqual(after);
  const changedIds = change.mutation.questions.map((question) => question.id);
  expect(new Set(changedIds).size).toBe(changedIds.length);
  for (const question of after.questions) {
    const old = before.questions.find((row) => row.id === question.id);
    if (!old || JSON.stringify(old) !== JSON.stringify(question)) expect(changedIds).toContain(question.id);
  }
  expect(hasCycle(after)).toBe(false);
  const statuses = replayStatuses(after.transitions);
  expect(statuses.size).toBe(after.questions.length);
  expect(after.questions.length).toBeLessThanOrEqual(limits.maxQuestions);
  for (const question of after.questions) {
    expect(statuses.get(question.id)).toBe(question.status);
    const seqs = after.transitions.filter((row) => row.questionId === question.id).map((row) => row.seq);
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    const attemptSeqs = after.attempts.filter((row) => row.questionId === question.id).map((row) => row.seq);
    expect(attemptSeqs).toEqual(attemptSeqs.map((_, i) => i + 1));
    expect(question.depth).toBeLessThanOrEqual(limits.maxDepth);
    const parent = question.parentId === null ? undefined : findQuestion(after, question.parentId);
    expect(question.depth).toBe(parent ? parent.depth + 1 : 0);
    expect(question.priority).toBeGreaterThanOrEqual(0);
    expect(question.priority).toBeLessThanOrEqual(1);
    const failed = after.dependencies
      .filter((edge) => edge.questionId === question.id)
      .some((edge) => ["pruned", "unresolvable"].includes(findQuestion(after, edge.dependsOnId)?.status ?? ""));
    if (question.status === "pending" || question.status === "in_progress") expect(failed).toBe(false);
    if (question.status === "blocked") expect(failed).toBe(true);
  }
  expect(counts(after).in_progress).toBeLessThanOrEqual(limits.maxParallel);
  // A question is held by one sub-agent while in progress, a sub-agent holds at most one.
  const held = after.questions.filter((question) => question.status === "in_progress");
  expect(held.every((question) => question.agent >= 1)).toBe(true);
  expect(new Set(held.map((question) => question.agent)).size).toBe(held.length);
  expect(after.questions.filter((question) => question.status !== "in_progress").every((q) => q.agent === 0)).toBe(
    true,
  );
  const selected = selectNext(after);
  if (selected) expect(actionable(after, selected.id)).toBe(true);
}

describe("frontier properties", () => {
  it("keeps every invariant over random operation sequences", () => {
    fc.assert(
      fc.property(
        fc.array(operation, { minLength: 5, maxLength: 60, size: "max" }),
        fc.integer({ min: 1, max: 2 }),
        (operations, maxParallel) => {
          const limits = { ...smallConfig, maxParallel };
          let frontier = must(undefined, createFrontier("objective", ctx, { validationCriteria: "c" })).frontier;
          operations.forEach((operation, step) => {
            const at: FrontierContext = {
              now: `2026-01-01T00:00:${String(step).padStart(2, "0")}.000Z`,
              actor: "agent",
              // Sub-agents take turns, as parallel ones interleave.
              agent: (step % maxParallel) + 1,
            };
            const expanded =
              frontier.rootAtomic || frontier.questions.some((question) => question.parentId === "q_001");
            const result = run(frontier, operation, limits, at);
            if (operation.op === "next" && !expanded) {
              expect(result.ok ? "" : result.error.rule).toBe("broad-expansion-first");
            }
            if (!result.ok) {
              expect(result.error.rule).not.toBe("");
              expect(result.error.message.length).toBeGreaterThan(10);
              return;
            }
            checkInvariants(frontier, result.value.frontier, result.value, limits);
            frontier = result.value.frontier;
          });
        },
      ),
      { numRuns: 300 },
    );
  });
});
