/**
 * The one runtime API under every shell: start a run, resume one, read runs.
 * Dependencies are injected here and nowhere else.
 */
import { hostname } from "node:os";
import { describeError, UserError } from "../core/errors.js";
import type { Judge } from "../core/judgment/judge.js";
import { type RunTimings, runTimings } from "../core/timings.js";
import { openParent } from "../host/lineage.js";
import { buildFromPersisted, publish } from "../host/publication.js";
import { RunClock } from "../host/run-clock.js";
import { type EventListener, RunHost, type RunHostOptions } from "../host/run-host.js";
import type { ArtifactStore, PublishedArtifacts } from "../ports/artifact-store.js";
import type { Clock } from "../ports/clock.js";
import type { OpenScope, ScopeOpener } from "../ports/evidence-scope.js";
import type { Model } from "../ports/model.js";
import type { NotesFiles } from "../ports/notes-store.js";
import { isQueued, LeaseLostError, type RunRecord, type RunRequest, type Store } from "../ports/store.js";
import { pipelineStrategy } from "../strategies/pipeline/pipeline-strategy.js";
import { simpleStrategy } from "../strategies/simple/simple-strategy.js";
import type { Strategy, StrategyResult } from "../strategies/strategy.js";
import { DEFAULT_LEASE_MS, keepLease, type LeaseKeeper, leaseHolder, takeLease } from "./run-lease.js";

/** The investigative strategy, loaded at its first run: a pipeline run does not pay for its modules. */
const lazyInvestigative: Strategy = {
  name: "investigative",
  async run(host) {
    const { investigativeStrategy } = await import("../strategies/investigative/investigative-strategy.js");
    return investigativeStrategy.run(host);
  },
};

export interface RuntimeOptions {
  store: Store;
  artifacts: ArtifactStore;
  clock: Clock;
  scopes: ScopeOpener;
  /** Plans and synthesizes; without one a run publishes a source-backed report. */
  model?: Model;
  /** notes.md working copies of investigative runs (`research_notes_dir`); required by that strategy. */
  notes?: NotesFiles;
  /** Identifies this process in runs it executes (default host:pid). */
  worker?: string;
  strategies?: Record<string, Strategy>;
  /** Where a run publishes when its request names no folder. */
  defaultOutDir?: (runId: number) => string;
  /** How long a run's lease lasts unless renewed (default `DEFAULT_LEASE_MS`); renewed every third of it. */
  leaseMs?: number;
  /** Hears of lease renewals that failed. */
  log?: (line: string) => void;
  /** Decides support, contradiction and absence (default: the English judge, `englishJudge`). */
  judge?: Judge;
}

export interface RunOptions {
  listeners?: readonly EventListener[];
  /** Cancels acquisition; the Host still publishes from persisted state. */
  signal?: AbortSignal;
  /**
   * Hands the run back (a worker's lost lease): it stops as soon as it can, publishes nothing
   * and stays running (outcome status `running`), for the lease's new holder to resume. The
   * run's own lease being lost does the same.
   */
  handBack?: AbortSignal;
}

export interface RunOutcome {
  runId: number;
  status: RunRecord["status"];
  artifactStatus: RunRecord["artifactStatus"];
  paths?: PublishedArtifacts["paths"];
  timings: RunTimings;
  /** A configuration problem the user must fix (a provider's key, an endpoint); the run failed on it. */
  error?: string;
  /** Why the strategy failed the run (an investigative run whose synthesis reserve ran out, with the breaker). */
  failure?: string;
}

export interface Runtime {
  /** Starts a run and drives it to its terminal publication. */
  run(request: RunRequest, options?: RunOptions): Promise<RunOutcome>;
  /** Continues an interrupted run from its persisted state and publishes where it was to publish. */
  resume(runId: number, options?: RunOptions): Promise<RunOutcome>;
  /** Records a run for a worker to start later (`start`): status `running`, no worker yet. */
  createQueued(request: RunRequest): Promise<RunRecord>;
  /** Starts a queued run in this process, with a new clock origin, and drives it to its publication. */
  start(runId: number, options?: RunOptions): Promise<RunOutcome>;
}

export function createRuntime(options: RuntimeOptions): Runtime {
  const worker = options.worker ?? `${hostname()}:${process.pid}`;
  const holder = leaseHolder(worker);
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;

  /** Takes the run's lease (or throws `LeaseHeldError`) and keeps it renewed until the keeper stops. */
  type Leased = Awaited<ReturnType<typeof lease>>;
  async function lease(runId: number, runOptions: RunOptions) {
    const taken = await takeLease(options.store, runId, { holder, clock: options.clock, leaseMs });
    const keeper = keepLease(options.store, taken, {
      clock: options.clock,
      leaseMs,
      ...(options.log ? { log: options.log } : {}),
    });
    const store = options.store.fenced(taken, keeper.onLost);
    const handBack = runOptions.handBack ? AbortSignal.any([runOptions.handBack, keeper.lost]) : keeper.lost;
    return { keeper, store, runOptions: { ...runOptions, handBack } };
  }
  const strategies: Record<string, Strategy> = {
    pipeline: pipelineStrategy,
    simple: simpleStrategy,
    investigative: lazyInvestigative,
    ...options.strategies,
  };

  const strategyFor = (request: RunRequest): Strategy => {
    const strategy = strategies[request.strategy];
    if (!strategy)
      throw new UserError(`unknown strategy "${request.strategy}" (known: ${Object.keys(strategies).join(", ")})`);
    return strategy;
  };

  const hostOptions = async (run: RunRecord, scope: OpenScope, leased: Leased): Promise<RunHostOptions> => {
    const parent = await openParent(options.store, options.artifacts, run);
    return {
      run,
      ...(parent ? { parent } : {}),
      store: leased.store,
      confirmLease: leased.keeper.confirm,
      clock: options.clock,
      search: scope.search,
      fetcher: scope.fetcher,
      ...(scope.label ? { scopeLabel: scope.label } : {}),
      artifacts: options.artifacts,
      ...(options.model ? { model: options.model } : {}),
      ...(options.notes ? { notes: options.notes } : {}),
      ...(options.judge ? { judge: options.judge } : {}),
      listeners: leased.runOptions.listeners ?? [],
      ...(leased.runOptions.signal ? { signal: leased.runOptions.signal } : {}),
      ...(leased.runOptions.handBack ? { handBack: leased.runOptions.handBack } : {}),
    };
  };

  async function drive(host: RunHost, scope: OpenScope, strategy: Strategy, keeper: LeaseKeeper): Promise<RunOutcome> {
    const { store, run } = host;
    let final: PublishedArtifacts | undefined;
    let result: StrategyResult = {};
    let configurationError: string | undefined;
    try {
      try {
        const facts = await scope.prepare(host.signal);
        await host.emit(host.request.scope.kind === "web" ? "scope-prepared" : "corpus-indexed", facts);
        result = await strategy.run(host);
      } catch (error) {
        if (error instanceof UserError) configurationError = error.message;
        await host.diagnose("strategy", "strategy-failed", describeError(error));
        await host.emit("strategy-failed", { strategy: strategy.name });
      }
      // Publication only under a lease still held, renewed right now.
      if (!(await host.holdsLease())) {
        // Another worker holds the run now: publishing or finishing it here would race that worker.
        await host.emit("run-handed-back", { reason: describeError(host.signal.reason) }).catch(() => {});
        return {
          runId: run.id,
          status: "running",
          artifactStatus: "",
          timings: runTimings(await store.listEvents(run.id)),
        };
      }
      await host.stage("publication");
      final = await publish(host, await buildFromPersisted(host, "final", result.synthesis), "final");
      const failure = configurationError ?? result.error;
      if (final && failure) {
        await store.updateRun(run.id, {
          status: "failed",
          error: failure,
          finishedAt: host.clock.wallIso(),
        });
      } else if (final) {
        await store.updateRun(run.id, { status: "finished", finishedAt: host.clock.wallIso() });
      } else {
        await store.updateRun(run.id, {
          status: "failed",
          artifactStatus: "publication-failed",
          error: "the report could not be published",
          finishedAt: host.clock.wallIso(),
        });
      }
      const current = await store.getRun(run.id);
      await host.emit("run-finished", { status: current?.status, artifactStatus: current?.artifactStatus });
    } catch (error) {
      // A write refused because another process took the lease: that process drives the run now.
      if (!(error instanceof LeaseLostError) && !keeper.lost.aborted) throw error;
      return {
        runId: run.id,
        status: "running",
        artifactStatus: "",
        timings: runTimings(await store.listEvents(run.id)),
      };
    } finally {
      host.dispose();
      await scope.close();
      await keeper.stop();
    }
    const record = await store.getRun(run.id);
    const events = await store.listEvents(run.id);
    return {
      runId: run.id,
      status: record?.status ?? "failed",
      artifactStatus: record?.artifactStatus ?? "",
      ...(final ? { paths: final.paths } : {}),
      ...(configurationError ? { error: configurationError } : {}),
      ...(result.error && !configurationError ? { failure: result.error } : {}),
      timings: runTimings(events),
    };
  }

  /** From a run recorded with this process as its worker, under its lease: its folder, its Host, `run-started`, the drive. */
  async function begin(
    started: RunRecord,
    clock: RunClock,
    scope: OpenScope,
    leased: Awaited<ReturnType<typeof lease>>,
  ) {
    let run = started;
    const strategy = strategyFor(run.request);
    try {
      if (run.request.outDir === "") {
        if (!options.defaultOutDir) throw new UserError("no folder to publish the report in was given");
        const outDir = options.defaultOutDir(run.id);
        await leased.store.updateRun(run.id, { outDir });
        run = { ...run, request: { ...run.request, outDir } };
      }
      const host = await RunHost.open(await hostOptions(run, scope, leased), clock);
      const lineage = run.request.lineage;
      await host.emit("run-started", {
        question: run.request.question,
        strategy: strategy.name,
        scope: run.request.scope.label,
        ...(lineage ? { parent: lineage.parentId, relation: lineage.relation } : {}),
      });
      if (lineage)
        // Already persisted when the run was created: read from the store, never fetched.
        await host.emit("sources-carried", {
          from: lineage.parentId,
          sources: host.known().filter((source) => source.reused === "parent").length,
        });
      return drive(host, scope, strategy, leased.keeper);
    } catch (error) {
      await leased.keeper.stop();
      await scope.close();
      throw error;
    }
  }

  /** Opens the run's scope, then records the run; closes the scope when recording fails. */
  async function openThenRecord(request: RunRequest, record: () => Promise<RunRecord>) {
    const scope = await options.scopes.open(request.scope, { language: request.language });
    try {
      return { scope, run: await record() };
    } catch (error) {
      await scope.close();
      throw error;
    }
  }

  return {
    async run(request, runOptions = {}) {
      const clock = RunClock.start(options.clock);
      strategyFor(request);
      const originAt = new Date(clock.originWallMs).toISOString();
      const { scope, run } = await openThenRecord(request, () =>
        options.store.createRun(request, { originAt, worker }),
      );
      let leased: Awaited<ReturnType<typeof lease>>;
      try {
        leased = await lease(run.id, runOptions);
      } catch (error) {
        await scope.close();
        throw error;
      }
      return begin(run, clock, scope, leased);
    },

    async createQueued(request) {
      strategyFor(request);
      return options.store.createRun(request, { originAt: new Date(options.clock.wallMs()).toISOString(), worker: "" });
    },

    async start(runId, runOptions = {}) {
      const queued = await options.store.getRun(runId);
      if (!queued) throw new UserError(`there is no run ${runId}`);
      if (!isQueued(queued))
        throw new UserError(`run ${runId} is not queued (it is ${queued.status}, worker "${queued.worker}")`);
      strategyFor(queued.request);
      // The lease first: of two processes starting one queued run, one starts it.
      const leased = await lease(runId, runOptions);
      const clock = RunClock.start(options.clock);
      const originAt = new Date(clock.originWallMs).toISOString();
      let opened: Awaited<ReturnType<typeof openThenRecord>>;
      try {
        opened = await openThenRecord(queued.request, async () => {
          await leased.store.updateRun(runId, { worker, originAt });
          return { ...queued, worker, originAt };
        });
      } catch (error) {
        await leased.keeper.stop();
        throw error;
      }
      return begin(opened.run, clock, opened.scope, leased);
    },

    async resume(runId, runOptions = {}) {
      const run = await options.store.getRun(runId);
      if (!run) throw new UserError(`there is no run ${runId}`);
      if (run.status !== "running")
        throw new UserError(`run ${runId} is ${run.status}; only an interrupted run can be resumed`);
      if (isQueued(run)) throw new UserError(`run ${runId} is queued; a worker starts it`);
      const strategy = strategyFor(run.request);
      // A run killed between its creation and the choice of its folder publishes where a new one would.
      const outDir = run.request.outDir || options.defaultOutDir?.(runId) || "";
      if (outDir === "") throw new UserError(`run ${runId} has no folder to publish in`);
      // The lease first: a run another process drives is refused before anything is opened or written.
      const leased = await lease(runId, runOptions);
      const { store } = leased;
      let scope: OpenScope;
      try {
        scope = await options.scopes.open(run.request.scope, { language: run.request.language });
      } catch (error) {
        await leased.keeper.stop();
        throw error;
      }
      let host: RunHost;
      let events: Awaited<ReturnType<Store["listEvents"]>>;
      try {
        events = await store.listEvents(runId);
        await store.updateRun(runId, { worker, outDir });
        host = await RunHost.open({
          ...(await hostOptions({ ...run, worker, request: { ...run.request, outDir } }, scope, leased)),
          resumed: { lastOffsetMs: events.at(-1)?.offsetMs ?? 0 },
        });
      } catch (error) {
        await leased.keeper.stop();
        await scope.close();
        throw error;
      }
      // A source committed just before the kill may have no event yet: the log names every source.
      const logged = new Set(
        events.filter((event) => event.type === "source-persisted").map((event) => event.data.sourceId),
      );
      for (const source of host.sources())
        if (!logged.has(source.id) && source.reused !== "parent")
          await host.emit("source-persisted", {
            sourceId: source.id,
            anchor: source.canonicalAnchor,
            title: source.title,
            persisted: host.sources().length,
            recovered: true,
          });
      await host.emit("run-resumed", {
        sources: host.sources().length,
        // Read by the run itself (a follow-up's carried sources are not), as the source budget counts them.
        read: host.used("sources"),
        searches: host.searchCalls().length,
      });
      return drive(host, scope, strategy, leased.keeper);
    },
  };
}
