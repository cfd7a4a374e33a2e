/**
 * One query sent to several providers at once (`--search wikipedia,arxiv,openalex`, or
 * `auto`'s DuckDuckGo and Wikipedia), their hits merged: taken in turn by rank (each
 * provider's first, then each one's second, …), and de-duplicated by identity: a work's
 * DOI, arXiv id or PMID when a provider knows it, else the normalised URL. A merged hit
 * keeps every provider that found it with its rank there (`foundBy`) and the fullest
 * bibliographic metadata they gave. A provider that fails while another answers is a
 * notice, not a failure; the search fails only when every provider failed.
 */
import { ExternalServiceError, UserError } from "../../core/errors.js";
import { mergeWorks, workIdentity } from "../../core/works.js";
import type { SearchHit, SearchOptions, SearchProvider, SearchQuery } from "../../ports/search-provider.js";
import { normalizeUrl } from "../web/canonical-url.js";

/** The identity hits are merged by: the work's, else the normalised URL. Pure. */
export function hitIdentity(hit: SearchHit): string {
  return workIdentity(hit.work) ?? urlIdentity(hit.anchor);
}

const urlIdentity = (anchor: string): string => {
  const url = normalizeUrl(anchor);
  return `url:${url.ok ? url.value : anchor}`;
};

/**
 * Merges the providers' ranked lists (in the providers' order) into one of at most `limit`
 * hits ranked 1..n. Pure.
 */
export function mergeHits(
  lists: readonly { provider: string; hits: readonly SearchHit[] }[],
  limit: number,
): SearchHit[] {
  const merged = new Map<string, SearchHit>();
  const aliases = new Map<string, string>();
  const depth = Math.max(0, ...lists.map((list) => list.hits.length));
  for (let index = 0; index < depth; index++) {
    for (const { provider, hits } of lists) {
      const hit = hits[index];
      if (!hit) continue;
      // A hit known by its work and by its URL matches either way.
      const keys = [hitIdentity(hit), urlIdentity(hit.anchor)];
      const known = keys.map((key) => aliases.get(key)).find((key) => key !== undefined);
      const found = { provider, rank: hit.rank };
      if (known) {
        const previous = merged.get(known);
        if (previous) {
          const work = mergeWorks(previous.work, hit.work);
          // Another page of the same work (not the same page spelt otherwise) stays as an alternate.
          const samePage = [previous.anchor, ...(previous.alternates ?? [])].some(
            (anchor) => urlIdentity(anchor) === urlIdentity(hit.anchor),
          );
          merged.set(known, {
            ...previous,
            ...(previous.snippet === "" && hit.snippet !== "" ? { snippet: hit.snippet } : {}),
            ...(work ? { work } : {}),
            foundBy: [...(previous.foundBy ?? []), found],
            ...(samePage ? {} : { alternates: [...(previous.alternates ?? []), hit.anchor] }),
          });
        }
        for (const key of keys) aliases.set(key, known);
        continue;
      }
      if (merged.size >= limit) continue;
      const key = keys[0] ?? hit.anchor;
      for (const alias of keys) aliases.set(alias, key);
      merged.set(key, { ...hit, foundBy: [found] });
    }
  }
  return [...merged.values()].map((hit, index) => ({ ...hit, rank: index + 1, score: 1 / (index + 1) }));
}

/**
 * The providers behind one search; `label` names each for notices ("DuckDuckGo"). A provider
 * that fails in a way a retry would not mend (its bot check, a host that does not resolve, a
 * refused key), or that failed twice in a row after its own retries (a server that is down), is
 * benched for the life of this search object (one run's scope): later queries skip it, with a
 * notice, instead of waiting for it again while the others answer.
 */
export function createFanOutSearch(members: readonly { provider: SearchProvider; label: string }[]): SearchProvider {
  if (members.length === 0) throw new UserError("no search provider to search with");
  const benched = new Map<SearchProvider, string>();
  const failedInARow = new Map<SearchProvider, number>();
  return {
    name: members.map((member) => member.provider.name).join("+"),
    checkQuery(query: SearchQuery) {
      const refusals = members.map((member) => member.provider.checkQuery(query));
      return refusals.every((refusal) => refusal !== undefined) ? refusals[0] : undefined;
    },
    async search(query: SearchQuery, options: SearchOptions): Promise<SearchHit[]> {
      options.signal?.throwIfAborted();
      const taking = members.filter((member) => member.provider.checkQuery(query) === undefined);
      if (taking.length === 0) throw new UserError(members[0]?.provider.checkQuery(query) ?? "the query was refused");
      // Benched providers sit out while another can answer; when all are benched, all are asked again.
      const awake = taking.filter((member) => !benched.has(member.provider));
      const asked = awake.length > 0 ? awake : taking;
      for (const member of taking)
        if (!asked.includes(member))
          options.notice?.(
            `${member.label} was not asked: it failed earlier in this run (${benched.get(member.provider)})`,
          );
      const settled = await Promise.allSettled(
        asked.map((member) =>
          member.provider.search(query, {
            limit: options.limit,
            ...(options.signal ? { signal: options.signal } : {}),
          }),
        ),
      );
      if (options.signal?.aborted) throw options.signal.reason;
      const lists: { provider: string; hits: SearchHit[] }[] = [];
      const failures: string[] = [];
      settled.forEach((outcome, index) => {
        const member = asked[index];
        if (!member) return;
        if (outcome.status === "fulfilled") {
          benched.delete(member.provider);
          failedInARow.delete(member.provider);
          lists.push({ provider: member.provider.name, hits: outcome.value });
          return;
        }
        const message = outcome.reason instanceof Error ? outcome.reason.message : String(outcome.reason);
        failures.push(`${member.label}: ${message}`);
        const inARow = (failedInARow.get(member.provider) ?? 0) + 1;
        failedInARow.set(member.provider, inARow);
        if (!retryable(outcome.reason) || inARow >= BENCH_AFTER) benched.set(member.provider, message);
      });
      if (lists.length === 0) {
        const first = settled.find((outcome) => outcome.status === "rejected");
        // Every provider failed: the user's fault only when each failure was.
        const userFault = settled.every(
          (outcome) => outcome.status === "rejected" && outcome.reason instanceof UserError,
        );
        const message = `every search provider failed: ${failures.join("; ")}`;
        throw userFault
          ? new UserError(message)
          : new ExternalServiceError(message, {
              cause: first?.status === "rejected" ? first.reason : undefined,
              // Worth asking again when one of them may mend on its own.
              isRetryable: settled.some((outcome) => outcome.status === "rejected" && retryable(outcome.reason)),
            });
      }
      for (const failure of failures) options.notice?.(`${failure} (the other providers answered)`);
      return mergeHits(lists, options.limit);
    },
  };
}

/** Failures in a row, each after the provider's own retries, that bench a provider whose failures may pass. */
const BENCH_AFTER = 2;

/** Whether a failure may pass on its own (a timeout, a 5xx): such a provider is asked again next time. */
function retryable(error: unknown): boolean {
  return error instanceof ExternalServiceError && error.isRetryable;
}
