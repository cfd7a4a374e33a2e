/**
 * Reading the question frontier (seed 000 "Selection", "Lifecycle"): lookups, counts,
 * actionability, the DAG check, selection order, and a frontier plus a mutation. Pure.
 */
import { err, type Result } from "../result.js";
import type {
  Attempt,
  Dependency,
  Frontier,
  Mutation,
  Question,
  QuestionStatus,
  Rejection,
  Transition,
} from "./types.js";

export const reject = (rule: string, message: string): Result<never, Rejection> => err({ rule, message });

export const ROOT_QUESTION_ID = "q_001";
export const OPEN: ReadonlySet<QuestionStatus> = new Set(["pending", "in_progress", "blocked"]);
export const FAILED: ReadonlySet<QuestionStatus> = new Set(["pruned", "unresolvable"]);

export const formatQuestionId = (n: number): string => `q_${String(n).padStart(3, "0")}`;
export const idNumber = (id: string): number => Number(/^q_(\d+)$/.exec(id)?.[1] ?? Number.NaN);
export const isPriority = (value: number): boolean => Number.isFinite(value) && value >= 0 && value <= 1;
export const p2 = (value: number): string => value.toFixed(2);

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

/**
 * Whether the objective was broadly expanded (it has sub-questions) or declared atomic: until
 * then the only work is the expansion (no selection, no search).
 */
export function isExpanded(frontier: Pick<Frontier, "rootAtomic" | "questions">): boolean {
  return frontier.rootAtomic || frontier.questions.some((question) => question.parentId === ROOT_QUESTION_ID);
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

export function cycleRejection(dependencies: readonly Dependency[], questionId: string, dependsOnId: string) {
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

/** The sub-agent holding an in-progress question (a row from before sub-agents: sub-agent 1). */
export function holderOf(question: Question): number {
  return question.agent > 0 ? question.agent : 1;
}
