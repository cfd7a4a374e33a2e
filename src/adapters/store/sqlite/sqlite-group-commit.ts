/**
 * Group commit: the small writes a run makes many of (an event, a source, a search call, a
 * status patch, its lease taken, renewed and released, the run's own row) are queued and
 * committed together at the end of the event-loop turn, one transaction and one fsync for
 * every write issued in that turn, by any run sharing the connection. Each write still runs in its own savepoint, so one that fails (a lost lease, a
 * constraint) is rolled back alone and rejects alone; and each promise resolves only after
 * the shared COMMIT, so "committed before it resolves" holds as for a write of its own. When
 * the COMMIT itself fails (a full disk), every write in the group rejects and none is kept.
 */
import { setImmediate } from "node:timers";
import type { Database } from "better-sqlite3";
import { prepared } from "./sqlite-statements.js";

interface Pending {
  work: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

const queues = new WeakMap<Database, Pending[]>();

/** Runs `work` inside the connection's next group transaction; resolves once that has committed. */
export function groupCommitted<T>(db: Database, work: () => T): Promise<T> {
  let queue = queues.get(db);
  if (!queue) {
    queue = [];
    queues.set(db, queue);
    setImmediate(() => flushGroup(db));
  }
  const pending = queue;
  return new Promise<T>((resolve, reject) => {
    pending.push({ work, resolve: resolve as (value: unknown) => void, reject });
  });
}

/** Commits what is queued on the connection now (also before it closes). */
export function flushGroup(db: Database): void {
  const queue = queues.get(db);
  queues.delete(db);
  if (!queue || queue.length === 0) return;
  if (!db.open) {
    for (const entry of queue) entry.reject(new Error("the database was closed before the write committed"));
    return;
  }
  const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
  // One savepoint per write, by prepared statements: a transaction function per write
  // (db.transaction(work)) builds four wrappers each time, a tenth of a busy group's cost.
  const begin = prepared(db, "SAVEPOINT group_write");
  const release = prepared(db, "RELEASE group_write");
  const undo = prepared(db, "ROLLBACK TO group_write");
  try {
    db.transaction(() => {
      for (const entry of queue) {
        begin.run();
        try {
          const value = entry.work();
          release.run();
          outcomes.push({ ok: true, value });
        } catch (error) {
          // SQLite may have ended the whole transaction (a full disk): then the group fails.
          if (!db.inTransaction) throw error;
          undo.run();
          release.run();
          outcomes.push({ ok: false, error });
        }
      }
    }).immediate();
  } catch (error) {
    for (const entry of queue) entry.reject(error);
    return;
  }
  queue.forEach((entry, index) => {
    const outcome = outcomes[index];
    if (outcome?.ok) entry.resolve(outcome.value);
    else entry.reject(outcome?.error);
  });
}
