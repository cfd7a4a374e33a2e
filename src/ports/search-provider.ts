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
  /** What a scholarly provider lists about the work (discovery metadata, never evidence). */
  work?: WorkMetadata;
  /** A hit merged from several providers (`--search a,b`): each provider and its rank there. */
  foundBy?: { provider: string; rank: number }[];
  /**
   * Other anchors of the same work that other providers gave (an OpenAlex PDF of an arXiv
   * paper): tried when `anchor` cannot be read, and recorded as its provenance when it was.
   */
  alternates?: string[];
}

/**
 * A paper as arXiv, OpenAlex or PubMed list it. Identity comes first: the DOI when known,
 * else the arXiv id, else the PMID (`workIdentity`). Authors, venue and year are what the
 * provider says, shown as discovery metadata and never cited as evidence.
 */
export interface WorkMetadata {
  /** Lower-case, without a resolver prefix: `10.1038/nature14539`. */
  doi?: string;
  /** Without a version: `1706.03762`, `hep-th/9901001`. */
  arxivId?: string;
  pmid?: string;
  authors: string[];
  venue?: string;
  year?: number;
}

export interface SearchOptions {
  limit: number;
  signal?: AbortSignal;
  /**
   * Hears what went wrong without failing the search: a provider of several that failed
   * or was rate-limited while the others answered (the Host records it as a diagnostic).
   */
  notice?: (message: string) => void;
}

export interface SearchProvider {
  /** Short name for diagnostics ("corpus", "searxng"). */
  readonly name: string;
  search(query: SearchQuery, options: SearchOptions): Promise<SearchHit[]>;
  /** Why this provider cannot run `query` (bad pattern, unsafe path, unsupported kind), or undefined. */
  checkQuery(query: SearchQuery): string | undefined;
}
