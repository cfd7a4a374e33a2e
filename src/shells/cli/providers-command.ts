/**
 * `assay providers`: which web search providers this machine can use and why not, and what
 * `--search auto` would pick now. Keys are looked up in the environment (never printed);
 * SearXNG is asked once; the public keyless providers are not contacted (they need only the
 * internet, which this command does not test).
 */
import { probeSearxng } from "../../adapters/search/search-registry.js";
import {
  optionalKeyVariable,
  PROVIDER_NAMES,
  type SearchProviderId,
  searchKeyVariable,
  searchProviderIds,
} from "../../adapters/search/search-specs.js";
import { SEARXNG_DEFAULT_BASE_URL } from "../../adapters/search/searxng/searxng-search.js";

export interface ProviderStatus {
  provider: SearchProviderId;
  name: string;
  usable: boolean;
  /** Why, in a line. */
  detail: string;
}

/** What each provider needs, as a user reads it (its limits and terms are in docs/web.md). */
const TERMS: Partial<Record<SearchProviderId, string>> = {
  duckduckgo: "no key; its HTML page, not an API: it may change or block automated searches",
  wikipedia: "no key; the report language's Wikipedia",
  arxiv: "no key; one request per 3 s, as arXiv's terms ask",
  openalex:
    "no key needed; OPENALEX_API_KEY lifts its small daily allowance, ASSAY_CONTACT_EMAIL joins its polite pool",
  pubmed: "no key needed; 3 requests per second, 10 with NCBI_API_KEY",
};

export async function providerStatuses(
  environment: Record<string, string | undefined>,
  options: { searxng?: string; fetch?: typeof fetch } = {},
): Promise<{ providers: ProviderStatus[]; auto: string }> {
  const searxngUrl = options.searxng ?? SEARXNG_DEFAULT_BASE_URL;
  const searxng = await probeSearxng(searxngUrl, options.fetch ? { fetch: options.fetch } : {});
  const providers = searchProviderIds.map((provider): ProviderStatus => {
    const name = PROVIDER_NAMES[provider];
    if (provider === "searxng") {
      return {
        provider,
        name,
        usable: searxng === "answered",
        detail: `the instance at ${searxngUrl} ${searxng}${searxng === "answered" ? "" : " (give another with --searxng URL)"}`,
      };
    }
    const required = searchKeyVariable(provider);
    if (required !== undefined) {
      const set = Boolean(environment[required]?.trim());
      return { provider, name, usable: set, detail: set ? `${required} is set` : `needs ${required} (not set)` };
    }
    const optional = optionalKeyVariable(provider);
    const keyNote = optional && environment[optional]?.trim() ? `; ${optional} is set` : "";
    return { provider, name, usable: true, detail: `${TERMS[provider] ?? "no key"}${keyNote}` };
  });
  const auto =
    searxng === "answered"
      ? `auto uses SearXNG at ${searxngUrl}`
      : `auto uses DuckDuckGo and Wikipedia (SearXNG at ${searxngUrl} ${searxng})`;
  return { providers, auto };
}

export async function providersCommand(
  environment: Record<string, string | undefined>,
  options: { searxng?: string; json?: boolean },
): Promise<number> {
  const status = await providerStatuses(environment, options.searxng ? { searxng: options.searxng } : {});
  if (options.json) {
    process.stdout.write(`${JSON.stringify(status, null, 2)}\n`);
    return 0;
  }
  const width = Math.max(...status.providers.map((item) => item.provider.length));
  for (const item of status.providers) {
    process.stdout.write(`${item.provider.padEnd(width)}  ${item.usable ? "usable " : "missing"}  ${item.detail}\n`);
  }
  process.stdout.write(`\n${status.auto}.\n`);
  return 0;
}
