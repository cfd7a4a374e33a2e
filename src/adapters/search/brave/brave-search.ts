/**
 * Web search through the Brave Search API (`GET https://api.search.brave.com/res/v1/web/search`,
 * `X-Subscription-Token` key), an independent index. Results carry no score: it is derived
 * from the rank.
 */
import type { SearchHit, SearchOptions, SearchProvider, SearchQuery } from "../../../ports/search-provider.js";
import {
  checkWebQuery,
  parseBaseUrl,
  plainText,
  type QueryLimits,
  requireApiKey,
  toHits,
  webQueryText,
} from "../web-search-hits.js";
import { createWebClient, type ReplyReading, type WebRequest, type WebSearchOptions } from "../web-search-http.js";
import { BRAVE_INVALID_TOKEN_CODE, type BraveResponse, braveErrorSchema, braveResponseSchema } from "./brave-wire.js";

export const BRAVE_BASE_URL = "https://api.search.brave.com";
/** `count` accepts 1 to 20. */
const MAX_COUNT = 20;
/** Brave documents at most 400 characters and 50 words per query. */
const QUERY_LIMITS: QueryLimits = { maxChars: 400, maxWords: 50 };

const reading: ReplyReading<BraveResponse> = {
  schema: braveResponseSchema,
  readError: (body) => {
    const parsed = braveErrorSchema.safeParse(body);
    if (!parsed.success) return undefined;
    const { code, detail } = parsed.data.error;
    return { ...(code === undefined ? {} : { code }), ...(detail === undefined ? {} : { text: detail }) };
  },
  explainStatus: (status, summary) =>
    summary.code === BRAVE_INVALID_TOKEN_CODE
      ? {
          message: `Brave refused the request (HTTP ${status}): the API key is missing or wrong`,
          retryable: false,
          userFault: true,
        }
      : undefined,
};

export function createBraveSearch(options: WebSearchOptions = {}): SearchProvider {
  const apiKey = requireApiKey("Brave", options.apiKey);
  const endpoint = new URL("res/v1/web/search", parseBaseUrl("Brave", options.baseUrl ?? BRAVE_BASE_URL));
  const client = createWebClient("Brave", options, [apiKey]);

  return {
    name: "brave",
    checkQuery: (query: SearchQuery) => checkWebQuery(query, QUERY_LIMITS),
    async search(query: SearchQuery, { limit, signal }: SearchOptions): Promise<SearchHit[]> {
      const text = webQueryText(query, QUERY_LIMITS);
      if (limit < 1) return [];
      const url = new URL(endpoint);
      url.searchParams.set("q", text);
      url.searchParams.set("count", String(Math.min(limit, MAX_COUNT)));
      // Only web results: `count` applies to them alone, and the other sections are not used.
      url.searchParams.set("result_filter", "web");
      const request: WebRequest = {
        url,
        method: "GET",
        headers: { accept: "application/json", "x-subscription-token": apiKey },
        redirect: "manual",
      };
      const reply = await client.get(request, reading, signal);
      return toHits(
        (reply.web?.results ?? []).map((result, index) => ({
          url: result.url,
          title: plainText(result.title ?? ""),
          snippet: plainText(result.description ?? ""),
          score: 1 / (index + 1),
        })),
        limit,
      );
    },
  };
}
