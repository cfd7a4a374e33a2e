/**
 * Read-only checks of a store database for `assay health`: whether its tables and upgraded
 * columns are all there (without creating or upgrading anything, unlike opening the store),
 * how many runs it holds by status, and its running runs.
 */
import type { Database } from "better-sqlite3";
import type pg from "pg";
import type { RunRecord } from "../../ports/store.js";
import { COLUMN_UPGRADES } from "./column-upgrades.js";
import { tableColumns as postgresColumns, readSchema as readPostgresSchema } from "./postgres/postgres-migrations.js";
import { readSchema as readSqliteSchema, tableColumns as sqliteColumns } from "./sqlite/sqlite-migrations.js";
import { type Row, runFromRow } from "./store-rows.js";

export interface SchemaState {
  /** Tables schema.sql creates. */
  expectedTables: number;
  /** Tables of schema.sql the database lacks. */
  missingTables: string[];
  /** Upgraded columns (`table.column`) the database lacks: an older assay made it. */
  missingColumns: string[];
}

/** The tables a schema.sql creates, in order. */
export function schemaTables(schema: string): string[] {
  return [...schema.matchAll(/CREATE TABLE IF NOT EXISTS (\w+)/g)].map((match) => match[1] ?? "");
}

function state(expected: string[], present: Set<string>, columns: (table: string) => Set<string>): SchemaState {
  const missingTables = expected.filter((table) => !present.has(table));
  const missingColumns = COLUMN_UPGRADES.filter(
    (upgrade) => present.has(upgrade.table) && !columns(upgrade.table).has(upgrade.column),
  ).map((upgrade) => `${upgrade.table}.${upgrade.column}`);
  return { expectedTables: expected.length, missingTables, missingColumns };
}

export function sqliteSchemaState(db: Database): SchemaState {
  const rows = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
  return state(schemaTables(readSqliteSchema()), new Set(rows.map((row) => row.name)), (table) =>
    sqliteColumns(db, table),
  );
}

export async function postgresSchemaState(client: pg.ClientBase): Promise<SchemaState> {
  const rows = await client.query<{ name: string }>(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()",
  );
  const present = new Set(rows.rows.map((row) => row.name));
  const columns = new Map<string, Set<string>>();
  for (const upgrade of COLUMN_UPGRADES)
    if (present.has(upgrade.table) && !columns.has(upgrade.table))
      columns.set(upgrade.table, await postgresColumns(client, upgrade.table));
  return state(schemaTables(readPostgresSchema()), present, (table) => columns.get(table) ?? new Set());
}

/** Runs by status (`running`, `finished`, `failed`). */
export type RunCounts = Record<string, number>;

const COUNTS = "SELECT status, count(*) AS count FROM runs GROUP BY status";
const RUNNING = "SELECT * FROM runs WHERE status = 'running' ORDER BY id";

const counts = (rows: Row[]): RunCounts =>
  Object.fromEntries(rows.map((row) => [String(row.status), Number(row.count)]));

export function sqliteRuns(db: Database): { counts: RunCounts; running: RunRecord[] } {
  return {
    counts: counts(db.prepare(COUNTS).all() as Row[]),
    running: (db.prepare(RUNNING).all() as Row[]).map((row) => runFromRow(row)),
  };
}

export async function postgresRuns(client: pg.ClientBase): Promise<{ counts: RunCounts; running: RunRecord[] }> {
  const [byStatus, running] = await Promise.all([client.query<Row>(COUNTS), client.query<Row>(RUNNING)]);
  return { counts: counts(byStatus.rows), running: running.rows.map((row) => runFromRow(row)) };
}
