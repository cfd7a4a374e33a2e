/**
 * Web search through Tavily (`POST https://api.tavily.com/search`, `Authorization: Bearer`
 * key), a search API built for LLM agents; results carry a relevance score.
 */
import type { SearchHit, SearchOptions, SearchProvider, SearchQuery } from "../../../ports/search-provider.js";
import { checkWebQuery, parseBaseUrl, requireApiKey, toHits, webQueryText } from "../web-search-hits.js";
import { createWebClient, type ReplyReading, type WebRequest, type WebSearchOptions } from "../web-search-http.js";
import {
  TAVILY_PLAN_LIMIT_STATUSES,
  type TavilyRequestBody,
  type TavilyResponse,
  tavilyErrorSchema,
  tavilyResponseSchema,
} from "./tavily-wire.js";

export const TAVILY_BASE_URL = "https://api.tavily.com";
/** `max_results` accepts 0 to 20. */
const MAX_RESULTS = 20;

const reading: ReplyReading<TavilyResponse> = {
  schema: tavilyResponseSchema,
  readError: (body) => {
    const parsed = tavilyErrorSchema.safeParse(body);
    if (!parsed.success) return undefined;
    const { detail } = parsed.data;
    return { text: typeof detail === "string" ? detail : detail.error };
  },
  explainStatus: (status, summary) => {
    if (!TAVILY_PLAN_LIMIT_STATUSES.includes(status)) return undefined;
    const said = summary.text ? `: ${summary.text}` : "";
    return {
      message: `Tavily refused the search: the plan's usage limit is reached (HTTP ${status})${said}`,
      retryable: false,
    };
  },
};

export function createTavilySearch(options: WebSearchOptions = {}): SearchProvider {
  const apiKey = requireApiKey("Tavily", options.apiKey);
  const endpoint = new URL("search", parseBaseUrl("Tavily", options.baseUrl ?? TAVILY_BASE_URL));
  const client = createWebClient("Tavily", options, [apiKey]);

  return {
    name: "tavily",
    checkQuery: (query: SearchQuery) => checkWebQuery(query),
    async search(query: SearchQuery, { limit, signal }: SearchOptions): Promise<SearchHit[]> {
      const text = webQueryText(query);
      if (limit < 1) return [];
      const body: TavilyRequestBody = {
        query: text,
        max_results: Math.min(limit, MAX_RESULTS),
        search_depth: "basic",
        include_answer: false,
        include_raw_content: false,
        include_images: false,
      };
      const request: WebRequest = {
        url: endpoint,
        method: "POST",
        headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify(body),
        redirect: "manual",
      };
      const reply = await client.get(request, reading, signal);
      return toHits(
        reply.results.map((result, index) => ({
          url: result.url,
          title: result.title,
          snippet: result.content,
          score: result.score ?? 1 / (index + 1),
        })),
        limit,
      );
    },
  };
}
