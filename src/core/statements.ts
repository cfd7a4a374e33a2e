/**
 * What a text states, for every rule that compares a text with its evidence (pure,
 * deterministic): the numbers it writes (one definition for admission, the offline engine and
 * the report mapping), the names it writes that a passage does not, and whether a passage
 * states a claim, contradicts it, narrows it, or does neither. Lexical on purpose: it can
 * refuse a support it cannot see; it never proves a paraphrase.
 */
import { isVerbLike, namesIn, normalizePhrase, stemSet } from "./lexicon.js";

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

/** How a passage's sentence stands to a claim. */
export type Stance = "supports" | "contradicts" | "narrows" | "neither";

// Words and phrases that deny or refute what their clause says. "n't" forms are matched apart.
const NEGATION =
  /\b(?:not|never|no longer|no|none|neither|nor|cannot|false|untrue|myth|myths|wrong|incorrect|inaccurate|erroneous|erroneously|mistaken|mistakenly|misconception|retracted|retraction|withdrawn|disputed|disputes|debunked|refuted|refutes|disproved|disproves|denied|denies|contrary to|rather than|instead of)\b|\b\p{L}+n['’]t\b/giu;
// Words that report a statement without making it.
const HEDGE =
  /\b(?:may|might|possibly|perhaps|reportedly|allegedly|supposedly|rumou?red|unconfirmed|unverified|is said to|are said to|was said to|were said to)\b/giu;
// Words that confine a statement to part of what it says.
const NARROWING =
  /\b(?:only in|only for|only when|only under|except|excluding|limited to|in some cases|under certain conditions|not all)\b/giu;
// Clause boundaries: a contrast or a second statement in one sentence.
const CLAUSE_BREAK = /;|,?\s+(?:but|whereas|while|although|though|however|yet)\s+/iu;

interface Cue {
  index: number;
  end: number;
}

const cuesOf = (text: string, pattern: RegExp): Cue[] =>
  [...text.matchAll(pattern)].map((match) => ({ index: match.index, end: match.index + match[0].length }));

/** Content stems of a text, cue words aside: with its figures, or (`figures` false) without them, naming only what it is about. */
function subjectStems(text: string, figures = false): ReadonlySet<string> {
  const key = `${figures ? "1" : "0"}${text}`;
  const known = subjectMemo.get(key);
  if (known) return known;
  const plain = text.replace(NEGATION, " ").replace(HEDGE, " ").replace(NARROWING, " ");
  const found: ReadonlySet<string> = new Set([...stemSet(plain)].filter((term) => figures || !/^\p{Nd}/u.test(term)));
  if (subjectMemo.size >= SUBJECT_MEMO_SIZE) subjectMemo.clear();
  subjectMemo.set(key, found);
  return found;
}

/**
 * `subjectStems` remembered per text: a synthesis compares every candidate sentence with every
 * fact, and so stems the same sentences again and again. Bounded; the value depends on the text alone.
 */
const subjectMemo = new Map<string, ReadonlySet<string>>();
const SUBJECT_MEMO_SIZE = 4_096;

const sharedShare = (claim: ReadonlySet<string>, text: ReadonlySet<string>): { shared: number; share: number } => {
  let shared = 0;
  for (const term of claim) if (text.has(term)) shared++;
  return { shared, share: claim.size === 0 ? 0 : shared / claim.size };
};

/** Share of the claim's subject stems (and at least three, or all of a shorter claim's) a sentence must hold to be about it. */
const SUBJECT_SHARE = 0.6;
const SUBJECT_MIN = 3;

/** The content stems around a number in its clause: up to three words before it and three after. */
function frameOf(text: string, token: string): Set<string> {
  const frames = new Set<string>();
  for (const clause of text.split(/,(?!\p{Nd})|[;:()]|\s[-–—]\s/u)) {
    const at = clause.indexOf(token);
    if (at === -1 || /\p{Nd}/u.test(clause[at + token.length] ?? "")) continue;
    const before = [...stemSet(clause.slice(0, at))].filter((term) => !/^\p{Nd}/u.test(term)).slice(-3);
    const after = [...stemSet(clause.slice(at + token.length))].filter((term) => !/^\p{Nd}/u.test(term)).slice(0, 3);
    for (const term of [...before, ...after]) frames.add(term);
  }
  return frames;
}

/** Whether `other` (a figure of the sentence) stands where `figure` stands in the claim: the same words around it (at least two, and half of the claim's). */
function sameFrame(claim: string, figure: string, sentence: string, other: string): boolean {
  const mine = frameOf(claim, figure);
  if (mine.size === 0) return false;
  const theirs = frameOf(sentence, other);
  const shared = [...mine].filter((term) => theirs.has(term)).length;
  return shared >= Math.min(2, mine.size) && shared >= mine.size / 2;
}

/** What opens a name that only frames a statement: "at the 2011 Census", "according to the Census", "in the United States", "on the Billboard Hot 100". */
const FRAMING =
  /\b(?:[Aa]t|[Ii]n|[Oo]n|[Dd]uring|[Aa]ccording to|[Ss]ince|[Ff]rom|[Uu]ntil|[Aa]fter|[Bb]efore)\s+(?:[Tt]he\s+(?:(?:\p{Nd}[\p{Nd}–-]*(?:st|nd|rd|th)?|\p{Lu}[\p{L}.]*)\s+)*)?["“‘]?$/u;

/**
 * The proper names that say what a claim is about (not those that only frame it, `FRAMING`), with a figure written right after a name
 * as part of it ("Heinkel HD 39", "HWV 363b"): a single capitalised word the claim opens with
 * is left out ("According", "Producing"), since it may be an ordinary word.
 */
function subjectNames(claim: string): string[] {
  // A name that frames, and the names written right after it ("on the U.S. \"Billboard\" Hot 100").
  const names = namesIn(claim);
  let framingEnd = -1;
  const framing = names.filter((name) => {
    const frames =
      FRAMING.test(claim.slice(0, name.start)) ||
      (framingEnd >= 0 && /^[\s"“”'‘’]*$/u.test(claim.slice(framingEnd, name.start)));
    if (frames) framingEnd = name.start + name.text.length;
    return frames;
  });
  return names
    .filter((name) => !(name.initial && !name.text.includes(" ")))
    .filter((name) => !framing.includes(name))
    .map((name) => {
      const identifier = /^\s+(\p{Nd}[\p{L}\p{Nd}-]*)(?![\p{L}\p{Nd},.]\p{Nd})/u.exec(
        claim.slice(name.start + name.text.length),
      );
      return identifier?.[1] && kindOf(identifier[1]) !== "year" ? `${name.text} ${identifier[1]}` : name.text;
    });
}

/** Whether `sentence` names every name of `claim` (`subjectNames`), and the claim has one. */
function namesEvery(sentence: string, claim: string): boolean {
  const names = subjectNames(claim);
  const written = ` ${normalizePhrase(sentence)} `;
  return names.length > 0 && names.every((name) => written.includes(` ${normalizePhrase(name)} `));
}

const NUMBER = /(?<![\p{L}\p{Nd}.,])\p{Nd}+(?:[.,\u202F\u00A0]\p{Nd}+)*/gu;

/**
 * The figures of a text as a stance compares them: `numbersIn`, with the short end of a year
 * range written out ("1962–63" is 1962 and 1963), and each marked `identifies` when it names
 * rather than measures — written into a name ("the 2011 Census", "the 1932 Winter Olympics",
 * "4th Baron Stafford", "The 2003–04 NBA season", "Heinkel HD 39"), a year that says which one
 * of a thing ("its 2020 survey", "the 1991 launch"), or into what the text is
 * about, before a first verb that is "is", "are", "was" or "were" ("The tornado outbreak
 * sequence of May 22–31, 2008 was …"), outside parentheses. Another identifying figure is
 * another thing, never another value for the same one.
 */
function figuresOf(text: string): { token: string; identifies: boolean }[] {
  const subjectEnd = subjectPhraseEnd(text);
  const figures: { token: string; identifies: boolean }[] = [];
  for (const match of text.matchAll(NUMBER)) {
    const before = text.slice(0, match.index);
    const after = text.slice(match.index + match[0].length);
    const written = match[0].replace(/[\u202F\u00A0]/g, ",");
    const previous = figures.at(-1);
    // "1962–63": the short end is the year 1963, and names what the start names.
    const rangeStart = /(\p{Nd}{2})\p{Nd}{2}[–-]$/u.exec(before);
    if (previous && /\p{Nd}[–-]$/u.test(before)) {
      const token = rangeStart?.[1] && written.length === 2 ? `${rangeStart[1]}${written}` : written;
      figures.push({ token, identifies: previous.identifies });
      continue;
    }
    const ordinal = /^(?:st|nd|rd|th)\b/u.test(after);
    const beforeName = /^\s+\p{Lu}/u.test(after.replace(/^(?:st|nd|rd|th)\b/u, "").replace(/^[–-]\p{Nd}+/u, ""));
    const article = /(?:^|\b(?:the|a|an|his|her|its|their)\s+)$/iu.test(before);
    const inParentheses = before.lastIndexOf("(") > before.lastIndexOf(")");
    // A year between an article or possessive and a noun says which one ("its 2020 survey", "the 1991 launch").
    const whichYear = article && kindOf(written) === "year" && /^\s+\p{Ll}/u.test(after);
    const identifies =
      (beforeName && (ordinal || article)) || whichYear || (match.index < subjectEnd && !inParentheses);
    figures.push({ token: written, identifies });
  }
  return figures;
}

/**
 * Where the phrase a text is about ends: at its first verb (in lower case) when that verb is "is", "are",
 * "was" or "were" and the text does not open with a preposition or a clause ("In 1991 Sony
 * began …" is about Sony, not 1991); 0 otherwise.
 */
function subjectPhraseEnd(text: string): number {
  if (/^\W*(?:in|on|at|by|from|since|during|after|before|until|according|when|while|if|as)\b/iu.test(text)) return 0;
  // Capitalised words are names here ("May 22–31, 2008"), not verbs.
  for (const word of text.matchAll(/(?<![\p{L}\p{Nd}’'-])\p{Ll}+/gu)) {
    const lower = word[0];
    if (isVerbLike(lower)) return /^(?:is|are|was|were)$/.test(lower) ? word.index : 0;
  }
  return 0;
}

/** A year (1000–2199) or another figure: two figures compare only within one kind. */
const kindOf = (token: string): "year" | "figure" =>
  /^(?:1\p{Nd}{3}|2[01]\p{Nd}{2})$/u.test(token) ? "year" : "figure";

/**
 * The polarity-bearing cues of `text` and the numbers it denies: a negation followed within
 * three words by a number ("not in 1887", "rather than 1,200") denies that number and leaves
 * the clause's polarity alone; a negation in a clause that is not about the claim (under half
 * of its subject stems) is another statement's and is ignored.
 */
function reading(text: string, claimSubject: ReadonlySet<string>) {
  const clauses: { start: number; end: number; about: boolean }[] = [];
  let offset = 0;
  for (const part of text.split(CLAUSE_BREAK)) {
    const start = text.indexOf(part, offset);
    const end = start + part.length;
    offset = end;
    const about = sharedShare(claimSubject, subjectStems(part)).share >= 0.5;
    clauses.push({ start, end, about });
  }
  const single = clauses.length <= 1;
  const counts = (cue: Cue) =>
    single || clauses.some((clause) => clause.about && cue.index >= clause.start && cue.index < clause.end);
  const denied = new Set<string>();
  let negations = 0;
  for (const cue of cuesOf(text, NEGATION)) {
    const after =
      /^\W+(?:(?:in|of|at|by|from|for|on|about|around|some|roughly|approximately|only)\W+){0,2}(\p{Nd}+(?:[.,\u202F\u00A0]\p{Nd}+)*)/u.exec(
        text.slice(cue.end),
      );
    if (after?.[1]) {
      for (const number of numbersIn(after[1])) denied.add(number);
      continue;
    }
    if (counts(cue)) negations++;
  }
  const hedged = cuesOf(text, HEDGE).some(counts);
  // A limit in another clause ("…, but only in Japan") still confines the statement.
  const narrowed = cuesOf(text, NARROWING).length > 0;
  const figures = figuresOf(text).filter((figure) => !denied.has(figure.token));
  const asserted = new Set(figures.map((figure) => figure.token));
  const values = new Set(figures.filter((figure) => !figure.identifies).map((figure) => figure.token));
  return { negations, denied, hedged, narrowed, asserted, values };
}

/**
 * How `sentence` stands to the claim `claim` (pure):
 *
 * - **neither** unless the sentence is about the claim's subject: it holds at least 60% of the
 *   claim's content stems, cue words aside (and at least three, or all of a shorter claim's),
 *   counted without figures or with them;
 * - **contradicts** when it denies the claim (a negation, refutation or retraction — not,
 *   never, no longer, false, myth, wrong, incorrect, retracted, disputed, contrary to, rather
 *   than, … — where the claim has none, or the other way round), denies one of the claim's
 *   numbers ("not in 1887"), or gives another figure of the same kind (a year for a year) in
 *   place of one the claim writes (on the same subject, or between the same words: "employed
 *   3,000 workers" against "employed 7,000 workers") — a figure only for a claim that names
 *   what it is about, every name of it written in the sentence too (`subjectNames`: "Heinkel
 *   HD 39" is not "Heinkel HD 40"; "it had a population of 6,493" names nothing);
 * - **narrows** when it states the claim only for part of it (only in, except, limited to, …);
 * - **neither** when it only reports the claim (may, reportedly, allegedly, …) or lacks one of
 *   its numbers;
 * - **supports** otherwise: same subject, every number of the claim asserted, same polarity;
 * - and in every case but **neither**, the sentence names the name the claim opens with (its
 *   subject, as a rule: "Sony" in "In 1991 Sony began …"), if the claim has one.
 */
export function stanceOf(sentence: string, claim: string): Stance {
  const stance = stanceOnWords(sentence, claim);
  if (stance === "neither") return stance;
  // Shared words are not a shared subject: "Navvulata is a 1998 Telugu comedy film" says nothing
  // of "Vivaaha Bhojanambu is a 1988 Telugu comedy film". The name the claim opens with must be there.
  const lead = namesIn(claim)[0]?.text;
  if (lead === undefined) return stance;
  const written = ` ${normalizePhrase(sentence)} `.includes(` ${normalizePhrase(lead)} `);
  return written ? stance : "neither";
}

/** `stanceOf` by the words and figures alone. */
function stanceOnWords(sentence: string, claim: string): Stance {
  const subject = subjectStems(claim);
  const about = (claimStems: ReadonlySet<string>, sentenceStems: ReadonlySet<string>) => {
    const { shared, share } = sharedShare(claimStems, sentenceStems);
    return claimStems.size > 0 && shared >= Math.min(SUBJECT_MIN, claimStems.size) && share >= SUBJECT_SHARE;
  };
  // About the same subject, figures aside (another figure for it contradicts), or with them (a
  // sentence that shares the claim's figures needs fewer of its words to state it).
  const sameSubject = about(subject, subjectStems(sentence));
  const sameStatement = about(subjectStems(claim, true), subjectStems(sentence, true));
  // A figure that names what the claim is about ("the 2011 Census", "The 1976 … season") must be
  // there too: a sentence without it is about another thing, whatever else it shares.
  const claimFigures = figuresOf(claim);
  const sentenceFigures = figuresOf(sentence);
  const sentenceNumbers = sentenceFigures.map((figure) => figure.token);
  const claimNumbers = claimFigures.map((figure) => figure.token);
  if (claimFigures.some((figure) => figure.identifies && !sentenceNumbers.includes(figure.token))) return "neither";
  const valuesOf = (figures: typeof claimFigures) =>
    figures.filter((figure) => !figure.identifies).map((figure) => figure.token);
  const claimValues = valuesOf(claimFigures);
  const sentenceValues = valuesOf(sentenceFigures);
  // Another figure in the place of one of the claim's, about the same thing (the words around it agree).
  const shareOfSubject = sharedShare(subject, subjectStems(sentence)).share;
  const replacedInPlace =
    shareOfSubject >= 0.4 &&
    claimValues.some(
      (figure) =>
        !sentenceNumbers.includes(figure) &&
        sentenceValues.some(
          (other) =>
            !claimNumbers.includes(other) &&
            kindOf(other) === kindOf(figure) &&
            sameFrame(claim, figure, sentence, other),
        ),
    );
  if (!sameSubject && !sameStatement) return replacedInPlace && namesEvery(sentence, claim) ? "contradicts" : "neither";
  const claimReading = reading(claim, subject);
  const said = reading(sentence, subject);
  const asserted = [...claimReading.asserted];
  if (asserted.some((number) => said.denied.has(number))) return "contradicts";
  // Denials do not cancel out ("contrary to reports, it is not true"): a sentence that denies more, or less, than the claim does contradicts it.
  if (said.negations !== claimReading.negations) return "contradicts";
  const missing = asserted.filter((number) => !said.asserted.has(number));
  // Another value of the same kind, in a sentence that says what the claim's figure is of (a
  // word around it in the claim: "born 1962" is not replaced by "his 2008 war film").
  const sentenceStems = subjectStems(sentence);
  const replaced = missing.some(
    (number) =>
      claimReading.values.has(number) &&
      [...frameOf(claim, number)].some((term) => sentenceStems.has(term)) &&
      [...said.values].some((other) => !claimReading.asserted.has(other) && kindOf(other) === kindOf(number)),
  );
  // Another figure contradicts only a claim about a named thing that the sentence names too.
  if (((replaced && sameSubject) || replacedInPlace) && namesEvery(sentence, claim)) return "contradicts";
  if (missing.length > 0 || !sameStatement) return "neither";
  if (said.hedged && !claimReading.hedged) return "neither";
  if (said.narrowed && !claimReading.narrowed) return "narrows";
  return "supports";
}

/** Whether `sentence` states the claim `claim`: `stanceOf` is `supports`. */
export const statesClaim = (sentence: string, claim: string): boolean => stanceOf(sentence, claim) === "supports";
