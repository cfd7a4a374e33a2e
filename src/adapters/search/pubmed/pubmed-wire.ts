/**
 * The JSON NCBI's E-utilities return with `retmode=json` (www.ncbi.nlm.nih.gov/books/NBK25499,
 * "ESearch" and "ESummary"), version 0.3 of both:
 *
 * - `esearch.fcgi`: `{"header": {"type": "esearch"}, "esearchresult": {"count", "retmax",
 *   "retstart", "idlist": [PMID…], "translationset", "querytranslation"}}`, every number a
 *   string. A search that finds nothing has an empty `idlist` and an `errorlist` naming the
 *   phrases not found, which is not a failure.
 * - `esummary.fcgi`: `{"header": {"type": "esummary"}, "result": {"uids": [PMID…], "<PMID>":
 *   DocSum, …}}`, a DocSum having `title`, `authors` (`{name, authtype}`), `source` (the
 *   journal's abbreviation), `fulljournalname`, `pubdate` ("2018 Aug 9", "2025"),
 *   `sortpubdate` ("2018/08/09 00:00") and `articleids` (`{idtype, value}`: "pubmed", "doi",
 *   "pmc", …). A PMID it cannot summarize has `{"uid", "error"}` instead. There is no abstract.
 *
 * Errors come as JSON too, with HTTP 200 or an error status: `{"error": "…"}` (a bad API key,
 * `"API key invalid"`, with 400; the rate limit, `"API rate limit exceeded"`, with 429, both
 * quoting the caller's key or address back in `"api-key"`), `{"esearchresult": {"ERROR":
 * "…"}}` from ESearch and `{"esummaryresult": ["…"]}` from ESummary. Only the fields Assay
 * reads are checked.
 */
import { z } from "zod";

export const esearchResponseSchema = z.object({
  esearchresult: z.object({
    count: z.string().optional(),
    idlist: z.array(z.string()),
  }),
});

export type EsearchResponse = z.infer<typeof esearchResponseSchema>;

export const docSumSchema = z.object({
  uid: z.string().nullish(),
  title: z.string().nullish(),
  authors: z.array(z.object({ name: z.string().nullish(), authtype: z.string().nullish() })).nullish(),
  source: z.string().nullish(),
  fulljournalname: z.string().nullish(),
  pubdate: z.string().nullish(),
  sortpubdate: z.string().nullish(),
  articleids: z.array(z.object({ idtype: z.string(), value: z.string() })).nullish(),
  elocationid: z.string().nullish(),
  error: z.string().nullish(),
});

export type DocSum = z.infer<typeof docSumSchema>;

/** `result` maps each PMID to its DocSum, beside the list of `uids`. */
export const esummaryResponseSchema = z.object({
  result: z.object({ uids: z.array(z.string()) }).catchall(docSumSchema),
});

export type EsummaryResponse = z.infer<typeof esummaryResponseSchema>;

const errorBodySchema = z.union([
  z.object({ error: z.string() }),
  z.object({ esearchresult: z.object({ ERROR: z.string() }) }),
  z.object({ esummaryresult: z.array(z.string()).min(1) }),
]);

/** What an E-utilities error body says, or undefined for a body that is not one. Pure. */
export function eutilsErrorMessage(body: unknown): string | undefined {
  const parsed = errorBodySchema.safeParse(body);
  if (!parsed.success) return undefined;
  const value = parsed.data;
  const message =
    "error" in value
      ? value.error
      : "esearchresult" in value
        ? value.esearchresult.ERROR
        : value.esummaryresult.join("; ");
  return message.trim() || undefined;
}
