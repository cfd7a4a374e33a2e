import { ok } from "../result.js";
import { challengesOn } from "./challenges.js";
import {
  addQuestion,
  declareAtomic,
  findQuestion,
  frontierNext,
  pruneBranch,
  reopenQuestion,
  resolveQuestion,
  retryQuestion,
  setPriority,
} from "./frontier.js";
import { holderOf } from "./frontier-queries.js";
import {
  compactQuestion,
  frontierCtx,
  frontierStep,
  type Handlers,
  questionDetail,
  reject,
  withFrontier,
} from "./tool-support.js";
import { EMPTY_MUTATION, type Investigation } from "./types.js";

/** Another sub-agent's question (in progress, claimed by it) is not this one's to retry or resolve. */
function heldByAnother(investigation: Investigation, id: string) {
  const question = findQuestion(investigation.frontier, id);
  const agent = investigation.agent ?? 1;
  if (question?.status !== "in_progress" || holderOf(question) === agent) return undefined;
  return reject(
    "held-by-another",
    `${id} is in progress with sub-agent ${holderOf(question)}: work on your own question` +
      " (frontier_view shows it), or add a question for what you found.",
  );
}

export const FRONTIER_HANDLERS: Handlers<
  | "frontier_next"
  | "frontier_view"
  | "add_question"
  | "declare_atomic"
  | "retry_question"
  | "resolve_question"
  | "reopen_question"
  | "set_priority"
  | "prune_branch"
> = {
  frontier_next(investigation, _args, ctx) {
    const result = frontierNext(investigation.frontier, investigation.config, frontierCtx(investigation, ctx));
    if (!result.ok) return result;
    const next = withFrontier(investigation, result.value.frontier);
    return ok({
      investigation: next,
      mutation: result.value.mutation,
      text: `Work on this question now; act to satisfy its criteria.\n${questionDetail(next, result.value.question)}`,
    });
  },

  frontier_view(investigation, args) {
    if (args.id !== undefined) {
      const question = findQuestion(investigation.frontier, args.id);
      if (!question)
        return reject("unknown-question", `There is no question ${args.id}; frontier_view without an id lists them.`);
      return ok({ investigation, mutation: EMPTY_MUTATION, text: questionDetail(investigation, question) });
    }
    const rows = investigation.frontier.questions.filter(
      (question) => args.status === undefined || question.status === args.status,
    );
    const text =
      rows.length > 0 ? rows.map(compactQuestion).join("\n") : `No ${args.status ?? ""} questions.`.replace("  ", " ");
    return ok({ investigation, mutation: EMPTY_MUTATION, text });
  },

  add_question(investigation, args, ctx) {
    const result = addQuestion(
      investigation.frontier,
      {
        parentId: args.parent_id,
        question: args.question,
        rationale: args.rationale,
        priority: args.priority,
        validationCriteria: args.validation_criteria,
        targetSources: args.target_sources,
        ...(args.depends_on ? { dependsOn: args.depends_on } : {}),
        ...(args.kind ? { kind: args.kind } : {}),
        ...(args.blocks_parent ? { unblocksParent: true } : {}),
      },
      investigation.config,
      frontierCtx(investigation, ctx),
    );
    return frontierStep(investigation, result, "Added.");
  },

  declare_atomic(investigation, args, ctx) {
    return frontierStep(
      investigation,
      declareAtomic(investigation.frontier, args.reason, frontierCtx(investigation, ctx)),
      "The objective is declared atomic: call frontier_next.",
    );
  },

  retry_question(investigation, args, ctx) {
    const held = heldByAnother(investigation, args.id);
    if (held) return held;
    const result = retryQuestion(
      investigation.frontier,
      {
        id: args.id,
        newQuery: args.new_query,
        why: args.why,
        ...(args.assumption ? { assumption: args.assumption } : {}),
      },
      investigation.config,
      frontierCtx(investigation, ctx),
    );
    return frontierStep(investigation, result, "Attempt recorded.");
  },

  resolve_question(investigation, args, ctx) {
    const question = findQuestion(investigation.frontier, args.id);
    if (!question) return reject("unknown-question", `There is no question ${args.id}.`);
    const held = heldByAnother(investigation, args.id);
    if (held) return held;
    for (const claimId of args.claim_ids) {
      const claim = investigation.ledger.claims.find((row) => row.id === claimId);
      if (!claim)
        return reject("unknown-claim", `${claimId} is not a recorded claim; record it with notes_append first.`);
      if (claim.status === "REFUTED" || claim.status === "RETRACTED") {
        return reject(
          "claim-status",
          `${claimId} is ${claim.status}: an answer cannot rest on it. Cite other claims or retry the question.`,
        );
      }
    }
    if (question.depth <= 1 && args.reason === undefined) {
      const challenged = challengesOn(investigation.challenges, "question_answer", question.id).some(
        // Survived (executed) or weakened (with sources): an inconclusive search is no test of the answer.
        (challenge) =>
          challenge.status === "closed" && (challenge.outcome === "survived" || challenge.outcome === "weakened"),
      );
      if (!challenged) {
        return reject(
          "answer-challenge",
          `${question.id} is at depth ${question.depth}: its answer carries the conclusion and must survive a challenge first (challenge with target_type question_answer, run the query, record_challenge_result), or give a reason.`,
        );
      }
    }
    const result = resolveQuestion(
      investigation.frontier,
      { id: args.id, answer: args.answer, claimIds: args.claim_ids, ...(args.reason ? { reason: args.reason } : {}) },
      frontierCtx(investigation, ctx),
    );
    return frontierStep(investigation, result, "Resolved.");
  },

  reopen_question(investigation, args, ctx) {
    const result = reopenQuestion(
      investigation.frontier,
      { id: args.id, why: args.why, ...(args.priority === undefined ? {} : { priority: args.priority }) },
      frontierCtx(investigation, ctx),
    );
    return frontierStep(investigation, result, "Reopened.");
  },

  set_priority(investigation, args, ctx) {
    return frontierStep(
      investigation,
      setPriority(investigation.frontier, args, frontierCtx(investigation, ctx)),
      "Priority set.",
    );
  },

  prune_branch(investigation, args, ctx) {
    return frontierStep(
      investigation,
      pruneBranch(investigation.frontier, args, frontierCtx(investigation, ctx)),
      "Pruned.",
    );
  },
};
