import { describe, expect, it } from "vitest";
import { UserError } from "../../core/errors.js";
import { createSearchProvider } from "./search-registry.js";
import { formatSearchPlan, parseSearchPlan, parseSearchSpec, planLabel, searchKeyVariable } from "./search-specs.js";

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
      error:
        'unknown search provider "google" (known: searxng, tavily, brave, serper, duckduckgo, wikipedia, arxiv, openalex, pubmed, or auto)',
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

describe("parseSearchPlan", () => {
  it("reads auto, auto with the SearXNG to try, one provider and several", () => {
    expect(parseSearchPlan("auto")).toEqual({ ok: true, value: { kind: "auto" } });
    expect(parseSearchPlan(" AUTO:http://searx.lan:8888 ")).toEqual({
      ok: true,
      value: { kind: "auto", searxngUrl: "http://searx.lan:8888" },
    });
    expect(parseSearchPlan("wikipedia, arxiv,openalex")).toEqual({
      ok: true,
      value: { kind: "providers", specs: [{ provider: "wikipedia" }, { provider: "arxiv" }, { provider: "openalex" }] },
    });
    expect(parseSearchPlan("searxng:http://host:8080,duckduckgo")).toEqual({
      ok: true,
      value: {
        kind: "providers",
        specs: [{ provider: "searxng", baseUrl: "http://host:8080" }, { provider: "duckduckgo" }],
      },
    });
  });

  it("refuses a provider named twice, auto among others, an empty name and a bad URL", () => {
    expect(parseSearchPlan("arxiv,arxiv")).toEqual({ ok: false, error: "arxiv is named twice" });
    expect(parseSearchPlan("auto,wikipedia")).toMatchObject({ ok: false });
    expect(parseSearchPlan("wikipedia,auto")).toEqual({
      ok: false,
      error: "auto cannot be combined with other providers",
    });
    expect(parseSearchPlan("wikipedia,,arxiv")).toMatchObject({ ok: false, error: expect.stringContaining("empty") });
    expect(parseSearchPlan("auto:ftp://x")).toMatchObject({ ok: false, error: expect.stringContaining("http://") });
  });

  it("prints a plan that reads back the same, and names its providers for the boundary", () => {
    for (const text of ["auto", "auto:http://searx.lan:8888", "wikipedia,arxiv", "searxng:http://host:8080,pubmed"]) {
      const plan = parseSearchPlan(text);
      if (!plan.ok) throw new Error(plan.error);
      expect(formatSearchPlan(plan.value)).toBe(text);
    }
    const plan = parseSearchPlan("wikipedia,arxiv,openalex");
    if (!plan.ok) throw new Error(plan.error);
    expect(planLabel(plan.value)).toBe("the web, searched with Wikipedia, arXiv and OpenAlex");
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
    for (const provider of ["duckduckgo", "wikipedia", "arxiv", "openalex", "pubmed"] as const)
      expect(createSearchProvider({ provider }).name).toBe(provider);
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
