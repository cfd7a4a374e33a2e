/**
 * Run throughput of the job queue with 1, 2 and 4 workers (issue 8). N runs of the pipeline
 * strategy (no model: source-backed reports) over the fake scope with fixed latencies on real
 * timers are recorded queued in a fresh PostgreSQL database and enqueued on pg-boss; then W
 * workers drain the queue. The clock runs from the workers' start until every run is terminal
 * (finished or failed, read from the store). Runs/s is N divided by that wall time.
 *
 * The workers are IN-PROCESS: W `startRunWorker` instances (concurrency 1 each) in this Node
 * process, each with its own PostgreSQL store pool, its own pg-boss queue connection and its
 * own runtime. Not separate processes: the fake scope exists only in this process (the built
 * CLI's `assay worker` could not see it). They share one event loop, so CPU-bound Host work of
 * one worker delays the others; the runs are latency-bound (injected waits), which is what the
 * scaling ratio measures.
 *
 * PostgreSQL comes from the test helper (ASSAY_TEST_DATABASE_URL, or a throwaway cluster with
 * fsync=off); without either the section is skipped with a notice.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { FilesystemArtifactStore } from "../adapters/artifacts/filesystem/filesystem-artifact-store.js";
import { systemClock } from "../adapters/clock/system-clock.js";
import { openPgBossQueue, type PgBossQueue } from "../adapters/queue/pg-boss/pg-boss-queue.js";
import { openPostgresStore, type PostgresStore } from "../adapters/store/postgres/postgres-store.js";
import { resolveBudgets } from "../core/budgets.js";
import type { RetryPolicy } from "../ports/job-queue.js";
import { type RunWorker, startRunWorker } from "../runtime/run-worker.js";
import { createRuntime, type Runtime } from "../runtime/runtime.js";
import { fakeScopeOpener, syntheticDocuments } from "../testing/fake-scope.js";
import { POSTGRES_AVAILABLE, startTestPostgres, type TestPostgres } from "../testing/postgres.js";
import { BENCH_QUESTION, fetchRounds } from "./host-overhead-bench.js";

const RUNS_PER_DRAIN = 24;
const WORKER_COUNTS = [1, 2, 4] as const;
const REPETITIONS = 3;
const SOURCES = 8;
const BOOTSTRAP_SOURCES = 3;
const WORDS = 400;
const SEARCH_LATENCY_MS = 40;
const FETCH_LATENCY_MS = 60;
/** Poll interval of an empty queue, and of the store while waiting for terminal runs. */
const POLL_MS = 10;
const POLICY: RetryPolicy = { retries: 0, retryDelaySeconds: 1, leaseSeconds: 60 };

interface DrainSample {
  wallMs: number;
  finished: number;
  failed: number;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? Number.NaN)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

interface WorkerHandle {
  store: PostgresStore;
  queue: PgBossQueue;
  worker?: RunWorker;
}

/** One repetition: a fresh database, N queued runs, W workers draining them. */
async function drainOnce(server: TestPostgres, workers: number, tempRoot: string): Promise<DrainSample> {
  const url = await server.createDatabase();
  const folder = mkdtempSync(join(tempRoot, `workers-${workers}-`));
  const corpus = join(folder, "corpus");
  mkdirSync(corpus);
  const budgets = resolveBudgets({
    maxSources: SOURCES,
    bootstrapSources: BOOTSTRAP_SOURCES,
    maxFetchAttempts: 2 * SOURCES,
    wallClockMs: 600_000,
  });
  if (!budgets.ok) throw new Error(budgets.error);
  const documents = syntheticDocuments(SOURCES, WORDS);
  const runtimeOn = (store: PostgresStore, name: string): Runtime =>
    createRuntime({
      store,
      artifacts: new FilesystemArtifactStore(),
      clock: systemClock,
      scopes: fakeScopeOpener({ documents, searchLatencyMs: SEARCH_LATENCY_MS, fetchLatencyMs: FETCH_LATENCY_MS }),
      worker: name,
    });

  const handles: WorkerHandle[] = [];
  const producer = await openPostgresStore({ url });
  try {
    // Enqueue everything before any worker starts (not measured).
    const producerQueue = await openPgBossQueue({ url });
    const runIds: number[] = [];
    try {
      const runtime = runtimeOn(producer, "producer");
      for (let index = 0; index < RUNS_PER_DRAIN; index++) {
        const run = await runtime.createQueued({
          question: BENCH_QUESTION,
          language: "en",
          strategy: "pipeline",
          model: "none",
          scope: { kind: "corpus", root: corpus, label: "synthetic corpus" },
          budgets: budgets.value,
          outDir: join(folder, `out-${index}`),
        });
        await producerQueue.enqueue(run.id, POLICY);
        runIds.push(run.id);
      }
    } finally {
      await producerQueue.close();
    }

    // Connect every worker before the clock starts: connection setup is not throughput.
    for (let index = 0; index < workers; index++) {
      const store = await openPostgresStore({ url });
      handles.push({ store, queue: await openPgBossQueue({ url }) });
    }

    const started = performance.now();
    for (const [index, handle] of handles.entries()) {
      const runtime = runtimeOn(handle.store, `bench-worker-${index + 1}`);
      handle.worker = startRunWorker({
        queue: handle.queue,
        store: handle.store,
        clock: systemClock,
        runtimeFor: () => runtime,
        concurrency: 1,
        pollMs: POLL_MS,
        log: (line) => {
          if (line.includes("failed")) console.log(`  worker ${index + 1}: ${line}`);
        },
      });
    }
    let finished = 0;
    let failed = 0;
    for (;;) {
      const runs = await producer.listRuns({ limit: RUNS_PER_DRAIN + 10 });
      const ours = runs.filter((run) => runIds.includes(run.id));
      finished = ours.filter((run) => run.status === "finished").length;
      failed = ours.filter((run) => run.status === "failed").length;
      if (finished + failed >= RUNS_PER_DRAIN) break;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    const wallMs = performance.now() - started;
    return { wallMs, finished, failed };
  } finally {
    for (const handle of handles) handle.worker?.drain();
    for (const handle of handles) {
      await handle.worker?.done;
      await handle.queue.close();
      await handle.store.close();
    }
    await producer.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Prints the worker-scaling section of `npm run bench`. */
export async function workerThroughputBench(tempRoot: string): Promise<void> {
  console.log("\nRun throughput through the job queue (pg-boss on PostgreSQL), 1, 2 and 4 workers");
  if (!POSTGRES_AVAILABLE) {
    console.log(
      "  NOTICE: skipped: no PostgreSQL (set ASSAY_TEST_DATABASE_URL, or install Debian's postgresql for a throwaway cluster).",
    );
    return;
  }
  let server: TestPostgres;
  try {
    server = await startTestPostgres();
  } catch (error) {
    console.log(`  NOTICE: skipped: PostgreSQL could not be started: ${(error as Error).message}`);
    return;
  }
  const idealRunMs = SEARCH_LATENCY_MS + fetchRounds(SOURCES, BOOTSTRAP_SOURCES) * FETCH_LATENCY_MS;
  console.log(
    `  ${RUNS_PER_DRAIN} queued runs per drain, pipeline strategy, no model, ${SOURCES} sources each over the fake scope ` +
      `(search ${SEARCH_LATENCY_MS} ms, fetch ${FETCH_LATENCY_MS} ms; injected latency ${idealRunMs} ms per run).`,
  );
  console.log(
    `  In-process workers (startRunWorker, concurrency 1, poll ${POLL_MS} ms), each with its own store pool, ` +
      `pg-boss connection and runtime; fresh database per drain; median of ${REPETITIONS} drains.`,
  );
  const perWorkers = new Map<number, number>();
  try {
    await drainOnce(server, 1, tempRoot); // warm-up: JIT, first connections
    const head = ["workers", "runs/s (median)", "min", "max", "wall ms (median)", "ideal runs/s", "finished/failed"];
    console.log(`  ${head.join("  ")}`);
    for (const workers of WORKER_COUNTS) {
      const samples: DrainSample[] = [];
      for (let repetition = 0; repetition < REPETITIONS; repetition++) {
        samples.push(await drainOnce(server, workers, tempRoot));
      }
      const rates = samples.map((sample) => (RUNS_PER_DRAIN / sample.wallMs) * 1000);
      const rate = median(rates);
      perWorkers.set(workers, rate);
      const ideal = (workers / idealRunMs) * 1000;
      const outcomes = samples.map((sample) => `${sample.finished}/${sample.failed}`).join(" ");
      console.log(
        `  ${String(workers).padStart(7)}  ${rate.toFixed(2).padStart(15)}  ${Math.min(...rates)
          .toFixed(2)
          .padStart(3)}  ${Math.max(...rates)
          .toFixed(2)
          .padStart(3)}  ${median(samples.map((sample) => sample.wallMs))
          .toFixed(0)
          .padStart(16)}  ${ideal.toFixed(2).padStart(12)}  ${outcomes}`,
      );
    }
  } finally {
    await server.stop();
  }
  const one = perWorkers.get(1) ?? Number.NaN;
  const ratio = (workers: number): string => ((perWorkers.get(workers) ?? Number.NaN) / one).toFixed(2);
  console.log(`  scaling ratio (median runs/s): 2 vs 1 = ${ratio(2)}x, 4 vs 1 = ${ratio(4)}x (ideal 2x and 4x).`);
  console.log(
    "  ideal runs/s: workers / injected latency per run (no Host, store or queue overhead at all).\n" +
      "  wall time: from the workers' start (queue filled, connections open) until every run is terminal in the store.",
  );
}
