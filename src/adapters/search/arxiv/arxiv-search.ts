/**
 * Scholarly search through the arXiv API (`GET https://export.arxiv.org/api/query`, Atom,
 * no key): preprints in physics, mathematics, computer science, quantitative biology and
 * finance, statistics, electrical engineering and economics. Each entry is one work: its hit
 * is the abstract page (`https://arxiv.org/abs/<id>`, without the version), never the PDF,
 * with the arXiv id, DOI, authors, journal reference and year as the work's metadata.
 *
 * arXiv's terms of use ask for at most one request every 3 seconds from a client, so every
 * request in the process waits its turn under the pacing key "arxiv". Results carry no
 * score: it is derived from arXiv's relevance rank.
 */
import { UserError } from "../../../core/errors.js";
import { collapseWhitespace } from "../../../core/text.js";
import { normalizeDoi } from "../../../core/works.js";
import type {
  SearchHit,
  SearchOptions,
  SearchProvider,
  SearchQuery,
  WorkMetadata,
} from "../../../ports/search-provider.js";
import { checkWebQuery, parseBaseUrl, toHits, type WebResult, webQueryText } from "../web-search-hits.js";
import {
  createWebClient,
  type ErrorSummary,
  type ReplyReading,
  type StatusFailure,
  type WebRequest,
  type WebSearchOptions,
} from "../web-search-http.js";
import {
  type ArxivEntry,
  type ArxivFeed,
  arxivErrorMessage,
  arxivFeedSchema,
  arxivIdOf,
  parseAtom,
} from "./arxiv-wire.js";

export const ARXIV_BASE_URL = "https://export.arxiv.org/";
/** arXiv's terms: no more than one request every three seconds. */
export const ARXIV_INTERVAL_MS = 3000;
/** arXiv returns up to 2000 entries per request; a search never needs more than this. */
const MAX_RESULTS = 100;
const NO_TERMS = "the query has no letters or digits for arXiv to search";
/** arXiv's Boolean operators, dropped when they stand as words of the query. */
const OPERATORS = new Set(["AND", "OR", "ANDNOT"]);

/**
 * The `search_query` for `text`: every word as an `all:` term (title, abstract, authors,
 * comment, journal reference, category), all of them required (`AND`). Whatever is not a
 * letter, mark or digit separates words, so nothing that arXiv's query syntax gives a meaning
 * to reaches it: no field prefix (`ti:`), quote, parenthesis, wildcard (`*`, `?`) or sign
 * (`lithium-ion` is searched as `lithium` and `ion`). The operator words AND, OR and ANDNOT
 * are dropped, and repeated words sent once. Undefined when no word is left. Pure.
 */
export function arxivSearchQuery(text: string): string | undefined {
  const seen = new Set<string>();
  const terms: string[] = [];
  for (const word of text.split(/[^\p{L}\p{M}\p{N}]+/u)) {
    if (word === "" || OPERATORS.has(word) || seen.has(word.toLowerCase())) continue;
    seen.add(word.toLowerCase());
    terms.push(`all:${word}`);
  }
  return terms.length === 0 ? undefined : terms.join(" AND ");
}

/** What every error feed has, so that an ordinary feed is not parsed twice. */
const ERROR_FEED_HINT = /\/api\/errors|<title[^>]*>\s*Error\s*</;

/** An error feed sent with HTTP 200 (older releases did): a refusal, not a feed with one hit. */
function refusal(body: string): StatusFailure | undefined {
  if (!ERROR_FEED_HINT.test(body)) return undefined;
  let document: unknown;
  try {
    document = parseAtom(body);
  } catch {
    return undefined; // Not XML: decoding reports it.
  }
  const message = arxivErrorMessage(document);
  return message === undefined ? undefined : { message: `arXiv refused the query: ${message}`, retryable: false };
}

function explainStatus(status: number, summary: ErrorSummary): StatusFailure | undefined {
  if (status === 400 && summary.text) {
    return { message: `arXiv refused the query (HTTP 400): ${summary.text}`, retryable: false };
  }
  if (status === 401 || status === 403) {
    return {
      message:
        `arXiv refused the request (HTTP ${status}); it needs no key, and refuses clients that send ` +
        "more than one request every 3 seconds",
      retryable: false,
    };
  }
  return undefined;
}

const reading: ReplyReading<ArxivFeed> = {
  schema: arxivFeedSchema,
  format: "XML",
  parse: parseAtom,
  refusal,
  readError: (document) => {
    const message = arxivErrorMessage(document);
    return message === undefined ? undefined : { text: message };
  },
  explainStatus,
};

const yearOf = (date: string | undefined): number | undefined => {
  const match = /^\s*(\d{4})-\d{2}-\d{2}/.exec(date ?? "");
  return match ? Number(match[1]) : undefined;
};

/** One entry as a result; an entry whose id is not an abstract page has no URL, so no hit. */
function toResult(entry: ArxivEntry, index: number): WebResult {
  const score = 1 / (index + 1);
  const arxivId = arxivIdOf(entry.id);
  if (arxivId === undefined) return { url: undefined, score };
  const doi = normalizeDoi(entry.doi);
  const venue = collapseWhitespace(entry.journal_ref ?? "");
  const year = yearOf(entry.published);
  const work: WorkMetadata = {
    arxivId,
    authors: (entry.author ?? []).map((author) => collapseWhitespace(author.name ?? "")).filter((name) => name !== ""),
    ...(doi === undefined ? {} : { doi }),
    ...(venue === "" ? {} : { venue }),
    ...(year === undefined ? {} : { year }),
  };
  return { url: `https://arxiv.org/abs/${arxivId}`, title: entry.title, snippet: entry.summary, score, work };
}

export function createArxivSearch(options: WebSearchOptions = {}): SearchProvider {
  const endpoint = new URL("api/query", parseBaseUrl("arXiv", options.baseUrl ?? ARXIV_BASE_URL));
  const client = createWebClient("arXiv", options, [], { key: "arxiv", intervalMs: ARXIV_INTERVAL_MS });

  return {
    name: "arxiv",
    checkQuery: (query: SearchQuery) =>
      checkWebQuery(query) ??
      (query.kind === "text" && arxivSearchQuery(query.text) === undefined ? NO_TERMS : undefined),
    async search(query: SearchQuery, { limit, signal }: SearchOptions): Promise<SearchHit[]> {
      const searchQuery = arxivSearchQuery(webQueryText(query));
      if (searchQuery === undefined) throw new UserError(NO_TERMS);
      if (limit < 1) return [];
      const url = new URL(endpoint);
      url.searchParams.set("search_query", searchQuery);
      url.searchParams.set("start", "0");
      url.searchParams.set("max_results", String(Math.min(limit, MAX_RESULTS)));
      url.searchParams.set("sortBy", "relevance");
      url.searchParams.set("sortOrder", "descending");
      // No key travels with this request, so following a redirect (http to https) is safe.
      const request: WebRequest = {
        url,
        method: "GET",
        headers: { accept: "application/atom+xml" },
        redirect: "follow",
      };
      const feed = await client.get(request, reading, signal);
      return toHits((feed.feed.entry ?? []).map(toResult), limit);
    },
  };
}
