/**
 * Discovery: a search returns hits, which are metadata, never evidence.
 */

import type { SearchQuery } from "../core/search-query.js";

export type { SearchQuery };

export interface SearchHit {
  /** What to fetch: a corpus-relative path or a URL. */
  anchor: string;
  title: string;
  snippet: string;
  /** 1-based rank within this search. */
  rank: number;
  score: number;
}

export interface SearchOptions {
  limit: number;
  signal?: AbortSignal;
}

export interface SearchProvider {
  /** Short name for diagnostics ("corpus", "searxng"). */
  readonly name: string;
  search(query: SearchQuery, options: SearchOptions): Promise<SearchHit[]>;
  /** Why this provider cannot run `query` (bad pattern, unsafe path, unsupported kind), or undefined. */
  checkQuery(query: SearchQuery): string | undefined;
}
