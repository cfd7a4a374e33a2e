/** Checks of a run's frontier history for tests: claims, from the transitions. */
import type { Transition } from "../core/investigative/types.js";

/**
 * What is wrong with each question's transitions, in seq order: a seq out of place, a
 * transition that does not leave the status the previous one entered, a claim
 * (→ in_progress) of a question already in progress. Empty when the history is sound.
 */
export function claimProblems(transitions: readonly Transition[]): string[] {
  const byQuestion = new Map<string, Transition[]>();
  for (const transition of transitions)
    byQuestion.set(transition.questionId, [...(byQuestion.get(transition.questionId) ?? []), transition]);
  const problems: string[] = [];
  for (const [id, list] of byQuestion) {
    const ordered = [...list].sort((a, b) => a.seq - b.seq);
    ordered.forEach((transition, index) => {
      if (transition.seq !== index + 1) problems.push(`${id}: seq ${transition.seq} at position ${index + 1}`);
      const before = ordered[index - 1];
      if (transition.toStatus === "in_progress" && before?.toStatus === "in_progress")
        problems.push(`${id}: claimed again at seq ${transition.seq} while in progress`);
      if (before && transition.fromStatus !== before.toStatus)
        problems.push(`${id}: seq ${transition.seq} leaves ${transition.fromStatus}, but it was ${before.toStatus}`);
    });
  }
  return problems;
}

/** The most questions in progress at once, replaying the transitions in write order. */
export function mostInProgress(transitions: readonly Transition[]): number {
  const status = new Map<string, string>();
  let most = 0;
  for (const transition of transitions) {
    status.set(transition.questionId, transition.toStatus);
    most = Math.max(most, [...status.values()].filter((value) => value === "in_progress").length);
  }
  return most;
}
