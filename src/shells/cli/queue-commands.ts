/**
 * `assay run --queue` (enqueue a run), `assay worker` (take runs from the queue) and the
 * operators' `assay queue list | retry | purge-dead`.
 */
import { hostname } from "node:os";
import { systemClock } from "../../adapters/clock/system-clock.js";
import { describeDepth, type QueueJob } from "../../adapters/queue/pg-boss/pg-boss-inspect.js";
import { openPgBossQueue, type PgBossQueue } from "../../adapters/queue/pg-boss/pg-boss-queue.js";
import { isPostgresUrl, redactUrl } from "../../adapters/store/postgres/postgres-url.js";
import { UserError } from "../../core/errors.js";
import type { RetryPolicy } from "../../ports/job-queue.js";
import type { RunRequest, Store } from "../../ports/store.js";
import { closeDeadLetters, startRunWorker } from "../../runtime/run-worker.js";
import { EXIT } from "./exit-codes.js";
import { resolveModel } from "./model-choice.js";
import { DEFAULT_RETRY_POLICY, type Fault } from "./options.js";
import type { DataPaths } from "./paths.js";
import { faultListener } from "./run-execution.js";
import { displayStatus } from "./run-state.js";
import { openStore } from "./stores.js";
import { buildRuntime } from "./wiring.js";

function queueUrl(db: string | undefined, command: string): string {
  if (db && isPostgresUrl(db)) return db;
  throw new UserError(`${command} needs a PostgreSQL database: --db postgres://…`);
}

export interface EnqueueOptions {
  db?: string;
  json?: boolean;
  retries?: number;
  retryDelay?: number;
  lease?: number;
}

/** Records the run as queued and adds its job; prints the run id. Returns the exit code. */
export async function enqueueRun(paths: DataPaths, request: RunRequest, options: EnqueueOptions): Promise<number> {
  const url = queueUrl(options.db, "assay run --queue");
  const policy: RetryPolicy = {
    retries: options.retries ?? DEFAULT_RETRY_POLICY.retries,
    retryDelaySeconds: options.retryDelay ?? DEFAULT_RETRY_POLICY.retryDelaySeconds,
    leaseSeconds: options.lease ?? DEFAULT_RETRY_POLICY.leaseSeconds,
  };
  const store = await openStore(paths, url);
  try {
    // No model is needed to record the run; the worker builds it from the run's model spec.
    const runtime = buildRuntime(paths, store, undefined, {});
    const run = await runtime.createQueued(request);
    const queue = await openPgBossQueue({ url });
    try {
      const job = await queue.enqueue(run.id, policy);
      process.stdout.write(
        options.json
          ? `${JSON.stringify({ runId: run.id, status: "queued", job })}\n`
          : `Run ${run.id} queued (job ${job}).\n`,
      );
    } finally {
      await queue.close();
    }
    return EXIT.ok;
  } finally {
    await store.close();
  }
}

export interface WorkerCommandOptions {
  db?: string;
  concurrency: number;
  poll: number;
  maintenanceInterval: number;
  quiet?: boolean;
  fault?: Fault;
}

/**
 * Takes runs until SIGTERM or SIGINT: the first stops taking jobs and lets the runs in
 * progress publish; a second exits at once, handing the runs back (their leases run out and
 * another worker resumes them).
 */
export async function runWorker(
  paths: DataPaths,
  options: WorkerCommandOptions,
  environment: Record<string, string | undefined>,
): Promise<number> {
  const url = queueUrl(options.db, "assay worker");
  const log = (line: string) => {
    if (!options.quiet) process.stderr.write(`assay worker: ${line}\n`);
  };
  const store = await openStore(paths, url);
  const queue = await openPgBossQueue({
    url,
    supervise: true,
    maintenanceIntervalSeconds: options.maintenanceInterval,
    onError: (error) => log(`queue maintenance: ${error.message}`),
    // `assay health` lists the workers connected now by this name.
    applicationName: `assay-worker ${hostname()}:${process.pid}`,
  }).catch(async (error: unknown) => {
    await store.close();
    throw error;
  });
  const worker = startRunWorker({
    queue,
    store,
    clock: systemClock,
    runtimeFor: (run, lease) =>
      buildRuntime(paths, store, resolveModel(run.request.model, environment), environment, lease),
    concurrency: options.concurrency,
    pollMs: options.poll * 1000,
    // Jobs are dead-lettered by maintenance: look for them as often as it runs.
    deadLetterScanMs: options.maintenanceInterval * 1000,
    listeners: () => faultListener(options.fault),
    log,
  });
  let stopping = false;
  const onSignal = (): void => {
    if (stopping) {
      process.stderr.write("assay worker: stopping now; the runs in progress go back to the queue\n");
      process.exit(EXIT.interrupted);
    }
    stopping = true;
    log("stopping: no new runs; the runs in progress finish (signal again to hand them back now)");
    worker.drain();
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  process.stdout.write(`worker ${hostname()}:${process.pid} ready (concurrency ${options.concurrency})\n`);
  try {
    await worker.done;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    await queue.close();
    await store.close();
  }
  return EXIT.ok;
}

/** Opens the store and the queue of a PostgreSQL `--db`, runs `work`, and closes both. */
async function withQueue<T>(
  paths: DataPaths,
  db: string | undefined,
  command: string,
  work: (store: Store, queue: PgBossQueue, url: string) => Promise<T>,
): Promise<T> {
  const url = queueUrl(db, command);
  const store = await openStore(paths, url);
  try {
    const queue = await openPgBossQueue({ url });
    try {
      return await work(store, queue, url);
    } finally {
      await queue.close();
    }
  } finally {
    await store.close();
  }
}

const time = (iso: string): string => (iso ? iso.slice(0, 19).replace("T", " ") : "—");

/** What `queue list` says about a job beside its state. */
function jobNote(job: QueueJob): string {
  if (job.state === "active") return `lease renewed ${time(job.leaseRenewedAt)}`;
  if (job.state === "retrying") return `next attempt after ${time(job.nextAttemptAt)}; last: ${job.error || "failed"}`;
  if (job.state === "dead-lettered") return `gave up: ${job.error || "the last attempt failed"}`;
  return "";
}

/** `assay queue list`: the jobs that are not done and the dead-lettered ones, with their runs. */
export async function listQueue(
  paths: DataPaths,
  options: { db?: string; json?: boolean },
  out: NodeJS.WritableStream,
): Promise<number> {
  return withQueue(paths, options.db, "assay queue list", async (store, queue) => {
    const [depth, jobs] = await Promise.all([queue.depth(), queue.jobs()]);
    if (options.json) {
      out.write(`${JSON.stringify({ depth, jobs })}\n`);
      return EXIT.ok;
    }
    out.write(`Queue: ${describeDepth(depth)}\n`);
    if (jobs.length === 0) {
      out.write("No jobs wait, run or are dead-lettered.\n");
      return EXIT.ok;
    }
    out.write(
      `\n${"STATE".padEnd(14)} ${"RUN".padEnd(5)} ${"ATTEMPTS".padEnd(8)} ${"SINCE".padEnd(19)} ${"JOB".padEnd(36)} NOTE\n`,
    );
    for (const job of jobs) {
      const run = job.runId ? await store.getRun(job.runId) : undefined;
      const question = run ? ` — ${run.request.question.replace(/\s+/g, " ").slice(0, 50)}` : "";
      out.write(
        `${job.state.padEnd(14)} ${String(job.runId || "?").padEnd(5)} ${`${job.attempts}/${job.maxAttempts}`.padEnd(8)} ${time(job.createdAt).padEnd(19)} ${job.id.padEnd(36)} ${jobNote(job)}${question}\n`,
      );
    }
    return EXIT.ok;
  });
}

export interface RetryOptions {
  db?: string;
  json?: boolean;
  retries?: number;
  retryDelay?: number;
  lease?: number;
}

/**
 * `assay queue retry <run>`: queues a failed or dead-lettered run again. Its dead-lettered jobs
 * are removed, a failed run is set back to running (its error is kept in a `run-requeued`
 * event), and a new job is sent: a worker resumes the run from its persisted state (or starts
 * it, when no worker ever did).
 */
export async function retryQueuedRun(
  paths: DataPaths,
  runId: number,
  options: RetryOptions,
  out: NodeJS.WritableStream,
): Promise<number> {
  return withQueue(paths, options.db, "assay queue retry", async (store, queue, url) => {
    const run = await store.getRun(runId);
    if (!run) throw new UserError(`there is no run ${runId}; see assay runs list --db ${redactUrl(url)}`);
    const jobs = await queue.jobs(runId);
    const pending = jobs.find((job) => job.state !== "dead-lettered");
    if (pending)
      throw new UserError(
        `run ${runId} is in the queue already (job ${pending.id} is ${pending.state}); a worker takes it without a retry`,
      );
    const dead = jobs.filter((job) => job.state === "dead-lettered");
    const status = displayStatus(run);
    if (run.status === "finished")
      throw new UserError(`run ${runId} finished; only a failed or dead-lettered run can be retried`);
    // A running run with no job: dead-lettered, its worker gone, or queued but its job never sent.
    if (run.status === "running" && dead.length === 0 && status === "running")
      throw new UserError(
        `run ${runId} is running (worker ${run.worker}) and was not dead-lettered; only a failed or dead-lettered run can be retried`,
      );
    const policy: RetryPolicy = {
      retries: options.retries ?? DEFAULT_RETRY_POLICY.retries,
      retryDelaySeconds: options.retryDelay ?? DEFAULT_RETRY_POLICY.retryDelaySeconds,
      leaseSeconds: options.lease ?? (dead.at(-1)?.leaseSeconds || DEFAULT_RETRY_POLICY.leaseSeconds),
    };
    // First the dead letters: a worker would otherwise record the run failed again.
    await queue.dismissDeadLetters(runId);
    const events = await store.listEvents(runId);
    await store.appendEvent(runId, {
      type: "run-requeued",
      offsetMs: events.at(-1)?.offsetMs ?? 0,
      at: new Date().toISOString(),
      data: { previousStatus: status, previousError: run.error, deadLettered: dead.length },
    });
    if (run.status === "failed") await store.updateRun(runId, { status: "running", error: "", finishedAt: "" });
    const job = await queue.enqueue(runId, policy);
    const how = run.worker === "" ? "starts it" : "resumes it from its persisted state";
    out.write(
      options.json
        ? `${JSON.stringify({ runId, status: "queued", job, previousStatus: status })}\n`
        : `Run ${runId} (${status}) queued again (job ${job}); a worker ${how}.\n`,
    );
    return EXIT.ok;
  });
}

/**
 * `assay queue purge-dead [run]`: removes dead-lettered jobs (of one run, or all). A run still
 * `running` whose job was dead-lettered is first recorded failed, as a worker would; the runs
 * stay failed and `assay queue retry` can still queue them again.
 */
export async function purgeDeadLetters(
  paths: DataPaths,
  options: { db?: string; json?: boolean; run?: number },
  out: NodeJS.WritableStream,
): Promise<number> {
  return withQueue(paths, options.db, "assay queue purge-dead", async (store, queue) => {
    const closed = await closeDeadLetters({ queue, store, clock: systemClock });
    const removed = await queue.dismissDeadLetters(options.run);
    if (options.run !== undefined && removed.length === 0)
      throw new UserError(`run ${options.run} has no dead-lettered job; see assay queue list`);
    const runs = [...new Set(removed.map((letter) => letter.runId))];
    if (options.json) {
      out.write(`${JSON.stringify({ removed: removed.length, runs, closed: closed.map((run) => run.runId) })}\n`);
      return EXIT.ok;
    }
    for (const run of closed) out.write(`Run ${run.runId} recorded failed: ${run.error}\n`);
    out.write(
      removed.length === 0
        ? "No dead-lettered jobs.\n"
        : `Removed ${removed.length} dead-lettered job${removed.length === 1 ? "" : "s"} (run${runs.length === 1 ? "" : "s"} ${runs.join(", ")}); assay queue retry <run> can still queue a failed run again.\n`,
    );
    return EXIT.ok;
  });
}
