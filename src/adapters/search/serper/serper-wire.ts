/**
 * The JSON Serper returns for `POST https://google.serper.dev/search`: `searchParameters`
 * (the request echoed, with `type: "search"` and `engine: "google"`), optional
 * `knowledgeGraph`, `answerBox`, `peopleAlsoAsk`, `relatedSearches`, `credits`, and
 * `organic[]` with `title`, `link`, `snippet`, `position` (1-based), and optional `date`,
 * `sitelinks`, `attributes`. `organic` is absent when Google has no results. Only the fields
 * Assay reads are checked.
 */
import { z } from "zod";

export const serperOrganicSchema = z.object({
  title: z.string().nullish(),
  link: z.string(),
  snippet: z.string().nullish(),
  position: z.number().nullish(),
  date: z.string().nullish(),
});

export const serperResponseSchema = z.object({
  // Always echoed; its absence means the body is not a search reply.
  searchParameters: z.object({ q: z.string() }),
  organic: z.array(serperOrganicSchema).optional(),
  credits: z.number().optional(),
});

export type SerperResponse = z.infer<typeof serperResponseSchema>;

/** The request body: the query and the number of results (Serper's default is 10). */
export interface SerperRequestBody {
  q: string;
  num: number;
}

/**
 * `{"message": "Unauthorized.", "statusCode": 403}` for a wrong key,
 * `{"message": "Not enough credits", "statusCode": 400}` for an empty balance.
 */
export const serperErrorSchema = z.object({ message: z.string(), statusCode: z.number().optional() });
