/** The local-corpus evidence scope: FTS5 index + pattern search, and the corpus fetcher. */
import type { OpenScope, ScopeOpener } from "../../ports/evidence-scope.js";
import type { EvidenceScope } from "../../ports/store.js";
import { CorpusFetcher } from "../fetch/corpus/corpus-fetcher.js";
import { CorpusSearch } from "../search/corpus/corpus-search.js";
import { CorpusIndex, type IndexProgress, indexFileFor } from "./corpus-index.js";
import { resolveCorpusRoot } from "./corpus-paths.js";

const UNREADABLE_LISTED = 10;

export interface CorpusScopeOptions {
  /** Folder holding one index file per corpus. */
  indexDir: string;
  /** Hears how far each refresh of an index has come (a terminal's progress line). */
  progress?: IndexProgress;
}

export function corpusScopeOpener(options: CorpusScopeOptions): ScopeOpener {
  return {
    async open(scope: EvidenceScope): Promise<OpenScope> {
      if (scope.kind !== "corpus") throw new Error(`the corpus scope opener cannot open a ${scope.kind} scope`);
      const root = await resolveCorpusRoot(scope.root);
      const index = CorpusIndex.open(root, indexFileFor(options.indexDir, root));
      return {
        search: new CorpusSearch(index),
        fetcher: new CorpusFetcher(root),
        async prepare(signal) {
          const stats = await index.refresh(signal, options.progress);
          return {
            documents: stats.documents,
            added: stats.added,
            updated: stats.updated,
            removed: stats.removed,
            unchanged: stats.unchanged,
            failed: stats.failed.length,
            skipped: stats.skipped.length,
            unsupported: stats.unsupported,
            // Why the files this refresh could not read were not read (the first few).
            unreadable: stats.failed.slice(0, UNREADABLE_LISTED),
          };
        },
        async close() {
          index.close();
        },
      };
    },
  };
}
