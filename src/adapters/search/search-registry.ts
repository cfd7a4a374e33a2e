/**
 * The providers behind a search spec (search-specs.ts): one, several fanned out, or what
 * `auto` finds (a SearXNG that answers, else DuckDuckGo and Wikipedia, which need nothing).
 * The shell reads the keys named by `searchKeyVariable` from the environment and passes them
 * in; nothing here reads the environment.
 */
import { UserError } from "../../core/errors.js";
import type { SearchProvider } from "../../ports/search-provider.js";
import { createArxivSearch } from "./arxiv/arxiv-search.js";
import { createBraveSearch } from "./brave/brave-search.js";
import { createDuckDuckGoSearch } from "./duckduckgo/duckduckgo-search.js";
import { createFanOutSearch } from "./fan-out-search.js";
import { createOpenAlexSearch } from "./openalex/openalex-search.js";
import { createPubmedSearch } from "./pubmed/pubmed-search.js";
import {
  PROVIDER_NAMES,
  planLabel,
  type SearchPlan,
  type SearchProviderId,
  type SearchSpec,
  searchKeyVariable,
} from "./search-specs.js";
import { createSearxngSearch, SEARXNG_DEFAULT_BASE_URL } from "./searxng/searxng-search.js";
import { createSerperSearch } from "./serper/serper-search.js";
import { createTavilySearch } from "./tavily/tavily-search.js";
import { createWikipediaSearch } from "./wikipedia/wikipedia-search.js";

export interface SearchProviderSettings extends SearchSpec {
  apiKey?: string;
  /** The report language, passed to providers that take one (SearXNG, Wikipedia). */
  language?: string;
  /** OpenAlex's polite pool: a contact address (`ASSAY_CONTACT_EMAIL`). */
  mailto?: string;
  fetch?: typeof fetch;
}

/** The provider for `settings`. Throws UserError on a missing key or a bad base URL. */
export function createSearchProvider(settings: SearchProviderSettings): SearchProvider {
  const variable = searchKeyVariable(settings.provider);
  if (variable !== undefined && !settings.apiKey?.trim()) {
    throw new UserError(`the search provider "${settings.provider}" needs an API key: set ${variable}`);
  }
  const options = {
    ...(settings.apiKey === undefined ? {} : { apiKey: settings.apiKey }),
    ...(settings.baseUrl === undefined ? {} : { baseUrl: settings.baseUrl }),
    ...(settings.fetch === undefined ? {} : { fetch: settings.fetch }),
  };
  const language = settings.language ? { language: settings.language } : {};
  switch (settings.provider) {
    case "searxng":
      return createSearxngSearch({ ...options, ...language });
    case "tavily":
      return createTavilySearch(options);
    case "brave":
      return createBraveSearch(options);
    case "serper":
      return createSerperSearch(options);
    case "duckduckgo":
      return createDuckDuckGoSearch(options);
    case "wikipedia":
      return createWikipediaSearch({ ...options, ...language });
    case "arxiv":
      return createArxivSearch(options);
    case "openalex":
      return createOpenAlexSearch({ ...options, ...(settings.mailto ? { mailto: settings.mailto } : {}) });
    case "pubmed":
      // NCBI asks E-utilities clients to name themselves and a contact.
      return createPubmedSearch({ ...options, tool: "assay", ...(settings.mailto ? { email: settings.mailto } : {}) });
  }
}

/** What opening a plan needs from the shell. */
export interface SearchPlanContext {
  /** The key of a provider that takes one, looked up by the shell. */
  apiKeyFor: (provider: SearchProviderId) => string | undefined;
  language?: string;
  mailto?: string;
  fetch?: typeof fetch;
  /** How long `auto` waits for SearXNG to answer. Default 2 000 ms. */
  probeTimeoutMs?: number;
  /** Endpoints for providers a spec names without one (a proxy; loopback stand-ins in tests). */
  baseUrls?: Partial<Record<SearchProviderId, string>>;
}

export interface OpenedSearch {
  provider: SearchProvider;
  /** The providers used, by id. */
  providers: SearchProviderId[];
  /** The report boundary's words for it ("the web, searched with DuckDuckGo and Wikipedia (…)"). */
  label: string;
  /** What `auto` found, for the event log; empty for named providers. */
  auto?: { searxngUrl: string; searxng: "answered" | string };
}

/** Whether a SearXNG instance answers a JSON search at `baseUrl`: "answered", or what it did instead ("did not answer"). */
export async function probeSearxng(
  baseUrl: string,
  options: { fetch?: typeof fetch; timeoutMs?: number } = {},
): Promise<string> {
  const fetchImplementation = options.fetch ?? globalThis.fetch;
  let url: URL;
  try {
    url = new URL("search", baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`);
  } catch {
    return "is not a URL";
  }
  url.searchParams.set("q", "assay");
  url.searchParams.set("format", "json");
  try {
    const response = await fetchImplementation(url, {
      headers: { accept: "application/json" },
      redirect: "manual",
      signal: AbortSignal.timeout(options.timeoutMs ?? 2_000),
    });
    const body = await response.text();
    if (!response.ok) return `answered HTTP ${response.status}`;
    const parsed = JSON.parse(body) as { results?: unknown };
    return Array.isArray(parsed.results) ? "answered" : "did not answer with its JSON";
  } catch (error) {
    if (error instanceof SyntaxError) return "did not answer with JSON";
    return "did not answer";
  }
}

/** Builds the providers of `plan` (for `auto`, after asking SearXNG). Throws UserError on a missing key. */
export async function openSearchPlan(plan: SearchPlan, context: SearchPlanContext): Promise<OpenedSearch> {
  const build = (spec: SearchSpec): SearchProvider => {
    const apiKey = context.apiKeyFor(spec.provider);
    const baseUrl = spec.baseUrl ?? context.baseUrls?.[spec.provider];
    return createSearchProvider({
      ...spec,
      ...(baseUrl === undefined ? {} : { baseUrl }),
      ...(apiKey === undefined ? {} : { apiKey }),
      ...(context.language ? { language: context.language } : {}),
      ...(context.mailto ? { mailto: context.mailto } : {}),
      ...(context.fetch ? { fetch: context.fetch } : {}),
    });
  };
  const fanned = (specs: SearchSpec[]): SearchProvider => {
    const [only] = specs;
    if (specs.length === 1 && only) return build(only);
    return createFanOutSearch(specs.map((spec) => ({ provider: build(spec), label: PROVIDER_NAMES[spec.provider] })));
  };
  if (plan.kind === "providers") {
    return { provider: fanned(plan.specs), providers: plan.specs.map((spec) => spec.provider), label: planLabel(plan) };
  }
  const searxngUrl = plan.searxngUrl ?? SEARXNG_DEFAULT_BASE_URL;
  const searxng = await probeSearxng(searxngUrl, {
    ...(context.fetch ? { fetch: context.fetch } : {}),
    ...(context.probeTimeoutMs === undefined ? {} : { timeoutMs: context.probeTimeoutMs }),
  });
  if (searxng === "answered") {
    return {
      provider: build({ provider: "searxng", baseUrl: searxngUrl }),
      providers: ["searxng"],
      label: `the web, searched with SearXNG at ${new URL(searxngUrl).host} (auto)`,
      auto: { searxngUrl, searxng },
    };
  }
  const specs: SearchSpec[] = [{ provider: "duckduckgo" }, { provider: "wikipedia" }];
  return {
    provider: fanned(specs),
    providers: ["duckduckgo", "wikipedia"],
    label: `the web, searched with DuckDuckGo and Wikipedia (auto: SearXNG at ${new URL(searxngUrl).host} ${searxng})`,
    auto: { searxngUrl, searxng },
  };
}
