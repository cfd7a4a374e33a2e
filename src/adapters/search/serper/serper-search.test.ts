/**
 * Serper against a loopback server speaking its Google search API, with a recorded-shape reply.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ExternalServiceError, UserError } from "../../../core/errors.js";
import { type ContractResult, loopbackServers, runSearchContract } from "../search-contract.js";
import { createSerperSearch } from "./serper-search.js";

const KEY = "serper-test-7b2e9d4a1c6f";
const fixture = (): unknown =>
  JSON.parse(readFileSync(new URL("./__fixtures__/serper-search.json", import.meta.url), "utf8"));

const reply = (results: readonly ContractResult[]) => ({
  searchParameters: { q: "q", type: "search", engine: "google" },
  organic: results.map((result, index) => ({
    title: result.title,
    link: result.url,
    snippet: result.snippet,
    position: index + 1,
  })),
  credits: 1,
});

runSearchContract("serper", {
  create: ({ baseUrl, apiKey }) => createSerperSearch({ baseUrl, apiKey, retryBaseDelayMs: 5 }),
  reply,
});

describe("Serper", () => {
  const serve = loopbackServers();
  const query = { kind: "text", text: "lithium iron phosphate cycle life" } as const;

  it("posts q and num with the X-API-KEY header, and maps the recorded reply", async () => {
    const server = await serve({ body: fixture() });
    const hits = await createSerperSearch({ baseUrl: server.baseUrl, apiKey: KEY }).search(query, { limit: 5 });
    const [request] = server.seen;
    expect(request?.method).toBe("POST");
    expect(request?.path).toBe("/search");
    expect(request?.headers["x-api-key"]).toBe(KEY);
    expect(request?.body).toEqual({ q: "lithium iron phosphate cycle life", num: 5 });
    expect(hits).toEqual([
      {
        anchor: "https://en.wikipedia.org/wiki/Lithium_iron_phosphate_battery",
        title: "Lithium iron phosphate battery - Wikipedia",
        snippet: expect.stringContaining("LFP battery is a type of lithium-ion battery"),
        rank: 1,
        score: 1,
      },
      expect.objectContaining({
        anchor: "https://batteryuniversity.com/article/bu-205-types-of-lithium-ion",
        rank: 2,
        score: 0.5,
      }),
    ]);
  });

  it("returns no hits when Google had no organic results", async () => {
    const server = await serve({ body: { searchParameters: { q: "q" }, credits: 1 } });
    expect(await createSerperSearch({ baseUrl: server.baseUrl, apiKey: KEY }).search(query, { limit: 5 })).toEqual([]);
  });

  it("reads its 403 as a wrong key", async () => {
    const server = await serve({ status: 403, body: { message: "Unauthorized.", statusCode: 403 } });
    const failure = createSerperSearch({ baseUrl: server.baseUrl, apiKey: KEY }).search(query, { limit: 5 });
    await expect(failure).rejects.toBeInstanceOf(UserError);
    await expect(failure).rejects.toThrow("Serper refused the request (HTTP 403): the API key is missing or wrong");
    expect(server.seen).toHaveLength(1);
  });

  it("does not retry an empty balance (HTTP 400) and carries its message", async () => {
    const server = await serve({ status: 400, body: { message: "Not enough credits", statusCode: 400 } });
    const failure = createSerperSearch({ baseUrl: server.baseUrl, apiKey: KEY }).search(query, { limit: 5 });
    await expect(failure).rejects.toBeInstanceOf(ExternalServiceError);
    await expect(failure).rejects.toThrow("Serper answered HTTP 400: Not enough credits");
    expect(server.seen).toHaveLength(1);
  });
});
