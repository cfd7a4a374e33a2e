/**
 * Acquisition (seed 004 "Acquisition"): search, then fetch -> persist -> expose. A source
 * becomes visible to the strategy only after its record is committed. Failures are
 * durable diagnostics and never erase successful siblings.
 */
import { createHash } from "node:crypto";
import { chunkContent } from "../core/chunking.js";
import { describeError, UserError } from "../core/errors.js";
import { workAnchor } from "../core/works.js";
import type { SearchHit, SearchQuery } from "../ports/search-provider.js";
import type { SearchCallRecord, SearchOrigin, SourceRecord } from "../ports/store.js";
import type { RunHost } from "./run-host.js";

/** How many documents one search asks for. */
export const SEARCH_LIMIT = 30;

/**
 * Runs one search, spending a search-call slot; returns undefined when the budget is spent, or
 * when `stop` aborted it: a search the run stopped waiting for is not recorded as one that ran.
 */
export async function search(
  host: RunHost,
  query: SearchQuery,
  origin: SearchOrigin,
  stop?: AbortSignal,
): Promise<SearchCallRecord | undefined> {
  if (host.signal.aborted || stop?.aborted) return undefined;
  if (!(await host.trySpend("searchCalls"))) return undefined;
  const startedMs = host.clock.offset();
  let hits: SearchHit[] = [];
  let error = "";
  let configurationError: UserError | undefined;
  // A provider of several that failed while the others answered: a diagnostic, not a failed search.
  const notices: string[] = [];
  try {
    hits = await host.search.search(query, {
      limit: SEARCH_LIMIT,
      signal: stop ? AbortSignal.any([host.signal, stop]) : host.signal,
      notice: (message) => notices.push(message),
    });
  } catch (failure) {
    if (stop?.aborted && !host.signal.aborted) return undefined;
    error = describeError(failure);
    // A misconfigured provider (bad key, JSON disabled) is the user's to fix: stop the run, after recording it.
    if (failure instanceof UserError) configurationError = failure;
  }
  const call = await host.store.recordSearchCall(host.run.id, {
    origin,
    query,
    status: error ? "failed" : "ok",
    hits,
    error,
    startedMs,
    finishedMs: host.clock.offset(),
  });
  host.recordSearch(call);
  for (const notice of notices) await host.diagnose("search", "search-provider-failed", notice, { queryId: call.id });
  if (configurationError) {
    await host.diagnose("search", "search-misconfigured", error, { queryId: call.id });
    await host.emit("search-failed", { queryId: call.id, origin });
    throw configurationError;
  }
  if (error) {
    await host.diagnose("search", "search-failed", error, { queryId: call.id });
    await host.emit("search-failed", { queryId: call.id, origin });
  } else {
    // `partial`: some of its providers failed and the others answered (the report says so).
    await host.emit("search-finished", {
      queryId: call.id,
      origin,
      hits: hits.length,
      ...(notices.length > 0 ? { partial: true } : {}),
    });
  }
  return call;
}

export type AcquireOutcome =
  | { kind: "persisted"; source: SourceRecord }
  | { kind: "duplicate"; source: SourceRecord }
  | { kind: "failed" }
  | { kind: "skipped"; reason: "budget" | "deadline" };

export interface Candidate {
  anchor: string;
  queryId: string;
  rank: number;
  /**
   * The anchor of the scholarly work the hit is (`workAnchor`: its DOI, arXiv or PubMed URL),
   * when the provider knew one: the source is kept under it, so the same paper reached through
   * two providers (an arXiv abstract page, an OpenAlex PDF) is one source with both provenance rows.
   */
  work?: string;
}

function alreadyPersisted(host: RunHost, anchor: string): SourceRecord | undefined {
  return host
    .known()
    .find(
      (source) =>
        source.canonicalAnchor === anchor ||
        source.requestedAnchor === anchor ||
        source.provenance.some((provenance) => provenance.requestedAnchor === anchor),
    );
}

/**
 * Fetches and persists one candidate. A candidate whose anchor is already persisted only
 * merges its provenance: no fetch, no new slot.
 */
export async function acquire(host: RunHost, candidate: Candidate): Promise<AcquireOutcome> {
  const provenance = { queryId: candidate.queryId, rank: candidate.rank, requestedAnchor: candidate.anchor };
  const known =
    alreadyPersisted(host, candidate.anchor) ?? (candidate.work ? alreadyPersisted(host, candidate.work) : undefined);
  if (known) {
    const recorded = known.provenance.some(
      (item) => item.queryId === candidate.queryId && item.requestedAnchor === candidate.anchor,
    );
    if (recorded) return { kind: "duplicate", source: known };
    return mergeDuplicate(host, known, provenance);
  }
  if (host.hasFailed(candidate.anchor)) return { kind: "failed" };
  if (host.signal.aborted) return { kind: "skipped", reason: "deadline" };
  if (!(await host.reserveSource())) return { kind: "skipped", reason: "budget" };
  let persisted = false;
  // A read of the user's library fetches nothing: it spends no fetch attempt.
  const stored = host.fetcher.storedCopies === true;
  try {
    if (!stored && !(await host.trySpend("fetchAttempts"))) return { kind: "skipped", reason: "budget" };
    let document: Awaited<ReturnType<RunHost["fetcher"]["fetch"]>>;
    try {
      document = await host.fetcher.fetch(candidate.anchor, {
        maxChars: host.request.budgets.maxSourceChars,
        signal: host.signal,
      });
    } catch (error) {
      if (host.signal.aborted) {
        await host.emit("fetch-cancelled", { anchor: candidate.anchor });
        return { kind: "skipped", reason: "deadline" };
      }
      host.markFailed(candidate.anchor);
      await host.diagnose("fetch", "fetch-failed", describeError(error), { anchor: candidate.anchor });
      await host.emit("fetch-failed", {
        anchor: candidate.anchor,
        queryId: candidate.queryId,
        ...(stored ? { library: true } : {}),
      });
      return { kind: "failed" };
    }
    const fetchedMs = host.clock.offset();
    if (document.content.trim().length === 0) {
      host.markFailed(candidate.anchor);
      await host.diagnose("fetch", "empty-document", "the document has no readable text", { anchor: candidate.anchor });
      await host.emit("fetch-failed", { anchor: candidate.anchor, queryId: candidate.queryId, empty: true });
      return { kind: "failed" };
    }
    // Not awaited before the persist: both writes join one group commit (one fsync, not two, on
    // the way to the first durable source); it is awaited below, so its failure still counts.
    const { library, sections, ...read } = document;
    const fetched = library
      ? host.emit("source-recalled", {
          anchor: document.canonicalAnchor,
          entry: library.entryId,
          capturedAt: library.capturedAt,
          chars: document.content.length,
        })
      : host.emit("source-fetched", { anchor: document.canonicalAnchor, chars: document.content.length });
    fetched.catch(() => undefined);
    let result: Awaited<ReturnType<RunHost["store"]["persistSource"]>>;
    try {
      result = await host.store.persistSource(
        host.run.id,
        {
          ...read,
          // A work keeps one identity whichever page of it was read; the URL read stays `url`.
          ...(candidate.work ? { canonicalAnchor: candidate.work } : {}),
          requestedAnchor: candidate.anchor,
          sha256: createHash("sha256").update(document.content).digest("hex"),
          // A library copy was observed when it was first captured, not now.
          capturedAt: library?.capturedAt ?? host.clock.wallIso(),
          ...(library ? { reused: "library" as const } : {}),
          fetchedMs,
          provenance,
          chunks: chunkContent(document.content, { sections: sections ?? [] }),
        },
        () => host.clock.offset(),
      );
    } catch (error) {
      await fetched;
      host.markFailed(candidate.anchor);
      await host.diagnose("persist", "persist-failed", describeError(error), { anchor: candidate.anchor });
      await host.emit("persist-failed", { anchor: candidate.anchor });
      return { kind: "failed" };
    }
    await fetched;
    host.expose(result.source);
    if (result.duplicate) {
      await host.emit("source-merged", { sourceId: result.source.id, anchor: candidate.anchor });
      return { kind: "duplicate", source: result.source };
    }
    persisted = true;
    await host.emit("source-persisted", {
      sourceId: result.source.id,
      anchor: result.source.canonicalAnchor,
      title: result.source.title,
      persisted: host.sources().length,
    });
    return { kind: "persisted", source: result.source };
  } finally {
    host.releaseSource(persisted);
  }
}

async function mergeDuplicate(
  host: RunHost,
  known: SourceRecord,
  provenance: { queryId: string; rank: number; requestedAnchor: string },
): Promise<AcquireOutcome> {
  const {
    chunks: _chunks,
    provenance: _provenance,
    runId: _runId,
    id: _id,
    persistedMs: _persistedMs,
    ...fields
  } = known;
  let result: Awaited<ReturnType<RunHost["store"]["persistSource"]>>;
  try {
    result = await host.store.persistSource(host.run.id, { ...fields, provenance, chunks: [] }, () =>
      host.clock.offset(),
    );
  } catch (error) {
    // The source itself stays persisted; only this provenance row is lost.
    await host.diagnose("persist", "merge-failed", describeError(error), { anchor: provenance.requestedAnchor });
    return { kind: "duplicate", source: known };
  }
  host.expose(result.source);
  // A source carried over from the parent run, reached by this run for the first time: read, not fetched.
  const reused = known.reused === "parent" && known.provenance.length === 0;
  await host.emit(reused ? "source-reused" : "source-merged", {
    sourceId: result.source.id,
    anchor: provenance.requestedAnchor,
    ...(reused ? { from: host.request.lineage?.parentId } : {}),
  });
  return { kind: "duplicate", source: result.source };
}

/**
 * Acquires candidates in the order given with bounded concurrency, until the source budget is
 * full (or `wantSources` more are claimed), a budget is spent or the deadline passes. The
 * candidates may come as they are found (`asTheyReturn`): a worker waits for the next one, none
 * is waited for once `wantSources` are claimed, and `onFull` lets the caller stop the searches
 * still out once every slot is taken. Returns the outcomes in candidate order.
 */
export async function acquireAll(
  host: RunHost,
  candidates: Iterable<Candidate> | AsyncIterable<Candidate>,
  options: {
    concurrency?: number;
    wantSources?: number;
    /** Called when every source slot is taken: what is still being searched for cannot be read. */
    onFull?: () => void;
  } = {},
): Promise<AcquireOutcome[]> {
  const concurrency = Math.max(1, options.concurrency ?? 4);
  // Slots persisted or being fetched; a worker stops once enough are claimed.
  const claimed = (): number => host.request.budgets.maxSources - host.remaining("sources");
  const target = claimed() + (options.wantSources ?? Number.POSITIVE_INFINITY);
  const iterator =
    Symbol.asyncIterator in candidates ? candidates[Symbol.asyncIterator]() : candidates[Symbol.iterator]();
  const outcomes: AcquireOutcome[] = [];
  let index = 0;
  const worker = async (): Promise<void> => {
    while (claimed() < target && !host.signal.aborted) {
      if (host.remaining("sources") <= 0) options.onFull?.();
      const next = await iterator.next();
      if (next.done) return;
      const at = index++;
      if (claimed() >= target || host.signal.aborted) {
        outcomes[at] = { kind: "skipped", reason: host.signal.aborted ? "deadline" : "budget" };
        return;
      }
      outcomes[at] = await acquire(host, next.value);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return outcomes;
}

/** Planned searches in flight at once: on the web each is a round trip to a provider. */
export const SEARCH_CONCURRENCY = 3;

export interface SearchBatch {
  /** Each query's search call, settling as it returns (undefined: not run, a budget was spent). */
  calls: Promise<SearchCallRecord | undefined>[];
  /** Starts no further search and stops those in flight (unrecorded). Resolves once they ended. */
  stop(): Promise<void>;
  /** Every search run, or stopped. Rejects with a search's configuration error. */
  settled: Promise<void>;
}

/** Runs `queries`, at most SEARCH_CONCURRENCY at once, each recorded as its search returns. */
export function searchAll(host: RunHost, queries: readonly SearchQuery[], origin: SearchOrigin): SearchBatch {
  const settle = queries.map(() => ({
    resolve: (_call: SearchCallRecord | undefined) => {},
    reject: (_: unknown) => {},
  }));
  const calls = queries.map(
    (_, index) =>
      new Promise<SearchCallRecord | undefined>((resolve, reject) => {
        settle[index] = { resolve, reject };
      }),
  );
  // A call never waited for (the batch stopped or failed) must not be an unhandled rejection.
  for (const call of calls) call.catch(() => undefined);
  let next = 0;
  const stopped = new AbortController();
  const worker = async (): Promise<void> => {
    while (next < queries.length) {
      const index = next++;
      const query = queries[index];
      if (stopped.signal.aborted || !query) {
        settle[index]?.resolve(undefined);
        continue;
      }
      try {
        settle[index]?.resolve(await search(host, query, origin, stopped.signal));
      } catch (error) {
        settle[index]?.reject(error);
        stopped.abort();
        throw error;
      }
    }
  };
  const settled = Promise.all(Array.from({ length: Math.min(SEARCH_CONCURRENCY, queries.length) }, worker)).then(
    () => undefined,
  );
  // Awaited by the caller in the end; until then a configuration error must not go unhandled.
  settled.catch(() => undefined);
  return {
    calls,
    settled,
    stop() {
      stopped.abort();
      return settled;
    },
  };
}

/**
 * The candidates of `calls` in the order `interleave` gives once every call has returned, each
 * handed out as soon as no call still running could come before it: a call's best hit once it
 * and every call before it returned, the rest once all returned. Reading them as they come
 * starts the first fetches while later searches are still out, and keeps which sources a run
 * reads independent of which search answers first.
 */
export async function* asTheyReturn(
  calls: readonly Promise<SearchCallRecord | undefined>[],
): AsyncGenerator<Candidate> {
  const lists: Candidate[][] = [];
  for (const call of calls) {
    const record = await call;
    const list = record?.status === "ok" ? candidatesOf(record) : [];
    lists.push(list);
    if (list[0]) yield list[0];
  }
  for (let rank = 1; lists.some((list) => rank < list.length); rank++) {
    for (const list of lists) {
      const candidate = list[rank];
      if (candidate) yield candidate;
    }
  }
}

/** The items of each of `parts` in turn, waiting for none before it is needed. */
export async function* chain<T>(...parts: (Iterable<T> | AsyncIterable<T>)[]): AsyncGenerator<T> {
  for (const part of parts) yield* part;
}

/**
 * Candidates from a search call's hits, in rank order; a hit with alternates (other pages of
 * the same work) gives one candidate per page, at the hit's rank: the first that can be read
 * is fetched, and the others then only add their provenance to it.
 */
export function candidatesOf(call: SearchCallRecord): Candidate[] {
  return call.hits.flatMap((hit) => {
    const work = workAnchor(hit.work);
    return [hit.anchor, ...(hit.alternates ?? [])].map((anchor) => ({
      anchor,
      queryId: call.id,
      rank: hit.rank,
      ...(work ? { work } : {}),
    }));
  });
}

/** Interleaves the candidates of several searches by rank: best of each first. */
export function interleave(calls: readonly SearchCallRecord[]): Candidate[] {
  const lists = calls.map(candidatesOf);
  const out: Candidate[] = [];
  for (let rank = 0; lists.some((list) => rank < list.length); rank++) {
    for (const list of lists) {
      const candidate = list[rank];
      if (candidate) out.push(candidate);
    }
  }
  return out;
}
