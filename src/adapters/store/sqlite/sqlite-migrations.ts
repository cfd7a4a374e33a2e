/**
 * Startup schema application for SQLite (seed 000 "Migrations"): schema.sql creates what
 * is missing; each upgrade adds a column only when pragma_table_info does not list it;
 * indexes on upgraded columns are created afterwards.
 */
import { readFileSync } from "node:fs";
import type { Database } from "better-sqlite3";
import { describeError } from "../../../core/errors.js";
import { err, ok, type Result } from "../../../core/result.js";

export interface ColumnUpgrade {
  table: string;
  column: string;
  /** Column definition as in `ALTER TABLE t ADD COLUMN <column> <definition>`. */
  definition: string;
}

/**
 * Columns added to tables after they first shipped. Each is also in schema.sql, so a new
 * database has it already and the upgrade is skipped.
 */
export const SQLITE_UPGRADES: readonly ColumnUpgrade[] = [
  { table: "runs", column: "worker", definition: "TEXT NOT NULL DEFAULT ''" },
  { table: "runs", column: "finished_at", definition: "TEXT NOT NULL DEFAULT ''" },
  { table: "sources", column: "content_type", definition: "TEXT NOT NULL DEFAULT ''" },
  { table: "runs", column: "model", definition: "TEXT NOT NULL DEFAULT 'none'" },
  { table: "runs", column: "notes_id", definition: "TEXT NOT NULL DEFAULT ''" },
  {
    table: "runs",
    column: "phase",
    definition: "TEXT NOT NULL DEFAULT '' CHECK (phase IN ('', 'exploration', 'synthesis'))",
  },
  { table: "runs", column: "stop_reason", definition: "TEXT NOT NULL DEFAULT ''" },
  { table: "runs", column: "user_id", definition: "TEXT NOT NULL DEFAULT 'local'" },
  { table: "sources", column: "note", definition: "TEXT NOT NULL DEFAULT ''" },
  { table: "runs", column: "options", definition: "TEXT NOT NULL DEFAULT '{}'" },
  { table: "inv_claim_sources", column: "chunk_ids", definition: "TEXT NOT NULL DEFAULT '[]'" },
];

/** Indexes on upgraded columns, created after the upgrades. */
export const SQLITE_POST_UPGRADE = ["CREATE INDEX IF NOT EXISTS idx_runs_worker ON runs(worker) WHERE worker <> ''"];

export function readSchema(): string {
  return readFileSync(new URL("./schema.sql", import.meta.url), "utf8");
}

/** Column names of `table`. */
export function tableColumns(db: Database, table: string): Set<string> {
  const rows = db.prepare("SELECT name FROM pragma_table_info(?)").all(table) as { name: string }[];
  return new Set(rows.map((row) => row.name));
}

/**
 * Applies schema.sql, then the upgrades, then post-upgrade indexes, in one transaction.
 * Returns the columns it added. Never throws: a failure leaves the database as it was.
 */
export function migrate(
  db: Database,
  upgrades: readonly ColumnUpgrade[] = SQLITE_UPGRADES,
  schema: string = readSchema(),
): Result<string[]> {
  const added: string[] = [];
  try {
    db.transaction(() => {
      db.exec(schema);
      for (const upgrade of upgrades) {
        if (!/^[a-z_]+$/.test(upgrade.table) || !/^[a-z_]+$/.test(upgrade.column)) {
          throw new Error(`invalid upgrade name ${upgrade.table}.${upgrade.column}`);
        }
        if (tableColumns(db, upgrade.table).has(upgrade.column)) continue;
        db.exec(`ALTER TABLE ${upgrade.table} ADD COLUMN ${upgrade.column} ${upgrade.definition}`);
        added.push(`${upgrade.table}.${upgrade.column}`);
      }
      for (const statement of SQLITE_POST_UPGRADE) db.exec(statement);
    })();
  } catch (error) {
    return err(describeError(error));
  }
  return ok(added);
}
