/**
 * The run queue on pg-boss 10 (see docs/decisions/0007-job-queue.md). Jobs live in pg-boss's
 * own schema (`pgboss` unless told otherwise) beside the store's tables; pg-boss installs and
 * upgrades it on start. A lease is pg-boss's expiration (`expireInSeconds`, counted from the
 * job's `started_on`), enforced by its maintenance ("supervise"), which also applies retries,
 * backoff and the dead-letter queue. pg-boss 10 has no heartbeat, so `heartbeat()` moves the
 * active job's `started_on` to now with one conditional UPDATE of its job table: the only
 * statement here that is not pg-boss's API.
 */
import pg from "pg";
import PgBoss from "pg-boss";
import { UserError } from "../../../core/errors.js";
import type { DeadLetter, JobQueue, LeasedJob, RetryPolicy } from "../../../ports/job-queue.js";
import {
  DEAD_RUN_QUEUE,
  type Queryable,
  type QueueDepth,
  type QueueJob,
  queueDepth,
  queueJobs,
  RUN_QUEUE,
} from "./pg-boss-inspect.js";

export { DEAD_RUN_QUEUE, RUN_QUEUE } from "./pg-boss-inspect.js";

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
  /**
   * The connections' `application_name` (default `assay-queue`). Workers use
   * `assay-worker <host>:<pid>`, which is how `assay health` lists the workers connected now.
   */
  applicationName?: string;
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
    // PostgreSQL keeps the first 63 bytes of an application name.
    application_name: (options.applicationName ?? "assay-queue").slice(0, 63),
    max: 4,
    supervise: options.supervise ?? false,
    schedule: false,
    maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 5,
  });
  boss.on("error", (error) => options.onError?.(error));
  await boss.start();
  await createQueues(boss, options.url);
  return new PgBossQueue(boss, schema);
}

/** Key of the advisory lock that serializes creating the queues ('asq1'). */
const QUEUE_SETUP_LOCK = 0x61737131;

/**
 * Creates both queues unless they exist. pg-boss's `createQueue` is not safe to run from two
 * processes at once on a new database (each new queue's partition takes a lock on the queue
 * table that the other's insert waits under: a deadlock), so creation holds an advisory lock.
 */
async function createQueues(boss: PgBoss, url: string): Promise<void> {
  if ((await boss.getQueue(RUN_QUEUE)) && (await boss.getQueue(DEAD_RUN_QUEUE))) return;
  const client = new pg.Client({ connectionString: url, application_name: "assay-queue-setup" });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [QUEUE_SETUP_LOCK]);
    // Both are no-ops when the queue exists (another process created it while this one waited).
    await boss.createQueue(DEAD_RUN_QUEUE);
    await boss.createQueue(RUN_QUEUE, { name: RUN_QUEUE, deadLetter: DEAD_RUN_QUEUE });
  } finally {
    await client.end();
  }
}

export class PgBossQueue implements JobQueue {
  readonly #boss: PgBoss;
  readonly #schema: string;
  readonly #db: Queryable;

  constructor(boss: PgBoss, schema: string) {
    this.#boss = boss;
    this.#schema = schema;
    this.#db = { query: (text, values) => boss.getDb().executeSql(text, values ?? []) };
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

  async deadLetters(): Promise<DeadLetter[]> {
    const jobs = await queueJobs(this.#db, { schema: this.#schema, only: "dead-lettered" });
    return jobs.map(deadLetterOf);
  }

  async hasPendingJob(runId: number): Promise<boolean> {
    const jobs = await queueJobs(this.#db, { schema: this.#schema, runId, only: "pending" });
    return jobs.length > 0;
  }

  /** Jobs by state (for operators). */
  depth(): Promise<QueueDepth> {
    return queueDepth(this.#db, this.#schema);
  }

  /** The jobs that are not done and the dead-lettered ones, oldest first; `runId` narrows to one run. */
  jobs(runId?: number): Promise<QueueJob[]> {
    return queueJobs(this.#db, { schema: this.#schema, ...(runId === undefined ? {} : { runId }) });
  }

  /**
   * Deletes the dead-lettered jobs of `runId` (of every run when undefined) and returns them:
   * their runs were re-queued or the operator is done with them.
   */
  async dismissDeadLetters(runId?: number): Promise<DeadLetter[]> {
    const letters = (await this.deadLetters()).filter((letter) => runId === undefined || letter.runId === runId);
    if (letters.length > 0)
      await this.#boss.deleteJob(
        DEAD_RUN_QUEUE,
        letters.map((letter) => letter.id),
      );
    return letters;
  }

  /** The state of a job in the run queue or the dead-letter queue (for operators and tests). */
  async jobState(queue: string, id: string): Promise<string | undefined> {
    return (await this.#boss.getJobById(queue, id, { includeArchive: true }))?.state;
  }

  async close(): Promise<void> {
    await this.#boss.stop({ graceful: false, wait: true, close: true });
  }
}

function deadLetterOf(job: QueueJob): DeadLetter {
  return {
    id: job.id,
    runId: job.runId,
    attempts: job.attempts,
    leaseSeconds: job.leaseSeconds,
    error: job.error,
    leaseExpired: job.leaseExpired,
    at: job.createdAt,
  };
}
