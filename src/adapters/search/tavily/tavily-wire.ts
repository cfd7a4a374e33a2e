/**
 * The JSON Tavily returns for `POST /search`, per its API reference
 * (docs.tavily.com/api-reference/endpoint/search): `query`, `answer`, `images`,
 * `results[]` with `title`, `url`, `content`, `score`, `raw_content`, `favicon`, then
 * `response_time` (a number, or a string in older examples), `usage` and `request_id`.
 * Only the fields Assay reads are checked.
 */
import { z } from "zod";

export const tavilyResultSchema = z.object({
  title: z.string().nullish(),
  url: z.string(),
  content: z.string().nullish(),
  score: z.number().nullish(),
  raw_content: z.string().nullish(),
  published_date: z.string().nullish(),
});

export const tavilyResponseSchema = z.object({
  query: z.string(),
  answer: z.string().nullish(),
  results: z.array(tavilyResultSchema),
  response_time: z.union([z.number(), z.string()]).optional(),
  request_id: z.string().optional(),
});

export type TavilyResponse = z.infer<typeof tavilyResponseSchema>;

/** The request body Tavily documents; only these fields are sent. */
export interface TavilyRequestBody {
  query: string;
  max_results: number;
  search_depth: "basic";
  include_answer: false;
  include_raw_content: false;
  include_images: false;
}

/** FastAPI-style errors: `{"detail": {"error": "Unauthorized: missing or invalid API key."}}`. */
export const tavilyErrorSchema = z.object({
  detail: z.union([z.string(), z.object({ error: z.string() })]),
});

/** Tavily's own statuses: 432 (plan limit) and 433 (pay-as-you-go limit) are not retried. */
export const TAVILY_PLAN_LIMIT_STATUSES: readonly number[] = [432, 433];
