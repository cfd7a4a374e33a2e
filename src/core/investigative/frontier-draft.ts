/**
 * The draft of one frontier decision: a local working copy that collects the rows it adds,
 * applies the automatic cleanups (blocking, unblocking) and finishes as a `FrontierResult`.
 * Pure; never escapes the decision that made it.
 */
import { ok, type Result } from "../result.js";
import {
  applyFrontierMutation,
  attemptCount,
  dependenciesOf,
  FAILED,
  findQuestion,
  OPEN,
  p2,
  reject,
} from "./frontier-queries.js";
import {
  type Actor,
  type Attempt,
  type DecisionContext,
  type Dependency,
  EMPTY_MUTATION,
  type Frontier,
  type Mutation,
  type Question,
  type QuestionStatus,
  type Rejection,
  type Transition,
  type TransitionTrigger,
} from "./types.js";

/** The decision context, with the research state sequence the transitions belong to (default 0). */
export type FrontierContext = DecisionContext & {
  readonly stateSeq?: number;
  /** The sub-agent a selection claims the question for (default 1), and its run. */
  readonly agent?: number;
  readonly runId?: number;
};

/** A change of the frontier: the new value and exactly the rows it adds or changes. */
export type FrontierChange<Extra = unknown> = { frontier: Frontier; mutation: Mutation } & Extra;
export type FrontierResult<Extra = unknown> = Result<FrontierChange<Extra>, Rejection>;

// ---------------------------------------------------------------------------------------------
// The draft: the local, mutable working copy of one decision; never escapes a function.

export interface Draft {
  frontier: Frontier;
  readonly ctx: FrontierContext;
  readonly changed: string[];
  readonly dependencies: Dependency[];
  readonly attempts: Attempt[];
  readonly transitions: Transition[];
}

export interface TransitionMeta {
  trigger: TransitionTrigger;
  actor: Actor;
  reason: string;
  causedBy?: string;
}

export type QuestionPatch = Partial<
  Pick<Question, "answer" | "claimIds" | "exemption" | "priority" | "reopens" | "claimedBy" | "agent">
>;

export const draftOf = (frontier: Frontier, ctx: FrontierContext): Draft => ({
  frontier,
  ctx,
  changed: [],
  dependencies: [],
  attempts: [],
  transitions: [],
});

export function mustFind(draft: Draft, id: string): Question {
  const question = findQuestion(draft.frontier, id);
  if (!question) throw new Error(`frontier: unknown question ${id}`);
  return question;
}

export function apply(draft: Draft, mutation: Partial<Mutation>): void {
  draft.frontier = applyFrontierMutation(draft.frontier, { ...EMPTY_MUTATION, ...mutation });
  for (const question of mutation.questions ?? []) {
    if (!draft.changed.includes(question.id)) draft.changed.push(question.id);
  }
  draft.dependencies.push(...(mutation.dependencies ?? []));
  draft.attempts.push(...(mutation.attempts ?? []));
  draft.transitions.push(...(mutation.transitions ?? []));
}

export function transitionRow(
  draft: Draft,
  from: Question | undefined,
  to: Question,
  meta: TransitionMeta,
): Transition {
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
export function move(
  draft: Draft,
  id: string,
  status: QuestionStatus,
  meta: TransitionMeta,
  patch: QuestionPatch = {},
) {
  const from = mustFind(draft, id);
  // The claim is kept while in progress and released with any other status.
  const held = status === "in_progress";
  const to: Question = {
    ...from,
    ...patch,
    status,
    claimedBy: held ? (patch.claimedBy ?? from.claimedBy) : null,
    agent: held ? (patch.agent ?? from.agent) : 0,
    updatedAt: draft.ctx.now,
  };
  apply(draft, { questions: [to], transitions: [transitionRow(draft, from, to, meta)] });
  return to;
}

export function createQuestion(draft: Draft, question: Question, meta: TransitionMeta): void {
  apply(draft, { questions: [question], transitions: [transitionRow(draft, undefined, question, meta)] });
}

/** Raises the priority floor of every open (transitive) dependency of `id` to its priority. */
export function raiseDependencyFloor(draft: Draft, id: string): void {
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
export function cleanup(draft: Draft): void {
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

export function finish<Extra>(draft: Draft, extra: Extra): FrontierResult<Extra> {
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

export function unknown(id: string, role = "question"): Result<never, Rejection> {
  return reject(
    "unknown-question",
    `Unknown ${role} id "${id}": use an id shown in the frontier summary or frontier_view.`,
  );
}

export function wrongStatus(question: Question, allowed: string, hint: string): Result<never, Rejection> {
  return reject(
    "invalid-status",
    `${question.id} is ${question.status}; this applies only to a ${allowed} question. ${hint}`,
  );
}

export function badPriority(priority: number): Result<never, Rejection> {
  return reject(
    "priority-range",
    `priority ${priority} is outside 0..1: give a number from 0 (marginal) to 1 (critical).`,
  );
}
