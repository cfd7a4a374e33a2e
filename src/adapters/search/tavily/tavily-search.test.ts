/**
 * Tavily against a loopback server speaking its search API, with a recorded-shape reply.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ExternalServiceError, UserError } from "../../../core/errors.js";
import { type ContractResult, loopbackServers, runSearchContract } from "../search-contract.js";
import { createTavilySearch } from "./tavily-search.js";

const KEY = "tvly-test-5c8e1a9b3d7f";
const fixture = (): unknown =>
  JSON.parse(readFileSync(new URL("./__fixtures__/tavily-search.json", import.meta.url), "utf8"));

const reply = (results: readonly ContractResult[]) => ({
  query: "q",
  answer: null,
  images: [],
  results: results.map((result, index) => ({
    title: result.title,
    url: result.url,
    content: result.snippet,
    score: 0.9 - index / 100,
    raw_content: null,
  })),
  response_time: 0.8,
});

runSearchContract("tavily", {
  create: ({ baseUrl, apiKey }) => createTavilySearch({ baseUrl, apiKey, retryBaseDelayMs: 5 }),
  reply,
});

describe("Tavily", () => {
  const serve = loopbackServers();
  const query = { kind: "text", text: "  lithium iron phosphate cycle life " } as const;

  it("posts the query with a bearer key and max_results, and maps the recorded reply", async () => {
    const server = await serve({ body: fixture() });
    const hits = await createTavilySearch({ baseUrl: server.baseUrl, apiKey: KEY }).search(query, { limit: 7 });
    const [request] = server.seen;
    expect(request?.method).toBe("POST");
    expect(request?.path).toBe("/search");
    expect(request?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request?.headers["content-type"]).toBe("application/json");
    expect(request?.body).toEqual({
      query: "lithium iron phosphate cycle life",
      max_results: 7,
      search_depth: "basic",
      include_answer: false,
      include_raw_content: false,
      include_images: false,
    });
    expect(hits).toEqual([
      {
        anchor: "https://en.wikipedia.org/wiki/Lithium_iron_phosphate_battery",
        title: "Lithium iron phosphate battery - Wikipedia",
        snippet: expect.stringContaining("2,500 to more than 9,000 cycles"),
        rank: 1,
        score: 0.86371,
      },
      expect.objectContaining({ rank: 2, score: 0.71052 }),
    ]);
  });

  it("asks for at most 20 results, the API's maximum", async () => {
    const server = await serve({ body: fixture() });
    await createTavilySearch({ baseUrl: server.baseUrl, apiKey: KEY }).search(query, { limit: 50 });
    expect(server.seen[0]?.body.max_results).toBe(20);
  });

  it("says the key is missing or wrong on its 401, without the key", async () => {
    const server = await serve({
      status: 401,
      body: { detail: { error: "Unauthorized: missing or invalid API key." } },
    });
    const failure = createTavilySearch({ baseUrl: server.baseUrl, apiKey: KEY }).search(query, { limit: 5 });
    await expect(failure).rejects.toBeInstanceOf(UserError);
    await expect(failure).rejects.toThrow(/API key is missing or wrong: Unauthorized: missing or invalid API key/);
  });

  it("does not retry a plan limit (HTTP 432)", async () => {
    const server = await serve({
      status: 432,
      body: { detail: { error: "This request exceeds your plan's set usage limit." } },
    });
    const failure = createTavilySearch({ baseUrl: server.baseUrl, apiKey: KEY }).search(query, { limit: 5 });
    await expect(failure).rejects.toBeInstanceOf(ExternalServiceError);
    await expect(failure).rejects.toThrow(/usage limit is reached \(HTTP 432\)/);
    expect(server.seen).toHaveLength(1);
  });

  it("does not follow a redirect with the key", async () => {
    const server = await serve({ status: 307, body: {}, headers: { location: "http://127.0.0.1:9/elsewhere" } });
    const failure = createTavilySearch({ baseUrl: server.baseUrl, apiKey: KEY }).search(query, { limit: 5 });
    await expect(failure).rejects.toThrow(/redirect \(HTTP 307\)/);
    expect(server.seen).toHaveLength(1);
  });

  it("needs a key", () => {
    expect(() => createTavilySearch({})).toThrow(UserError);
    expect(() => createTavilySearch({ apiKey: "  " })).toThrow(/needs an API key/);
  });
});
