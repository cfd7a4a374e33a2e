/**
 * In-memory evidence scope for tests and benchmarks: documents by path, a search that
 * ranks by shared words, a fetcher, each with a fixed latency (real timers or a FakeClock).
 */
import { keyTerms } from "../core/text.js";
import type { OpenScope, ScopeOpener } from "../ports/evidence-scope.js";
import type { FetchedDocument, Fetcher, FetchOptions } from "../ports/fetcher.js";
import type { SearchHit, SearchOptions, SearchProvider, SearchQuery } from "../ports/search-provider.js";
import type { FakeClock } from "./fake-clock.js";

export interface FakeDocument {
  path: string;
  title: string;
  text: string;
}

export interface FakeScopeOptions {
  documents: readonly FakeDocument[];
  searchLatencyMs?: number;
  fetchLatencyMs?: number;
  /** When given, latency advances this clock instead of waiting. */
  clock?: FakeClock;
  /** Paths whose fetch fails. */
  failing?: readonly string[];
  /** Makes every search fail. */
  searchFails?: boolean;
  /** Makes every search throw this error (for configuration errors). */
  searchError?: Error;
  /** Awaited before a search answers (after its latency): holds one search back until the test releases it. */
  beforeAnswer?: (query: SearchQuery, signal?: AbortSignal) => Promise<void>;
  /** Called as each fetch starts. */
  onFetch?: (anchor: string) => void;
}

function wait(ms: number, options: FakeScopeOptions, signal?: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  if (options.clock) {
    options.clock.advance(ms);
    return Promise.resolve();
  }
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

export class FakeSearch implements SearchProvider {
  readonly name = "fake";
  readonly calls: SearchQuery[] = [];
  readonly #options: FakeScopeOptions;
  /** Each document's distinct terms, worked out once (a remote index would not spend our CPU). */
  readonly #terms = new Map<FakeDocument, readonly string[]>();

  constructor(options: FakeScopeOptions) {
    this.#options = options;
  }

  #termsOf(document: FakeDocument): readonly string[] {
    let terms = this.#terms.get(document);
    if (!terms) {
      terms = keyTerms(`${document.title} ${document.text}`);
      this.#terms.set(document, terms);
    }
    return terms;
  }

  checkQuery(query: SearchQuery): string | undefined {
    return query.kind === "pattern" && query.pattern.includes("\\1") ? "backreferences are not supported" : undefined;
  }

  async search(query: SearchQuery, options: SearchOptions): Promise<SearchHit[]> {
    this.calls.push(query);
    await wait(this.#options.searchLatencyMs ?? 0, this.#options, options.signal);
    await this.#options.beforeAnswer?.(query, options.signal);
    if (this.#options.searchError) throw this.#options.searchError;
    if (this.#options.searchFails) throw new Error("fake search is down");
    const terms = new Set(keyTerms(query.kind === "text" ? query.text : query.pattern));
    return this.#options.documents
      .map((document) => ({
        document,
        score: this.#termsOf(document).filter((term) => terms.has(term)).length,
      }))
      .filter((entry) => entry.score > 0)
      .sort((a, b) => b.score - a.score || a.document.path.localeCompare(b.document.path))
      .slice(0, options.limit)
      .map((entry, index) => ({
        anchor: entry.document.path,
        title: entry.document.title,
        snippet: entry.document.text.slice(0, 80),
        rank: index + 1,
        score: entry.score,
      }));
  }
}

export class FakeFetcher implements Fetcher {
  readonly fetched: string[] = [];
  readonly #options: FakeScopeOptions;

  constructor(options: FakeScopeOptions) {
    this.#options = options;
  }

  async fetch(anchor: string, options: FetchOptions): Promise<FetchedDocument> {
    this.fetched.push(anchor);
    this.#options.onFetch?.(anchor);
    await wait(this.#options.fetchLatencyMs ?? 0, this.#options, options.signal);
    if (this.#options.failing?.includes(anchor)) throw new Error(`fake fetch of ${anchor} failed`);
    const document = this.#options.documents.find((candidate) => candidate.path === anchor);
    if (!document) throw new Error(`no fake document ${anchor}`);
    const truncated = document.text.length > options.maxChars;
    return {
      requestedAnchor: anchor,
      canonicalAnchor: document.path,
      title: document.title,
      transport: "corpus",
      path: document.path,
      domain: "",
      content: truncated ? document.text.slice(0, options.maxChars) : document.text,
      truncated,
      contentType: "text/plain",
    };
  }
}

/** A ScopeOpener that always opens the same fake scope. */
export function fakeScopeOpener(options: FakeScopeOptions): ScopeOpener & { search: FakeSearch; fetcher: FakeFetcher } {
  const search = new FakeSearch(options);
  const fetcher = new FakeFetcher(options);
  return {
    search,
    fetcher,
    async open(): Promise<OpenScope> {
      return {
        search,
        fetcher,
        prepare: async () => ({ documents: options.documents.length }),
        close: async () => {},
      };
    },
  };
}

/** `count` documents about one topic, each `words` words long. */
export function syntheticDocuments(count: number, words = 400): FakeDocument[] {
  const vocabulary = "battery lithium cathode anode electrolyte cell energy density cost safety charge cycle".split(
    " ",
  );
  return Array.from({ length: count }, (_, index) => {
    const sentences: string[] = [];
    for (let word = 0; word < words; word += 12) {
      const picked = Array.from(
        { length: 12 },
        (_unused, offset) => vocabulary[(index + word + offset * 7) % vocabulary.length],
      );
      sentences.push(`Document ${index + 1} notes that ${picked.join(" ")}.`);
    }
    return {
      path: `doc-${String(index + 1).padStart(3, "0")}.md`,
      title: `Document ${index + 1} on lithium batteries`,
      text: sentences.join(index % 3 === 0 ? "\n\n" : " "),
    };
  });
}
