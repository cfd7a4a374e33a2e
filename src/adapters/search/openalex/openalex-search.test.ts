/**
 * OpenAlex against a loopback server speaking its works API, with recorded-shape replies:
 * the request it sends (search, per_page, select, and mailto or a key only when configured),
 * the anchor each work gets, the abstract rebuilt from the inverted index, the work
 * metadata, and its errors (a 400, an error body sent with 200, 403 and 429).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ExternalServiceError, UserError } from "../../../core/errors.js";
import { type ContractResult, loopbackServers, runSearchContract } from "../search-contract.js";
import {
  abstractFromInvertedIndex,
  arxivIdOf,
  createOpenAlexSearch,
  OPENALEX_BASE_URL,
  openAlexResult,
} from "./openalex-search.js";
import { OPENALEX_SELECT, openAlexWorkSchema } from "./openalex-wire.js";

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), "utf8"));

/** The inverted index OpenAlex would list for `text`. */
function invertedIndex(text: string): Record<string, number[]> {
  const index: Record<string, number[]> = {};
  text.split(" ").forEach((word, position) => {
    index[word] = [...(index[word] ?? []), position];
  });
  return index;
}

const page = (works: readonly object[]) => ({
  meta: { count: works.length, db_response_time_ms: 7, page: 1, per_page: 25, groups_count: null },
  results: works,
  group_by: [],
});

/** A work with nothing but its id, to which a test adds the fields it is about. */
const bareWork = (id: string, fields: object = {}) => ({
  id,
  doi: null,
  display_name: `Work ${id}`,
  title: `Work ${id}`,
  publication_year: null,
  authorships: [],
  primary_location: null,
  best_oa_location: null,
  open_access: { is_oa: false, oa_url: null },
  abstract_inverted_index: null,
  ids: { openalex: id },
  ...fields,
});

const reply = (results: readonly ContractResult[]) =>
  page(
    results.map((result, index) => ({
      // The result's URL is the work's only address (its id and its open-access PDF), so a
      // work whose URL is unusable has nothing else to fall back on, as the contract expects.
      ...bareWork(result.url),
      display_name: result.title,
      title: result.title,
      best_oa_location: { is_oa: true, landing_page_url: null, pdf_url: result.url, source: null },
      open_access: { is_oa: true, oa_url: result.url },
      abstract_inverted_index: invertedIndex(result.snippet),
      relevance_score: 100 - index,
    })),
  );

runSearchContract("openalex", {
  create: ({ baseUrl, apiKey }) => createOpenAlexSearch({ baseUrl, apiKey, retryBaseDelayMs: 5 }),
  reply,
});

describe("OpenAlex", () => {
  const serve = loopbackServers();
  const query = { kind: "text", text: "open access prevalence" } as const;
  const paramsOf = (path: string | undefined) => Object.fromEntries(new URL(path ?? "", "http://x").searchParams);

  it("sends GET /works with search, per_page and select, and maps the recorded reply", async () => {
    const server = await serve({ body: fixture("openalex-works-search.json") });
    const hits = await createOpenAlexSearch({ baseUrl: server.baseUrl }).search(query, { limit: 5 });
    const [request] = server.seen;
    expect(request?.method).toBe("GET");
    expect(new URL(request?.path ?? "", server.baseUrl).pathname).toBe("/works");
    expect(paramsOf(request?.path)).toEqual({
      search: "open access prevalence",
      per_page: "5",
      select: OPENALEX_SELECT,
    });
    expect(request?.headers.accept).toBe("application/json");
    expect(hits).toEqual([
      {
        anchor: "https://peerj.com/articles/4375.pdf",
        title: "The state of OA: a large-scale analysis of the prevalence and impact of Open Access articles",
        snippet:
          "Despite growing interest in Open Access (OA) to scholarly literature, there is an unmet need for " +
          "large-scale, up-to-date, and reproducible studies assessing the prevalence and characteristics of OA.",
        rank: 1,
        score: 1,
        work: {
          doi: "10.7717/peerj.4375",
          pmid: "29456894",
          authors: ["Heather Piwowar", "Jason Priem"],
          venue: "PeerJ",
          year: 2018,
        },
      },
      {
        anchor: "http://arxiv.org/pdf/2205.01833",
        title: "OpenAlex: A fully-open index of scholarly works, authors, venues, institutions, and concepts",
        snippet:
          "OpenAlex is a new, fully-open scientific knowledge graph (SKG), launched to replace the discontinued " +
          "Microsoft Academic Graph (MAG).",
        rank: 2,
        score: 0.5,
        work: {
          doi: "10.48550/arxiv.2205.01833",
          arxivId: "2205.01833",
          authors: ["Jason Priem", "Heather Piwowar", "Richard Orr"],
          venue: "arXiv (Cornell University)",
          year: 2022,
        },
      },
      {
        // Closed access and no abstract: the publisher's landing page, and an empty snippet.
        anchor: "https://doi.org/10.1038/227680a0",
        title: "Cleavage of Structural Proteins during the Assembly of the Head of Bacteriophage T4",
        snippet: "",
        rank: 3,
        score: 1 / 3,
        work: { doi: "10.1038/227680a0", pmid: "5432063", authors: ["U. K. Laemmli"], venue: "Nature", year: 1970 },
      },
    ]);
  });

  it("returns no hits for an empty reply, and asks for at most 100 works", async () => {
    const server = await serve({ body: fixture("openalex-empty.json") });
    expect(await createOpenAlexSearch({ baseUrl: server.baseUrl }).search(query, { limit: 150 })).toEqual([]);
    expect(paramsOf(server.seen[0]?.path).per_page).toBe("100");
  });

  it("sends mailto only when one is configured, and refuses one that is not an address", async () => {
    const server = await serve({ body: fixture("openalex-empty.json") }, { body: fixture("openalex-empty.json") });
    await createOpenAlexSearch({ baseUrl: server.baseUrl, mailto: " research@example.org " }).search(query, {
      limit: 5,
    });
    await createOpenAlexSearch({ baseUrl: server.baseUrl, mailto: "  " }).search(query, { limit: 5 });
    expect(paramsOf(server.seen[0]?.path).mailto).toBe("research@example.org");
    expect(paramsOf(server.seen[1]?.path)).not.toHaveProperty("mailto");
    expect(() => createOpenAlexSearch({ mailto: "not an address" })).toThrow(UserError);
    expect(() => createOpenAlexSearch({ mailto: "research@example" })).toThrow(
      'the OpenAlex mailto "research@example" is not an email address',
    );
  });

  it("sends a configured API key as api_key, never follows a redirect with it, and keeps it out of messages", async () => {
    const key = "oa-key-7c1d9e3b5a";
    const server = await serve(
      { body: fixture("openalex-empty.json") },
      { status: 400, body: { error: "Invalid query parameters error.", message: `api_key ${key} is not valid.` } },
      { status: 302, headers: { location: "https://elsewhere.example/works" } },
    );
    const provider = createOpenAlexSearch({ baseUrl: server.baseUrl, apiKey: key });
    await provider.search(query, { limit: 5 });
    expect(paramsOf(server.seen[0]?.path).api_key).toBe(key);
    const failure = await provider.search(query, { limit: 5 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ExternalServiceError);
    expect(String(failure)).toContain("OpenAlex rejected the search (HTTP 400): api_key [redacted] is not valid.");
    expect(String(failure)).not.toContain(key);
    await expect(provider.search(query, { limit: 5 })).rejects.toThrow(/redirect \(HTTP 302\)/);
    expect(server.seen).toHaveLength(3);
    // Without a key, nothing of the kind is sent.
    const keyless = await serve({ body: fixture("openalex-empty.json") });
    await createOpenAlexSearch({ baseUrl: keyless.baseUrl }).search(query, { limit: 5 });
    expect(paramsOf(keyless.seen[0]?.path)).not.toHaveProperty("api_key");
  });

  it("anchors a work at its open-access landing page, else its DOI, else its OpenAlex record", async () => {
    const server = await serve({
      body: page([
        bareWork("https://openalex.org/W1", {
          best_oa_location: { is_oa: true, landing_page_url: "https://repo.example/item/1", pdf_url: null },
          primary_location: { landing_page_url: "https://publisher.example/1" },
        }),
        bareWork("https://openalex.org/W2", {
          open_access: { is_oa: true, oa_url: "https://repo.example/item/2" },
          primary_location: { landing_page_url: "https://publisher.example/2" },
        }),
        bareWork("https://openalex.org/W3", { primary_location: { landing_page_url: "https://publisher.example/3" } }),
        // An unusable URL is passed over for the next one.
        bareWork("https://openalex.org/W4", {
          doi: "https://doi.org/10.1000/XYZ.4",
          best_oa_location: { is_oa: true, pdf_url: "javascript:alert(1)", landing_page_url: "ftp://repo.example/4" },
        }),
        bareWork("https://openalex.org/W5", { ids: { openalex: "https://openalex.org/W5", doi: "10.1000/xyz.5" } }),
        bareWork("https://openalex.org/W6"),
      ]),
    });
    const hits = await createOpenAlexSearch({ baseUrl: server.baseUrl }).search(query, { limit: 10 });
    expect(hits.map((hit) => hit.anchor)).toEqual([
      "https://repo.example/item/1",
      "https://repo.example/item/2",
      "https://publisher.example/3",
      "https://doi.org/10.1000/XYZ.4",
      "https://doi.org/10.1000/xyz.5",
      "https://openalex.org/W6",
    ]);
    expect(hits.map((hit) => hit.work?.doi)).toEqual([
      undefined,
      undefined,
      undefined,
      "10.1000/xyz.4",
      "10.1000/xyz.5",
      undefined,
    ]);
    expect(hits[5]?.work).toEqual({ authors: [] });
  });

  it("strips markup from titles and venues", () => {
    const work = openAlexWorkSchema.parse(
      bareWork("https://openalex.org/W7", {
        display_name: "Growth of <i>E. coli</i> &amp; <i>B. subtilis</i>",
        primary_location: { landing_page_url: null, source: { display_name: "Journal of <b>Things</b> &#38; Stuff" } },
      }),
    );
    const result = openAlexResult(work, 0);
    expect(result.title).toBe("Growth of E. coli & B. subtilis");
    expect(result.work?.venue).toBe("Journal of Things & Stuff");
  });

  it("carries OpenAlex's message on a 400, without retrying", async () => {
    const server = await serve({ status: 400, body: fixture("openalex-invalid-parameter.json") });
    const failure = createOpenAlexSearch({ baseUrl: server.baseUrl }).search(query, { limit: 5 });
    await expect(failure).rejects.toBeInstanceOf(ExternalServiceError);
    await expect(failure).rejects.toThrow("OpenAlex rejected the search (HTTP 400): badfilter is not a valid field.");
    expect(server.seen).toHaveLength(1);
  });

  it("reads an error body sent with HTTP 200 as a refusal, not as no results", async () => {
    const server = await serve({ body: fixture("openalex-wildcard-refusal.json") });
    const failure = createOpenAlexSearch({ baseUrl: server.baseUrl }).search(query, { limit: 5 });
    await expect(failure).rejects.toBeInstanceOf(ExternalServiceError);
    await expect(failure).rejects.toThrow(
      "OpenAlex refused the search: Wildcards (* or ?) require exact (no-stem) search.",
    );
    expect(server.seen).toHaveLength(1);
  });

  it("searches a question by its words: the wildcards ? and * are not sent", async () => {
    const server = await serve({ body: fixture("openalex-empty.json") });
    const provider = createOpenAlexSearch({ baseUrl: server.baseUrl });
    await provider.search({ kind: "text", text: "does open access raise citations? *all* fields" }, { limit: 5 });
    expect(paramsOf(server.seen[0]?.path).search).toBe("does open access raise citations all fields");
    expect(provider.checkQuery({ kind: "text", text: " ?* ? " })).toBe("the query has no words to search");
    await expect(provider.search({ kind: "text", text: "??" }, { limit: 5 })).rejects.toBeInstanceOf(UserError);
    expect(server.seen).toHaveLength(1);
  });

  it("retries a 429 without Retry-After after its backoff, and gives up after the retries", async () => {
    const tooMany = { status: 429, body: { error: "Rate limit exceeded", message: "Too many requests." } };
    const server = await serve(tooMany, { body: fixture("openalex-empty.json") }, tooMany, tooMany, tooMany);
    const provider = createOpenAlexSearch({ baseUrl: server.baseUrl, retryBaseDelayMs: 5 });
    expect(await provider.search(query, { limit: 5 })).toEqual([]);
    expect(server.seen).toHaveLength(2);
    const failure = await provider.search(query, { limit: 5 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ExternalServiceError);
    expect(String(failure)).toContain("OpenAlex answered HTTP 429: Too many requests.");
    expect(server.seen).toHaveLength(5);
  });

  it("waits for a 429's Retry-After, and fails at once when it asks for longer than a search may wait", async () => {
    const server = await serve(
      { status: 429, body: { error: "Rate limit exceeded" }, headers: { "retry-after": "1" } },
      { body: fixture("openalex-empty.json") },
      { status: 429, body: { error: "Rate limit exceeded" }, headers: { "retry-after": "3600" } },
    );
    const provider = createOpenAlexSearch({ baseUrl: server.baseUrl, retryBaseDelayMs: 5 });
    const started = Date.now();
    expect(await provider.search(query, { limit: 5 })).toEqual([]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    await expect(provider.search(query, { limit: 5 })).rejects.toThrow(/asks to wait 3600 s/);
    expect(server.seen).toHaveLength(3);
  });

  it("reads a 403 without a key as OpenAlex refusing the client, not as a wrong key", async () => {
    const server = await serve({ status: 403, body: { error: "Forbidden", message: "Rate limit exceeded." } });
    const failure = createOpenAlexSearch({ baseUrl: server.baseUrl }).search(query, { limit: 5 });
    await expect(failure).rejects.toBeInstanceOf(ExternalServiceError);
    await expect(failure).rejects.toThrow("OpenAlex refused the request (HTTP 403): Rate limit exceeded.");
    expect(server.seen).toHaveLength(1);
  });

  it("defaults to api.openalex.org and refuses a base URL that is not http(s)", async () => {
    const requested: string[] = [];
    const fetch: typeof globalThis.fetch = async (input) => {
      requested.push(String(input));
      return new Response(JSON.stringify(fixture("openalex-empty.json")), {
        headers: { "content-type": "application/json" },
      });
    };
    await createOpenAlexSearch({ fetch }).search(query, { limit: 5 });
    expect(OPENALEX_BASE_URL).toBe("https://api.openalex.org/");
    expect(requested[0]).toMatch(/^https:\/\/api\.openalex\.org\/works\?search=open\+access\+prevalence&/);
    expect(() => createOpenAlexSearch({ baseUrl: "file:///etc" })).toThrow(UserError);
  });
});

describe("abstractFromInvertedIndex", () => {
  it("puts each word at its positions, whatever order they are listed in", () => {
    expect(abstractFromInvertedIndex({ world: [1], hello: [0], again: [3], "and,": [2] })).toBe(
      "hello world and, again",
    );
    expect(abstractFromInvertedIndex({ b: [2, 0], a: [1] })).toBe("b a b");
  });

  it("repeats a word listed at several positions", () => {
    expect(abstractFromInvertedIndex({ the: [0, 3], cat: [1], saw: [2], dog: [4] })).toBe("the cat saw the dog");
  });

  it("closes gaps in the positions", () => {
    expect(abstractFromInvertedIndex({ first: [0], later: [7], last: [42] })).toBe("first later last");
  });

  it("keeps the first word listed for a position claimed twice", () => {
    expect(abstractFromInvertedIndex({ one: [0], uno: [0], two: [1] })).toBe("one two");
  });

  it("ignores positions that are negative, fractional or beyond 20 000, and empty words", () => {
    expect(abstractFromInvertedIndex({ ok: [0], bad: [-1, 1.5, 20_000, 1e12], "  ": [2], fine: [3] })).toBe("ok fine");
  });

  it("stops at maxWords", () => {
    expect(abstractFromInvertedIndex(invertedIndex("a b c d e f"), 3)).toBe("a b c");
  });

  it("is empty for a null, missing or empty index", () => {
    expect(abstractFromInvertedIndex(null)).toBe("");
    expect(abstractFromInvertedIndex(undefined)).toBe("");
    expect(abstractFromInvertedIndex({})).toBe("");
    expect(abstractFromInvertedIndex({ word: [] })).toBe("");
  });
});

describe("arxivIdOf", () => {
  it("reads an arXiv DOI or an arxiv.org address, without its version", () => {
    expect(arxivIdOf("10.48550/arxiv.1706.03762", [])).toBe("1706.03762");
    expect(arxivIdOf(undefined, ["https://arxiv.org/abs/1706.03762v7"])).toBe("1706.03762");
    expect(arxivIdOf(undefined, [null, "http://arxiv.org/pdf/2205.01833v2.pdf"])).toBe("2205.01833");
    expect(arxivIdOf(undefined, ["https://arxiv.org/abs/hep-th/9901001v1"])).toBe("hep-th/9901001");
    expect(arxivIdOf("10.1038/nature14539", ["https://www.nature.com/articles/nature14539"])).toBeUndefined();
    expect(arxivIdOf(undefined, ["https://arxiv.org/abs/not-an-id"])).toBeUndefined();
  });
});
