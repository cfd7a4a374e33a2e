/**
 * Host admission of proposed acquisition queries (seed 004 "Acquisition"). Pure.
 * A query is admitted when it is inside the evidence scope, non-empty and within the
 * length and count limits, a safe path and a valid pattern for corpus search, and not a
 * canonical duplicate of work already scheduled. Ids are assigned later, by the store.
 */

import { type ScopeKind, takesPatterns } from "../../ports/store.js";
import type { SearchQuery } from "../search-query.js";
import { readerLine } from "../text.js";
import type { QueryProposal } from "./proposals.js";

export interface QueryAdmissionRules {
  scopeKind: ScopeKind;
  maxQueries: number;
  maxQueryChars: number;
  /** The search provider's own check (pattern syntax, safe path); a reason when refused. */
  providerProblem: (query: SearchQuery) => string | undefined;
}

export interface QueryAdmission {
  admitted: SearchQuery[];
  refused: { proposal: QueryProposal; reason: string }[];
}

/** Canonical form used to find duplicates: lower case, word characters, sorted words for text. */
export function canonicalQuery(query: SearchQuery): string {
  if (query.kind === "pattern") return `pattern:${query.pathPrefix ?? ""}:${query.pattern}`;
  const words = query.text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return `text:${[...new Set(words)].sort().join(" ")}`;
}

export function admitQueries(
  proposals: readonly QueryProposal[],
  scheduled: readonly SearchQuery[],
  rules: QueryAdmissionRules,
): QueryAdmission {
  const seen = new Set(scheduled.map(canonicalQuery));
  const admitted: SearchQuery[] = [];
  const refused: QueryAdmission["refused"] = [];
  for (const proposal of proposals) {
    const refuse = (reason: string): void => {
      refused.push({ proposal, reason });
    };
    const text = proposal.text === undefined ? undefined : readerLine(proposal.text, Number.MAX_SAFE_INTEGER);
    const pattern = proposal.pattern;
    if ((text ? 1 : 0) + (pattern ? 1 : 0) !== 1) {
      refuse("a query needs exactly one of text or pattern");
      continue;
    }
    let query: SearchQuery;
    if (text) {
      if (proposal.pathPrefix !== undefined) {
        refuse("a path prefix applies to pattern queries only");
        continue;
      }
      if (text.length > rules.maxQueryChars) {
        refuse(`the query is longer than ${rules.maxQueryChars} characters`);
        continue;
      }
      query = { kind: "text", text };
    } else {
      if (!takesPatterns(rules.scopeKind)) {
        refuse("pattern queries are only allowed for a corpus scope");
        continue;
      }
      const patternText = pattern ?? "";
      if (patternText.length > rules.maxQueryChars) {
        refuse(`the pattern is longer than ${rules.maxQueryChars} characters`);
        continue;
      }
      query = {
        kind: "pattern",
        pattern: patternText,
        ...(proposal.pathPrefix ? { pathPrefix: proposal.pathPrefix } : {}),
      };
    }
    const providerProblem = rules.providerProblem(query);
    if (providerProblem) {
      refuse(providerProblem);
      continue;
    }
    const key = canonicalQuery(query);
    if (seen.has(key)) {
      refuse("duplicates a query already scheduled");
      continue;
    }
    if (admitted.length >= rules.maxQueries) {
      refuse(`more than ${rules.maxQueries} queries were proposed`);
      continue;
    }
    seen.add(key);
    admitted.push(query);
  }
  return { admitted, refused };
}
