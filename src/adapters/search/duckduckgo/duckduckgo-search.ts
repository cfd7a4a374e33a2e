/**
 * Web search through DuckDuckGo's HTML results page (`GET https://html.duckduckgo.com/html/?q=…`):
 * no key and no account, which makes it the fallback of `--search auto`. It is not an API:
 * DuckDuckGo does not document the page, may change it, and limits automated queries. A
 * changed layout is a clear failure ("not a results page"), never zero hits; its bot check
 * (a challenge page, often HTTP 202) is a refusal that says what to do. Requests are paced
 * (one per 2 s per process) to stay well under what it tolerates.
 */
import type { SearchHit, SearchOptions, SearchProvider, SearchQuery } from "../../../ports/search-provider.js";
import { ASSAY_USER_AGENT } from "../../../version.js";
import { checkWebQuery, parseBaseUrl, type QueryLimits, toHits, webQueryText } from "../web-search-hits.js";
import { createWebClient, type ReplyReading, type WebRequest, type WebSearchOptions } from "../web-search-http.js";
import { type DuckDuckGoPage, duckDuckGoPageSchema, isChallengePage, parseDuckDuckGoPage } from "./duckduckgo-wire.js";

export const DUCKDUCKGO_BASE_URL = "https://html.duckduckgo.com/";
/** Between two requests from this process. */
export const DUCKDUCKGO_INTERVAL_MS = 2_000;
/** DuckDuckGo cuts long queries; 500 characters is well inside what the page accepts. */
const QUERY_LIMITS: QueryLimits = { maxChars: 500 };

export const DUCKDUCKGO_BLOCKED =
  "DuckDuckGo answered with its bot check instead of results: it limits automated searches. " +
  "Wait a few minutes, or search with another provider (--search wikipedia, --search searxng:URL, or a keyed one)";

/** The result's target: DuckDuckGo's redirector (`//duckduckgo.com/l/?uddg=…`) unwrapped, else the link itself. Pure. */
export function resultTarget(href: string): string {
  const trimmed = href.trim();
  let url: URL;
  try {
    url = new URL(trimmed.startsWith("//") ? `https:${trimmed}` : trimmed, "https://duckduckgo.com/");
  } catch {
    return "";
  }
  if (/(^|\.)duckduckgo\.com$/.test(url.hostname) && url.pathname.startsWith("/l/")) {
    return url.searchParams.get("uddg") ?? "";
  }
  return url.href;
}

const reading: ReplyReading<DuckDuckGoPage> = {
  schema: duckDuckGoPageSchema,
  format: "HTML",
  parse: parseDuckDuckGoPage,
  refusal: (text) => (isChallengePage(text) ? { message: DUCKDUCKGO_BLOCKED, retryable: false } : undefined),
  // Its bot check comes as a 2xx page (see `refusal`) or a 403; a 429 is retried as usual.
  explainStatus: (status) =>
    status === 403 ? { message: `${DUCKDUCKGO_BLOCKED} (HTTP ${status})`, retryable: false } : undefined,
};

export interface DuckDuckGoSearchOptions extends WebSearchOptions {
  /** A region code (`kl`, e.g. `de-de`, `us-en`); DuckDuckGo's default when absent. */
  region?: string;
}

export function createDuckDuckGoSearch(options: DuckDuckGoSearchOptions = {}): SearchProvider {
  const endpoint = new URL("html/", parseBaseUrl("DuckDuckGo", options.baseUrl ?? DUCKDUCKGO_BASE_URL));
  const client = createWebClient("DuckDuckGo", options, [], {
    key: "duckduckgo",
    intervalMs: DUCKDUCKGO_INTERVAL_MS,
  });
  const region = options.region?.trim().toLowerCase();

  return {
    name: "duckduckgo",
    checkQuery: (query: SearchQuery) => checkWebQuery(query, QUERY_LIMITS),
    async search(query: SearchQuery, { limit, signal }: SearchOptions): Promise<SearchHit[]> {
      const text = webQueryText(query, QUERY_LIMITS);
      if (limit < 1) return [];
      const url = new URL(endpoint);
      url.searchParams.set("q", text);
      if (region && /^[a-z]{2}-[a-z]{2}$/.test(region)) url.searchParams.set("kl", region);
      const request: WebRequest = {
        url,
        method: "GET",
        headers: { accept: "text/html", "user-agent": ASSAY_USER_AGENT },
        redirect: "follow",
      };
      const page = await client.get(request, reading, signal);
      return toHits(
        page.results
          .filter((result) => !result.ad)
          .map((result, index) => ({
            url: resultTarget(result.href),
            title: result.title,
            snippet: result.snippet,
            score: 1 / (index + 1),
          })),
        limit,
      );
    },
  };
}
