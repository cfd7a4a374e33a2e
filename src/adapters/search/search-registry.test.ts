import { describe, expect, it } from "vitest";
import { UserError } from "../../core/errors.js";
import { createSearchProvider, parseSearchSpec, searchKeyVariable } from "./search-registry.js";

describe("parseSearchSpec", () => {
  it("reads a provider alone", () => {
    for (const provider of ["searxng", "tavily", "brave", "serper"] as const) {
      expect(parseSearchSpec(provider)).toEqual({ ok: true, value: { provider } });
    }
    expect(parseSearchSpec(" Tavily ")).toEqual({ ok: true, value: { provider: "tavily" } });
  });

  it("reads a base URL after the first colon", () => {
    expect(parseSearchSpec("searxng:http://host:8080")).toEqual({
      ok: true,
      value: { provider: "searxng", baseUrl: "http://host:8080" },
    });
    expect(parseSearchSpec("brave:https://proxy.example/brave/")).toEqual({
      ok: true,
      value: { provider: "brave", baseUrl: "https://proxy.example/brave/" },
    });
  });

  it("refuses unknown providers, missing or non-http URLs and URLs with credentials", () => {
    expect(parseSearchSpec("google")).toEqual({
      ok: false,
      error: 'unknown search provider "google" (known: searxng, tavily, brave, serper)',
    });
    expect(parseSearchSpec("")).toMatchObject({ ok: false });
    expect(parseSearchSpec("searxng:")).toMatchObject({ ok: false, error: expect.stringContaining("http://") });
    expect(parseSearchSpec("searxng:localhost:8080")).toMatchObject({ ok: false });
    expect(parseSearchSpec("searxng:file:///etc/passwd")).toMatchObject({ ok: false });
    expect(parseSearchSpec("searxng:http://user:pw@host")).toMatchObject({
      ok: false,
      error: expect.stringContaining("user name or password"),
    });
  });
});

describe("searchKeyVariable", () => {
  it("names each keyed provider's variable", () => {
    expect(searchKeyVariable("searxng")).toBeUndefined();
    expect(searchKeyVariable("tavily")).toBe("TAVILY_API_KEY");
    expect(searchKeyVariable("brave")).toBe("BRAVE_API_KEY");
    expect(searchKeyVariable("serper")).toBe("SERPER_API_KEY");
  });
});

describe("createSearchProvider", () => {
  it("builds each provider", () => {
    expect(createSearchProvider({ provider: "searxng" }).name).toBe("searxng");
    expect(createSearchProvider({ provider: "searxng", baseUrl: "http://host:8888" }).name).toBe("searxng");
    expect(createSearchProvider({ provider: "tavily", apiKey: "tvly-k" }).name).toBe("tavily");
    expect(createSearchProvider({ provider: "brave", apiKey: "b-k" }).name).toBe("brave");
    expect(createSearchProvider({ provider: "serper", apiKey: "s-k" }).name).toBe("serper");
  });

  it("says which variable to set when a key is missing", () => {
    expect(() => createSearchProvider({ provider: "brave" })).toThrow(UserError);
    expect(() => createSearchProvider({ provider: "serper", apiKey: "" })).toThrow(
      'the search provider "serper" needs an API key: set SERPER_API_KEY',
    );
  });

  it("passes the injected fetch through", async () => {
    const seen: string[] = [];
    const fetch: typeof globalThis.fetch = async (input) => {
      seen.push(String(input));
      return new Response(JSON.stringify({ query: "q", results: [] }));
    };
    const provider = createSearchProvider({ provider: "searxng", baseUrl: "http://searx.test:8080", fetch });
    expect(await provider.search({ kind: "text", text: "q" }, { limit: 3 })).toEqual([]);
    expect(seen[0]).toMatch(/^http:\/\/searx\.test:8080\/search\?q=q&format=json/);
  });
});
