/**
 * Independence by origin, not by file (DESIGN "Identities and truth"; pure). Two sources are
 * one origin when one copies or syndicates the other (their texts are near-duplicates by
 * word shingles, estimated with a bottom-k MinHash sketch), when they share a registrable
 * domain, or, for one statement, when both attribute it to the same origin ("…, according to
 * Reuters") or one attributes it to the other ("as the Gazette reported", where the other is
 * the Gazette).
 */

/** A source as origins are judged: where it is and what it says. */
export interface OriginSource {
  id: string;
  /** Registrable domain of a web source; '' for a local document. */
  domain: string;
  location: string;
  title: string;
  text: string;
}

/** Words per shingle. */
const SHINGLE = 5;
/** Hashes kept per sketch (the k of bottom-k MinHash). */
const SKETCH = 256;
/** Estimated resemblance (Jaccard of shingles) from which two texts are copies of one another. */
const RESEMBLANCE = 0.5;
/** Estimated share of the shorter text's shingles found in the longer one from which it was copied into it. */
const CONTAINMENT = 0.6;
/** Texts shorter than this many shingles are not compared (a heading is not a copy). */
const MIN_SHINGLES = 8;

/** 32-bit FNV-1a of a string. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/** The bottom-k sketch of a text's word shingles, and how many distinct shingles it has. */
export interface Sketch {
  hashes: readonly number[];
  size: number;
}

export function sketchOf(text: string): Sketch {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const hashes = new Set<number>();
  for (let i = 0; i + SHINGLE <= words.length; i++) hashes.add(fnv1a(words.slice(i, i + SHINGLE).join(" ")));
  const sorted = [...hashes].sort((a, b) => a - b);
  return { hashes: sorted.slice(0, SKETCH), size: sorted.length };
}

/**
 * Estimated resemblance and containment of two texts from their sketches: the share of the
 * union's k smallest hashes found in both, and that share scaled to the smaller text.
 */
export function overlapOf(a: Sketch, b: Sketch): { resemblance: number; containment: number } {
  if (a.size < MIN_SHINGLES || b.size < MIN_SHINGLES) return { resemblance: 0, containment: 0 };
  const setA = new Set(a.hashes);
  const setB = new Set(b.hashes);
  const union = [...new Set([...a.hashes, ...b.hashes])].sort((x, y) => x - y).slice(0, SKETCH);
  let both = 0;
  for (const hash of union) if (setA.has(hash) && setB.has(hash)) both++;
  const resemblance = union.length === 0 ? 0 : both / union.length;
  // |A∩B| ≈ J·|A∪B| and |A∪B| = (|A|+|B|)/(1+J).
  const intersection = (resemblance * (a.size + b.size)) / (1 + resemblance);
  return { resemblance, containment: Math.min(1, intersection / Math.min(a.size, b.size)) };
}

/** Whether two texts are copies of one another (syndication, a mirror, a rewrite that keeps the wording). */
export function copies(a: Sketch, b: Sketch): boolean {
  const { resemblance, containment } = overlapOf(a, b);
  return resemblance >= RESEMBLANCE || containment >= CONTAINMENT;
}

/** The words of a source's name an attribution may use: its domain's label, its title's words. */
function namesOf(source: OriginSource): Set<string> {
  const names = new Set<string>();
  const label = source.domain.split(".")[0];
  if (label) names.add(label.toLowerCase());
  for (const word of source.title.toLowerCase().match(/\p{L}{3,}/gu) ?? []) names.add(word);
  return names;
}

/**
 * The origin of each source, by id: sources that copy one another or share a registrable
 * domain have one origin (the earliest's key); a local document is otherwise its own
 * (`corpus:<path>`), a web page its domain.
 */
export function originsOf(sources: readonly OriginSource[]): Map<string, string> {
  const keyOf = (source: OriginSource): string => source.domain || `corpus:${source.location}`;
  const parent = sources.map((_, index) => index);
  const find = (index: number): number => {
    let at = index;
    while (parent[at] !== at) at = parent[at] ?? at;
    return at;
  };
  const join = (a: number, b: number): void => {
    const [rootA, rootB] = [find(a), find(b)];
    if (rootA !== rootB) parent[Math.max(rootA, rootB)] = Math.min(rootA, rootB);
  };
  const sketches = sources.map((source) => sketchOf(source.text));
  for (let i = 0; i < sources.length; i++) {
    for (let j = i + 1; j < sources.length; j++) {
      const [a, b] = [sources[i], sources[j]];
      const [sa, sb] = [sketches[i], sketches[j]];
      if (!a || !b || !sa || !sb) continue;
      if ((a.domain !== "" && a.domain === b.domain) || copies(sa, sb)) join(i, j);
    }
  }
  return new Map(sources.map((source, index) => [source.id, keyOf(sources[find(index)] ?? source)]));
}

/**
 * The origin of one statement in one source: the origin it is attributed to when the
 * statement names one ("reuters"), resolved to a source of `sources` that the name names
 * (its domain's label or a word of its title) when there is one, else the source's own.
 */
export function statementOrigin(
  sourceId: string,
  attribution: string | undefined,
  sources: readonly OriginSource[],
  origins: ReadonlyMap<string, string>,
): string {
  const own = origins.get(sourceId) ?? sourceId;
  if (!attribution) return own;
  const words = attribution.split(/\s+/).filter((word) => word.length >= 3);
  const named = sources.find(
    (source) => source.id !== sourceId && words.length > 0 && words.every((word) => namesOf(source).has(word)),
  );
  return named ? (origins.get(named.id) ?? named.id) : `attributed:${attribution}`;
}
