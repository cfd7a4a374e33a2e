/**
 * Fitting the answer's weights (core/answer/answer-weights.ts) on public multi-hop QA data, so
 * that they are learned rather than hand-tuned. Pure: the caller reads the data (HotpotQA's JSON,
 * kept outside the repository) and writes the weights (scripts/fit-answer-weights.mjs).
 */

import { type AnswerSource, answerQuestion, sentencesRead } from "../core/answer/answer.js";
import type { AnswerWeights } from "../core/answer/answer-weights.js";
import type { Judge } from "../core/judgment/judge.js";
import { containsAnswer } from "./scoring.js";

/** One question with its closed set of paragraphs and its accepted answers. */
export interface FitCase {
  id: string;
  question: string;
  answers: string[];
  sources: AnswerSource[];
}

type Paragraphs = [string, string[]][] | { title: string[]; sentences: string[][] };

/**
 * The cases of a HotpotQA file (the original `[[title, sentences]]` context, or the `{title,
 * sentences}` columns of its Hugging Face copy). Yes/no questions are left out: their answer is
 * not a span. Throws a reader's error for a file of another shape.
 */
export function hotpotCases(data: unknown): FitCase[] {
  if (!Array.isArray(data)) throw new Error("A HotpotQA file holds a JSON array of questions.");
  return data.flatMap((row: unknown, index): FitCase[] => {
    const item = row as { _id?: string; id?: string; question?: unknown; answer?: unknown; context?: Paragraphs };
    if (typeof item.question !== "string" || typeof item.answer !== "string" || !item.context)
      throw new Error(`Question ${index + 1} of the HotpotQA file has no question, answer or context.`);
    if (/^(?:yes|no)$/iu.test(item.answer.trim())) return [];
    const context = item.context;
    const paragraphs: [string, string[]][] = Array.isArray(context)
      ? context
      : context.title.map((title, at) => [title, context.sentences[at] ?? []]);
    return [
      {
        id: item._id ?? item.id ?? String(index),
        question: item.question,
        answers: [item.answer],
        sources: paragraphs.map(([title, sentences], at) => ({
          id: `p${at}`,
          title,
          chunks: [{ id: `p${at}:0`, text: sentences.join("").trim() }],
        })),
      },
    ];
  });
}

export interface FitScore {
  cases: number;
  /** Cases whose first answering sentence holds an accepted answer. */
  first: number;
  /** Cases where some answering sentence holds one. */
  any: number;
  /** Cases said to be `not-said` in some part, though every case's answer is in its paragraphs. */
  notSaid: number;
}

/** How `weights` answer `cases`: each over every sentence of its paragraphs. */
export function scoreWeights(cases: readonly FitCase[], weights: AnswerWeights, judge?: Judge): FitScore {
  const score: FitScore = { cases: cases.length, first: 0, any: 0, notSaid: 0 };
  for (const testCase of cases) {
    const read = sentencesRead(testCase.sources);
    const text = new Map(read.map((sentence) => [sentence.key, sentence.text]));
    const parts = answerQuestion(testCase.question, read, read, { weights, ...(judge ? { judge } : {}) });
    const uses = parts.flatMap((part) => part.uses);
    const first = uses.find((use) => use.role === "answer") ?? uses[0];
    if (first && containsAnswer(text.get(first.key) ?? "", testCase.answers)) score.first++;
    if (uses.some((use) => containsAnswer(text.get(use.key) ?? "", testCase.answers))) score.any++;
    if (parts.some((part) => part.status === "not-said")) score.notSaid++;
  }
  return score;
}

/** The values tried for each weight. */
export type FitGrid = { [K in keyof AnswerWeights]?: readonly number[] };

/** Better: more first answers, then more answers anywhere; never more false "not said". */
const better = (a: FitScore, b: FitScore): boolean =>
  a.notSaid <= b.notSaid && (a.first > b.first || (a.first === b.first && a.any > b.any));

/**
 * Coordinate ascent from `start`: each weight in turn takes the value of `grid` that scores best
 * with the others held, for `rounds` rounds or until nothing changes. Deterministic: ties keep the
 * value held, so the result moves from `start` only for a measured gain.
 */
export function fitWeights(
  cases: readonly FitCase[],
  start: AnswerWeights,
  grid: FitGrid,
  options: { rounds?: number; judge?: Judge } = {},
): { weights: AnswerWeights; before: FitScore; after: FitScore } {
  const before = scoreWeights(cases, start, options.judge);
  let weights = { ...start };
  let best = before;
  for (let round = 0; round < (options.rounds ?? 3); round++) {
    let moved = false;
    for (const [name, values] of Object.entries(grid) as [keyof AnswerWeights, readonly number[]][]) {
      for (const value of values) {
        if (value === weights[name]) continue;
        const tried = { ...weights, [name]: value };
        const score = scoreWeights(cases, tried, options.judge);
        if (better(score, best)) {
          weights = tried;
          best = score;
          moved = true;
        }
      }
    }
    if (!moved) break;
  }
  return { weights, before, after: best };
}
