/**
 * The run queue on pg-boss 10 (see docs/decisions/0007-job-queue.md). Jobs live in pg-boss's
 * own schema (`pgboss` unless told otherwise) beside the store's tables; pg-boss installs and
 * upgrades it on start. A lease is pg-boss's expiration (`expireInSeconds`, counted from the
 * job's `started_on`), enforced by its maintenance ("supervise"), which also applies retries,
 * backoff and the dead-letter queue. pg-boss 10 has no heartbeat, so `heartbeat()` moves the
 * active job's `started_on` to now with one conditional UPDATE of its job table: the only
 * statement here that is not pg-boss's API.
 */
import PgBoss from "pg-boss";
import { UserError } from "../../../core/errors.js";
import type { JobQueue, LeasedJob, RetryPolicy } from "../../../ports/job-queue.js";

/** The queue of runs and the queue its exhausted jobs are copied to. */
export const RUN_QUEUE = "assay-runs";
export const DEAD_RUN_QUEUE = "assay-runs-dead";

export interface PgBossQueueOptions {
  url: string;
  /** pg-boss's schema (default `pgboss`). */
  schema?: string;
  /** Run pg-boss's maintenance (lease expiry, retries, archiving) in this process; workers do. */
  supervise?: boolean;
  /** How often maintenance runs, in seconds (default 5): a dead worker's job waits up to lease + this. */
  maintenanceIntervalSeconds?: number;
  /** Reports errors of pg-boss's background work (maintenance); they are not fatal. */
  onError?: (error: Error) => void;
}

interface RunJobData {
  runId: number;
  leaseSeconds: number;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export async function openPgBossQueue(options: PgBossQueueOptions): Promise<PgBossQueue> {
  const schema = options.schema ?? "pgboss";
  if (!SCHEMA_NAME.test(schema)) throw new UserError(`invalid queue schema name "${schema}"`);
  const boss = new PgBoss({
    connectionString: options.url,
    schema,
    application_name: "assay-queue",
    max: 4,
    supervise: options.supervise ?? false,
    schedule: false,
    maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 5,
  });
  boss.on("error", (error) => options.onError?.(error));
  await boss.start();
  // Both are no-ops when the queues exist.
  await boss.createQueue(DEAD_RUN_QUEUE);
  await boss.createQueue(RUN_QUEUE, { name: RUN_QUEUE, deadLetter: DEAD_RUN_QUEUE });
  return new PgBossQueue(boss, schema);
}

export class PgBossQueue implements JobQueue {
  readonly #boss: PgBoss;
  readonly #schema: string;

  constructor(boss: PgBoss, schema: string) {
    this.#boss = boss;
    this.#schema = schema;
  }

  async enqueue(runId: number, policy: RetryPolicy): Promise<string> {
    const data: RunJobData = { runId, leaseSeconds: policy.leaseSeconds };
    const id = await this.#boss.send(RUN_QUEUE, data, {
      retryLimit: policy.retries,
      retryDelay: policy.retryDelaySeconds,
      retryBackoff: true,
      expireInSeconds: policy.leaseSeconds,
    });
    if (id === null) throw new Error(`the queue refused the job of run ${runId}`);
    return id;
  }

  async take(): Promise<LeasedJob | undefined> {
    const [job] = await this.#boss.fetch<RunJobData>(RUN_QUEUE, { includeMetadata: true, batchSize: 1 });
    if (!job) return undefined;
    const { runId, leaseSeconds } = job.data;
    if (!Number.isInteger(runId) || !(leaseSeconds > 0)) {
      await this.#boss.fail(RUN_QUEUE, job.id, { message: "the job names no run" });
      return undefined;
    }
    // Every delivery increments retry_count, so (id, retry_count) names this lease: a renewal
    // after the lease ran out (and the job was retried or taken by another worker) matches nothing.
    const renew = `UPDATE ${this.#schema}.job SET started_on = now()
      WHERE name = $1 AND id = $2 AND state = 'active' AND retry_count = $3 RETURNING id`;
    let held = true;
    const heartbeat = async (): Promise<boolean> => {
      if (!held) return false;
      const result = await this.#boss.getDb().executeSql(renew, [RUN_QUEUE, job.id, job.retryCount]);
      held = result.rows.length === 1;
      return held;
    };
    return {
      id: job.id,
      runId,
      attempt: job.retryCount + 1,
      lastAttempt: job.retryCount >= job.retryLimit,
      leaseSeconds,
      heartbeat,
      // Only while still held: a job whose lease ran out may be another worker's by now.
      complete: async () => {
        if (await heartbeat()) await this.#boss.complete(RUN_QUEUE, job.id);
      },
      fail: async (error) => {
        if (await heartbeat()) await this.#boss.fail(RUN_QUEUE, job.id, { message: error });
      },
    };
  }

  /** The state of a job in the run queue or the dead-letter queue (for operators and tests). */
  async jobState(queue: string, id: string): Promise<string | undefined> {
    return (await this.#boss.getJobById(queue, id, { includeArchive: true }))?.state;
  }

  async close(): Promise<void> {
    await this.#boss.stop({ graceful: false, wait: true, close: true });
  }
}
