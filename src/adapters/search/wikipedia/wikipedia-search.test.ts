/**
 * Wikipedia against a loopback server speaking the MediaWiki Action API, with recorded-shape
 * replies: the shared contract, with anchors built from article titles on the searched wiki;
 * then the exact request (every parameter, the User-Agent), the mapping of the recorded
 * reply, MediaWiki's errors sent with HTTP 200, 429 without Retry-After, and the language's wiki.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ExternalServiceError, UserError } from "../../../core/errors.js";
import { ASSAY_USER_AGENT } from "../../../version.js";
import { loopbackServers, runSearchContract } from "../search-contract.js";
import {
  articleUrl,
  createWikipediaSearch,
  WIKIPEDIA_BASE_URL,
  wikipediaBaseUrl,
  wikipediaLanguage,
} from "./wikipedia-search.js";

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), "utf8"));

interface Article {
  title: string;
  snippet: string;
}

/** A successful formatversion=2 reply listing `articles` in order. */
const reply = (articles: readonly Article[]) => ({
  batchcomplete: true,
  continue: { sroffset: articles.length, continue: "-||" },
  query: {
    searchinfo: { totalhits: articles.length * 10 },
    search: articles.map((article, index) => ({ ns: 0, pageid: 1000 + index, ...article })),
  },
});

const article = (index: number, title = `Page ${index}`): Article => ({
  title,
  snippet: `Snippet of <span class="searchmatch">page</span> ${index}.`,
});

const text = { kind: "text", text: "lithium iron phosphate cycle life" } as const;

runSearchContract("wikipedia", {
  create: ({ baseUrl }) => createWikipediaSearch({ baseUrl, retryBaseDelayMs: 5 }),
  // The snippet with the search match marked, as MediaWiki sends it.
  reply: (results) =>
    reply(
      results.map((result) => ({
        title: result.title,
        snippet: result.snippet.replace("page", '<span class="searchmatch">page</span>'),
      })),
    ),
  anchorFor: (result, baseUrl) => `${baseUrl}/wiki/${result.title.replace(/ /g, "_")}`,
});

describe("Wikipedia", () => {
  const serve = loopbackServers();

  it("sends GET /w/api.php with every search parameter and its User-Agent, and maps the recorded reply", async () => {
    const server = await serve({ body: fixture("wikipedia-search.json") });
    const hits = await createWikipediaSearch({ baseUrl: server.baseUrl }).search(
      { kind: "text", text: "Nelson Mandela" },
      { limit: 2 },
    );
    const [request] = server.seen;
    const url = new URL(request?.path ?? "", server.baseUrl);
    expect(request?.method).toBe("GET");
    expect(url.pathname).toBe("/w/api.php");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      action: "query",
      list: "search",
      srsearch: "Nelson Mandela",
      srlimit: "2",
      format: "json",
      formatversion: "2",
      srprop: "snippet",
    });
    expect(request?.headers["user-agent"]).toBe(ASSAY_USER_AGENT);
    expect(ASSAY_USER_AGENT).toMatch(/^Assay\/\d+\.\d+\.\d+ \(.+\)$/);
    expect(request?.headers.accept).toBe("application/json");
    expect(hits).toEqual([
      {
        anchor: `${server.baseUrl}/wiki/Nelson_Mandela`,
        title: "Nelson Mandela",
        snippet:
          "Nelson Rolihlahla Mandela (/mænˈdɛlə/, Xhosa: [xoliɬaˈɬa manˈdɛla]; 18 July 1918 – 5 December 2013) " +
          "was a South African anti-apartheid revolutionary,",
        rank: 1,
        score: 1,
      },
      {
        anchor: `${server.baseUrl}/wiki/Death_of_Nelson_Mandela`,
        title: "Death of Nelson Mandela",
        snippet:
          "On December 5, 2013, Nelson Mandela, the first President of South Africa to be elected in a fully " +
          "representative democratic election, as well as the country's",
        rank: 2,
        score: 0.5,
      },
    ]);
    for (const hit of hits) expect(hit).not.toHaveProperty("work");
  });

  it("keeps a base URL's path for the API and the articles", async () => {
    const server = await serve({ body: reply([article(1, "Lithium iron phosphate battery")]) });
    const hits = await createWikipediaSearch({ baseUrl: `${server.baseUrl}/mirror` }).search(text, { limit: 5 });
    expect(new URL(server.seen[0]?.path ?? "", server.baseUrl).pathname).toBe("/mirror/w/api.php");
    expect(hits[0]?.anchor).toBe(`${server.baseUrl}/mirror/wiki/Lithium_iron_phosphate_battery`);
  });

  it("writes article addresses as MediaWiki does", () => {
    const base = new URL("https://en.wikipedia.org/");
    expect(articleUrl(base, "C++")).toBe("https://en.wikipedia.org/wiki/C%2B%2B");
    expect(articleUrl(base, "AC/DC")).toBe("https://en.wikipedia.org/wiki/AC/DC");
    expect(articleUrl(base, "Ohm's law")).toBe("https://en.wikipedia.org/wiki/Ohm%27s_law");
    expect(articleUrl(base, "Zürich")).toBe("https://en.wikipedia.org/wiki/Z%C3%BCrich");
    expect(articleUrl(base, "Rock & roll?")).toBe("https://en.wikipedia.org/wiki/Rock_%26_roll%3F");
    expect(articleUrl(base, "Star Trek: The Next Generation")).toBe(
      "https://en.wikipedia.org/wiki/Star_Trek:_The_Next_Generation",
    );
    expect(articleUrl(base, "100% (song) #1")).toBe("https://en.wikipedia.org/wiki/100%25_(song)_%231");
  });

  it("returns no hits for an empty reply, and asks for at most 500 results", async () => {
    const server = await serve({ body: fixture("wikipedia-empty.json") });
    expect(await createWikipediaSearch({ baseUrl: server.baseUrl }).search(text, { limit: 900 })).toEqual([]);
    expect(new URL(server.seen[0]?.path ?? "", server.baseUrl).searchParams.get("srlimit")).toBe("500");
  });

  it("reads an error body sent with HTTP 200 as a refusal, without retrying", async () => {
    const server = await serve({ body: fixture("wikipedia-error.json") });
    const failure = await createWikipediaSearch({ baseUrl: server.baseUrl, retryBaseDelayMs: 5 })
      .search(text, { limit: 5 })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ExternalServiceError);
    expect((failure as ExternalServiceError).isRetryable).toBe(false);
    expect(String(failure)).toContain(
      'Wikipedia refused the search (nosrsearch): The "srsearch" parameter must be set.',
    );
    expect(server.seen).toHaveLength(1);
  });

  it("reads the errors array of the non-legacy error formats too", async () => {
    const server = await serve({
      body: {
        errors: [{ code: "badvalue", text: 'Unrecognized value for parameter "list": search.', module: "main" }],
        docref: "See https://en.wikipedia.org/w/api.php for API usage.",
        servedby: "mw-api-ext.eqiad.main-7d9c6b8f5-x2k4q",
      },
    });
    await expect(createWikipediaSearch({ baseUrl: server.baseUrl }).search(text, { limit: 5 })).rejects.toThrow(
      'Wikipedia refused the search (badvalue): Unrecognized value for parameter "list": search.',
    );
    expect(server.seen).toHaveLength(1);
  });

  it("retries a rate limit or lag reported with HTTP 200, and says so when it persists", async () => {
    const limited = { body: fixture("wikipedia-ratelimited.json") };
    const lagged = { body: { error: { code: "maxlag", info: "Waiting for 10.64.16.8: 6 seconds lagged.", lag: 6 } } };
    const server = await serve(limited, lagged, { body: reply([article(1)]) }, limited, limited, limited);
    const provider = createWikipediaSearch({ baseUrl: server.baseUrl, retryBaseDelayMs: 5 });
    expect(await provider.search(text, { limit: 5 })).toHaveLength(1);
    expect(server.seen).toHaveLength(3);
    const failure = await provider.search(text, { limit: 5 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ExternalServiceError);
    expect((failure as ExternalServiceError).isRetryable).toBe(true);
    expect(String(failure)).toContain("Wikipedia refused the search (ratelimited): As an anti-abuse measure");
    expect(server.seen).toHaveLength(6);
  });

  it("retries a 429 without Retry-After after its backoff", async () => {
    const server = await serve({ status: 429, raw: "Too many requests" }, { body: reply([article(1)]) });
    const hits = await createWikipediaSearch({ baseUrl: server.baseUrl, retryBaseDelayMs: 5 }).search(text, {
      limit: 5,
    });
    expect(hits).toHaveLength(1);
    expect(server.seen).toHaveLength(2);
  });

  it("reads a 401 or 403 as Wikimedia refusing the client, not as a wrong key", async () => {
    const server = await serve(
      { status: 401, body: { error: { code: "unauthorized", info: "Log in first." } } },
      { status: 403, raw: "Please set a user-agent and respect our robot policy https://w.wiki/4wJS." },
    );
    const provider = createWikipediaSearch({ baseUrl: server.baseUrl });
    for (const refused of ["(HTTP 401): Log in first.", "(HTTP 403)"]) {
      const failure = provider.search(text, { limit: 5 });
      await expect(failure).rejects.toBeInstanceOf(ExternalServiceError);
      await expect(failure).rejects.toThrow(`Wikipedia refused the request ${refused}`);
    }
    expect(server.seen).toHaveLength(2);
  });

  it("refuses queries beyond the 300 characters CirrusSearch accepts", () => {
    const provider = createWikipediaSearch();
    expect(provider.checkQuery({ kind: "text", text: "a".repeat(301) })).toMatch(/300 characters/);
    expect(provider.checkQuery({ kind: "text", text: "a".repeat(300) })).toBeUndefined();
  });

  it("searches the report language's Wikipedia and anchors its articles there", async () => {
    const requested: string[] = [];
    const fetch: typeof globalThis.fetch = async (input) => {
      requested.push(String(input));
      return new Response(JSON.stringify(reply([article(1, "Lithium-Eisenphosphat-Akkumulator")])), {
        headers: { "content-type": "application/json" },
      });
    };
    const german = await createWikipediaSearch({ language: "de", fetch }).search(text, { limit: 5 });
    const english = await createWikipediaSearch({ fetch }).search(text, { limit: 5 });
    const brazilian = await createWikipediaSearch({ language: "pt-BR", fetch }).search(text, { limit: 5 });
    expect(requested.map((url) => new URL(url).origin + new URL(url).pathname)).toEqual([
      "https://de.wikipedia.org/w/api.php",
      "https://en.wikipedia.org/w/api.php",
      "https://pt.wikipedia.org/w/api.php",
    ]);
    expect(german[0]?.anchor).toBe("https://de.wikipedia.org/wiki/Lithium-Eisenphosphat-Akkumulator");
    expect(english[0]?.anchor).toBe("https://en.wikipedia.org/wiki/Lithium-Eisenphosphat-Akkumulator");
    expect(brazilian[0]?.anchor).toBe("https://pt.wikipedia.org/wiki/Lithium-Eisenphosphat-Akkumulator");
  });

  it("says to check the language when its wiki answers with a redirect", async () => {
    const fetch: typeof globalThis.fetch = async () =>
      new Response(null, { status: 301, headers: { location: "https://www.wikipedia.org/" } });
    const failure = createWikipediaSearch({ language: "xx", fetch }).search(text, { limit: 5 });
    await expect(failure).rejects.toBeInstanceOf(UserError);
    await expect(failure).rejects.toThrow(
      'https://xx.wikipedia.org answered with a redirect (HTTP 301): check that "xx" is the code of a Wikipedia edition',
    );
  });

  it("accepts language codes that are safe subdomains, and refuses any other as a UserError naming it", () => {
    expect(WIKIPEDIA_BASE_URL).toBe("https://en.wikipedia.org/");
    expect(wikipediaBaseUrl(undefined)).toBe(WIKIPEDIA_BASE_URL);
    expect(wikipediaLanguage(" DE ")).toBe("de");
    expect(wikipediaLanguage("en-GB")).toBe("en");
    expect(wikipediaLanguage("zh_Hant_TW")).toBe("zh");
    expect(wikipediaLanguage("es-419")).toBe("es");
    expect(wikipediaLanguage("zh-yue")).toBe("zh-yue");
    expect(wikipediaLanguage("be-tarask")).toBe("be-tarask");
    for (const bad of ["", "e", "english", "en.evil.example", "en/..", "de:8080", "-de", "en-", "d3"]) {
      expect(() => createWikipediaSearch({ language: bad })).toThrow(UserError);
    }
    expect(() => createWikipediaSearch({ language: "en.evil.example" })).toThrow(
      'the Wikipedia language "en.evil.example" is not a language code such as "en" or "de"',
    );
  });
});
