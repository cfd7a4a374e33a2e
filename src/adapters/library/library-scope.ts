/**
 * The user's library as an evidence scope: every source the user's runs persisted, searched
 * like a corpus (the same FTS5 index and bm25 ranking, built in memory when the scope opens) and
 * read from the stored copy: no fetch, and the copy keeps the time it was captured, which stays
 * the report's observation boundary.
 */
import { UserError } from "../../core/errors.js";
import { readerLine } from "../../core/text.js";
import type { OpenScope, ScopeOpener } from "../../ports/evidence-scope.js";
import type { FetchedDocument, Fetcher, FetchOptions } from "../../ports/fetcher.js";
import type { SearchHit, SearchOptions, SearchProvider, SearchQuery } from "../../ports/search-provider.js";
import type { EvidenceScope, LibraryDocument, LibraryEntry, Store } from "../../ports/store.js";
import { CorpusIndex } from "../corpus/corpus-index.js";

/** Library entries read from the store per batch while the index is built. */
const READ_BATCH = 100;
const ANCHOR = /^library:(\d+)$/;

/** The anchor a library hit carries: `library:<entry id>`. */
export const libraryAnchor = (id: number): string => `library:${id}`;

/** Where a library entry came from: its URL, its file (corpus folder and path), or its canonical anchor. */
export const libraryEntryLocation = (entry: LibraryEntry): string =>
  entry.url ?? (entry.path ? `${entry.corpusRoot ?? ""}/${entry.path}` : entry.canonicalAnchor);

/** The reader-facing name of a user's library as a scope. */
export const LIBRARY_LABEL = "your library (the sources your earlier runs read)";

/** Builds the in-memory index of `userId`'s library; how many entries it holds. */
async function indexLibrary(store: Store, userId: string, index: CorpusIndex, signal?: AbortSignal): Promise<number> {
  const entries = await store.listLibrary(userId);
  for (let start = 0; start < entries.length; start += READ_BATCH) {
    signal?.throwIfAborted();
    const ids = entries.slice(start, start + READ_BATCH).map((entry) => entry.id);
    const documents = await store.readLibrary(userId, ids);
    index.add(
      documents.map((document) => ({
        path: libraryAnchor(document.id),
        title: document.title,
        body: document.content,
      })),
    );
  }
  return entries.length;
}

/** A search over `userId`'s library as a run would search it; close it when done. */
export async function libraryIndex(
  store: Store,
  userId: string,
): Promise<{ search(text: string, limit: number): SearchHit[]; close(): void }> {
  const index = CorpusIndex.open("", ":memory:");
  await indexLibrary(store, userId, index);
  return { search: (text, limit) => libraryHits(index, text, limit), close: () => index.close() };
}

/** The library's entries for `text`, ranked, as search hits (`library:<id>` anchors). */
function libraryHits(index: CorpusIndex, text: string, limit: number): SearchHit[] {
  return index.search(text, limit).map((hit, rank) => ({
    anchor: hit.path,
    title: hit.title,
    snippet: readerLine(hit.snippet, 300),
    rank: rank + 1,
    score: hit.score,
  }));
}

class LibrarySearch implements SearchProvider {
  readonly name = "library";
  constructor(readonly index: CorpusIndex) {}

  checkQuery(query: SearchQuery): string | undefined {
    if (query.kind !== "text") return "the library takes text queries, not patterns";
    return query.text.trim() === "" ? "the query is empty" : undefined;
  }

  async search(query: SearchQuery, options: SearchOptions): Promise<SearchHit[]> {
    options.signal?.throwIfAborted();
    const problem = this.checkQuery(query);
    if (problem || query.kind !== "text") throw new UserError(problem ?? "the library takes text queries");
    return libraryHits(this.index, query.text, options.limit);
  }
}

/** A library entry as a fetched document: its stored text (cut to `maxChars`), its original identity and capture time. */
export function libraryDocument(entry: LibraryDocument, anchor: string, maxChars: number): FetchedDocument {
  const cut = entry.content.length > maxChars;
  return {
    requestedAnchor: anchor,
    canonicalAnchor: entry.canonicalAnchor,
    title: entry.title,
    transport: entry.transport,
    ...(entry.path === undefined ? {} : { path: entry.path }),
    ...(entry.url === undefined ? {} : { url: entry.url }),
    domain: entry.domain,
    content: cut ? entry.content.slice(0, maxChars) : entry.content,
    truncated: entry.truncated || cut,
    contentType: entry.contentType,
    sections: entry.sections.filter((section) => section.start < maxChars),
    library: { entryId: entry.id, capturedAt: entry.capturedAt },
  };
}

class LibraryFetcher implements Fetcher {
  readonly storedCopies = true;
  constructor(
    readonly store: Store,
    readonly userId: string,
  ) {}

  async fetch(anchor: string, options: FetchOptions): Promise<FetchedDocument> {
    options.signal?.throwIfAborted();
    const id = ANCHOR.exec(anchor)?.[1];
    if (id === undefined) throw new UserError(`"${anchor}" is not a library entry (library:<number>)`);
    const [entry] = await this.store.readLibrary(this.userId, [Number(id)]);
    // Forgotten since it was found: nothing to read.
    if (!entry) throw new Error(`library entry ${id} is no longer in the library`);
    return libraryDocument(entry, anchor, options.maxChars);
  }
}

export function libraryScopeOpener(options: { store: Store }): ScopeOpener {
  return {
    async open(scope: EvidenceScope): Promise<OpenScope> {
      if (scope.kind !== "library") throw new Error(`the library scope opener cannot open a ${scope.kind} scope`);
      const index = CorpusIndex.open("", ":memory:");
      return {
        search: new LibrarySearch(index),
        fetcher: new LibraryFetcher(options.store, scope.userId),
        async prepare(signal) {
          return { documents: await indexLibrary(options.store, scope.userId, index, signal) };
        },
        async close() {
          index.close();
        },
      };
    },
  };
}
