/**
 * Web search through a SearXNG instance's JSON API (`GET /search?q=…&format=json`): free,
 * self-hosted, no key. The instance must list `json` under `search.formats` in its
 * settings.yml; otherwise it answers 403.
 */
import { ExternalServiceError } from "../../../core/errors.js";
import type { SearchHit, SearchOptions, SearchProvider, SearchQuery } from "../../../ports/search-provider.js";
import { checkWebQuery, parseBaseUrl, toHits, webQueryText } from "../web-search-hits.js";
import {
  createWebClient,
  type ErrorSummary,
  type StatusFailure,
  type WebRequest,
  type WebSearchOptions,
} from "../web-search-http.js";
import { type SearxngResponse, searxngErrorSchema, searxngResponseSchema } from "./searxng-wire.js";

/** Where a SearXNG container listens by default. */
export const SEARXNG_DEFAULT_BASE_URL = "http://localhost:8080";

export interface SearxngSearchOptions extends WebSearchOptions {
  /** A language code (`en`, `de-CH`) for the engines; the instance's default when absent. */
  language?: string;
}

function explainStatus(base: URL, status: number, summary: ErrorSummary): StatusFailure | undefined {
  const instance = `the SearXNG instance at ${base.origin}`;
  if (status === 403) {
    return {
      message:
        `${instance} refused format=json (HTTP 403): enable the json format in its settings.yml ` +
        "(search: formats: [html, json]) and restart it",
      retryable: false,
      userFault: true,
    };
  }
  if (status === 401) {
    return {
      message: `${instance} asks for authentication (HTTP 401), which Assay does not send`,
      retryable: false,
      userFault: true,
    };
  }
  if (status === 400 && summary.text) {
    return { message: `${instance} rejected the search (HTTP 400): ${summary.text}`, retryable: false };
  }
  return undefined;
}

/** No results because every engine failed is an outage, not an empty answer. */
function failedEngines(body: SearxngResponse): ExternalServiceError | undefined {
  const failed = body.unresponsive_engines ?? [];
  if (body.results.length > 0 || failed.length === 0) return undefined;
  const list = failed.map(([engine, reason]) => `${engine} (${reason})`).join(", ");
  return new ExternalServiceError(`SearXNG found nothing because its engines failed: ${list}`, { isRetryable: true });
}

export function createSearxngSearch(options: SearxngSearchOptions = {}): SearchProvider {
  const base = parseBaseUrl("SearXNG", options.baseUrl ?? SEARXNG_DEFAULT_BASE_URL);
  const client = createWebClient("SearXNG", options, options.apiKey ? [options.apiKey] : []);
  const reading = {
    schema: searxngResponseSchema,
    readError: (body: unknown) => {
      const parsed = searxngErrorSchema.safeParse(body);
      return parsed.success ? { text: parsed.data.error } : undefined;
    },
    explainStatus: (status: number, summary: ErrorSummary) => explainStatus(base, status, summary),
  };

  return {
    name: "searxng",
    checkQuery: (query: SearchQuery) => checkWebQuery(query),
    async search(query: SearchQuery, { limit, signal }: SearchOptions): Promise<SearchHit[]> {
      const text = webQueryText(query);
      if (limit < 1) return [];
      const url = new URL("search", base);
      url.searchParams.set("q", text);
      url.searchParams.set("format", "json");
      url.searchParams.set("pageno", "1");
      if (options.language) url.searchParams.set("language", options.language);
      // No key travels with this request, so following a redirect (http to https) is safe.
      const request: WebRequest = { url, method: "GET", headers: { accept: "application/json" }, redirect: "follow" };
      const body = await client.get(request, reading, signal);
      const outage = failedEngines(body);
      if (outage) throw outage;
      // SearXNG has no result count parameter: one page (about 20 results) is sliced.
      return toHits(
        body.results.map((result) => ({
          url: result.url,
          title: result.title,
          snippet: result.content,
          score: result.score ?? 0,
        })),
        limit,
      );
    },
  };
}
