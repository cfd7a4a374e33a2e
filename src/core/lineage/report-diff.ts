/**
 * The structural difference between two ReportDocuments (two versions of one report, or a
 * follow-up and its parent): which findings, recommendations, citations, gaps and sources were
 * added, removed or changed, item by item. Items are matched by their wording; an item reworded
 * (half its key words kept) that cites exactly the same passages is one changed item, not a
 * removal and an addition. Sources are compared by what they are (URL or path), not by number. Pure.
 */
import type { Citation, Finding, Recommendation, ReportDocument, SourceEntry } from "../report/report-document.js";
import { keyTerms, normalizeWording } from "../text.js";

/** A finding or recommendation as the diff names it: its number in its report (recommendations: its position) and text. */
export interface DiffItem {
  number: number;
  text: string;
  /** The passages it cites, as "title, passage N" keys, sorted. */
  citations: string[];
  verification: string;
}

export interface ChangedItem {
  from: DiffItem;
  to: DiffItem;
  /** What changed: `wording`, `citations`, `verification`. */
  changes: ("wording" | "citations" | "verification")[];
  /** Citations the newer item adds and drops. */
  citationsAdded: string[];
  citationsRemoved: string[];
}

export interface ItemDiff {
  added: DiffItem[];
  removed: DiffItem[];
  changed: ChangedItem[];
  /** Items present in both, unchanged. */
  unchanged: { from: number; to: number }[];
}

export interface SourceRef {
  number: number;
  title: string;
  /** URL or corpus path. */
  location: string;
}

export interface ReportDiff {
  findings: ItemDiff;
  recommendations: ItemDiff;
  gaps: { added: string[]; removed: string[] };
  /** Sources cited by the newer report and not the older, and the other way round. */
  sources: { added: SourceRef[]; removed: SourceRef[] };
}

const sourceKey = (entry: SourceEntry): string => entry.url ?? entry.path ?? entry.id;

function citationKeys(citations: readonly Citation[], sources: ReadonlyMap<string, SourceEntry>): string[] {
  const keys = citations.flatMap((citation) => {
    const entry = sources.get(citation.sourceId);
    const name = entry ? sourceKey(entry) : citation.sourceId;
    return citation.passages.map((passage) => `${name}, passage ${passage}`);
  });
  return [...new Set(keys)].sort();
}

function itemsOf(doc: ReportDocument, list: "findings" | "recommendations"): DiffItem[] {
  const sources = new Map([...doc.sources, ...doc.reviewedSources].map((entry) => [entry.id, entry]));
  const items: (Finding | Recommendation)[] =
    list === "findings" ? [...doc.directFindings, ...doc.findings] : doc.recommendations;
  return items.map((item, index) => ({
    number: "number" in item ? item.number : index + 1,
    text: item.text,
    citations: citationKeys(item.citations, sources),
    verification: item.verification.status,
  }));
}

/**
 * Two wordings of one statement: at least half of their key words shared. Two different
 * sentences of one passage are two findings, not one changed.
 */
function similarWording(a: string, b: string): boolean {
  const left = new Set(keyTerms(a));
  const right = new Set(keyTerms(b));
  const shared = [...left].filter((word) => right.has(word)).length;
  const all = new Set([...left, ...right]).size;
  return all > 0 && shared / all >= 0.5;
}

const sameList = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((value, index) => value === b[index]);

function diffItems(from: readonly DiffItem[], to: readonly DiffItem[]): ItemDiff {
  const result: ItemDiff = { added: [], removed: [], changed: [], unchanged: [] };
  const unmatched = new Set(from);
  const pair = (older: DiffItem, newer: DiffItem): void => {
    unmatched.delete(older);
    const changes: ChangedItem["changes"] = [];
    if (older.text !== newer.text) changes.push("wording");
    if (!sameList(older.citations, newer.citations)) changes.push("citations");
    if (older.verification !== newer.verification) changes.push("verification");
    if (changes.length === 0) result.unchanged.push({ from: older.number, to: newer.number });
    else
      result.changed.push({
        from: older,
        to: newer,
        changes,
        citationsAdded: newer.citations.filter((key) => !older.citations.includes(key)),
        citationsRemoved: older.citations.filter((key) => !newer.citations.includes(key)),
      });
  };
  const rest: DiffItem[] = [];
  // First by wording, then (for what is left) by exactly the same passages.
  for (const item of to) {
    const match = [...unmatched].find((older) => normalizeWording(older.text) === normalizeWording(item.text));
    if (match) pair(match, item);
    else rest.push(item);
  }
  for (const item of rest) {
    const match = [...unmatched].find(
      (older) => sameList(older.citations, item.citations) && similarWording(older.text, item.text),
    );
    if (match) pair(match, item);
    else result.added.push(item);
  }
  result.removed = [...unmatched];
  return result;
}

function citedSources(doc: ReportDocument): Map<string, SourceRef> {
  return new Map(
    doc.sources.map((entry) => [
      sourceKey(entry),
      { number: entry.number, title: entry.title, location: entry.url ?? entry.path ?? "" },
    ]),
  );
}

/** What changed from `from` to `to`. */
export function diffReports(from: ReportDocument, to: ReportDocument): ReportDiff {
  const gapKey = (text: string): string => normalizeWording(text);
  const fromGaps = new Set(from.gaps.map((gap) => gapKey(gap.text)));
  const toGaps = new Set(to.gaps.map((gap) => gapKey(gap.text)));
  const fromSources = citedSources(from);
  const toSources = citedSources(to);
  return {
    findings: diffItems(itemsOf(from, "findings"), itemsOf(to, "findings")),
    recommendations: diffItems(itemsOf(from, "recommendations"), itemsOf(to, "recommendations")),
    gaps: {
      added: to.gaps.filter((gap) => !fromGaps.has(gapKey(gap.text))).map((gap) => gap.text),
      removed: from.gaps.filter((gap) => !toGaps.has(gapKey(gap.text))).map((gap) => gap.text),
    },
    sources: {
      added: [...toSources].filter(([key]) => !fromSources.has(key)).map(([, ref]) => ref),
      removed: [...fromSources].filter(([key]) => !toSources.has(key)).map(([, ref]) => ref),
    },
  };
}

/** True when nothing the diff compares changed. */
export function isEmptyDiff(diff: ReportDiff): boolean {
  const quiet = (items: ItemDiff): boolean =>
    items.added.length === 0 && items.removed.length === 0 && items.changed.length === 0;
  return (
    quiet(diff.findings) &&
    quiet(diff.recommendations) &&
    diff.gaps.added.length + diff.gaps.removed.length + diff.sources.added.length + diff.sources.removed.length === 0
  );
}
