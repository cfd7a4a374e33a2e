/**
 * The attempt log of the loop's acquisition tools (seed 000 "The cycle" step 5, "Adversarial
 * queries" rule 5): every `search` and `fetch_page` the loop runs is one attempt of a question,
 * with a one-line outcome; a search whose query is an open challenge's registered query
 * executes that challenge, which then points at the attempt. Pure.
 */
import { err, ok, type Result } from "../result.js";
import { attachAttempt, challengeForQuery } from "./challenges.js";
import { recordAttempt } from "./frontier.js";
import { findQuestion, ROOT_QUESTION_ID } from "./frontier-queries.js";
import { currentQuestion, mergeMutations } from "./tool-support.js";
import type { Attempt, Investigation, Mutation, Rejection } from "./types.js";

export interface AttemptLogInput {
  /** The question the attempt belongs to; the current question, else the root, when absent. */
  questionId?: string;
  query: string;
  tool: string;
  outcome: string;
}

export interface AttemptLogged {
  attempt: Attempt;
  /** The challenge this search executed, if its query was one. */
  challengeId?: string;
  mutation: Mutation;
}

/** The question an attempt is logged on: the one named, else the one in progress, else the root. */
export function attemptQuestion(investigation: Investigation, named?: string): string {
  if (named !== undefined && findQuestion(investigation.frontier, named)) return named;
  const current = currentQuestion(investigation);
  return current?.id ?? ROOT_QUESTION_ID;
}

/** Logs one attempt, and attaches it to the open challenge whose query it ran (searches only). Pure. */
export function logAttempt(
  investigation: Investigation,
  input: AttemptLogInput,
  now: string,
): Result<AttemptLogged, Rejection> {
  const questionId = attemptQuestion(investigation, input.questionId);
  const logged = recordAttempt(
    investigation.frontier,
    { questionId, query: input.query, tool: input.tool, outcome: input.outcome },
    { now, actor: "code", stateSeq: investigation.stateSeq },
  );
  if (!logged.ok) return logged;
  const { attempt } = logged.value;
  const challenge = input.tool === "search" ? challengeForQuery(investigation.challenges, input.query) : undefined;
  if (!challenge) return ok({ attempt, mutation: logged.value.mutation });
  const attached = attachAttempt(investigation.challenges, challenge.id, {
    questionId: attempt.questionId,
    seq: attempt.seq,
  });
  if (!attached.ok) return err(attached.error);
  return ok({
    attempt,
    challengeId: challenge.id,
    mutation: mergeMutations(logged.value.mutation, attached.value.mutation),
  });
}
