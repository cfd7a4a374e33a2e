/**
 * Prepared statements kept per connection: preparing is a parse and a plan of the SQL, which
 * a run's many small writes (one event each) would otherwise pay every time. Keyed by the SQL
 * text; the texts are the store's own, a bounded set.
 */
import type { Database, Statement } from "better-sqlite3";

const byConnection = new WeakMap<Database, Map<string, Statement>>();

/** `db.prepare(sql)`, prepared once per connection. */
export function prepared(db: Database, sql: string): Statement {
  let cache = byConnection.get(db);
  if (!cache) {
    cache = new Map();
    byConnection.set(db, cache);
  }
  let statement = cache.get(sql);
  if (!statement) {
    statement = db.prepare(sql);
    cache.set(sql, statement);
  }
  return statement;
}
