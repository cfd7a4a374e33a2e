/**
 * Web search provider specs (`searxng:http://host:8080`, `tavily`, `brave`, `serper`) and
 * the providers behind them. The shell reads the key named by `searchKeyVariable` from the
 * environment and passes it in; nothing here reads the environment.
 */
import { UserError } from "../../core/errors.js";
import { err, ok, type Result } from "../../core/result.js";
import type { SearchProvider } from "../../ports/search-provider.js";
import { createBraveSearch } from "./brave/brave-search.js";
import { createSearxngSearch } from "./searxng/searxng-search.js";
import { createSerperSearch } from "./serper/serper-search.js";
import { createTavilySearch } from "./tavily/tavily-search.js";
import { isWebUrl } from "./web-search-hits.js";

export const searchProviderIds = ["searxng", "tavily", "brave", "serper"] as const;
export type SearchProviderId = (typeof searchProviderIds)[number];

export interface SearchSpec {
  provider: SearchProviderId;
  /** Overrides the provider's endpoint; for SearXNG, the instance's address. */
  baseUrl?: string;
}

export interface SearchProviderSettings extends SearchSpec {
  apiKey?: string;
  /** The report language, passed to providers that take one (SearXNG). */
  language?: string;
  fetch?: typeof fetch;
}

const isProviderId = (value: string): value is SearchProviderId =>
  (searchProviderIds as readonly string[]).includes(value);

/**
 * Parses `provider` or `provider:url` (the URL replaces the provider's base URL).
 * Pure; never throws.
 */
export function parseSearchSpec(text: string): Result<SearchSpec> {
  const spec = text.trim();
  const colon = spec.indexOf(":");
  const provider = (colon < 0 ? spec : spec.slice(0, colon)).trim().toLowerCase();
  if (!isProviderId(provider)) {
    return err(`unknown search provider "${provider}" (known: ${searchProviderIds.join(", ")})`);
  }
  if (colon < 0) return ok({ provider });
  const baseUrl = spec.slice(colon + 1).trim();
  if (!isWebUrl(baseUrl)) {
    return err(`search provider "${spec}" needs an http:// or https:// URL after "${provider}:"`);
  }
  const url = new URL(baseUrl);
  if (url.username !== "" || url.password !== "") {
    return err(`the URL in search provider "${provider}" must not carry a user name or password`);
  }
  return ok({ provider, baseUrl });
}

/** The environment variable that holds `provider`'s key; SearXNG needs none. */
export function searchKeyVariable(provider: SearchProviderId): string | undefined {
  switch (provider) {
    case "searxng":
      return undefined;
    case "tavily":
      return "TAVILY_API_KEY";
    case "brave":
      return "BRAVE_API_KEY";
    case "serper":
      return "SERPER_API_KEY";
  }
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
  switch (settings.provider) {
    case "searxng":
      return createSearxngSearch({ ...options, ...(settings.language ? { language: settings.language } : {}) });
    case "tavily":
      return createTavilySearch(options);
    case "brave":
      return createBraveSearch(options);
    case "serper":
      return createSerperSearch(options);
  }
}
