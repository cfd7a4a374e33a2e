/**
 * Web search specs, parsed and printed without loading any provider: one provider
 * (`searxng:URL`, `tavily`, `wikipedia`, …), several at once (`wikipedia,arxiv,openalex`: one
 * query fanned out, hits merged), or `auto` (the default): a SearXNG that answers (the one
 * named by `auto:URL`, else localhost:8080), otherwise DuckDuckGo and Wikipedia. Also the
 * reader-facing names and the environment variables of the keys. Pure.
 */
import { spokenList } from "../../core/render/format.js";
import { err, ok, type Result } from "../../core/result.js";
import { isWebUrl } from "./web-search-hits.js";

export const searchProviderIds = [
  "searxng",
  "tavily",
  "brave",
  "serper",
  "duckduckgo",
  "wikipedia",
  "arxiv",
  "openalex",
  "pubmed",
] as const;
export type SearchProviderId = (typeof searchProviderIds)[number];

/** Reader-facing names, as a report's boundary says them. */
export const PROVIDER_NAMES: Readonly<Record<SearchProviderId, string>> = {
  searxng: "SearXNG",
  tavily: "Tavily",
  brave: "Brave Search",
  serper: "Serper",
  duckduckgo: "DuckDuckGo",
  wikipedia: "Wikipedia",
  arxiv: "arXiv",
  openalex: "OpenAlex",
  pubmed: "PubMed",
};

export interface SearchSpec {
  provider: SearchProviderId;
  /** Overrides the provider's endpoint; for SearXNG, the instance's address. */
  baseUrl?: string;
}

/** What `--search` asks for: named providers, or `auto` (with the SearXNG to try first). */
export type SearchPlan = { kind: "auto"; searxngUrl?: string } | { kind: "providers"; specs: SearchSpec[] };

const isProviderId = (value: string): value is SearchProviderId =>
  (searchProviderIds as readonly string[]).includes(value);

/** An http(s) URL without credentials, or why not. */
function checkedUrl(url: string, what: string): Result<string> {
  if (!isWebUrl(url)) return err(`${what} needs an http:// or https:// URL`);
  const parsed = new URL(url);
  if (parsed.username !== "" || parsed.password !== "")
    return err(`the URL in ${what} must not carry a user name or password`);
  return ok(url);
}

/**
 * Parses `provider` or `provider:url` (the URL replaces the provider's base URL).
 * Pure; never throws.
 */
export function parseSearchSpec(text: string): Result<SearchSpec> {
  const spec = text.trim();
  const colon = spec.indexOf(":");
  const provider = (colon < 0 ? spec : spec.slice(0, colon)).trim().toLowerCase();
  if (!isProviderId(provider)) {
    return err(`unknown search provider "${provider}" (known: ${searchProviderIds.join(", ")}, or auto)`);
  }
  if (colon < 0) return ok({ provider });
  const url = checkedUrl(spec.slice(colon + 1).trim(), `search provider "${provider}"`);
  return url.ok ? ok({ provider, baseUrl: url.value }) : err(url.error);
}

/**
 * Parses a `--search` value: `auto`, `auto:URL` (the SearXNG to try), one spec, or several
 * separated by commas (each provider once). Pure; never throws.
 */
export function parseSearchPlan(text: string): Result<SearchPlan> {
  const trimmed = text.trim();
  if (/^auto$/i.test(trimmed)) return ok({ kind: "auto" });
  if (/^auto:/i.test(trimmed)) {
    const url = checkedUrl(trimmed.slice(5).trim(), "auto (the SearXNG to try)");
    return url.ok ? ok({ kind: "auto", searxngUrl: url.value }) : err(url.error);
  }
  const specs: SearchSpec[] = [];
  for (const part of trimmed.split(",")) {
    if (part.trim() === "") return err(`"${trimmed}" has an empty provider name`);
    if (/^auto(:|$)/i.test(part.trim())) return err("auto cannot be combined with other providers");
    const spec = parseSearchSpec(part);
    if (!spec.ok) return spec;
    if (specs.some((known) => known.provider === spec.value.provider))
      return err(`${spec.value.provider} is named twice`);
    specs.push(spec.value);
  }
  return ok({ kind: "providers", specs });
}

/** The plan as a `--search` value, which parseSearchPlan reads back. Pure. */
export function formatSearchPlan(plan: SearchPlan): string {
  if (plan.kind === "auto") return plan.searxngUrl ? `auto:${plan.searxngUrl}` : "auto";
  return plan.specs.map((spec) => (spec.baseUrl ? `${spec.provider}:${spec.baseUrl}` : spec.provider)).join(",");
}

/** How a report's boundary names the providers of `plan` before it is opened. Pure. */
export function planLabel(plan: SearchPlan): string {
  if (plan.kind === "auto")
    return "the web, searched with SearXNG when one answers, else DuckDuckGo and Wikipedia (auto)";
  return `the web, searched with ${spokenList(plan.specs.map((spec) => PROVIDER_NAMES[spec.provider]))}`;
}

/** The environment variable that holds `provider`'s key when it needs one. */
export function searchKeyVariable(provider: SearchProviderId): string | undefined {
  switch (provider) {
    case "tavily":
      return "TAVILY_API_KEY";
    case "brave":
      return "BRAVE_API_KEY";
    case "serper":
      return "SERPER_API_KEY";
    default:
      return undefined;
  }
}

/**
 * A key `provider` uses when it is set and works without: PubMed (10 requests per second
 * instead of 3), OpenAlex (its free key lifts a small daily allowance).
 */
export function optionalKeyVariable(provider: SearchProviderId): string | undefined {
  if (provider === "pubmed") return "NCBI_API_KEY";
  if (provider === "openalex") return "OPENALEX_API_KEY";
  return undefined;
}
