/** The web evidence scope: a search provider (discovery) and the guarded HTTP fetcher (evidence). */
import type { OpenScope, ScopeContext, ScopeOpener } from "../../ports/evidence-scope.js";
import type { EvidenceScope } from "../../ports/store.js";
import type { HttpFetcherOptions } from "../fetch/http/http-fetcher.js";
import type { SearchProviderId } from "../search/search-registry.js";

export interface WebScopeOptions {
  /** The provider's API key, looked up by the shell (never stored with the run). */
  apiKeyFor: (provider: SearchProviderId) => string | undefined;
  /** Fetcher settings; the scope's own allow-list is added to them. */
  fetcher?: HttpFetcherOptions;
}

export function webScopeOpener(options: WebScopeOptions): ScopeOpener {
  return {
    async open(scope: EvidenceScope, context: ScopeContext = {}): Promise<OpenScope> {
      if (scope.kind !== "web") throw new Error(`the web scope opener cannot open a ${scope.kind} scope`);
      // The fetcher (undici) and the search clients load with the first web scope, not at start-up.
      const [{ createHttpFetcher }, { createSearchProvider }] = await Promise.all([
        import("../fetch/http/http-fetcher.js"),
        import("../search/search-registry.js"),
      ]);
      const provider = scope.search.provider as SearchProviderId;
      const apiKey = options.apiKeyFor(provider);
      const search = createSearchProvider({
        provider,
        ...(scope.search.baseUrl === undefined ? {} : { baseUrl: scope.search.baseUrl }),
        ...(apiKey === undefined ? {} : { apiKey }),
        ...(context.language ? { language: context.language } : {}),
      });
      const fetcher = createHttpFetcher({
        ...options.fetcher,
        allowHosts: [...(options.fetcher?.allowHosts ?? []), ...scope.allowHosts],
      });
      return {
        search,
        fetcher,
        prepare: async () => ({ provider, baseUrl: scope.search.baseUrl ?? "" }),
        close: () => fetcher.close(),
      };
    },
  };
}

/** Opens each scope with the opener of its kind. */
export function scopeRouter(openers: { corpus: ScopeOpener; web: ScopeOpener }): ScopeOpener {
  return { open: (scope, context) => openers[scope.kind].open(scope, context) };
}
