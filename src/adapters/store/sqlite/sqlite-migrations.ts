/**
 * Startup schema application for SQLite (seed 000 "Migrations"): schema.sql creates what
 * is missing; each upgrade adds a column only when pragma_table_info does not list it;
 * indexes on upgraded columns are created afterwards.
 */
import { readFileSync } from "node:fs";
import type { Database } from "better-sqlite3";
import { describeError } from "../../../core/errors.js";
import { err, ok, type Result } from "../../../core/result.js";
import { COLUMN_UPGRADES, type ColumnUpgrade, POST_UPGRADE_INDEXES } from "../column-upgrades.js";

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
  upgrades: readonly ColumnUpgrade[] = COLUMN_UPGRADES,
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
      for (const statement of POST_UPGRADE_INDEXES) db.exec(statement);
    })();
  } catch (error) {
    return err(describeError(error));
  }
  return ok(added);
}
