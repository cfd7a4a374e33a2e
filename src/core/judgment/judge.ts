/**
 * The judge (DESIGN "Identities and truth"): for a claim and a passage in its context, does
 * the passage support it, contradict it, support only part of it, or neither? Pure given its
 * `Language`, deterministic, and conservative by construction:
 *
 * - **supports** only when every proposition of the claim is carried by the passage: each of
 *   its content words written there, or a synonym, a narrower word or another form of it
 *   (WordNet), its subject resolved through a pronoun or "the bridge" to the heading or the
 *   sentences before; each of its quantities entailed after normalization ("2.6 miles" for
 *   "4.2 km", "4 July 1904" for "1904"); and no negation, denial, hedge, forecast, correction
 *   or distancing attribution governing it.
 * - **contradicts** when the passage states the same subject and attribute with an
 *   incompatible value (another year, another length after conversion, another count of the
 *   same thing at the same time), negates or denies the claim ("never", "is a myth", "has been
 *   retracted"), reports it as corrected ("an earlier version … gave 41%"), or states the
 *   opposite ("fell" for "rose").
 * - **partial** when it carries some propositions and not others ("opened in 1904" of "opened
 *   in 1904 and was rebuilt after a fire"), or states the claim only as a possibility,
 *   a forecast or what others claim; **unrelated** otherwise.
 *
 * Every verdict comes with the sentences that decide it and a reason in reader words.
 */
import { isRecordLine, recordLine } from "../records.js";
import { type SentenceSpan, splitSentences } from "../sentences.js";
import { type Language, type WordClass, type WordToken, wordClassOf } from "./language.js";
import { entryOf, fitOf, type Quantity } from "./quantities.js";
import { type Clause, type Proposition, readClaim, readSentence, type SentenceReading, type Term } from "./reading.js";
import { isStatement } from "./statement.js";

export type Verdict = "supports" | "contradicts" | "partial" | "unrelated";

/** A span of a text: offsets and the text itself (whitespace collapsed for a sentence). */
export interface Span {
  start: number;
  end: number;
  text: string;
}

/** A passage as the judge reads it: its text, and what it stands under. */
export interface PassageInContext {
  text: string;
  /** The headings it stands under ("History › Opening"). */
  heading?: string;
  /** Its document's title. */
  title?: string;
  /** The text right before it (the end of the previous passage), where a subject it refers back to may be named. */
  before?: string;
}

export interface Judgement {
  verdict: Verdict;
  /** Why, in reader words (no ids, no internal names). */
  reason: string;
  /** The sentences of the passage that decide it (offsets into the passage text). */
  passage: Span[];
  /** The parts of the claim that decide it: the propositions carried, contradicted or missing. */
  claim: Span[];
  /** For `partial`: the parts of the claim the passage does not carry. */
  missing: string[];
  /** The named origin the deciding sentence attributes the statement to ("reuters"). */
  attribution?: string;
}

/** The judge: one for the process, or one backed by a model beside it (ports/judge). */
export interface Judge {
  judge(claim: string, passage: PassageInContext): Judgement;
  /**
   * How a word or name of a request may be written in a source: itself, and for a word its
   * synonyms, narrower and broader words and derived forms (lower case). What a gap's "the
   * sources do not mention X" must find in none of the passages read.
   */
  mentionsOf(term: string): readonly string[];
}

/** What one sentence does to one proposition. */
type Fit =
  | { kind: "supports" }
  | { kind: "contradicts"; why: string }
  | { kind: "qualified"; why: string }
  | { kind: "about"; missing: string[] }
  | { kind: "none" };

const FIT_ORDER: Record<Fit["kind"], number> = { contradicts: 4, supports: 3, qualified: 2, about: 1, none: 0 };

/**
 * Whether two words are forms of one word by their stems ("organise", "organisation"): the
 * same stem, and the longer starts with the shorter but its last letter ("electrode" is not
 * "electrolyte", though both stem to "electro").
 */
function sameStem(a: Term, b: Term): boolean {
  if (a.stem !== b.stem) return false;
  const [shorter, longer] = a.lemma.length <= b.lemma.length ? [a.lemma, b.lemma] : [b.lemma, a.lemma];
  return longer.startsWith(shorter.slice(0, -1));
}

/** Whether two words begin alike (three letters): a noun and the verb it is formed from do ("population", "populate"). */
const sharePrefix = (a: string, b: string): boolean =>
  a.length >= 3 && b.length >= 3 && a.slice(0, 3) === b.slice(0, 3);

/** Words that make a description name one thing: "the first cells", "the only bridge". */
const UNIQUE_WORDS = new Set(["first", "last", "only", "original", "sole"]);

/** Verbs of aspect: "began selling" says when selling started, and "never sold" still denies it. */
const ASPECT_VERBS = new Set(["begin", "start", "commence", "continue", "resume", "keep"]);

/** Paraphrases of an attribute that WordNet does not relate (each group means one thing here). */
const ATTRIBUTE_GROUPS: readonly (readonly string[])[] = [
  ["population", "resident", "inhabitant", "people"],
  ["company", "firm", "business", "corporation"],
  ["ceo", "chief executive", "chief executive officer", "chief"],
  ["found", "establish", "set up", "create", "start"],
  ["turnout", "participation"],
  ["range", "distance"],
  ["produce", "output", "generate", "generation", "production"],
];

const groupOf = new Map<string, number>();
ATTRIBUTE_GROUPS.forEach((group, index) => {
  for (const word of group) groupOf.set(word, index);
});

/** Words a measure's kind stands for: "6.1 km long" needs no "long" in "the 2.4-mile tunnel". */
const DIMENSION_WORDS: Record<string, readonly string[]> = {
  length: [
    "long",
    "length",
    "span",
    "stretch",
    "extend",
    "measure",
    "run",
    "wide",
    "width",
    "tall",
    "height",
    "high",
    "deep",
    "depth",
    "distance",
  ],
  mass: ["heavy", "weigh", "weight", "mass"],
  area: ["area", "cover", "size", "large", "span"],
  volume: ["volume", "capacity", "hold"],
  energy: ["energy", "capacity", "store"],
  power: ["power", "capacity", "output", "rate"],
  speed: ["speed", "fast", "reach", "top"],
  duration: ["last", "long", "take", "duration"],
};

const MEMO = 4_096;
/** Verdicts remembered before the memo starts again (a few megabytes). */
const VERDICT_MEMO = 65_536;

function remember<T>(memo: Map<string, T>, key: string, make: () => T): T {
  const known = memo.get(key);
  if (known !== undefined) return known;
  const made = make();
  if (memo.size >= MEMO) memo.clear();
  memo.set(key, made);
  return made;
}

/** The cells of a table row written with pipes ("Kessel | 2019 | 3.2"), or undefined for a line that is not one. */
function cellsOf(line: string): string[] | undefined {
  if (!line.includes("|")) return undefined;
  const cells = line
    .replace(/^\|/, "")
    .replace(/\|$/, "")
    .split("|")
    .map((cell) => cell.trim());
  return cells.length >= 2 && !cells.every((cell) => /^:?-{2,}:?$/.test(cell)) ? cells : undefined;
}

/**
 * The sentences as the judge reads them: a row of a table written with pipes is read as the
 * record it is, each value with its column's header ("Plant: Kessel; Year: 2019; Output
 * (TWh): 3.2"), when a header row of as many cells stands before it. Quotes keep the row as written.
 */
function tableRowsAsRecords(sentences: readonly string[]): string[] {
  let header: string[] | undefined;
  return sentences.map((sentence) => {
    const cells = cellsOf(sentence);
    if (!cells) {
      header = undefined;
      return sentence;
    }
    if (!header || header.length !== cells.length) {
      header = cells;
      return sentence;
    }
    return recordLine(header, cells);
  });
}

/** The sentences of a passage with their offsets (the one sentence splitter). */
const sentencesOf = (text: string): SentenceSpan[] => splitSentences(text);

export function createJudge(language: Language): Judge & {
  /** How one word of a claim is carried by one word of a passage, if at all. */
  carries(claim: Term, passage: Term): "same" | "broader" | "antonym" | undefined;
} {
  const claims = new Map<string, Proposition[]>();
  const assertions = new Map<string, boolean>();
  const sentences = new Map<string, SentenceReading>();
  const readingOf = (text: string): SentenceReading => remember(sentences, text, () => readSentence(text, language));
  const claimOf = (text: string): Proposition[] => remember(claims, text, () => readClaim(text, language));

  /** Whether passage word `passage` states claim word `claim` (same or narrower sense), is broader, or its opposite. */
  function carries(claim: Term, passage: Term): "same" | "broader" | "antonym" | undefined {
    if (claim.lemma === passage.lemma || sameStem(claim, passage)) return "same";
    // A name is carried only by itself (an abbreviation is `acronymCarried`).
    if (claim.name) return claim.text.toLowerCase() === passage.text.toLowerCase() ? "same" : undefined;
    const groupA = groupOf.get(claim.lemma);
    if (groupA !== undefined && groupA === groupOf.get(passage.lemma)) return "same";
    if (claim.wordClass === passage.wordClass) {
      const relation = language.relation(passage.lemma, claim.lemma, claim.wordClass);
      if (relation === "synonym" || relation === "narrower" || relation === "same" || relation === "derived")
        return "same";
      if (relation === "broader") return "broader";
      if (relation === "antonym") return "antonym";
      return undefined;
    }
    if (
      claim.wordClass === "noun" &&
      passage.wordClass === "verb" &&
      sharePrefix(claim.lemma, passage.lemma) &&
      language.derivedAcross(claim.lemma, passage.lemma)
    )
      return "same";
    if (
      claim.wordClass === "verb" &&
      passage.wordClass === "noun" &&
      sharePrefix(claim.lemma, passage.lemma) &&
      language.derivedAcross(passage.lemma, claim.lemma)
    )
      return "same";
    return undefined;
  }

  /** Multi-word names and abbreviations: "CEO" in the claim for "chief executive" in the passage, and back. */
  function acronymCarried(claim: Term, tokens: readonly Term[]): boolean {
    if (!/^\p{Lu}{2,6}$/u.test(claim.text)) return false;
    const initials = claim.text.toLowerCase();
    for (let i = 0; i < tokens.length; i++) {
      let letters = "";
      for (let j = i; j < tokens.length; j++) {
        const next = letters + (tokens[j]?.lemma[0] ?? "");
        if (!initials.startsWith(next)) break;
        letters = next;
        if (letters.length === initials.length) break;
      }
      if (letters.length >= 2 && letters.length >= initials.length - 1) return true;
    }
    return false;
  }

  /**
   * The claim's words an abbreviation of the passage spells: "chief executive" for "CEO"
   * (a run of the claim's words whose initials start the abbreviation, all but one letter of it).
   */
  function spelledByAbbreviation(terms: readonly Term[], candidates: readonly Term[]): Set<Term> {
    const spelled = new Set<Term>();
    for (const candidate of candidates) {
      if (!/^\p{Lu}{2,6}$/u.test(candidate.text)) continue;
      const initials = candidate.text.toLowerCase();
      for (let i = 0; i < terms.length; i++) {
        let letters = "";
        let j = i;
        while (
          j < terms.length &&
          letters.length < initials.length &&
          initials.startsWith(letters + (terms[j]?.lemma[0] ?? ""))
        ) {
          letters += terms[j]?.lemma[0] ?? "";
          j++;
        }
        // Every letter ("BMS" is not "black mass"), or all but one of a longer one ("LiPON").
        if (letters.length >= 2 && letters.length >= initials.length - (initials.length >= 4 ? 1 : 0))
          for (const term of terms.slice(i, j)) spelled.add(term);
      }
    }
    return spelled;
  }

  function termCarried(
    term: Term,
    candidates: readonly Term[],
  ): { how: "same" | "broader" | "antonym"; by: Term } | undefined {
    // The word itself first (no lexicon lookup), then its relations.
    for (const candidate of candidates) {
      if (candidate.lemma === term.lemma) return { how: "same", by: candidate };
    }
    let best: { how: "same" | "broader" | "antonym"; by: Term } | undefined;
    for (const candidate of candidates) {
      // Another word carries a noun only as the head of its phrase: "precursor industries" are
      // industries, not materials, whatever "precursor" is a kind of.
      if (candidate.modifier && term.wordClass === "noun") continue;
      const how = carries(term, candidate);
      if (how === "same") return { how, by: candidate };
      if (how && !best) best = { how, by: candidate };
    }
    if (acronymCarried(term, candidates)) return { how: "same", by: term };
    return best;
  }

  /** Terms of a text outside the sentence (a heading, a title, the sentences before), for a subject referred back to. */
  function contextTerms(texts: readonly string[]): Term[] {
    return texts.flatMap((text) => readingOf(text).clauses.flatMap((clause) => clause.terms));
  }

  /** Whether the clause names what a measure of the claim is of: a word of its dimension. */
  function dimensionCarried(term: Term, quantities: readonly Quantity[]): boolean {
    return quantities.some((quantity) =>
      (entryOf(DIMENSION_WORDS, quantity.kind === "duration" ? "duration" : quantity.unit) ?? []).includes(term.lemma),
    );
  }

  /** How one sentence stands to one proposition: the strongest of what its clauses do. */
  function assess(proposition: Proposition, reading: SentenceReading, context: readonly string[]): Fit {
    let best: Fit = { kind: "none" };
    reading.clauses.forEach((clause, index) => {
      const fit = assessClause(proposition, clause, reading.clauses.slice(0, index), context);
      if (FIT_ORDER[fit.kind] > FIT_ORDER[best.kind]) best = fit;
    });
    return best;
  }

  /**
   * How one clause stands to one proposition. The clause's own words carry the claim's, but a
   * subject it refers back to ("it", "the bridge") may be carried by the clauses before it,
   * the sentences before it or the heading, and an elliptical complement ("…, but it is the
   * oldest") by the nouns of the clause before it.
   */
  function assessClause(
    proposition: Proposition,
    clause: Clause,
    earlier: readonly Clause[],
    context: readonly string[],
  ): Fit {
    const plain = (term: Term): Term => ({ ...term, negated: false });
    const earlierTerms = earlier.flatMap((each) => each.terms).map(plain);
    const outside = clause.refersBack ? [...earlierTerms, ...contextTerms(context)] : [];
    // An elliptical clause takes what it leaves out from the clause before: its nouns ("…, but it
    // is the oldest"), or everything, predicate included, when it has no verb ("…, but not in 1991").
    const verbless = earlier.length > 0 && clause.predicate === undefined;
    const elliptical =
      earlier.length > 0 && !clause.terms.some((term) => term.role !== "subject" && term.wordClass === "noun");
    const borrowed = verbless
      ? earlierTerms
      : elliptical
        ? earlierTerms.filter((term) => term.role !== "predicate" && term.wordClass === "noun" && !term.name)
        : [];
    const missing: string[] = [];
    let antonym: Term | undefined;
    let carriedCount = 0;
    let subjectCarried = true;
    const subjectNouns = proposition.terms.filter((term) => term.role === "subject" && term.wordClass === "noun");
    const abbreviated = spelledByAbbreviation(proposition.terms, [...clause.terms, ...outside, ...borrowed]);
    // The subject first: a clause about something else is left before its other words are looked up.
    const subjectFirst = [
      ...proposition.terms.filter((term) => term.role === "subject"),
      ...proposition.terms.filter((term) => term.role !== "subject"),
    ];
    for (const [index, term] of subjectFirst.entries()) {
      if (
        index > 0 &&
        term.role !== "subject" &&
        subjectFirst[index - 1]?.role === "subject" &&
        (!subjectCarried || (subjectNouns.length > 0 && subjectNouns.every((noun) => missing.includes(noun.text))))
      )
        return { kind: "none" };
      let found = abbreviated.has(term) ? { how: "same" as const, by: term } : termCarried(term, clause.terms);
      if (found?.how !== "same" && term.role === "subject") {
        const resolved = termCarried(term, outside);
        if (resolved?.how === "same") found = resolved;
      }
      if (found?.how !== "same" && (verbless || (term.role !== "subject" && term.role !== "predicate"))) {
        const resolved = termCarried(term, borrowed);
        if (resolved?.how === "same") found = resolved;
      }
      if (!found && dimensionCarried(term, [...clause.quantities, ...proposition.quantities]))
        found = { how: "same", by: term };
      if (found?.how === "antonym" && term.role !== "subject") antonym = term;
      if (found?.how === "same") carriedCount++;
      else {
        missing.push(term.text);
        if (term.role === "subject" && term.name) subjectCarried = false;
      }
    }
    if (subjectNouns.length > 0 && subjectNouns.every((term) => missing.includes(term.text))) subjectCarried = false;
    if (!subjectCarried || carriedCount === 0) return { kind: "none" };
    // The clause must say something of the claim itself, not only through what it refers back to:
    // a word of the claim's predicate side, or one of its quantities (any word, for a claim that has nothing else).
    const predicateSide = proposition.terms.filter((term) => term.role !== "subject");
    const ownWords = clause.terms;
    const saysItself =
      proposition.quantities.some((quantity) =>
        clause.quantities.some((other) => fitOf(other, quantity) !== "incomparable"),
      ) ||
      (predicateSide.length > 0 ? predicateSide : proposition.terms).some(
        (term) => termCarried(term, ownWords)?.how === "same" || (abbreviated.has(term) && !outside.includes(term)),
      ) ||
      (verbless && clause.quantities.length > 0);
    if (!saysItself) return { kind: "none" };

    // Quantities: each of the claim's against the clause's of the same kind (a denied one apart: "not in 1887").
    const fits = proposition.quantities.map((quantity) => {
      const candidates = clause.quantities.filter((other) => fitOf(other, quantity) !== "incomparable");
      // A value the claim denies ("not to 100 percent") is matched by one the passage denies.
      const asserted = candidates.filter((other) => Boolean(other.denied) === Boolean(quantity.denied));
      const fit = asserted.some((other) => fitOf(other, quantity) === "entails")
        ? "entails"
        : asserted.some((other) => fitOf(other, quantity) === "compatible")
          ? "compatible"
          : asserted.length > 0
            ? "conflicts"
            : "absent";
      return {
        quantity,
        fit,
        denied: candidates.find((other) => other.denied && fitOf(other, quantity) === "entails"),
        against: asserted.find((other) => fitOf(other, quantity) === "conflicts"),
      };
    });
    // A quantity that says which thing the claim is about must be the passage's too: "the 2003–04
    // season" is another season than "the 1997–98 season", not another value for it.
    const otherThing = fits.some((fit) => fit.quantity.identifies && fit.fit !== "entails" && fit.fit !== "absent");
    if (otherThing) return { kind: "none" };
    const allCarried = missing.length === 0;
    // "began selling" is denied by "never sold": an aspect verb need not be carried for a contradiction.
    const essential = missing.filter(
      (text) => !ASPECT_VERBS.has(proposition.terms.find((term) => term.text === text)?.lemma ?? ""),
    );
    const carriedForContradiction = essential.length === 0;
    // Another value contradicts only a claim about a named thing, named in the passage or its context.
    const claimNames = proposition.terms.filter((term) => term.name && term.role === "subject");
    // …and whose subject is more than a pronoun ("it had a population of 6,493" names nothing).
    // …and whose subject is the passage's subject too: "construction" in "after eight years of
    // construction" is not the subject of "Construction … began in 1923".
    const subjects = [...clause.terms.filter((term) => term.role === "subject"), ...outside];
    const sameSubject = subjectNouns
      .filter((term) => !term.name || term.initial === true)
      .every((term) => abbreviated.has(term) || termCarried(term, subjects)?.how === "same");
    // A unique description ("the first commercial lithium-ion cells") names its thing as a name does.
    const unique = proposition.terms.some(
      (term) => term.role === "subject" && (UNIQUE_WORDS.has(term.lemma) || /\p{L}est$/u.test(term.text)),
    );
    // (The passage must write the unique word too: "LFP cells" are not "the first cells".)
    const uniqueCarried =
      unique &&
      proposition.terms.every(
        (term) =>
          term.role !== "subject" ||
          !(UNIQUE_WORDS.has(term.lemma) || /\p{L}est$/u.test(term.text)) ||
          !missing.includes(term.text),
      );
    const named =
      subjectNouns.length > 0 &&
      (claimNames.length > 0 || (uniqueCarried && subjectNouns.every((term) => !missing.includes(term.text)))) &&
      sameSubject &&
      claimNames.every((term) => !missing.includes(term.text));
    const predicateCarried = predicateOf(proposition, missing);
    const objectsAgree = objectsAgreeWith(proposition, clause, missing);
    // A time that says when (the claim states another value besides) must be the same moment for the values to compare.
    // (A duration is when too: "in 1932, after eight years of construction" gives 1932 as the value.)
    const hasValue = fits.some(
      (fit) => fit.quantity.kind !== "time" && fit.quantity.kind !== "duration" && !fit.quantity.identifies,
    );
    // (A figure that says which thing is meant may be absent: the passage may name it otherwise.)
    const frames = fits.filter((fit) => hasValue && fit.quantity.kind === "time" && !fit.quantity.identifies);
    const identifying = fits.filter((fit) => fit.quantity.identifies);
    const values = fits.filter((fit) => !frames.includes(fit) && !identifying.includes(fit));
    // A time said earlier in the sentence frames its later clauses too ("In 2020 …, but it produced 1.4 million tonnes").
    const earlierTimes = earlier.flatMap((each) => each.quantities).filter((quantity) => quantity.kind === "time");
    const sameMoment = frames.every(
      (fit) =>
        fit.fit === "entails" ||
        fit.fit === "compatible" ||
        (fit.fit === "absent" && earlierTimes.some((time) => fitOf(time, fit.quantity) === "entails")),
    );
    const valuesEntailed = fits.every((fit) => fit.fit === "entails");

    // A correction: the claim's value is the one an earlier version gave.
    if (
      clause.correction !== undefined &&
      carriedCount > 0 &&
      fits.length > 0 &&
      fits.some((fit) => fit.fit === "entails")
    )
      return { kind: "contradicts", why: `it reports that value as corrected (“${clause.correction}”)` };
    // The claim's value denied: "founded in 1903, not in 1887".
    const deniedValue = values.find((fit) => fit.denied && fit.fit !== "entails" && !fit.quantity.denied);
    if (deniedValue?.denied && predicateCarried && sameMoment)
      return { kind: "contradicts", why: `it denies ${deniedValue.denied.text}` };
    // A denial or a negation of the whole statement, about the claim's subject: not of what
    // another named subject did ("Oxford was not interested in filing a patent" denies nothing
    // of "patent filed").
    const otherNamed = clause.terms.some(
      (term) => term.role === "subject" && term.name && !termCarried(term, proposition.terms),
    );
    if (clause.denial && carriedForContradiction && valuesEntailed && !proposition.denied && !otherNamed)
      return { kind: "contradicts", why: `it says the statement is not so (“${clause.denial}”)` };
    if (carriedForContradiction && valuesEntailed && clause.negated !== proposition.negated && !otherNamed)
      return { kind: "contradicts", why: clause.negated ? "a negation governs it" : "it states what the claim denies" };
    // A word of the claim the clause writes only under a negation ("not cholesterol"); another mention of it outside the negation carries it.
    const negatedTerm = proposition.terms.find((term) => {
      if (term.negated || term.role === "subject") return false;
      const carriers = clause.terms.filter((candidate) => carries(term, candidate) === "same");
      return carriers.length > 0 && carriers.every((candidate) => candidate.negated);
    });
    if (allCarried && valuesEntailed && negatedTerm && !proposition.negated && !otherNamed)
      return { kind: "contradicts", why: `it denies “${negatedTerm.text}”` };
    // The opposite predicate ("fell" for "rose"), everything else of the claim written in the clause itself.
    // (Adverbs aside: "rose sharply" is still denied by "fell".)
    const antonymPredicate =
      antonym !== undefined &&
      clause.terms.some((term) => term.role === "predicate" && carries(antonym, term) === "antonym") &&
      predicateSide.every(
        (term) => term === antonym || term.wordClass === "adv" || termCarried(term, ownWords)?.how === "same",
      );
    const missingWords = missing.filter(
      (text) => proposition.terms.find((term) => term.text === text)?.wordClass !== "adv",
    );
    if (
      antonymPredicate &&
      antonym &&
      missingWords.length === 1 &&
      !clause.negated &&
      fits.every((fit) => fit.fit !== "conflicts")
    )
      return { kind: "contradicts", why: `it states the opposite of “${antonym.text}”` };
    // Another value for the same thing at the same moment.
    const conflict = values.find((fit) => fit.fit === "conflicts");
    if (
      conflict &&
      named &&
      // A measure, a price or a share says what it is of by its unit: "reached 90 Wh/kg" and
      // "stored 80 watt-hours per kilogram" are values of one attribute, whatever their verbs.
      (predicateCarried || ["measure", "money", "percent"].includes(conflict.quantity.kind)) &&
      objectsAgree &&
      sameMoment &&
      !clause.negated &&
      clause.correction === undefined
    ) {
      const governed = clause.hedge ?? clause.forecast;
      if (!governed)
        return {
          kind: "contradicts",
          why: `it gives ${conflict.against?.text ?? "another value"} instead of ${conflict.quantity.text}`,
        };
    }
    if (!allCarried) return { kind: "about", missing };
    const unstated = fits.filter((fit) => fit.fit !== "entails");
    if (unstated.length > 0) return { kind: "about", missing: unstated.map((fit) => fit.quantity.text) };
    if (clause.correction !== undefined)
      return { kind: "qualified", why: `it reports what a correction withdrew (“${clause.correction}”)` };
    if (clause.hedge && !proposition.hedged)
      return { kind: "qualified", why: `it states it only as a possibility or a report (“${clause.hedge}”)` };
    if (clause.forecast && !proposition.forecast)
      return { kind: "qualified", why: `it states it only as a forecast (“${clause.forecast}”)` };
    if ((clause.denial !== undefined) !== proposition.denied || clause.negated !== proposition.negated || negatedTerm)
      return { kind: "qualified", why: "a negation governs it" };
    return { kind: "supports" };
  }

  /** Whether the clause carries the claim's main predicate (itself, a synonym or a narrower word), or the complement of its copula. */
  function predicateOf(proposition: Proposition, missing: readonly string[]): boolean {
    const predicate = proposition.terms.find((term) => term.role === "predicate");
    if (!predicate) {
      // A copula: the complement's words carry the attribute ("is the oldest city", "is 6.1 km long").
      return proposition.terms.filter((term) => term.role !== "subject").some((term) => !missing.includes(term.text));
    }
    return !missing.includes(predicate.text);
  }

  /**
   * Whether the objects agree: every direct object of the claim's predicate is carried, and the
   * passage's clause adds none the claim lacks ("opened its new wing in 2010" is not "opened in
   * 1904"). Adjuncts ("to traffic") may be missing on either side.
   */
  function objectsAgreeWith(proposition: Proposition, clause: Clause, missing: readonly string[]): boolean {
    const objects = proposition.terms.filter((term) => term.role === "object" && term.wordClass === "noun");
    if (objects.some((term) => missing.includes(term.text))) return false;
    // Neither a subject ("Construction of the bridge began in 1923") nor an object ("opened its new
    // wing in 2010") the claim lacks: those are another attribute, whose value is not the claim's.
    const extra = clause.terms.filter(
      (term) =>
        (term.role === "object" || (term.role === "subject" && !term.name)) &&
        term.wordClass === "noun" &&
        !proposition.terms.some((own) => carries(own, term) === "same" || carries(term, own) === "same"),
    );
    if (extra.length > 0) return false;
    // Adjuncts may be missing on either side ("opened to traffic in 1932", "was inaugurated in
    // 1929"), but not differ under one preposition ("… from wind", "… from hydropower").
    const own = (term: Term) =>
      proposition.terms.some((mine) => carries(mine, term) === "same" || carries(term, mine) === "same");
    const differing = proposition.terms.filter(
      (term) =>
        term.role === "adjunct" &&
        term.wordClass === "noun" &&
        term.preposition !== undefined &&
        missing.includes(term.text) &&
        clause.terms.some(
          (other) =>
            other.role === "adjunct" &&
            other.wordClass === "noun" &&
            other.preposition === term.preposition &&
            !own(other),
        ),
    );
    return differing.length === 0;
  }

  const UNRELATED: Judgement = Object.freeze({
    verdict: "unrelated",
    reason: "The passage does not state it.",
    passage: [],
    claim: [],
    missing: [],
  }) as Judgement;
  const NO_STATEMENT: Judgement = Object.freeze({
    verdict: "unrelated",
    reason: "It states nothing a passage could support: it is a heading, a label or a question, not a sentence.",
    passage: [],
    claim: [],
    missing: [],
  }) as Judgement;

  const NO_PREDICATE: Judgement = Object.freeze({
    verdict: "unrelated",
    reason: "It states nothing a passage could support: it names something without saying anything of it.",
    passage: [],
    claim: [],
    missing: [],
  }) as Judgement;
  /**
   * Whether a claim says something of what it names: a verb, or a record line's values. A list
   * fragment ("A negative electrode of carbon.") ends with a full stop but has no predicate, and any
   * passage that names its words would "state" it ("…ten times that of graphite").
   */
  const predicates = (text: string): boolean =>
    isRecordLine(text) || language.tokens(text).some((token) => token.pos === "VERB" || token.pos === "AUX");

  /**
   * Whether the claim asserts anything a passage could support: a record line ("Year: 2024;
   * Price: 115"), a sentence that ends with a full stop, or a line with a verb that is not
   * worded as a question; not a heading or a label ("Lithium cobalt oxide (LCO)", "What a
   * cathode material has to do", "Fast charging: what limits it") or a question.
   */
  const asserts = (text: string): boolean =>
    remember(assertions, text, () =>
      isStatement(text, (line) => language.tokens(line).some((token) => token.pos === "VERB" || token.pos === "AUX")),
    );

  /**
   * Verdicts already given, by claim and passage text (then title, heading and the text
   * before): a run judges the same claim against the same passages turn after turn. The keys
   * are the callers' own strings, so a lookup costs no concatenation.
   */
  const verdicts = new Map<string, Map<string, { passage: PassageInContext; judgement: Judgement }[]>>();
  let remembered = 0;

  function judge(claimText: string, passage: PassageInContext): Judgement {
    const byText = verdicts.get(claimText)?.get(passage.text);
    const known = byText?.find(
      (entry) =>
        entry.passage.title === passage.title &&
        entry.passage.heading === passage.heading &&
        entry.passage.before === passage.before,
    );
    if (known) return known.judgement;
    const judgement = judgeAfresh(claimText, passage);
    if (remembered >= VERDICT_MEMO) {
      verdicts.clear();
      remembered = 0;
    }
    const forClaim =
      verdicts.get(claimText) ?? new Map<string, { passage: PassageInContext; judgement: Judgement }[]>();
    verdicts.set(claimText, forClaim);
    const entries = forClaim.get(passage.text) ?? [];
    entries.push({ passage: { ...passage }, judgement });
    forClaim.set(passage.text, entries);
    remembered++;
    return judgement;
  }

  function judgeAfresh(claimText: string, passage: PassageInContext): Judgement {
    if (!asserts(claimText)) return NO_STATEMENT;
    if (!predicates(claimText)) return NO_PREDICATE;
    const propositions = claimOf(claimText);
    const spans = sentencesOf(passage.text);
    if (propositions.length === 0 || spans.length === 0) return UNRELATED;
    const heading = [
      passage.title ?? "",
      passage.heading ?? "",
      ...(passage.before
        ? sentencesOf(passage.before)
            .slice(-2)
            .map((span) => span.text)
        : []),
    ].filter((text) => text.trim() !== "");
    const statements = tableRowsAsRecords(spans.map((span) => span.text));
    const readings = statements.map((text) => readingOf(text));
    const results = propositions.map((proposition) => {
      let best: { fit: Fit; index: number } = { fit: { kind: "none" }, index: -1 };
      readings.forEach((reading, index) => {
        const before = spans.slice(Math.max(0, index - 2), index).map((span) => span.text);
        const assessed = assess(proposition, reading, [...heading, ...before]);
        // What a claim says of something it does not name is neither stated nor denied by a passage.
        const fit: Fit =
          proposition.unanchored && (assessed.kind === "supports" || assessed.kind === "contradicts")
            ? { kind: "about", missing: ["what it is about"] }
            : assessed;
        if (FIT_ORDER[fit.kind] > FIT_ORDER[best.fit.kind]) best = { fit, index };
      });
      return { proposition, ...best };
    });
    const sentence = (index: number): Span[] => {
      const span = spans[index];
      return span ? [{ start: span.start, end: span.end, text: span.text }] : [];
    };
    const claimSpan = (proposition: Proposition): Span => ({
      start: proposition.start,
      end: proposition.end,
      text: proposition.text,
    });
    const attributionAt = (index: number): string | undefined => readings[index]?.attribution;
    // A heading or a question states nothing, so it contradicts nothing ("What a BMS cannot do").
    const contradiction = results.find(
      (result) => result.fit.kind === "contradicts" && asserts(statements[result.index] ?? ""),
    );
    if (contradiction && contradiction.fit.kind === "contradicts") {
      const quote = spans[contradiction.index]?.text ?? "";
      return {
        verdict: "contradicts",
        reason: `The passage contradicts it: ${contradiction.fit.why}. It reads: “${quote}”`,
        passage: sentence(contradiction.index),
        claim: [claimSpan(contradiction.proposition)],
        missing: [],
      };
    }
    const supported = results.filter((result) => result.fit.kind === "supports");
    if (supported.length === results.length) {
      const indexes = [...new Set(supported.map((result) => result.index))].sort((a, b) => a - b);
      const attribution = indexes.map(attributionAt).find((origin) => origin !== undefined);
      return {
        verdict: "supports",
        reason: `The passage states it: “${indexes.map((index) => spans[index]?.text ?? "").join(" ")}”`,
        passage: indexes.flatMap(sentence),
        claim: supported.map((result) => claimSpan(result.proposition)),
        missing: [],
        ...(attribution ? { attribution } : {}),
      };
    }
    const qualified = results.find((result) => result.fit.kind === "qualified");
    const relevant = results.filter((result) => result.fit.kind !== "none");
    if (
      supported.length > 0 ||
      qualified ||
      relevant.some(
        (result) =>
          result.fit.kind === "about" &&
          (result.fit.missing.length ?? 0) <= Math.max(1, result.proposition.terms.length / 2),
      )
    ) {
      const missing = results
        .filter((result) => result.fit.kind !== "supports")
        .map((result) =>
          result.fit.kind === "about" && results.length === 1 ? result.fit.missing.join(", ") : result.proposition.text,
        );
      const deciding = [...supported, ...(qualified ? [qualified] : [])];
      const why =
        qualified && qualified.fit.kind === "qualified" && supported.length === 0
          ? `The passage does not state it as fact: ${qualified.fit.why}.`
          : `The passage states only part of it; it does not say: ${missing.join("; ")}.`;
      return {
        verdict: "partial",
        reason: why,
        passage: [...new Set(deciding.map((result) => result.index))].sort((a, b) => a - b).flatMap(sentence),
        claim: supported.map((result) => claimSpan(result.proposition)),
        missing,
      };
    }
    return UNRELATED;
  }

  function mentionsOf(term: string): readonly string[] {
    const words = language.tokens(term).filter((token) => wordClassOf(token.pos) !== undefined);
    const forms = new Set<string>([term.toLowerCase()]);
    if (words.length === 1) {
      const word = words[0];
      const wordClass = word ? wordClassOf(word.pos) : undefined;
      if (word && wordClass) {
        forms.add(word.lemma);
        // A noun is also looked up as a verb and the other way round ("rainfall", "founding").
        for (const each of new Set<WordClass>([
          wordClass,
          wordClass === "verb" ? "noun" : wordClass === "noun" ? "verb" : wordClass,
        ])) {
          for (const variant of language.variants(word.lemma, each)) forms.add(variant);
        }
        const group = groupOf.get(word.lemma);
        if (group !== undefined) for (const member of ATTRIBUTE_GROUPS[group] ?? []) forms.add(member);
      }
    }
    return [...forms];
  }

  return { judge, carries, mentionsOf };
}

/** The tokens of a text a `Language` reads, re-exported for adapters that only hold a judge. */
export type { WordToken };
