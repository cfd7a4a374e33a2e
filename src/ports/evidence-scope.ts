/** Opens the search provider and fetcher of an evidence scope for one run. */
import type { Fetcher } from "./fetcher.js";
import type { SearchProvider } from "./search-provider.js";
import type { EvidenceScope } from "./store.js";

export interface OpenScope {
  search: SearchProvider;
  fetcher: Fetcher;
  /**
   * The report boundary's words for the scope as opened, when they say more than the run's
   * stored label (`--search auto`: which providers answered); the stored label otherwise.
   */
  label?: string;
  /** Brings indexes up to date; returns facts for the event log. */
  prepare(signal?: AbortSignal): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

/** What a scope may need to know about the run that opens it. */
export interface ScopeContext {
  /** The report language (some search providers take it). */
  language?: string;
}

export interface ScopeOpener {
  open(scope: EvidenceScope, context?: ScopeContext): Promise<OpenScope>;
}
