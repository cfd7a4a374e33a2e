/**
 * A sentence read into what it asserts (pure, given a `Language`): its clauses, each with its
 * main predicate, what governs it (a negation, a denial, a hedge, a forecast, a correction, an
 * attribution), the content words it is about and the quantities it states; and a claim read
 * into its propositions ("The museum opened in 1904 and was rebuilt after a fire" is two),
 * each with its subject, its predicate's words and its quantities.
 */
import { stem } from "../lexicon.js";
import { isRecordLine } from "../records.js";
import { splitSentences } from "../sentences.js";
import type { Language, WordClass, WordToken } from "./language.js";
import { wordClassOf } from "./language.js";
import { attributionOf, CORRECTED, CORRECTION, cueIn, DENIAL, FORECAST, HEDGE } from "./markers.js";
import { type Quantity, quantitiesIn } from "./quantities.js";

/** A content word of a text: what must be carried for the text to be stated. */
export interface Term {
  text: string;
  lemma: string;
  stem: string;
  wordClass: WordClass;
  /** A capitalised name word (a proper noun, not only capitalised to open the sentence). */
  name: boolean;
  /** It opens its sentence: a capital there may be only the sentence's ("Construction of …"). */
  initial?: boolean;
  /** For an adjunct: the preposition that opens its phrase ("from" in "from wind"). */
  preposition?: string;
  start: number;
  end: number;
  /** Where it stands: before the main verb (the subject), the main predicate itself, its object, or an adjunct. */
  role: "subject" | "predicate" | "object" | "adjunct";
  negated: boolean;
  /** A noun that modifies the noun after it ("precursor" in "precursor industries"): not the thing itself. */
  modifier?: boolean;
}

/** A span of the text with its words. */
export interface Clause {
  start: number;
  end: number;
  text: string;
  terms: Term[];
  quantities: Quantity[];
  /** The main predicate's lemma ("open", "be"), if one was found. */
  predicate?: string;
  negated: boolean;
  /** The cue that denies it ("is a myth", "has been retracted"). */
  denial?: string;
  hedge?: string;
  forecast?: string;
  /** A correction's cue: the clause reports what was wrong. */
  correction?: string;
  /** Its subject is a pronoun or a definite noun phrase that refers back ("It", "The bridge"). */
  refersBack: boolean;
  /** It is what the clause before it says, finds or denies ("… found that <clause>"): its subject is its own. */
  complement?: boolean;
}

export interface SentenceReading {
  text: string;
  clauses: Clause[];
  /** The named origin the sentence attributes its statement to. */
  attribution?: string;
}

/** Words that carry no content of their own here, beyond the language's stop words. */
const LIGHT_LEMMAS = new Set(
  (
    "be have do get make take give go come say use include also such other same several many much more most " +
    "well just only even still however thus therefore there here then now later " +
    "one ones thing things way part kind lot number total amount respectively approximately about around " +
    "per cent percent year years time times"
  ).split(" "),
);

const POSSESSIVES = new Set(["its", "his", "her", "their", "our", "my", "your"]);

/** Verbs that report a statement ("…, officials said"). */
const REPORTING = new Set([
  "say",
  "report",
  "tell",
  "announce",
  "add",
  "note",
  "state",
  "write",
  "claim",
  "find",
  "show",
  "conclude",
  "estimate",
]);

/** Reporting verbs a tagger may take for plural nouns before "that" ("The plan notes that …"). */
const REPORTING_FORMS = new Set(
  "notes shows says states reports finds claims suggests argues concludes confirms reveals indicates".split(" "),
);

/** Particles that make a phrasal verb with the verb before them ("set up", "carry out"). */
const PARTICLES = new Set(["up", "out", "off", "down", "away", "over"]);

const SUBJECT_PRONOUNS = new Set(["it", "he", "she", "they", "this", "these", "its", "his", "her", "their", "which"]);

/** Conjunctions and marks that open a new clause. */
const CLAUSE_BREAK_WORDS = new Set(["but", "whereas", "while", "although", "though", "yet"]);

const isContent = (token: WordToken): boolean => {
  const wordClass = wordClassOf(token.pos);
  if (!wordClass) return false;
  if (token.pos !== "PROPN" && (LIGHT_LEMMAS.has(token.lemma) || APPROXIMATORS.has(token.lemma))) return false;
  // "first", "last" say which one even where tagged as adverbs ("the first commercial cells").
  if (token.pos === "ADV" && !/ly$/.test(token.text) && !ORDINAL_WORDS.has(token.lemma)) return false;
  return /\p{L}/u.test(token.text);
};

/** Words that only say how exact a figure is ("roughly 80"): part of its quantity, not of what is said. */
const APPROXIMATORS = new Set(["roughly", "nearly", "almost", "approximately", "around", "about", "some", "circa"]);

/** Ordinal words a tagger may take for adverbs. */
const ORDINAL_WORDS = new Set(["first", "last", "second", "third"]);

/** Whether a token is a proper-noun word: tagged PROPN, or capitalised inside the sentence. */
const isNameWord = (token: WordToken, index: number, tokens: readonly WordToken[]): boolean => {
  if (!/^\p{Lu}/u.test(token.text)) return false;
  if (token.pos === "PROPN") return true;
  const previous = tokens[index - 1];
  return index > 0 &&
    previous !== undefined &&
    previous.pos !== "PUNCT" &&
    /\p{Lu}/u.test(token.text.slice(1)) === false
    ? token.pos === "NOUN"
    : false;
};

/**
 * Where the search for a clause's verb starts: after a phrase that opens with a preposition and
 * ends with a comma ("According to accounts Goodenough gave, the University …"), when a verb
 * follows; else at the clause's start.
 */
function phraseBefore(tokens: readonly WordToken[], from: number, to: number): number {
  const comma = attributionComma(tokens, from, to);
  if (comma < 0) return from;
  const rest = tokens.slice(comma + 1, to);
  return rest.some((token) => token.pos === "VERB" || token.pos === "AUX") ? comma + 1 : from;
}

/**
 * The comma that closes an opening "According to …" (or "Owing to …", "Due to …") phrase, which
 * may hold a verb of its own ("According to accounts Goodenough gave later in life, …"); -1 when
 * the clause does not open with one.
 */
function attributionComma(tokens: readonly WordToken[], from: number, to: number): number {
  const first = tokens[from];
  if (!first || !/^(?:according|owing|due)$/iu.test(first.text) || tokens[from + 1]?.lemma !== "to") return -1;
  for (let i = from + 2; i < to; i++) if (tokens[i]?.text === ",") return i;
  return -1;
}

/** The index of the clause's main predicate: its first lexical verb, else its first auxiliary (a copula). */
function mainVerb(tokens: readonly WordToken[], from: number, to: number): number {
  let auxiliary = -1;
  for (let i = phraseBefore(tokens, from, to); i < to; i++) {
    const token = tokens[i];
    if (!token) continue;
    // "advertised", "published" before a noun are adjectives in effect ("the advertised range").
    const previous = tokens[i - 1];
    const determined = previous?.pos === "DET" || (previous?.pos === "PRON" && POSSESSIVES.has(previous.lemma));
    // A participle set off by a comma ("The cells, introduced by Sony in 1991, reached …") is not the main verb.
    const appositive = previous?.text === "," && /(?:ed|en)$/i.test(token.text) && tokens[i + 1]?.lemma === "by";
    if (appositive) continue;
    if (token.pos === "VERB" && !(tokens[i + 1]?.pos === "NOUN" && determined)) {
      // A copula before it with a noun phrase between is the main verb ("He is the coach …, a
      // position he held"): the later verb belongs to a clause of its own.
      if (
        auxiliary >= 0 &&
        tokens.slice(auxiliary + 1, i).some((between) => ["NOUN", "PROPN", "PUNCT", "DET"].includes(between.pos))
      )
        return auxiliary;
      return i;
    }
    if (token.pos === "AUX" && auxiliary === -1) auxiliary = i;
  }
  return auxiliary;
}

/** A clause's tokens; `complement`: it is what the clause before it says, finds or denies ("that …"). */
interface ClauseSpan {
  from: number;
  to: number;
  complement: boolean;
}

/** Clause boundaries of a token run: ";", ":", "—", or a comma or nothing before but, whereas, while, although, however, yet. */
function clauseSpans(tokens: readonly WordToken[]): ClauseSpan[] {
  const spans: ClauseSpan[] = [];
  let from = 0;
  let depth = 0;
  let complement = false;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (!token) continue;
    // Nothing inside parentheses breaks a clause ("(7 January 1535 – 18 October 1603)").
    if (/^[([]$/.test(token.text)) depth++;
    if (/^[)\]]$/.test(token.text)) depth = Math.max(0, depth - 1);
    if (depth > 0) continue;
    // A dash with a space before it breaks a clause; one between figures ("13–10", "1962–63") does not.
    const spacedDash =
      /^[—–]$/.test(token.text) && tokens[i - 1] !== undefined && (tokens[i - 1]?.end ?? 0) < token.start;
    // "The audit found that …", "It is false that …": what is found or denied is a clause of its own.
    const previous = tokens[i - 1];
    const reports = previous !== undefined && REPORTING_FORMS.has(previous.text.toLowerCase());
    const opensComplement =
      token.lemma === "that" &&
      (token.pos === "SCONJ" || reports) &&
      previous !== undefined &&
      // Not after a participle ("the trial reporting that …" is a noun phrase: its verb comes later).
      ((previous.pos === "VERB" && !/ing$/i.test(previous.text)) || previous.pos === "ADJ" || reports) &&
      i > from;
    const breakHere =
      (token.pos === "PUNCT" && (/^[;:]$/.test(token.text) || spacedDash) && i > from) ||
      (CLAUSE_BREAK_WORDS.has(token.lemma) && i > from + 1) ||
      opensComplement;
    if (breakHere) {
      spans.push({ from, to: i, complement });
      from = token.pos === "PUNCT" || opensComplement ? i + 1 : i;
      complement = opensComplement;
    }
  }
  if (from < tokens.length) spans.push({ from, to: tokens.length, complement });
  return spans.filter((span) => span.to > span.from);
}

/** Whether the clause's subject (the words before its main verb) is a pronoun or a definite noun phrase with no name. */
function refersBack(tokens: readonly WordToken[], from: number, verb: number): boolean {
  const before = tokens.slice(from, verb < 0 ? from : verb).filter((token) => token.pos !== "PUNCT");
  if (before.length === 0) return true;
  const first = before[0];
  if (!first) return true;
  if (first.pos === "PRON" && SUBJECT_PRONOUNS.has(first.lemma)) return true;
  if (first.pos === "CCONJ") return true;
  // Nothing nominal before its verb ("while retaining …", "however, and need …"): it shares the subject before it.
  if (!before.some((token) => ["NOUN", "PROPN", "PRON", "NUM"].includes(token.pos))) return true;
  // "In fp16 its weights take …": a pronoun in the subject refers back, wherever it stands.
  if (before.some((token) => token.pos === "PRON" && SUBJECT_PRONOUNS.has(token.lemma))) return true;
  const definite = /^(?:the|this|that|these|those|its|their|his|her)$/i.test(first.text);
  return definite && !before.some((token) => token.pos === "PROPN");
}

/**
 * Where a phrase put before the subject ends ("After last year's cuts, the Delmar shipyard …",
 * "In 1991 Sony began …"): after the comma that closes it, or after its noun or year; `from`
 * when the clause opens with no such phrase. A phrase opened by "of" is part of the subject.
 */
function frontedPhrase(tokens: readonly WordToken[], from: number, verb: number): number {
  const first = tokens[from];
  if (!first || first.pos !== "ADP" || first.lemma === "of" || verb <= from) return from;
  // "According to …," ends at its comma, whatever it holds ("According to accounts he gave later, …").
  const comma = attributionComma(tokens, from, verb);
  if (comma >= 0) return comma + 1;
  let sawNoun = false;
  for (let i = from + 1; i < verb; i++) {
    const token = tokens[i];
    if (!token) break;
    if (token.pos === "PUNCT") return i + 1;
    if (token.pos === "NUM" && !sawNoun && /^\p{Nd}{4}$/u.test(token.text)) return i + 1;
    if (token.pos === "NOUN" || token.pos === "PROPN") sawNoun = true;
    else if (sawNoun && !(token.pos === "PART" || (token.pos === "ADP" && token.lemma === "of"))) return i;
  }
  return from;
}

function termsOf(
  tokens: readonly WordToken[],
  from: number,
  to: number,
  verb: number,
  negatedClause: boolean,
  quantities: readonly Quantity[],
): Term[] {
  const terms: Term[] = [];
  const fronted = frontedPhrase(tokens, from, verb);
  const attributedFrom = trailingAttribution(tokens, from, to, verb);
  let afterPreposition = false;
  let preposition = "";
  for (let i = from; i < to; i++) {
    const token = tokens[i];
    if (!token) continue;
    if (i > verb && (token.pos === "ADP" || token.pos === "SCONJ" || (token.pos === "PART" && token.lemma === "to"))) {
      afterPreposition = true;
      preposition = token.lemma;
    }
    // A unit or a number word is part of its quantity ("500 km", "eight years").
    if (quantities.some((quantity) => token.start < quantity.end && token.end > quantity.start)) continue;
    // A number that is not a quantity names something with the name before it ("Heinkel HD 39", "Boeing 747").
    const previous = tokens[i - 1];
    // So does a capital letter after a noun ("Cell A", "cell A", "Plan B"), whatever the tagger makes of it.
    const letter = /^\p{Lu}$/u.test(token.text) && (previous?.pos === "NOUN" || previous?.pos === "PROPN");
    if (
      letter ||
      (token.pos === "NUM" && /^\p{Nd}+$/u.test(token.text) && previous && /^\p{Lu}/u.test(previous.text))
    ) {
      terms.push({
        text: token.text,
        lemma: token.text,
        stem: token.text,
        wordClass: "noun",
        name: true,
        start: token.start,
        end: token.end,
        role: verb < 0 || i < verb ? "subject" : "object",
        negated: false,
      });
      continue;
    }
    // Who a statement is attributed to ("…, according to the city's traffic office") is not part of it.
    if (i >= attributedFrom) continue;
    if (!isContent(token)) continue;
    const wordClass = wordClassOf(token.pos);
    if (!wordClass) continue;
    // "…, traders said": who reports a statement is not part of it.
    const next = tokens[i + 1];
    if (
      token.pos === "NOUN" &&
      next &&
      REPORTING.has(next.lemma) &&
      (tokens[i + 2] === undefined || tokens[i + 2]?.pos === "PUNCT")
    )
      continue;
    if (
      REPORTING.has(token.lemma) &&
      tokens[i - 1]?.pos === "NOUN" &&
      (next === undefined || next.pos === "PUNCT") &&
      i > verb
    )
      continue;
    const role: Term["role"] =
      i < fronted
        ? "adjunct"
        : verb < 0 || i < verb
          ? "subject"
          : i === verb
            ? "predicate"
            : afterPreposition
              ? "adjunct"
              : "object";
    const particle =
      token.pos === "VERB" && next && PARTICLES.has(next.lemma) && next.start === token.end + 1 ? next.lemma : "";
    const lemma = particle ? `${token.lemma} ${particle}` : token.lemma;
    terms.push({
      text: token.text,
      lemma,
      stem: stem(lemma),
      wordClass,
      name: isNameWord(token, i, tokens),
      ...(i === 0 ? { initial: true } : {}),
      ...(role === "adjunct" && preposition ? { preposition } : {}),
      start: token.start,
      end: token.end,
      role,
      negated: token.negated || (negatedClause && i >= verb),
      ...(wordClass === "noun" && modifiesNext(tokens, i) ? { modifier: true } : {}),
    });
  }
  return terms;
}

/** Where a trailing "according to …" starts after the verb (to the clause's end); `to` when there is none. */
function trailingAttribution(tokens: readonly WordToken[], from: number, to: number, verb: number): number {
  for (let i = Math.max(from, verb + 1); i < to - 1; i++) {
    if (tokens[i]?.lemma === "according" || tokens[i]?.text.toLowerCase() === "according")
      if (tokens[i + 1]?.lemma === "to") return i;
  }
  return to;
}

/**
 * Whether the noun at `i` modifies a noun after it: "precursor industries", and through a
 * coordination, "precursor and cathode industries".
 */
function modifiesNext(tokens: readonly WordToken[], i: number): boolean {
  const nominal = (token: WordToken | undefined) => token?.pos === "NOUN" || token?.pos === "PROPN";
  const next = tokens[i + 1];
  if (nominal(next)) return true;
  return next?.pos === "CCONJ" && nominal(tokens[i + 2]) && nominal(tokens[i + 3]);
}

/** Whether a negation governs the clause's main verb: the verb is in wink's negation scope, or "not"/"never"/"no longer" stands right before it. */
function negatesVerb(tokens: readonly WordToken[], from: number, verb: number): boolean {
  if (verb < 0) return false;
  const token = tokens[verb];
  if (token?.negated) return true;
  for (let i = Math.max(from, verb - 3); i < verb; i++) {
    const before = tokens[i];
    if (before && /^(?:not|never|n't|no)$/i.test(before.lemma === "not" ? "not" : before.text)) return true;
  }
  // A copula's complement: "is not the largest", "was never open".
  const next = tokens[verb + 1];
  return token?.pos === "AUX" && next !== undefined && /^(?:not|n't|never|no)$/i.test(next.text);
}

/** Whether a negation governs a quantity: a negated word of it, or "not", "rather than", "instead of" right before it ("not in 1887"). */
function deniedQuantity(tokens: readonly WordToken[], text: string, quantity: Quantity): boolean {
  if (tokens.some((token) => token.negated && token.start >= quantity.start && token.end <= quantity.end)) return true;
  return /\b(?:not|never|rather than|instead of|nor)\s+(?:(?:in|on|at|by|from|of|for|about|around|some|only|until)\s+){0,2}$/iu.test(
    text.slice(Math.max(0, quantity.start - 30), quantity.start),
  );
}

/**
 * Whether a quantity says which thing is meant rather than a value of it: it stands before the
 * main verb between an article or a possessive and a noun ("The 1997–98 NBA season was …",
 * "In its 2020 survey, BNEF reported …").
 */
function identifying(tokens: readonly WordToken[], quantity: Quantity, verb: number, fronted: number): boolean {
  const verbStart = tokens[verb]?.start ?? Number.POSITIVE_INFINITY;
  if (quantity.start >= verbStart) return false;
  // Within the subject (not a phrase put before it: "In 1991 Sony began …"), a figure describes which thing it is:
  // "The first cells, introduced by Sony in 1991, reached …".
  const inFront = (tokens[fronted - 1]?.end ?? -1) >= quantity.end;
  const subjectStart = tokens[fronted]?.start ?? 0;
  if (!inFront && quantity.start > subjectStart && verb >= 0 && quantity.kind === "time") return true;
  const index = tokens.findIndex((token) => token.start >= quantity.start);
  const after = tokens.findIndex((token) => token.start >= quantity.end);
  const before = tokens[index - 1];
  const next = tokens[after];
  const determined =
    before !== undefined && (before.pos === "DET" || (before.pos === "PRON" && POSSESSIVES.has(before.lemma)));
  return determined && next !== undefined && (next.pos === "NOUN" || next.pos === "PROPN" || next.pos === "ADJ");
}

/** A token range read as a clause: its words by role, its quantities and what governs it. */
function readSpan(
  text: string,
  tokens: readonly WordToken[],
  quantities: readonly Quantity[],
  from: number,
  to: number,
): Clause | undefined {
  const first = tokens[from];
  const last = tokens[to - 1];
  if (!first || !last) return undefined;
  const start = first.start;
  const end = last.end;
  const clauseText = text.slice(start, end);
  const verb = mainVerb(tokens, from, to);
  // "did not open … until 1995": it opened in 1995.
  const notUntil = /\bnot\b[^;]*\buntil\b/i.test(clauseText);
  const negated = negatesVerb(tokens, from, verb) && !notUntil;
  const own = quantities.filter((quantity) => quantity.start >= start && quantity.end <= end);
  const terms = termsOf(tokens, from, to, verb, negated, own).map((term) =>
    notUntil ? { ...term, negated: false } : term,
  );
  const denial = cueIn(clauseText, DENIAL)?.text;
  const hedge = cueIn(clauseText, HEDGE)?.text;
  const forecast = cueIn(clauseText, FORECAST)?.text;
  const predicate = verb >= 0 ? tokens[verb]?.lemma : undefined;
  return {
    start,
    end,
    text: clauseText,
    terms,
    quantities: own.map((quantity) => ({
      ...quantity,
      ...(deniedQuantity(tokens, text, quantity) ? { denied: true } : {}),
      ...(identifying(tokens, quantity, verb, frontedPhrase(tokens, from, verb)) ? { identifies: true } : {}),
    })),
    ...(predicate ? { predicate } : {}),
    negated,
    ...(denial ? { denial } : {}),
    ...(hedge ? { hedge } : {}),
    ...(forecast ? { forecast } : {}),
    refersBack: refersBack(tokens, from, verb),
  };
}

/** Whether a conjunct opens with a participle and no auxiliary of its own ("… could be extracted from and reinserted into …"). */
const sharesAuxiliary = (tokens: readonly WordToken[], from: number): boolean => {
  const first = tokens[from];
  const second = tokens[from + 1];
  const verb = first?.pos === "ADV" ? second : first;
  return verb?.pos === "VERB" && /(?:ed|en|wn|ne)$/i.test(verb.text);
};

/**
 * The clauses of one sentence, read (see `Clause`): cut at ";", ":", a dash and a contrast
 * ("but", "whereas", "while", "although", "however", "yet"), and within a clause at "and"
 * before a verb (a second predicate of the same subject: "opened in 1904 and was rebuilt
 * after a fire"). A conjunct that shares the auxiliary before it ("could be extracted from and
 * reinserted into") shares its hedge, forecast and negation. `text` is the sentence;
 * quantities and spans are offsets into it. A claim and a passage are read alike.
 */
export function readSentence(text: string, language: Language): SentenceReading {
  const tokens = language.tokens(text);
  const quantities = quantitiesIn(text);
  // A table row ("Plant: Kessel; Year: 2019; Output (TWh): 3.2") is one statement, not a clause per cell.
  const spans: ClauseSpan[] = isRecordLine(text)
    ? [{ from: 0, to: tokens.length, complement: false }]
    : clauseSpans(tokens);
  const clauses: Clause[] = [];
  for (const span of spans) {
    const cuts: number[] = [span.from];
    for (let i = span.from + 2; i < span.to; i++) {
      const next = tokens[i + 1];
      const afterNext = tokens[i + 2];
      const verbNext =
        next && (next.pos === "VERB" || next.pos === "AUX" || (next.pos === "ADV" && afterNext?.pos === "VERB"));
      if (tokens[i]?.lemma === "and" && verbNext) cuts.push(i);
    }
    cuts.push(span.to);
    let previous: Clause | undefined;
    for (let i = 0; i + 1 < cuts.length; i++) {
      const from = (cuts[i] ?? span.from) + (i > 0 ? 1 : 0);
      const clause = readSpan(text, tokens, quantities, from, cuts[i + 1] ?? span.to);
      if (!clause) continue;
      if (i > 0 && previous && sharesAuxiliary(tokens, from)) {
        if (previous.hedge) clause.hedge ??= previous.hedge;
        if (previous.forecast) clause.forecast ??= previous.forecast;
        clause.negated ||= previous.negated;
      }
      if (i > 0 && !clause.terms.some((term) => term.role === "subject")) clause.refersBack = true;
      // What a clause says, finds or denies is governed by it: "Some studies suggest that …", "It is false that …".
      const governing = clauses.at(-1);
      if (span.complement && i === 0) clause.complement = true;
      if (span.complement && i === 0 && governing) {
        if (governing.hedge) clause.hedge ??= governing.hedge;
        if (governing.forecast) clause.forecast ??= governing.forecast;
        if (governing.denial) clause.denial ??= governing.denial;
        if (governing.correction) clause.correction ??= governing.correction;
        clause.negated ||= governing.negated;
      }
      clauses.push(clause);
      previous = clause;
    }
  }
  markCorrectedClauses(text, clauses, cueIn(text, CORRECTION));
  const attribution = attributionOf(text);
  return { text, clauses, ...(attribution ? { attribution } : {}) };
}

/**
 * A correction ("Correction: an earlier version of this article gave the turnout as 41%; it
 * was 14%.") reports a wrong statement, then the right one: the clauses from its cue up to
 * the one that opens with the corrected value ("it was", "the correct figure is") are marked
 * as corrected; that one and those after it are not.
 */
function markCorrectedClauses(text: string, clauses: Clause[], cue: ReturnType<typeof cueIn>): void {
  if (!cue) return;
  let open = false;
  for (const clause of clauses) {
    if (clause.end <= cue.start) continue;
    const lead = text.slice(Math.max(0, clause.start - 2), clause.start + 40);
    if (open && CORRECTED.test(lead)) {
      open = false;
      continue;
    }
    if (!open && clause.start <= cue.end) open = true;
    if (open) clause.correction = cue.text;
  }
}

/** One proposition of a claim: a predicate with its subject, words and quantities. */
export interface Proposition {
  text: string;
  start: number;
  end: number;
  /** Every content word, the shared subject's included. */
  terms: Term[];
  quantities: Quantity[];
  predicate?: string;
  negated: boolean;
  /** A denial governs it ("It is false that …"). */
  denied: boolean;
  hedged: boolean;
  forecast: boolean;
  /**
   * Its subject is only a word that refers back ("Both replace most of the cobalt", "It opened
   * in 1904"): read alone, it does not say what it is about, so no passage can state it.
   */
  unanchored?: boolean;
}

/**
 * A claim read into its propositions: its clauses, and within a clause the predicates joined
 * by "and" ("opened in 1904 and was rebuilt after a fire"), each with the subject of the first.
 */
export function readClaim(text: string, language: Language): Proposition[] {
  // A claim of several sentences ("A study … It found that …") is read a sentence at a time.
  const sentences = splitSentences(text);
  if (sentences.length > 1) {
    // A sentence whose subject refers back ("… It is the main feedstock …") takes the subject of the one before.
    let subject: Term[] = [];
    return sentences.flatMap((sentence) =>
      readClaim(text.slice(sentence.start, sentence.end), language).map((proposition) => {
        const placed = {
          ...proposition,
          start: proposition.start + sentence.start,
          end: proposition.end + sentence.start,
        };
        if (placed.unanchored && subject.length > 0) {
          const { unanchored: _, ...anchored } = placed;
          return { ...anchored, terms: [...subject, ...placed.terms] };
        }
        const own = placed.terms.filter((term) => term.role === "subject");
        if (own.length > 0) subject = own;
        return placed;
      }),
    );
  }
  const propositions: Proposition[] = [];
  let subject: Term[] = [];
  for (const clause of readSentence(text, language).clauses) {
    const own = clause.terms;
    // A complement ("… found that <clause>") has a subject of its own, never the reporter's.
    const hasSubject = own.some((term) => term.role === "subject") || clause.complement === true;
    if (hasSubject) subject = own.filter((term) => term.role === "subject");
    const unanchored = subject.length === 0 && clause.refersBack && clause.predicate !== undefined;
    // A clause without a subject of its own has the one before ("… and was rebuilt after a fire").
    propositions.push({
      text: clause.text
        .replace(/^(?:and|but|while|whereas|although|though|however|yet)\b[\s,]*/iu, "")
        .replace(/[\s,;.]+$/u, ""),
      start: clause.start,
      end: clause.end,
      terms: hasSubject ? own : [...subject, ...own],
      quantities: clause.quantities,
      ...(clause.predicate ? { predicate: clause.predicate } : {}),
      negated: clause.negated,
      denied: clause.denial !== undefined,
      hedged: clause.hedge !== undefined,
      forecast: clause.forecast !== undefined,
      ...(unanchored ? { unanchored } : {}),
    });
  }
  // A fragment with no word of its own ("After eight years,") says nothing to check apart from the rest.
  const withWords = propositions.filter((proposition) =>
    proposition.terms.some((term) => term.end > proposition.start),
  );
  return withWords.length > 0 ? withWords : propositions.filter((proposition) => proposition.quantities.length > 0);
}
