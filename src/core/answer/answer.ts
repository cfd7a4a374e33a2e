/**
 * Which sentences answer each part of a question, and what in them is the answer (pure). A
 * sentence answers a part when it carries the part's words (weighted by how rare they are among
 * the sentences read) and a candidate of the kind the part asks for: a name for "who", a year for
 * "when", a figure with its unit for "how much", a "because" for "why". A part no single sentence
 * answers may be answered across two (multi-hop): a sentence that carries most of the part names
 * a bridge (the cathode "LiCoO2"), and a sentence about the bridge carries the answer. A part
 * nothing read answers is `not-said`, decided over every sentence read: that is what lets a
 * report write "The sources read do not say …".
 */

import { HEADING_SEPARATOR } from "../chunking.js";
import { metadataMeaning } from "../doc-metadata.js";
import type { Judge } from "../judgment/judge.js";
import { isContent } from "../judgment/statement.js";
import {
  acronymsOf,
  isCalendarWord,
  isNationality,
  isVerbLike,
  namesIn,
  normalizePhrase,
  stem,
  stemSet,
} from "../lexicon.js";
import type { ANSWER_STATUSES } from "../report/report-document.js";
import { splitSentences } from "../sentences.js";
import { numberValue } from "../statements.js";
import { contentWords, escapeRegExp } from "../text.js";
import { ANSWER_WEIGHTS, type AnswerWeights } from "./answer-weights.js";
import { type AnswerKind, type AskedPart, askedParts, isWhWord } from "./asked.js";

/** A sentence (or a few) that may answer: a finding's text, or a sentence read. */
export interface AnswerSentence {
  /** Who holds it: a finding's id, or where the sentence stands. */
  key: string;
  text: string;
  sourceId: string;
  /** What it stands under (its document's title, its headings): their words count for a share (`ANSWER_WEIGHTS.under`). */
  about?: string;
  /** Its document's title: a sentence in a document titled by a bridge ("Engelbert Humperdinck (singer)") is about it. */
  title?: string;
  /** The passage it stands in (a chunk's id): the words of the sentences around it count for a share. */
  passage?: string;
}

export interface AnswerUse {
  key: string;
  /** The words of the sentence that are the answer (verbatim), or the bridge it names. */
  mark?: string;
  /** `answer`: it answers the part; `bridge`: it names what the answering sentence is about. */
  role: "answer" | "bridge";
}

/** How a part is answered (`ANSWER_STATUSES` of the report document says what each means). */
export type PartStatus = (typeof ANSWER_STATUSES)[number];

export interface PartAnswer {
  part: AskedPart;
  status: PartStatus;
  uses: AnswerUse[];
  /** Sources that bear on the part (for an unsettled part: those that may answer it). */
  related: string[];
}

/**
 * How much of a part a sentence read must carry to bear on it, so that the sources are not said to
 * be silent on it. Not fitted with the weights (`ANSWER_WEIGHTS`): what earns "the sources read do
 * not say" must not move to answer more questions.
 */
const BEARS_FLOOR = 0.21;
/** How many sentences that carry much of a part are tried as the first of two. */
const FIRST_HOPS = 40;
/** A second sentence is shown when it answers nearly as well (a conflict shows both figures). */
const SECOND_SHARE = 0.8;
/** A figure of the same measure from another sentence is shown at a lower share (a conflict of figures). */
const SECOND_FIGURE_SHARE = 0.75;
/** At most this many sentences answer one part. */
const MAX_ANSWERS = 3;

const ORG_WORDS =
  /\b(?:University|Universit[éy]|College|Institute|Laboratory|Laboratories|Lab|Company|Corporation|Corp|Inc|Ltd|Group|Materials|Industries|Agency|Association|Society|Department|School|Council|Academy|Foundation|Motors|Electric|Chemical|Bank|Office|Survey|Commission|Ministry|Gigafactory|Systems|Technologies|Energy|Power|Records|Studios|Press|Times|News|Network|Channel|Television|Broadcasting|Pictures|Films|Entertainment|Publishing|Brands|Airlines|Club|League|Party|Orchestra)\b/u;
const PLACE_WORDS =
  /\b(?:University|College|Institute|Laboratory|City|Street|Station|Square|Park|River|Bay|Lake|Mount|County|Province|States?|Republic|Kingdom|Islands|Emirates)\b/u;
/** A person's name: capitalised words and initials, no digits ("John B. Goodenough", "JB Straubel"). */
const PERSON_NAME =
  /^(?:\p{Lu}{1,2}\.?\s+)*\p{Lu}[\p{Ll}'’-]+(?:\s+(?:\p{Lu}\.|\p{Lu}{1,2}|\p{Lu}[\p{Ll}'’-]+|von|van|de|da|del|le|la|bin))*$/u;
/** A name written as a person's, and no body's or place's ("Northlight Records" is a label). */
const isPersonName = (name: string): boolean =>
  PERSON_NAME.test(name) && !ORG_WORDS.test(name) && !PLACE_WORDS.test(name);
/** Words that write a cause as one ("because of…", "due to…", "which means…"). */
const CAUSE_CONNECTIVES =
  "because|due to|owing to|thanks to|driven by|caused by|came from|comes from|result(?:ed|s)? from|as a result of|led to|leads? to|traced to|contributed to|attributed to|so that|limited by|allow(?:ed|s)?|made it possible|enabl(?:ed|es)|which meant|which means|resulting in|therefore|as a result";
/** A problem's resolution, written as one: what follows is the cause ("The answer turned out to be ethylene carbonate"). */
const RESOLUTION =
  "the (?:answer|solution|remedy|key|breakthrough) (?:turned out to be|proved to be|was|lay in|came from)";
/**
 * A cause: written as one, a harm it could do ("could damage the separator"), or a
 * word that names a fault or a limit ("defect", "could not", ", so" but not "so far", ", as prices soared").
 */
const CAUSE = new RegExp(
  `\\b(?:${CAUSE_CONNECTIVES}|${RESOLUTION}|limits?|obstacles?|barriers?|bottlenecks?|reasons?|defects?|faults?|flaws?|damaged|(?:could|can|would|may|might) damage|degraded|unstable|could not|failed to|(?<=, )so(?! far| on| much| many| called)|(?<=, )as(?= (?:\\p{L}+ ){1,3}(?:soared|rose|fell|grew|dropped|collapsed)\\b))\\b`,
  "iu",
);
/** Connectives that introduce what follows from a cause ("therefore", "which means"), not the cause. */
const CONSEQUENCE = /^(?:therefore|as a result|resulting in|which mean[st]?|so that|led to|leads\? to)$/u;
/**
 * A cause written as one: a connective or a harm or obstacle it names ("because of their cost",
 * "could damage the separator", "the main obstacle"), not a word that only names a fault ("one
 * serious flaw") or a limit ("the upper voltage limit").
 */
const CAUSE_WRITTEN = new RegExp(
  `^(?:${CAUSE_CONNECTIVES.split("|")
    .filter((connective) => !CONSEQUENCE.test(connective))
    .join("|")}|${RESOLUTION}|(?:could|can|would|may|might) damage|obstacles?|barriers?|bottlenecks?)\\b`,
  "iu",
);
/** A cause written after a connective ("because of their cost"), which explains what the rest of its sentence says. */
const CAUSE_CLAUSE = new RegExp(
  `^(?:${CAUSE_CONNECTIVES.split("|")
    .filter((connective) => !CONSEQUENCE.test(connective))
    .join("|")})\\b`,
  "iu",
);
/** What follows from a cause, after its connective ("so smothering them is of limited use", "therefore usually quoted…"). */
const EFFECT_CLAUSE = /^(?:so|therefore|as a result|resulting in|which mean[st]?|led to|leads? to)\b/iu;
/** A resolution at the start of a cause's mark. */
const RESOLVED = new RegExp(`^${RESOLUTION}\\s+`, "iu");
/** Whether a sentence's cause mark writes the cause as one: after a connective, or as what a resolution was. */
const writesCause = (text: string, mark: string | undefined): boolean =>
  mark !== undefined &&
  (CAUSE_WRITTEN.test(mark) || new RegExp(`${RESOLUTION}\\s+${escapeRegExp(mark)}`, "iu").test(text));
/** Words that rate something high or low without a figure ("high recovery rates", "poorly suited"). */
const RATES_HIGH =
  /\b(?:high|higher|highest|best|better|greatest|greater|strongest|stronger|excellent|superior|outperforms?)\b/iu;
const RATES_LOW = /\b(?:low|lower|lowest|worst|worse|poor|poorly|weakest|weaker|uneconomic|inferior)\b/iu;
const NEGATED = /\b(?:not|no|never|cannot)\b|n['’]t\b/iu;
/** A sentence rates what a superlative ranks in the direction asked: high (and not negated), or low (or denied). */
const ratesAsAsked = (text: string, highest: boolean): boolean =>
  highest
    ? RATES_HIGH.test(text) && !NEGATED.test(text) && !RATES_LOW.test(text)
    : RATES_LOW.test(text) || NEGATED.test(text);
const VERSION = /\b(?:version|release|v)\s*\d+(?:\.\d+)*/iu;
const YEAR = /\b(?:1[5-9]\d{2}|20\d{2})(?:s\b)?/gu;
const MONTH =
  /\b(?:January|February|March|April|May|June|July|August|September|October|November|December)(?:\s+\d{1,2},?)?\s+(?:1[5-9]\d{2}|20\d{2})\b/gu;
const UNIT =
  "%|percent|per cent|Wh/kg|Wh/L|Wh/l|kWh|MWh|GWh|TWh|Wh|mAh|Ah|kW|MW|GW|V|volts?|°C|degrees(?: C| Celsius)?|tonnes?|tons?|t|km|kilometres?|kilometers?|miles?|mm|cm|kg|g|years?|months?|days?|hours?|minutes?|cycles?|times|fold|million|billion|thousand|dollars?|cents?|riders|passengers|people|cells?|watt-hours?(?: per (?:kilogram|litre|liter))?|(?:per|a) (?:kilowatt-hour|kWh|year|day)";
const FIGURE = new RegExp(
  `(?:[$€£¥]\\s?)?\\b\\d[\\d,]*(?:\\.\\d+)?(?:\\s?(?:-|–|to)\\s?\\d[\\d,]*(?:\\.\\d+)?)?(?:\\s?(?:${UNIT})(?![\\p{L}]))?(?:\\s?(?:/|per)\\s?(?:kWh|kilowatt-hour|kg|L|year))?`,
  "gu",
);

/** A share written in words ("about three-quarters of the total"): a figure of the share measure. */
const SHARE_WORDS = /\b(?:half|a third|two-thirds|a quarter|three-quarters)(?= of\b)/giu;

/** A count written in words ("a two-time Pro Bowl selection", "twice", "three cells"). */
const COUNT_WORDS =
  /\b(?:once|twice|thrice|(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)(?:-time\b|(?=\s+(?:times|[\p{L}-]+s)\b)))/giu;
/** How many times: "twice", "a two-time …", "three times". */
const TIMES_WORDS = /^(?:once|twice|thrice|[\p{L}]+-time)$/iu;

/** Text that ends a few words after "by": what follows is the agent ("by TV executive "). */
const AFTER_BY = /\bby\s+(?:[\p{L}.'’-]+\s+){0,3}$/iu;

/** A choice by date asks for the earlier or the later one. */
const EARLIER = /\b(?:first|earlier|earliest|older|oldest|before)\b/iu;
const LATER = /\b(?:later|latest|younger|youngest|newer|newest|more recent|most recent|last)\b/iu;
const YEAR_ONLY = /^(?:1[5-9]\d{2}|20\d{2})$/u;
/** Dates in parentheses after a name: a life ("(1874 – 1958)", "(born 2 May 1936)"). */
const LIFESPAN = /\((?:born\b[^()]*|[^()]*\b(?:1[5-9]\d{2}|20\d{2})\s*[–-]\s*[^()]*\b(?:1[5-9]\d{2}|20\d{2}))\)/u;

/** A person described and not named: "the head of…", "the woman who…", "the scientist who…". */
const DESCRIBED_PERSON =
  /\bthe (?:[\p{L}-]+ ){0,2}(head|founder|co-founder|leader|director|inventor|author|scientist|chemist|physicist|man|woman|person|singer|actor|actress|composer|writer|creator|owner|president|chairman|professor|researcher|son|daughter|wife|husband|father|mother|brother|sister)\b(?= (?:of|who|whose|that)\b)/iu;
/**
 * A role that a sentence naming its holder writes, as the noun or its verb ("head", "headed by";
 * "founder", "founded"): the first sentence of a bridge to "the head of the Oxford laboratory"
 * says who headed it, not only who worked there.
 */
const ROLE_WORDS: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  Object.entries({
    head: "head headed",
    founder: "founder founded",
    "co-founder": "co-founder founder founded",
    leader: "leader led",
    director: "director directed",
    inventor: "inventor invented",
    author: "author wrote",
    creator: "creator created",
    owner: "owner owned",
    president: "president",
    chairman: "chairman chaired",
  }).map(([role, words]) => [role, words.split(" ").map(stem)]),
);

/**
 * Something a part describes by what it is to a name, not by its own: "the publisher of Chick Chick
 * Boom", "the country where Nissedal is located", "the receiver of the 2007 FIFA U-20 Golden Shoe"
 * (the person `DESCRIBED_PERSON` describes is one such). Not "the first of…", "the year in which…".
 */
const DESCRIBED_THING =
  /\bthe (?:[\p{L}-]+ ){0,2}(?!first\b|last\b|same\b|most\b|year\b|date\b|name\b)\p{Ll}[\p{Ll}-]+ (?:of|where|in which|that|who|whose) (?:[\p{Ll}-]+ ){0,3}\p{Lu}/u;

/** Whether a part (not one that refers back) describes what it asks about by a name (`DESCRIBED_THING`). */
const describesThing = (part: AskedPart): boolean => !part.refersBack && DESCRIBED_THING.test(part.asked);

/** A word that points to a place or time an earlier part answers ("there", "then"). */
const DEICTIC = /\b(?:there|then)\b/iu;

/** Whether `text` writes `name` (or its last word) only as an owner ("John Goodenough's group"). */
const onlyPossessive = (text: string, name: string): boolean => {
  const last = name.split(" ").at(-1) ?? name;
  const mentions = [...text.matchAll(new RegExp(`(?<![\\p{L}])${escapeRegExp(last)}(?![\\p{L}])(['’]s?)?`, "gu"))];
  return mentions.length > 0 && mentions.every((match) => match[1] !== undefined);
};

/** A name written in quotes ("Maximum Overdrive") is the title of a work: no person. */
const isQuoted = (text: string, name: string): boolean =>
  new RegExp(`["“‘]${escapeRegExp(name)}[,.]?["”’]`, "u").test(text);

/** A person's full name as `text` writes it: two words or more, no body's or place's, not a quoted title. */
const writesPerson = (text: string, name: string): boolean =>
  /\s/u.test(name) && isPersonName(name) && !isQuoted(text, name);

/**
 * Whether `text` writes `phrase` (as `normalizePhrase` writes it) as a name of its own somewhere:
 * not only as the start of a longer one ("the United States Constitution", "Science News for
 * Students").
 */
function writesAlone(text: string, phrase: string): boolean {
  const words = phrase.trim().split(" ").map(escapeRegExp);
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])${words.join("[^\\p{L}\\p{N}]+")}(?![\\p{L}\\p{N}])`, "giu");
  for (const match of text.matchAll(pattern)) {
    const after = text.slice(match.index + match[0].length);
    if (!/^\s+(?:(?:for|of|and|de)\s+)?\p{Lu}/u.test(after)) return true;
  }
  return false;
}

/**
 * Whether a sentence is about a name: it writes one of the name's phrases as a name of its own
 * (`writesAlone`), or stands in the document the name titles.
 */
const isAbout = (item: Read, phrases: readonly string[]): boolean =>
  phrases.some(
    (phrase) =>
      item.normalizedTitle === phrase || (item.normalized.includes(phrase) && writesAlone(item.sentence.text, phrase)),
  );

/** What a part is scored against: a sentence read, or two across a bridge. */
interface Scored {
  stems: ReadonlySet<string>;
  under: ReadonlySet<string>;
  /** Stems of the passage (or passages) it stands in, its own included. */
  passage: ReadonlySet<string>;
  written: string;
  groups: readonly string[];
  /** Stems of what other pages say of its page's subject (`linked`). */
  linked?: ReadonlySet<string>;
}

/** An entry's name written whole: not inside a longer one ("clear_traps" is not "clear_traps_all"). */
const IDENTIFIER_WRITTEN = (identifier: string): RegExp =>
  new RegExp(`(?<!\\w)${escapeRegExp(identifier)}(?!\\w)`, "u");

/**
 * The entries a heading names as a group, as the documentation writes one ("MADV_* Constants",
 * "mmap.MADV_*"): the prefixes before the star, past their module's dot, as written.
 */
export function groupPrefixes(heading: string): string[] {
  return [...heading.matchAll(/([A-Za-z_][\w.]*)\*/gu)]
    .map((match) => (match[1] ?? "").split(".").at(-1) ?? "")
    .filter((prefix) => prefix.length >= 3);
}

interface Read {
  sentence: AnswerSentence;
  stems: Set<string>;
  /** Stems of what it stands under, not its own. */
  under: Set<string>;
  /** Stems of every sentence of its passage (shared by them), or its own where its passage is not known. */
  passage: ReadonlySet<string>;
  /** Its text as `normalizePhrase` writes it, between spaces (for finding a bridge in it). */
  normalized: string;
  /** Its text and what it stands under, as written (for finding an identifier whole, in its case: "Tuple" is not "tuple"). */
  written: string;
  /** The groups of entries its innermost heading names ("MADV_*"): an identifier of one stands there too. */
  groups: readonly string[];
  /** Its document's title as `normalizePhrase` writes it, without a parenthesis ("(singer)"), between spaces. */
  normalizedTitle: string;
}

/** A sentence that answers a part: how much of it it carries and the candidates it holds, best first. */
interface Answering {
  item: Read;
  score: number;
  marks: string[];
}

/** Words a figure's unit says it measures ("90 Wh/kg" is a specific energy). */
const UNIT_WORDS: readonly [RegExp, string][] = [
  [/wh\/kg|watt-hours? per kilogram/iu, "specific energy density"],
  [/wh\/l|watt-hours? per lit/iu, "energy density volumetric"],
  [/(?:\/|per )(?:kwh|kilowatt-hour)|dollars?|[$€£]/iu, "price cost"],
  [
    /%|percent|per cent|\b(?:half|a third|two-thirds|a quarter|three-quarters)(?= of\b|$)/iu,
    "share percentage proportion fraction dependent",
  ],
  [/°c|degrees/iu, "temperature"],
  [/tonnes?|tons?/iu, "production output supply"],
];

/** What a sentence holds of `kind` that the question does not already say. */
function candidatesOf(text: string, kind: AnswerKind, asked: Set<string>): string[] {
  // A bare digit ("5 Wh") has no stem of its own: it is new unless the question gives the figure.
  const fresh = (mark: string): boolean => {
    const terms = [...stemSet(mark)];
    return terms.length === 0 ? !asked.has(mark.replace(/\D+/gu, "")) : terms.some((term) => !asked.has(term));
  };
  // A capital that only opens the sentence names nothing ("According to…").
  const names = (): string[] =>
    namesIn(text)
      .filter((name) => !name.initial || /\s/u.test(name.text))
      .map((name) => name.text)
      .filter(fresh);
  switch (kind) {
    case "person":
      return names().filter(
        (name) =>
          writesPerson(text, name) &&
          // "in the United States", "from New Zealand": a place.
          !new RegExp(`\\b(?:in|from|of|to|across|throughout)\\s+(?:the\\s+)?${escapeRegExp(name)}`, "u").test(text),
      );
    case "organisation":
      return names().sort((a, b) => Number(ORG_WORDS.test(b)) - Number(ORG_WORDS.test(a)));
    case "place":
      // Which names are places is decided over everything read (`answerQuestion`): those put after "in".
      return names().sort((a, b) => Number(PLACE_WORDS.test(b)) - Number(PLACE_WORDS.test(a)));
    case "date":
      // "31 July 2000" is no answer to a question that names 2000.
      return [...text.matchAll(MONTH), ...text.matchAll(YEAR)]
        .map((match) => match[0])
        .filter((date) => fresh(date) && !asked.has(date.match(YEAR)?.[0] ?? ""));
    case "number":
    case "superlative":
      return figuresOf(text).filter((figure) => fresh(figure));
    case "version":
      return [...text.matchAll(new RegExp(VERSION.source, "giu"))].map((match) => match[0]);
    case "cause": {
      const match = CAUSE.exec(text);
      if (!match) return [];
      const rest = text.slice(match.index).split(/[;.](?:\s|$)/u)[0] ?? match[0];
      // A resolution marks what it was ("ethylene carbonate (EC)"), and is a cause written as one.
      const resolved = RESOLVED.exec(rest);
      if (resolved) return [rest.slice(resolved[0].length)];
      // "Because the company believed …, the phones were fitted…": an opening cause ends at its comma,
      // and so does a long one (not the bare "Because"); only one longer still is marked by its connective.
      const opening = !/[\p{L}\p{N}]/u.test(text.slice(0, match.index));
      const clause = opening || rest.length > 160 ? (rest.split(/,\s/u)[0] ?? rest) : rest;
      return [clause.length > 160 ? match[0] : clause];
    }
    case "description":
      // A name answers "which material", "what chemistry"; a description is marked by nothing else.
      return [];
    case "yes-no":
      return [];
  }
}

/** The figures of a text, trimmed of the punctuation after them; a year alone is no figure. */
const figuresOf = (text: string): string[] =>
  [...text.matchAll(FIGURE), ...text.matchAll(SHARE_WORDS), ...text.matchAll(COUNT_WORDS)]
    .map((match) => match[0].trim().replace(/[,.]+$/u, ""))
    // A year alone, or a year's money ("2020 dollars"), is no amount.
    .filter(
      (figure) => figure !== "" && !YEAR_ONLY.test(figure) && !/^(?:1[5-9]\d{2}|20\d{2})\s+dollars?$/u.test(figure),
    );

/** Kinds whose candidates are found reliably enough that a sentence without one does not bear on the part. */
const RELIABLE_CANDIDATE = (kind: AnswerKind): boolean => kind === "number" || kind === "date";

/** Kinds a sentence must hold a candidate of to answer; a description and a cause need only the part's words. */
const NEEDS_CANDIDATE = (kind: AnswerKind): boolean =>
  kind !== "description" && kind !== "yes-no" && kind !== "cause" && kind !== "superlative";

/** A chemical formula ("LiCoO2", "TiS2") or an acronym like one ("NCA"). */
const FORMULAS = /\b[A-Z][a-z]?(?:[A-Z][a-z]?|\d)+\b/gu;
const FORMULA = new RegExp(`^${FORMULAS.source}$`, "u");

/** Distinct bridge names a sentence offers: names and formulas the question does not say (not a month or a day). */
function bridgesOf(text: string, asked: Set<string>): string[] {
  // Formulas ("LiCoO2", "TiS2"), not a roman numeral ("III").
  const formulas = (text.match(FORMULAS) ?? []).filter((formula) => !/^[IVXLCDM]+$/u.test(formula));
  const names = namesIn(text)
    .filter((name) => (!name.initial || /\s/u.test(name.text)) && !isCalendarWord(name.text))
    .map((name) => name.text);
  return [...new Set([...formulas, ...names])].filter(
    (name) => name.length > 2 && [...stemSet(name)].some((term) => !asked.has(term)),
  );
}

/** How a bridge may be written again: whole, or a person's surname alone ("John B. Goodenough" → "Goodenough"). */
function bridgePhrases(bridge: string): string[] {
  const whole = ` ${normalizePhrase(bridge)} `;
  const words = bridge.split(/\s+/u);
  const last = words.at(-1) ?? "";
  const person = isPersonName(bridge);
  return person && words.length >= 2 && /^\p{Lu}\p{Ll}{3,}$/u.test(last)
    ? [whole, ` ${normalizePhrase(last)} `]
    : [whole];
}

/** The stems of a name that say which one it is ("texa" of "University of Texas"), else all of them. */
function specificStems(name: string): string[] {
  const all = [...stemSet(name)];
  const generic = stemSet(
    [...name.matchAll(new RegExp(ORG_WORDS.source, "gu")), ...name.matchAll(new RegExp(PLACE_WORDS.source, "gu"))]
      .map((match) => match[0])
      .join(" "),
  );
  const specific = all.filter((term) => !generic.has(term));
  return specific.length > 0 ? specific : all;
}

/** Which measure a figure is of: its unit's class ("Wh/kg" and "watt-hours per kilogram" are one), else its unit. */
function unitClass(figure: string): string {
  const index = UNIT_WORDS.findIndex(([unit]) => unit.test(figure));
  if (index >= 0) return `class ${index}`;
  return figure
    .replace(/[\d.,\s$€£¥]+/gu, " ")
    .trim()
    .toLowerCase();
}

/** The value a figure stands for, for comparing ("1,100" → 1100; "$137/kWh" → 137). */
const figureValue = (figure: string): number =>
  numberValue(figure.replace(/^[^\d]+/u, "").split(/\s|\/|[^\d.,]/u)[0] ?? "");

export interface AnswerOptions {
  /** Decides yes/no parts; its `mentionsOf` is not used (rare words are weighed by the sentences read). */
  judge?: Judge;
  /** In place of the fitted `ANSWER_WEIGHTS` (the fitting script tries others). */
  weights?: Partial<AnswerWeights>;
  /**
   * What a report says answers (publication), not what an engine should read or record next: a
   * why-part that no sentence writes a cause for is then left open. An engine choosing what to
   * record keeps the sentences that bear on it best, to read on from them.
   */
  strict?: boolean;
}

/**
 * How `question` is answered: each part by the best of `offered` (findings, or the sentences an
 * engine may choose from), decided against `read` (every sentence read, `offered` included or not).
 */
export function answerQuestion(
  question: string,
  offered: readonly AnswerSentence[],
  read: readonly AnswerSentence[],
  options: AnswerOptions = {},
): PartAnswer[] {
  const parts = askedParts(question);
  const fit = { ...ANSWER_WEIGHTS, ...options.weights };
  const memo = new Map<AnswerSentence, Read>();
  // Each passage's stems, filled as its sentences are read (every sentence is read before any is scored).
  const passages = new Map<string, Set<string>>();
  const toRead = (sentence: AnswerSentence): Read => {
    let item = memo.get(sentence);
    if (!item) {
      // "New in version 3.7." says the thing was added then: a question asks it in those words.
      const line = sentence.text.slice(sentence.text.indexOf(": ") + 1);
      const own = stemSet(`${sentence.text} ${metadataMeaning(sentence.text)} ${metadataMeaning(line)}`);
      for (const [unit, words] of UNIT_WORDS)
        if (unit.test(sentence.text)) for (const term of stemSet(words)) own.add(term);
      // "(15 June 1924 – 24 April 2005)", "(born 1939)": a life's dates say when its subject was born and died.
      if (LIFESPAN.test(sentence.text)) for (const term of stemSet("born birth died death")) own.add(term);
      for (const term of acronymsOf(sentence.text)) own.add(term);
      const under = stemSet(sentence.about ?? "");
      for (const term of acronymsOf(sentence.about ?? "")) under.add(term);
      let passage = own;
      if (sentence.passage !== undefined) {
        passage = passages.get(sentence.passage) ?? new Set();
        passages.set(sentence.passage, passage);
        for (const term of own) passage.add(term);
      }
      item = {
        sentence,
        stems: own,
        under,
        passage,
        normalized: ` ${normalizePhrase(sentence.text)} `,
        written: ` ${sentence.text} ${sentence.about ?? ""} `,
        groups: groupPrefixes((sentence.about ?? "").split(HEADING_SEPARATOR).at(-1) ?? ""),
        normalizedTitle: ` ${normalizePhrase((sentence.title ?? "").replace(/\s*\([^)]*\)\s*$/u, ""))} `,
      };
      memo.set(sentence, item);
    }
    return item;
  };
  const offeredRead = offered.map(toRead);
  const allRead = read.map(toRead);
  /**
   * What other pages say of a page's subject: the stems of every sentence of another source that
   * names it by its page's title ("She serves as chief of staff … at the Clinton Foundation" for
   * the Clinton Foundation's page). A name the part gives that such a sentence writes links the
   * page to it ("…the Clinton Foundation, where Bari Lurie serves…").
   */
  const linkedMemo = new Map<string, Set<string>>();
  const EMPTY: ReadonlySet<string> = new Set();
  const linked = (item: Read): ReadonlySet<string> => {
    const title = item.normalizedTitle;
    if (title.trim().length < 4) return EMPTY;
    let stems = linkedMemo.get(`${item.sentence.sourceId} ${title}`);
    if (!stems) {
      stems = new Set();
      for (const other of allRead)
        if (other.sentence.sourceId !== item.sentence.sourceId && other.normalized.includes(title))
          for (const term of other.stems) stems.add(term);
      linkedMemo.set(`${item.sentence.sourceId} ${title}`, stems);
    }
    return stems;
  };
  const frequency = new Map<string, number>();
  for (const item of allRead) for (const term of item.stems) frequency.set(term, (frequency.get(term) ?? 0) + 1);
  const total = Math.max(1, allRead.length);
  const weight = (term: string): number => Math.log(1 + total / (1 + (frequency.get(term) ?? 0)));
  const asked = stemSet(question);
  /**
   * The idf-weighted share of `terms` a sentence carries: its own words fully, what it stands under
   * and the rest of its passage for the shares `ANSWER_WEIGHTS` gives ("He was the father of Antara
   * Mali" stands in the passage that says who "he" is).
   */
  const coverage = (
    terms: readonly string[],
    { stems, under, passage }: Pick<Scored, "stems" | "under" | "passage">,
  ): number => {
    let all = 0;
    let carried = 0;
    for (const term of terms) {
      const w = weight(term);
      all += w;
      if (stems.has(term)) carried += w;
      else if (under.has(term)) carried += w * fit.under;
      else if (passage.has(term)) carried += w * fit.passage;
    }
    return all === 0 ? 0 : carried / all;
  };
  /**
   * A figure or year the part names pins it: a sentence whose passage lacks it answers another
   * question. So does each name it gives, and each entry it names by identifier (written in the
   * sentence or what it stands under).
   */
  const pinned = (part: AskedPart, item: Scored): boolean =>
    [...part.pins, ...part.names].every((group) =>
      group.some((term) => item.passage.has(term) || item.under.has(term) || item.linked?.has(term)),
    ) && part.identifiers.every((identifier) => IDENTIFIER_WRITTEN(identifier).test(item.written));
  /**
   * A sentence under a heading that names a group of entries ("MADV_* Constants › mmap.MADV_*")
   * stands under each identifier of the part that the group holds ("MADV_NOHUGEPAGE"), as though
   * the heading wrote it.
   */
  const standing = (part: AskedPart, item: Scored): Scored => {
    const held = part.identifiers.filter((identifier) =>
      item.groups.some((prefix) => identifier.startsWith(prefix) && identifier !== prefix),
    );
    if (held.length === 0) return item;
    return {
      ...item,
      under: new Set([...item.under, ...stemSet(held.join(" "))]),
      written: `${item.written}${held.join(" ")} `,
    };
  };
  /**
   * A sentence that writes a name the part gives by its initials ("the DRC produced…") carries the
   * whole name ("Democratic Republic of the Congo"): its initials are the group's terms the question
   * does not write.
   */
  const abbreviated = (part: AskedPart, item: Scored): Scored => {
    const written = (terms: ReadonlySet<string>, group: readonly string[]): boolean =>
      group.some((term) => !asked.has(term) && terms.has(term));
    const stems = part.names.filter((group) => written(item.stems, group));
    const passage = part.names.filter((group) => written(item.passage, group));
    if (stems.length === 0 && passage.length === 0) return item;
    return {
      ...item,
      stems: new Set([...item.stems, ...stems.flat()]),
      passage: new Set([...item.passage, ...passage.flat()]),
    };
  };
  /**
   * How much of `part` a sentence carries. `strict` (to answer): the figures, years and names
   * that pin the part and the noun it asks for must be there; loose (to decide whether a
   * sentence read bears on it, before saying the sources do not): they need not.
   */
  const scoreOf = (part: AskedPart, scored: Scored | Read, strict = true): number => {
    const item = {
      ...abbreviated(part, standing(part, scored)),
      ...("sentence" in scored ? { linked: linked(scored) } : {}),
    };
    if (strict && !pinned(part, item)) return 0;
    // The noun it asks for and what a why-part asks the reason of: the sentence or its heading says them.
    const said = (term: string | undefined) => term === undefined || item.stems.has(term) || item.under.has(term);
    if (strict && !(said(part.head) && said(part.subject))) return 0;
    if (part.terms.length === 0) return coverage(part.context, item);
    if (part.context.length === 0) return coverage(part.terms, item);
    // A part that refers back ("why did they rise") is about what the question before it names.
    const own = part.refersBack ? 0.5 : 0.75;
    return own * coverage(part.terms, item) + (1 - own) * coverage(part.context, item);
  };
  // A name some sentence read puts after "at" or "company" ("working at Asahi Kasei") names a body, and one
  // after "in" or "from" ("born in Botswana", "in the United States") a place: neither is a person.
  const bodies = new Set<string>();
  const places = new Set<string>();
  for (const item of allRead)
    for (const name of namesIn(item.sentence.text)) {
      const before = item.sentence.text.slice(0, name.start);
      if (/\b(?:at|company|firm|maker)\s+$/iu.test(before)) bodies.add(normalizePhrase(name.text));
      if (/\b(?:in|from|near)\s+(?:the\s+)?$/iu.test(before)) places.add(normalizePhrase(name.text));
    }
  // The names the question gives, as a sentence may write them ("Natural Born Killers").
  const givenNames = namesIn(question).map(
    (name) => new RegExp(`(?<!\\p{L})${escapeRegExp(name.text)}(?!\\p{L})`, "giu"),
  );
  const nameOnly = new Map<Read, Set<string>>();
  /** The stems a sentence has only from the names the question gives ("born" of "Natural Born Killers" is no birth). */
  const onlyInNames = (item: Read): Set<string> => {
    let stems = nameOnly.get(item);
    if (!stems) {
      const outside = stemSet(givenNames.reduce((text, name) => text.replace(name, " "), item.sentence.text));
      stems = new Set([...stemSet(item.sentence.text)].filter((term) => !outside.has(term)));
      nameOnly.set(item, stems);
    }
    return stems;
  };
  // The stems that say an event, with its synonyms ("established" for "founded"), by the verb as written.
  const eventStems = new Map<string, ReadonlySet<string>>();
  const sayEvent = (event: string): ReadonlySet<string> => {
    let said = eventStems.get(event);
    if (!said) {
      said = new Set((options.judge?.mentionsOf(event) ?? []).filter((word) => !word.includes(" ")).map(stem));
      eventStems.set(event, said);
    }
    return said;
  };
  /**
   * The sentence that gives the answer says what is asked of it (`AskedPart.focus`, or a synonym
   * of the event it asks about), not only in a name the question gives.
   */
  const focused = (part: AskedPart, item: Read): boolean =>
    part.focus.length === 0 || [...item.stems].some((term) => asks(part, term) && !onlyInNames(item).has(term));
  const asks = (part: AskedPart, term: string): boolean =>
    part.focus.includes(term) || (part.event !== undefined && sayEvent(part.event).has(term));
  /**
   * The text of an item whose candidates may answer: the whole sentence, or, of a finding of several
   * ("Born in 1922…, he studied physics at the University of Chicago… He then spent two decades…,
   * working on magnetic oxides"), the sentences that say what is asked ("working" is no move to Chicago).
   */
  const answeringText = (part: AskedPart, item: Read): string => {
    const text = item.sentence.text;
    if (part.focus.length === 0) return text;
    const spans = splitSentences(text);
    if (spans.length < 2) return text;
    const only = onlyInNames(item);
    const saying = spans.filter((span) => [...stemSet(span.text)].some((term) => asks(part, term) && !only.has(term)));
    return saying.length === 0 || saying.length === spans.length
      ? text
      : saying.map((span) => text.slice(span.start, span.end)).join(" ");
  };

  /**
   * The candidates of a sentence that may be the answer, best first. The name its page is titled
   * by is what the sentence is about, so it comes after the others ("Hello Friends is an album
   * mixed by Jack Dangers" answers "who mixed it" with Jack Dangers).
   */
  const marksOf = (part: AskedPart, item: Read): string[] => {
    const text = answeringText(part, item);
    // "…created by who?": the agent is written after "by" ("created by TV executive Reg Watson").
    const candidates = candidatesOf(text, part.kind, asked).filter(
      (mark) => !part.byAgent || AFTER_BY.test(text.slice(0, Math.max(0, text.indexOf(mark)))),
    );
    const titled = (mark: string): boolean => ` ${normalizePhrase(mark)} ` === item.normalizedTitle;
    const found = [...candidates.filter((mark) => !titled(mark)), ...candidates.filter(titled)];
    // A cause after a connective explains the rest of its sentence: a cause of the fires only where
    // that says something of them ("Because the company believed …, the replacement phones were
    // fitted with cells from the other supplier" gives the reason for the replacement cells).
    // So does a consequence, in the words after its connective ("…supply their own oxygen, so
    // smothering them is of limited use" gives no cause of the fires).
    if (part.kind === "cause") {
      const own = new Set(part.terms);
      const says = (words: string): boolean => [...stemSet(words)].some((term) => own.has(term));
      return found.filter(
        (mark) =>
          (!CAUSE_CLAUSE.test(mark) || says(text.replace(mark, " "))) && (!EFFECT_CLAUSE.test(mark) || says(mark)),
      );
    }
    const marks =
      part.kind === "person"
        ? found.filter((name) => !bodies.has(normalizePhrase(name)) && !places.has(normalizePhrase(name)))
        : part.kind === "place"
          ? found.filter(
              (name) =>
                (PLACE_WORDS.test(name) || ORG_WORDS.test(name) || places.has(normalizePhrase(name))) &&
                !(part.geographic && ORG_WORDS.test(name)),
            )
          : found;
    if (part.kind === "number" && part.counted) {
      const counted = part.counted;
      return marks.filter((figure) => {
        const after = text.slice(text.indexOf(figure) + figure.length).trimStart();
        return (
          stemSet(figure).has(counted) ||
          stemSet(after.split(/\s+/u).slice(0, 2).join(" ")).has(counted) ||
          (counted === stem("times") && TIMES_WORDS.test(figure))
        );
      });
    }
    // "Which cathode material…", "which university…": a name that says what the part asks for.
    if (
      (part.kind === "description" && (part.named || part.nameAsked)) ||
      part.kind === "place" ||
      part.kind === "organisation"
    ) {
      // A member of a category is marked by nothing ("plays as a striker"): no name in the sentence is it.
      if (part.category) return [];
      const named =
        part.kind === "description"
          ? bridgesOf(text, asked).filter((name) => !part.named || (!ORG_WORDS.test(name) && !PLACE_WORDS.test(name)))
          : marks;
      const head = part.head;
      const fitting = head ? named.filter((name) => stemSet(name).has(head)) : named;
      // "Which university": a name that says so; "what medal", "which rapper": any name the question does not give.
      if (fitting.length > 0 || !head) return [...new Set(fitting)];
      // "Which cathode material": a formula names one ("LiFePO4"), though not as a cathode; an
      // acronym ("LFP", "USGS") may name anything.
      if (part.named) return [...new Set(named.filter((name) => FORMULA.test(name) && /[a-z\d]/u.test(name)))];
      return part.kind === "description" ? [...new Set(named)] : [];
    }
    if (part.kind === "number") {
      // "What was the price": a figure in dollars before a share in percent.
      const wanted = new Set([...part.terms, ...(part.head ? [part.head] : [])]);
      const fits = (figure: string): boolean =>
        UNIT_WORDS.some(([unit, words]) => unit.test(figure) && [...stemSet(words)].some((term) => wanted.has(term)));
      return [...marks.filter(fits), ...marks.filter((figure) => !fits(figure))];
    }
    return marks;
  };

  /** A sentence every word of which the question already says ("Homer's Odyssey is the third episode…") tells nothing new. */
  const restates = (item: Read): boolean => ![...stemSet(item.sentence.text)].some((term) => !asked.has(term));
  // The compounds the question names ("lithium-ion"): a sentence that names a sibling instead
  // ("its first-generation sodium-ion battery … 160 Wh/kg") is about another thing.
  const compounds = [...question.matchAll(/(?<![\p{L}-])(\p{L}+)-(\p{L}+)(?![\p{L}-])/gu)].map(([whole, , tail]) => ({
    whole: whole.toLowerCase(),
    sibling: new RegExp(`(?<![\\p{L}-])(\\p{L}+)-${escapeRegExp(tail ?? "")}(?![\\p{L}-])`, "giu"),
  }));
  const aboutSibling = (item: Read): boolean =>
    compounds.some(
      ({ whole, sibling }) =>
        !item.sentence.text.toLowerCase().includes(whole) &&
        [...item.sentence.text.matchAll(sibling)].some((match) => match[0].toLowerCase() !== whole),
    );
  const direct = (part: AskedPart, pool: readonly Read[]): Answering[] =>
    pool
      .filter((item) => focused(part, item) && !restates(item) && !aboutSibling(item))
      .map((item) => {
        const marks = marksOf(part, item);
        // A cause marked by "because", "led to"… answers a "why" better than one that only shares its words.
        const lift = (part.kind === "cause" || part.kind === "description") && marks.length > 0 ? 0.1 : 0;
        return { item, score: scoreOf(part, item) + lift, marks };
      })
      // A part a name answers that refers back ("which cathode material did his group report there?")
      // is answered by a sentence that names one, not one that only says where "there" is.
      // A why-part is not answered by a sentence that gives the cause of something else ("Because Samsung
      // believed…, the replacement phones were fitted with cells from the other supplier").
      .filter(
        ({ score, marks, item }) =>
          score >= fit.answerFloor &&
          ((!NEEDS_CANDIDATE(part.kind) && !(part.named && part.refersBack)) || marks.length > 0) &&
          // (`marksOf` drops its causes; it had some.)
          !(
            part.kind === "cause" &&
            marks.length === 0 &&
            candidatesOf(answeringText(part, item), "cause", asked).length > 0
          ),
      )
      .sort((a, b) => b.score - a.score);

  /** The person a part (or, when it refers back, the question) describes and does not name, for a part that does not ask who. */
  const describedPerson = (part: AskedPart): RegExpExecArray | null =>
    part.kind === "person" ? null : DESCRIBED_PERSON.exec(part.refersBack ? question : part.asked);

  /**
   * A part answered across two sentences: one names a bridge, the other answers about it. Where the
   * part (or, when it refers back, the question) describes a person it does not name ("the head
   * of the Oxford laboratory", "the woman who portrayed…") and does not ask who, the bridge is a
   * person the first sentence names, not a body or a place beside them ("Exxon"), and a first
   * sentence writes the role it describes, where it names one (`ROLE_WORDS`).
   */
  const bridged = (
    part: AskedPart,
    pool: readonly Read[],
  ): { score: number; uses: AnswerUse[]; aboutBridge: boolean } | undefined => {
    const terms = [...part.terms, ...part.context];
    const described = describedPerson(part);
    const role = ROLE_WORDS[described?.[1]?.toLowerCase() ?? ""];
    const firstHops = pool
      .filter((item) => !role || role.some((term) => item.stems.has(term)))
      .map((item) => ({
        item,
        score: coverage(terms, item),
        bridges: bridgesOf(item.sentence.text, asked).filter(
          (name) => !described || writesPerson(item.sentence.text, name),
        ),
      }))
      .filter(({ score, bridges }) => score >= fit.firstHopFloor && bridges.length > 0)
      .sort((a, b) => b.score - a.score)
      .slice(0, FIRST_HOPS);
    // The pairs whose sentence about the bridge answers, and those whose first sentence does (used
    // only when none of the first kind answers).
    const best: ({ score: number; uses: AnswerUse[] } | undefined)[] = [undefined, undefined];
    for (const hop of firstHops) {
      // A sentence that answers the part alone is no first hop, unless what it answers of is what
      // the part describes the thing asked about by ("Chick Chick Boom … created for Easter 2007").
      if (
        !describesThing(part) &&
        NEEDS_CANDIDATE(part.kind) &&
        focused(part, hop.item) &&
        marksOf(part, hop.item).length > 0 &&
        scoreOf(part, hop.item) >= fit.answerFloor
      )
        continue;
      for (const bridge of hop.bridges) {
        const phrases = bridgePhrases(bridge);
        // Not the bridge itself: a name that holds it, or the name that opens a sentence of its own page
        // ("Benjamin Andrew "Ben" Stokes (born 4 June 1991) is…" on the page "Ben Stokes").
        const fresh = (sentence: Read): string[] =>
          marksOf(part, sentence).filter(
            (mark) =>
              !phrases.some((phrase) => ` ${normalizePhrase(mark)} `.includes(phrase)) &&
              !(phrases.includes(sentence.normalizedTitle) && sentence.sentence.text.indexOf(mark) <= 1),
          );
        for (const item of pool) {
          if (item === hop.item || !isAbout(item, phrases)) continue;
          // A person described is what the sentence says something of, not the owner of what it is about
          // ("…Thackeray working in John Goodenough's group…, before Thackeray moved on").
          if (described && onlyPossessive(item.sentence.text, bridge)) continue;
          // The answer is in the sentence about the bridge ("He has sold more than 150 million records");
          // or in the first, when it names the answer and the bridge and the sentence about the bridge
          // only gives what the question says of it ("…DJ'ed by Jack Dangers … produced by Ben Stokes",
          // then "Born in Christchurch, New Zealand, Ben moved…"): that is the fall-back.
          const second = focused(part, item) ? fresh(item) : [];
          const first =
            NEEDS_CANDIDATE(part.kind) && second.length === 0 && focused(part, hop.item) ? fresh(hop.item) : [];
          if (NEEDS_CANDIDATE(part.kind) ? second.length === 0 && first.length === 0 : !focused(part, item)) continue;
          const [answering, marks, other] =
            first.length > 0 ? [hop.item, first, item] : ([item, second, hop.item] as const);
          // A part a name answers ("what cathode chemistry") is answered across a bridge only by a
          // sentence that names one ("LFP has become the dominant chemistry…, especially in China"
          // names no cathode: China, the bridge, is no answer to what is in the Nevada cells).
          if (part.named && marks.length === 0) continue;
          const joined = {
            stems: new Set([...hop.item.stems, ...item.stems]),
            under: new Set([...hop.item.under, ...item.under]),
            passage: new Set([...hop.item.passage, ...item.passage]),
            // An entry named by identifier is the answering sentence's own: no bridge lends it one.
            written: answering.written,
            groups: answering.groups,
          };
          const score = scoreOf(part, joined);
          // The answering sentence must carry the part itself, not only the bridge: what it asks of
          // the answer (`focused`, above), or some of its words where no word says that.
          if (
            (part.focus.length === 0 && coverage(part.terms, answering) < fit.answerFloor / 3) ||
            score < fit.bridgedFloor
          )
            continue;
          const kind = first.length > 0 ? 1 : 0;
          if ((best[kind]?.score ?? -1) >= score) continue;
          best[kind] = {
            score,
            uses: [
              { key: answering.sentence.key, ...(marks[0] ? { mark: marks[0] } : {}), role: "answer" },
              // The bridge is marked where the sentence writes it (a page about it may say "he").
              {
                key: other.sentence.key,
                ...(other.sentence.text.includes(bridge) ? { mark: bridge } : {}),
                role: "bridge",
              },
            ],
          };
        }
      }
    }
    const pair = best[0] ?? best[1];
    return pair && { score: pair.score, uses: pair.uses, aboutBridge: pair === best[0] };
  };

  /**
   * A choice by date ("which band was formed first, The Exies or Circus Diablo?", "who is older"):
   * the sentence about each option that gives a year and carries most of the part; the earlier
   * (or later) year wins. Both sentences are cited; none when either gives no year or both the same.
   */
  const chosen = (part: AskedPart, pool: readonly Read[]): AnswerUse[] | undefined => {
    const direction = EARLIER.test(part.asked) ? -1 : LATER.test(part.asked) ? 1 : 0;
    if (!part.options || direction === 0) return undefined;
    const picks = part.options.map((option) => {
      const phrases = bridgePhrases(option);
      const best = pool
        .filter((item) => isAbout(item, phrases))
        .map((item) => ({
          item,
          year: item.sentence.text.match(YEAR)?.[0],
          score: coverage(part.terms, item),
        }))
        .filter((entry): entry is typeof entry & { year: string } => entry.year !== undefined)
        .sort((a, b) => b.score - a.score)[0];
      return best && { ...best, option };
    });
    const [one, other] = picks;
    const gap = one && other ? (Number.parseInt(one.year, 10) - Number.parseInt(other.year, 10)) * direction : 0;
    if (!one || !other || gap === 0) return undefined;
    const [winner, loser] = gap > 0 ? [one, other] : [other, one];
    const named = winner.item.sentence.text.match(new RegExp(escapeRegExp(winner.option), "iu"))?.[0];
    return [
      { key: winner.item.sentence.key, mark: named ?? winner.year, role: "answer" },
      { key: loser.item.sentence.key, mark: loser.year, role: "answer" },
    ];
  };

  /**
   * A why-part whose best sentence writes no cause is answered first by the sentence of the same
   * passage that does and shares a word of the part ("Ordinary graphite … was damaged as solvent
   * molecules forced their way between its layers" beside "In 1985 he built a cell with a
   * petroleum-coke anode…"): the passage explains, that sentence says why.
   */
  const withCause = (part: AskedPart, found: readonly Answering[], pool: readonly Read[]): Answering[] => {
    const best = found[0];
    const passage = best?.item.sentence.passage;
    if (!best || passage === undefined) return [...found];
    const mate = pool
      .filter((item) => item !== best.item && item.sentence.passage === passage && CAUSE.test(item.sentence.text))
      .map((item) => ({
        item,
        score: scoreOf(part, item, false),
        marks: candidatesOf(item.sentence.text, "cause", asked),
      }))
      .filter(({ item, score }) => score > 0 && coverage(part.terms, item) > 0)
      .sort((a, b) => b.score - a.score)[0];
    if (!mate) return [...found];
    return [{ ...mate, score: best.score }, ...found.filter(({ item }) => item !== mate.item)];
  };

  /**
   * A why-part that no sentence answers with a cause written as one may be answered by a passage:
   * one that carries the part whole (`alone`, counting all its sentences' words as one), in which a
   * sentence writes the cause ("The answer turned out to be ethylene carbonate (EC)." in the
   * paragraph on how graphite became the standard anode). That sentence comes first, then the one
   * of its passage that carries most of the part, which says what the cause is of.
   */
  const passageCause = (part: AskedPart, pool: readonly Read[]): Answering[] => {
    const cause = pool
      .map((item) => ({
        item,
        score: coverage(part.terms, { stems: item.passage, under: item.under, passage: EMPTY }),
        marks: candidatesOf(item.sentence.text, "cause", asked),
      }))
      .filter(
        ({ item, score, marks }) => score >= fit.alone && writesCause(item.sentence.text, marks[0]) && !restates(item),
      )
      .sort((a, b) => b.score - a.score)[0];
    if (!cause) return [];
    const mate = pool
      .filter((item) => item !== cause.item && item.sentence.passage === cause.item.sentence.passage)
      .map((item) => ({ item, score: scoreOf(part, item, false) }))
      .filter(({ score }) => score > 0)
      .sort((a, b) => b.score - a.score)[0];
    return [cause, ...(mate ? [{ item: mate.item, score: cause.score, marks: [] }] : [])];
  };

  /**
   * How `part` is answered from `pool`. `acrossOnly`: the part is about a person the question
   * describes and does not name ("The head of the Oxford laboratory … later moved to another
   * university. When?"): only a sentence about the person a first hop names answers it, not one
   * that shares its words about someone else ("…before Thackeray moved on to Argonne").
   */
  const answerFrom = (part: AskedPart, pool: readonly Read[], acrossOnly = false): AnswerUse[] | undefined => {
    const choice = chosen(part, pool);
    if (choice) return choice;
    // A sentence that writes a cause answers "why" before one that only shares its words (which may follow it).
    const written = ({ item, marks }: Answering): boolean =>
      part.kind === "cause" && writesCause(item.sentence.text, marks[0]);
    const ranked = acrossOnly ? [] : direct(part, pool).sort((a, b) => Number(written(b)) - Number(written(a)));
    const withMate = ranked[0] && part.kind === "cause" && !written(ranked[0]) ? withCause(part, ranked, pool) : ranked;
    const whole = part.kind === "cause" && !withMate.some(written) ? passageCause(part, pool) : [];
    const floor = Math.max(...whole.map(({ score }) => score), withMate[0]?.score ?? 0);
    const found = [
      ...whole.map((entry) => ({ ...entry, score: floor })),
      ...withMate.filter(({ item }) => !whole.some((entry) => entry.item === item)),
    ];
    // In a report, a why-part no sentence writes any cause for is not answered by sentences that only share its words.
    if (options.strict && part.kind === "cause" && !found.some(({ marks }) => marks.length > 0)) return undefined;
    const top = found[0];
    // Two sentences that carry the part between them beat one that carries less of it.
    // A cause is explained where it is written, not across pages by a name (nor a claim's truth).
    const across = part.kind === "yes-no" || part.kind === "cause" ? undefined : bridged(part, pool);
    // A part about something it describes by a name ("the publisher of Chick Chick Boom"): the sentence
    // that names it only says what it is; what is asked of it is said about it, across a bridge, where
    // such a pair was read.
    if (across?.aboutBridge && describesThing(part)) return across.uses;
    // A sentence that carries most of the part answers it alone; two are sought where none does.
    if (across && (!top || (top.score < fit.alone && across.score >= top.score + fit.bridgeMargin))) return across.uses;
    if (!top) return undefined;
    if (part.kind === "superlative") {
      // The highest (or lowest) figure among the sentences that answer it well, whatever their order.
      const ranked = found
        .filter(({ score }) => score >= top.score * SECOND_SHARE)
        .flatMap((entry) => entry.marks.map((mark) => ({ entry, mark, value: figureValue(mark) })))
        .filter(({ value }) => Number.isFinite(value))
        .sort((a, b) => (part.highest === false ? a.value - b.value : b.value - a.value));
      const winner = ranked[0];
      if (winner) return [{ key: winner.entry.item.sentence.key, mark: winner.mark, role: "answer" }];
      // With no figure to compare, the sentence that rates what is ranked, in the direction asked
      // ("High recovery rates for lithium…" under "Route two: hydrometallurgy" for "which route recovers lithium best").
      const rated = found.find(
        ({ score, item }) =>
          score >= top.score * SECOND_SHARE && ratesAsAsked(item.sentence.text, part.highest !== false),
      );
      if (rated)
        return [{ key: rated.item.sentence.key, ...(rated.marks[0] ? { mark: rated.marks[0] } : {}), role: "answer" }];
    }
    // Different answers (a conflict) are all shown; the same answer twice is not, nor a figure of another measure.
    const seen = new Set<string>();
    const measure = part.kind === "number" ? unitClass(top.marks[0] ?? "") : undefined;
    return found
      .filter(({ score }) => score >= top.score * (measure !== undefined ? SECOND_FIGURE_SHARE : SECOND_SHARE))
      .filter(({ marks }) => measure === undefined || unitClass(marks[0] ?? "") === measure)
      .filter(({ marks, item }) => {
        const key = marks[0] ? normalizePhrase(marks[0]) : item.sentence.key;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      })
      .slice(0, MAX_ANSWERS)
      .map(
        ({ item, marks }): AnswerUse => ({
          key: item.sentence.key,
          ...(marks[0] ? { mark: marks[0] } : {}),
          role: "answer",
        }),
      );
  };

  const sourceOf = new Map([...read, ...offered].map((sentence) => [sentence.key, sentence.sourceId]));
  const sourcesOf = (uses: readonly AnswerUse[]): string[] =>
    [...new Set(uses.map((use) => sourceOf.get(use.key) ?? ""))].filter((id) => id !== "");
  const answers: PartAnswer[] = [];
  for (const asked of parts) {
    // "Who founded it?": the answer before it is what "it" is.
    const previous = answers
      .flatMap((answer) => answer.uses)
      .filter((use) => use.role === "answer" && use.mark && /^\p{Lu}/u.test(use.mark) && !/\d/u.test(use.mark))
      .at(-1)?.mark;
    const part =
      asked.refersBack && previous
        ? {
            ...asked,
            terms: [...new Set([...asked.terms, ...stemSet(previous)])],
            // What "it" is must be named by the answer or the sentence it stands on.
            pins: [...asked.pins, specificStems(previous)],
          }
        : asked;
    if (part.kind === "yes-no") {
      answers.push(settle(part, offeredRead, allRead, scoreOf, options.judge, fit.answerFloor));
      continue;
    }
    // A part that refers back to a person the question describes, not to an answer before it.
    const acrossOnly = asked.refersBack && !previous && describedPerson(asked) !== null;
    // "Which cathode material did his group report there?" where no part before says where "there" is:
    // a sentence about somewhere else does not answer it.
    const unresolved = asked.refersBack && DEICTIC.test(asked.asked) && answers.length > 0 && !previous;
    const uses = unresolved ? undefined : answerFrom(part, offeredRead, acrossOnly);
    if (uses && uses.length > 0) {
      answers.push({ part: asked, status: "answered", uses, related: sourcesOf(uses) });
      continue;
    }
    const elsewhere = unresolved ? undefined : answerFrom(part, allRead, acrossOnly);
    if (elsewhere && elsewhere.length > 0) {
      answers.push({ part: asked, status: "unsettled", uses: [], related: sourcesOf(elsewhere) });
      continue;
    }
    // "The sources read do not say" only where no sentence read even comes near: one that carries
    // half as much of the part (with a candidate of its kind, where it needs one) bears on it.
    const near = allRead
      .filter(
        (item) =>
          // Without its pins: a sentence about one of the names, or another year, still bears on the
          // part; so does any sentence of a document about a name the part gives ("He was a two-time
          // Pro Bowl selection" under "Deltha O'Neal"), when it holds a candidate.
          (scoreOf(part, item, false) >= BEARS_FLOOR ||
            part.names.some((group) => group.some((term) => item.under.has(term)))) &&
          // Only a figure or a year is found reliably enough to say the sources give none.
          (!RELIABLE_CANDIDATE(part.kind) || marksOf(part, item).length > 0),
      )
      .sort((a, b) => scoreOf(part, b, false) - scoreOf(part, a, false));
    answers.push(
      near.length > 0
        ? {
            part: asked,
            status: "unsettled",
            uses: [],
            related: [...new Set(near.map((item) => item.sentence.sourceId))].slice(0, MAX_ANSWERS),
          }
        : { part: asked, status: "not-said", uses: [], related: [] },
    );
  }
  return answers;
}

/** A yes/no part: the claim it asks about, judged against the sentences that carry its words. */
function settle(
  part: AskedPart,
  offered: readonly Read[],
  read: readonly Read[],
  scoreOf: (part: AskedPart, item: Read, strict?: boolean) => number,
  judge: Judge | undefined,
  floor: number,
): PartAnswer {
  const claim = claimOf(part.asked);
  const verdicts = judge
    ? offered
        .filter((item) => scoreOf(part, item) >= floor)
        .map(({ sentence }) => ({ sentence, verdict: judge.judge(claim, { text: sentence.text }).verdict }))
    : [];
  const against = verdicts.filter(({ verdict }) => verdict === "contradicts");
  const backing = verdicts.filter(({ verdict }) => verdict === "supports");
  const settled = (status: PartStatus, judged: typeof verdicts, related: readonly string[]): PartAnswer => ({
    part,
    status,
    uses: judged.map(({ sentence }) => ({ key: sentence.key, role: "answer" })),
    related: [...new Set(related)],
  });
  const sourcesOf = (judged: typeof verdicts) => judged.map(({ sentence }) => sentence.sourceId);
  if (against.length > 0 && backing.length === 0) return settled("contradicted", against, sourcesOf(against));
  if (backing.length > 0 && against.length === 0) return settled("supported", backing, sourcesOf(backing));
  const related = read
    .filter((item) => scoreOf(part, item, false) >= BEARS_FLOOR)
    .map((item) => item.sentence.sourceId);
  return settled(related.length > 0 ? "unsettled" : "not-said", [...backing, ...against], related);
}

/** "Is LFP cheaper than NMC?" as the claim it asks about: "LFP is cheaper than NMC". */
export function claimOf(asked: string): string {
  const text = asked.replace(/\?+$/u, "").trim();
  const match = /^(is|are|was|were|has|have|had|can|could|will|would|should|does|do|did)\s+(.+)$/iu.exec(text);
  if (!match) return text;
  const [, aux = "", rest = ""] = match;
  // The subject: a name, or a noun phrase up to the first word after it that is lower case and not a determiner.
  const name = namesIn(rest)[0];
  if (name && name.start === 0) {
    const after = rest.slice(name.text.length).trim();
    const verb = /^(?:does|do|did)$/iu.test(aux) ? "" : `${aux.toLowerCase()} `;
    return `${name.text} ${verb}${after}`.replace(/\s+/gu, " ");
  }
  return text;
}

/** How a verb is put in the past ("make" → "made") and the third person ("make" → "makes"): the language's. */
export interface Inflection {
  past(verb: string): string;
  thirdPerson(verb: string): string;
}

const WH_PHRASE =
  /^((?:(?:in|at|from|for|to|by|on|of|with|under)\s+)?(?:how(?:\s+[\w-]+){0,4}?|what(?:\s+[\w-]+){0,4}?|which(?:\s+[\w-]+){0,4}?|who|whom|whose\s+\w+|when|where|why))\s+(did|does|do|was|were|is|are|has|have|had|can|could|will|would|should|may|might)\s+(.+)$/iu;

const lowerFirst = (text: string): string => text.charAt(0).toLowerCase() + text.slice(1);

/**
 * A part as a clause that can follow "do not say" ("How many cells did Sony make in 1991?" →
 * "how many cells Sony made in 1991"): the auxiliary after the subject, or folded into the verb.
 * The subject is taken to end before the first verb `isVerb` recognises; where none is found the
 * question is quoted as asked.
 */
export function embeddedQuestion(
  asked: string,
  isVerb: (word: string) => boolean,
  inflection?: Inflection,
): string | undefined {
  const text = asked
    .replace(/\?+$/u, "")
    .replace(/\s*\([^)]*\)/gu, "")
    .trim();
  const match = WH_PHRASE.exec(text);
  // "Who led the laboratory…", "What limits fast charging…": the question is already a clause.
  if (!match) return /^(?:who|what|which)\s+\S+\s+\S+/iu.test(text) ? lowerFirst(text) : undefined;
  const [, wh = "", aux = "", rest = ""] = match;
  const lowerWh = lowerFirst(wh);
  const words = rest.split(/\s+/u);
  const auxWord = aux.toLowerCase();
  if (/^(?:was|were|is|are)$/u.test(auxWord)) {
    // "what was the specific energy of the first cell" → "what the specific energy of the first cell was"
    return `${lowerWh} ${rest} ${auxWord}`;
  }
  let verbAt = words.findIndex((word, index) => index > 0 && isVerb(word.toLowerCase()));
  // A subject that is a name ("did Nissan offer"): the verb is the word after it, whatever a tagger made of it.
  if (verbAt < 1)
    verbAt = words.findIndex(
      (word, index) => index > 0 && /^\p{Ll}/u.test(word) && /^\p{Lu}/u.test(words[index - 1] ?? ""),
    );
  if (verbAt < 1) return undefined;
  const subject = words.slice(0, verbAt).join(" ");
  const verb = words[verbAt] ?? "";
  const after = words.slice(verbAt + 1).join(" ");
  let said: string;
  if (auxWord === "did") {
    if (!inflection) return undefined;
    said = inflection.past(verb);
  } else if (auxWord === "does") {
    if (!inflection) return undefined;
    said = inflection.thirdPerson(verb);
  } else if (auxWord === "do") said = verb;
  else said = `${auxWord} ${verb}`;
  return `${lowerWh} ${subject} ${said}${after ? ` ${after}` : ""}`;
}

/** How a language words what a report says of a question: its verbs, and their forms. */
export interface Phrasing {
  /** The words of `text` that are verbs there (lower case). */
  verbsOf(text: string): ReadonlySet<string>;
  inflection?: Inflection;
}

/** What the report says of a part no finding answers, in reader words. */
export function unansweredStatement(part: { asked: string; status: PartStatus }, phrasing?: Phrasing): string {
  const verbs = phrasing?.verbsOf(part.asked) ?? new Set<string>();
  const clause = embeddedQuestion(part.asked, (word) => verbs.has(word), phrasing?.inflection);
  if (part.status === "not-said")
    return clause ? `The sources read do not say ${clause}.` : `The sources read do not answer this: “${part.asked}”`;
  if (part.status === "unsettled") return "No finding answers this, but sources read bear on it: read them in full.";
  return part.status === "supported" ? "The sources read support it." : "The sources read contradict it.";
}

/** A source as the answer reads it: its title and its passages. */
export interface AnswerSource {
  id: string;
  title: string;
  /** `section`: the headings its passage stands under (a stored chunk's `location`), as a packet's chunk writes it. */
  chunks: readonly { id: string; text: string; section?: string | undefined }[];
}

/** Every sentence of `sources` that is content (`isContent`: no heading, footer, question or fragment), as it may answer. */
export function sentencesRead(sources: readonly AnswerSource[]): AnswerSentence[] {
  return sources.flatMap((source) =>
    source.chunks.flatMap((chunk) =>
      splitSentences(chunk.text)
        .filter((sentence) => isContent(sentence.text, sentence.listItem, [source.title, chunk.section ?? ""]))
        .map((sentence, index) => ({
          key: `${chunk.id}#${index}`,
          text: sentence.text,
          sourceId: source.id,
          passage: chunk.id,
          about: chunk.section ? `${source.title} ${chunk.section}` : source.title,
          title: source.title,
        })),
    ),
  );
}

/** Words as a query writes them. */
const WORDS = /[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu;

/** Words of a part a bridge query adds: those its first sentence left unsaid, at most this many. */
const BRIDGE_QUERY_WORDS = 4;

/**
 * Searches that may reach the second sentence of a multi-hop part (pure): for each part the
 * sentences read do not answer, the bridges named by the sentences that carry most of it
 * ("LiCoO2" in "Sony's cell used a LiCoO2 cathode"), each with the part's words that sentence
 * leaves unsaid ("LiCoO2 led laboratory discovered"). Best first, distinct.
 */
export function bridgeQueries(question: string, read: readonly AnswerSentence[], limit = 3): string[] {
  const answered = answerQuestion(question, read, read);
  const asked = stemSet(question);
  // A name that writes one the question gives ("Herbert Weston Scott Howell III" for "Scott Howell"), or
  // two of its words ("Kerry-Anne Saxby-Junna", "Kerry Saxby AM" for "Kerry Saxby-Junna"), is its subject, no bridge.
  const names = namesIn(question);
  const given = names
    .filter((name) => !isNationality(name.text))
    .map((name) => new Set(normalizePhrase(name.text).split(" ")));
  const nameStems = stemSet(names.map((name) => name.text).join(" "));
  // The question's verbs, but the words of the names it gives.
  const verbs = new Set(
    (question.match(/\p{Ll}+/gu) ?? [])
      .filter(isVerbLike)
      .map(stem)
      .filter((term) => !nameStems.has(term)),
  );
  const isGiven = (name: string): boolean => {
    const words = new Set(normalizePhrase(name).split(" "));
    return given.some((phrase) => {
      const shared = [...phrase].filter((word) => words.has(word)).length;
      return shared === phrase.size || shared >= 2;
    });
  };
  const queries: string[] = [];
  for (const answer of answered) {
    if (answer.status === "answered" || answer.part.kind === "yes-no") continue;
    const terms = [...answer.part.terms, ...answer.part.context];
    const hops = read
      .map((sentence) => {
        const stems = stemSet(`${sentence.text} ${sentence.about ?? ""}`);
        const carried = terms.filter((term) => stems.has(term)).length;
        // For a who-question the bridge is not another person (that would be a rival answer; a name in
        // quotes is a work's title, not a person), nor a nationality. A bridge beside a figure that pins
        // the part comes first ("Maximum Overdrive" (1986) for "…shot in Leland in 1986"), then the
        // others in the order the sentence gives them ("Cartoon Network …, YTV …, BBC One").
        // Where the sentence says what the part asks: its figures, else its verbs ("produced by Trent
        // Reznor" for "…produced by a man born in what year?"), not a word of a name it gives ("Born").
        const pinsAt = answer.part.pins.flat().flatMap((pin) => {
          const at = sentence.text.indexOf(pin);
          return at >= 0 ? [at] : [];
        });
        const wordsAt = [...sentence.text.matchAll(/(?<![\p{L}\p{N}])\p{Ll}+/gu)].flatMap((word) =>
          verbs.has(stem(word[0].toLowerCase())) ? [word.index] : [],
        );
        const anchors = pinsAt.length > 0 ? pinsAt : wordsAt;
        const distance = (name: string): number => {
          const start = sentence.text.indexOf(name);
          const end = start + name.length;
          return Math.min(
            Number.MAX_SAFE_INTEGER,
            ...anchors.map((at) => (at >= end ? at - end : Math.abs(start - at))),
          );
        };
        const bridges = bridgesOf(sentence.text, asked)
          .filter(
            (name) =>
              !(answer.part.kind === "person" && writesPerson(sentence.text, name)) &&
              !isNationality(name) &&
              !isGiven(name),
          )
          .sort((a, b) => distance(a) - distance(b) || sentence.text.indexOf(a) - sentence.text.indexOf(b));
        return { sentence, stems, carried, bridges };
      })
      .filter(({ carried, bridges }) => carried * 2 >= Math.min(terms.length, 6) && bridges.length > 0)
      .sort((a, b) => b.carried - a.carried)
      .slice(0, limit);
    for (const hop of hops) {
      // The part's words as written ("Nobel", not "nobel"), those the first sentence leaves unsaid,
      // nearest the asking word first: they say what the answer is to the bridge ("…an actress who
      // starred in what for seven years": "seven years actress", not "featuring").
      // A part that says nothing of its own ("Which one?" after "…later moved to another university")
      // asks in the words of the sentence before it.
      const own = answer.part.asked.match(WORDS) ?? [];
      const partTerms = new Set(answer.part.terms);
      const isPartWord = (word: string): boolean => partTerms.has(stem(word.toLowerCase()));
      const words = own.some(isPartWord) ? own : (question.match(WORDS) ?? []).filter(isPartWord);
      const at = words.findLastIndex(isWhWord);
      const unsaid = words
        .map((word, index) => ({ word, distance: at === -1 ? index : Math.abs(index - at) }))
        .filter(
          ({ word }) => contentWords(word).length > 0 && !isWhWord(word) && !hop.stems.has(stem(word.toLowerCase())),
        )
        .sort((a, b) => a.distance - b.distance)
        .slice(0, BRIDGE_QUERY_WORDS)
        .map(({ word }) => word);
      for (const bridge of hop.bridges.slice(0, 2)) queries.push([bridge, ...unsaid].join(" "));
    }
  }
  return [...new Set(queries)].slice(0, limit);
}
