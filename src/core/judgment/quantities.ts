/**
 * The quantities a text states, normalized so that two texts can be compared (pure): numbers
 * with their units (a length in miles and one in kilometres, through the `convert` library's
 * conversions), money with its currency, percentages, counts of a thing, and dates and years
 * as spans of days. "2,150" is 2150; "10^9" is a thousand million; "2.6 miles" is 4.18 km.
 * Each quantity carries the interval its writing allows: the half unit of its last digit
 * ("4.2" is 4.15–4.25), a round figure's rounding ("14,000": 2.5% either way), "about" (5%),
 * "more than" (a lower bound), a range ("10–15 km"), a year (its 365 days).
 *
 * Numbers that name rather than measure are not quantities: digits inside a word (`LiCoO2`,
 * `H200`) and a number right after a capitalised word ("Boeing 747", "Apollo 11").
 */
import { convert, getMeasureKind, MeasureKind } from "convert";
import { contentWords, escapeRegExp } from "../text.js";

export type QuantityKind = "time" | "duration" | "measure" | "money" | "percent" | "count" | "ordinal";

export interface Quantity {
  kind: QuantityKind;
  /** What it measures: a measure kind (`length`), a currency (`USD`), the thing counted (`worker`), or `` when unsaid. */
  unit: string;
  /** The value in the kind's base unit (metres, kilograms, days since year 0 for a time). */
  value: number;
  /** The interval the writing allows, in the same unit. */
  low: number;
  high: number;
  /** Written as a bound ("more than", "at least": `min`; "less than", "up to": `max`). */
  bound?: "min" | "max";
  /** Written as approximate ("about", "around", "nearly", "some", "roughly"). */
  approximate: boolean;
  /** A round figure ("14,000", "3 million"): it may stand for a more precise one within `ROUNDING`. */
  rounded?: boolean;
  /** A negation governs it ("not in 1887"): the text denies this value. */
  denied?: boolean;
  /** It names which thing the text is about ("the 1997–98 season", "its 2020 survey"), not a value of it. */
  identifies?: boolean;
  /** Where it stands in the text. */
  start: number;
  end: number;
  text: string;
}

/** How a passage's quantity stands to a claim's of the same kind and unit. */
export type QuantityFit = "entails" | "compatible" | "conflicts" | "incomparable";

const MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];
const MONTH_ABBREVIATIONS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

/** Day numbers: a monotone encoding of dates, enough for comparing intervals (31 days a month). */
const day = (year: number, month = 1, date = 1): number => year * 372 + (month - 1) * 31 + (date - 1);
const yearSpan = (from: number, to = from): [number, number] => [day(from), day(to, 12, 31)];

const WORD_NUMBERS: Record<string, number> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
  hundred: 100,
  dozen: 12,
};

const SCALES: Record<string, number> = {
  thousand: 1e3,
  k: 1e3,
  million: 1e6,
  mn: 1e6,
  m: 1e6,
  billion: 1e9,
  bn: 1e9,
  b: 1e9,
  trillion: 1e12,
  tn: 1e12,
};

/** Units as written → the `convert` unit they are. Longest first when matched. */
const UNITS: Record<string, string> = {
  km: "km",
  kilometre: "km",
  kilometres: "km",
  kilometer: "km",
  kilometers: "km",
  mi: "mi",
  mile: "mi",
  miles: "mi",
  m: "m",
  metre: "m",
  metres: "m",
  meter: "m",
  meters: "m",
  cm: "cm",
  centimetre: "cm",
  centimetres: "cm",
  centimeter: "cm",
  centimeters: "cm",
  mm: "mm",
  millimetre: "mm",
  millimetres: "mm",
  millimeter: "mm",
  millimeters: "mm",
  ft: "ft",
  foot: "ft",
  feet: "ft",
  inch: "in",
  inches: "in",
  yard: "yd",
  yards: "yd",
  "nautical miles": "nmi",
  kg: "kg",
  kilogram: "kg",
  kilograms: "kg",
  kilo: "kg",
  kilos: "kg",
  g: "g",
  gram: "g",
  grams: "g",
  mg: "mg",
  milligram: "mg",
  milligrams: "mg",
  lb: "lb",
  lbs: "lb",
  pound: "lb",
  pounds: "lb",
  oz: "oz",
  ounce: "oz",
  ounces: "oz",
  t: "t",
  tonne: "t",
  tonnes: "t",
  ton: "t",
  tons: "t",
  "metric tons": "t",
  l: "l",
  litre: "l",
  litres: "l",
  liter: "l",
  liters: "l",
  ml: "ml",
  millilitre: "ml",
  millilitres: "ml",
  gallon: "gal",
  gallons: "gal",
  ha: "ha",
  hectare: "ha",
  hectares: "ha",
  acre: "ac",
  acres: "ac",
  "km²": "km2",
  "km^2": "km2",
  km2: "km2",
  "sq km": "km2",
  "square kilometres": "km2",
  "square kilometers": "km2",
  "square kilometre": "km2",
  "square kilometer": "km2",
  "sq mi": "mi2",
  "square miles": "mi2",
  "square mile": "mi2",
  "m²": "m2",
  "m^2": "m2",
  m2: "m2",
  "m³": "m3",
  "m^3": "m3",
  "cubic metres": "m3",
  "cubic meters": "m3",
  "cubic centimetres": "cm3",
  "cubic centimeters": "cm3",
  "square metres": "m2",
  "square meters": "m2",
  "°c": "C",
  "degrees celsius": "C",
  celsius: "C",
  "°f": "F",
  "degrees fahrenheit": "F",
  fahrenheit: "F",
  wh: "Wh",
  kwh: "kWh",
  mwh: "MWh",
  gwh: "GWh",
  twh: "TWh",
  "kilowatt-hours": "kWh",
  "kilowatt-hour": "kWh",
  "kilowatt hours": "kWh",
  "megawatt-hours": "MWh",
  "gigawatt-hours": "GWh",
  "terawatt-hours": "TWh",
  w: "W",
  watt: "W",
  watts: "W",
  kw: "kW",
  kilowatt: "kW",
  kilowatts: "kW",
  mw: "MW",
  megawatt: "MW",
  megawatts: "MW",
  gw: "GW",
  gigawatt: "GW",
  gigawatts: "GW",
  hp: "hp",
  horsepower: "hp",
  second: "s",
  seconds: "s",
  minute: "min",
  minutes: "min",
  hour: "h",
  hours: "h",
  day: "d",
  days: "d",
  week: "week",
  weeks: "week",
  month: "month",
  months: "month",
  year: "year",
  years: "year",
  decade: "decade",
  decades: "decade",
  gb: "GB",
  mb: "MB",
  tb: "TB",
  kb: "kB",
  gigabytes: "GB",
  megabytes: "MB",
  terabytes: "TB",
  kpa: "kPa",
  pa: "Pa",
  bar: "bar",
  psi: "psi",
  hz: "Hz",
  mhz: "MHz",
  ghz: "GHz",
};

/** Units `convert` does not know, as measure kind and factor to its base unit. */
const OWN_UNITS: Record<string, { unit: string; factor: number }> = {
  "km/h": { unit: "speed", factor: 1 / 3.6 },
  kph: { unit: "speed", factor: 1 / 3.6 },
  "kilometres per hour": { unit: "speed", factor: 1 / 3.6 },
  "kilometers per hour": { unit: "speed", factor: 1 / 3.6 },
  mph: { unit: "speed", factor: 0.44704 },
  "miles per hour": { unit: "speed", factor: 0.44704 },
  "m/s": { unit: "speed", factor: 1 },
  knots: { unit: "speed", factor: 0.514444 },
  mah: { unit: "charge", factor: 1 },
  "wh/kg": { unit: "specific energy", factor: 1 },
  "watt-hours per kilogram": { unit: "specific energy", factor: 1 },
  "watt-hours per kg": { unit: "specific energy", factor: 1 },
  "wh per kg": { unit: "specific energy", factor: 1 },
  "kwh/kg": { unit: "specific energy", factor: 1000 },
  "wh/l": { unit: "energy density", factor: 1 },
  "watt-hours per litre": { unit: "energy density", factor: 1 },
  "watt-hours per liter": { unit: "energy density", factor: 1 },
  kcal: { unit: "food energy", factor: 1 },
  calories: { unit: "food energy", factor: 1 },
};

const BASE_UNITS: Partial<Record<MeasureKind, string>> = {
  [MeasureKind.Length]: "m",
  [MeasureKind.Mass]: "kg",
  [MeasureKind.Volume]: "l",
  [MeasureKind.Area]: "m2",
  [MeasureKind.Energy]: "J",
  [MeasureKind.Power]: "W",
  [MeasureKind.Time]: "s",
  [MeasureKind.Data]: "B",
  [MeasureKind.Pressure]: "Pa",
  [MeasureKind.Temperature]: "C",
  [MeasureKind.Frequency]: "Hz",
};

const CURRENCY_SIGNS: Record<string, string> = {
  $: "USD",
  us$: "USD",
  usd: "USD",
  "€": "EUR",
  eur: "EUR",
  "£": "GBP",
  gbp: "GBP",
  "¥": "JPY",
  jpy: "JPY",
};
const CURRENCY_WORDS: Record<string, string> = {
  dollars: "USD",
  dollar: "USD",
  "us dollars": "USD",
  "u.s. dollars": "USD",
  euros: "EUR",
  euro: "EUR",
  "pounds sterling": "GBP",
  yen: "JPY",
};

const APPROXIMATE =
  /\b(?:about|around|approximately|roughly|nearly|almost|some|circa|ca\.|c\.|an estimated|estimated|close to|just under|just over|~)\s*$/iu;
const MIN_BOUND =
  /\b(?:more than|over|at least|above|exceeding|in excess of|upwards of|no fewer than|no less than|greater than)\s*$/iu;
const MAX_BOUND =
  /\b(?:less than|fewer than|under|below|at most|up to|no more than|not more than|as few as|as little as)\s*$/iu;

const UNIT_WORDS = [...Object.keys(UNITS), ...Object.keys(OWN_UNITS), ...Object.keys(CURRENCY_WORDS)].sort(
  (a, b) => b.length - a.length,
);
const UNIT_AFTER = new RegExp(`^[\\s-]?(${UNIT_WORDS.map(escapeRegExp).join("|")})(?![\\p{L}\\p{Nd}])`, "iu");
const SCALE_AFTER = /^[\s-]?(thousand|million|billion|trillion|mn|bn|tn|k|m|b)(?![\p{L}\p{Nd}])/iu;
const PERCENT_AFTER = /^\s?(%|per ?cent|percent)(?![\p{L}])/iu;
const POINTS_AFTER = /^\s?(percentage points?|points?)(?![\p{L}])/iu;
const EXPONENT_AFTER = /^(?:\^|\*\*)(-?\p{Nd}+)|^\s?[×x]\s?10\^(-?\p{Nd}+)/u;
const CURRENCY_BEFORE = /(US\$|\$|€|£|¥|USD|EUR|GBP|JPY)\s?$/u;
/** The number tokens: grouped thousands, decimals, plain digits (not inside a word). */
const NUMBER =
  /(?<![\p{L}\p{Nd}.,^])(\p{Nd}{1,3}(?:[,\u202F\u00A0]\p{Nd}{3})+(?:\.\p{Nd}+)?|\p{Nd}+(?:\.\p{Nd}+)?)(?![\p{L}\p{Nd}]|[.,]\p{Nd})/gu;
const WORD_NUMBER = new RegExp(`\\b(${Object.keys(WORD_NUMBERS).join("|")})\\b`, "giu");
const MONTH = `(${[...MONTHS, ...MONTH_ABBREVIATIONS].join("|")})\\.?`;
const DATE_MONTH_FIRST = new RegExp(`\\b${MONTH}\\s+(\\p{Nd}{1,2})(?:st|nd|rd|th)?,?\\s+(\\p{Nd}{4})\\b`, "giu");
const DATE_DAY_FIRST = new RegExp(`\\b(\\p{Nd}{1,2})(?:st|nd|rd|th)?\\s+${MONTH}\\s+(\\p{Nd}{4})\\b`, "giu");
const MONTH_YEAR = new RegExp(`\\b${MONTH}\\s+(?:of\\s+)?(\\p{Nd}{4})\\b`, "giu");
const ISO_DATE = /\b(\p{Nd}{4})-(\p{Nd}{2})-(\p{Nd}{2})\b/gu;
const DECADE = /\b(?:the\s+)?(early|mid|late)?[\s-]?(1\p{Nd}{2}0|20\p{Nd}0)s\b/giu;
const CENTURY = /\b(\p{Nd}{1,2})(?:st|nd|rd|th)[\s-]century\b/giu;
const ORDINAL = /(?<![\p{L}\p{Nd}.,])(\p{Nd}{1,4})(?:st|nd|rd|th)\b/gu;
const YEAR_RANGE = /\b(1\p{Nd}{3}|20\p{Nd}{2})\s?[–-]\s?(1\p{Nd}{3}|20\p{Nd}{2}|\p{Nd}{2})\b/gu;

const monthNumber = (name: string): number => {
  const key = name.toLowerCase().replace(/\.$/, "");
  const full = MONTHS.indexOf(key);
  return (full >= 0 ? full : MONTH_ABBREVIATIONS.indexOf(key.slice(0, 3))) + 1;
};

/** The value of a written number: grouped thousands ("2,150"), decimals; NaN otherwise. */
export function writtenValue(token: string): number {
  const plain = token.replace(/[,\u202F\u00A0]/g, "");
  return /^\p{Nd}+(?:\.\p{Nd}+)?$/u.test(plain) ? Number(plain) : Number.NaN;
}

/** Half the interval a written number allows: half a unit of its last decimal; an integer is exact. */
function precisionOf(token: string): number {
  const decimals = /\.(\p{Nd}+)$/u.exec(token)?.[1]?.length ?? 0;
  return decimals > 0 ? 0.5 * 10 ** -decimals : 0;
}

/** Whether a written integer is a round figure (ending in two or more zeros: "14,000"), which may stand for a more precise one. */
const isRound = (token: string): boolean => /^\p{Nd}+?0{2,}$/u.test(token.replace(/[,\u202F\u00A0]/g, ""));

/** How far a round figure may be from the precise one it stands for: 2.5% (rounded to two or three digits). */
const ROUNDING = 0.025;

interface Taken {
  start: number;
  end: number;
}

const overlaps = (taken: readonly Taken[], start: number, end: number): boolean =>
  taken.some((span) => start < span.end && end > span.start);

/** A time written at `start`–`end` of `text`: the days from `low` to `high`. */
function timeQuantity(
  text: string,
  start: number,
  end: number,
  [low, high]: [number, number],
  approximate: boolean,
): Quantity {
  return {
    kind: "time",
    unit: "",
    value: (low + high) / 2,
    low,
    high,
    approximate,
    start,
    end,
    text: text.slice(start, end),
  };
}

/** Times written in `text`: dates, months, decades, centuries, year ranges and years. */
function timesIn(text: string, taken: Taken[]): Quantity[] {
  const found: Quantity[] = [];
  const add = (start: number, end: number, [low, high]: [number, number]): void => {
    if (overlaps(taken, start, end)) return;
    taken.push({ start, end });
    found.push(timeQuantity(text, start, end, [low, high], false));
  };
  for (const match of text.matchAll(DATE_MONTH_FIRST)) {
    const month = monthNumber(match[1] ?? "");
    const date = Number(match[2]);
    const year = Number(match[3]);
    add(match.index, match.index + match[0].length, [day(year, month, date), day(year, month, date)]);
  }
  for (const match of text.matchAll(DATE_DAY_FIRST)) {
    const month = monthNumber(match[2] ?? "");
    const date = Number(match[1]);
    const year = Number(match[3]);
    add(match.index, match.index + match[0].length, [day(year, month, date), day(year, month, date)]);
  }
  for (const match of text.matchAll(ISO_DATE)) {
    const [year, month, date] = [Number(match[1]), Number(match[2]), Number(match[3])];
    add(match.index, match.index + match[0].length, [day(year, month, date), day(year, month, date)]);
  }
  for (const match of text.matchAll(MONTH_YEAR)) {
    // "May 2020" — not the modal verb "may" before a year ("it may 2020" does not occur; "May" is capitalised).
    if (match[1]?.toLowerCase() === "may" && match[1] !== "May") continue;
    const month = monthNumber(match[1] ?? "");
    const year = Number(match[2]);
    add(match.index, match.index + match[0].length, [day(year, month, 1), day(year, month, 31)]);
  }
  for (const match of text.matchAll(CENTURY)) {
    const century = Number(match[1]);
    add(match.index, match.index + match[0].length, yearSpan((century - 1) * 100, (century - 1) * 100 + 99));
  }
  for (const match of text.matchAll(DECADE)) {
    const decade = Number(match[2]);
    const part = match[1]?.toLowerCase();
    const [from, to] =
      part === "early"
        ? [decade, decade + 4]
        : part === "late"
          ? [decade + 5, decade + 9]
          : part === "mid"
            ? [decade + 3, decade + 7]
            : [decade, decade + 9];
    add(match.index, match.index + match[0].length, yearSpan(from, to));
  }
  for (const match of text.matchAll(YEAR_RANGE)) {
    const from = Number(match[1]);
    const written = match[2] ?? "";
    const to = written.length === 2 ? Math.floor(from / 100) * 100 + Number(written) : Number(written);
    if (to < from || to - from > 200) continue;
    add(match.index, match.index + match[0].length, yearSpan(from, to));
  }
  return found;
}

/** Whether a plain four-digit number at `start` reads as a year: 1000–2199, not a count or a measure. */
function isYear(token: string, after: string, before: string): boolean {
  if (!/^(?:1\p{Nd}{3}|20\p{Nd}{2}|21\p{Nd}{2})$/u.test(token)) return false;
  if (UNIT_AFTER.test(after) || PERCENT_AFTER.test(after) || CURRENCY_BEFORE.test(before)) return false;
  // "1500 workers": a plural noun after it counts; "in 1500", "1500 saw" is a year.
  return !/^\s+\p{Ll}+s\b/u.test(after) || /\b(?:in|since|by|from|until|of|to|year|before|after)\s+$/iu.test(before);
}

/** The thing a count counts: the word after the number, singular, lower case ("7,000 workers" → worker). */
function countedNoun(after: string): string {
  const word = /^\s+(?:(?:new|more|additional|full-time|part-time|active|registered|other)\s+)?(\p{L}[\p{L}-]*)/u.exec(
    after,
  )?.[1];
  if (!word || /^(?:and|or|to|in|of|per|the|a|an|is|was|were|are|for|from|by|at|on|with|than)$/iu.test(word)) return "";
  const lower = word.toLowerCase();
  if (lower.endsWith("ies") && lower.length > 4) return `${lower.slice(0, -3)}y`;
  if (lower.endsWith("ses") || lower.endsWith("xes")) return lower.slice(0, -2);
  if (lower.endsWith("s") && !lower.endsWith("ss")) return lower.slice(0, -1);
  return lower;
}

/**
 * `record[key]` when `key` is one of its own entries: a word of a source ("constructor",
 * "toString") must not reach the object's prototype.
 */
export function entryOf<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** A measure quantity's kind and value in its base unit, or undefined when `convert` cannot read the unit. */
function measured(value: number, unit: string): { unit: string; value: number } | undefined {
  const own = entryOf(OWN_UNITS, unit.toLowerCase());
  if (own) return { unit: own.unit, value: value * own.factor };
  const id = entryOf(UNITS, unit.toLowerCase()) ?? entryOf(UNITS, unit);
  if (!id) return undefined;
  try {
    const kind = getMeasureKind(id as Parameters<typeof getMeasureKind>[0]);
    const base = kind === undefined ? undefined : BASE_UNITS[kind];
    if (kind === undefined || !base) return undefined;
    const converted = convert(value, id as never).to(base as never) as unknown as number;
    return { unit: MeasureKind[kind].toLowerCase(), value: converted };
  } catch {
    return undefined;
  }
}

/** Converts an interval's width with the same factor as its centre (linear units; temperatures shift). */
function scaled(value: number, half: number, unit: string): { unit: string; value: number; half: number } | undefined {
  const centre = measured(value, unit);
  if (!centre) return undefined;
  const upper = measured(value + half, unit);
  return { unit: centre.unit, value: centre.value, half: upper ? Math.abs(upper.value - centre.value) : 0 };
}

/**
 * The quantities of `text`, in order of where they stand. Pure; never throws.
 */
export function quantitiesIn(text: string): Quantity[] {
  const taken: Taken[] = [];
  const found = timesIn(text, taken);
  // Ordinals with digits: "the 15th season" (a rank of the thing named after it).
  for (const match of text.matchAll(ORDINAL)) {
    const start = match.index;
    const end = start + match[0].length;
    if (overlaps(taken, start, end)) continue;
    const value = Number(match[1]);
    taken.push({ start, end });
    found.push({
      kind: "ordinal",
      unit: countedNoun(text.slice(end, end + 60)),
      value,
      low: value,
      high: value,
      approximate: false,
      start,
      end,
      text: match[0],
    });
  }
  const numbers: { start: number; end: number; token: string; value: number; word: boolean }[] = [];
  for (const match of text.matchAll(NUMBER)) {
    numbers.push({
      start: match.index,
      end: match.index + match[0].length,
      token: match[0],
      value: writtenValue(match[0]),
      word: false,
    });
  }
  for (const match of text.matchAll(WORD_NUMBER)) {
    const value = entryOf(WORD_NUMBERS, (match[1] ?? "").toLowerCase());
    if (value === undefined) continue;
    numbers.push({ start: match.index, end: match.index + match[0].length, token: match[0], value, word: true });
  }
  numbers.sort((a, b) => a.start - b.start);
  for (const number of numbers) {
    if (!Number.isFinite(number.value) || overlaps(taken, number.start, number.end)) continue;
    const before = text.slice(Math.max(0, number.start - 40), number.start);
    let after = text.slice(number.end, number.end + 60);
    let end = number.end;
    // A number right after a capitalised word names something ("Boeing 747", "Apollo 11"); a month is a date.
    const wordBefore = /(\p{Lu}[\p{L}-]*)\s$/u.exec(before)?.[1];
    if (
      !number.word &&
      wordBefore !== undefined &&
      contentWords(wordBefore).length > 0 &&
      !MONTHS.includes(wordBefore.toLowerCase())
    ) {
      continue;
    }
    // A range "10–15 km": the first end takes the unit of the second.
    const range = /^\s?[–-]\s?(\p{Nd}+(?:\.\p{Nd}+)?)/u.exec(after);
    let value = number.value;
    let half = number.word ? 0 : precisionOf(number.token);
    let rounded = !number.word && isRound(number.token);
    if (range?.[1] && !number.word) {
      const other = Number(range[1]);
      if (other > value) {
        half = (other - value) / 2;
        value = (other + value) / 2;
        end += range[0].length;
        after = text.slice(end, end + 60);
      }
    }
    const exponent = EXPONENT_AFTER.exec(after);
    if (exponent && !number.word) {
      const power = Number(exponent[1] ?? exponent[2]);
      value = exponent[2] !== undefined ? value * 10 ** power : value ** power;
      half = 0;
      end += exponent[0].length;
      after = text.slice(end, end + 60);
    }
    const scale = SCALE_AFTER.exec(after);
    const currencyBefore = CURRENCY_BEFORE.exec(before);
    // "1.2 billion", "$5m", "€2 bn"; a bare "m" or "b" is a scale only after a currency ("5 m" is five metres).
    const scaleWord = scale?.[1]?.toLowerCase();
    const factor = scaleWord ? entryOf(SCALES, scaleWord) : undefined;
    if (scale && factor && (scaleWord?.length !== 1 || currencyBefore !== null)) {
      value *= factor;
      // A round figure in words ("3 million") is rounded like "3,000,000".
      half *= factor;
      // "3 million" is as round as "3,000,000"; "1.2 billion" has its decimal's precision.
      if (half === 0 && !number.word) rounded = true;
      end += scale[0].length;
      after = text.slice(end, end + 60);
    }
    const approximate = APPROXIMATE.test(before);
    const bound: Quantity["bound"] = MIN_BOUND.test(before) ? "min" : MAX_BOUND.test(before) ? "max" : undefined;
    const base = { approximate, ...(bound ? { bound } : {}), ...(rounded ? { rounded } : {}) };
    const spanStart = currencyBefore ? number.start - currencyBefore[0].length : number.start;
    const push = (kind: QuantityKind, unit: string, centre: number, width: number, spanEnd: number): void => {
      const widened = approximate ? Math.max(width, Math.abs(centre) * 0.05) : width;
      let low = centre - widened;
      let high = centre + widened;
      if (bound === "min") high = Number.POSITIVE_INFINITY;
      if (bound === "max") low = Number.NEGATIVE_INFINITY;
      taken.push({ start: spanStart, end: spanEnd });
      found.push({
        kind,
        unit,
        value: centre,
        low,
        high,
        ...base,
        start: spanStart,
        end: spanEnd,
        text: text.slice(spanStart, spanEnd),
      });
    };
    if (currencyBefore?.[1]) {
      push("money", entryOf(CURRENCY_SIGNS, currencyBefore[1].toLowerCase()) ?? currencyBefore[1], value, half, end);
      continue;
    }
    const percent = PERCENT_AFTER.exec(after);
    if (percent) {
      push("percent", "%", value, half, end + percent[0].length);
      continue;
    }
    const points = POINTS_AFTER.exec(after);
    if (points && /percentage/i.test(points[1] ?? "")) {
      push("percent", "points", value, half, end + points[0].length);
      continue;
    }
    // A table cell under a header that names the unit: "Output (TWh): 3.2".
    const headerUnit = /\(([^()]{1,24})\):\s*$/u.exec(before)?.[1];
    const unit = UNIT_AFTER.exec(after) ?? (headerUnit ? UNIT_AFTER.exec(` ${headerUnit}`) : null);
    if (headerUnit && /^(?:%|per ?cent|percent)$/iu.test(headerUnit)) {
      push("percent", "%", value, half, end);
      continue;
    }
    if (unit?.[1]) {
      const word = unit[1];
      const currency = entryOf(CURRENCY_WORDS, word.toLowerCase());
      const unitEnd = unit.input === after ? end + unit[0].length : end;
      if (currency) {
        push("money", currency, value, half, unitEnd);
        continue;
      }
      const converted = scaled(value, half, word);
      if (converted) {
        const kind: QuantityKind = converted.unit === "time" ? "duration" : "measure";
        push(kind, converted.unit, converted.value, converted.half, unitEnd);
        continue;
      }
    }
    if (!number.word && isYear(number.token, after, before) && factor === undefined) {
      const year = Number(number.token);
      const [low, high] = yearSpan(year);
      taken.push({ start: number.start, end });
      found.push(timeQuantity(text, number.start, end, [low, high], approximate));
      continue;
    }
    // A word number counts only what it names ("eight workers"), never stands alone ("one of the").
    const noun = countedNoun(after);
    if (number.word && noun === "") continue;
    push("count", noun, value, half, end);
  }
  return found.sort((a, b) => a.start - b.start);
}

/** Whether two quantities measure the same kind of thing in comparable units. */
export function comparable(a: Quantity, b: Quantity): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === "count") return a.unit === "" || b.unit === "" || a.unit === b.unit;
  if (a.kind === "ordinal") return a.unit === b.unit;
  return a.unit === b.unit;
}

/** The slack two measures are compared with: the rounding of a conversion (0.5%); none for other kinds. */
const slack = (a: Quantity, b: Quantity): number =>
  a.kind === "measure" || a.kind === "duration"
    ? 0.005 *
      Math.max(Math.abs(Number.isFinite(a.value) ? a.value : 0), Math.abs(Number.isFinite(b.value) ? b.value : 0))
    : 0;

/**
 * How `passage`'s quantity stands to `claim`'s: `entails` when what the passage writes
 * makes the claim's value true (its value lies in the claim's interval, and it is at least as
 * precise: a date entails its year, "150" entails "more than 100", "2.6 miles" entails
 * "4.2 km"); `compatible` when both can be true but the passage says less ("1904" for "4 July
 * 1904", "about 500" for "500"); `conflicts` when their intervals do not meet; `incomparable`
 * when they measure different things.
 */
export function fitOf(written: Quantity, stated: Quantity): QuantityFit {
  if (!comparable(written, stated)) return "incomparable";
  // A round figure stands for a more precise one nearby; two round figures are compared as written.
  const widen = (quantity: Quantity, other: Quantity): Quantity =>
    quantity.rounded && !other.rounded && Number.isFinite(quantity.value)
      ? {
          ...quantity,
          low: Math.min(quantity.low, quantity.value * (1 - ROUNDING)),
          high: Math.max(quantity.high, quantity.value * (1 + ROUNDING)),
        }
      : quantity;
  const passage = widen(written, stated);
  const claim = widen(stated, written);
  const tolerance = slack(passage, claim);
  const meets = passage.low <= claim.high + tolerance && passage.high >= claim.low - tolerance;
  if (!meets) return "conflicts";
  const inside = passage.value >= claim.low - tolerance && passage.value <= claim.high + tolerance;
  const passageWidth = passage.high - passage.low;
  const claimWidth = claim.high - claim.low;
  // A bound or an approximation in the passage says less than a point in the claim.
  if ((passage.bound && !claim.bound) || (passage.approximate && !claim.approximate && claimWidth < passageWidth))
    return "compatible";
  if (passage.kind === "time") {
    // A time entails the claim's when it lies within it: "4 July 1904" within 1904.
    return passage.low >= claim.low - tolerance && passage.high <= claim.high + tolerance ? "entails" : "compatible";
  }
  if (!inside) return "compatible";
  // The passage's value in the claim's interval, and no vaguer than the claim allows (conversions aside).
  return passageWidth <= claimWidth * 1.5 + tolerance * 2 || claim.bound ? "entails" : "compatible";
}
