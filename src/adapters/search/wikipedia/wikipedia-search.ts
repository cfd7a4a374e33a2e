/**
 * Encyclopedia search through the MediaWiki Action API of the report language's Wikipedia
 * (`GET https://<language>.wikipedia.org/w/api.php?action=query&list=search&…`): free, no
 * key. Each result is an article, anchored at its canonical `/wiki/<Title>` address on the
 * same base (so a test server or a mirror works too), with the search snippet as plain text.
 * MediaWiki reports errors with HTTP 200 and an error body: those are refusals, retried
 * only for lag, rate limits and the wiki's own failures. Requests carry a descriptive
 * User-Agent, as the Wikimedia User-Agent policy asks. Results carry no score (`srprop=score`
 * is deprecated): it is derived from the rank.
 */
import { UserError } from "../../../core/errors.js";
import type { SearchHit, SearchOptions, SearchProvider, SearchQuery } from "../../../ports/search-provider.js";
import { ASSAY_USER_AGENT } from "../../../version.js";
import { checkWebQuery, parseBaseUrl, plainText, type QueryLimits, toHits, webQueryText } from "../web-search-hits.js";
import {
  createWebClient,
  type ErrorSummary,
  type ReplyReading,
  type StatusFailure,
  type WebRequest,
  type WebSearchOptions,
} from "../web-search-http.js";
import {
  isRetryableMediaWikiCode,
  mediaWikiError,
  type WikipediaResponse,
  wikipediaResponseSchema,
} from "./wikipedia-wire.js";

export const WIKIPEDIA_DEFAULT_LANGUAGE = "en";
/** The English Wikipedia; another language's is `https://<language>.wikipedia.org/`. */
export const WIKIPEDIA_BASE_URL = "https://en.wikipedia.org/";
/** `srlimit` accepts 1 to 500. */
const MAX_SRLIMIT = 500;
/** CirrusSearch refuses full-text queries longer than 300 characters. */
const QUERY_LIMITS: QueryLimits = { maxChars: 300 };
/** A Wikipedia subdomain: `en`, `de`, `zh-yue`, `be-tarask`. */
const WIKI_LANGUAGE = /^[a-z]{2,3}(-[a-z]+)*$/;
/** A language tag with a script or region (`pt-BR`, `zh-Hant-TW`): Wikipedia has one edition per language. */
const TAG_WITH_REGION = /^([a-z]{2,3})(?:-[a-z]{4})?(?:-(?:[a-z]{2}|\d{3}))?$/;

export interface WikipediaSearchOptions extends WebSearchOptions {
  /** The report language (`en`, `de`, `pt-BR`): whose Wikipedia is searched. Default "en". */
  language?: string;
}

/**
 * The Wikipedia subdomain for a language code: lower-cased, a region or script dropped
 * (`pt-BR` → `pt`, `zh-Hant` → `zh`), Wikipedia's own codes kept (`zh-yue`, `be-tarask`).
 * Throws UserError for anything that is not a safe subdomain.
 */
export function wikipediaLanguage(language: string | undefined): string {
  const code = (language ?? WIKIPEDIA_DEFAULT_LANGUAGE).trim().toLowerCase().replace(/_/g, "-");
  const primary = TAG_WITH_REGION.exec(code)?.[1] ?? code;
  if (!WIKI_LANGUAGE.test(primary)) {
    throw new UserError(`the Wikipedia language "${language}" is not a language code such as "en" or "de"`);
  }
  return primary;
}

/** `https://<language>.wikipedia.org/`, for a code `wikipediaLanguage` accepts. */
export function wikipediaBaseUrl(language: string | undefined): string {
  return `https://${wikipediaLanguage(language)}.wikipedia.org/`;
}

/**
 * An article's address under `base`, written as MediaWiki writes its own links: spaces as
 * underscores, percent-encoded UTF-8, with `/ : @ $ , ;` (and `! * ( ) ~`) left as they are.
 * Pure.
 */
export function articleUrl(base: URL, title: string): string {
  const path = encodeURIComponent(title.trim().replace(/ /g, "_"))
    .replace(/'/g, "%27")
    .replace(/%(2F|3A|40|24|2C|3B)/gi, (escaped) => decodeURIComponent(escaped));
  return new URL(`wiki/${path}`, base).href;
}

function summarize(body: unknown): ErrorSummary | undefined {
  const error = mediaWikiError(body);
  return error ? { code: error.code, ...(error.info ? { text: error.info } : {}) } : undefined;
}

/** A 200 that carries an error body instead of results. */
function refusal(text: string): StatusFailure | undefined {
  if (!text.includes('"error')) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  const error = mediaWikiError(body);
  if (!error) return undefined;
  return {
    message: `Wikipedia refused the search (${error.code})${error.info ? `: ${error.info}` : ""}`,
    retryable: isRetryableMediaWikiCode(error.code),
  };
}

export function createWikipediaSearch(options: WikipediaSearchOptions = {}): SearchProvider {
  const language = wikipediaLanguage(options.language);
  const base = parseBaseUrl("Wikipedia", options.baseUrl ?? wikipediaBaseUrl(language));
  const endpoint = new URL("w/api.php", base);
  const client = createWebClient("Wikipedia", options, []);

  const explainStatus = (status: number, summary: ErrorSummary): StatusFailure | undefined => {
    const said = summary.text ? `: ${summary.text}` : "";
    if (status >= 300 && status < 400 && options.baseUrl === undefined) {
      return {
        message:
          `${base.origin} answered with a redirect (HTTP ${status}): check that "${language}" is the code ` +
          "of a Wikipedia edition",
        retryable: false,
        userFault: true,
      };
    }
    // No key is sent, so a refusal is not about one (Wikimedia answers 403 to clients it blocks).
    if (status === 401 || status === 403) {
      return { message: `Wikipedia refused the request (HTTP ${status})${said}`, retryable: false };
    }
    return undefined;
  };
  const reading: ReplyReading<WikipediaResponse> = {
    schema: wikipediaResponseSchema,
    refusal,
    readError: summarize,
    explainStatus,
  };

  return {
    name: "wikipedia",
    checkQuery: (query: SearchQuery) => checkWebQuery(query, QUERY_LIMITS),
    async search(query: SearchQuery, { limit, signal }: SearchOptions): Promise<SearchHit[]> {
      const text = webQueryText(query, QUERY_LIMITS);
      if (limit < 1) return [];
      const url = new URL(endpoint);
      url.searchParams.set("action", "query");
      url.searchParams.set("list", "search");
      url.searchParams.set("srsearch", text);
      url.searchParams.set("srlimit", String(Math.min(limit, MAX_SRLIMIT)));
      url.searchParams.set("format", "json");
      url.searchParams.set("formatversion", "2");
      url.searchParams.set("srprop", "snippet");
      const request: WebRequest = {
        url,
        method: "GET",
        headers: { accept: "application/json", "user-agent": ASSAY_USER_AGENT },
        redirect: "manual",
      };
      const reply = await client.get(request, reading, signal);
      return toHits(
        reply.query.search.map((result, index) => ({
          url: articleUrl(base, result.title),
          title: result.title,
          snippet: plainText(result.snippet ?? ""),
          score: 1 / (index + 1),
        })),
        limit,
      );
    },
  };
}
