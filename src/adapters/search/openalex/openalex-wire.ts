/**
 * The JSON OpenAlex returns for `GET /works?search=…`, per its documentation
 * (docs.openalex.org, "Get lists of works" and "Work object"): `meta` (`count`,
 * `db_response_time_ms`, `page`, `per_page`, `groups_count`), `results[]` of Work objects
 * and `group_by`. A search adds `relevance_score` to each work; it is not read, since hits
 * are ranked by position. Only the Work fields Assay reads are checked (and asked for with
 * `select`), nullable where OpenAlex leaves them out: `id` (`https://openalex.org/W…`), `doi`
 * (a `https://doi.org/…` URL), `display_name` and its alias `title`, `publication_year`,
 * `authorships[].author.display_name`, `primary_location` and `best_oa_location`
 * (`landing_page_url`, `pdf_url`, `source.display_name`), `open_access` (`is_oa`, `oa_url`),
 * `abstract_inverted_index` (word → positions; null when OpenAlex has no abstract) and `ids`
 * (`openalex`, `doi`, `mag`, `pmid` as a PubMed URL, `pmcid`). OpenAlex lists no arXiv id:
 * one is read from an arXiv DOI (`10.48550/arxiv.…`) or an arxiv.org location instead.
 */
import { z } from "zod";

const sourceSchema = z.object({ display_name: z.string().nullish() });

export const openAlexLocationSchema = z.object({
  is_oa: z.boolean().nullish(),
  landing_page_url: z.string().nullish(),
  pdf_url: z.string().nullish(),
  source: sourceSchema.nullish(),
});

export const openAlexWorkSchema = z.object({
  id: z.string(),
  doi: z.string().nullish(),
  display_name: z.string().nullish(),
  title: z.string().nullish(),
  publication_year: z.number().int().nullish(),
  authorships: z.array(z.object({ author: z.object({ display_name: z.string().nullish() }).nullish() })).nullish(),
  primary_location: openAlexLocationSchema.nullish(),
  best_oa_location: openAlexLocationSchema.nullish(),
  open_access: z.object({ is_oa: z.boolean().nullish(), oa_url: z.string().nullish() }).nullish(),
  abstract_inverted_index: z.record(z.string(), z.array(z.number())).nullish(),
  ids: z
    .object({
      openalex: z.string().nullish(),
      doi: z.string().nullish(),
      pmid: z.string().nullish(),
      pmcid: z.string().nullish(),
    })
    .nullish(),
});

export type OpenAlexWork = z.infer<typeof openAlexWorkSchema>;

export const openAlexResponseSchema = z.object({
  meta: z.object({ count: z.number().nullish() }).nullish(),
  results: z.array(openAlexWorkSchema),
});

export type OpenAlexResponse = z.infer<typeof openAlexResponseSchema>;

/**
 * `{"error": "Invalid query parameters error.", "message": "badfilter is not a valid field."}`:
 * a 400 for a bad parameter, and sometimes the same body with HTTP 200 (a `search` with
 * wildcards it will not run).
 */
export const openAlexErrorSchema = z.object({ error: z.string(), message: z.string().nullish() });

/** The root fields asked for with `select`, so a page of works stays small. */
export const OPENALEX_SELECT = [
  "id",
  "doi",
  "display_name",
  "title",
  "publication_year",
  "authorships",
  "primary_location",
  "best_oa_location",
  "open_access",
  "abstract_inverted_index",
  "ids",
].join(",");
