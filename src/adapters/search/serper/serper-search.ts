/**
 * Google results through Serper (`POST https://google.serper.dev/search`, `X-API-KEY` key).
 * Results carry no score: it is derived from Google's position.
 */
import type { SearchHit, SearchOptions, SearchProvider, SearchQuery } from "../../../ports/search-provider.js";
import { checkWebQuery, parseBaseUrl, requireApiKey, toHits, webQueryText } from "../web-search-hits.js";
import { createWebClient, type ReplyReading, type WebRequest, type WebSearchOptions } from "../web-search-http.js";
import { type SerperRequestBody, type SerperResponse, serperErrorSchema, serperResponseSchema } from "./serper-wire.js";

export const SERPER_BASE_URL = "https://google.serper.dev";
/** `num` accepts 1 to 100. */
const MAX_NUM = 100;

const reading: ReplyReading<SerperResponse> = {
  schema: serperResponseSchema,
  readError: (body) => {
    const parsed = serperErrorSchema.safeParse(body);
    return parsed.success ? { text: parsed.data.message } : undefined;
  },
};

export function createSerperSearch(options: WebSearchOptions = {}): SearchProvider {
  const apiKey = requireApiKey("Serper", options.apiKey);
  const endpoint = new URL("search", parseBaseUrl("Serper", options.baseUrl ?? SERPER_BASE_URL));
  const client = createWebClient("Serper", options, [apiKey]);

  return {
    name: "serper",
    checkQuery: (query: SearchQuery) => checkWebQuery(query),
    async search(query: SearchQuery, { limit, signal }: SearchOptions): Promise<SearchHit[]> {
      const text = webQueryText(query);
      if (limit < 1) return [];
      const body: SerperRequestBody = { q: text, num: Math.min(limit, MAX_NUM) };
      const request: WebRequest = {
        url: endpoint,
        method: "POST",
        headers: { "x-api-key": apiKey, "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify(body),
        redirect: "manual",
      };
      const reply = await client.get(request, reading, signal);
      return toHits(
        (reply.organic ?? []).map((result, index) => ({
          url: result.link,
          title: result.title,
          snippet: result.snippet,
          score: 1 / Math.max(1, result.position ?? index + 1),
        })),
        limit,
      );
    },
  };
}
