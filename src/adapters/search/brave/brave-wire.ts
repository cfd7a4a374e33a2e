/**
 * The JSON Brave returns for `GET /res/v1/web/search`, per its response reference
 * (api-dashboard.search.brave.com, "WebSearchApiResponse"): `type: "search"`, then optional
 * sections (`query`, `web`, `news`, `videos`, `mixed`, …). `web` is a `Search` whose
 * `results[]` are `SearchResult`s with `title`, `url`, `description` (matches marked with
 * `<strong>`), `page_age`, `profile`, `meta_url`, `extra_snippets`. Only the fields Assay
 * reads are checked.
 */
import { z } from "zod";

export const braveResultSchema = z.object({
  type: z.string().optional(),
  title: z.string().nullish(),
  url: z.string(),
  description: z.string().nullish(),
  page_age: z.string().nullish(),
  age: z.string().nullish(),
  extra_snippets: z.array(z.string()).nullish(),
});

export const braveResponseSchema = z.object({
  type: z.literal("search"),
  query: z.object({ original: z.string() }).optional(),
  web: z.object({ type: z.string().optional(), results: z.array(braveResultSchema) }).optional(),
});

export type BraveResponse = z.infer<typeof braveResponseSchema>;

/**
 * `{"type": "ErrorResponse", "error": {"id", "status", "code", "detail", "meta"}, "time"}`.
 * A wrong key is a 422 (sometimes a 401) with code SUBSCRIPTION_TOKEN_INVALID; a rate or
 * quota limit is a 429 with code RATE_LIMITED.
 */
export const braveErrorSchema = z.object({
  error: z.object({ code: z.string().optional(), detail: z.string().optional(), status: z.number().optional() }),
});

export const BRAVE_INVALID_TOKEN_CODE = "SUBSCRIPTION_TOKEN_INVALID";
