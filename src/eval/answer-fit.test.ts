import { describe, expect, it } from "vitest";
import { ANSWER_WEIGHTS } from "../core/answer/answer-weights.js";
import { fitWeights, hotpotCases, scoreWeights } from "./answer-fit.js";

const filler = Array.from({ length: 12 }, (_, index): [string, string[]] => [
  `Weather ${index}`,
  [`The weather on day ${index} was mild.`, " The river stayed calm."],
]);

const original = [
  {
    _id: "a",
    question: "In what year did the Asahi Kasei chemist Akira Yoshino build the first lithium-ion cell?",
    answer: "1985",
    context: [
      [
        "Akira Yoshino",
        ["Akira Yoshino was a chemist at Asahi Kasei.", " He built the first lithium-ion cell in 1985."],
      ],
      ...filler,
    ],
  },
  { _id: "b", question: "Were both cells built in Japan?", answer: "yes", context: filler },
];

describe("hotpotCases", () => {
  it("reads both shapes of HotpotQA's context and leaves yes/no questions out", () => {
    const columns = [
      {
        id: "a",
        question: original[0]?.question,
        answer: "1985",
        context: {
          title: ["Akira Yoshino"],
          sentences: [["Akira Yoshino built a cell.", " He worked for Asahi Kasei."]],
        },
      },
    ];
    const [fromOriginal] = hotpotCases(original);
    const [fromColumns] = hotpotCases(columns);
    expect(hotpotCases(original)).toHaveLength(1);
    expect(fromOriginal?.sources[0]).toMatchObject({ title: "Akira Yoshino" });
    expect(fromOriginal?.sources[0]?.chunks[0]?.text).toBe(
      "Akira Yoshino was a chemist at Asahi Kasei. He built the first lithium-ion cell in 1985.",
    );
    expect(fromColumns?.sources[0]?.chunks[0]?.text).toBe("Akira Yoshino built a cell. He worked for Asahi Kasei.");
  });

  it("says what is wrong with a file of another shape", () => {
    expect(() => hotpotCases({ data: [] })).toThrow(/JSON array/u);
    expect(() => hotpotCases([{ question: "Who?" }])).toThrow(/Question 1 .* no question, answer or context/u);
  });
});

describe("fitting the answer's weights", () => {
  const cases = hotpotCases(original);

  it("scores whether the first answering sentence holds the answer", () => {
    expect(scoreWeights(cases, ANSWER_WEIGHTS)).toEqual({ cases: 1, first: 1, any: 1, notSaid: 0 });
    // A floor no sentence reaches answers nothing (and says nothing false: the sources bear on it).
    expect(scoreWeights(cases, { ...ANSWER_WEIGHTS, answerFloor: 0.99 })).toMatchObject({ first: 0, notSaid: 0 });
  });

  it("moves a weight only for a measured gain, and is deterministic", () => {
    const start = { ...ANSWER_WEIGHTS, answerFloor: 0.99 };
    const grid = { answerFloor: [0.99, 0.42], alone: [0.5, 0.6, 0.7] };
    const fitted = fitWeights(cases, start, grid);
    expect(fitted.before.first).toBe(0);
    expect(fitted.after.first).toBe(1);
    expect(fitted.weights).toEqual({ ...start, answerFloor: 0.42 });
    expect(fitWeights(cases, start, grid)).toEqual(fitted);
  });
});
