/**
 * Startup schema application for PostgreSQL (seed 000 "Migrations"): schema.sql creates what
 * is missing; each upgrade is an `ALTER TABLE … ADD COLUMN IF NOT EXISTS`; indexes on
 * upgraded columns are created afterwards. All of it runs in one transaction holding an
 * advisory lock, so two processes starting together apply it one after the other.
 */
import { readFileSync } from "node:fs";
import type pg from "pg";
import { describeError } from "../../../core/errors.js";
import { err, ok, type Result } from "../../../core/result.js";
import { COLUMN_UPGRADES, type ColumnUpgrade, POST_UPGRADE_INDEXES } from "../column-upgrades.js";

/** Key of the advisory lock that serializes schema application across processes ('assa'). */
export const MIGRATION_LOCK_KEY = 0x61737361;

export function readSchema(): string {
  return readFileSync(new URL("./schema.sql", import.meta.url), "utf8");
}

/** Column names of `table` in the current schema. */
export async function tableColumns(client: pg.ClientBase, table: string): Promise<Set<string>> {
  const result = await client.query<{ name: string }>(
    `SELECT column_name AS name FROM information_schema.columns
     WHERE table_schema = current_schema() AND table_name = $1`,
    [table],
  );
  return new Set(result.rows.map((row) => row.name));
}

/**
 * Applies schema.sql, then the upgrades, then post-upgrade indexes, in one transaction under
 * the advisory lock. Returns the columns it added. Never throws: a failure rolls everything
 * back and leaves the database as it was.
 */
export async function migrate(
  pool: pg.Pool,
  upgrades: readonly ColumnUpgrade[] = COLUMN_UPGRADES,
  schema: string = readSchema(),
): Promise<Result<string[]>> {
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    return err(describeError(error));
  }
  const added: string[] = [];
  let broken: Error | undefined;
  try {
    await client.query("BEGIN");
    await client.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK_KEY]);
    await client.query(schema);
    for (const upgrade of upgrades) {
      if (!/^[a-z_]+$/.test(upgrade.table) || !/^[a-z_]+$/.test(upgrade.column)) {
        throw new Error(`invalid upgrade name ${upgrade.table}.${upgrade.column}`);
      }
      // ALTER TABLE takes an exclusive lock even when it has nothing to do: skip present columns.
      if ((await tableColumns(client, upgrade.table)).has(upgrade.column)) continue;
      await client.query(
        `ALTER TABLE ${upgrade.table} ADD COLUMN IF NOT EXISTS ${upgrade.column} ${upgrade.definition}`,
      );
      added.push(`${upgrade.table}.${upgrade.column}`);
    }
    for (const statement of POST_UPGRADE_INDEXES) await client.query(statement);
    await client.query("COMMIT");
    return ok(added);
  } catch (error) {
    await client.query("ROLLBACK").catch((rollback: unknown) => {
      broken = rollback instanceof Error ? rollback : new Error(String(rollback));
    });
    return err(describeError(error));
  } finally {
    client.release(broken);
  }
}
