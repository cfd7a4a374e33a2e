/**
 * Scholarly search through OpenAlex (`GET https://api.openalex.org/works?search=…`), an open
 * index of papers, books and datasets. It needs no key: a configured `mailto` puts the
 * requests in OpenAlex's "polite pool", and an optional API key (`api_key`, the only way
 * OpenAlex takes one) raises the small daily allowance it grants without one. Each work
 * becomes a hit whose anchor is what the fetcher should read as evidence: the open-access
 * PDF when OpenAlex knows one, else an open-access or publisher landing page, else the DOI,
 * else the OpenAlex record. The snippet is the abstract, rebuilt from OpenAlex's inverted
 * index; the work's DOI, PMID, arXiv id, authors, venue and year travel as discovery
 * metadata. The score comes from the rank (`1 / rank`): `relevance_score` is unbounded and
 * only comparable within one reply.
 */
import { UserError } from "../../../core/errors.js";
import { normalizeDoi } from "../../../core/works.js";
import type {
  SearchHit,
  SearchOptions,
  SearchProvider,
  SearchQuery,
  WorkMetadata,
} from "../../../ports/search-provider.js";
import {
  checkWebQuery,
  isWebUrl,
  parseBaseUrl,
  plainText,
  toHits,
  type WebResult,
  webQueryText,
} from "../web-search-hits.js";
import {
  createWebClient,
  type ErrorSummary,
  type ReplyReading,
  type StatusFailure,
  type WebRequest,
  type WebSearchOptions,
} from "../web-search-http.js";
import {
  OPENALEX_SELECT,
  type OpenAlexResponse,
  type OpenAlexWork,
  openAlexErrorSchema,
  openAlexResponseSchema,
} from "./openalex-wire.js";

export const OPENALEX_BASE_URL = "https://api.openalex.org/";
/** `per_page` accepts 1 to 200 (100 in the current reference); 100 is safe under both. */
const MAX_PER_PAGE = 100;
/** The abstract is a snippet, cut to 300 characters by `toHits`: its first words are enough. */
const SNIPPET_WORDS = 120;
/** Word positions beyond this are ignored, so a hostile index cannot make a huge abstract. */
const MAX_POSITION = 20_000;
/** OpenAlex lists at most 100 authorships per work in a list reply. */
const MAX_AUTHORS = 100;
const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:".]+$/;
const ARXIV_ID = /^(\d{4}\.\d{4,5}|[a-z-]+(?:\.[a-z]{2})?\/\d{7})(?:v\d+)?$/i;

export interface OpenAlexSearchOptions extends WebSearchOptions {
  /** A contact address, sent as `mailto` (OpenAlex's polite pool); never required. */
  mailto?: string;
}

/**
 * The text of an abstract from OpenAlex's inverted index (`{"Despite": [0], "growing":
 * [1], …}`): each word at each of its positions, in position order, gaps closed. A position
 * claimed twice keeps the first word listed; positions that are not whole numbers below
 * 20 000 are ignored; at most `maxWords` words. "" for a null or empty index. Pure.
 */
export function abstractFromInvertedIndex(
  index: Readonly<Record<string, readonly number[]>> | null | undefined,
  maxWords = 1_000,
): string {
  if (!index) return "";
  const slots = new Map<number, string>();
  for (const [word, positions] of Object.entries(index)) {
    const text = word.trim();
    if (text === "" || !Array.isArray(positions)) continue;
    for (const position of positions) {
      if (Number.isInteger(position) && position >= 0 && position < MAX_POSITION && !slots.has(position)) {
        slots.set(position, text);
      }
    }
  }
  return [...slots]
    .sort(([a], [b]) => a - b)
    .slice(0, Math.max(0, maxWords))
    .map(([, word]) => word)
    .join(" ");
}

/** The bare arXiv id (no version) of an arXiv DOI or an arxiv.org abs/pdf URL, or undefined. Pure. */
export function arxivIdOf(doi: string | undefined, urls: readonly (string | null | undefined)[]): string | undefined {
  const fromDoi = doi ? /^10\.48550\/arxiv\.(.+)$/.exec(doi)?.[1] : undefined;
  const candidates = [
    fromDoi,
    ...urls.map(
      (url) => /^https?:\/\/(?:www\.|export\.)?arxiv\.org\/(?:abs|pdf)\/(.+?)(?:\.pdf)?\/?$/i.exec(url ?? "")?.[1],
    ),
  ];
  for (const candidate of candidates) {
    const id = candidate ? ARXIV_ID.exec(candidate)?.[1] : undefined;
    if (id) return id;
  }
  return undefined;
}

/** The PubMed id of `https://pubmed.ncbi.nlm.nih.gov/29456894` (or a bare number), or undefined. Pure. */
function pmidOf(text: string | null | undefined): string | undefined {
  return /(?:^|\/)(\d{1,9})\/?$/.exec(text?.trim() ?? "")?.[1];
}

/** What the fetcher should read: the first usable URL, from the open-access PDF down to the OpenAlex record. */
function anchorOf(work: OpenAlexWork, doi: string | undefined): string | undefined {
  const doiUrl = work.doi && isWebUrl(work.doi.trim()) ? work.doi : doi ? `https://doi.org/${doi}` : undefined;
  const candidates = [
    work.best_oa_location?.pdf_url,
    work.best_oa_location?.landing_page_url,
    work.open_access?.oa_url,
    work.primary_location?.landing_page_url,
    doiUrl,
    work.id,
  ];
  return candidates.map((candidate) => candidate?.trim() ?? "").find((candidate) => isWebUrl(candidate));
}

function workOf(work: OpenAlexWork, doi: string | undefined): WorkMetadata {
  const pmid = pmidOf(work.ids?.pmid);
  const arxivId = arxivIdOf(doi, [
    work.best_oa_location?.landing_page_url,
    work.best_oa_location?.pdf_url,
    work.primary_location?.landing_page_url,
    work.primary_location?.pdf_url,
  ]);
  const venue = plainText(work.primary_location?.source?.display_name ?? "").trim();
  const year = work.publication_year;
  return {
    ...(doi ? { doi } : {}),
    ...(arxivId ? { arxivId } : {}),
    ...(pmid ? { pmid } : {}),
    authors: (work.authorships ?? [])
      .map((authorship) => authorship.author?.display_name?.trim() ?? "")
      .filter((name) => name !== "")
      .slice(0, MAX_AUTHORS),
    ...(venue ? { venue } : {}),
    ...(typeof year === "number" ? { year } : {}),
  };
}

/** One work as a result in the provider's order. */
export function openAlexResult(work: OpenAlexWork, index: number): WebResult {
  const doi = normalizeDoi(work.doi ?? work.ids?.doi);
  return {
    url: anchorOf(work, doi),
    title: plainText(work.display_name ?? work.title ?? ""),
    snippet: abstractFromInvertedIndex(work.abstract_inverted_index, SNIPPET_WORDS),
    score: 1 / (index + 1),
    work: workOf(work, doi),
  };
}

/**
 * `?` and `*` are wildcards in OpenAlex's `search`, which it refuses to run with stemming
 * (a 200 carrying an error): a question must be searched as its words.
 */
function searchText(text: string): string {
  return text.replace(/[?*]/g, " ").replace(/\s+/g, " ").trim();
}

function checkMailto(mailto: string | undefined): string | undefined {
  const address = mailto?.trim() ?? "";
  if (address === "") return undefined;
  if (!EMAIL.test(address)) throw new UserError(`the OpenAlex mailto "${address}" is not an email address`);
  return address;
}

function summarize(body: unknown): ErrorSummary | undefined {
  const parsed = openAlexErrorSchema.safeParse(body);
  if (!parsed.success) return undefined;
  return { text: parsed.data.message?.trim() || parsed.data.error, code: parsed.data.error };
}

/** A 200 whose body is an error document (`{"error": …, "message": …}`) and no results. */
function refusal(text: string): StatusFailure | undefined {
  if (!text.includes('"error"')) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof body !== "object" || body === null || "results" in body) return undefined;
  const summary = summarize(body);
  return summary ? { message: `OpenAlex refused the search: ${summary.text}`, retryable: false } : undefined;
}

function explainStatus(status: number, summary: ErrorSummary, keyed: boolean): StatusFailure | undefined {
  const said = summary.text ? `: ${summary.text}` : "";
  if (status === 400) return { message: `OpenAlex rejected the search (HTTP 400)${said}`, retryable: false };
  // Without a key there is no key to blame: OpenAlex answers 403 when it limits a client.
  if (!keyed && (status === 401 || status === 403)) {
    return { message: `OpenAlex refused the request (HTTP ${status})${said}`, retryable: false };
  }
  return undefined;
}

export function createOpenAlexSearch(options: OpenAlexSearchOptions = {}): SearchProvider {
  const endpoint = new URL("works", parseBaseUrl("OpenAlex", options.baseUrl ?? OPENALEX_BASE_URL));
  const mailto = checkMailto(options.mailto);
  const apiKey = options.apiKey?.trim() || undefined;
  const client = createWebClient("OpenAlex", options, apiKey ? [apiKey] : []);
  const reading: ReplyReading<OpenAlexResponse> = {
    schema: openAlexResponseSchema,
    refusal,
    readError: summarize,
    explainStatus: (status, summary) => explainStatus(status, summary, apiKey !== undefined),
  };

  return {
    name: "openalex",
    checkQuery(query: SearchQuery) {
      const refused = checkWebQuery(query);
      if (refused !== undefined || query.kind !== "text") return refused;
      return searchText(query.text) === "" ? "the query has no words to search" : undefined;
    },
    async search(query: SearchQuery, { limit, signal }: SearchOptions): Promise<SearchHit[]> {
      const text = searchText(webQueryText(query));
      if (text === "") throw new UserError("the query has no words to search");
      if (limit < 1) return [];
      const url = new URL(endpoint);
      url.searchParams.set("search", text);
      url.searchParams.set("per_page", String(Math.min(limit, MAX_PER_PAGE)));
      url.searchParams.set("select", OPENALEX_SELECT);
      if (mailto) url.searchParams.set("mailto", mailto);
      // OpenAlex takes a key only in the URL; it is redacted from every message, and a
      // request that carries it never follows a redirect.
      if (apiKey) url.searchParams.set("api_key", apiKey);
      const request: WebRequest = {
        url,
        method: "GET",
        headers: { accept: "application/json" },
        redirect: apiKey ? "manual" : "follow",
      };
      const reply = await client.get(request, reading, signal);
      return toHits(reply.results.map(openAlexResult), limit);
    },
  };
}
