/**
 * PubMed against a loopback server speaking NCBI's E-utilities, with recorded replies from
 * `__fixtures__/`: `pubmed-esummary.json` gathers three DocSums as ESummary returned them
 * (PMID 40642746 in 2025, with PMC and DOI ids; 30089069 in 2026; 9565568, without a DOI),
 * and `pubmed-esearch.json` keeps the shape and translation of ESearch's recorded reply for
 * "high blood pressure" with its idlist set to those three PMIDs. `pubmed-esearch-empty.json`
 * is a recorded search that found nothing (`errorlist`, "No items found."),
 * `pubmed-esearch-error.json` and `pubmed-esummary-error.json` recorded error bodies sent with
 * HTTP 200, and `pubmed-rate-limit.json` the body NCBI sends with its 429 (the caller's address
 * replaced by a documentation address).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ExternalServiceError, UserError } from "../../../core/errors.js";
import { NEVER_MS, type ScriptedReply, startResponder } from "../../../testing/loopback-http.js";
import { type ContractResult, contractPage, loopbackServers, runSearchContract } from "../search-contract.js";
import { createPubmedSearch } from "./pubmed-search.js";

const KEY = "ncbi-test-key-8c3f1a9e27d4b6";
const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), "utf8"));

const esearch = (ids: readonly string[]): ScriptedReply => ({
  body: {
    header: { type: "esearch", version: "0.3" },
    esearchresult: {
      count: String(ids.length),
      retmax: String(ids.length),
      retstart: "0",
      idlist: ids,
      translationset: [],
      querytranslation: "lithium[All Fields]",
    },
  },
});

const docSum = (pmid: string) => ({
  uid: pmid,
  pubdate: "2021 Mar 15",
  epubdate: "",
  source: "J Test",
  authors: [{ name: "Lovelace A", authtype: "Author", clusterid: "" }],
  title: `Paper ${pmid}.`,
  articleids: [{ idtype: "pubmed", idtypen: 1, value: pmid }],
  fulljournalname: "Journal of testing",
  sortpubdate: "2021/03/15 00:00",
});

const esummary = (ids: readonly string[], records: Record<string, unknown> = {}): ScriptedReply => ({
  body: {
    header: { type: "esummary", version: "0.3" },
    result: { uids: ids, ...Object.fromEntries(ids.map((id) => [id, docSum(id)])), ...records },
  },
});

const paramsOf = (path: string | undefined) => Object.fromEntries(new URL(path ?? "", "http://127.0.0.1").searchParams);
const text = { kind: "text", text: "lithium iron phosphate cycle life" } as const;

/** The PMID of a contract result: its page number; undefined without one. */
const pmidOf = (result: ContractResult): string | undefined => contractPage(result.url)?.toString();

runSearchContract("pubmed", {
  create: ({ baseUrl, apiKey }) => createPubmedSearch({ baseUrl, apiKey, retryBaseDelayMs: 5, minIntervalMs: 0 }),
  requestsPerSearch: 2,
  // ESearch lists each result's PMID (a result without one, an id that is no PMID); ESummary
  // summarizes the first result of each PMID, its snippet as the journal, without a date.
  reply: (results) => {
    const first = new Map<string, ContractResult>();
    for (const result of results) {
      const pmid = pmidOf(result);
      if (pmid !== undefined && !first.has(pmid)) first.set(pmid, result);
    }
    const summaries = [...first].map(([pmid, result]) => {
      const summary = { ...docSum(pmid), title: result.title, fulljournalname: result.snippet, pubdate: "" };
      return [pmid, summary] as const;
    });
    return [
      esearch(results.map((result) => pmidOf(result) ?? "not-a-pmid")).body,
      esummary([...first.keys()], Object.fromEntries(summaries)).body,
    ];
  },
  anchorFor: (result) => {
    const pmid = pmidOf(result);
    return pmid && `https://pubmed.ncbi.nlm.nih.gov/${pmid}/`;
  },
  malformed: {
    replies: [{ raw: "<html>not json" }, { body: { unexpected: true } }],
    message: [
      /PubMed answered with a body that is not JSON/,
      /PubMed answered with JSON of an unexpected shape \(esearchresult: /,
    ],
  },
});

describe("PubMed", () => {
  const serve = loopbackServers();
  const provider = (baseUrl: string) => createPubmedSearch({ baseUrl, retryBaseDelayMs: 5, minIntervalMs: 0 });
  const query = { kind: "text", text: "high blood pressure" } as const;

  it("sends ESearch then ESummary, and maps the recorded summaries in ESearch's order", async () => {
    const server = await serve({ body: fixture("pubmed-esearch.json") }, { body: fixture("pubmed-esummary.json") });
    const hits = await provider(server.baseUrl).search(query, { limit: 5 });
    const [searched, summarized] = server.seen;
    expect(searched?.method).toBe("GET");
    expect(new URL(searched?.path ?? "", server.baseUrl).pathname).toBe("/entrez/eutils/esearch.fcgi");
    expect(paramsOf(searched?.path)).toEqual({
      db: "pubmed",
      term: "high blood pressure",
      retmax: "5",
      sort: "relevance",
      retmode: "json",
    });
    expect(new URL(summarized?.path ?? "", server.baseUrl).pathname).toBe("/entrez/eutils/esummary.fcgi");
    expect(paramsOf(summarized?.path)).toEqual({ db: "pubmed", id: "40642746,30089069,9565568", retmode: "json" });
    expect(hits).toEqual([
      {
        anchor: "https://pubmed.ncbi.nlm.nih.gov/40642746/",
        title: "Interaction of ferroptosis and cuproptosis in the perspective of pulmonary hypertension.",
        snippet: "Frontiers in cardiovascular medicine, 2025",
        rank: 1,
        score: 1,
        work: {
          pmid: "40642746",
          doi: "10.3389/fcvm.2025.1611449",
          authors: ["Yang Y", "Liang L", "Pei W", "Sun Y"],
          venue: "Frontiers in cardiovascular medicine",
          year: 2025,
        },
      },
      {
        anchor: "https://pubmed.ncbi.nlm.nih.gov/30089069/",
        title: "Acute Viral Encephalitis.",
        snippet: "The New England journal of medicine, 2018 Aug 9",
        rank: 2,
        score: 0.5,
        work: {
          pmid: "30089069",
          doi: "10.1056/nejmra1708714",
          authors: ["Tyler KL"],
          venue: "The New England journal of medicine",
          year: 2018,
        },
      },
      {
        anchor: "https://pubmed.ncbi.nlm.nih.gov/9565568/",
        title: expect.stringMatching(/^Simultaneous expression of type 1 and type 2 Lewis blood group antigens/),
        snippet: "The Journal of biological chemistry, 1998 May 8",
        rank: 3,
        score: 1 / 3,
        work: {
          pmid: "9565568",
          authors: expect.arrayContaining(["Monteiro MA", "Perry MB"]),
          venue: "The Journal of biological chemistry",
          year: 1998,
        },
      },
    ]);
    expect(hits[2]?.work?.authors).toHaveLength(12);
  });

  it("asks ESummary for ESearch's PMIDs in its order, once each, and for no id that is not one", async () => {
    const server = await serve(esearch(["101", "102", "not-a-pmid", "101", "105"]), esummary(["101", "102", "105"]));
    const hits = await provider(server.baseUrl).search(query, { limit: 10 });
    expect(paramsOf(server.seen[1]?.path).id).toBe("101,102,105");
    expect(hits.map((hit) => hit.work?.pmid)).toEqual(["101", "102", "105"]);
  });

  it("sends the key, tool and email with both requests, and never follows a redirect", async () => {
    const server = await serve(esearch(["1"]), esummary(["1"]), {
      status: 302,
      raw: "",
      headers: { location: "https://elsewhere.example/esearch" },
    });
    const pubmed = createPubmedSearch({
      baseUrl: server.baseUrl,
      apiKey: ` ${KEY} `,
      tool: "assay",
      email: "research@example.org",
      minIntervalMs: 0,
    });
    await pubmed.search(text, { limit: 5 });
    for (const request of server.seen) {
      expect(paramsOf(request.path)).toMatchObject({ api_key: KEY, tool: "assay", email: "research@example.org" });
    }
    const failure = await pubmed.search(text, { limit: 5 }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(UserError);
    expect(String(failure)).toContain("redirect");
    expect(String(failure)).not.toContain(KEY);
    expect(server.seen).toHaveLength(3);
  });

  it("returns no hits without asking ESummary when ESearch found nothing", async () => {
    const server = await serve({ body: fixture("pubmed-esearch-empty.json") });
    expect(await provider(server.baseUrl).search(query, { limit: 5 })).toEqual([]);
    expect(server.seen).toHaveLength(1);
  });

  it("reads ESearch's error body, sent with HTTP 200, as a refusal, without retrying", async () => {
    const server = await serve({ body: fixture("pubmed-esearch-error.json") });
    const failure = provider(server.baseUrl).search(query, { limit: 5 });
    await expect(failure).rejects.toBeInstanceOf(ExternalServiceError);
    await expect(failure).rejects.toThrow("PubMed refused the search: Empty term and query_key - nothing todo");
    await expect(failure).rejects.toMatchObject({ isRetryable: false });
    expect(server.seen).toHaveLength(1);
  });

  it("reads ESummary's error body as a refusal", async () => {
    const server = await serve(esearch(["1"]), { body: fixture("pubmed-esummary-error.json") });
    await expect(provider(server.baseUrl).search(query, { limit: 5 })).rejects.toThrow(
      "PubMed refused the search: Invalid uid Z19565568 at position=0",
    );
    expect(server.seen).toHaveLength(2);
  });

  it("reads a rejected API key as the user's to fix, without the key", async () => {
    const server = await serve({
      status: 400,
      body: { error: "API key invalid", "api-key": KEY, type: "invalid", status: "unknown" },
    });
    const failure = await createPubmedSearch({ baseUrl: server.baseUrl, apiKey: KEY, minIntervalMs: 0 })
      .search(query, { limit: 5 })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(failure).toBeInstanceOf(UserError);
    expect(String(failure)).toContain("PubMed refused the API key (HTTP 400): correct NCBI_API_KEY");
    expect(String(failure)).not.toContain(KEY);
    expect(server.seen).toHaveLength(1);
  });

  it("retries the rate-limit body after its own backoff, with a 429 or with a 200", async () => {
    const server = await serve(
      { status: 429, body: fixture("pubmed-rate-limit.json") },
      esearch(["1"]),
      { body: fixture("pubmed-rate-limit.json") },
      esummary(["1"]),
    );
    expect(await provider(server.baseUrl).search(query, { limit: 5 })).toHaveLength(1);
    expect(server.seen).toHaveLength(4);
  });

  it("does not wait for a Retry-After beyond 10 s, and says how long NCBI asked for", async () => {
    const server = await serve({
      status: 429,
      body: fixture("pubmed-rate-limit.json"),
      headers: { "retry-after": "60" },
    });
    await expect(provider(server.baseUrl).search(query, { limit: 5 })).rejects.toThrow(
      "PubMed answered HTTP 429: API rate limit exceeded; it asks to wait 60 s",
    );
    expect(server.seen).toHaveLength(1);
  });

  it("skips a PMID NCBI could not summarize, strips markup from titles and finds the year in sortpubdate", async () => {
    const server = await serve(
      esearch(["1", "2", "3"]),
      esummary(["1", "2", "3"], {
        "2": { uid: "2", error: "cannot get document summary" },
        "3": {
          ...docSum("3"),
          title: "Effects of <i>Helicobacter pylori</i> on &lt;gastric&gt; cells.",
          pubdate: "",
          sortpubdate: "2019/10/01 00:00",
          fulljournalname: "",
          elocationid: "doi: 10.1000/EXAMPLE.3",
        },
      }),
    );
    const hits = await provider(server.baseUrl).search(query, { limit: 5 });
    expect(hits.map((hit) => hit.work?.pmid)).toEqual(["1", "3"]);
    expect(hits[1]).toMatchObject({
      title: "Effects of Helicobacter pylori on <gastric> cells.",
      snippet: "J Test",
      work: { pmid: "3", doi: "10.1000/example.3", venue: "J Test", year: 2019 },
    });
  });

  it("fails as retryable when the search outlasts its time limit", async () => {
    const server = await serve(esearch(["1"]), { ...esummary(["1"]), delayMs: NEVER_MS });
    const failure = createPubmedSearch({ baseUrl: server.baseUrl, timeoutMs: 300, minIntervalMs: 0 }).search(query, {
      limit: 5,
    });
    await expect(failure).rejects.toBeInstanceOf(ExternalServiceError);
    await expect(failure).rejects.toThrow("PubMed did not answer within 300 ms");
    await expect(failure).rejects.toMatchObject({ isRetryable: true });
  });

  it("fails on an ESummary body that is not JSON", async () => {
    const server = await serve(esearch(["1"]), { raw: "<html><body>Bad Gateway</body></html>" });
    await expect(provider(server.baseUrl).search(query, { limit: 5 })).rejects.toThrow(
      /PubMed answered with a body that is not JSON/,
    );
  });

  it("paces its requests, the two of one search too", async () => {
    const seenAt: number[] = [];
    const server = await startResponder((request) => {
      seenAt.push(Date.now());
      return request.path.includes("esearch") ? esearch(["1"]) : esummary(["1"]);
    });
    try {
      // Without a key or an override: NCBI's three requests per second, 334 ms apart.
      const keyless = createPubmedSearch({ baseUrl: server.baseUrl });
      let started = Date.now();
      await keyless.search(query, { limit: 5 });
      // A lower bound only, less a little for timers that fire on a loop clock read before the wait began.
      expect((seenAt[1] ?? 0) - started).toBeGreaterThanOrEqual(334 - 50);
      const paced = createPubmedSearch({ baseUrl: server.baseUrl, apiKey: KEY, minIntervalMs: 300 });
      started = Date.now();
      await paced.search(query, { limit: 5 });
      await paced.search(query, { limit: 5 });
      expect(seenAt).toHaveLength(6);
      expect((seenAt[5] ?? 0) - started).toBeGreaterThanOrEqual(3 * 300 - 50);
    } finally {
      await server.close();
    }
  });
});
