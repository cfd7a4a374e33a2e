/**
 * A worker: takes runs from the job queue and drives each to its publication, `concurrency`
 * at a time. A queued run is started; a run some earlier worker began (and died in) is resumed
 * from its persisted state. While a run is driven its job's lease is renewed every third of
 * the lease (at most every 30 s), and the run's own lease (runtime/run-lease.ts) by the runtime. A run that reaches a
 * terminal status (finished or failed) completes its job; an attempt that throws fails it, so
 * the queue retries it after a backoff, and on the last attempt the run is recorded `failed` as
 * the job goes to the dead-letter queue. A job dead-lettered because its last lease ran out
 * (its worker died) has no worker left to record that: every worker looks through the
 * dead-lettered jobs now and then and records such a run `failed` (`closeDeadLetters`). The
 * dead-lettered jobs stay for operators (`assay queue list`, `retry`, `purge-dead`).
 */
import { describeError } from "../core/errors.js";
import type { EventListener } from "../host/run-host.js";
import type { Clock } from "../ports/clock.js";
import type { DeadLetter, JobQueue, LeasedJob } from "../ports/job-queue.js";
import { isQueued, type RunRecord, type Store } from "../ports/store.js";
import { LeaseHeldError } from "./run-lease.js";
import type { Runtime } from "./runtime.js";

/** The longest wait between two lease renewals (and heartbeats) of a run in progress. */
export const HEARTBEAT_MAX_PERIOD_MS = 30_000;

/**
 * A running run whose last heartbeat is older than this is no longer driven by a live worker
 * (four missed heartbeats at the longest period): `runs list` shows it interrupted.
 */
export const STALE_HEARTBEAT_MS = 120_000;

/** How long a worker waits between two renewals of a lease of `leaseSeconds`. */
export function heartbeatPeriodMs(leaseSeconds: number): number {
  return Math.max(250, Math.min(HEARTBEAT_MAX_PERIOD_MS, (leaseSeconds * 1000) / 3));
}

/** The error recorded on a run whose job was dead-lettered. */
export function deadLetterError(letter: Pick<DeadLetter, "attempts" | "error" | "leaseExpired">): string {
  const why = letter.leaseExpired
    ? "the lease ran out on the last attempt (its worker was killed, or lost the database, and stopped renewing it)"
    : letter.error || "the last attempt failed";
  return `gave up after ${letter.attempts} attempt${letter.attempts === 1 ? "" : "s"}: ${why}`;
}

/**
 * Records `failed` every run whose job was dead-lettered while the run is still `running`
 * and no job of it is pending (an operator may have queued it again). Returns the runs it
 * closed. `settled` (kept by a worker between calls) skips dead letters already dealt with.
 */
export async function closeDeadLetters(
  options: { queue: JobQueue; store: Store; clock: Clock },
  settled: Set<string> = new Set(),
): Promise<{ runId: number; error: string }[]> {
  const closed: { runId: number; error: string }[] = [];
  for (const letter of await options.queue.deadLetters()) {
    if (settled.has(letter.id)) continue;
    const run = await options.store.getRun(letter.runId);
    if (run?.status !== "running") {
      settled.add(letter.id);
      continue;
    }
    if (await options.queue.hasPendingJob(letter.runId)) continue;
    const error = deadLetterError(letter);
    await options.store.updateRun(letter.runId, {
      status: "failed",
      error,
      finishedAt: new Date(options.clock.wallMs()).toISOString(),
    });
    settled.add(letter.id);
    closed.push({ runId: letter.runId, error });
  }
  return closed;
}

export interface RunWorkerOptions {
  queue: JobQueue;
  store: Store;
  clock: Clock;
  /**
   * The runtime for one run (the CLI builds each run's model from its record), with the run
   * lease as long as the job's: a worker whose job lease lapsed has lost the run's lease too.
   */
  runtimeFor(run: RunRecord, lease: { leaseMs: number }): Runtime;
  /** Runs driven at once (default 1). */
  concurrency?: number;
  /** Wait between polls of an empty queue (default 2000 ms). */
  pollMs?: number;
  /** Wait between two looks at the dead-lettered jobs (default 30 000 ms). */
  deadLetterScanMs?: number;
  /** Listeners for the events of each run this worker drives. */
  listeners?: (runId: number) => EventListener[];
  /** One line per job taken and finished, and errors of the queue. */
  log?: (line: string) => void;
}

export interface RunWorker {
  /** Stop taking jobs; the runs in progress go on to their publication. */
  drain(): void;
  /** Resolves when draining is done and no run is in progress. */
  readonly done: Promise<void>;
}

export function startRunWorker(options: RunWorkerOptions): RunWorker {
  const log = options.log ?? (() => {});
  const pollMs = options.pollMs ?? 2000;
  let draining = false;
  let wake: () => void = () => {};
  const drained = new Promise<void>((resolve) => {
    wake = resolve;
  });
  const pause = (ms: number) =>
    Promise.race([drained, new Promise<void>((resolve) => setTimeout(resolve, ms).unref())]);

  const wallIso = () => new Date(options.clock.wallMs()).toISOString();

  async function drive(job: LeasedJob): Promise<void> {
    const lease = new AbortController();
    // A cancel requested from another process (`assay serve`), read with each heartbeat.
    const cancel = new AbortController();
    const cancelIfRequested = (run: { cancelRequestedAt?: string } | undefined) => {
      if (!run?.cancelRequestedAt || cancel.signal.aborted) return;
      log(`run ${job.runId}: cancel requested at ${run.cancelRequestedAt}; publishing what is persisted`);
      cancel.abort(new Error("cancel requested"));
    };
    // The run's own lease (renewed by the runtime) is its heartbeat; this reads a cancel requested elsewhere.
    const beat = () =>
      options.store
        .getRun(job.runId)
        .then(cancelIfRequested)
        .catch((error: unknown) => log(`run ${job.runId}: reading the run failed: ${describeError(error)}`));
    const renew = setInterval(() => {
      job.heartbeat().then(
        async (held) => {
          if (held) return beat();
          if (lease.signal.aborted) return;
          log(`run ${job.runId}: the lease was lost; stopping acquisition`);
          lease.abort(new Error("the job's lease was lost"));
        },
        (error: unknown) => log(`run ${job.runId}: heartbeat failed: ${describeError(error)}`),
      );
    }, heartbeatPeriodMs(job.leaseSeconds));
    try {
      const run = await options.store.getRun(job.runId);
      if (!run) {
        await job.fail(`there is no run ${job.runId}`);
        return;
      }
      if (run.status !== "running") {
        // Terminal already: an earlier worker finished it and died before completing the job.
        await job.complete();
        return;
      }
      if (isQueued(run) && run.cancelRequestedAt) {
        // Cancelled before any worker started it: nothing was read, nothing to publish.
        await options.store.updateRun(job.runId, {
          status: "failed",
          error: "cancelled before a worker started it",
          finishedAt: wallIso(),
        });
        log(`run ${job.runId}: cancelled before it started`);
        await job.complete();
        return;
      }
      await beat();
      const how = isQueued(run) ? "start" : "resume";
      log(`run ${job.runId}: attempt ${job.attempt}, ${how}`);
      const runOptions = {
        handBack: lease.signal,
        signal: cancel.signal,
        listeners: options.listeners?.(job.runId) ?? [],
      };
      const leaseMs = job.leaseSeconds * 1000;
      const runtime = options.runtimeFor(run, { leaseMs });
      const outcome = await underLease(
        () => (how === "start" ? runtime.start(job.runId, runOptions) : runtime.resume(job.runId, runOptions)),
        leaseMs,
      );
      if (lease.signal.aborted) {
        // The job is another worker's now: completing it here would end that worker's attempt.
        log(`run ${job.runId}: handed back (the lease was lost); the worker holding it now resumes it`);
        return;
      }
      log(`run ${job.runId}: ${outcome.status} (${outcome.artifactStatus || "nothing"} published)`);
      await job.complete();
    } catch (error) {
      const message = describeError(error);
      if (lease.signal.aborted) {
        log(`run ${job.runId}: handed back (the lease was lost) after: ${message}`);
        return;
      }
      log(`run ${job.runId}: attempt ${job.attempt} failed: ${message}`);
      if (job.lastAttempt) await giveUp(job, message);
      await job.fail(message);
    } finally {
      clearInterval(renew);
    }
  }

  /**
   * Drives a run whose lease its last driver may still hold for a moment (it died as its job's
   * lease lapsed, a little before the run's did): waits that moment out, within this job's lease.
   */
  async function underLease<T>(drive: () => Promise<T>, leaseMs: number): Promise<T> {
    for (let tries = 1; ; tries++) {
      try {
        return await drive();
      } catch (error) {
        if (!(error instanceof LeaseHeldError) || tries >= 3 || error.remainingMs > leaseMs) throw error;
        log(`${error.message}; waiting ${Math.ceil(error.remainingMs / 1000)} s`);
        await pause(error.remainingMs + 250);
        if (draining) throw error;
      }
    }
  }

  async function giveUp(job: LeasedJob, message: string): Promise<void> {
    const run = await options.store.getRun(job.runId);
    if (run?.status !== "running") return;
    await options.store.updateRun(job.runId, {
      status: "failed",
      error: deadLetterError({ attempts: job.attempt, error: message, leaseExpired: false }),
      finishedAt: new Date(options.clock.wallMs()).toISOString(),
    });
  }

  async function slot(): Promise<void> {
    while (!draining) {
      let job: LeasedJob | undefined;
      try {
        job = await options.queue.take();
      } catch (error) {
        log(`taking a job failed: ${describeError(error)}`);
      }
      if (job) await drive(job).catch((error: unknown) => log(`job ${job.id}: ${describeError(error)}`));
      else await pause(pollMs);
    }
  }

  // Dead letters whose run needs nothing more from this worker.
  const settled = new Set<string>();
  let scanning = false;
  let lastScan: Promise<void> = Promise.resolve();
  const scan = () => {
    if (scanning || draining) return;
    scanning = true;
    lastScan = closeDeadLetters(options, settled)
      .then(
        (closed) => {
          for (const { runId, error } of closed) log(`run ${runId}: dead-lettered; recorded failed (${error})`);
        },
        (error: unknown) => log(`looking at the dead-lettered jobs failed: ${describeError(error)}`),
      )
      .finally(() => {
        scanning = false;
      });
  };
  scan();
  const scanner = setInterval(scan, options.deadLetterScanMs ?? 30_000);
  scanner.unref();

  const slots = Array.from({ length: Math.max(1, options.concurrency ?? 1) }, () => slot());
  return {
    drain() {
      draining = true;
      clearInterval(scanner);
      wake();
    },
    done: Promise.all(slots).then(() => lastScan),
  };
}
