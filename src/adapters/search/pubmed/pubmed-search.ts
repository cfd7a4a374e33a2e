/**
 * Scholarly search of PubMed through NCBI's E-utilities, no key needed: `esearch.fcgi` finds
 * the PMIDs in PubMed's relevance order ("Best Match"), then one `esummary.fcgi` request
 * reads their summaries. Each PMID becomes a hit on its PubMed page
 * (`https://pubmed.ncbi.nlm.nih.gov/<pmid>/`) with the PMID, DOI, authors, journal and year
 * as the work's metadata. Summaries carry no abstract, so the snippet names the journal and
 * the publication date ("The New England journal of medicine, 2018 Aug 9"). The query is sent
 * as typed: PubMed maps plain words to MeSH terms itself, and its own syntax (field tags,
 * Boolean operators, quoted phrases) works as on pubmed.gov.
 *
 * NCBI allows three requests per second from a client without an API key and ten with one
 * (`NCBI_API_KEY`, sent as `api_key`: E-utilities take a key in the URL only, so requests are
 * never redirected and the key is kept out of every message), so requests in the process are
 * paced under the key "pubmed". `tool` and `email` are sent when set, as NCBI asks of
 * software that uses E-utilities. The score is derived from the rank.
 */
import { ExternalServiceError } from "../../../core/errors.js";
import { collapseWhitespace } from "../../../core/text.js";
import { normalizeDoi } from "../../../core/works.js";
import type {
  SearchHit,
  SearchOptions,
  SearchProvider,
  SearchQuery,
  WorkMetadata,
} from "../../../ports/search-provider.js";
import { checkWebQuery, parseBaseUrl, plainText, toHits, type WebResult, webQueryText } from "../web-search-hits.js";
import {
  createWebClient,
  DEFAULT_TIMEOUT_MS,
  type ErrorSummary,
  type ReplyReading,
  type StatusFailure,
  type WebRequest,
  type WebSearchOptions,
} from "../web-search-http.js";
import {
  type DocSum,
  type EsearchResponse,
  type EsummaryResponse,
  esearchResponseSchema,
  esummaryResponseSchema,
  eutilsErrorMessage,
} from "./pubmed-wire.js";

export const PUBMED_BASE_URL = "https://eutils.ncbi.nlm.nih.gov/";
/** NCBI: at most three requests per second without an API key… */
export const PUBMED_INTERVAL_MS = 334;
/** …and ten with one. */
export const PUBMED_KEYED_INTERVAL_MS = 100;
/** ESearch returns up to 10 000 PMIDs; a search never needs more than this, and ESummary reads them in one GET. */
const MAX_RETMAX = 100;
const PMID = /^\d{1,9}$/;

export interface PubmedSearchOptions extends WebSearchOptions {
  /** A contact address, sent as `email` so that NCBI can write before it blocks a client. */
  email?: string;
  /** The software's name, sent as `tool` (NCBI registers tool and email together). */
  tool?: string;
}

/** A 2xx body that is an E-utilities error (they often come with HTTP 200). */
function refusal(text: string): StatusFailure | undefined {
  if (!text.includes("error") && !text.includes("ERROR")) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined; // Not JSON: decoding reports it.
  }
  // Summaries that came back are not refused because NCBI also noted one id it could not read.
  const summaries = esummaryResponseSchema.safeParse(body);
  if (summaries.success && summaries.data.result.uids.length > 0) return undefined;
  const message = eutilsErrorMessage(body);
  if (message === undefined) return undefined;
  // NCBI has sent its rate-limit body with HTTP 200 as well as with 429: wait and retry either way.
  return /rate limit/i.test(message)
    ? { message: `PubMed limited the request rate: ${message}`, retryable: true }
    : { message: `PubMed refused the search: ${message}`, retryable: false };
}

function explainStatus(status: number, summary: ErrorSummary): StatusFailure | undefined {
  if (/api key/i.test(summary.text ?? "") && (status === 400 || status === 401 || status === 403)) {
    return {
      message: `PubMed refused the API key (HTTP ${status}): correct NCBI_API_KEY, or unset it to search without a key`,
      retryable: false,
      userFault: true,
    };
  }
  if (status === 400 && summary.text) {
    return { message: `PubMed rejected the search (HTTP 400): ${summary.text}`, retryable: false };
  }
  return undefined;
}

function readingOf<T>(schema: ReplyReading<T>["schema"]): ReplyReading<T> {
  return {
    schema,
    refusal,
    readError: (body) => {
      const message = eutilsErrorMessage(body);
      return message === undefined ? undefined : { text: message };
    },
    explainStatus,
  };
}

const esearchReading: ReplyReading<EsearchResponse> = readingOf(esearchResponseSchema);
const esummaryReading: ReplyReading<EsummaryResponse> = readingOf(esummaryResponseSchema);

const yearIn = (text: string | null | undefined): number | undefined => {
  const match = /(?:^|\D)(\d{4})(?:\D|$)/.exec(text ?? "");
  return match ? Number(match[1]) : undefined;
};

/** The result for one summary, or undefined for a PMID that NCBI could not summarize. */
function toResult(pmid: string, summary: DocSum | undefined, score: number): WebResult | undefined {
  if (!summary || summary.error) return undefined;
  const idOf = (type: string) => summary.articleids?.find((id) => id.idtype === type)?.value;
  const doi = normalizeDoi(idOf("doi")) ?? normalizeDoi(summary.elocationid);
  const venue = collapseWhitespace(summary.fulljournalname || summary.source || "");
  const date = collapseWhitespace(summary.pubdate ?? "");
  const year = yearIn(summary.pubdate) ?? yearIn(summary.sortpubdate);
  const work: WorkMetadata = {
    pmid,
    authors: (summary.authors ?? []).map((author) => collapseWhitespace(author.name ?? "")).filter((name) => name),
    ...(doi === undefined ? {} : { doi }),
    ...(venue === "" ? {} : { venue }),
    ...(year === undefined ? {} : { year }),
  };
  return {
    url: `https://pubmed.ncbi.nlm.nih.gov/${pmid}/`,
    title: plainText(summary.title ?? ""),
    snippet: [venue, date].filter((part) => part !== "").join(", "),
    score,
    work,
  };
}

export function createPubmedSearch(options: PubmedSearchOptions = {}): SearchProvider {
  const base = parseBaseUrl("PubMed", options.baseUrl ?? PUBMED_BASE_URL);
  const apiKey = options.apiKey?.trim() || undefined;
  const client = createWebClient("PubMed", options, apiKey ? [apiKey] : [], {
    key: "pubmed",
    intervalMs: apiKey ? PUBMED_KEYED_INTERVAL_MS : PUBMED_INTERVAL_MS,
  });
  const timeoutMs = Math.max(1, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const identity: Record<string, string> = {
    ...(options.tool?.trim() ? { tool: options.tool.trim() } : {}),
    ...(options.email?.trim() ? { email: options.email.trim() } : {}),
    ...(apiKey ? { api_key: apiKey } : {}),
  };
  const request = (path: string, params: Record<string, string>): WebRequest => {
    const url = new URL(`entrez/eutils/${path}`, base);
    const all = { db: "pubmed", ...params, retmode: "json", ...identity };
    for (const [name, value] of Object.entries(all)) url.searchParams.set(name, value);
    // Never follow a redirect: the key is in the URL.
    return { url, method: "GET", headers: { accept: "application/json" }, redirect: "manual" };
  };

  async function search(text: string, limit: number, signal: AbortSignal): Promise<SearchHit[]> {
    const retmax = String(Math.min(limit, MAX_RETMAX));
    const found = await client.get(
      request("esearch.fcgi", { term: text, retmax, sort: "relevance" }),
      esearchReading,
      signal,
    );
    const pmids = [...new Set(found.esearchresult.idlist.map((id) => id.trim()).filter((id) => PMID.test(id)))];
    if (pmids.length === 0) return [];
    const summaries = await client.get(request("esummary.fcgi", { id: pmids.join(",") }), esummaryReading, signal);
    const { result } = summaries;
    return toHits(
      pmids.map((pmid, index) => toResult(pmid, result[pmid], 1 / (index + 1))).filter((hit) => hit !== undefined),
      limit,
    );
  }

  return {
    name: "pubmed",
    checkQuery: (query: SearchQuery) => checkWebQuery(query),
    async search(query: SearchQuery, { limit, signal }: SearchOptions): Promise<SearchHit[]> {
      const text = webQueryText(query);
      if (limit < 1) return [];
      signal?.throwIfAborted();
      // One limit for the whole search, both requests and their retries and waits included.
      const deadline = AbortSignal.timeout(timeoutMs);
      try {
        return await search(text, limit, signal ? AbortSignal.any([signal, deadline]) : deadline);
      } catch (error) {
        if (deadline.aborted && !signal?.aborted) {
          throw new ExternalServiceError(`PubMed did not answer within ${timeoutMs} ms`, {
            cause: error,
            isRetryable: true,
          });
        }
        throw error;
      }
    },
  };
}
