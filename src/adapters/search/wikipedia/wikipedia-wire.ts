/**
 * The JSON the MediaWiki Action API returns for `action=query&list=search&format=json&
 * formatversion=2&srprop=snippet` (mediawiki.org, "API:Search"): `batchcomplete: true`, an
 * optional `continue` (`sroffset`), then `query.searchinfo` (`totalhits`, `suggestion`) and
 * `query.search[]`, each `{ns, title, pageid, snippet}` where `snippet` is HTML with the
 * matches in `<span class="searchmatch">`. Only the fields Assay reads are checked.
 *
 * Errors come with HTTP 200 ("API:Errors and warnings"). With the default `errorformat=bc`
 * the body is `{"error": {"code", "info", "docref"}, "servedby"}` (formatversion 2 names
 * the legacy `*` key `docref`); with any other `errorformat` it is `{"errors": [{"code",
 * "text", "module"}], "docref", "servedby"}`. Both are read.
 */
import { z } from "zod";

export const wikipediaResultSchema = z.object({
  ns: z.number().optional(),
  title: z.string(),
  pageid: z.number().optional(),
  snippet: z.string().nullish(),
});

export const wikipediaResponseSchema = z.object({
  batchcomplete: z.boolean().optional(),
  query: z.object({
    searchinfo: z.object({ totalhits: z.number().optional(), suggestion: z.string().optional() }).optional(),
    search: z.array(wikipediaResultSchema),
  }),
});

export type WikipediaResponse = z.infer<typeof wikipediaResponseSchema>;

const legacyErrorSchema = z.object({
  error: z.object({ code: z.string(), info: z.string().nullish() }),
});

const errorsArraySchema = z.object({
  errors: z.array(z.object({ code: z.string(), text: z.string().nullish(), html: z.string().nullish() })).min(1),
});

export interface MediaWikiError {
  code: string;
  info?: string;
}

/** The first error an API body reports, in either format, or undefined for a body without one. Pure. */
export function mediaWikiError(body: unknown): MediaWikiError | undefined {
  const legacy = legacyErrorSchema.safeParse(body);
  if (legacy.success) {
    const { code, info } = legacy.data.error;
    return { code, ...(info ? { info } : {}) };
  }
  const modern = errorsArraySchema.safeParse(body);
  if (modern.success) {
    const [first] = modern.data.errors;
    if (!first) return undefined;
    const info = first.text ?? first.html;
    return { code: first.code, ...(info ? { info } : {}) };
  }
  return undefined;
}

/**
 * Codes that mean "try again later": replication lag (`maxlag`), a rate limit
 * (`ratelimited`), a read-only database (`readonly`), and the wiki's own failures
 * (`internal_api_error_…`).
 */
export function isRetryableMediaWikiCode(code: string): boolean {
  return code === "maxlag" || code === "ratelimited" || code === "readonly" || code.startsWith("internal_api_error");
}
