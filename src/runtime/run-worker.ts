/**
 * A worker: takes runs from the job queue and drives each to its publication, `concurrency`
 * at a time. A queued run is started; a run some earlier worker began (and died in) is resumed
 * from its persisted state. While a run is driven its lease is renewed every third of the lease.
 * A run that reaches a terminal status (finished or failed) completes its job; an attempt that
 * throws fails it, so the queue retries it after a backoff, and on the last attempt the run is
 * recorded `failed` as the job goes to the dead-letter queue.
 */
import { describeError } from "../core/errors.js";
import type { EventListener } from "../host/run-host.js";
import type { Clock } from "../ports/clock.js";
import type { JobQueue, LeasedJob } from "../ports/job-queue.js";
import { isQueued, type RunRecord, type Store } from "../ports/store.js";
import type { Runtime } from "./runtime.js";

export interface RunWorkerOptions {
  queue: JobQueue;
  store: Store;
  clock: Clock;
  /** The runtime for one run (the CLI builds each run's model from its record). */
  runtimeFor(run: RunRecord): Runtime;
  /** Runs driven at once (default 1). */
  concurrency?: number;
  /** Wait between polls of an empty queue (default 2000 ms). */
  pollMs?: number;
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

  async function drive(job: LeasedJob): Promise<void> {
    const lease = new AbortController();
    const renew = setInterval(
      () => {
        job.heartbeat().then(
          (held) => {
            if (held || lease.signal.aborted) return;
            log(`run ${job.runId}: the lease was lost; stopping acquisition`);
            lease.abort(new Error("the job's lease was lost"));
          },
          (error: unknown) => log(`run ${job.runId}: heartbeat failed: ${describeError(error)}`),
        );
      },
      Math.max(250, (job.leaseSeconds * 1000) / 3),
    );
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
      const how = isQueued(run) ? "start" : "resume";
      log(`run ${job.runId}: attempt ${job.attempt}, ${how}`);
      const runOptions = { signal: lease.signal, listeners: options.listeners?.(job.runId) ?? [] };
      const runtime = options.runtimeFor(run);
      const outcome =
        how === "start" ? await runtime.start(job.runId, runOptions) : await runtime.resume(job.runId, runOptions);
      log(`run ${job.runId}: ${outcome.status} (${outcome.artifactStatus || "nothing"} published)`);
      await job.complete();
    } catch (error) {
      const message = describeError(error);
      log(`run ${job.runId}: attempt ${job.attempt} failed: ${message}`);
      if (job.lastAttempt) await giveUp(job, message);
      await job.fail(message);
    } finally {
      clearInterval(renew);
    }
  }

  async function giveUp(job: LeasedJob, message: string): Promise<void> {
    const run = await options.store.getRun(job.runId);
    if (run?.status !== "running") return;
    await options.store.updateRun(job.runId, {
      status: "failed",
      error: `gave up after ${job.attempt} attempts: ${message}`,
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

  const slots = Array.from({ length: Math.max(1, options.concurrency ?? 1) }, () => slot());
  return {
    drain() {
      draining = true;
      wake();
    },
    done: Promise.all(slots).then(() => undefined),
  };
}
