/**
 * What a question asks (pure): its parts, and for each the kind of answer it wants. "Which
 * company recycles the scrap, who founded it, and which route recovers lithium best?" has three
 * parts: an organisation, a person, a superlative. A sentence before the question ("The head of
 * the Oxford laboratory later moved to another university. Which one, when…?") is context every
 * part shares. English and lexical: the wh-word and the noun after it decide the kind.
 */
import { unframed } from "../framing.js";
import { acronymsOf, isNationality, isVerbLike, namesIn, stem, stemSet } from "../lexicon.js";
import type { ANSWER_KINDS } from "../report/report-document.js";
import { contentWords, escapeRegExp } from "../text.js";

export type AnswerKind = (typeof ANSWER_KINDS)[number];

export interface AskedPart {
  /** The part as asked, a question of its own ("who founded it?"). */
  asked: string;
  kind: AnswerKind;
  /** Stems of the part's own content words (not its wh-words). */
  terms: string[];
  /** Stems of the rest of the question (its other parts and the sentences before it). */
  context: string[];
  /** For a superlative: whether it asks for the highest (true) or the lowest (false). */
  highest?: boolean;
  /** For "how many N": the stem of what is counted ("cell"). */
  counted?: string;
  /** The part refers back ("who founded it", "when did he move there"): the answer before it is its subject. */
  refersBack: boolean;
  /** A "which material", "what chemistry" part: a name answers it. */
  named?: boolean;
  /** A "what city", "which country" part: a place, not a body in it ("Australian National University"). */
  geographic?: boolean;
  /** A "what medal", "which rapper" part (a noun after its asking word): a name may answer it. */
  nameAsked?: boolean;
  /** The noun a "what N did…" part asks for ("warranty"): an answer names it, unless it is generic ("material"). */
  head?: string;
  /** The part asks for a member of a category ("what position", "what language"): see `CATEGORY_HEADS`. */
  category?: boolean;
  /**
   * The figures and years that pin the part ("in 2022", "after 500 cycles"; not "his 1985
   * anode"), as stems in groups: a sentence must carry one of each group (either end of "from
   * 1980 to 2020" will do).
   */
  pins: string[][];
  /**
   * The names the part gives ("Sony", "the Democratic Republic of the Congo"), as stems in groups
   * (with the name's initials, "drc"): what answers carries a stem of each, itself or where it stands.
   */
  names: string[][];
  /**
   * The entries the part names by code identifier, as their own names in their case
   * ("signal.Signals" → "Signals", "decimal.Context.clear_traps" → "clear_traps"): an answer is
   * about that entry, so it (or what it stands under) writes that name whole, in that case
   * ("typing.Tuple" is not the built-in "tuple").
   */
  identifiers: string[];
  /**
   * The stems of what the part asks about its answer: the words next to a trailing wh-word
   * ("created" in "…created by whom?", "based" in "…based in what state?"), or what the sentence
   * before the question says happened ("moved"). The sentence that gives the answer says one of
   * them; one that only shares the rest is about something else the question names. Empty for a
   * part that opens on its wh-word, but for "when…": the verb of the event it dates ("founded").
   */
  focus: string[];
  /**
   * That verb as written ("founded", or "moved" from the sentence before), whose synonyms
   * ("established"; "left Oxford … to take up a chair") say it too.
   */
  event?: string;
  /**
   * What a "why is X a …" part asks the reason of ("cobalt"), as a stem: the sentence or what it
   * stands under says it (one on another subject's supply, "…concern about the supply of lithium",
   * in a passage that mentions cobalt elsewhere, gives no reason for it).
   */
  subject?: string;
  /** The names a choice is between ("which band formed first, The Exies or Circus Diablo?"). */
  options?: string[];
  /** "…created by who?": the answer is the agent, written after "by" ("created by TV executive Reg Watson"). */
  byAgent?: boolean;
}

/** A figure after a preposition pins what is asked to it; one before a noun only describes it. */
const PIN =
  /\b(?:in|by|since|after|before|from|between|during|at|and|to|until|of|over|under)\s+(\d+(?:[,.]\d+)*)(?!\d)/giu;

const WH = "who|whom|whose|what|when|where|which|why|how";
/** A part that ends asking for the agent of a passive: "…a soap opera created by who?" */
const BY_AGENT = /\bby\s+(?:who|whom)\s*\??\s*$/iu;
/** Where a question splits into parts: ", and which…", " and when…", ", who…". */
const PART_BREAK = new RegExp(
  `(?:,\\s*(?:and|or)\\s+|\\s+(?:and|or)\\s+|,\\s+)(?=(?:(?:in|at|from|for|to|by|on|of|with|under)\\s+)?(?:${WH})\\b)`,
  "iu",
);
const AUXILIARY_FIRST = /^(?:is|are|was|were|do|does|did|can|could|has|have|had|will|would|should|may|might|must)\b/iu;
/** "…, released in which year, is a…": an asking phrase that ends at a comma or the question mark. */
const ASKING_PHRASE = /\b(?:which|what)\s+([\p{L}-]+)(?:\s+[\p{L}-]+){0,2}\s*(?=[,?]|$)/iu;
/**
 * A question that opens with an auxiliary asks yes or no, unless it asks for something inside
 * ("Do Lafzon Ki Kahani, …, is a remake of Always, released in which year, …?" asks for a year).
 */
const YES_NO = {
  test(piece: string): boolean {
    if (!AUXILIARY_FIRST.test(piece)) return false;
    const asking = ASKING_PHRASE.exec(piece);
    return !asking?.[1] || isVerbLike(asking[1].toLowerCase());
  },
};

/** Words of a question that say what kind of answer it wants, not what it is about. */
const ASKING_WORDS = new Set(
  `${WH.replace(/\|/g, " ")} one ones kind sort type year date decade century month name many much far long`
    .split(" ")
    .map(stem),
);

const SUPERLATIVE_HIGH =
  /\b(?:most|highest|largest|biggest|greatest|best|fastest|longest|heaviest|strongest|oldest|busiest|top|maximum|peak|larger|bigger|greater|older|taller|longer|higher|heavier)\b/iu;
const SUPERLATIVE_LOW =
  /\b(?:least|lowest|smallest|fewest|worst|slowest|shortest|cheapest|lightest|weakest|minimum|smaller|fewer|younger|shorter|lower|cheaper|lighter)\b/iu;

const KIND_PATTERNS: readonly [AnswerKind, { test(text: string): boolean }][] = [
  ["yes-no", YES_NO],
  ["version", /\b(?:which|what) (?:\w+ )?(?:version|release)\b/iu],
  ["date", /^(?:(?:since|by|until) )?when\b|\b(?:what|which) (?:year|date|decade|century|month|day)\b/iu],
  [
    "cause",
    /^why\b|\bwhat (?:\w+ )?(?:caused|causes|cause|drove|drives|explains|explained|led to|leads to|limits|limited|allowed|allows|made|makes|enabled|enables)\b|\bfor what reason\b|\b(?:what|which) (?:is|are|was|were) the (?:reason|cause)s?\b/iu,
  ],
  [
    "number",
    /^how (?:many|much|far|long|big|large|heavy|old|fast|often|high|low|dependent|deep|wide|tall|hot|cold|efficient)\b|\bhow (?:many|much)\b|\b(?:what|which) (?:is |are |was |were )?(?:the )?(?:[\w-]+ ){0,3}(?:percentage|percent|share|proportion|number|amount|price|cost|fraction|rate|energy|density|capacity|voltage|temperature|efficiency|range|size|weight|mass|output|population|speed|length|height|revenue|volume|count|total)\b/iu,
  ],
  [
    "person",
    /^(?:who|whom|whose)\b|\b(?:by|is|was|were) (?:who|whom)\b|\b(?:which|what) (?:person|people|scientist|researcher|chemist|physicist|engineer|author|founder|inventor|director|leader|head|chief|executive|ceo)\b|\b(?:which|what) (?:(?!(?:did|does|do|was|is|were|are|has|had)\b)[\w-]+,? ){0,3}?(?:actor|actress|singer|writer|musician|politician|composer|producer|artist|poet|novelist|rapper|comedian|footballer|senator|governor|songwriter|filmmaker|guitarist|drummer|vocalist|journalist|businessman|businesswoman|entrepreneur|athlete)\b/iu,
  ],
  [
    "organisation",
    /\b(?:which|what) (?:[A-Z][\w-]+ )?(?:company|companies|firm|manufacturer|maker|supplier|organi[sz]ation|lab|laboratory|group|team|agency|institute|business|startup|carmaker|automaker)\b/iu,
  ],
  [
    "place",
    /^where\b|\bwhere$|\b(?:which|what) (?:[\w-]+ ){0,2}?(?:university|city|country|town|place|region|state|province|county|continent|location|island|district)\b/iu,
  ],
];

/** The kind of answer a part wants; a superlative wins over the noun it ranks ("which station has the most riders"). */
/** "(years or kilometres)": the question says the answer is a figure in these units. */
const UNIT_HINT =
  /\((?:[^)]*\b(?:years?|months?|km|kilomet(?:re|er)s?|miles?|dollars?|euros?|percent|per cent|kg|tonnes?|hours?|days?|kWh|Wh)\b[^)]*)\)/iu;

function kindOf(part: string): Pick<AskedPart, "kind" | "highest"> {
  if (UNIT_HINT.test(part) && !YES_NO.test(part)) return { kind: "number" };
  if (!YES_NO.test(part)) {
    // "…Germany's best selling beer brand with an output of what?": a superlative before the asking word only describes.
    const { words, at } = askingWord(part);
    const asked = at > 0 ? words.slice(at).join(" ") : part;
    if (SUPERLATIVE_HIGH.test(asked)) return { kind: "superlative", highest: true };
    if (SUPERLATIVE_LOW.test(asked)) return { kind: "superlative", highest: false };
  }
  for (const [kind, pattern] of KIND_PATTERNS) if (pattern.test(part)) return { kind };
  return { kind: "description" };
}

/** Verbs that only say a cause is asked for ("what caused", "what limits"). */
const CAUSE_VERBS = new Set(
  "cause caused causes drove drive drives explain explains explained lead leads led reason reasons allow allows allowed enable enables enabled limit limits limited make makes made"
    .split(" ")
    .map(stem),
);
const REFERS_BACK = /\b(?:it|its|he|his|him|she|her|they|their|them|there|that one|this)\b/iu;

/** The noun after "what"/"which" that the part asks for, before its verb. */
const HEAD =
  /^(?:(?:in|at|from|for|to|by|on|of|with|under)\s+)?(?:what|which)\s+((?:[\w-]+\s+){0,3}?[\w-]+)(?:\s+\([^)]*\))?\s+(?:is|are|was|were|did|does|do|has|have|had|can|could|will|would)\b/iu;
/** "Which cathode material", "what chemistry": parts a name answers. */
const NAMED =
  /^(?:(?:in|at|of|with)\s+)?(?:what|which)\s+(?:[\w-]+\s+){0,2}?(?:chemistry|material|materials|compound|cathode|anode|electrolyte|format|type|kind|model|product|technology|route|process|method)\b/iu;

const GEOGRAPHIC =
  /\b(?:what|which)\s+(?:[\w-]+\s+)?(?:city|cities|country|countries|state|town|county|province|region|island|continent)\b/iu;

/** A word a verb is followed by, and a noun asked for seldom is: a determiner or a preposition. */
const VERB_AFTER = /^(?:the|a|an|his|her|its|their|this|that|these|those|inside|into|after|before|during|when|if)$/iu;
/** "What medal…", "which rapper…": a noun after the asking word (not "what is…", "which of…"). */
const ASKS_NAME =
  /^(?:what|which)\s+(?!(?:is|are|was|were|did|does|do|has|have|had|can|could|will|would|of|one)\b)[\p{L}-]+/iu;

/**
 * Heads that name a category whose members answer without it ("what position did he play":
 * "plays as a striker"; "what language": "Latin"): the answering sentence need not say the noun,
 * and no name in it is marked as the answer (a striker is no name; the player's is not the answer).
 */
const CATEGORY_HEADS = new Set(
  "position language genre instrument sport occupation profession role religion".split(" ").map(stem),
);

/** Heads any named thing answers ("which cathode material": "LiFePO4"). */
const GENERIC_HEADS = new Set(
  "chemistry material materials type kind form sort one thing compound substance technology product name"
    .split(" ")
    .map(stem),
);

const termsOf = (text: string): string[] => [
  ...new Set(
    contentWords(text).flatMap((word) =>
      ASKING_WORDS.has(stem(word)) || SUPERLATIVE_HIGH.test(word) || SUPERLATIVE_LOW.test(word) ? [] : [stem(word)],
    ),
  ),
];

/** The last noun a context sentence ends on ("…moved to another university." → "university"). */
const lastNoun = (text: string): string | undefined => contentWords(text).at(-1);

/** A range ("from 1980 to 2020", "between 2010 and 2020") pins by either end. */
const RANGE =
  /\b(?:from|between|in|during)\s+(\d+(?:[,.]\d+)*)(?:\s+(?:to|and|until)\s+|\s?[-–]\s?)(\d+(?:[,.]\d+)*)(?!\d)/giu;

/** A span of time the part gives ("starred in what for seven years"): written in words or figures. */
const DURATION =
  /\bfor\s+(\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty)\s+(?:consecutive\s+)?(?:years?|months?|weeks?|seasons?|decades?)\b/giu;
const NUMBER_WORDS =
  "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty".split(
    " ",
  );

function pinsOf(piece: string): string[][] {
  const figure = (text: string | undefined): string => stem((text ?? "").replace(/[,.]+$/u, ""));
  const ranges = [...piece.matchAll(RANGE)].map((match) => [figure(match[1]), figure(match[2])]);
  const inRange = new Set(ranges.flat());
  const single = [...piece.matchAll(PIN)].map((match) => figure(match[1])).filter((pin) => !inRange.has(pin));
  // A span pins the part in either writing: "seven" or "7".
  const spans = [...piece.matchAll(DURATION)].map((match) => {
    const written = (match[1] ?? "").toLowerCase();
    const value = /^\d+$/u.test(written) ? Number(written) : NUMBER_WORDS.indexOf(written);
    return [...new Set([written, String(value), ...(NUMBER_WORDS[value] ? [NUMBER_WORDS[value]] : [])])].map(figure);
  });
  return [...ranges, ...single.map((pin) => [pin]), ...spans];
}

/** "Why is cobalt a supply concern…": what the reason is of (`AskedPart.subject`). */
const subjectOf = (piece: string): { subject?: string } => {
  const subject = WHY_IS_SUBJECT.exec(piece)?.[1];
  return subject ? { subject: stem(subject.toLowerCase()) } : {};
};
const WHY_IS_SUBJECT =
  /^why (?:is|are|was|were) (?!(?:it|they|this|that|these|those|there|he|she)\b)([\p{L}-]+) (?=(?:a|an|the|so|such|more|less|considered|seen)\b)/iu;

/** A code identifier: dotted ("json.JSONDecoder.decode") or with an underscore ("get_native_id"). */
const IDENTIFIER = /\b[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+\b|\b\w*_\w+\b/gu;

/**
 * A name between the asking word and the noun it asks for ("which California city", "which
 * Queensland Senator", "what New York city") says what kind of answer is wanted; the sentence that
 * answers need not write it ("…has a second campus in San Diego").
 */
const ASKED_KIND_NAME = /\b(?:[Ww]hich|[Ww]hat)\s+((?:\p{Lu}[\p{L}'’-]*\s+){1,3})(\p{Ll}+)/gu;

/** The names a part gives ("Sony", "the Nobel Prize"): a sentence about another subject does not answer it. */
function namePins(piece: string): string[][] {
  // Followed by a noun: "in which Jung Joon-young made his debut" names the subject of a verb.
  const kinds = new Set(
    [...piece.matchAll(ASKED_KIND_NAME)]
      .filter((match) => !isVerbLike(match[2] ?? ""))
      .map((match) => (match[1] ?? "").trim()),
  );
  const groups = namesIn(piece)
    // "an English pop singer": a nationality describes, it names nothing; nor does "California" in "which California city".
    .filter((name) => (!name.initial || /\s/u.test(name.text)) && !isNationality(name.text) && !kinds.has(name.text))
    // "Democratic Republic of the Congo" is also written "DRC".
    .map((name) => [...stemSet(name.text), ...acronymsOf(name.text)].filter((term) => !ASKING_WORDS.has(term)))
    .filter((group) => group.length > 0);
  // "Sid Haig or Vic Darchinyan": the options are alternatives, one of them will do.
  return /\bor\b/iu.test(piece) && groups.length > 1 ? [groups.flat()] : groups;
}

/** "Who led the laboratory…": what the person did something to; a person who led something else does not answer. */
const WHO_OBJECT =
  /^who\s+[\p{Ll}-]+\s+(?:the|a|an)\s+(?:[\p{Ll}-]+\s+){0,2}?([\p{Ll}-]+)\b(?=\s+(?:where|that|which|who|of|at|in|for|with)\b|\s*$)/u;

function headOf(piece: string): { head?: string; category?: boolean } {
  // "Which recycling route recovers…": a noun a name answers is the head though no auxiliary follows it.
  const phrase =
    HEAD.exec(piece)?.[1]?.split(/\s+/u) ??
    NAMED.exec(piece)?.[0]
      .split(/\s+/u)
      .filter((word) => !/^(?:in|at|of|with|what|which)$/iu.test(word));
  // A generic noun takes the head of the word before it ("cathode chemistry": a cathode is asked for).
  const [word, before] = phrase
    ? [
        phrase.at(-1),
        phrase.length > 1 && GENERIC_HEADS.has(stem((phrase.at(-1) ?? "").toLowerCase())) ? phrase.at(-2) : undefined,
      ]
    : [WHO_OBJECT.exec(`${piece.charAt(0).toLowerCase()}${piece.slice(1)}`)?.[1], undefined];
  const chosen = before && /^\p{Ll}/u.test(before) ? before : word;
  if (!chosen) return {};
  const head = stem(chosen.toLowerCase());
  if (CATEGORY_HEADS.has(head)) return { category: true };
  return GENERIC_HEADS.has(head) || ASKING_WORDS.has(head) ? {} : { head };
}

const PREPOSITION = /^(?:in|at|from|for|to|by|on|of|with|under)$/iu;

/** Whether a word is an asking wh-word ("who", "which", "how"…). */
const WH_WORD = new RegExp(`^(?:${WH})$`, "iu");
export const isWhWord = (word: string | undefined): boolean => WH_WORD.test(word ?? "");

/**
 * The words of a part and where its asking wh-word stands: it opens the part ("Who wrote…", "In
 * what year…"), else it is the last one ("…who has worked with the mayor of what city"); -1 if none.
 */
function askingWord(piece: string): { words: string[]; at: number; opening: boolean } {
  const words = piece.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? [];
  const opening = isWhWord(words[0]) ? 0 : isWhWord(words[1]) && PREPOSITION.test(words[0] ?? "") ? 1 : -1;
  return { words, at: opening >= 0 ? opening : words.findLastIndex(isWhWord), opening: opening >= 0 };
}

/**
 * The verb of the event a "when…" part dates, as written ("When was the company founded…" →
 * "founded"); for "become", what it became ("When did batteries become commercial" → "commercial":
 * "Sony began selling the first commercial battery in 1991" dates it).
 */
function eventOf(piece: string): string | undefined {
  const { words, at, opening } = askingWord(piece);
  if (!opening || !/^when$/iu.test(words[at] ?? "")) return undefined;
  const rest = words.slice(at + 2);
  const verb = rest.findIndex(
    (word) => !/^\p{Lu}/u.test(word) && isVerbLike(word.toLowerCase()) && !AUXILIARY.test(word),
  );
  if (verb === -1) return undefined;
  const complement = /^becom(?:e|es|ing)$|^became$/iu.test(rest[verb] ?? "")
    ? rest.slice(verb + 1).find((word) => !/^(?:a|an|the|more|less|so|very)$/iu.test(word))
    : undefined;
  return (complement ?? rest[verb])?.toLowerCase();
}

/** A verb that only carries another ("was", "did", "has"). */
const AUXILIARY =
  /^(?:is|are|was|were|be|been|being|do|does|did|has|have|had|will|would|can|could|may|might|shall|should|must|get|got)$/iu;

/**
 * `focus` of a part (see `AskedPart`): the content word on each side of a trailing wh-word; none
 * for a part that opens on it ("who led…": its relation is too often written in other words), but
 * the verb of the event a "when…" part dates.
 */
function focusOf(piece: string, head: string | undefined, event: string | undefined): string[] {
  // "When was the company founded…": a date is the date of an event, which its verb names.
  if (event !== undefined) return termsOf(event).slice(0, 1);
  const { words, at, opening } = askingWord(piece);
  if (at === -1 || opening) return [];
  // A word of a name ("Natural Born Killers") says what the question is about, not what it asks.
  const useful = (word: string): string[] => {
    if (/^\p{Lu}/u.test(word)) return [];
    const term = termsOf(word)[0];
    return term && term !== head ? [term] : [];
  };
  const after = words.slice(at + 1).flatMap(useful);
  const before = words.slice(0, at).flatMap(useful);
  return [...new Set([...before.slice(-1), ...after.slice(0, 1)])];
}

/** "Which band was formed first, The Exies or Circus Diablo?": the names it chooses between. */
function optionsOf(piece: string): string[] | undefined {
  const or = piece.search(/\bor\b/iu);
  if (or === -1) return undefined;
  const names = namesIn(piece).filter((name) => !name.initial || /\s/u.test(name.text));
  const left = names.filter((name) => name.start < or).at(-1);
  const right = names.find((name) => name.start > or);
  return left && right ? [left.text, right.text] : undefined;
}

/** What a context sentence says happened last: its words from its last verb on ("later moved to another university"). */
function lastClause(text: string): { terms: string[]; verb?: string } {
  const words = contentWords(text);
  const verb = words.findLastIndex((word) => /(?:ed|ing)$/u.test(word) || word === "moved" || word === "went");
  const terms = termsOf(words.slice(Math.max(0, verb === -1 ? words.length - 3 : verb - 1)).join(" "));
  const written = verb === -1 ? undefined : words[verb];
  return written && termsOf(written).length > 0 ? { terms, verb: written } : { terms };
}

/**
 * The parts of `question`. A part with no words of its own ("when", "which one") takes its kind
 * from what the context names ("Which one" after "…another university" asks for a place).
 */
export function askedParts(question: string): AskedPart[] {
  const core = unframed(question).replace(/\s+/g, " ").trim();
  // Not after an initial ("produced by D.P. Varma", "the U.S. Army").
  const sentences = core
    .split(/(?<![\s.]\p{Lu}[.])(?<=[?.!])\s+(?=\p{Lu})/u)
    .filter((sentence) => sentence.trim() !== "");
  const isQuestion = (sentence: string): boolean =>
    sentence.endsWith("?") || new RegExp(`^(?:${WH})\\b`, "iu").test(sentence) || YES_NO.test(sentence);
  const asking = sentences.filter(isQuestion);
  const context = sentences.filter((sentence) => !isQuestion(sentence));
  const split = (asking.length > 0 ? asking : sentences).flatMap((sentence) =>
    sentence
      .split(PART_BREAK)
      .map((piece) => piece.replace(/^[\s,;]+|[\s,;?.!]+$/gu, ""))
      .filter((piece) => piece !== ""),
  );
  // "Between Iain Banks and Irwin Shaw, which writer…": a piece that asks nothing is context of the next.
  const asks = (piece: string): boolean =>
    new RegExp(`^(?:(?:in|at|from|for|to|by|on|of|with|under)\\s+)?(?:${WH})\\b`, "iu").test(piece) ||
    YES_NO.test(piece);
  const pieces = split.filter(
    (piece, index) => index === split.length - 1 || asks(piece) || !split.slice(index + 1).some(asks),
  );
  context.push(...split.filter((piece) => !pieces.includes(piece)));
  // A pronoun refers back to what comes before the part, unless a name before it in the part is what
  // it stands for ("Why did Yoshino use … for his 1985 anode?"); the first part of a bare question has nothing before it.
  const refersBack = (piece: string, index: number): boolean => {
    const pronoun = piece.search(REFERS_BACK);
    if (pronoun === -1 || (index === 0 && context.length === 0)) return false;
    return !namesIn(piece).some((name) => name.start < pronoun);
  };
  const before = namePins(context.join(" ")).flat();
  const given = before.length > 0 ? [before] : [];
  const parts = pieces.map((piece, index) => {
    const asked = `${piece.charAt(0).toUpperCase()}${piece.slice(1)}?`;
    let kind = kindOf(piece);
    let terms = termsOf(piece);
    if (kind.kind === "cause") terms = terms.filter((term) => !CAUSE_VERBS.has(term));
    const counted = /^how many ([\p{L}-]+)/iu.exec(piece)?.[1];
    const alone = terms.length === 0;
    // "Which one", "when" after "…moved to another university": the context says what is asked.
    let contextHead: string | undefined;
    // What the context says happened ("moved", as written) is what such a part asks about: its answer says it.
    let contextVerb: string | undefined;
    if (terms.length <= 1 && context.length > 0) {
      const before = context.at(-1) ?? "";
      const noun = lastNoun(before);
      // What it happened to is named by the answer too: "when" after "…moved to another university"
      // is answered by a sentence about a university ("In 1983 Thackeray, working with Goodenough…" is not).
      if (noun && terms.length === 0) {
        if (kind.kind === "description") kind = kindOf(`which ${noun}`);
        contextHead = stem(noun);
      }
      const clause = lastClause(before);
      terms = [...new Set([...terms, ...clause.terms])];
      contextVerb = clause.verb;
    }
    const head = contextHead ? { head: contextHead } : headOf(piece);
    const { words, at } = askingWord(piece);
    // "What happens inside a cell", "what caused the fires": a verb, not a noun, follows the asking word.
    const nameAsked = at >= 0 && ASKS_NAME.test(words.slice(at).join(" ")) && !VERB_AFTER.test(words[at + 2] ?? "");
    const options = optionsOf(piece);
    // The event is the one the context says happened ("moved": "left Oxford … to take up a chair" says it).
    const event = contextVerb ?? (kind.kind === "date" ? eventOf(piece) : undefined);
    return {
      asked,
      ...kind,
      ...(counted ? { counted: stem(counted.toLowerCase()) } : {}),
      terms,
      refersBack: alone || refersBack(piece, index),
      ...head,
      ...(NAMED.test(piece) ? { named: true } : {}),
      ...(nameAsked ? { nameAsked } : {}),
      ...(GEOGRAPHIC.test(piece) ? { geographic: true } : {}),
      pins: pinsOf(piece),
      ...subjectOf(piece),
      // "What character first appears in this episode?" after "Homer's Odyssey is an episode of The
      // Simpsons.": the first part that refers back is about one of the names the sentence before gives.
      names: [...namePins(piece), ...(index === 0 && refersBack(piece, index) ? given : [])],
      identifiers: [
        ...new Set((piece.match(IDENTIFIER) ?? []).map((identifier) => identifier.split(".").at(-1) ?? "")),
      ].filter((name) => name !== ""),
      // A choice's options are what it is between, not what it asks of them.
      focus: contextVerb
        ? termsOf(contextVerb).slice(0, 1)
        : focusOf(
            options ? piece.replace(new RegExp(options.map(escapeRegExp).join("|"), "gu"), " ") : piece,
            head.head,
            event,
          ),
      ...(options ? { options } : {}),
      ...(event ? { event } : {}),
      ...(BY_AGENT.test(piece) ? { byAgent: true } : {}),
    };
  });
  return parts.map((part, index) => {
    const others = [...context, ...pieces.filter((_, other) => other !== index)].join(" ");
    const own = new Set(part.terms);
    return { ...part, context: termsOf(others).filter((term) => !own.has(term)) };
  });
}
