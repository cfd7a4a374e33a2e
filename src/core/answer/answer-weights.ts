/**
 * The weights and thresholds by which a sentence answers a part of a question (core/answer).
 * Fitted, not hand-tuned: `npm run fit:answer` (scripts/fit-answer-weights.mjs) searches them on
 * the HotpotQA development set (distractor setting, a file outside the repository) and writes
 * this file. Decision 0013 records the data, the search and what it measured.
 */
export interface AnswerWeights {
  /** What a sentence stands under (its title, its headings) counts for this share of its own words. */
  under: number;
  /** The other sentences of its passage count for this share. */
  passage: number;
  /** How much of a part a sentence must carry to answer it (idf-weighted share of its words). */
  answerFloor: number;
  /** How much of a part two sentences must carry between them, across a bridge. */
  bridgedFloor: number;
  /** How much of a part a sentence must carry to be tried as the first of two. */
  firstHopFloor: number;
  /** A sentence that carries this much of a part answers it alone, however much two would carry. */
  alone: number;
  /** How much more two sentences must carry of a part than one, to answer it across both. */
  bridgeMargin: number;
}

/** Written by scripts/fit-answer-weights.mjs. */
export const ANSWER_WEIGHTS: AnswerWeights = {
  under: 0.5,
  passage: 0.125,
  answerFloor: 0.36,
  bridgedFloor: 0.35,
  firstHopFloor: 0.14,
  alone: 0.6,
  bridgeMargin: 0.15,
};
