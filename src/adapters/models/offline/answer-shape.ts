/**
 * What kind of answer a question asks for, and whether a sentence has that shape (pure). "When"
 * asks for a date, "how many" for a figure, "who" for a name, "why" for a cause, "how did X
 * change" for a direction of change with figures, "which version" for a version number. A sentence that has the shape asked for is
 * worth more than one that only shares the question's words (the one that introduces a topic).
 * Lexical and English: a hint to ranking, never a filter.
 */
import { namesIn } from "../../../core/lexicon.js";
import { numbersIn, numberValue } from "../../../core/statements.js";

export type AnswerShape = "date" | "figure" | "name" | "cause" | "change" | "version";

const ASKS: readonly [AnswerShape, RegExp][] = [
  ["date", /\b(?:when|what (?:year|date|decade|century)|which (?:year|date|decade)|since when)\b/i],
  [
    "figure",
    /\b(?:how (?:many|much|long|far|big|large|heavy|old|fast|often|high|low)|what (?:percentage|share|proportion|number|amount|price|cost|fraction|rate)|how did .+ change)\b/i,
  ],
  // Only a question that opens on the person or body it wants: in "How did Sony…, and who built…"
  // a capitalised word is no sign of the answer.
  [
    "name",
    /^\s*(?:who\b|which (?:person|people|company|companies|firm|scientist|researcher|author|organi[sz]ation|laboratory|university)\b)/i,
  ],
  ["cause", /\b(?:why|what (?:caused|causes|drove|drives|explains|led to)|for what reason|reasons?)\b/i],
  ["change", /\b(?:how (?:did|has|have|do|does) .+ (?:change|changed|evolve|evolved|develop|developed)|trend)\b/i],
  ["version", /\b(?:(?:which|what) (?:version|release)|since which)\b/i],
];

/** The shapes `question` asks for. */
export function answerShapes(question: string): Set<AnswerShape> {
  return new Set(ASKS.filter(([, pattern]) => pattern.test(question)).map(([shape]) => shape));
}

const CAUSE =
  /\b(?:because|due to|owing to|thanks to|driven by|drove|drive[sn]?|led to|leads? to|as a result|result(?:ed|s)? (?:in|from)|caused?|causes|explains?|explained|reasons?|since (?:the|it|they))\b/i;
const CHANGE =
  /\b(?:fell|fall(?:en|s|ing)?|dropped|drops?|declin(?:ed|es?|ing)|decreas(?:ed|es?|ing)|rose|ris(?:en|es|ing)|increas(?:ed|es?|ing)|grew|grow(?:n|s|ing)?|halved|doubled|tripled|slashed|cut|cheaper|costlier|lower(?:s|ed|ing)?|higher|reduc(?:e[ds]?|ing|tion)|collaps(?:e[ds]?|ing)|from .{1,40}? to)\b/i;
const VERSION = /\b(?:version|release|v)\s*\d+(?:\.\d+)*/i;
const PERCENT = /\d\s*(?:%|per ?cent\b)/i;
const MONTH = /\b(?:january|february|march|april|may|june|july|august|september|october|november|december)\b/i;

const isYear = (token: string): boolean => {
  const value = numberValue(token);
  return /^\d{4}$/.test(token) && value >= 1000 && value <= 2100;
};

/** Whether `sentence` has `shape`. */
function has(sentence: string, shape: AnswerShape): boolean {
  const numbers = numbersIn(sentence);
  switch (shape) {
    case "date":
      return numbers.some(isYear) || (MONTH.test(sentence) && numbers.length > 0);
    case "figure":
      return numbers.some((token) => !isYear(token)) || PERCENT.test(sentence);
    case "name":
      return namesIn(sentence).some((name) => !name.initial || name.text.includes(" "));
    case "cause":
      return CAUSE.test(sentence);
    case "change":
      return CHANGE.test(sentence);
    case "version":
      return VERSION.test(sentence);
  }
}

/**
 * How much more a sentence of each shape is worth when that shape is asked for. Most shapes are
 * common in any text (a figure, a name, "because") and lift a sentence a little; a version number
 * is rare outside the answer to "which version" and lifts it as much as the question's words.
 */
const LIFT: Readonly<Record<AnswerShape, number>> = {
  date: 0.3,
  figure: 0.3,
  name: 0.3,
  cause: 0.3,
  change: 0.3,
  version: 1,
};

/**
 * The shapes a heading gives every sentence under it: "What drove the decline" says its
 * sentences are causes of a change. A date, a figure, a name or a version in a heading is not
 * in the sentences under it.
 */
const HEADING_SHAPES: ReadonlySet<AnswerShape> = new Set(["cause", "change"]);

/** The shapes of `shapes` that `sentence` has, or its section's `heading` gives it (`HEADING_SHAPES`). */
export function shapesOf(sentence: string, shapes: ReadonlySet<AnswerShape>, heading = ""): Set<AnswerShape> {
  return new Set(
    [...shapes].filter(
      (shape) => has(sentence, shape) || (HEADING_SHAPES.has(shape) && heading !== "" && has(heading, shape)),
    ),
  );
}

/** How much more a sentence with `found` of the `asked` shapes is worth: each lifts it by its share. */
export function shapeLift(found: ReadonlySet<AnswerShape>, asked: ReadonlySet<AnswerShape>): number {
  if (asked.size === 0) return 0;
  let lift = 0;
  for (const shape of found) lift += LIFT[shape];
  return lift / asked.size;
}
