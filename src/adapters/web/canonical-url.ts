/**
 * URL identity for web sources (pure). Two URLs that name the same page (one with tracking
 * parameters, a fragment or a default port, one without) get the same canonical form, and a
 * page may name its own canonical URL as long as it stays on the same site.
 */
import { getDomain, parse } from "tldts";

export type UrlResult = { ok: true; value: string } | { ok: false; error: string };

const TRACKING_PREFIXES = ["utm_", "pk_", "mtm_", "hsa_"];

const TRACKING_NAMES = new Set([
  "gclid",
  "gclsrc",
  "dclid",
  "gbraid",
  "wbraid",
  "srsltid",
  "fbclid",
  "msclkid",
  "mc_cid",
  "mc_eid",
  "yclid",
  "ysclid",
  "_ga",
  "_gl",
  "ref_src",
  "ref_url",
  "igshid",
  "twclid",
  "ttclid",
  "li_fat_id",
  "mkt_tok",
  "_hsenc",
  "_hsmi",
  "__hstc",
  "__hssc",
  "__hsfp",
  "hsctatracking",
  "vero_id",
  "vero_conv",
  "oly_anon_id",
  "oly_enc_id",
  "rb_clickid",
  "s_cid",
  "wickedid",
  "epik",
]);

/** Whether a query parameter only tracks the visitor and never selects content. */
export function isTrackingParameter(name: string): boolean {
  const lower = name.toLowerCase();
  return TRACKING_NAMES.has(lower) || TRACKING_PREFIXES.some((prefix) => lower.startsWith(prefix));
}

/**
 * The canonical form of an http(s) URL: scheme and host lower-cased, default port, fragment,
 * credentials and tracking parameters removed, the remaining parameters sorted stably by name,
 * an empty query removed, percent-encoding as the WHATWG URL parser writes it. Pure; never throws.
 */
export function normalizeUrl(input: string): UrlResult {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    return { ok: false, error: `not a URL: ${JSON.stringify(input.slice(0, 200))}` };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return { ok: false, error: `unsupported scheme "${url.protocol.slice(0, -1)}" (only http and https)` };
  }
  if (url.hostname === "") return { ok: false, error: "URL has no host" };
  url.hash = "";
  url.username = "";
  url.password = "";
  if (url.hostname.endsWith(".") && !url.hostname.startsWith("[")) url.hostname = url.hostname.slice(0, -1);
  const kept = new URLSearchParams();
  for (const [name, value] of url.searchParams) {
    if (!isTrackingParameter(name)) kept.append(name, value);
  }
  // URLSearchParams.sort is stable: repeated names keep their relative order.
  kept.sort();
  const query = kept.toString();
  url.search = query === "" ? "" : `?${query}`;
  return { ok: true, value: url.href };
}

/**
 * The registrable domain of a URL, public-suffix aware (`news.bbc.co.uk` -> `bbc.co.uk`,
 * `someone.github.io` stays itself); an IP host returns the IP, a host without a registrable
 * domain (`localhost`) returns the host. Pure; '' for a string that is not a URL.
 */
export function registrableDomain(url: string): string {
  let hostname: string;
  try {
    hostname = new URL(url).hostname;
  } catch {
    return "";
  }
  const bare = hostname.startsWith("[") ? hostname.slice(1, -1) : hostname.replace(/\.$/, "");
  if (parse(bare).isIp) return bare;
  return getDomain(bare, { allowPrivateDomains: true }) ?? bare;
}

/**
 * The identity of a fetched page: the page's own `<link rel=canonical>` (resolved against the
 * final URL) when it is a same-site http(s) URL, else the normalized final URL. Pure.
 */
export function canonicalFor(finalUrl: string, pageCanonicalHref?: string): string {
  const final = normalizeUrl(finalUrl);
  const fallback = final.ok ? final.value : finalUrl;
  if (pageCanonicalHref === undefined || pageCanonicalHref.trim() === "") return fallback;
  let resolved: string;
  try {
    resolved = new URL(pageCanonicalHref.trim(), finalUrl).href;
  } catch {
    return fallback;
  }
  const declared = normalizeUrl(resolved);
  if (!declared.ok) return fallback;
  const site = registrableDomain(fallback);
  return site !== "" && registrableDomain(declared.value) === site ? declared.value : fallback;
}
