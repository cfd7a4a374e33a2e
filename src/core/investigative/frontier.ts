/**
 * The question frontier of the investigative strategy (seed 000 "The question frontier"). Pure:
 * every function takes the immutable `Frontier` and returns a new one plus the `Mutation` (the
 * rows to persist in one transaction) or a `Rejection` that tells the model what to do instead.
 * Every status change appends a `Transition`, so replaying the transitions rebuilds the statuses.
 *
 * @module
 */
import type { Result } from "../result.js";
import {
  apply,
  badPriority,
  createQuestion,
  draftOf,
  type FrontierContext,
  type FrontierResult,
  finish,
  move,
  mustFind,
  type QuestionPatch,
  raiseDependencyFloor,
  unknown,
  wrongStatus,
} from "./frontier-draft.js";
import {
  attemptCount,
  attemptsOf,
  counts,
  cycleRejection,
  FAILED,
  findQuestion,
  formatQuestionId,
  holderOf,
  idNumber,
  isExpanded,
  isPriority,
  normalizeQuestion,
  OPEN,
  p2,
  ROOT_QUESTION_ID,
  rankActionable,
  reject,
  wouldCycle,
} from "./frontier-queries.js";

export {
  applyCleanups,
  type FrontierChange,
  type FrontierContext,
  type FrontierResult,
} from "./frontier-draft.js";
export {
  actionable,
  applyFrontierMutation,
  attemptCount,
  attemptsOf,
  counts,
  dependenciesOf,
  findQuestion,
  normalizeQuestion,
  type RankedQuestion,
  ROOT_QUESTION_ID,
  rankActionable,
  replayStatuses,
  selectNext,
  wouldCycle,
} from "./frontier-queries.js";

import type { Attempt, Frontier, InvestigationConfig, Question, QuestionKind, Rejection } from "./types.js";

// ---------------------------------------------------------------------------------------------
// Tools

export interface RootInput {
  rationale?: string;
  validationCriteria?: string;
}

/** The fields a new question starts with: no answer, no claims, never reopened. */
const unanswered = (ctx: FrontierContext) => ({
  answer: "",
  claimIds: [] as string[],
  exemption: "",
  claimedBy: null,
  agent: 0,
  reopens: 0,
  createdAt: ctx.now,
  updatedAt: ctx.now,
});

/** A new frontier whose root `q_001` (depth 0, priority 1, pending) is the objective. */
export function createFrontier(
  objective: string,
  ctx: FrontierContext,
  root: RootInput = {},
): FrontierResult<{ question: Question }> {
  if (objective.trim() === "") return reject("objective-required", "The objective is empty: state what to research.");
  const empty: Frontier = {
    objective,
    questions: [],
    dependencies: [],
    attempts: [],
    transitions: [],
    rootAtomic: false,
  };
  const draft = draftOf(empty, ctx);
  const question: Question = {
    id: ROOT_QUESTION_ID,
    parentId: null,
    depth: 0,
    kind: "question",
    question: objective,
    rationale: root.rationale ?? "the objective of the run",
    priority: 1,
    status: "pending",
    // Resolving the root needs criteria like any question; the objective's are its answer, backed by claims.
    validationCriteria:
      root.validationCriteria ?? "an answer to the objective, backed by recorded claims and their sources",
    targetSources: [],
    ...unanswered(ctx),
  };
  createQuestion(draft, question, { trigger: "created", actor: ctx.actor, reason: "objective" });
  return finish(draft, { question });
}

/** The agent states the objective is atomic: frontier_next may then run without sub-questions. */
export function declareAtomic(frontier: Frontier, reason: string, ctx: FrontierContext): FrontierResult {
  if (frontier.questions.some((question) => question.parentId === ROOT_QUESTION_ID)) {
    return reject("root-has-children", `${ROOT_QUESTION_ID} already has sub-questions: call frontier_next instead.`);
  }
  if (reason.trim() === "") {
    return reject("reason-required", "Say why the objective needs no sub-questions (one self-contained fact to find).");
  }
  // Persisted on the root's row: its exemption records the statement (see `isDeclaredAtomic`).
  const draft = draftOf({ ...frontier, rootAtomic: true }, ctx);
  const root = mustFind(draft, ROOT_QUESTION_ID);
  apply(draft, { questions: [{ ...root, exemption: `${ATOMIC_PREFIX}${reason.trim()}`, updatedAt: ctx.now }] });
  return finish(draft, {});
}

const ATOMIC_PREFIX = "atomic: ";

/** Whether the stored root records the agent's statement that the objective is atomic. */
export function isDeclaredAtomic(questions: readonly Question[]): boolean {
  return questions.some((question) => question.id === ROOT_QUESTION_ID && question.exemption.startsWith(ATOMIC_PREFIX));
}

/** Selects the next question (dependency first) and marks it in_progress. */
export function frontierNext(
  frontier: Frontier,
  config: Pick<InvestigationConfig, "maxParallel">,
  ctx: FrontierContext,
): FrontierResult<{ question: Question }> {
  if (!isExpanded(frontier)) {
    return reject(
      "broad-expansion-first",
      "Broad query expansion first: add the first level of sub-questions of the objective (typically 3 to 8, each " +
        `with validation criteria and a priority) with add_question(parent_id: "${ROOT_QUESTION_ID}", …), or state ` +
        "that the objective is atomic, before the first frontier_next.",
    );
  }
  const agent = ctx.agent ?? 1;
  const busy = frontier.questions.filter((question) => question.status === "in_progress");
  const held = busy.find((question) => holderOf(question) === agent);
  if (held) {
    return reject(
      "max-parallel",
      `${held.id} already in progress${agent > 1 ? ` (sub-agent ${agent})` : ""}: ` +
        "resolve it with resolve_question, or record an inconclusive attempt with retry_question, then call frontier_next.",
    );
  }
  if (busy.length >= config.maxParallel) {
    return reject(
      "max-parallel",
      `${busy.map((question) => question.id).join(", ")} already in progress (max_parallel ${config.maxParallel}): ` +
        "resolve it with resolve_question, or record an inconclusive attempt with retry_question, then call frontier_next.",
    );
  }
  const next = rankActionable(frontier)[0];
  if (!next) {
    const count = counts(frontier);
    const waiting = frontier.questions.filter((q) => q.status === "pending" && q.id !== ROOT_QUESTION_ID).length;
    return reject(
      "nothing-actionable",
      `No actionable question: ${waiting} pending (each waiting on an unresolved dependency), ` +
        `${count.blocked} blocked. Rewrite or prune the blocked ones (prune_branch), add a question for a gap ` +
        "that remains, or call finish_exploration when the frontier is done.",
    );
  }
  const draft = draftOf(frontier, ctx);
  const id = next.question.id;
  if (next.raisedBy !== undefined && next.effectivePriority > next.question.priority) {
    const reason = `dependency of ${next.raisedBy} (P ${p2(next.effectivePriority)}) goes first`;
    const meta = { trigger: "reprioritized", actor: "code", causedBy: next.raisedBy, reason } as const;
    move(draft, id, "pending", meta, { priority: next.effectivePriority });
  }
  // The claim: pending → in_progress with the claiming run and sub-agent. The store writes it
  // only if the question is still as this decision saw it (its next transition seq is free).
  const question = move(
    draft,
    id,
    "in_progress",
    { trigger: "selected", actor: ctx.actor, reason: agent > 1 ? `selected by sub-agent ${agent}` : "selected" },
    { claimedBy: ctx.runId ?? null, agent },
  );
  return finish(draft, { question });
}

export interface AddQuestionInput {
  parentId: string;
  question: string;
  rationale: string;
  priority: number;
  validationCriteria: string;
  targetSources: readonly string[];
  dependsOn?: readonly string[];
  kind?: QuestionKind;
  /** The child unblocks its parent: it becomes a dependency of the parent, at least at its priority. */
  unblocksParent?: boolean;
  /** What caused it ('ch_003', a question id); defaults to the parent. */
  causedBy?: string;
}

/** Expands the graph with a child of `parentId` (ids and depth by code). */
export function addQuestion(
  frontier: Frontier,
  input: AddQuestionInput,
  config: Pick<InvestigationConfig, "maxDepth" | "maxQuestions">,
  ctx: FrontierContext,
): FrontierResult<{ question: Question }> {
  const parent = findQuestion(frontier, input.parentId);
  if (!parent) return unknown(input.parentId, "parent");
  if (parent.status === "pruned") {
    return reject("parent-pruned", `Parent ${parent.id} is pruned: attach the question to an open question instead.`);
  }
  if (input.question.trim() === "")
    return reject("question-required", "The question text is empty: state the question.");
  if (input.validationCriteria.trim() === "") {
    return reject("criteria-required", "Validation criteria are required: say what counts as an acceptable answer.");
  }
  if (!isPriority(input.priority)) return badPriority(input.priority);
  if (parent.depth + 1 > config.maxDepth) {
    return reject("depth-cap", "pruned by depth cap; record it as an open gap in notes instead");
  }
  if (frontier.questions.length >= config.maxQuestions) {
    return reject(
      "max-questions",
      `max_questions (${config.maxQuestions}) reached for this run: no new question can be added. Work on the ` +
        "open ones instead: resolve them, or prune_branch those whose answer would not alter the conclusion; " +
        "record other gaps in notes.",
    );
  }
  const key = normalizeQuestion(input.question);
  const duplicate = frontier.questions.find((question) => normalizeQuestion(question.question) === key);
  if (duplicate) {
    return reject(
      "duplicate-question",
      `Near-duplicate of ${duplicate.id} ("${duplicate.question}", ${duplicate.status}): work on ${duplicate.id} ` +
        "(or reopen it), or ask something that differs in substance.",
    );
  }
  if (input.unblocksParent && !OPEN.has(parent.status)) {
    return wrongStatus(parent, "pending, in_progress or blocked", "Only an open parent can wait on a new child.");
  }
  const dependsOn = [...new Set(input.dependsOn ?? [])];
  for (const dep of dependsOn) {
    const target = findQuestion(frontier, dep);
    if (!target) return unknown(dep, "depends_on");
    if (FAILED.has(target.status)) return failedDependency(target);
  }
  const id = formatQuestionId(Math.max(0, ...frontier.questions.map((question) => idNumber(question.id) || 0)) + 1);
  const edges = dependsOn.map((dep) => ({ questionId: id, dependsOnId: dep }));
  if (input.unblocksParent) {
    const graph = [...frontier.dependencies, ...edges];
    if (wouldCycle(graph, parent.id, id)) return cycleRejection(graph, parent.id, id);
    edges.push({ questionId: parent.id, dependsOnId: id });
  }
  const priority = input.unblocksParent ? Math.max(input.priority, parent.priority) : input.priority;
  const question: Question = {
    id,
    parentId: parent.id,
    depth: parent.depth + 1,
    kind: input.kind ?? "question",
    question: input.question,
    rationale: input.rationale,
    priority,
    status: "pending",
    validationCriteria: input.validationCriteria,
    targetSources: [...input.targetSources],
    ...unanswered(ctx),
  };
  const draft = draftOf(frontier, ctx);
  const reason = input.unblocksParent ? `unblocks ${parent.id}: ${input.rationale}` : input.rationale;
  createQuestion(draft, question, {
    trigger: "created",
    actor: ctx.actor,
    reason,
    causedBy: input.causedBy ?? parent.id,
  });
  apply(draft, { dependencies: edges });
  return finish(draft, { question });
}

function failedDependency(target: Question): Result<never, Rejection> {
  return reject(
    "dependency-failed",
    `${target.id} is ${target.status}: a dependency on it can never be met. Depend on an open question instead.`,
  );
}

/** Adds the edge "`questionId` depends on `dependsOnId`", keeping the dependencies a DAG. */
export function addDependency(
  frontier: Frontier,
  questionId: string,
  dependsOnId: string,
  ctx: FrontierContext,
): FrontierResult {
  const question = findQuestion(frontier, questionId);
  if (!question) return unknown(questionId);
  const target = findQuestion(frontier, dependsOnId);
  if (!target) return unknown(dependsOnId, "depends_on");
  if (!OPEN.has(question.status)) {
    return wrongStatus(question, "pending, in_progress or blocked", "A closed question gains no dependency.");
  }
  if (FAILED.has(target.status)) return failedDependency(target);
  if (frontier.dependencies.some((edge) => edge.questionId === questionId && edge.dependsOnId === dependsOnId)) {
    return reject("duplicate-dependency", `${questionId} already depends on ${dependsOnId}; nothing to add.`);
  }
  if (wouldCycle(frontier.dependencies, questionId, dependsOnId)) {
    return cycleRejection(frontier.dependencies, questionId, dependsOnId);
  }
  const draft = draftOf(frontier, ctx);
  apply(draft, { dependencies: [{ questionId, dependsOnId }] });
  return finish(draft, {});
}

export interface AttemptInput {
  questionId: string;
  query: string;
  tool: string;
  outcome: string;
}

/** Appends one row to the attempt log of a question (no status change). */
export function recordAttempt(
  frontier: Frontier,
  input: AttemptInput,
  ctx: FrontierContext,
): FrontierResult<{ attempt: Attempt }> {
  if (!findQuestion(frontier, input.questionId)) return unknown(input.questionId);
  if (input.query.trim() === "") return reject("query-required", "The attempted query is empty: log the query text.");
  const draft = draftOf(frontier, ctx);
  const attempt: Attempt = { ...input, seq: attemptsOf(frontier, input.questionId).length + 1, createdAt: ctx.now };
  apply(draft, { attempts: [attempt] });
  return finish(draft, { attempt });
}

export interface RetryInput {
  id: string;
  newQuery: string;
  why: string;
  /** Required on the last attempt: the assumption the report states for the gap. */
  assumption?: string;
}

/** Records an inconclusive attempt with a new query: back to pending, or unresolvable at max_attempts. */
export function retryQuestion(
  frontier: Frontier,
  input: RetryInput,
  config: Pick<InvestigationConfig, "maxAttempts">,
  ctx: FrontierContext,
): FrontierResult<{ question: Question }> {
  const question = findQuestion(frontier, input.id);
  if (!question) return unknown(input.id);
  if (question.status !== "in_progress" && question.status !== "pending") {
    return wrongStatus(question, "pending or in_progress", "reopen_question reopens a resolved question.");
  }
  if (input.newQuery.trim() === "") return reject("query-required", "new_query is empty: give the next query to try.");
  const key = normalizeQuestion(input.newQuery);
  const earlier = attemptsOf(frontier, question.id).find((attempt) => normalizeQuestion(attempt.query) === key);
  if (earlier) {
    return reject(
      "query-not-distinct",
      `new_query repeats the earlier query "${earlier.query}" of ${question.id} (compared ignoring case, punctuation ` +
        "and articles): mutate it — other terms, another source type, a narrower or broader scope.",
    );
  }
  const attempts = attemptCount(frontier, question.id) + 1;
  const exhausted = attempts >= config.maxAttempts;
  const assumption = input.assumption?.trim() ?? "";
  if (exhausted && assumption === "") {
    return reject(
      "assumption-required",
      `This is the last attempt for ${question.id} (max_attempts ${config.maxAttempts}): it becomes unresolvable. ` +
        "Call retry_question again with an assumption: what the report assumes in place of the missing answer.",
    );
  }
  const draft = draftOf(frontier, ctx);
  const attempt: Attempt = {
    questionId: question.id,
    seq: attemptsOf(frontier, question.id).length + 1,
    query: input.newQuery,
    tool: "retry_question",
    outcome: input.why,
    createdAt: ctx.now,
  };
  apply(draft, { attempts: [attempt] });
  const next = exhausted
    ? move(
        draft,
        question.id,
        "unresolvable",
        { trigger: "attempts_exhausted", actor: "code", reason: input.why },
        { answer: assumption },
      )
    : move(draft, question.id, "pending", { trigger: "retried", actor: ctx.actor, reason: input.why });
  return finish(draft, { question: next });
}

export interface ResolveInput {
  id: string;
  answer: string;
  claimIds: readonly string[];
  /** Why no claim is cited, or why a hypothesis lacks a confirming or refuting search (stored as the exemption). */
  reason?: string;
}

/** Marks a question resolved (frontier-side rules; the caller checks the claims themselves). */
export function resolveQuestion(
  frontier: Frontier,
  input: ResolveInput,
  ctx: FrontierContext,
): FrontierResult<{ question: Question }> {
  const question = findQuestion(frontier, input.id);
  if (!question) return unknown(input.id);
  if (question.status !== "in_progress" && question.status !== "pending") {
    return wrongStatus(question, "pending or in_progress", "Use frontier_view to find an open question.");
  }
  if (question.validationCriteria.trim() === "") {
    return reject(
      "criteria-required",
      `${question.id} has no validation criteria: an answer cannot be checked against none.`,
    );
  }
  if (input.answer.trim() === "")
    return reject("answer-required", "The answer is empty: give the short resolving answer.");
  const reason = input.reason?.trim() ?? "";
  if (input.claimIds.length === 0 && reason === "") {
    return reject(
      "claims-required",
      "No claim ids: cite the claims (c_…, d_…) that support the answer, or give a reason why none can be cited.",
    );
  }
  if (question.kind === "hypothesis" && reason === "") {
    const log = attemptsOf(frontier, question.id);
    const missing = [
      ...(log.some((attempt) => attempt.tool !== "challenge") ? [] : ["a confirming search"]),
      ...(log.some((attempt) => attempt.tool === "challenge") ? [] : ["a refuting (challenge) search"]),
    ];
    if (missing.length > 0) {
      return reject(
        "hypothesis-both-sides",
        `Hypothesis ${question.id} lacks ${missing.join(" and ")} in its attempt log: search for both confirming and ` +
          "refuting evidence before resolving it, or give a reason why one side cannot be searched.",
      );
    }
  }
  const draft = draftOf(frontier, ctx);
  const patch: QuestionPatch = {
    answer: input.answer,
    claimIds: [...input.claimIds],
    // The root keeps its atomic statement in front of the reason (see `isDeclaredAtomic`).
    ...(reason
      ? { exemption: question.exemption.startsWith(ATOMIC_PREFIX) ? `${question.exemption}; ${reason}` : reason }
      : {}),
  };
  const next = move(draft, question.id, "resolved", { trigger: "resolved", actor: ctx.actor, reason }, patch);
  return finish(draft, { question: next });
}

export interface ReopenInput {
  id: string;
  why: string;
  priority?: number;
  /** The claim, challenge or question whose finding contradicts the answer. */
  causedBy?: string;
  trigger?: "reopened" | "contradiction";
}

/** Self-correction: a resolved question re-enters the queue with raised priority. */
export function reopenQuestion(
  frontier: Frontier,
  input: ReopenInput,
  ctx: FrontierContext,
): FrontierResult<{ question: Question }> {
  const question = findQuestion(frontier, input.id);
  if (!question) return unknown(input.id);
  if (question.status !== "resolved") {
    return wrongStatus(question, "resolved", "Only a resolved answer can be reopened.");
  }
  if (input.why.trim() === "")
    return reject("reason-required", "Say why the answer no longer holds (what contradicts it).");
  if (input.priority !== undefined && !isPriority(input.priority)) return badPriority(input.priority);
  const priority = Math.max(question.priority, input.priority ?? Math.min(1, question.priority + 0.2));
  const causedBy = input.causedBy ?? "";
  const fromFinding = ctx.actor === "code" && /^(?:c|d|ch)_\d+$/.test(causedBy);
  const trigger = input.trigger ?? (fromFinding ? "contradiction" : "reopened");
  const draft = draftOf(frontier, ctx);
  const meta = { trigger, actor: ctx.actor, reason: input.why, causedBy };
  const next = move(draft, question.id, "pending", meta, { priority, reopens: question.reopens + 1 });
  raiseDependencyFloor(draft, question.id);
  return finish(draft, { question: next });
}

export interface SetPriorityInput {
  id: string;
  priority: number;
  why: string;
}

/** Re-prioritizes a question; raising it raises the floor of its (transitive) dependencies. */
export function setPriority(
  frontier: Frontier,
  input: SetPriorityInput,
  ctx: FrontierContext,
): FrontierResult<{ question: Question }> {
  const question = findQuestion(frontier, input.id);
  if (!question) return unknown(input.id);
  if (FAILED.has(question.status)) {
    return wrongStatus(question, "pending, in_progress, blocked or resolved", "Its priority no longer matters.");
  }
  if (!isPriority(input.priority)) return badPriority(input.priority);
  if (input.why.trim() === "") return reject("reason-required", "Say why the priority changes.");
  if (input.priority === question.priority) {
    return reject(
      "priority-unchanged",
      `${question.id} already has priority ${p2(question.priority)}; nothing to change.`,
    );
  }
  const draft = draftOf(frontier, ctx);
  const meta = { trigger: "reprioritized", actor: ctx.actor, reason: input.why } as const;
  const next = move(draft, question.id, question.status, meta, { priority: input.priority });
  if (input.priority > question.priority) raiseDependencyFloor(draft, question.id);
  return finish(draft, { question: next });
}

export interface PruneInput {
  id: string;
  reason: string;
  /** The trigger of the pruned question itself (default `pruned_scope`); descendants get `pruned_branch`. */
  trigger?: "pruned_branch" | "pruned_scope" | "pruned_depth";
}

/** Drops a question and all its pending/blocked descendants; resolved and unresolvable ones stay. */
export function pruneBranch(
  frontier: Frontier,
  input: PruneInput,
  ctx: FrontierContext,
): FrontierResult<{ pruned: string[] }> {
  if (input.id === ROOT_QUESTION_ID) {
    return reject(
      "root-not-prunable",
      `${ROOT_QUESTION_ID} is the objective and cannot be pruned: prune its sub-questions, or call finalize_report.`,
    );
  }
  const question = findQuestion(frontier, input.id);
  if (!question) return unknown(input.id);
  if (!OPEN.has(question.status)) {
    return wrongStatus(
      question,
      "pending, in_progress or blocked",
      "Prune its open sub-questions individually instead.",
    );
  }
  if (input.reason.trim() === "")
    return reject("reason-required", "Say why the branch would not alter the conclusion.");
  const draft = draftOf(frontier, ctx);
  move(
    draft,
    question.id,
    "pruned",
    { trigger: input.trigger ?? "pruned_scope", actor: ctx.actor, reason: input.reason },
    { answer: input.reason },
  );
  const pruned = [question.id];
  const stack = [question.id];
  for (let parentId = stack.pop(); parentId !== undefined; parentId = stack.pop()) {
    for (const child of draft.frontier.questions.filter((candidate) => candidate.parentId === parentId)) {
      stack.push(child.id);
      if (child.status !== "pending" && child.status !== "blocked") continue;
      const meta = { trigger: "pruned_branch", actor: "code", reason: input.reason, causedBy: question.id } as const;
      move(draft, child.id, "pruned", meta, { answer: input.reason });
      pruned.push(child.id);
    }
  }
  return finish(draft, { pruned });
}
