/**
 * What Assay reads from DuckDuckGo's HTML results page (`https://html.duckduckgo.com/html/`),
 * which has no API and no documented format: each organic result is a `div.result` holding
 * `a.result__a` (the title; its href goes through DuckDuckGo's redirector,
 * `//duckduckgo.com/l/?uddg=<the encoded target>&rut=…`) and `a.result__snippet`; ads are
 * `div.result--ad` or link to `duckduckgo.com/y.js`; a search without results shows
 * `div.no-results`. When it takes a client for a bot it answers (often HTTP 202) with a
 * challenge page instead (`anomaly-modal`, `challenge-form`, "bots use DuckDuckGo too").
 * The page is parsed with linkedom, the DOM the extractor uses, into the shape below, which
 * zod then checks.
 */
import { parseHTML } from "linkedom";
import { z } from "zod";

export const duckDuckGoResultSchema = z.object({
  href: z.string(),
  title: z.string(),
  snippet: z.string(),
  ad: z.boolean(),
});

export const duckDuckGoPageSchema = z.object({
  /** The page has a results list or says it found nothing: a page with neither is not a results page. */
  kind: z.enum(["results", "no-results"]),
  results: z.array(duckDuckGoResultSchema),
});

export type DuckDuckGoPage = z.infer<typeof duckDuckGoPageSchema>;

const CHALLENGE_MARKERS = ["anomaly-modal", "challenge-form", "bots use duckduckgo too", "anomaly.js"];

/** Whether `html` is DuckDuckGo's bot check rather than results. Pure. */
export function isChallengePage(html: string): boolean {
  const text = html.toLowerCase();
  return CHALLENGE_MARKERS.some((marker) => text.includes(marker));
}

const squeezed = (text: string | null | undefined): string => (text ?? "").replace(/\s+/g, " ").trim();

/**
 * The results of a DuckDuckGo HTML page, in page order; throws when the page is neither a
 * results list nor a "no results" page (the layout changed, or something else answered).
 */
export function parseDuckDuckGoPage(html: string): DuckDuckGoPage {
  const { document } = parseHTML(html);
  const blocks = [...document.querySelectorAll("div.result")];
  const results = blocks.flatMap((block) => {
    const link = block.querySelector("a.result__a");
    if (!link) return [];
    const href = link.getAttribute("href") ?? "";
    const ad = block.classList.contains("result--ad") || /duckduckgo\.com\/y\.js/.test(href);
    return [
      {
        href,
        title: squeezed(link.textContent),
        snippet: squeezed(block.querySelector(".result__snippet")?.textContent),
        ad,
      },
    ];
  });
  if (results.length > 0) return { kind: "results", results };
  if (document.querySelector(".no-results")) return { kind: "no-results", results: [] };
  throw new Error("the page has neither results nor a no-results notice");
}
