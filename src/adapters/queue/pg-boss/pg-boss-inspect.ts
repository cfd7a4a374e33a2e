/**
 * Read-only views of the run queue in pg-boss 10's tables, for operators (`assay queue list`,
 * `assay health`, the queue line of `assay runs list`) and for workers looking for
 * dead-lettered runs. These read pg-boss's `job`, `queue` and `version` tables with plain SQL
 * (pg-boss's API has no per-state counts or listing of a queue's jobs); like the lease renewal
 * in pg-boss-queue.ts they depend on the exactly pinned version, and pg-boss-queue.test.ts checks
 * them against it. Nothing here starts pg-boss, creates its schema or writes.
 */

/** The queue of runs and the queue its exhausted jobs are copied to. */
export const RUN_QUEUE = "assay-runs";
export const DEAD_RUN_QUEUE = "assay-runs-dead";

/** The schema version pg-boss 10.4.2 installs (node_modules/pg-boss/version.json). */
export const PG_BOSS_SCHEMA_VERSION = 24;

/** pg-boss's message for a job whose lease (expiration) ran out while it was active. */
const LEASE_EXPIRED = "job failed by timeout in active state";

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** A pg.Pool, a pg.Client, or pg-boss's database (wrapped). */
export interface Queryable {
  query(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

export function checkSchemaName(schema: string): string {
  if (!SCHEMA_NAME.test(schema)) throw new Error(`invalid queue schema name "${schema}"`);
  return schema;
}

export interface QueueSchemaState {
  /** pg-boss's tables exist in the schema. */
  installed: boolean;
  /** The schema version pg-boss recorded (null when not installed). */
  version: number | null;
  /** Which of the two run queues exist. */
  queues: string[];
}

export async function queueSchemaState(db: Queryable, schema = "pgboss"): Promise<QueueSchemaState> {
  checkSchemaName(schema);
  const found = await db.query("SELECT to_regclass($1) IS NOT NULL AS job, to_regclass($2) IS NOT NULL AS version", [
    `${schema}.job`,
    `${schema}.version`,
  ]);
  const row = found.rows[0] ?? {};
  if (row.job !== true || row.version !== true || (await tableMissing(db, schema, "queue"))) {
    return { installed: false, version: null, queues: [] };
  }
  const version = await db.query(`SELECT version FROM ${schema}.version`);
  const queues = await db.query(`SELECT name FROM ${schema}.queue WHERE name IN ($1, $2) ORDER BY name COLLATE "C"`, [
    RUN_QUEUE,
    DEAD_RUN_QUEUE,
  ]);
  const recorded = version.rows[0]?.version;
  return {
    installed: true,
    version: recorded === undefined || recorded === null ? null : Number(recorded),
    queues: queues.rows.map((queue) => String(queue.name)),
  };
}

async function tableMissing(db: Queryable, schema: string, table: string): Promise<boolean> {
  const found = await db.query("SELECT to_regclass($1) IS NULL AS missing", [`${schema}.${table}`]);
  return found.rows[0]?.missing === true;
}

/** Jobs of the run queue by state, and the dead-lettered ones waiting for an operator. */
export interface QueueDepth {
  /** Waiting for a worker (pg-boss `created`). */
  queued: number;
  /** Leased by a worker (`active`). */
  active: number;
  /** Failed an attempt and waiting out the backoff before the next (`retry`). */
  retrying: number;
  /** Given up after the last attempt: in the dead-letter queue, not yet retried or purged. */
  deadLettered: number;
}

export async function queueDepth(db: Queryable, schema = "pgboss"): Promise<QueueDepth> {
  checkSchemaName(schema);
  const result = await db.query(
    `SELECT
       count(*) FILTER (WHERE name = $1 AND state = 'created') AS queued,
       count(*) FILTER (WHERE name = $1 AND state = 'active') AS active,
       count(*) FILTER (WHERE name = $1 AND state = 'retry') AS retrying,
       count(*) FILTER (WHERE name = $2 AND state = 'created') AS dead
     FROM ${schema}.job WHERE name IN ($1, $2)`,
    [RUN_QUEUE, DEAD_RUN_QUEUE],
  );
  const row = result.rows[0] ?? {};
  return {
    queued: Number(row.queued ?? 0),
    active: Number(row.active ?? 0),
    retrying: Number(row.retrying ?? 0),
    deadLettered: Number(row.dead ?? 0),
  };
}

/** "2 queued, 1 active, 0 retrying, 0 dead-lettered". */
export function describeDepth(depth: QueueDepth): string {
  return `${depth.queued} queued, ${depth.active} active, ${depth.retrying} retrying, ${depth.deadLettered} dead-lettered`;
}

export type QueueJobState = "queued" | "active" | "retrying" | "dead-lettered";

/** One job of the run queue that is not done, or one dead-lettered job. */
export interface QueueJob {
  /** pg-boss's job id. */
  id: string;
  state: QueueJobState;
  /** 0 when the job's data names no run. */
  runId: number;
  /** Attempts made so far (a job waiting for its first attempt: 0). */
  attempts: number;
  /** Attempts the job is allowed (retries + 1). */
  maxAttempts: number;
  /** The lease in seconds the job was sent with. */
  leaseSeconds: number;
  createdAt: string;
  /** When the current lease began or was last renewed (active jobs); '' otherwise. */
  leaseRenewedAt: string;
  /** When the next attempt may start (retrying jobs); '' otherwise. */
  nextAttemptAt: string;
  /** Why the last attempt failed (retrying and dead-lettered jobs); '' otherwise. */
  error: string;
  /** True when the last attempt ended because its lease ran out (the worker died or lost the database). */
  leaseExpired: boolean;
}

const iso = (value: unknown): string =>
  value instanceof Date ? value.toISOString() : value === null || value === undefined ? "" : String(value);

/** The message of a failed job's output: ours (`{message}`) or pg-boss's (`{value: {message}}`). */
function failureMessage(output: unknown): string {
  if (typeof output !== "object" || output === null) return "";
  const record = output as { message?: unknown; value?: { message?: unknown } };
  const message = record.message ?? record.value?.message;
  return typeof message === "string" ? message : "";
}

function jobFromRow(row: Record<string, unknown>): QueueJob {
  const data = (typeof row.data === "object" && row.data !== null ? row.data : {}) as {
    runId?: unknown;
    leaseSeconds?: unknown;
  };
  const dead = row.name === DEAD_RUN_QUEUE;
  const state = String(row.state);
  const retryCount = Number(row.retry_count ?? 0);
  const retryLimit = Number(row.retry_limit ?? 0);
  const message = failureMessage(row.output);
  const leaseExpired = message === LEASE_EXPIRED;
  const displayState: QueueJobState = dead
    ? "dead-lettered"
    : state === "active"
      ? "active"
      : state === "retry"
        ? "retrying"
        : "queued";
  // pg-boss counts deliveries in retry_count from the second one on (the first leaves it 0).
  const started = row.started_on !== null && row.started_on !== undefined;
  const attempts = dead ? retryLimit + 1 : started ? retryCount + 1 : 0;
  return {
    id: String(row.id),
    state: displayState,
    runId: Number.isInteger(data.runId) ? Number(data.runId) : 0,
    attempts,
    maxAttempts: retryLimit + 1,
    leaseSeconds: typeof data.leaseSeconds === "number" ? data.leaseSeconds : 0,
    createdAt: iso(row.created_on),
    leaseRenewedAt: displayState === "active" ? iso(row.started_on) : "",
    nextAttemptAt: displayState === "retrying" ? iso(row.start_after) : "",
    error: displayState === "retrying" || dead ? (leaseExpired ? "the lease ran out" : message) : "",
    leaseExpired: (displayState === "retrying" || dead) && leaseExpired,
  };
}

const JOB_COLUMNS = "id, name, state, data, output, retry_count, retry_limit, start_after, started_on, created_on";

/**
 * The run queue's jobs that are not done (queued, active, retrying) and the dead-lettered jobs
 * waiting for an operator, oldest first; `runId` narrows to one run, `only` to one of the two.
 */
export async function queueJobs(
  db: Queryable,
  options: { schema?: string; runId?: number; only?: "pending" | "dead-lettered" } = {},
): Promise<QueueJob[]> {
  const schema = checkSchemaName(options.schema ?? "pgboss");
  const result = await db.query(
    `SELECT ${JOB_COLUMNS} FROM ${schema}.job
     WHERE ((name = $1 AND state IN ('created', 'retry', 'active') AND $4::boolean)
         OR (name = $2 AND state = 'created' AND $5::boolean))
       AND ($3::text IS NULL OR data->>'runId' = $3::text)
     ORDER BY created_on, id`,
    [
      RUN_QUEUE,
      DEAD_RUN_QUEUE,
      options.runId === undefined ? null : String(options.runId),
      options.only !== "dead-lettered",
      options.only !== "pending",
    ],
  );
  return result.rows.map(jobFromRow);
}
