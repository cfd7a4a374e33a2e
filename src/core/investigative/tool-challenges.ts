import { ok } from "../result.js";
import {
  type ChallengeConsequence,
  recordChallengeResult,
  registerChallenge,
  renderChallenges,
  validateChallenge,
} from "./challenges.js";
import { attemptsOf, reopenQuestion } from "./frontier.js";
import { addContradiction, linkSource, updateClaim } from "./ledger.js";
import {
  claimLine,
  currentQuestion,
  ensureSources,
  frontierCtx,
  type Handlers,
  mergeMutations,
  reopenCiting,
  type Step,
  spawnContradictionQuestion,
  type ToolContext,
  withFrontier,
} from "./tool-support.js";
import { EMPTY_MUTATION, type Investigation, type Mutation } from "./types.js";

export const CHALLENGE_HANDLERS: Handlers<"challenge" | "record_challenge_result" | "challenges_view"> = {
  challenge(investigation, args, ctx) {
    const question = currentQuestion(investigation);
    const valid = validateChallenge(
      {
        targetType: args.target_type,
        ...(args.target_id === undefined ? {} : { targetId: args.target_id }),
        negation: args.negation,
        strategy: args.strategy,
        expectedIfFalse: args.expected_if_false,
        query: args.query,
        questionId: question?.id ?? null,
      },
      {
        challenges: investigation.challenges,
        claims: investigation.ledger.claims,
        questions: investigation.frontier.questions,
        attemptQueries: question ? attemptsOf(investigation.frontier, question.id).map((attempt) => attempt.query) : [],
        ...(investigation.scratch.trim() ? { conclusion: investigation.scratch } : {}),
        config: investigation.config,
      },
    );
    if (!valid.ok) return valid;
    const registered = registerChallenge(investigation.challenges, valid.value, { now: ctx.now, actor: "agent" });
    if (!registered.ok) return registered;
    const challenge = registered.value.challenge;
    return ok({
      investigation: { ...investigation, challenges: registered.value.challenges },
      mutation: registered.value.mutation,
      text: `Registered ${challenge.id} (open). Now run its query with a search: "${challenge.query}", then call record_challenge_result.`,
    });
  },

  record_challenge_result(investigation, args, ctx) {
    const recorded = recordChallengeResult(
      investigation.challenges,
      {
        challengeId: args.challenge_id,
        outcome: args.outcome,
        evidence: args.evidence,
        sourceIds: args.source_ids,
        ...(args.result_claim_id ? { resultClaimId: args.result_claim_id } : {}),
      },
      { sourceIds: ctx.hostSources.map((source) => source.id), claims: investigation.ledger.claims },
      { now: ctx.now, actor: "agent" },
    );
    if (!recorded.ok) return recorded;
    const sources = ensureSources(investigation, args.source_ids, ctx);
    if (!sources.ok) return sources;
    let current: Investigation = { ...sources.value.investigation, challenges: recorded.value.challenges };
    let mutation = mergeMutations(sources.value.mutation, recorded.value.mutation);
    const lines = [renderChallenges([recorded.value.challenge])];
    for (const consequence of recorded.value.consequences) {
      const applied = applyConsequence(current, consequence, ctx);
      if (!applied.ok) return applied;
      current = applied.value.investigation;
      mutation = mergeMutations(mutation, applied.value.mutation);
      if (applied.value.text) lines.push(applied.value.text);
    }
    return ok({ investigation: current, mutation, text: lines.join("\n") });
  },

  challenges_view(investigation, args) {
    const filter = {
      ...(args.target_id === undefined ? {} : { targetId: args.target_id }),
      ...(args.status === undefined ? {} : { status: args.status }),
    };
    return ok({ investigation, mutation: EMPTY_MUTATION, text: renderChallenges(investigation.challenges, filter) });
  },
};

function applyConsequence(investigation: Investigation, consequence: ChallengeConsequence, ctx: ToolContext): Step {
  const claimCtx = { now: ctx.now, actor: "code" as const };
  switch (consequence.kind) {
    case "refute-claim": {
      let ledger = investigation.ledger;
      let mutation = EMPTY_MUTATION;
      for (const sourceId of consequence.sourceIds) {
        if (ledger.claimSources.some((link) => link.claimId === consequence.claimId && link.sourceId === sourceId))
          continue;
        const linked = linkSource(ledger, { claimId: consequence.claimId, sourceId, stance: "contradicts" });
        if (!linked.ok) return linked;
        ledger = linked.value.ledger;
        mutation = mergeMutations(mutation, linked.value.mutation);
      }
      const updated = updateClaim(
        ledger,
        investigation.challenges,
        { id: consequence.claimId, status: "REFUTED" },
        investigation.config,
        claimCtx,
      );
      if (!updated.ok) return updated;
      return ok({
        investigation: { ...investigation, ledger: updated.value.ledger },
        mutation: mergeMutations(mutation, updated.value.mutation),
        text: `${consequence.claimId} is now REFUTED.`,
      });
    }
    case "add-contradiction": {
      const added = addContradiction(investigation.ledger, consequence.claimId, consequence.otherClaimId, "");
      if (!added.ok) return added;
      return ok({
        investigation: { ...investigation, ledger: added.value.ledger },
        mutation: added.value.mutation,
        text: `Contradiction: ${consequence.claimId} vs ${consequence.otherClaimId}.`,
      });
    }
    case "spawn-question": {
      const spawned = spawnContradictionQuestion(investigation, consequence, ctx);
      if (!spawned.ok) {
        return ok({
          investigation,
          mutation: EMPTY_MUTATION,
          text: `No question was spawned (${spawned.error.message}); record the contradiction in Scratch.`,
        });
      }
      const linked = linkSpawnedQuestion(
        withFrontier(investigation, spawned.value.frontier),
        consequence.causedBy,
        spawned.value.question.id,
      );
      return ok({
        investigation: linked.investigation,
        mutation: mergeMutations(spawned.value.mutation, linked.mutation),
        text: `Spawned ${spawned.value.question.id} (P ${spawned.value.question.priority.toFixed(2)}): ${spawned.value.question.question}`,
      });
    }
    case "reopen-citing": {
      const reopened = reopenCiting(investigation, consequence.claimId, consequence.causedBy, ctx);
      return ok({
        investigation: reopened.investigation,
        mutation: reopened.mutation,
        text:
          reopened.reopened.length > 0
            ? `Reopened by code (they cite ${consequence.claimId}): ${reopened.reopened.join(", ")}`
            : "",
      });
    }
    case "amend-claim": {
      const updated = updateClaim(
        investigation.ledger,
        investigation.challenges,
        { id: consequence.claimId, amendText: consequence.scope },
        investigation.config,
        claimCtx,
      );
      if (!updated.ok) return updated;
      return ok({
        investigation: { ...investigation, ledger: updated.value.ledger },
        mutation: updated.value.mutation,
        text: `Amended: ${claimLine(updated.value.claim)}`,
      });
    }
    case "reopen-question": {
      const reopened = reopenQuestion(
        investigation.frontier,
        {
          id: consequence.questionId,
          why: consequence.reason,
          causedBy: consequence.causedBy,
          trigger: "contradiction",
        },
        frontierCtx(investigation, ctx, "code"),
      );
      if (!reopened.ok)
        return ok({
          investigation,
          mutation: EMPTY_MUTATION,
          text: `${consequence.questionId} was not reopened: ${reopened.error.message}`,
        });
      return ok({
        investigation: withFrontier(investigation, reopened.value.frontier),
        mutation: reopened.value.mutation,
        text: `Reopened ${consequence.questionId}.`,
      });
    }
    case "note":
      return ok({ investigation, mutation: EMPTY_MUTATION, text: consequence.text });
    case "continue-exploration":
      return ok({ investigation, mutation: EMPTY_MUTATION, text: `Exploration continues: ${consequence.reason}` });
  }
}

/**
 * The contradiction a refuting verdict recorded (its target against the counter-claim) names
 * the question spawned to resolve it, unless it already names one.
 */
function linkSpawnedQuestion(
  investigation: Investigation,
  challengeId: string,
  questionId: string,
): { investigation: Investigation; mutation: Mutation } {
  const unchanged = { investigation, mutation: EMPTY_MUTATION };
  const challenge = investigation.challenges.find((row) => row.id === challengeId);
  if (challenge?.targetType !== "claim" || !challenge.resultClaimId) return unchanged;
  const { targetId, resultClaimId } = challenge;
  const row = investigation.ledger.contradictions.find(
    (known) =>
      (known.claimId === targetId && known.otherClaimId === resultClaimId) ||
      (known.claimId === resultClaimId && known.otherClaimId === targetId),
  );
  if (row?.questionId !== "") return unchanged;
  const added = addContradiction(investigation.ledger, targetId, resultClaimId, questionId);
  if (!added.ok) return unchanged;
  return { investigation: { ...investigation, ledger: added.value.ledger }, mutation: added.value.mutation };
}
