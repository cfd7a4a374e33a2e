/**
 * The words that change what a clause asserts (pure): negations and denials ("never", "is a
 * myth", "has been retracted"), hedges ("may", "some studies suggest", "rumours persist that",
 * "critics claim", "is believed to"), forecasts ("will", "is expected to"), attributions
 * ("according to Reuters", "as the Gazette reported") and corrections ("an earlier version of
 * this article gave …"). wink-nlp's negation scope marks the words a "not" governs; these are
 * the cues it does not read. Each cue is matched on word boundaries, case aside.
 */

/** Predicates that deny the statement they are said of ("It is false that …", "… is a myth"). */
export const DENIAL =
  /\b(?:is|are|was|were|has been|have been|had been|being)?\s*(?:(?:a|an|the)\s+)?(?:false|untrue|not true|myth|misconception|fabrication|hoax|wrong|incorrect|inaccurate|erroneous|mistaken|debunked|refuted|disproved|disproven|discredited|retracted|withdrawn|rescinded|baseless|unfounded)\b|\bno evidence (?:that|of|for)\b|\bnever happened\b|\bdenied (?:that|reports)\b|\bdenies (?:that|reports)\b|\brejected (?:claims|reports) that\b/iu;

/** Hedges: the clause is a possibility, a suggestion or hearsay, not a statement. */
export const HEDGE =
  /\b(?:may|might|could|possibly|perhaps|probably|likely|unlikely|reportedly|allegedly|supposedly|purportedly|apparently|seemingly|rumou?red|rumou?rs?|unconfirmed|unverified|speculat\w*|suggests?|suggested|suggesting|hypothesi[sz]ed|theori[sz]ed|conjectured|is said to|are said to|was said to|were said to|is thought to|are thought to|was thought to|is believed to|are believed to|was believed to|were believed to|is claimed|it is claimed|some say|some claim|critics (?:say|said|claim|claimed|argue|argued|allege|alleged|contend)|claims? that|alleges? that|alleged that|in theory)\b/iu;

/** A forecast or an intention worded as what will be: not what is or was. */
export const FORECAST =
  /\b(?:will|shall|is expected to|are expected to|was expected to|is set to|are set to|is due to|are due to|is projected to|are projected to|is forecast to|are forecast to|is predicted to|are predicted to|is scheduled to|are scheduled to|plans to|planned to|aims to|intends to|is going to|are going to|is poised to|would)\b/iu;

/** A correction of an earlier statement: what follows the cue up to the clause's end was wrong. */
export const CORRECTION =
  /\b(?:correction|erratum|corrigendum|an earlier version|a previous version|previously (?:stated|reported|said|gave)|(?:incorrectly|wrongly|mistakenly|erroneously) (?:stated|reported|said|gave|listed|attributed)|misstated|misreported|was published in error)\b/iu;

/** What opens the corrected value after a correction: "; it was 14%", "the correct figure is …". */
export const CORRECTED =
  /(?:;|,|\.|—|–)\s*(?:it|the (?:correct|actual|right) (?:figure|number|date|value|name)|the figure|in fact|actually)\b/iu;

/** Attribution to a named origin: "according to Reuters", "as the Gazette reported", "Reuters reported". */
// A name: capitalised words separated by spaces (each word's letters cannot be split two ways: no backtracking blow-up).
const NAME = String.raw`\p{Lu}[\p{L}&.'’-]*(?:[ \t]+\p{Lu}[\p{L}&.'’-]*){0,5}`;
const ACCORDING_TO = new RegExp(String.raw`\b[Aa]ccording to (?:the\s+)?(${NAME})`, "u");
const VERBS = "reported|said|wrote|noted|announced|stated|first reported|reports";
const AS_REPORTED = new RegExp(String.raw`\b[Aa]s (?:the\s+)?(${NAME})\s+(?:${VERBS})\b`, "u");
const REPORTED_BY = new RegExp(
  String.raw`\b(?:the\s+)?(${NAME})\s+(?:reported|reports|said|says|announced|stated|told|wrote)\b`,
  "u",
);
const REPORTED_IN = new RegExp(String.raw`\b(?:reported|published|first reported) (?:by|in) (?:the\s+)?(${NAME})`, "u");
const WIRE_TAG = /^\s*[\p{Lu}][\p{Lu}\s,]{1,40}\((\p{Lu}[\p{L}&.]*(?:\s\p{Lu}[\p{L}&.]*){0,3})\)\s*[-–—]/u;

/** Capitalised words that open a sentence and are not an origin ("The", "It"). */
const NOT_ORIGINS = new Set([
  "The",
  "It",
  "This",
  "That",
  "He",
  "She",
  "They",
  "We",
  "A",
  "An",
  "In",
  "On",
  "At",
  "But",
]);

/**
 * The named origin a text attributes its statement to ("Reuters", "the Gazette", "AP"), lower
 * case with spaces collapsed, or undefined.
 */
export function attributionOf(text: string): string | undefined {
  for (const pattern of [WIRE_TAG, ACCORDING_TO, AS_REPORTED, REPORTED_IN, REPORTED_BY]) {
    const name = pattern
      .exec(text)?.[1]
      ?.trim()
      .replace(/[.,;:]+$/u, "");
    if (!name) continue;
    const words = name.split(/\s+/).filter((word) => !NOT_ORIGINS.has(word));
    if (words.length === 0) continue;
    return words.join(" ").toLowerCase();
  }
  return undefined;
}

/** The first match of `pattern` in `text` as a span, or undefined. */
export function cueIn(text: string, pattern: RegExp): { start: number; end: number; text: string } | undefined {
  const match = pattern.exec(text);
  if (!match) return undefined;
  const trimmed = match[0].trim();
  const start = match.index + match[0].indexOf(trimmed);
  return { start, end: start + trimmed.length, text: trimmed };
}
