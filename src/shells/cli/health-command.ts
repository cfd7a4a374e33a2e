/**
 * `assay health`: whether a store (and, with PostgreSQL, the job queue) is usable, read-only.
 * It opens the database without creating or upgrading anything, checks the store's tables and
 * columns, and with PostgreSQL pg-boss's schema and queues, the jobs by state, the workers
 * connected now (their `application_name`) and the runs' worker heartbeats. Exit 0 when no
 * check failed (warnings included), 1 otherwise.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import BetterSqlite3, { type Database } from "better-sqlite3";
import pg from "pg";
import {
  describeDepth,
  PG_BOSS_SCHEMA_VERSION,
  type Queryable,
  type QueueDepth,
  queueDepth,
  queueJobs,
  queueSchemaState,
} from "../../adapters/queue/pg-boss/pg-boss-inspect.js";
import { checkPostgresUrl } from "../../adapters/store/postgres/postgres-connection.js";
import { isPostgresUrl, redactUrl } from "../../adapters/store/postgres/postgres-url.js";
import {
  postgresRuns,
  postgresSchemaState,
  type RunCounts,
  type SchemaState,
  sqliteRuns,
  sqliteSchemaState,
} from "../../adapters/store/store-inspect.js";
import { describeError } from "../../core/errors.js";
import { isQueued, type RunRecord } from "../../ports/store.js";
import { STALE_HEARTBEAT_MS } from "../../runtime/run-worker.js";
import { EXIT } from "./exit-codes.js";
import type { DataPaths } from "./paths.js";
import { displayStatus, heartbeatAgeMs } from "./run-state.js";

export type CheckStatus = "ok" | "warn" | "fail";

export interface HealthCheck {
  name: string;
  status: CheckStatus;
  detail: string;
  /** What to do about a warning or a failure. */
  fix?: string;
}

/** A worker that wrote a run's heartbeat within `STALE_HEARTBEAT_MS`. */
export interface WorkerSeen {
  worker: string;
  runs: number[];
  lastHeartbeatAt: string;
}

export interface HealthReport {
  healthy: boolean;
  backend: "sqlite" | "postgres";
  /** The file, or the URL without its password. */
  database: string;
  checks: HealthCheck[];
  /** Runs by shown status; null when the store could not be read. */
  runs: { running: number; queued: number; interrupted: number; finished: number; failed: number } | null;
  /** PostgreSQL only: the queue's jobs by state; null when it could not be read. */
  queue: QueueDepth | null;
  /** PostgreSQL only: workers connected now, and workers whose heartbeats are fresh. */
  workers: { connected: string[]; heartbeating: WorkerSeen[] } | null;
}

/** How long `assay health` waits for the server before it calls it unreachable. */
const CONNECT_TIMEOUT_MS = 5000;
/** The prefix of a worker's connection `application_name` (see openPgBossQueue). */
const WORKER_APPLICATION = "assay-worker ";

function schemaCheck(schema: SchemaState, upgradeHint: string): HealthCheck {
  if (schema.missingTables.length === schema.expectedTables)
    return {
      name: "schema",
      status: "fail",
      detail: "the store's tables are missing: assay has never used this database",
      fix: `give the right --db, or create the tables: ${upgradeHint}`,
    };
  if (schema.missingTables.length > 0 || schema.missingColumns.length > 0)
    return {
      name: "schema",
      status: "fail",
      detail: `the store's schema is not current: missing ${[...schema.missingTables.map((table) => `table ${table}`), ...schema.missingColumns.map((column) => `column ${column}`)].join(", ")} (an older assay created it)`,
      fix: `upgrade it in place: ${upgradeHint}`,
    };
  return {
    name: "schema",
    status: "ok",
    detail: `the store's ${schema.expectedTables} tables are present and current`,
  };
}

function runSummary(counts: RunCounts, running: RunRecord[], nowMs: number): NonNullable<HealthReport["runs"]> {
  const shown = running.map((run) => displayStatus(run, nowMs));
  return {
    running: shown.filter((status) => status === "running").length,
    queued: shown.filter((status) => status === "queued").length,
    interrupted: shown.filter((status) => status === "interrupted").length,
    finished: counts.finished ?? 0,
    failed: counts.failed ?? 0,
  };
}

const describeRuns = (runs: NonNullable<HealthReport["runs"]>): string =>
  `${runs.running} running, ${runs.queued} queued, ${runs.interrupted} interrupted, ${runs.finished} finished, ${runs.failed} failed`;

const ids = (runs: readonly RunRecord[]): string =>
  runs.length === 1 ? `run ${runs[0]?.id}` : `runs ${runs.map((run) => run.id).join(", ")}`;

async function sqliteHealth(file: string): Promise<HealthReport> {
  const report: HealthReport = {
    healthy: false,
    backend: "sqlite",
    database: file,
    checks: [],
    runs: null,
    queue: null,
    workers: null,
  };
  if (!existsSync(file)) {
    report.checks.push({
      name: "database",
      status: "fail",
      detail: `there is no database at ${file}`,
      fix: "give the right --db (the default is $ASSAY_HOME/assay.db); the first `assay run` creates it",
    });
    return report;
  }
  let db: Database;
  try {
    db = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
    db.pragma("busy_timeout = 5000");
  } catch (error) {
    report.checks.push({
      name: "database",
      status: "fail",
      detail: `cannot open ${file}: ${describeError(error)}`,
      fix: "check the file and its folder are readable by this user, and that it is a SQLite database",
    });
    return report;
  }
  try {
    report.checks.push({ name: "database", status: "ok", detail: `opened ${file} (SQLite ${sqliteVersion(db)})` });
    const schema = sqliteSchemaState(db);
    report.checks.push(schemaCheck(schema, `run any assay command with --db ${file} (for example assay runs list)`));
    const journal = String(db.pragma("journal_mode", { simple: true }));
    report.checks.push(
      journal === "wal"
        ? { name: "journal", status: "ok", detail: "write-ahead log (WAL)" }
        : {
            name: "journal",
            status: "warn",
            detail: `journal mode is ${journal}, not wal`,
            fix: "open it once with assay (it sets WAL), or `sqlite3 FILE 'PRAGMA journal_mode=WAL'`",
          },
    );
    if (schema.missingTables.length === 0 && schema.missingColumns.length === 0) {
      const nowMs = Date.now();
      const { counts, running } = sqliteRuns(db);
      report.runs = runSummary(counts, running, nowMs);
      const interrupted = running.filter((run) => displayStatus(run, nowMs) === "interrupted");
      report.checks.push(
        interrupted.length === 0
          ? { name: "runs", status: "ok", detail: describeRuns(report.runs) }
          : {
              name: "runs",
              status: "warn",
              detail: `${describeRuns(report.runs)}; ${ids(interrupted)} ${interrupted.length === 1 ? "was" : "were"} interrupted (the process is gone)`,
              fix: `continue ${interrupted.length === 1 ? "it" : "each"} with assay resume <run> --db ${file}`,
            },
      );
    }
  } catch (error) {
    report.checks.push({ name: "database", status: "fail", detail: `reading ${file} failed: ${describeError(error)}` });
  } finally {
    db.close();
  }
  return finish(report);
}

function sqliteVersion(db: Database): string {
  return String(db.prepare("SELECT sqlite_version() AS version").pluck().get());
}

async function postgresHealth(url: string): Promise<HealthReport> {
  checkPostgresUrl(url);
  const shown = redactUrl(url);
  let password = "";
  try {
    password = decodeURIComponent(new URL(url).password);
  } catch {}
  // Error texts never carry the password, whatever a driver put in them.
  const scrub = (text: string): string => (password ? text.split(password).join("***") : text);
  const report: HealthReport = {
    healthy: false,
    backend: "postgres",
    database: shown,
    checks: [],
    runs: null,
    queue: null,
    workers: null,
  };
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    query_timeout: 15_000,
    application_name: "assay-health",
  });
  client.on("error", () => {});
  try {
    await client.connect();
  } catch (error) {
    report.checks.push({
      name: "database",
      status: "fail",
      detail: `cannot connect to ${shown}: ${scrub(describeError(error))}`,
      fix: "check that the server is running and reachable from this machine, and the URL's host, port, database, user and password",
    });
    await client.end().catch(() => {});
    return report;
  }
  const db: Queryable = { query: (text, values) => client.query(text, values) };
  try {
    const version = await client.query<{ version: string }>("SELECT current_setting('server_version') AS version");
    report.checks.push({
      name: "database",
      status: "ok",
      detail: `connected to ${shown} (PostgreSQL ${version.rows[0]?.version ?? "?"})`,
    });
    const schema = await postgresSchemaState(client);
    const current = schema.missingTables.length === 0 && schema.missingColumns.length === 0;
    report.checks.push(
      schemaCheck(schema, `start assay worker --db ${shown}, or run any assay command with it (assay runs list)`),
    );

    const queue = await queueSchemaState(db);
    const queueReady = queueCheck(report, queue, shown);
    const nowMs = Date.now();
    const running = current ? await postgresRuns(client) : undefined;
    if (running) report.runs = runSummary(running.counts, running.running, nowMs);

    if (queueReady) {
      const depth = await queueDepth(db);
      report.queue = depth;
      report.checks.push(
        depth.deadLettered === 0
          ? { name: "jobs", status: "ok", detail: describeDepth(depth) }
          : {
              name: "jobs",
              status: "warn",
              detail: `${describeDepth(depth)}: ${depth.deadLettered} run${depth.deadLettered === 1 ? " was" : "s were"} given up after the last attempt`,
              fix: `see them with assay queue list --db ${shown}; then assay queue retry <run> or assay queue purge-dead`,
            },
      );
    }

    const connected = await client.query<{ name: string }>(
      `SELECT DISTINCT application_name AS name FROM pg_stat_activity
       WHERE datname = current_database() AND starts_with(application_name, $1) ORDER BY 1`,
      [WORKER_APPLICATION],
    );
    const heartbeating = running ? workersSeen(running.running, nowMs) : [];
    report.workers = {
      connected: connected.rows.map((row) => row.name.slice(WORKER_APPLICATION.length)),
      heartbeating,
    };
    report.checks.push(workersCheck(report.workers, report.queue, shown));

    if (running && report.runs) await runsCheck(report, running.running, queueReady ? db : undefined, nowMs, shown);
  } catch (error) {
    report.checks.push({
      name: "database",
      status: "fail",
      detail: `reading ${shown} failed: ${scrub(describeError(error))}`,
    });
  } finally {
    await client.end().catch(() => {});
  }
  return finish(report);
}

/** Adds the queue's check; true when its schema and queues are usable. */
function queueCheck(report: HealthReport, queue: Awaited<ReturnType<typeof queueSchemaState>>, shown: string): boolean {
  const start = `start assay worker --db ${shown} (it creates and upgrades the queue's schema)`;
  if (!queue.installed) {
    report.checks.push({
      name: "queue",
      status: "fail",
      detail:
        'the job queue is not set up: there is no pg-boss schema "pgboss" (no assay worker or assay run --queue has used this database)',
      fix: start,
    });
    return false;
  }
  if (queue.version !== PG_BOSS_SCHEMA_VERSION) {
    const newer = queue.version !== null && queue.version > PG_BOSS_SCHEMA_VERSION;
    report.checks.push({
      name: "queue",
      status: "fail",
      detail: `pg-boss's schema is at version ${queue.version ?? "?"}; this assay uses version ${PG_BOSS_SCHEMA_VERSION}`,
      fix: newer ? "a newer assay upgraded it: upgrade assay on this machine too" : start,
    });
    return false;
  }
  if (queue.queues.length < 2) {
    report.checks.push({
      name: "queue",
      status: "fail",
      detail: "pg-boss's schema is there but the queues assay-runs and assay-runs-dead are not",
      fix: start,
    });
    return false;
  }
  report.checks.push({
    name: "queue",
    status: "ok",
    detail: `pg-boss schema "pgboss" (version ${queue.version}) with the queues assay-runs and assay-runs-dead`,
  });
  return true;
}

/** Workers by their runs' fresh heartbeats. */
function workersSeen(running: readonly RunRecord[], nowMs: number): WorkerSeen[] {
  const byWorker = new Map<string, WorkerSeen>();
  for (const run of running) {
    const age = heartbeatAgeMs(run, nowMs);
    if (isQueued(run) || age === undefined || age > STALE_HEARTBEAT_MS) continue;
    const seen = byWorker.get(run.worker) ?? { worker: run.worker, runs: [], lastHeartbeatAt: "" };
    seen.runs.push(run.id);
    if ((run.heartbeatAt ?? "") > seen.lastHeartbeatAt) seen.lastHeartbeatAt = run.heartbeatAt ?? "";
    byWorker.set(run.worker, seen);
  }
  return [...byWorker.values()];
}

function workersCheck(
  workers: NonNullable<HealthReport["workers"]>,
  depth: QueueDepth | null,
  shown: string,
): HealthCheck {
  const connected =
    workers.connected.length === 0
      ? "no worker connected"
      : `${workers.connected.length} connected (${workers.connected.join(", ")})`;
  const beating =
    workers.heartbeating.length === 0
      ? "no heartbeat in the last 2 minutes"
      : `heartbeats from ${workers.heartbeating.map((seen) => `${seen.worker} (${seen.runs.length === 1 ? "run" : "runs"} ${seen.runs.join(", ")})`).join(", ")}`;
  const waiting = (depth?.queued ?? 0) + (depth?.retrying ?? 0);
  if (waiting > 0 && workers.connected.length === 0 && workers.heartbeating.length === 0)
    return {
      name: "workers",
      status: "warn",
      detail: `${connected}, ${beating}, while ${waiting} job${waiting === 1 ? " waits" : "s wait"}`,
      fix: `start assay worker --db ${shown} on a machine that has the corpus folders and the model keys`,
    };
  return { name: "workers", status: "ok", detail: `${connected}; ${beating}` };
}

/** Interrupted runs that nothing will pick up: no pending job (or, without a queue, none at all). */
async function runsCheck(
  report: HealthReport,
  running: readonly RunRecord[],
  db: Queryable | undefined,
  nowMs: number,
  shown: string,
): Promise<void> {
  const summary = report.runs;
  if (!summary) return;
  const interrupted = running.filter((run) => displayStatus(run, nowMs) === "interrupted");
  const pending = new Set(db ? (await queueJobs(db, { only: "pending" })).map((job) => job.runId) : []);
  const orphans = interrupted.filter((run) => !pending.has(run.id));
  if (orphans.length === 0) {
    const waiting = interrupted.length > 0 ? `; the queue will retry ${ids(interrupted)}` : "";
    report.checks.push({ name: "runs", status: "ok", detail: `${describeRuns(summary)}${waiting}` });
    return;
  }
  report.checks.push({
    name: "runs",
    status: "warn",
    detail: `${describeRuns(summary)}; ${ids(orphans)}: interrupted, and no job of ${orphans.length === 1 ? "it" : "them"} is pending`,
    fix: `queue ${orphans.length === 1 ? "it" : "each"} again with assay queue retry <run> --db ${shown}`,
  });
}

function finish(report: HealthReport): HealthReport {
  report.healthy = report.checks.length > 0 && report.checks.every((check) => check.status !== "fail");
  return report;
}

/** Checks the database `--db` names (default: the SQLite file under $ASSAY_HOME). */
export function checkHealth(paths: DataPaths, db: string | undefined): Promise<HealthReport> {
  if (db && isPostgresUrl(db)) return postgresHealth(db);
  return sqliteHealth(db ? resolve(db) : paths.database);
}

const LABEL: Record<CheckStatus, string> = { ok: "ok  ", warn: "warn", fail: "FAIL" };

export function formatHealth(report: HealthReport): string {
  const width = Math.max(...report.checks.map((check) => check.name.length));
  const lines = [`assay health: ${report.database}`];
  for (const check of report.checks) {
    lines.push(`  ${LABEL[check.status]}  ${check.name.padEnd(width)}  ${check.detail}`);
    if (check.fix && check.status !== "ok") lines.push(`        ${" ".repeat(width)}  → ${check.fix}`);
  }
  const failed = report.checks.filter((check) => check.status === "fail").length;
  const warned = report.checks.filter((check) => check.status === "warn").length;
  lines.push(
    report.healthy
      ? `Healthy${warned > 0 ? ` (${warned} warning${warned === 1 ? "" : "s"})` : ""}.`
      : `Unhealthy: ${failed} check${failed === 1 ? "" : "s"} failed.`,
  );
  return `${lines.join("\n")}\n`;
}

export async function healthCommand(
  paths: DataPaths,
  options: { db?: string; json?: boolean },
  out: NodeJS.WritableStream,
): Promise<number> {
  const report = await checkHealth(paths, options.db);
  out.write(options.json ? `${JSON.stringify(report)}\n` : formatHealth(report));
  return report.healthy ? EXIT.ok : EXIT.failed;
}
