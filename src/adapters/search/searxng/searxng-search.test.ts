/**
 * SearXNG against a loopback server speaking its JSON API, with a recorded-shape reply.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ExternalServiceError, UserError } from "../../../core/errors.js";
import { searxngReply } from "../../../testing/loopback-http.js";
import { type ContractResult, loopbackServers, runSearchContract } from "../search-contract.js";
import { createSearxngSearch } from "./searxng-search.js";

const fixture = (): unknown =>
  JSON.parse(readFileSync(new URL("./__fixtures__/searxng-search.json", import.meta.url), "utf8"));

const reply = (results: readonly ContractResult[]) =>
  searxngReply(
    "q",
    results.map((result, index) => ({
      url: result.url,
      title: result.title,
      content: result.snippet,
      engine: "duckduckgo",
      score: 1 / (index + 1),
    })),
  );

runSearchContract("searxng", {
  create: ({ baseUrl, apiKey }) => createSearxngSearch({ baseUrl, apiKey, retryBaseDelayMs: 5 }),
  reply,
});

describe("SearXNG", () => {
  const serve = loopbackServers();
  const query = { kind: "text", text: "lithium iron phosphate cycle life" } as const;

  it("sends GET /search with q, format=json, pageno and language, and maps the recorded reply", async () => {
    const server = await serve({ body: fixture() });
    const provider = createSearxngSearch({ baseUrl: `${server.baseUrl}/searx`, language: "en" });
    const hits = await provider.search(query, { limit: 10 });
    const url = new URL(server.seen[0]?.path ?? "", server.baseUrl);
    expect(server.seen[0]?.method).toBe("GET");
    expect(url.pathname).toBe("/searx/search");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      q: "lithium iron phosphate cycle life",
      format: "json",
      pageno: "1",
      language: "en",
    });
    expect(server.seen[0]?.headers.authorization).toBeUndefined();
    // The result with a null url is dropped; unresponsive engines do not matter when results came back.
    expect(hits).toEqual([
      {
        anchor: "https://en.wikipedia.org/wiki/Lithium_iron_phosphate_battery",
        title: "Lithium iron phosphate battery - Wikipedia",
        snippet: expect.stringContaining("LFP battery is a type of lithium-ion battery"),
        rank: 1,
        score: 6,
      },
      {
        anchor: "https://batteryuniversity.com/article/bu-205-types-of-lithium-ion",
        title: "BU-205: Types of Lithium-ion",
        snippet: expect.stringContaining("long cycle life"),
        rank: 2,
        score: 2.5,
      },
    ]);
  });

  it("says to enable the json format when the instance answers 403", async () => {
    const server = await serve({ status: 403, raw: "<html><title>403 Forbidden</title></html>" });
    const failure = createSearxngSearch({ baseUrl: server.baseUrl }).search(query, { limit: 5 });
    await expect(failure).rejects.toBeInstanceOf(UserError);
    await expect(failure).rejects.toThrow(/enable the json format in its settings\.yml/);
    expect(server.seen).toHaveLength(1);
  });

  it("reports engines that all failed instead of an empty answer", async () => {
    const server = await serve({
      body: {
        ...reply([]),
        unresponsive_engines: [
          ["google", "CAPTCHA"],
          ["duckduckgo", "timeout"],
        ],
      },
    });
    const failure = createSearxngSearch({ baseUrl: server.baseUrl }).search(query, { limit: 5 });
    await expect(failure).rejects.toBeInstanceOf(ExternalServiceError);
    await expect(failure).rejects.toThrow("google (CAPTCHA), duckduckgo (timeout)");
  });

  it("returns no hits for an empty answer without failed engines", async () => {
    const server = await serve({ body: reply([]) });
    expect(await createSearxngSearch({ baseUrl: server.baseUrl }).search(query, { limit: 5 })).toEqual([]);
  });

  it("carries the instance's message on a 400", async () => {
    const server = await serve({ status: 400, body: { error: "No query" } });
    await expect(createSearxngSearch({ baseUrl: server.baseUrl }).search(query, { limit: 5 })).rejects.toThrow(
      "rejected the search (HTTP 400): No query",
    );
    expect(server.seen).toHaveLength(1);
  });

  it("defaults to a local instance and refuses a base URL that is not http(s)", () => {
    expect(() => createSearxngSearch()).not.toThrow();
    expect(() => createSearxngSearch({ baseUrl: "file:///etc" })).toThrow(UserError);
    expect(() => createSearxngSearch({ baseUrl: "http://user:secret@host:8080" })).toThrow(/user name or password/);
  });
});
