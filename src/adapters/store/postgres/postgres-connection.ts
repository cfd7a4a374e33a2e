/**
 * The connection pool of the PostgreSQL store and its one transaction helper. Every query is
 * parameterized; identifiers are never built from input.
 */

import pg from "pg";
import { UserError } from "../../../core/errors.js";
import { checkFence, type StoreFence } from "../../../ports/store.js";
import { redactUrl } from "./postgres-url.js";

/** Throws a UserError naming what is wrong with `url` (without its password). */
export function checkPostgresUrl(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UserError("the database URL is not a valid URL (expected postgres://user:password@host:port/database)");
  }
  if (!/^postgres(ql)?:$/i.test(parsed.protocol)) {
    throw new UserError(`the database URL ${redactUrl(url)} is not a postgres:// or postgresql:// URL`);
  }
  if (!parsed.hostname && !parsed.searchParams.has("host")) {
    throw new UserError(`the database URL ${redactUrl(url)} names no host`);
  }
}

/** BIGINT (int8) and COUNT(*) as JS numbers; the store's ids and counters stay below 2^53. */
function parseInt8(value: string): number {
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed)) throw new RangeError(`${value} does not fit a JavaScript number`);
  return parsed;
}

const INT8_OID = 20;

const types = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === INT8_OID && format !== "binary"
      ? parseInt8
      : pg.types.getTypeParser(oid, format ?? "text")) as typeof pg.types.getTypeParser,
};

export interface PoolOptions {
  url: string;
  /** Most connections the pool opens (default 10). */
  maxConnections?: number;
  /** How long to wait for a connection before failing (default 10 s). */
  connectTimeoutMs?: number;
}

export function createPool(options: PoolOptions): pg.Pool {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
    idleTimeoutMillis: 30_000,
    application_name: "assay",
    types,
  });
  // An idle connection the server dropped: the pool discards it and opens another on demand;
  // without a listener the event would crash the process.
  pool.on("error", () => {});
  return pool;
}

export type Isolation = "read committed" | "repeatable read";

/**
 * Runs `work` in one transaction on one pooled connection: COMMIT when it resolves, ROLLBACK
 * when it throws (and rethrows). A connection whose ROLLBACK failed is discarded, not reused.
 */
export async function inTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
  options: { isolation?: Isolation; readOnly?: boolean } = {},
): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  const mode = `ISOLATION LEVEL ${options.isolation === "repeatable read" ? "REPEATABLE READ" : "READ COMMITTED"}`;
  try {
    // A write commits durably before the store resolves, whatever the server's default is
    // (SET LOCAL rather than a startup option, which poolers such as PgBouncer refuse).
    await client.query(
      options.readOnly ? `BEGIN ${mode} READ ONLY` : `BEGIN ${mode}; SET LOCAL synchronous_commit = on`,
    );
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    try {
      await client.query("ROLLBACK");
    } catch (rollback) {
      broken = rollback instanceof Error ? rollback : new Error(String(rollback));
    }
    throw error;
  } finally {
    client.release(broken);
  }
}

/**
 * Takes the run's row lock for the rest of the transaction: writers of one run's counters
 * (event seq, `sq_`, `s_`, `q_`/`c_`/`ch_` ids) queue here, as they do behind SQLite's
 * BEGIN IMMEDIATE. NO KEY UPDATE does not block inserts that only reference the run.
 */
export async function lockRun(client: pg.PoolClient, runId: number, fence?: StoreFence): Promise<void> {
  const result = await client.query<{ lease_holder: string; lease_epoch: number }>(
    "SELECT lease_holder, lease_epoch FROM runs WHERE id = $1 FOR NO KEY UPDATE",
    [runId],
  );
  // Under the row lock: taking the lease updates this row, so it waits for a fenced write in
  // flight to commit, and every later write sees the new epoch.
  checkFence(fence, runId, result.rows[0]);
}
