/** `assay run --queue` (enqueue a run) and `assay worker` (take runs from the queue). */
import { hostname } from "node:os";
import { InvalidArgumentError } from "commander";
import { systemClock } from "../../adapters/clock/system-clock.js";
import { openPgBossQueue } from "../../adapters/queue/pg-boss/pg-boss-queue.js";
import { isPostgresUrl } from "../../adapters/store/postgres/postgres-connection.js";
import { UserError } from "../../core/errors.js";
import type { RetryPolicy } from "../../ports/job-queue.js";
import type { RunRequest } from "../../ports/store.js";
import { startRunWorker } from "../../runtime/run-worker.js";
import { resolveModel } from "./model-choice.js";
import type { DataPaths } from "./paths.js";
import { EXIT, faultListener } from "./run-execution.js";
import type { Fault } from "./run-request.js";
import { buildRuntime, openStore } from "./wiring.js";

/** Defaults of `--retries`, `--retry-delay` and `--lease`. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { retries: 3, retryDelaySeconds: 30, leaseSeconds: 60 };

/** `--retries`: 0 or more. */
export function nonNegativeInteger(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new InvalidArgumentError("expected a whole number, 0 or more");
  return parsed;
}

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
  }).catch(async (error: unknown) => {
    await store.close();
    throw error;
  });
  const worker = startRunWorker({
    queue,
    store,
    clock: systemClock,
    runtimeFor: (run) => buildRuntime(paths, store, resolveModel(run.request.model, environment), environment),
    concurrency: options.concurrency,
    pollMs: options.poll * 1000,
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
