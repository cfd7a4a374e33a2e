/**
 * Run timings derived from the durable event log (pure). Offsets are milliseconds from
 * the run origin; nothing is summed across parallel stages.
 */
import type { AcquisitionFacts } from "./report/build-report.js";

/** The part of a stored event the derivations need. */
export interface EventLike {
  type: string;
  offsetMs: number;
  data: Record<string, unknown>;
}

export interface RunTimings {
  firstSourceFetchedMs?: number;
  firstSourcePersistedMs?: number;
  preliminaryPublishedMs?: number;
  finalPublishedMs?: number;
  terminalMs?: number;
}

const first = (events: readonly EventLike[], type: string): number | undefined =>
  events.find((event) => event.type === type)?.offsetMs;

const last = (events: readonly EventLike[], type: string): number | undefined =>
  events.findLast((event) => event.type === type)?.offsetMs;

export function runTimings(events: readonly EventLike[]): RunTimings {
  const timings: RunTimings = {};
  const set = (key: keyof RunTimings, value: number | undefined): void => {
    if (value !== undefined) timings[key] = value;
  };
  set("firstSourceFetchedMs", first(events, "source-fetched"));
  set("firstSourcePersistedMs", first(events, "source-persisted"));
  set("preliminaryPublishedMs", first(events, "preliminary-published"));
  set("finalPublishedMs", last(events, "final-published"));
  set("terminalMs", last(events, "run-finished"));
  return timings;
}

/** Counts of what acquisition attempted and what limited it, from the events. */
export function acquisitionFacts(events: readonly EventLike[]): AcquisitionFacts {
  const count = (type: string): number => events.filter((event) => event.type === type).length;
  const limits = new Set<string>();
  for (const event of events) {
    if (event.type === "budget-exhausted" && typeof event.data.limit === "string") limits.add(event.data.limit);
  }
  return {
    searchCalls: count("search-finished") + count("search-failed"),
    failedSearches: count("search-failed"),
    partialSearches: events.filter((event) => event.type === "search-finished" && event.data.partial === true).length,
    hits: events
      .filter((event) => event.type === "search-finished")
      .reduce((sum, event) => sum + (typeof event.data.hits === "number" ? event.data.hits : 0), 0),
    fetchAttempts: count("source-fetched") + count("fetch-failed"),
    failedFetches: count("fetch-failed"),
    limitsReached: [...limits],
    deadlineReached: count("deadline-reached") > 0,
    cancelled: count("run-cancelled") > 0,
  };
}
