/**
 * The figures and names a text writes, for the structural checks of a text against its
 * evidence (pure, deterministic): the numbers it writes as written (one definition for
 * admission, the offline engine and the report mapping), the arithmetic a derived figure may
 * come from, and the names it writes that a passage does not. Whether a passage supports,
 * contradicts or only partly states a claim is the judge's (core/judgment).
 */
import { namesIn } from "./lexicon.js";

/**
 * Numbers written in `text`, as written: digits with their inner separators (`1,985`,
 * `3.5`, `2.10.1`), a thin or no-break space between digit groups written as a comma
 * (`1 985` is `1,985`). "1,985" is not "1985": a figure with a thousands separator is not
 * the year written without one, and a rule that strips separators would confuse them.
 * Digits that continue a word (`fp16`, `LiCoO2`, `H200`) are part of a name, not figures.
 */
export function numbersIn(text: string): string[] {
  return (text.match(/(?<![\p{L}\p{Nd}.,])\p{Nd}+(?:[.,\u202F\u00A0]\p{Nd}+)*/gu) ?? []).map((token) =>
    token.replace(/[\u202F\u00A0]/g, ","),
  );
}

/** The value of a number token from `numbersIn`: grouped thousands (`4,000`) and decimals (`3.5`); NaN when ambiguous (`3,5`, `2.10.1`). */
export function numberValue(token: string): number {
  if (/^\p{Nd}{1,3}(?:,\p{Nd}{3})+(?:\.\p{Nd}+)?$/u.test(token)) return Number(token.replace(/,/g, ""));
  if (/^\p{Nd}+(?:\.\p{Nd}+)?$/u.test(token)) return Number(token);
  return Number.NaN;
}

/** Decimal places a number token shows (`97` 0, `2.45` 2): the rounding a derived figure must hold to. */
const decimalsOf = (token: string): number => /\.(\p{Nd}+)$/u.exec(token)?.[1]?.length ?? 0;

/** The closed set of operations a derived figure may come from, over two premise figures. */
export const DERIVED_OPERATIONS = ["difference", "ratio", "percentage change", "sum"] as const;

/**
 * How `token` follows from two of `premiseNumbers` by one of `DERIVED_OPERATIONS` (a − b,
 * a ÷ b, (b − a) ÷ a × 100 either sign, a + b), within the rounding the token shows (±half
 * its last place), or undefined. Only tokens with a plain value take part.
 */
export function derivedBy(token: string, premiseNumbers: readonly string[]): string | undefined {
  const target = numberValue(token);
  if (!Number.isFinite(target)) return undefined;
  const tolerance = 0.5 * 10 ** -decimalsOf(token) + 1e-9;
  const values = [...new Set(premiseNumbers)].map(numberValue).filter(Number.isFinite);
  const close = (value: number) => Number.isFinite(value) && Math.abs(Math.abs(value) - target) <= tolerance;
  for (const [i, a] of values.entries()) {
    for (const [j, b] of values.entries()) {
      if (i === j) continue;
      if (close(a - b)) return `difference of ${a} and ${b}`;
      if (b !== 0 && close(a / b)) return `ratio of ${a} to ${b}`;
      if (a !== 0 && close(((b - a) / a) * 100)) return `percentage change from ${a} to ${b}`;
      if (i < j && close(a + b)) return `sum of ${a} and ${b}`;
    }
  }
  return undefined;
}

/**
 * What of `text` its evidence does not carry: the numbers it writes that `evidence` does not
 * (as written, `numbersIn`), and the names it writes (capitalised runs, `namesIn`) that
 * `evidence` does not contain (ignoring case). A name that only opens the text is checked too
 * unless it is a single word found in lower case. Empty when the text stays inside its evidence.
 */
export function unsupportedTerms(text: string, evidence: string): { numbers: string[]; names: string[] } {
  const carried = new Set(numbersIn(evidence));
  const numbers = [...new Set(numbersIn(text))].filter((number) => !carried.has(number));
  const lower = evidence.toLowerCase();
  const names = [
    ...new Set(
      namesIn(text)
        .filter((name) => !/^\p{Nd}/u.test(name.text))
        .map((name) => name.text),
    ),
  ].filter((name) => !lower.includes(name.toLowerCase()));
  return { numbers, names };
}

/**
 * The sentences of a passage, whitespace-normalized: each line on its own (a heading is not
 * part of the sentence under it), cut after ., ! or ? before a capital, a digit or a quote —
 * not after an initial ("D. P. Varma").
 */
export function sentencesOf(text: string): string[] {
  return text
    .split(/\n+/)
    .flatMap((line) =>
      line
        .replace(/^\s*#+\s*/, "")
        .replace(/\s+/g, " ")
        .trim()
        // Not after an initial ("D. P. Varma", "J. J. Movies").
        .split(/(?<![\s(.]\p{Lu}\.|^\p{Lu}\.)(?<=[.!?]["”’)]?)\s+(?=["“‘(]?[\p{Lu}\p{Nd}])/u),
    )
    .filter((sentence) => sentence.length > 0);
}
