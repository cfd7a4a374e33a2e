/**
 * Issue 8's acceptance: three real `assay worker` processes share 24 queued runs (pipeline
 * and investigative — half of those with three sub-agents — no model) on a real PostgreSQL server while a worker is SIGKILLed at
 * random moments (preferably one that holds a run) and replaced. Every run publishes; no
 * source is lost or persisted twice; every source has its event; no frontier question is
 * claimed while it is already in progress (checked on the transitions).
 */
import { afterEach, describe, expect, it } from "vitest";
import { openPostgresStore } from "../../adapters/store/postgres/postgres-store.js";
import { TURN_EVENT } from "../../core/investigative/turn-events.js";
import { isQueued, type RunRecord } from "../../ports/store.js";
import { EXAMPLE_CORPUS, runCli } from "../../testing/cli.js";
import { claimProblems } from "../../testing/frontier-checks.js";
import { noticeMissingPostgres, POSTGRES_AVAILABLE } from "../../testing/postgres.js";
import { useTestPostgres } from "../../testing/postgres-suite.js";
import { tempDir } from "../../testing/temp-dir.js";
import { killAll, startWorkerProcess, type WorkerProcess } from "../../testing/worker-process.js";

noticeMissingPostgres("the three-worker acceptance test");

const workers: WorkerProcess[] = [];
const cleanups: (() => void)[] = [];
afterEach(() => {
  killAll(workers);
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** mulberry32: a seeded generator, so a failure names the seed that produced its kill schedule. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const QUESTIONS = [
  "How did lithium-ion battery cathodes and costs change from 1980 to 2020?",
  "Why did lithium-ion battery costs fall between 1990 and 2020?",
  "What limits graphite anodes?",
  "How do solid-state batteries differ from lithium-ion cells?",
];
const RUNS = 24;
const KILLS = 6;

describe.runIf(POSTGRES_AVAILABLE)("three workers, 24 queued runs, random kills", () => {
  const server = useTestPostgres();

  it("every run publishes; sources are each persisted once; no question is claimed twice", async () => {
    const url = await server.createDatabase();
    const dir = tempDir("assay-fleet-");
    cleanups.push(dir.cleanup);
    const seed = Number(process.env.ASSAY_FLEET_SEED ?? Date.now() % 100_000);
    const random = seeded(seed);
    const context = `kill schedule seed ${seed} (ASSAY_FLEET_SEED=${seed} repeats it)`;

    // Enqueue through the CLI, six at a time: half pipeline, half investigative.
    const runIds: number[] = [];
    for (let batch = 0; batch < RUNS; batch += 6) {
      const printed = await Promise.all(
        Array.from({ length: Math.min(6, RUNS - batch) }, async (_, offset) => {
          const index = batch + offset;
          const result = await runCli(
            [
              "run",
              QUESTIONS[Math.floor(index / 2) % QUESTIONS.length] ?? "",
              "--corpus",
              EXAMPLE_CORPUS,
              "--strategy",
              index % 2 === 0 ? "pipeline" : "investigative",
              // Half the investigative runs explore with three sub-agents claiming questions at once.
              ...(index % 4 === 1 ? ["--set", "max_parallel=3"] : []),
              "--db",
              url,
              "--queue",
              "--json",
              // Short enough that a killed worker's runs are taken over within the test, long enough
              // that a live worker still renews it while a busy two-core machine stalls it for a
              // second or two (loading the language model, say): with 2 s, a run could pass from
              // worker to worker on every attempt until the test gave up on it.
              "--lease",
              "5",
              "--retry-delay",
              "1",
              "--retries",
              "12",
            ],
            { home: dir.path },
          );
          expect(result.code, result.stderr).toBe(0);
          return (JSON.parse(result.stdout) as { runId: number }).runId;
        }),
      );
      runIds.push(...printed);
    }
    expect(new Set(runIds).size).toBe(RUNS);

    const store = await openPostgresStore({ url });
    try {
      const everyRun = async (): Promise<RunRecord[]> =>
        (await store.listRuns({ limit: 1000 })).filter((run) => runIds.includes(run.id));
      for (let i = 0; i < 3; i++) workers.push(startWorkerProcess(url, dir.path));

      // Kill a worker at a random moment, preferring one that holds a run, and replace it.
      const killed: string[] = [];
      for (let kill = 0; kill < KILLS; kill++) {
        await new Promise((resolve) => setTimeout(resolve, 400 + random() * 1600));
        const alive = workers.filter((worker) => worker.child.exitCode === null && worker.child.signalCode === null);
        const holding = new Set(
          (await everyRun())
            .filter((run) => run.status === "running" && !isQueued(run))
            .map((run) => Number(run.worker.split(":").at(-1))),
        );
        const busy = alive.filter((worker) => holding.has(worker.child.pid ?? -1));
        const pool = busy.length > 0 ? busy : alive;
        const victim = pool[Math.floor(random() * pool.length)];
        if (!victim) break;
        victim.child.kill("SIGKILL");
        await victim.exited;
        killed.push(`${victim.child.pid}${busy.length > 0 ? " (mid-run)" : ""}`);
        workers.push(startWorkerProcess(url, dir.path));
      }

      const until = Date.now() + 180_000;
      let runs = await everyRun();
      while (runs.some((run) => run.status === "running") && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        runs = await everyRun();
      }
      const logs = workers.map((worker) => worker.stderr()).join("\n");
      const summary = `${context}; killed ${killed.join(", ")}`;
      expect(
        runs.filter((run) => run.status !== "finished").map((run) => `${run.id} ${run.status} ${run.error}`),
        `${summary}\n${logs}`,
      ).toEqual([]);
      expect(runs).toHaveLength(RUNS);
      expect(killed, summary).toHaveLength(KILLS);

      let resumed = 0;
      let subAgentTurns = 0;
      for (const run of runs) {
        expect(run.artifactStatus, `run ${run.id}: ${summary}`).not.toBe("");
        const sources = await store.listSources(run.id);
        const anchors = sources.map((source) => source.canonicalAnchor);
        expect(new Set(anchors).size, `run ${run.id} has a source twice; ${summary}`).toBe(anchors.length);
        const events = await store.listEvents(run.id);
        expect(
          sources.length,
          `run ${run.id} (${run.request.strategy}, ${run.artifactStatus}) has no source; ${summary}\n` +
            events.map((event) => `${event.type} ${JSON.stringify(event.data).slice(0, 160)}`).join("\n"),
        ).toBeGreaterThan(0);
        const announced = events
          .filter((event) => event.type === "source-persisted")
          .map((event) => String(event.data.sourceId))
          .sort();
        expect(announced, `run ${run.id}: every source announced once; ${summary}`).toEqual(
          sources.map((source) => source.id).sort(),
        );
        resumed += events.filter((event) => event.type === "run-resumed").length;
        subAgentTurns += events.filter((event) => event.type === TURN_EVENT && event.data.agent !== undefined).length;
        if (run.request.strategy === "investigative") {
          const investigation = await store.loadInvestigation(run.id);
          expect(claimProblems(investigation.transitions), `run ${run.id}; ${summary}`).toEqual([]);
          // An exhausted frontier has nothing in progress (a breaker may end exploration mid-question).
          if (run.stopReason === "frontier_exhausted")
            expect(
              investigation.questions.filter((question) => question.status === "in_progress").map((q) => q.id),
              `run ${run.id} ended (${run.stopReason}) with a question in progress; ${summary}`,
            ).toEqual([]);
        }
      }
      // The kills landed mid-run: some runs were taken over and resumed from their persisted state.
      expect(resumed, summary).toBeGreaterThan(0);
      // Sub-agents past the first took turns in the runs with max_parallel 3.
      expect(subAgentTurns, summary).toBeGreaterThan(0);
    } finally {
      await store.close();
    }
  }, 300_000);
});
