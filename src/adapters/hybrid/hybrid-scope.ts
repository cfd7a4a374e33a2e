/**
 * A folder and the web in one run: the corpus scope and the web scope opened side by side.
 * A text query goes to both and their hits are merged in turns of rank (the fan-out search:
 * a part that fails while the other answers is a notice); a pattern goes to the folder
 * only. A hit's anchor says where it is read: an http(s) URL by the web fetcher, anything
 * else as a corpus path by the corpus fetcher. Sources keep their kind (a path or a URL),
 * so independence is counted by corpus document and by registrable domain, as in either
 * scope alone.
 */

import { hybridScopeLabel } from "../../core/render/format.js";
import type { OpenScope, ScopeContext, ScopeOpener } from "../../ports/evidence-scope.js";
import type { Fetcher, FetchOptions } from "../../ports/fetcher.js";
import type { EvidenceScope } from "../../ports/store.js";
import { createFanOutSearch } from "../search/fan-out-search.js";
import { isWebUrl } from "../search/web-search-hits.js";

/** Opens `hybrid` scopes with the openers of their two parts. */
export function hybridScopeOpener(openers: { corpus: ScopeOpener; web: ScopeOpener }): ScopeOpener {
  return {
    async open(scope: EvidenceScope, context: ScopeContext = {}): Promise<OpenScope> {
      if (scope.kind !== "hybrid") throw new Error(`the hybrid scope opener cannot open a ${scope.kind} scope`);
      const corpus = await openers.corpus.open(scope.corpus, context);
      let web: OpenScope;
      try {
        web = await openers.web.open(scope.web, context);
      } catch (error) {
        await corpus.close();
        throw error;
      }
      const fetcher: Fetcher = {
        fetch: (anchor: string, options: FetchOptions) =>
          (isWebUrl(anchor) ? web.fetcher : corpus.fetcher).fetch(anchor, options),
      };
      return {
        search: createFanOutSearch([
          { provider: corpus.search, label: `the folder “${scope.corpus.label}”` },
          { provider: web.search, label: "the web search" },
        ]),
        fetcher,
        label: hybridScopeLabel(scope.corpus.label, web.label ?? scope.web.label),
        async prepare(signal) {
          const [folder, online] = await Promise.all([corpus.prepare(signal), web.prepare(signal)]);
          return { ...folder, web: online };
        },
        async close() {
          await Promise.allSettled([corpus.close(), web.close()]);
        },
      };
    },
  };
}
