/**
 * The JSON a SearXNG instance returns for `GET /search?format=json`, as built by
 * `searx/webutils.py` `get_json_response` (query, number_of_results, results, answers,
 * corrections, infoboxes, suggestions, unresponsive_engines). A result's fields come from
 * `searx/result_types/_base.py` (`Result`, `MainResult`, `LegacyResult`): `url` may be null,
 * `title` and `content` default to "", `score` is a float. Only the fields Assay reads are
 * checked; the rest pass through unchecked.
 */
import { z } from "zod";

export const searxngResultSchema = z.object({
  url: z.string().nullish(),
  title: z.string().nullish(),
  content: z.string().nullish(),
  engine: z.string().nullish(),
  engines: z.array(z.string()).nullish(),
  score: z.number().nullish(),
  category: z.string().nullish(),
});

export const searxngResponseSchema = z.object({
  query: z.string(),
  // Present in older releases, absent in current ones.
  number_of_results: z.number().optional(),
  results: z.array(searxngResultSchema),
  suggestions: z.array(z.string()).optional(),
  /** `[engine, translated error]` pairs, e.g. `["google", "CAPTCHA"]`. */
  unresponsive_engines: z.array(z.tuple([z.string(), z.string()])).optional(),
});

export type SearxngResponse = z.infer<typeof searxngResponseSchema>;

/** A JSON error body (`{"error": "No query"}` for a 400); a 403 for a disabled format is HTML. */
export const searxngErrorSchema = z.object({ error: z.string() });
