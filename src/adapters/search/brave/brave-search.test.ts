/**
 * Brave against a loopback server speaking its web search API, with recorded-shape replies.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { UserError } from "../../../core/errors.js";
import { type ContractResult, loopbackServers, runSearchContract } from "../search-contract.js";
import { plainText } from "../web-search-hits.js";
import { createBraveSearch } from "./brave-search.js";

const KEY = "BSA-test-0d4f8b2c6a1e";
const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), "utf8"));

const reply = (results: readonly ContractResult[]) => ({
  type: "search",
  query: { original: "q" },
  web: {
    type: "search",
    results: results.map((result) => ({
      title: result.title,
      url: result.url,
      description: result.snippet,
      type: "search_result",
    })),
    family_friendly: true,
  },
});

runSearchContract("brave", {
  create: ({ baseUrl, apiKey }) => createBraveSearch({ baseUrl, apiKey, retryBaseDelayMs: 5 }),
  reply,
});

describe("Brave", () => {
  const serve = loopbackServers();
  const query = { kind: "text", text: "lithium iron phosphate cycle life" } as const;

  it("sends GET /res/v1/web/search with q, count and the subscription token, and maps the recorded reply", async () => {
    const server = await serve({ body: fixture("brave-web-search.json") });
    const hits = await createBraveSearch({ baseUrl: server.baseUrl, apiKey: KEY }).search(query, { limit: 5 });
    const [request] = server.seen;
    const url = new URL(request?.path ?? "", server.baseUrl);
    expect(request?.method).toBe("GET");
    expect(url.pathname).toBe("/res/v1/web/search");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      q: "lithium iron phosphate cycle life",
      count: "5",
      result_filter: "web",
    });
    expect(request?.headers["x-subscription-token"]).toBe(KEY);
    expect(hits).toEqual([
      {
        anchor: "https://en.wikipedia.org/wiki/Lithium_iron_phosphate_battery",
        title: "Lithium iron phosphate battery - Wikipedia",
        snippet:
          "The lithium iron phosphate battery (LiFePO4 battery) offers a long cycle life & good thermal stability.",
        rank: 1,
        score: 1,
      },
      {
        anchor: "https://batteryuniversity.com/article/bu-205-types-of-lithium-ion",
        title: "BU-205: Types of Lithium-ion – Battery University",
        snippet: "Li-phosphate has excellent safety and long life span.",
        rank: 2,
        score: 0.5,
      },
    ]);
  });

  it("asks for at most 20 results and returns none when the reply has no web section", async () => {
    const server = await serve({ body: { type: "search", query: { original: "q" } } });
    const hits = await createBraveSearch({ baseUrl: server.baseUrl, apiKey: KEY }).search(query, { limit: 40 });
    expect(new URL(server.seen[0]?.path ?? "", server.baseUrl).searchParams.get("count")).toBe("20");
    expect(hits).toEqual([]);
  });

  it("reads its 422 SUBSCRIPTION_TOKEN_INVALID as a wrong key, without retrying", async () => {
    const server = await serve({ status: 422, body: fixture("brave-invalid-token.json") });
    const failure = createBraveSearch({ baseUrl: server.baseUrl, apiKey: KEY }).search(query, { limit: 5 });
    await expect(failure).rejects.toBeInstanceOf(UserError);
    await expect(failure).rejects.toThrow("Brave refused the request (HTTP 422): the API key is missing or wrong");
    expect(server.seen).toHaveLength(1);
  });

  it("carries the detail of another 422", async () => {
    const server = await serve({
      status: 422,
      body: {
        type: "ErrorResponse",
        error: { status: 422, code: "VALIDATION", detail: "Unable to validate request parameter(s)." },
      },
    });
    await expect(
      createBraveSearch({ baseUrl: server.baseUrl, apiKey: KEY }).search(query, { limit: 5 }),
    ).rejects.toThrow("Brave answered HTTP 422: Unable to validate request parameter(s).");
  });

  it("refuses queries beyond its documented 400 characters or 50 words", () => {
    const provider = createBraveSearch({ apiKey: KEY });
    expect(provider.checkQuery({ kind: "text", text: "a".repeat(401) })).toMatch(/400 characters/);
    expect(provider.checkQuery({ kind: "text", text: Array(51).fill("w").join(" ") })).toMatch(/50 words/);
  });

  it("strips tags and decodes entities", () => {
    expect(plainText("<strong>A</strong> &amp; B &#8211; C &#x2014; &bogus; &lt;tag&gt;")).toBe(
      "A & B – C — &bogus; <tag>",
    );
  });
});
