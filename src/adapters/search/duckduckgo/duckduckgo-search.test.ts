/**
 * DuckDuckGo against a loopback server answering with its HTML results page (trimmed
 * fixtures in its real markup: organic results behind the `uddg` redirector, an ad, a
 * no-results page, and the bot-check page it serves to clients it takes for bots).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ExternalServiceError } from "../../../core/errors.js";
import { type ContractResult, loopbackServers, runSearchContract, textReply } from "../search-contract.js";
import { createDuckDuckGoSearch, DUCKDUCKGO_BLOCKED, resultTarget } from "./duckduckgo-search.js";
import { isChallengePage, parseDuckDuckGoPage } from "./duckduckgo-wire.js";

const fixture = (name: string): string => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), "utf8");
const HTML = "text/html; charset=UTF-8";

const escaped = (text: string): string => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;");

/** A results page in DuckDuckGo's markup listing `results` behind its redirector. */
function resultsPage(results: readonly ContractResult[]): string {
  const blocks = results.map((result) => {
    const href = `//duckduckgo.com/l/?uddg=${encodeURIComponent(result.url)}&amp;rut=0f1e2d3c`;
    return `<div class="result results_links results_links_deep web-result ">
      <div class="links_main links_deep result__body">
        <h2 class="result__title"><a rel="nofollow" class="result__a" href="${href}">${escaped(result.title)}</a></h2>
        <a class="result__snippet" href="${href}">${escaped(result.snippet)}</a>
      </div></div>`;
  });
  return `<!DOCTYPE html><html><body><div id="links" class="results">${blocks.join("\n")}</div></body></html>`;
}

runSearchContract("duckduckgo", {
  create: ({ baseUrl }) => createDuckDuckGoSearch({ baseUrl, retryBaseDelayMs: 5, minIntervalMs: 0 }),
  reply: (results) => textReply(resultsPage(results), HTML),
  malformed: {
    replies: [
      textReply("<html><body><h1>Down for maintenance</h1></body></html>", HTML),
      textReply('<html><body><div class="web-results"><a href="https://x.example/">x</a></div></body></html>', HTML),
    ],
    message:
      /DuckDuckGo answered with a body that is not HTML \(the page has neither results nor a no-results notice\)/,
  },
});

describe("DuckDuckGo", () => {
  const serve = loopbackServers();
  const query = { kind: "text", text: "lithium iron phosphate cycle life" } as const;
  const provider = (baseUrl: string, extra: { region?: string; minIntervalMs?: number } = {}) =>
    createDuckDuckGoSearch({ baseUrl, retryBaseDelayMs: 5, minIntervalMs: 0, ...extra });

  it("sends GET /html/?q=… and maps the recorded page: organic results unwrapped from the redirector, the ad left out", async () => {
    const server = await serve(textReply(fixture("duckduckgo-results.html"), HTML));
    const hits = await provider(server.baseUrl, { region: "de-DE" }).search(query, { limit: 10 });
    const [request] = server.seen;
    const url = new URL(request?.path ?? "", server.baseUrl);
    expect(request?.method).toBe("GET");
    expect(url.pathname).toBe("/html/");
    expect(Object.fromEntries(url.searchParams)).toEqual({ q: "lithium iron phosphate cycle life", kl: "de-de" });
    expect(request?.headers["user-agent"]).toMatch(/^Assay\//);
    expect(hits).toEqual([
      {
        anchor: "https://en.wikipedia.org/wiki/Lithium_iron_phosphate_battery",
        title: "Lithium iron phosphate battery - Wikipedia",
        snippet:
          "The lithium iron phosphate battery (LiFePO4 battery) or LFP battery is a type of lithium-ion battery … with a long cycle life & good thermal stability.",
        rank: 1,
        score: 1,
      },
      {
        anchor: "https://batteryuniversity.com/article/bu-808-how-to-prolong-lithium-based-batteries",
        title: "BU-808: How to Prolong Lithium-based Batteries",
        snippet:
          "Table 2 estimates the number of discharge/charge cycles Li-ion can deliver at various DoD levels before the capacity drops to 70 percent.",
        rank: 2,
        score: 0.5,
      },
      {
        anchor: "https://www.nature.com/articles/s41467-021-22070-7",
        title: "Cycle life of LiFePO4/graphite cells | Nature Communications",
        snippet:
          "We report the cycle life of commercial LiFePO4/graphite cells under fast charging – over 3,000 cycles at 1C.",
        rank: 3,
        score: 1 / 3,
      },
    ]);
  });

  it("returns no hits for its no-results page", async () => {
    const server = await serve(textReply(fixture("duckduckgo-no-results.html"), HTML));
    expect(await provider(server.baseUrl).search(query, { limit: 10 })).toEqual([]);
  });

  it("says it was blocked when it answers with its bot check, with HTTP 202 or 200, and does not retry", async () => {
    const server = await serve(
      { ...textReply(fixture("duckduckgo-challenge.html"), HTML), status: 202 },
      textReply(fixture("duckduckgo-challenge.html"), HTML),
    );
    for (let attempt = 0; attempt < 2; attempt++) {
      const failure = await provider(server.baseUrl)
        .search(query, { limit: 10 })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(failure).toBeInstanceOf(ExternalServiceError);
      expect(String(failure)).toContain(DUCKDUCKGO_BLOCKED);
    }
    expect(server.seen).toHaveLength(2);
  });

  it("says it was blocked on a 403, and retries a 429 without Retry-After after its backoff", async () => {
    const blocked = await serve({ status: 403, raw: "<html>Forbidden</html>" });
    await expect(provider(blocked.baseUrl).search(query, { limit: 5 })).rejects.toThrow(DUCKDUCKGO_BLOCKED);
    expect(blocked.seen).toHaveLength(1);
    const limited = await serve(
      { status: 429, raw: "<html>Too Many Requests</html>" },
      textReply(fixture("duckduckgo-results.html"), HTML),
    );
    expect(await provider(limited.baseUrl).search(query, { limit: 1 })).toHaveLength(1);
    expect(limited.seen).toHaveLength(2);
  });

  it("paces its requests: two searches start at least the interval apart", async () => {
    const server = await serve(
      textReply(fixture("duckduckgo-no-results.html"), HTML),
      textReply(fixture("duckduckgo-no-results.html"), HTML),
    );
    const paced = provider(server.baseUrl, { minIntervalMs: 300 });
    const arrivals: number[] = [];
    const asked = Date.now();
    await Promise.all(
      [0, 1].map(async () => {
        await paced.search(query, { limit: 5 });
        arrivals.push(Date.now());
      }),
    );
    expect(server.seen).toHaveLength(2);
    // A lower bound only, from when both asked: the second waits a full interval (a loaded machine may be later, never earlier).
    expect((arrivals[1] ?? 0) - asked).toBeGreaterThanOrEqual(298);
  });
});

describe("DuckDuckGo's page", () => {
  it("unwraps the redirector and keeps direct links", () => {
    expect(resultTarget("//duckduckgo.com/l/?uddg=https%3A%2F%2Fexample.org%2Fa%3Fb%3Dc&rut=x")).toBe(
      "https://example.org/a?b=c",
    );
    expect(resultTarget("https://example.org/direct")).toBe("https://example.org/direct");
    expect(resultTarget("//duckduckgo.com/l/?rut=x")).toBe("");
    expect(resultTarget("http://[bad")).toBe("");
  });

  it("tells the bot check from results", () => {
    expect(isChallengePage(fixture("duckduckgo-challenge.html"))).toBe(true);
    expect(isChallengePage(fixture("duckduckgo-results.html"))).toBe(false);
    expect(parseDuckDuckGoPage(fixture("duckduckgo-results.html")).results.map((result) => result.ad)).toEqual([
      true,
      false,
      false,
      false,
    ]);
  });
});
