/**
 * The child process of the concurrent-runs benchmark (concurrent-runs-bench.ts), so that its
 * peak RSS is its own: one runtime over one real SQLite store and fake providers of fixed
 * latency runs one research alone, then `count` at once, and prints one JSON line.
 *
 * Usage: node dist/bench/concurrent-runs-child.js <temp folder> <count> <latency ms> <sources>
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { FilesystemArtifactStore } from "../adapters/artifacts/filesystem/filesystem-artifact-store.js";
import { systemClock } from "../adapters/clock/system-clock.js";
import { openSqliteStore } from "../adapters/store/sqlite/sqlite-store.js";
import { resolveBudgets } from "../core/budgets.js";
import { createRuntime } from "../runtime/runtime.js";
import { fakeScopeOpener, syntheticDocuments } from "../testing/fake-scope.js";
import { BENCH_QUESTION } from "./host-overhead-bench.js";

export interface ConcurrentRunsSample {
  /** Wall time of one run alone, ms. */
  oneMs: number;
  /** Wall time of `count` runs started together, ms (until the last one ends). */
  allMs: number;
  count: number;
  finished: number;
  /** CPU time (user + system) of the process while the `count` runs ran, ms. */
  cpuMs: number;
  /** Event-loop delay while the `count` runs ran, ms. */
  delayP50: number;
  delayP99: number;
  delayMax: number;
  /** process.resourceUsage().maxRSS, MB. */
  peakRssMb: number;
  /** RSS before the first run, MB. */
  baseRssMb: number;
}

const [folder = ".", countText = "50", latencyText = "200", sourcesText = "8"] = process.argv.slice(2);
const count = Number(countText);
const latency = Number(latencyText);
const sources = Number(sourcesText);

const baseRssMb = process.memoryUsage().rss / 1e6;
const store = openSqliteStore({ file: join(folder, "assay.sqlite") });
const budgets = resolveBudgets({
  maxSources: sources,
  bootstrapSources: Math.min(3, sources),
  maxFetchAttempts: 2 * sources,
  wallClockMs: 600_000,
});
if (!budgets.ok) throw new Error(budgets.error);
const runtime = createRuntime({
  store,
  artifacts: new FilesystemArtifactStore(),
  clock: systemClock,
  scopes: fakeScopeOpener({
    documents: syntheticDocuments(sources, 400),
    searchLatencyMs: latency,
    fetchLatencyMs: latency,
  }),
  worker: "bench",
});
let serial = 0;
const research = async (): Promise<string> => {
  serial++;
  const outDir = join(folder, `out-${serial}`);
  mkdirSync(outDir, { recursive: true });
  const outcome = await runtime.run({
    question: BENCH_QUESTION,
    language: "en",
    strategy: "pipeline",
    model: "none",
    scope: { kind: "corpus", root: join(folder, "corpus"), label: "synthetic corpus" },
    budgets: budgets.value,
    outDir,
  });
  return outcome.status;
};

await research(); // warm-up: JIT, SQLite page cache, first-use costs
let started = performance.now();
await research();
const oneMs = performance.now() - started;

const delay = monitorEventLoopDelay({ resolution: 1 });
delay.enable();
started = performance.now();
const cpuBefore = process.cpuUsage();
const statuses = await Promise.all(Array.from({ length: count }, research));
const allMs = performance.now() - started;
delay.disable();
const cpu = process.cpuUsage(cpuBefore);
await store.close();

const sample: ConcurrentRunsSample = {
  oneMs,
  allMs,
  count,
  cpuMs: (cpu.user + cpu.system) / 1e3,
  finished: statuses.filter((status) => status === "finished").length,
  delayP50: delay.percentile(50) / 1e6,
  delayP99: delay.percentile(99) / 1e6,
  delayMax: delay.max / 1e6,
  peakRssMb: (process.resourceUsage().maxRSS * 1024) / 1e6,
  baseRssMb,
};
process.stdout.write(`${JSON.stringify(sample)}\n`);
