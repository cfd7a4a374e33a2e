/**
 * What a server does to runs on behalf of a user: create (with the concurrent-run limit),
 * find one of the user's own, cancel, resume, and the public view of a run. The HTTP API and
 * the web UI both call it, so that they cannot disagree about ownership, limits or states.
 */

import type { Budgets } from "../../core/budgets.js";
import { UserError } from "../../core/errors.js";
import type { ArtifactStore } from "../../ports/artifact-store.js";
import { isQueued, ownerOf, type RunRecord, type RunRelation, type RunRequest, type Store } from "../../ports/store.js";
import type { Runtime } from "../../runtime/runtime.js";
import type { ConfigFile } from "../cli/config-file.js";
import { displayStatus } from "../cli/run-state.js";
import { childRequest, continuationProblem, newestVersion } from "../lineage.js";
import { checkModel, dayStart, PolicyError, type RunPolicy, underPolicy } from "../run-policy.js";
import { spendOf } from "../user-spend.js";
import { HttpError, parsed, runNotFound } from "./errors.js";
import { definedBudgets, requestFromBody } from "./run-body.js";
import { RunDrives } from "./run-drives.js";
import { type CreateRunBody, RunIdParams, type RunView } from "./schemas.js";

export interface RunServiceOptions {
  store: Store;
  artifacts: ArtifactStore;
  /** The runtime that drives runs of a model spec (throws UserError for a spec it cannot build). */
  runtimeFor(model: string): Runtime;
  /** The model spec of a run whose body names none. */
  defaultModel: string;
  /** Real paths of the folders a corpus run may read (a run's folder must be one of them or inside one). */
  corpusRoots: readonly string[];
  /** The settings file, as `assay run` reads it. */
  configFile?: ConfigFile;
  /** The server's web search spec (`searxng:http://…`), used when a web run names its provider or none. */
  search?: string;
  /** With a job queue: runs are recorded queued and sent to it; workers drive them. */
  enqueue?: (runId: number) => Promise<void>;
  /** Runs a user may have queued or running at once. */
  concurrentRuns: number;
  /** The models users may pick and the budget ceilings per run (default: only `defaultModel`, no ceilings). */
  policy?: RunPolicy;
  /** Milliseconds since the epoch; injectable for tests. */
  now: () => number;
  /** How often a run this server drives is checked for a cancel requested by another server (default 2000 ms). */
  cancelPollMs?: number;
  log: (line: string) => void;
}

export type RunService = ReturnType<typeof createRunService>;

const ended = (run: RunRecord): boolean => run.status !== "running";

export function createRunService(options: RunServiceOptions) {
  const { store, now, log } = options;
  const policy: RunPolicy = options.policy ?? { models: [options.defaultModel], ceilings: {} };
  const drives = new RunDrives(log);

  /**
   * For a run this server drives: every `cancelPollMs`, whether another server requested its
   * cancel. (Its lease, renewed by the runtime, tells servers on other hosts it is driven.)
   */
  const watch = (runId: number) => ({
    everyMs: options.cancelPollMs ?? 2000,
    cancelRequested: async () => ((await store.getRun(runId))?.cancelRequestedAt ?? "") !== "",
  });

  /** Per user, the tail of the chain of creations and resumes waiting for their turn. */
  const userLocks = new Map<string, Promise<void>>();
  const lockUser = async (userId: string): Promise<() => void> => {
    const previous = userLocks.get(userId) ?? Promise.resolve();
    let release: () => void = () => {};
    const mine = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = previous.then(() => mine);
    userLocks.set(userId, tail);
    await previous;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      release();
      if (userLocks.get(userId) === tail) userLocks.delete(userId);
    };
  };

  const statusOf = (run: RunRecord): RunView["status"] =>
    drives.has(run.id) && run.status === "running" ? "running" : displayStatus(run, now());

  const view = (run: RunRecord): RunView => {
    const self = `/api/runs/${run.id}`;
    return {
      id: run.id,
      status: statusOf(run),
      artifactStatus: run.artifactStatus,
      question: run.request.question,
      strategy: run.request.strategy,
      model: run.request.model,
      language: run.request.language,
      scope: { kind: run.request.scope.kind, label: run.request.scope.label },
      budgets: { ...run.request.budgets },
      error: run.error,
      cancelRequestedAt: run.cancelRequestedAt ?? "",
      lineage: run.request.lineage ? { ...run.request.lineage } : null,
      createdAt: run.createdAt,
      finishedAt: run.finishedAt,
      links: {
        self,
        events: `${self}/events`,
        reportJson: `${self}/report.json`,
        reportMarkdown: `${self}/report.md`,
        reportHtml: `${self}/report.html`,
        reportPdf: `${self}/report.pdf`,
        reportDocx: `${self}/report.docx`,
        followUps: `${self}/follow-ups`,
        revisions: `${self}/revisions`,
        diff: `${self}/diff`,
      },
    };
  };

  /** The user's run `id` (as written in the path), or 404 (also for another user's run: the answer does not say it exists). */
  const ownRun = async (userId: string, id: string): Promise<RunRecord> => {
    const params = parsed(RunIdParams, { id }, "");
    const run = await store.getRun(params.id);
    if (!run || ownerOf(run) !== userId) throw runNotFound(id);
    return run;
  };

  const activeRuns = async (userId: string): Promise<RunRecord[]> => {
    const runs = await store.listRuns({ userId, limit: 1000 });
    return runs.filter((run) => ["running", "queued"].includes(statusOf(run)));
  };

  /** `check` with a policy refusal answered as a 403 that names the limit. */
  const policed = async <T>(check: () => T | Promise<T>): Promise<T> => {
    try {
      return await check();
    } catch (error) {
      if (error instanceof PolicyError) throw new HttpError(403, error.code, error.message, { field: error.field });
      throw error;
    }
  };

  const runtimeFor = (model: string): Runtime => {
    try {
      return options.runtimeFor(model);
    } catch (error) {
      if (error instanceof UserError) throw new HttpError(400, "invalid_request", error.message, { field: "model" });
      throw error;
    }
  };

  const tooMany = (message: string) =>
    new HttpError(429, "too_many_runs", message, { headers: { "Retry-After": "30" } });

  /**
   * Records the user's run and starts it here or sends it to the queue: `build` makes its request
   * (under the user's lock, after the concurrent-run limit and the model were checked), with the
   * budgets the user set explicitly (checked against the policy's ceilings).
   */
  const record = async (
    userId: string,
    model: string,
    build: () => Promise<{ request: RunRequest; budgets: Partial<Budgets> }>,
  ): Promise<RunRecord> => {
    // One creation of a user at a time in this process: the limit check and the new row go together.
    const release = await lockUser(userId);
    try {
      const active = await activeRuns(userId);
      if (active.length >= options.concurrentRuns)
        throw tooMany(
          `you have ${options.concurrentRuns} runs queued or running, the most this server allows; wait for one to finish or cancel one`,
        );
      await policed(() => checkModel(model, policy));
      // Built now, so that a spec the server cannot run is refused before the run is recorded.
      const runtime = options.enqueue ? undefined : runtimeFor(model);
      const asked = await build();
      const spend = policy.maxCostUsdPerDay === undefined ? undefined : await spendOf(store, userId, active, now());
      const request = await policed(() => underPolicy(asked.request, asked.budgets, policy, spend));
      // Recorded as queued (no worker) with its owner; this server or a worker starts it.
      const run = await store.createRun(request, { originAt: new Date(now()).toISOString(), worker: "", userId });
      release();
      if (options.enqueue) {
        try {
          await options.enqueue(run.id);
        } catch (error) {
          await store.updateRun(run.id, {
            status: "failed",
            error: `the run could not be queued: ${error instanceof Error ? error.message : String(error)}`,
            finishedAt: new Date(now()).toISOString(),
          });
          throw error;
        }
      } else if (runtime) drives.start(run.id, (signal) => runtime.start(run.id, { signal }), watch(run.id));
      return (await store.getRun(run.id)) ?? run;
    } finally {
      release();
    }
  };

  const create = (userId: string, body: CreateRunBody): Promise<RunRecord> => {
    const model = body.model ?? options.defaultModel;
    return record(userId, model, async () => ({
      request: await requestFromBody(body, {
        model,
        userId,
        corpusRoots: options.corpusRoots,
        file: options.configFile,
        ...(options.search === undefined ? {} : { search: options.search }),
      }),
      budgets: definedBudgets(body.budgets ?? {}),
    }));
  };

  /**
   * A follow-up of the user's run `id`, or a revision of the newest version of its report: a new
   * run with the parent's scope, strategy and budgets (the parent's model unless one is given).
   */
  const continueRun = async (
    userId: string,
    id: string,
    relation: RunRelation,
    body: { text: string; model?: string | undefined },
  ): Promise<RunRecord> => {
    const asked = await ownRun(userId, id);
    const problem = continuationProblem(asked);
    if (problem) throw new HttpError(409, "run_not_continuable", problem);
    let parent: RunRecord;
    try {
      parent = relation === "revision" ? await newestVersion(store, asked) : asked;
    } catch (error) {
      if (error instanceof UserError) throw new HttpError(409, "run_not_continuable", error.message);
      throw error;
    }
    const model = body.model ?? parent.request.model;
    const field = relation === "follow-up" ? "question" : "instruction";
    return record(userId, model, async () => {
      try {
        return { request: childRequest(parent, relation, body.text, { model }), budgets: {} };
      } catch (error) {
        if (error instanceof UserError) throw new HttpError(400, "invalid_request", error.message, { field });
        throw error;
      }
    });
  };

  /** Stops the run's acquisition (here, or through the store for another process); the run as it is now. */
  const cancel = async (run: RunRecord): Promise<RunRecord> => {
    if (ended(run)) throw new HttpError(409, "run_ended", `run ${run.id} is ${run.status}; there is nothing to cancel`);
    if (drives.cancel(run.id, "cancelled through the HTTP API")) return run;
    const at = new Date(now()).toISOString();
    if (isQueued(run) && !options.enqueue) {
      // Recorded by a server that stopped before starting it: nothing will start it now.
      await store.updateRun(run.id, {
        status: "failed",
        error: "cancelled before it started",
        finishedAt: at,
        cancelRequestedAt: at,
      });
    } else if (statusOf(run) === "interrupted") {
      throw new HttpError(
        409,
        "run_interrupted",
        `run ${run.id} is interrupted: no process drives it, so there is nothing to cancel; resume it to publish its report`,
      );
    } else if (!run.cancelRequestedAt) {
      // Another process drives it (a worker, another server): it reads the request and cancels the run.
      await store.updateRun(run.id, { cancelRequestedAt: at });
    }
    return (await store.getRun(run.id)) ?? run;
  };

  /** Continues an interrupted run (or starts one this server queued and never started) in this server. */
  const resume = async (userId: string, id: string): Promise<RunRecord> => {
    // One at a time per user, so that two resumes of one run cannot both start it.
    const release = await lockUser(userId);
    try {
      const run = await ownRun(userId, id);
      if (drives.has(run.id)) throw new HttpError(409, "run_active", `run ${run.id} is running in this server`);
      if (ended(run))
        throw new HttpError(409, "run_ended", `run ${run.id} is ${run.status}; only an interrupted run can be resumed`);
      if (options.enqueue)
        throw new HttpError(
          409,
          "workers_resume",
          `run ${run.id} belongs to the job queue: a worker resumes it when its lease runs out (assay queue retry for a dead-lettered one)`,
        );
      if ((await activeRuns(userId)).length >= options.concurrentRuns + (statusOf(run) === "queued" ? 1 : 0))
        throw tooMany(`you have ${options.concurrentRuns} runs running; wait for one to finish`);
      const runtime = runtimeFor(run.request.model);
      if (isQueued(run)) drives.start(run.id, (signal) => runtime.start(run.id, { signal }), watch(run.id));
      else if (displayStatus(run, now()) === "interrupted")
        drives.start(run.id, (signal) => runtime.resume(run.id, { signal }), watch(run.id));
      else
        throw new HttpError(
          409,
          "run_active",
          `run ${run.id} is still running in another process (${run.worker}); it cannot be resumed twice`,
        );
      return (await store.getRun(run.id)) ?? run;
    } finally {
      release();
    }
  };

  /** The run's current published report files, or undefined before the first publication. */
  const currentReport = async (run: RunRecord) =>
    run.artifactStatus === "" ? undefined : options.artifacts.current({ runId: run.id, outDir: run.request.outDir });

  /** The user's model spend: today (UTC) and in all, with the policy's cost limits. */
  const usage = async (userId: string) => {
    const at = now();
    const [today, total] = await Promise.all([
      store.userUsage(userId, { since: dayStart(at) }),
      store.userUsage(userId),
    ]);
    const perRun = policy.ceilings.maxCostUsd;
    const perDay = policy.maxCostUsdPerDay;
    return {
      user: userId,
      today: { since: dayStart(at), ...today },
      total,
      limits: {
        ...(perRun === undefined ? {} : { costUsdPerRun: perRun }),
        ...(perDay === undefined ? {} : { costUsdPerDay: perDay }),
      },
    };
  };

  return {
    drives,
    statusOf,
    view,
    ownRun,
    create,
    continueRun,
    cancel,
    resume,
    currentReport,
    usage,
    models: policy.models,
  };
}
