/**
 * Reading one document. The Host persists what a fetcher returns before anyone sees it.
 */
import type { Section } from "../core/chunking.js";

export type Transport = "corpus" | "http";

export interface FetchedDocument {
  requestedAnchor: string;
  /** Source identity: the canonical URL or the normalized corpus-relative path. */
  canonicalAnchor: string;
  title: string;
  transport: Transport;
  /** Corpus-relative path, for corpus documents. */
  path?: string;
  /** Canonical URL, for web documents. */
  url?: string;
  /** Registrable domain ('' for corpus documents). */
  domain: string;
  /** Clean text, at most the requested number of characters. */
  content: string;
  /** True when the content was cut: at the character budget, or at a byte cap while reading. */
  truncated: boolean;
  contentType: string;
  /** Named parts of the content (slides, sheets, cells), in text order: passages are cut at them. */
  sections?: readonly Section[];
  /** Read from the user's library, not fetched: the entry and the time it was first captured. */
  library?: { entryId: number; capturedAt: string };
}

export interface FetchOptions {
  maxChars: number;
  signal?: AbortSignal;
}

export interface Fetcher {
  /** True when it reads stored copies (the user's library): its reads spend no fetch budget. */
  readonly storedCopies?: boolean;
  fetch(anchor: string, options: FetchOptions): Promise<FetchedDocument>;
}
