/**
 * What the web search providers share besides HTTP: the queries they accept, their base
 * URL and key, and turning a provider's results into ranked hits. Pure.
 */
import { UserError } from "../../core/errors.js";
import { readerLine } from "../../core/text.js";
import type { SearchHit, SearchQuery, WorkMetadata } from "../../ports/search-provider.js";

export const PATTERN_REFUSAL = "pattern queries need a local corpus scope";
const MAX_TITLE_CHARS = 300;
const MAX_SNIPPET_CHARS = 300;

const ENTITIES: Readonly<Record<string, string>> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** Text without tags, with common and numeric entities decoded (snippets marked up by a provider). Pure. */
export function plainText(html: string): string {
  return html.replace(/<[^>]*>/g, "").replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => {
    if (name.startsWith("#")) {
      const code = name[1] === "x" || name[1] === "X" ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    }
    return ENTITIES[name.toLowerCase()] ?? entity;
  });
}

/** A provider's documented limits on the query text. */
export interface QueryLimits {
  maxChars?: number;
  maxWords?: number;
}

/** Why a web provider cannot run `query`, or undefined. */
export function checkWebQuery(query: SearchQuery, limits: QueryLimits = {}): string | undefined {
  if (query.kind === "pattern") return PATTERN_REFUSAL;
  const text = query.text.trim();
  if (text === "") return "the query is empty";
  if (limits.maxChars !== undefined && text.length > limits.maxChars) {
    return `the query is longer than ${limits.maxChars} characters`;
  }
  if (limits.maxWords !== undefined && text.split(/\s+/).length > limits.maxWords) {
    return `the query has more than ${limits.maxWords} words`;
  }
  return undefined;
}

/**
 * The text to send for `query`, shortened to the provider's limits (a long request still
 * gets searched by its first words); throws UserError when the provider cannot run it at all.
 * Proposed queries are refused earlier, by checkQuery, instead of being cut.
 */
export function webQueryText(query: SearchQuery, limits: QueryLimits = {}): string {
  if (query.kind !== "text") throw new UserError(PATTERN_REFUSAL);
  let text = query.text.trim().replace(/\s+/g, " ");
  if (text === "") throw new UserError("the query is empty");
  if (limits.maxWords !== undefined) text = text.split(" ").slice(0, limits.maxWords).join(" ");
  if (limits.maxChars !== undefined && text.length > limits.maxChars) {
    const cut = text.slice(0, limits.maxChars);
    const space = cut.lastIndexOf(" ");
    text = space > 0 ? cut.slice(0, space) : cut;
  }
  return text;
}

/** Whether `text` is an absolute http(s) URL. */
export function isWebUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

/** `base` as an http(s) URL ending in a slash, so endpoints resolve under its path; throws UserError. */
export function parseBaseUrl(label: string, base: string): URL {
  if (!isWebUrl(base)) throw new UserError(`the ${label} base URL "${base}" is not an http:// or https:// URL`);
  const url = new URL(base);
  if (url.username !== "" || url.password !== "") {
    throw new UserError(`the ${label} base URL must not carry a user name or password`);
  }
  if (!url.pathname.endsWith("/")) url.pathname = `${url.pathname}/`;
  url.search = "";
  url.hash = "";
  return url;
}

/** The key, or a UserError when it is missing. */
export function requireApiKey(label: string, apiKey: string | undefined): string {
  const key = apiKey?.trim() ?? "";
  if (key === "") throw new UserError(`the ${label} search provider needs an API key`);
  return key;
}

/** One result as a provider lists it. */
export interface WebResult {
  url: string | null | undefined;
  title?: string | null | undefined;
  snippet?: string | null | undefined;
  score: number;
  work?: WorkMetadata;
}

/**
 * Hits from results in the provider's order: only http(s) URLs, the first of each exact
 * URL, at most `limit`, ranked 1..n.
 */
export function toHits(results: readonly WebResult[], limit: number): SearchHit[] {
  const seen = new Set<string>();
  const hits: SearchHit[] = [];
  for (const result of results) {
    if (hits.length >= limit) break;
    const url = result.url?.trim() ?? "";
    if (!isWebUrl(url) || seen.has(url)) continue;
    seen.add(url);
    hits.push({
      anchor: url,
      title: readerLine(result.title ?? "", MAX_TITLE_CHARS) || url,
      snippet: readerLine(result.snippet ?? "", MAX_SNIPPET_CHARS),
      rank: hits.length + 1,
      score: result.score,
      ...(result.work ? { work: result.work } : {}),
    });
  }
  return hits;
}
