/**
 * robots.txt rules (RFC 9309), pure. The groups naming our product token apply, else the `*`
 * groups; the longest matching Allow/Disallow pattern wins, Allow on a tie; `*` and a final
 * `$` are supported. Matching is linear-time per pattern (no regular expressions built from input).
 */

export interface RobotsRule {
  allow: boolean;
  pattern: string;
}

interface Group {
  agents: string[];
  rules: RobotsRule[];
}

/** The product token of a User-Agent (`Assay/0.1 (...)` -> `assay`). */
export function productToken(userAgent: string): string {
  return (/^[A-Za-z_-]+/.exec(userAgent.trim())?.[0] ?? "").toLowerCase();
}

function encodeRun(run: string): string {
  try {
    return encodeURI(run);
  } catch {
    return run; // a lone surrogate cannot be encoded
  }
}

function normalizePath(path: string): string {
  // Encode non-ASCII as the URL parser does, and compare percent-escapes case-insensitively.
  return path.replace(/[^\x21-\x7e]+/g, encodeRun).replace(/%[0-9a-f]{2}/gi, (sequence) => sequence.toUpperCase());
}

function parseGroups(text: string): Group[] {
  const groups: Group[] = [];
  let current: Group | undefined;
  let collectingAgents = false;
  for (const rawLine of text.split(/\r\n|\r|\n/)) {
    const line = rawLine.replace(/#.*$/, "").trim();
    const colon = line.indexOf(":");
    if (colon === -1) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key === "user-agent") {
      if (!current || !collectingAgents) {
        current = { agents: [], rules: [] };
        groups.push(current);
      }
      current.agents.push(value.toLowerCase());
      collectingAgents = true;
    } else if ((key === "allow" || key === "disallow") && current) {
      collectingAgents = false;
      // An empty Disallow allows everything: it adds no rule.
      if (value !== "") current.rules.push({ allow: key === "allow", pattern: normalizePath(value) });
    }
  }
  return groups;
}

/** The rules that apply to `token` in a robots.txt. */
export function rulesFor(robotsTxt: string, token: string): RobotsRule[] {
  const groups = parseGroups(robotsTxt);
  const own = groups.filter((group) => group.agents.includes(token));
  const chosen = own.length > 0 ? own : groups.filter((group) => group.agents.includes("*"));
  return chosen.flatMap((group) => group.rules);
}

/** Glob match of `*` wildcards over the whole string, with single-point backtracking (O(n·m)). */
function globMatch(pattern: string, text: string): boolean {
  let p = 0;
  let t = 0;
  let star = -1;
  let mark = 0;
  while (t < text.length) {
    if (p < pattern.length && pattern[p] !== "*" && pattern[p] === text[t]) {
      p++;
      t++;
    } else if (p < pattern.length && pattern[p] === "*") {
      star = p++;
      mark = t;
    } else if (star !== -1) {
      p = star + 1;
      t = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.length && pattern[p] === "*") p++;
  return p === pattern.length;
}

export function patternMatches(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith("$");
  const body = anchored ? pattern.slice(0, -1) : `${pattern}*`;
  return globMatch(body, path);
}

/** Whether `pathAndQuery` (as in a URL: `/a/b?c=d`) may be fetched under `rules`. */
export function isAllowed(rules: readonly RobotsRule[], pathAndQuery: string): boolean {
  const path = normalizePath(pathAndQuery);
  if (path === "/robots.txt") return true;
  let best: RobotsRule | undefined;
  for (const rule of rules) {
    if (!patternMatches(rule.pattern, path)) continue;
    const longer = !best || rule.pattern.length > best.pattern.length;
    const tieAllow = best !== undefined && rule.pattern.length === best.pattern.length && rule.allow;
    if (longer || tieAllow) best = rule;
  }
  return best?.allow ?? true;
}
