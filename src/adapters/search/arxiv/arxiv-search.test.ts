/**
 * arXiv against a loopback server speaking its Atom API, with recorded feeds from
 * `__fixtures__/`: `arxiv-search.xml` (three entries of a 2026 reply to `all:testing`, as
 * arxiv.py's test suite recorded it), `arxiv-search-2019.xml` (three entries of a 2019 reply
 * to `all:science`: the older layout, with namespaces declared on each element, wrapped text
 * and old-style ids), `arxiv-empty.xml` (a feed without entries) and `arxiv-error.xml` (the
 * error feed arXiv sent with HTTP 400 for `id_list=abc`).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ExternalServiceError, UserError } from "../../../core/errors.js";
import { type ScriptedReply, startResponder } from "../../../testing/loopback-http.js";
import {
  type ContractResult,
  contractPage,
  loopbackServers,
  runSearchContract,
  textReply,
} from "../search-contract.js";
import { arxivSearchQuery, createArxivSearch } from "./arxiv-search.js";

const fixture = (name: string): string => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), "utf8");
const atom = (xml: string, status?: number): ScriptedReply => ({
  ...textReply(xml, "application/atom+xml; charset=utf-8"),
  ...(status === undefined ? {} : { status }),
});
const escaped = (text: string): string => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;");

interface Entry {
  id: string;
  title: string;
  summary: string;
}

/** A feed in arXiv's current layout listing `entries`, each with its abstract page and PDF. */
const feed = (entries: readonly Entry[]): string =>
  `<?xml version='1.0' encoding='UTF-8'?>
<feed xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/" xmlns:arxiv="http://arxiv.org/schemas/atom" xmlns="http://www.w3.org/2005/Atom">
  <id>https://arxiv.org/api/test</id>
  <title>arXiv Query: search_query=all:lithium</title>
  <opensearch:totalResults>${entries.length}</opensearch:totalResults>
${entries
  .map(
    ({ id, title, summary }) => `  <entry>
    <id>${escaped(id)}</id>
    <title>${escaped(title)}</title>
    <link href="${escaped(id)}" rel="alternate" type="text/html"/>
    <link href="${escaped(id.replace("/abs/", "/pdf/"))}" rel="related" type="application/pdf" title="pdf"/>
    <summary>${escaped(summary)}</summary>
    <published>2021-01-01T00:00:00Z</published>
    <author>
      <name>Ada Lovelace</name>
    </author>
  </entry>`,
  )
  .join("\n")}
</feed>
`;

/** The arXiv id of a contract result: one per page number, in the new style; undefined without one. */
const arxivId = (result: ContractResult): string | undefined => {
  const page = contractPage(result.url);
  return page === undefined ? undefined : `2101.${String(page).padStart(5, "0")}`;
};

const paper: Entry = { id: "http://arxiv.org/abs/2101.00001v1", title: "Paper 1", summary: "Snippet of paper 1." };
const text = { kind: "text", text: "lithium iron phosphate cycle life" } as const;

runSearchContract("arxiv", {
  create: ({ baseUrl, apiKey }) => createArxivSearch({ baseUrl, apiKey, retryBaseDelayMs: 5, minIntervalMs: 0 }),
  // Each result at its work's abstract page, one version per position (a result listed again
  // is a later version of the same work); one without an id at an address that is no arXiv
  // abstract page.
  reply: (results) =>
    atom(
      feed(
        results.map((result, position) => {
          const id = arxivId(result);
          return {
            id: id ? `http://arxiv.org/abs/${id}v${position + 1}` : `https://example.org/abs/2101.0000${position}`,
            title: result.title,
            summary: result.snippet,
          };
        }),
      ),
    ),
  anchorFor: (result) => {
    const id = arxivId(result);
    return id && `https://arxiv.org/abs/${id}`;
  },
  malformed: {
    replies: [{ raw: "<html>not xml" }, atom("<html><body>Service Unavailable</body></html>")],
    message: [/arXiv answered with a body that is not XML/, /arXiv answered with XML of an unexpected shape \(feed: /],
  },
});

describe("arXiv", () => {
  const serve = loopbackServers();
  const provider = (baseUrl: string) => createArxivSearch({ baseUrl, retryBaseDelayMs: 5, minIntervalMs: 0 });

  it("sends GET /api/query with every word as a required all: term, and maps the recorded feed", async () => {
    const server = await serve(atom(fixture("arxiv-search.xml")));
    const hits = await provider(server.baseUrl).search(text, { limit: 5 });
    const [request] = server.seen;
    const url = new URL(request?.path ?? "", server.baseUrl);
    expect(request?.method).toBe("GET");
    expect(url.pathname).toBe("/api/query");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      search_query: "all:lithium AND all:iron AND all:phosphate AND all:cycle AND all:life",
      start: "0",
      max_results: "5",
      sortBy: "relevance",
      sortOrder: "descending",
    });
    expect(request?.headers.accept).toBe("application/atom+xml");
    expect(hits).toEqual([
      {
        anchor: "https://arxiv.org/abs/2202.12139",
        title: "Testing Deep Learning Models: A First Comparative Study of Multiple Testing Techniques",
        snippet: expect.stringMatching(/^Deep Learning \(DL\) has revolutionized the capabilities .*…$/),
        rank: 1,
        score: 1,
        work: {
          arxivId: "2202.12139",
          doi: "10.1109/icstw55395.2022.00035",
          authors: ["Mohit Kumar Ahuja", "Arnaud Gotlieb", "Helge Spieker"],
          venue:
            "Artificial Intelligence in Software Testing @ 2022 IEEE International Conference on Software Testing, " +
            "Verification and Validation Workshops (ICSTW)",
          year: 2022,
        },
      },
      {
        anchor: "https://arxiv.org/abs/2005.14124",
        title: "Active Fuzzing for Testing and Securing Cyber-Physical Systems",
        snippet: expect.stringMatching(/^Cyber-physical systems \(CPSs\) in critical infrastructure/),
        rank: 2,
        score: 0.5,
        work: {
          arxivId: "2005.14124",
          doi: "10.1145/3395363.3397376",
          authors: ["Yuqi Chen", "Bohan Xuan", "Christopher M. Poskitt", "Jun Sun", "Fan Zhang"],
          venue:
            "In Proc. ACM SIGSOFT International Symposium on Software Testing and Analysis (ISSTA 2020), " +
            "pages 14-26. ACM, 2020",
          // The year of the first version (`published`), not of the latest (`updated`, 2020-07).
          year: 2020,
        },
      },
      {
        anchor: "https://arxiv.org/abs/2503.05378",
        title: "A Survey on Web Testing: On the Rise of AI and Applications in Industry",
        snippet: expect.stringMatching(/^Web application testing is an essential practice/),
        rank: 3,
        score: 1 / 3,
        work: {
          arxivId: "2503.05378",
          authors: ["Iva Kertusha", "Gebremariem Assress", "Onur Duman", "Andrea Arcuri"],
          year: 2025,
        },
      },
    ]);
  });

  it("reads the older layout: wrapped text, per-element namespaces, entities and old-style ids", async () => {
    const server = await serve(atom(fixture("arxiv-search-2019.xml")));
    const hits = await provider(server.baseUrl).search({ kind: "text", text: "science" }, { limit: 10 });
    expect(hits.map((hit) => hit.anchor)).toEqual([
      "https://arxiv.org/abs/1503.01162",
      "https://arxiv.org/abs/quant-ph/0210005",
      "https://arxiv.org/abs/physics/0507092",
    ]);
    expect(hits[0]?.title).toBe(
      "Report on a Boston University Conference December 7-8, 2012 on 'How Can the History and Philosophy of " +
        "Science Contribute to Contemporary U.S. Science Teaching?'",
    );
    expect(hits[0]?.snippet).toMatch(
      /^This is an editorial report on the outcomes of an international conference sponsored/,
    );
    expect(hits.map((hit) => hit.work)).toEqual([
      {
        arxivId: "1503.01162",
        doi: "10.1007/s11191-014-9716-8",
        authors: ["Peter Garik", "Yann Benétreau-Dupin"],
        venue: "Science & Education, September 2014, 23(9): 1853-1873",
        year: 2015,
      },
      { arxivId: "quant-ph/0210005", authors: ["Michael A. Nielsen"], year: 2002 },
      {
        arxivId: "physics/0507092",
        doi: "10.1142/9789812701893_0020",
        authors: ["G. Giacomelli", "R. Giacomelli"],
        year: 2005,
      },
    ]);
    // The PDF links of the same works are never hits of their own.
    expect(hits.some((hit) => hit.anchor.includes("/pdf/"))).toBe(false);
  });

  it("returns no hits for a feed without entries, and asks for at most 100", async () => {
    const server = await serve(atom(fixture("arxiv-empty.xml")));
    expect(await provider(server.baseUrl).search(text, { limit: 500 })).toEqual([]);
    expect(new URL(server.seen[0]?.path ?? "", server.baseUrl).searchParams.get("max_results")).toBe("100");
  });

  it("reads the error feed sent with HTTP 400 as a refusal, without retrying", async () => {
    const server = await serve(atom(fixture("arxiv-error.xml"), 400));
    const failure = provider(server.baseUrl).search(text, { limit: 5 });
    await expect(failure).rejects.toBeInstanceOf(ExternalServiceError);
    await expect(failure).rejects.toThrow("arXiv refused the query (HTTP 400): incorrect id format for abc");
    await expect(failure).rejects.toMatchObject({ isRetryable: false });
    expect(server.seen).toHaveLength(1);
  });

  it("reads the error feed sent with HTTP 200 as a refusal, not as a hit titled Error", async () => {
    const server = await serve(atom(fixture("arxiv-error.xml")));
    const failure = provider(server.baseUrl).search(text, { limit: 5 });
    await expect(failure).rejects.toBeInstanceOf(ExternalServiceError);
    await expect(failure).rejects.toThrow("arXiv refused the query: incorrect id format for abc");
    expect(server.seen).toHaveLength(1);
  });

  it("retries a 429 without Retry-After after its own backoff, and a 503", async () => {
    const server = await serve(
      { status: 429, raw: "Rate exceeded." },
      { status: 503, raw: "Rate exceeded." },
      atom(feed([paper])),
    );
    expect(await provider(server.baseUrl).search(text, { limit: 5 })).toHaveLength(1);
    expect(server.seen).toHaveLength(3);
  });

  it("does not wait for a Retry-After beyond 10 s, and says how long arXiv asked for", async () => {
    const server = await serve({ status: 429, raw: "Rate exceeded.", headers: { "retry-after": "60" } });
    await expect(provider(server.baseUrl).search(text, { limit: 5 })).rejects.toThrow(
      "arXiv answered HTTP 429; it asks to wait 60 s",
    );
    expect(server.seen).toHaveLength(1);
  });

  it("says that a 401 or 403 is not about a key", async () => {
    for (const status of [401, 403]) {
      const server = await serve({ status, raw: `<html><title>${status}</title></html>` });
      const failure = provider(server.baseUrl).search(text, { limit: 5 });
      await expect(failure).rejects.toBeInstanceOf(ExternalServiceError);
      await expect(failure).rejects.toThrow(`arXiv refused the request (HTTP ${status}); it needs no key`);
      expect(server.seen).toHaveLength(1);
    }
  });

  it("refuses text without a word to search, in checkQuery and in search, without a request", async () => {
    const server = await serve();
    const arxiv = provider(server.baseUrl);
    expect(arxiv.checkQuery({ kind: "text", text: '"(*)" : ?' })).toBe(
      "the query has no letters or digits for arXiv to search",
    );
    await expect(arxiv.search({ kind: "text", text: "AND OR" }, { limit: 5 })).rejects.toBeInstanceOf(UserError);
    expect(server.seen).toHaveLength(0);
  });

  it("keeps two searches apart by the pacing interval", async () => {
    const interval = 300;
    const seenAt: number[] = [];
    const server = await startResponder(() => {
      seenAt.push(Date.now());
      return atom(fixture("arxiv-empty.xml"));
    });
    try {
      const arxiv = createArxivSearch({ baseUrl: server.baseUrl, minIntervalMs: interval });
      const started = Date.now();
      await arxiv.search(text, { limit: 5 });
      await arxiv.search(text, { limit: 5 });
      expect(seenAt).toHaveLength(2);
      // A lower bound only, less a little for timers that fire on a loop clock read before the wait began.
      expect((seenAt[1] ?? 0) - started).toBeGreaterThanOrEqual(interval - 50);
    } finally {
      await server.close();
    }
  });

  it("keeps nothing of arXiv's query syntax in the terms it sends", () => {
    expect(arxivSearchQuery('ti:"quantum (criticality)" AND au:del_maestro* OR lithium-ion LiFePO4?')).toBe(
      "all:ti AND all:quantum AND all:criticality AND all:au AND all:del AND all:maestro AND all:lithium AND " +
        "all:ion AND all:LiFePO4",
    );
    expect(arxivSearchQuery("Battery battery ANDNOT Schrödinger")).toBe("all:Battery AND all:Schrödinger");
    expect(arxivSearchQuery("%28 %29 %22")).toBe("all:28 AND all:29 AND all:22");
    expect(arxivSearchQuery("() : * ?")).toBeUndefined();
  });
});
