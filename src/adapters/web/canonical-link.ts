/**
 * Finds a page's `<link rel="canonical" href="...">` without building a DOM (pure). The scan is
 * linear and limited to the start of the page, where the head is.
 */

const SCAN_LIMIT = 512 * 1024;
const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", "#39": "'" };

function attributes(tag: string): Map<string, string> {
  const found = new Map<string, string>();
  const pattern = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
  for (const match of tag.matchAll(pattern)) {
    const name = (match[1] ?? "").toLowerCase();
    if (!found.has(name)) found.set(name, match[2] ?? match[3] ?? match[4] ?? "");
  }
  return found;
}

function decodeEntities(value: string): string {
  return value.replace(/&(amp|lt|gt|quot|apos|#39);/g, (whole, name: string) => ENTITIES[name] ?? whole);
}

/** The href of the first `<link>` whose rel includes `canonical`, or undefined. Linear in the scanned text. */
export function findCanonicalHref(html: string): string | undefined {
  const head = html.slice(0, SCAN_LIMIT);
  const lower = head.toLowerCase();
  let position = 0;
  for (;;) {
    const start = lower.indexOf("<link", position);
    if (start === -1) return undefined;
    // Each search starts after the previous tag's end, so the scan never revisits text.
    const end = lower.indexOf(">", start);
    if (end === -1) return undefined;
    position = end + 1;
    const rest = head.slice(start + 5, end);
    if (rest !== "" && !/^[\s/]/.test(rest)) continue;
    const found = attributes(rest);
    const rel = (found.get("rel") ?? "").toLowerCase().split(/\s+/);
    const href = found.get("href");
    if (rel.includes("canonical") && href !== undefined && href.trim() !== "") return decodeEntities(href.trim());
  }
}
