/** The web evidence scope: a search provider (discovery) and the guarded HTTP fetcher (evidence). */
import { UserError } from "../../core/errors.js";
import type { OpenScope, ScopeContext, ScopeOpener } from "../../ports/evidence-scope.js";
import type { EvidenceScope } from "../../ports/store.js";
import type { HttpFetcherOptions } from "../fetch/http/http-fetcher.js";
import { hybridScopeOpener } from "../hybrid/hybrid-scope.js";
import { parseSearchPlan, type SearchProviderId } from "../search/search-specs.js";

export interface WebScopeOptions {
  /** The provider's API key, looked up by the shell (never stored with the run). */
  apiKeyFor: (provider: SearchProviderId) => string | undefined;
  /** A contact address for the providers that ask for one (OpenAlex's polite pool). */
  mailto?: string;
  /** Endpoints for providers a spec names without one (loopback stand-ins in tests). */
  baseUrls?: Partial<Record<SearchProviderId, string>>;
  /** Fetcher settings; the scope's own allow-list is added to them. */
  fetcher?: HttpFetcherOptions;
}

export function webScopeOpener(options: WebScopeOptions): ScopeOpener {
  return {
    async open(scope: EvidenceScope, context: ScopeContext = {}): Promise<OpenScope> {
      if (scope.kind !== "web") throw new Error(`the web scope opener cannot open a ${scope.kind} scope`);
      // The fetcher (undici) and the search clients load with the first web scope, not at start-up.
      const [{ createHttpFetcher }, { openSearchPlan }] = await Promise.all([
        import("../fetch/http/http-fetcher.js"),
        import("../search/search-registry.js"),
      ]);
      // Stored as the --search value (`auto`, `wikipedia,arxiv`); older runs keep the URL apart.
      const spec = scope.search.baseUrl ? `${scope.search.provider}:${scope.search.baseUrl}` : scope.search.provider;
      const plan = parseSearchPlan(spec);
      if (!plan.ok) throw new UserError(`the run's search provider "${spec}" cannot be used: ${plan.error}`);
      const opened = await openSearchPlan(plan.value, {
        apiKeyFor: options.apiKeyFor,
        ...(context.language ? { language: context.language } : {}),
        ...(options.mailto ? { mailto: options.mailto } : {}),
        ...(options.baseUrls ? { baseUrls: options.baseUrls } : {}),
      });
      const fetcher = createHttpFetcher({
        ...options.fetcher,
        allowHosts: [...(options.fetcher?.allowHosts ?? []), ...scope.allowHosts],
      });
      return {
        search: opened.provider,
        fetcher,
        label: opened.label,
        prepare: async () => ({
          provider: opened.providers.join(","),
          baseUrl: scope.search.baseUrl ?? "",
          ...(opened.auto ? { auto: opened.auto } : {}),
        }),
        close: () => fetcher.close(),
      };
    },
  };
}

/** Opens each scope with the opener of its kind; a folder-and-web scope with both. */
export function scopeRouter(openers: { corpus: ScopeOpener; web: ScopeOpener; library?: ScopeOpener }): ScopeOpener {
  const unavailable: ScopeOpener = {
    open: () => Promise.reject(new UserError("the library cannot be searched here (no store to read it from)")),
  };
  const all = { library: unavailable, ...openers, hybrid: hybridScopeOpener(openers) };
  return { open: (scope, context) => all[scope.kind].open(scope, context) };
}
