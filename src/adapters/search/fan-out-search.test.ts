/**
 * One query to several providers: merged by turns of rank and de-duplicated by a work's
 * identity (DOI, arXiv id, PMID) or its normalised URL; a provider that fails while another
 * answers is a notice; `auto` picks a SearXNG that answers, else DuckDuckGo and Wikipedia
 * (loopback stand-ins speaking their real formats).
 */
import { describe, expect, it } from "vitest";
import { ExternalServiceError, UserError } from "../../core/errors.js";
import type { SearchHit, SearchProvider } from "../../ports/search-provider.js";
import { createFanOutSearch, mergeHits } from "./fan-out-search.js";
import { loopbackServers, textReply } from "./search-contract.js";
import { openSearchPlan } from "./search-registry.js";

const hit = (anchor: string, rank: number, extra: Partial<SearchHit> = {}): SearchHit => ({
  anchor,
  title: anchor,
  snippet: "",
  rank,
  score: 1 / rank,
  ...extra,
});

const fake = (name: string, answer: () => Promise<SearchHit[]>, refuses?: string): SearchProvider => ({
  name,
  checkQuery: () => refuses,
  search: answer,
});

describe("mergeHits", () => {
  it("takes the providers' hits in turns of rank and merges the same work found twice, keeping both ranks", () => {
    const merged = mergeHits(
      [
        {
          provider: "arxiv",
          hits: [
            hit("https://arxiv.org/abs/1706.03762", 1, {
              work: {
                arxivId: "1706.03762",
                doi: "10.48550/arxiv.1706.03762",
                authors: ["Ashish Vaswani"],
                year: 2017,
              },
            }),
            hit("https://arxiv.org/abs/1810.04805", 2, { work: { arxivId: "1810.04805", authors: [] } }),
          ],
        },
        {
          provider: "openalex",
          hits: [
            hit("https://example.org/other", 1, { snippet: "Another paper." }),
            hit("https://doi.org/10.48550/arXiv.1706.03762", 2, {
              snippet: "The dominant sequence transduction models…",
              work: { doi: "10.48550/arxiv.1706.03762", authors: [], venue: "NeurIPS", year: 2017 },
            }),
          ],
        },
      ],
      10,
    );
    expect(merged.map((item) => [item.anchor, item.rank, item.foundBy])).toEqual([
      [
        "https://arxiv.org/abs/1706.03762",
        1,
        [
          { provider: "arxiv", rank: 1 },
          { provider: "openalex", rank: 2 },
        ],
      ],
      ["https://example.org/other", 2, [{ provider: "openalex", rank: 1 }]],
      ["https://arxiv.org/abs/1810.04805", 3, [{ provider: "arxiv", rank: 2 }]],
    ]);
    // The fuller metadata of the two, and the snippet the first lacked.
    expect(merged[0]?.work).toEqual({
      arxivId: "1706.03762",
      doi: "10.48550/arxiv.1706.03762",
      authors: ["Ashish Vaswani"],
      venue: "NeurIPS",
      year: 2017,
    });
    expect(merged[0]?.snippet).toBe("The dominant sequence transduction models…");
    // OpenAlex's page of the same work is kept as an alternate to read it from.
    expect(merged[0]?.alternates).toEqual(["https://doi.org/10.48550/arXiv.1706.03762"]);
  });

  it("merges the same page under two spellings of its URL, and stops at the limit", () => {
    const merged = mergeHits(
      [
        {
          provider: "duckduckgo",
          hits: [hit("https://Example.org/a?utm_source=x#top", 1), hit("https://example.org/b", 2)],
        },
        { provider: "wikipedia", hits: [hit("https://example.org/a", 1), hit("https://example.org/c", 2)] },
      ],
      2,
    );
    expect(merged.map((item) => item.anchor)).toEqual([
      "https://Example.org/a?utm_source=x#top",
      "https://example.org/b",
    ]);
    expect(merged[0]?.foundBy).toHaveLength(2);
    // The same page spelt otherwise is no alternate.
    expect(merged[0]?.alternates).toBeUndefined();
  });
});

describe("createFanOutSearch", () => {
  const query = { kind: "text", text: "transformer attention" } as const;

  it("answers from the providers that answered and tells of the one that failed", async () => {
    const search = createFanOutSearch([
      {
        provider: fake("wikipedia", async () => [hit("https://en.wikipedia.org/wiki/Transformer", 1)]),
        label: "Wikipedia",
      },
      {
        provider: fake("duckduckgo", async () => {
          throw new ExternalServiceError("DuckDuckGo answered with its bot check instead of results");
        }),
        label: "DuckDuckGo",
      },
    ]);
    const notices: string[] = [];
    const hits = await search.search(query, { limit: 5, notice: (message) => notices.push(message) });
    expect(hits.map((item) => item.anchor)).toEqual(["https://en.wikipedia.org/wiki/Transformer"]);
    expect(notices).toEqual([
      "DuckDuckGo: DuckDuckGo answered with its bot check instead of results (the other providers answered)",
    ]);
    expect(search.name).toBe("wikipedia+duckduckgo");
  });

  it("benches a provider whose failure a retry would not mend at once, and one that timed out after two in a row", async () => {
    const asked = { blocked: 0, slow: 0 };
    const search = createFanOutSearch([
      { provider: fake("wikipedia", async () => [hit("https://en.wikipedia.org/wiki/A", 1)]), label: "Wikipedia" },
      {
        provider: fake("duckduckgo", async () => {
          asked.blocked++;
          throw new ExternalServiceError("DuckDuckGo answered with its bot check instead of results");
        }),
        label: "DuckDuckGo",
      },
      {
        provider: fake("searxng", async () => {
          asked.slow++;
          throw new ExternalServiceError("SearXNG did not answer within 30000 ms", { isRetryable: true });
        }),
        label: "SearXNG",
      },
    ]);
    const notices: string[] = [];
    for (let i = 0; i < 3; i++)
      expect(await search.search(query, { limit: 5, notice: (message) => notices.push(message) })).toHaveLength(1);
    // The bot check benches DuckDuckGo at once; SearXNG's timeouts, after two in a row.
    expect(asked).toEqual({ blocked: 1, slow: 2 });
    expect(
      notices.filter((notice) => notice.startsWith("DuckDuckGo was not asked: it failed earlier in this run")),
    ).toHaveLength(2);
  });

  it("fails when every provider failed, naming each; a UserError only when each was the user's to fix", async () => {
    const down = (message: string) =>
      fake("x", async () => {
        throw new ExternalServiceError(message);
      });
    const search = createFanOutSearch([
      { provider: down("timed out"), label: "A" },
      { provider: down("HTTP 503"), label: "B" },
    ]);
    await expect(search.search(query, { limit: 5 })).rejects.toThrow(
      "every search provider failed: A: timed out; B: HTTP 503",
    );
    await expect(search.search(query, { limit: 5 })).rejects.toBeInstanceOf(ExternalServiceError);
    const keyless = createFanOutSearch([
      {
        provider: fake("k", async () => {
          throw new UserError("needs a key");
        }),
        label: "K",
      },
    ]);
    await expect(keyless.search(query, { limit: 5 })).rejects.toBeInstanceOf(UserError);
  });

  it("asks only the providers that take the query, and refuses it when none does", async () => {
    let asked = 0;
    const search = createFanOutSearch([
      { provider: fake("a", async () => [], "pattern queries need a local corpus scope"), label: "A" },
      {
        provider: fake("b", async () => {
          asked++;
          return [hit("https://b.example/", 1)];
        }),
        label: "B",
      },
    ]);
    expect(search.checkQuery(query)).toBeUndefined();
    expect(await search.search(query, { limit: 5 })).toHaveLength(1);
    expect(asked).toBe(1);
    const none = createFanOutSearch([{ provider: fake("a", async () => [], "refused"), label: "A" }]);
    expect(none.checkQuery(query)).toBe("refused");
  });
});

describe("auto", () => {
  const serve = loopbackServers();
  const ddgPage = `<html><body><div class="result"><h2><a class="result__a" href="//duckduckgo.com/l/?uddg=${encodeURIComponent(
    "https://ddg.example/page",
  )}&amp;rut=1">DDG page</a></h2><a class="result__snippet">From DuckDuckGo.</a></div></body></html>`;
  const wikiReply = {
    batchcomplete: true,
    query: {
      searchinfo: { totalhits: 1 },
      search: [
        {
          ns: 0,
          title: "Transformer (deep learning)",
          pageid: 61603971,
          snippet: 'A <span class="searchmatch">transformer</span> is…',
        },
      ],
    },
  };

  it("uses DuckDuckGo and Wikipedia when no SearXNG answers, and says so", async () => {
    const ddg = await serve(textReply(ddgPage, "text/html"));
    const wiki = await serve({ body: wikiReply });
    const opened = await openSearchPlan(
      { kind: "auto", searxngUrl: "http://127.0.0.1:9/" },
      {
        apiKeyFor: () => undefined,
        probeTimeoutMs: 1_000,
        baseUrls: { duckduckgo: ddg.baseUrl, wikipedia: wiki.baseUrl },
      },
    );
    expect(opened.providers).toEqual(["duckduckgo", "wikipedia"]);
    expect(opened.label).toBe(
      "the web, searched with DuckDuckGo and Wikipedia (auto: SearXNG at 127.0.0.1:9 did not answer)",
    );
    const hits = await opened.provider.search({ kind: "text", text: "transformer" }, { limit: 5 });
    // DuckDuckGo's first hit, then Wikipedia's: the providers in the order auto names them.
    expect(hits.map((item) => item.anchor)).toEqual([
      "https://ddg.example/page",
      `${wiki.baseUrl}/wiki/Transformer_(deep_learning)`,
    ]);
  });

  it("uses the SearXNG that answers", async () => {
    const searxng = await serve({ body: { query: "assay", results: [] } });
    const opened = await openSearchPlan({ kind: "auto", searxngUrl: searxng.baseUrl }, { apiKeyFor: () => undefined });
    expect(opened.providers).toEqual(["searxng"]);
    expect(opened.label).toBe(`the web, searched with SearXNG at ${new URL(searxng.baseUrl).host} (auto)`);
    expect(opened.auto).toEqual({ searxngUrl: searxng.baseUrl, searxng: "answered" });
  });

  it("passes over a SearXNG that answers without its JSON (a 403 for a disabled format)", async () => {
    const searxng = await serve({ status: 403, raw: "<html>Forbidden</html>" });
    const opened = await openSearchPlan({ kind: "auto", searxngUrl: searxng.baseUrl }, { apiKeyFor: () => undefined });
    expect(opened.providers).toEqual(["duckduckgo", "wikipedia"]);
    expect(opened.label).toContain("answered HTTP 403");
  });
});
