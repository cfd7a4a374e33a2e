/**
 * Host overhead of a real run: fake search and fetch with fixed latency on real timers, a
 * real SQLite store (WAL, synchronous=FULL, so every commit pays its fsync), the real
 * filesystem artifact store and the system clock, all driven through createRuntime().run().
 *
 * Figures come from the durable event log where possible, so that they do not depend on
 * how the pipeline overlaps fetches (acquireAll fetches four at a time).
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { FilesystemArtifactStore } from "../adapters/artifacts/filesystem/filesystem-artifact-store.js";
import { systemClock } from "../adapters/clock/system-clock.js";
import { openSqliteStore } from "../adapters/store/sqlite/sqlite-store.js";
import { resolveBudgets } from "../core/budgets.js";
import { SEARCH_LIMIT } from "../host/acquisition.js";
import type { RunEvent } from "../ports/store.js";
import { createRuntime } from "../runtime/runtime.js";
import { fakeScopeOpener, syntheticDocuments } from "../testing/fake-scope.js";

/** Fetch concurrency of acquireAll (src/host/acquisition.ts); used to count latency rounds. */
export const PIPELINE_FETCH_CONCURRENCY = 4;

export const BENCH_QUESTION = "What limits the energy density, cost and safety of lithium battery cells?";

export interface HostBenchConfig {
  /** Sources the run is to persist (maxSources); at most SEARCH_LIMIT, since the pipeline searches once. */
  sources: number;
  searchLatencyMs: number;
  fetchLatencyMs: number;
  /** Words per synthetic document. */
  words: number;
  /** Parent folder for the temporary store, corpus and output folders. */
  tempRoot: string;
}

/** What one measured run yields. */
export interface HostRunSample {
  /** Sources actually persisted. */
  persisted: number;
  status: string;
  /** performance.now() around runtime.run(request). */
  wallMs: number;
  /** Injected latency on the run's critical path: one search plus the fetch rounds. */
  injectedMs: number;
  /** Per source: offset of its source-persisted event minus that of its source-fetched event. */
  persistMs: number[];
  /** Per source: persistedMs (read inside the commit transaction) minus the source-fetched offset. */
  preCommitMs: number[];
  /** Per source: source-persisted offset minus persistedMs (commit + fsync + read-back). */
  commitMs: number[];
  /** timings.firstSourcePersistedMs of the RunOutcome. */
  firstPersistedMs: number;
  /** preliminary-published offset minus the last source-persisted offset before it. */
  preliminaryPublishMs: number;
  /** final-published offset minus the offset of the publication stage-changed event. */
  finalPublishMs: number;
  /** Events appended during the run (each one its own fsynced transaction). */
  events: number;
}

/** Fetch rounds on the critical path: the bootstrap share, then the rest, four at a time. */
export function fetchRounds(sources: number, bootstrapSources: number): number {
  const rounds = (count: number): number => Math.ceil(Math.max(0, count) / PIPELINE_FETCH_CONCURRENCY);
  return rounds(bootstrapSources) + rounds(sources - bootstrapSources);
}

function offsetsByAnchor(events: readonly RunEvent[], type: string): Map<string, number> {
  const offsets = new Map<string, number>();
  for (const event of events) {
    const anchor = event.data.anchor;
    if (event.type === type && typeof anchor === "string" && !offsets.has(anchor)) offsets.set(anchor, event.offsetMs);
  }
  return offsets;
}

/** Runs one research in fresh temporary folders and derives the figures from its event log. */
export async function runHostOnce(config: HostBenchConfig): Promise<HostRunSample> {
  if (config.sources < 1 || config.sources > SEARCH_LIMIT) {
    throw new Error(`the pipeline persists at most ${SEARCH_LIMIT} sources from its one search`);
  }
  const folder = mkdtempSync(join(config.tempRoot, "run-"));
  const corpus = join(folder, "corpus");
  const outDir = join(folder, "out");
  mkdirSync(corpus);
  const store = openSqliteStore({ file: join(folder, "assay.sqlite") });
  try {
    const budgets = resolveBudgets({
      maxSources: config.sources,
      bootstrapSources: Math.min(3, config.sources),
      maxFetchAttempts: 2 * config.sources,
      wallClockMs: 600_000,
    });
    if (!budgets.ok) throw new Error(budgets.error);
    const runtime = createRuntime({
      store,
      artifacts: new FilesystemArtifactStore(),
      clock: systemClock,
      scopes: fakeScopeOpener({
        documents: syntheticDocuments(config.sources, config.words),
        searchLatencyMs: config.searchLatencyMs,
        fetchLatencyMs: config.fetchLatencyMs,
      }),
      worker: "bench",
    });

    const started = performance.now();
    const outcome = await runtime.run({
      question: BENCH_QUESTION,
      language: "en",
      strategy: "pipeline",
      model: "none",
      scope: { kind: "corpus", root: corpus, label: "synthetic corpus" },
      budgets: budgets.value,
      outDir,
    });
    const wallMs = performance.now() - started;

    // Read back after the clock stopped: none of this is measured.
    const events = await store.listEvents(outcome.runId);
    const sources = await store.listSources(outcome.runId);
    const fetched = offsetsByAnchor(events, "source-fetched");
    const persisted = offsetsByAnchor(events, "source-persisted");
    const persistMs: number[] = [];
    const preCommitMs: number[] = [];
    const commitMs: number[] = [];
    for (const source of sources) {
      const from = fetched.get(source.canonicalAnchor);
      const to = persisted.get(source.canonicalAnchor);
      if (from === undefined || to === undefined) continue;
      persistMs.push(to - from);
      preCommitMs.push(source.persistedMs - from);
      commitMs.push(to - source.persistedMs);
    }
    const offsetOf = (predicate: (event: RunEvent) => boolean): number =>
      events.find(predicate)?.offsetMs ?? Number.NaN;
    const preliminaryAt = offsetOf((event) => event.type === "preliminary-published");
    const lastPersistedBefore =
      events.findLast((event) => event.type === "source-persisted" && event.offsetMs <= preliminaryAt)?.offsetMs ??
      Number.NaN;
    const publicationStage = offsetOf((event) => event.type === "stage-changed" && event.data.stage === "publication");
    const { bootstrapSources } = budgets.value;
    return {
      persisted: sources.length,
      status: outcome.status,
      wallMs,
      injectedMs: config.searchLatencyMs + fetchRounds(sources.length, bootstrapSources) * config.fetchLatencyMs,
      persistMs,
      preCommitMs,
      commitMs,
      firstPersistedMs: outcome.timings.firstSourcePersistedMs ?? Number.NaN,
      preliminaryPublishMs: preliminaryAt - lastPersistedBefore,
      finalPublishMs: (outcome.timings.finalPublishedMs ?? Number.NaN) - publicationStage,
      events: events.length,
    };
  } finally {
    await store.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

/** How late a setTimeout(ms) fires on this machine: timer lateness inflates B and C, not Host work. */
export async function timerLatenessMs(ms: number): Promise<number> {
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, ms));
  return performance.now() - started - ms;
}

/** Makes the parent temporary folder; the caller removes it with the returned cleanup. */
export function benchTempRoot(): { path: string; cleanup: () => void } {
  const path = mkdtempSync(join(tmpdir(), "assay-bench-"));
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true }) };
}
