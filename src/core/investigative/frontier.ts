/**
 * The question frontier of the investigative strategy (seed 000 "The question frontier"). Pure:
 * every function takes the immutable `Frontier` and returns a new one plus the `Mutation` (the
 * rows to persist in one transaction) or a `Rejection` that tells the model what to do instead.
 * Every status change appends a `Transition`, so replaying the transitions rebuilds the statuses.
 *
 * @module
 */
import { err, ok, type Result } from "../result.js";
import {
  type Actor,
  type Attempt,
  type DecisionContext,
  type Dependency,
  EMPTY_MUTATION,
  type Frontier,
  type InvestigationConfig,
  type Mutation,
  type Question,
  type QuestionKind,
  type QuestionStatus,
  type Rejection,
  type Transition,
  type TransitionTrigger,
} from "./types.js";

/** The decision context, with the research state sequence the transitions belong to (default 0). */
export type FrontierContext = DecisionContext & { readonly stateSeq?: number };

/** A change of the frontier: the new value and exactly the rows it adds or changes. */
export type FrontierChange<Extra = unknown> = { frontier: Frontier; mutation: Mutation } & Extra;
export type FrontierResult<Extra = unknown> = Result<FrontierChange<Extra>, Rejection>;

export const ROOT_QUESTION_ID = "q_001";
const OPEN: ReadonlySet<QuestionStatus> = new Set(["pending", "in_progress", "blocked"]);
const FAILED: ReadonlySet<QuestionStatus> = new Set(["pruned", "unresolvable"]);

const formatQuestionId = (n: number): string => `q_${String(n).padStart(3, "0")}`;
const idNumber = (id: string): number => Number(/^q_(\d+)$/.exec(id)?.[1] ?? Number.NaN);
const reject = (rule: string, message: string): Result<never, Rejection> => err({ rule, message });
const isPriority = (value: number): boolean => Number.isFinite(value) && value >= 0 && value <= 1;
const p2 = (value: number): string => value.toFixed(2);

// ---------------------------------------------------------------------------------------------
// Reading

/** Lower case, punctuation removed, whitespace collapsed, articles dropped: the near-duplicate key. */
export function normalizeQuestion(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, "")
    .split(/\s+/)
    .filter((word) => word !== "" && word !== "a" && word !== "an" && word !== "the")
    .join(" ");
}

export function findQuestion(frontier: Frontier, id: string): Question | undefined {
  return frontier.questions.find((question) => question.id === id);
}

export function dependenciesOf(frontier: Frontier, id: string): string[] {
  return frontier.dependencies.filter((edge) => edge.questionId === id).map((edge) => edge.dependsOnId);
}

export function attemptsOf(frontier: Frontier, id: string): Attempt[] {
  return frontier.attempts.filter((attempt) => attempt.questionId === id);
}

/** Seed 000 `attempts`: the number of distinct query formulations in the attempt log. */
export function attemptCount(frontier: Frontier, id: string): number {
  return new Set(attemptsOf(frontier, id).map((attempt) => normalizeQuestion(attempt.query))).size;
}

/** Pending, and every dependency resolved. */
export function actionable(frontier: Frontier, id: string): boolean {
  const question = findQuestion(frontier, id);
  if (question?.status !== "pending") return false;
  return dependenciesOf(frontier, id).every((dep) => findQuestion(frontier, dep)?.status === "resolved");
}

export function counts(frontier: Frontier): Record<QuestionStatus, number> {
  const result: Record<QuestionStatus, number> = {
    pending: 0,
    in_progress: 0,
    resolved: 0,
    blocked: 0,
    unresolvable: 0,
    pruned: 0,
  };
  for (const question of frontier.questions) result[question.status] += 1;
  return result;
}

/** The latest status of each question, from its transitions alone. */
export function replayStatuses(transitions: readonly Transition[]): Map<string, QuestionStatus> {
  const latest = new Map<string, Transition>();
  for (const transition of transitions) {
    const seen = latest.get(transition.questionId);
    if (!seen || transition.seq > seen.seq) latest.set(transition.questionId, transition);
  }
  return new Map([...latest].map(([id, transition]) => [id, transition.toStatus]));
}

/** The path `from` → … → `to` along dependency edges, or undefined. */
function dependencyPath(dependencies: readonly Dependency[], from: string, to: string): string[] | undefined {
  const previous = new Map<string, string>([[from, ""]]);
  const queue = [from];
  for (let current = queue.shift(); current !== undefined; current = queue.shift()) {
    if (current === to) {
      const path = [to];
      for (let step = previous.get(to) ?? ""; step !== ""; step = previous.get(step) ?? "") path.unshift(step);
      return path;
    }
    for (const edge of dependencies) {
      if (edge.questionId === current && !previous.has(edge.dependsOnId)) {
        previous.set(edge.dependsOnId, current);
        queue.push(edge.dependsOnId);
      }
    }
  }
  return undefined;
}

/** Whether the edge "`questionId` depends on `dependsOnId`" would close a cycle (self-edges included). */
export function wouldCycle(dependencies: readonly Dependency[], questionId: string, dependsOnId: string): boolean {
  return dependencyPath(dependencies, dependsOnId, questionId) !== undefined;
}

function cycleRejection(dependencies: readonly Dependency[], questionId: string, dependsOnId: string) {
  const path = dependencyPath(dependencies, dependsOnId, questionId) ?? [dependsOnId];
  return reject(
    "cycle",
    `"${questionId} depends on ${dependsOnId}" would close the dependency cycle ${[questionId, ...path].join(" → ")}; ` +
      "dependencies must form a DAG: drop this edge, or make the prerequisite a separate question.",
  );
}

/** One actionable question in selection order, with the priority selection treats it at. */
export interface RankedQuestion {
  question: Question;
  /** At least the question's priority; raised to that of a better-ranked pending question waiting on it. */
  effectivePriority: number;
  /** The waiting question it is considered in place of, or undefined. */
  raisedBy: string | undefined;
}

const byRank = (a: Question, b: Question): number =>
  b.priority - a.priority || a.depth - b.depth || idNumber(a.id) - idNumber(b.id);

/**
 * The actionable questions in the order selection takes them (pure): highest priority, then lower
 * depth, then older. A pending question that waits on an unresolved dependency is replaced, at its
 * rank, by its (transitively) unresolved actionable dependencies, so unblocking work goes first.
 */
export function rankActionable(frontier: Frontier): RankedQuestion[] {
  const anchors = new Map<string, { question: Question; anchor: Question }>();
  for (const question of frontier.questions) {
    // Once expanded, the objective is answered by the synthesis, not selected: only an atomic root is.
    if (question.id === ROOT_QUESTION_ID && !frontier.rootAtomic) continue;
    if (actionable(frontier, question.id)) anchors.set(question.id, { question, anchor: question });
  }
  const waiting = frontier.questions.filter((q) => q.status === "pending" && !anchors.has(q.id)).sort(byRank);
  for (const dependant of waiting) {
    const seen = new Set<string>();
    const stack = dependenciesOf(frontier, dependant.id);
    for (let id = stack.pop(); id !== undefined; id = stack.pop()) {
      if (seen.has(id) || findQuestion(frontier, id)?.status === "resolved") continue;
      seen.add(id);
      const entry = anchors.get(id);
      if (entry && byRank(dependant, entry.anchor) < 0) anchors.set(id, { ...entry, anchor: dependant });
      stack.push(...dependenciesOf(frontier, id));
    }
  }
  return [...anchors.values()]
    .sort((a, b) => byRank(a.anchor, b.anchor) || byRank(a.question, b.question))
    .map(({ question, anchor }) => ({
      question,
      effectivePriority: Math.max(question.priority, anchor.priority),
      raisedBy: anchor === question ? undefined : anchor.id,
    }));
}

/** The question selection would take next, or undefined when none is actionable (pure, no change). */
export function selectNext(frontier: Frontier): Question | undefined {
  return rankActionable(frontier)[0]?.question;
}

/** The old frontier plus a mutation's rows: question upserts, appended edges, attempts and transitions. */
export function applyFrontierMutation(frontier: Frontier, mutation: Mutation): Frontier {
  const changed = new Map(mutation.questions.map((question) => [question.id, question]));
  const known = new Set(frontier.questions.map((question) => question.id));
  return {
    ...frontier,
    questions: [
      ...frontier.questions.map((question) => changed.get(question.id) ?? question),
      ...mutation.questions.filter((question) => !known.has(question.id)),
    ],
    dependencies: [...frontier.dependencies, ...mutation.dependencies],
    attempts: [...frontier.attempts, ...mutation.attempts],
    transitions: [...frontier.transitions, ...mutation.transitions],
  };
}

// ---------------------------------------------------------------------------------------------
// The draft: the local, mutable working copy of one decision; never escapes a function.

interface Draft {
  frontier: Frontier;
  readonly ctx: FrontierContext;
  readonly changed: string[];
  readonly dependencies: Dependency[];
  readonly attempts: Attempt[];
  readonly transitions: Transition[];
}

interface TransitionMeta {
  trigger: TransitionTrigger;
  actor: Actor;
  reason: string;
  causedBy?: string;
}

type QuestionPatch = Partial<Pick<Question, "answer" | "claimIds" | "exemption" | "priority" | "reopens">>;

const draftOf = (frontier: Frontier, ctx: FrontierContext): Draft => ({
  frontier,
  ctx,
  changed: [],
  dependencies: [],
  attempts: [],
  transitions: [],
});

function mustFind(draft: Draft, id: string): Question {
  const question = findQuestion(draft.frontier, id);
  if (!question) throw new Error(`frontier: unknown question ${id}`);
  return question;
}

function apply(draft: Draft, mutation: Partial<Mutation>): void {
  draft.frontier = applyFrontierMutation(draft.frontier, { ...EMPTY_MUTATION, ...mutation });
  for (const question of mutation.questions ?? []) {
    if (!draft.changed.includes(question.id)) draft.changed.push(question.id);
  }
  draft.dependencies.push(...(mutation.dependencies ?? []));
  draft.attempts.push(...(mutation.attempts ?? []));
  draft.transitions.push(...(mutation.transitions ?? []));
}

function transitionRow(draft: Draft, from: Question | undefined, to: Question, meta: TransitionMeta): Transition {
  return {
    questionId: to.id,
    seq: draft.frontier.transitions.filter((transition) => transition.questionId === to.id).length + 1,
    fromStatus: from?.status ?? "",
    toStatus: to.status,
    trigger: meta.trigger,
    actor: meta.actor,
    reason: meta.reason,
    priority: to.priority,
    attempts: attemptCount(draft.frontier, to.id),
    causedBy: meta.causedBy ?? "",
    stateSeq: draft.ctx.stateSeq ?? 0,
    createdAt: draft.ctx.now,
  };
}

/** Sets the status (and the patch) of a question and appends its transition. */
function move(draft: Draft, id: string, status: QuestionStatus, meta: TransitionMeta, patch: QuestionPatch = {}) {
  const from = mustFind(draft, id);
  const claimedBy = status === "in_progress" ? from.claimedBy : null;
  const to: Question = { ...from, ...patch, status, claimedBy, updatedAt: draft.ctx.now };
  apply(draft, { questions: [to], transitions: [transitionRow(draft, from, to, meta)] });
  return to;
}

function createQuestion(draft: Draft, question: Question, meta: TransitionMeta): void {
  apply(draft, { questions: [question], transitions: [transitionRow(draft, undefined, question, meta)] });
}

/** Raises the priority floor of every open (transitive) dependency of `id` to its priority. */
function raiseDependencyFloor(draft: Draft, id: string): void {
  const floor = mustFind(draft, id).priority;
  const seen = new Set<string>();
  const stack = dependenciesOf(draft.frontier, id);
  for (let dep = stack.pop(); dep !== undefined; dep = stack.pop()) {
    if (seen.has(dep)) continue;
    seen.add(dep);
    const question = mustFind(draft, dep);
    if (!OPEN.has(question.status)) continue;
    if (question.priority < floor) {
      const meta = {
        trigger: "reprioritized",
        actor: "code",
        causedBy: id,
        reason: `floor raised by ${id} (P ${p2(floor)})`,
      } as const;
      move(draft, dep, question.status, meta, { priority: floor });
    }
    stack.push(...dependenciesOf(draft.frontier, dep));
  }
}

/** Automatic blocking and unblocking, to a fixed point. */
function cleanup(draft: Draft): void {
  for (let changed = true; changed; ) {
    changed = false;
    for (const question of draft.frontier.questions) {
      const failed = dependenciesOf(draft.frontier, question.id).find((dep) =>
        FAILED.has(findQuestion(draft.frontier, dep)?.status ?? "pending"),
      );
      if (failed !== undefined && (question.status === "pending" || question.status === "in_progress")) {
        const status = findQuestion(draft.frontier, failed)?.status ?? "";
        const reason = `dependency ${failed} is ${status}; rewrite ${question.id} without it, or prune it`;
        move(draft, question.id, "blocked", { trigger: "dependency_failed", actor: "code", causedBy: failed, reason });
        changed = true;
      } else if (failed === undefined && question.status === "blocked") {
        const reason = "no failed dependency left";
        move(draft, question.id, "pending", { trigger: "dependency_met", actor: "code", reason });
        changed = true;
      }
    }
  }
}

function finish<Extra>(draft: Draft, extra: Extra): FrontierResult<Extra> {
  cleanup(draft);
  const mutation: Mutation = {
    ...EMPTY_MUTATION,
    questions: draft.changed.map((id) => mustFind(draft, id)),
    dependencies: draft.dependencies,
    attempts: draft.attempts,
    transitions: draft.transitions,
  };
  return ok({ frontier: draft.frontier, mutation, ...extra });
}

/** Runs the automatic blocking and unblocking alone; the mutating functions already end with it. */
export function applyCleanups(frontier: Frontier, ctx: FrontierContext): FrontierChange {
  const draft = draftOf(frontier, ctx);
  const result = finish(draft, {});
  if (!result.ok) throw new Error("frontier: cleanups cannot be rejected");
  return result.value;
}

// ---------------------------------------------------------------------------------------------
// Rejections shared by several tools

function unknown(id: string, role = "question"): Result<never, Rejection> {
  return reject(
    "unknown-question",
    `Unknown ${role} id "${id}": use an id shown in the frontier summary or frontier_view.`,
  );
}

function wrongStatus(question: Question, allowed: string, hint: string): Result<never, Rejection> {
  return reject(
    "invalid-status",
    `${question.id} is ${question.status}; this applies only to a ${allowed} question. ${hint}`,
  );
}

function badPriority(priority: number): Result<never, Rejection> {
  return reject(
    "priority-range",
    `priority ${priority} is outside 0..1: give a number from 0 (marginal) to 1 (critical).`,
  );
}

// ---------------------------------------------------------------------------------------------
// Tools

export interface RootInput {
  rationale?: string;
  validationCriteria?: string;
}

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
    validationCriteria: root.validationCriteria ?? "",
    targetSources: [],
    answer: "",
    claimIds: [],
    exemption: "",
    claimedBy: null,
    reopens: 0,
    createdAt: ctx.now,
    updatedAt: ctx.now,
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
  if (!frontier.rootAtomic && !frontier.questions.some((question) => question.parentId === ROOT_QUESTION_ID)) {
    return reject(
      "broad-expansion-first",
      "Broad query expansion first: add the first level of sub-questions of the objective (typically 3 to 8, each " +
        `with validation criteria and a priority) with add_question(parent_id: "${ROOT_QUESTION_ID}", …), or state ` +
        "that the objective is atomic, before the first frontier_next.",
    );
  }
  const busy = frontier.questions.filter((question) => question.status === "in_progress");
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
        "that remains, or call finalize_report when the frontier is done.",
    );
  }
  const draft = draftOf(frontier, ctx);
  const id = next.question.id;
  if (next.raisedBy !== undefined && next.effectivePriority > next.question.priority) {
    const reason = `dependency of ${next.raisedBy} (P ${p2(next.effectivePriority)}) goes first`;
    const meta = { trigger: "reprioritized", actor: "code", causedBy: next.raisedBy, reason } as const;
    move(draft, id, "pending", meta, { priority: next.effectivePriority });
  }
  const question = move(draft, id, "in_progress", { trigger: "selected", actor: ctx.actor, reason: "selected" });
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
    answer: "",
    claimIds: [],
    exemption: "",
    claimedBy: null,
    reopens: 0,
    createdAt: ctx.now,
    updatedAt: ctx.now,
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
    ...(reason ? { exemption: reason } : {}),
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
