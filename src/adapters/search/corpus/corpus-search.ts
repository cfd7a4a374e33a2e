/**
 * Search over a local corpus: full-text (FTS5, bm25) or a pattern with a linear-time
 * regular-expression engine (re2js), so no pattern can hang the process.
 */
import { RE2JS } from "re2js";
import { UserError } from "../../../core/errors.js";
import { err, ok, type Result } from "../../../core/result.js";
import { readerLine } from "../../../core/text.js";
import type { SearchHit, SearchOptions, SearchProvider, SearchQuery } from "../../../ports/search-provider.js";
import type { CorpusIndex } from "../../corpus/corpus-index.js";
import { normalizeCorpusPath } from "../../corpus/corpus-paths.js";

export const MAX_PATTERN_CHARS = 500;
/** Matches counted per document before moving on. */
const MAX_MATCHES_PER_DOCUMENT = 1_000;
/** Largest counted repetition ({n} or {n,m}); larger ones make the matcher's state set huge. */
export const MAX_REPEAT_COUNT = 100;
/** Characters of one document a pattern search scans (the rest of the document is not searched). */
export const MAX_PATTERN_SCAN_CHARS = 2_000_000;

/** Compiles a user- or model-supplied pattern, or says what is wrong with it. Never throws. */
export function compilePattern(pattern: string): Result<RE2JS> {
  if (pattern.length === 0) return err("the pattern is empty");
  if (pattern.length > MAX_PATTERN_CHARS) return err(`the pattern is longer than ${MAX_PATTERN_CHARS} characters`);
  for (const match of pattern.matchAll(/(?<!\\)\{(\d+)(?:,(\d*))?\}/g)) {
    const counts = [match[1], match[2]].filter((count): count is string => count !== undefined && count !== "");
    if (counts.some((count) => Number(count) > MAX_REPEAT_COUNT)) {
      return err(`the pattern repeats something ${match[0]} times; counts above ${MAX_REPEAT_COUNT} are not supported`);
    }
  }
  try {
    return ok(RE2JS.compile(pattern, RE2JS.CASE_INSENSITIVE | RE2JS.MULTILINE));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return err(
      `the pattern is not a valid regular expression (${reason}); backreferences and lookaround are not supported`,
    );
  }
}

export class CorpusSearch implements SearchProvider {
  readonly name = "corpus";
  readonly #index: CorpusIndex;

  constructor(index: CorpusIndex) {
    this.#index = index;
  }

  checkQuery(query: SearchQuery): string | undefined {
    if (query.kind === "text") return query.text.trim() === "" ? "the query is empty" : undefined;
    const compiled = compilePattern(query.pattern);
    if (!compiled.ok) return compiled.error;
    if (query.pathPrefix !== undefined && query.pathPrefix !== "") {
      const normalized = normalizeCorpusPath(query.pathPrefix);
      if (!normalized.ok) return `invalid path prefix: ${normalized.error}`;
    }
    return undefined;
  }

  async search(query: SearchQuery, options: SearchOptions): Promise<SearchHit[]> {
    options.signal?.throwIfAborted();
    if (query.kind === "text") {
      return this.#index.search(query.text, options.limit).map((hit, index) => ({
        anchor: hit.path,
        title: hit.title,
        snippet: readerLine(hit.snippet, 300),
        rank: index + 1,
        score: hit.score,
      }));
    }
    return this.#patternSearch(query.pattern, query.pathPrefix ?? "", options);
  }

  async #patternSearch(pattern: string, pathPrefix: string, options: SearchOptions): Promise<SearchHit[]> {
    const compiled = compilePattern(pattern);
    if (!compiled.ok) throw new UserError(compiled.error);
    let prefix = "";
    if (pathPrefix !== "") {
      const normalized = normalizeCorpusPath(pathPrefix);
      if (!normalized.ok) throw new UserError(`invalid path prefix: ${normalized.error}`);
      prefix = normalized.value;
    }
    const found: { hit: Omit<SearchHit, "rank">; count: number }[] = [];
    for (const document of this.#index.documents(prefix)) {
      // Between documents, let timers and the abort signal (deadline, Ctrl-C) through.
      await new Promise((resolve) => setImmediate(resolve));
      options.signal?.throwIfAborted();
      const body =
        document.body.length > MAX_PATTERN_SCAN_CHARS ? document.body.slice(0, MAX_PATTERN_SCAN_CHARS) : document.body;
      const matcher = compiled.value.matcher(body);
      let count = 0;
      let first = -1;
      while (count < MAX_MATCHES_PER_DOCUMENT && matcher.find()) {
        if (first < 0) first = matcher.start();
        count++;
        if (matcher.end() === matcher.start() && matcher.end() >= document.body.length) break;
      }
      if (count === 0) continue;
      const from = Math.max(0, first - 80);
      const snippet = `${from > 0 ? "…" : ""}${document.body.slice(from, first + 160)}…`;
      found.push({
        hit: { anchor: document.path, title: document.title, snippet: readerLine(snippet, 300), score: count },
        count,
      });
    }
    found.sort((a, b) => b.count - a.count || a.hit.anchor.localeCompare(b.hit.anchor));
    return found.slice(0, options.limit).map((entry, index) => ({ ...entry.hit, rank: index + 1 }));
  }
}
