/**
 * The shared store: PostgreSQL through a node-postgres pool. The same tables as SQLite
 * (schema.sql), the same returned values (rows are read by ../store-rows.ts), the same
 * guarantees: every write commits before it resolves, and the per-run counters are taken
 * under the run's row lock inside the writing transaction.
 */
import type pg from "pg";
import { describeError, StoreError, UserError } from "../../../core/errors.js";
import { queryId } from "../../../core/ids.js";
import type { Mutation } from "../../../core/investigative/types.js";
import { type GenerationUsage, usageOf } from "../../../core/usage.js";
import type { InvestigationStore, NotesVersion, StoredInvestigation } from "../../../ports/investigation-store.js";
import type {
  ApiTokenRecord,
  Diagnostic,
  LeaseAttempt,
  LeaseLostError,
  LibraryDocument,
  LibraryEntry,
  NewApiToken,
  NewDiagnostic,
  NewEvent,
  NewSearchCall,
  NewSource,
  NewWebSession,
  PersistResult,
  RunEvent,
  RunLease,
  RunPatch,
  RunRecord,
  RunRequest,
  RunStatus,
  SearchCallRecord,
  SourceRecord,
  Store,
  StoreFence,
  WebSessionRecord,
} from "../../../ports/store.js";
import { PostgresArtifactStore } from "../../artifacts/postgres/postgres-artifact-store.js";
import {
  apiTokenFromRow,
  CHUNK_COPY_SQL,
  diagnosticFromRow,
  dollarParameters,
  eventFromRow,
  LIBRARY_LIST_SQL,
  libraryDocumentFromRow,
  libraryEntryFromRow,
  num,
  parentProblem,
  parseJson,
  type Row,
  runFromRow,
  runInsertSql,
  runInsertValues,
  SOURCE_COPY_SQL,
  searchCallFromRow,
  text,
  webSessionFromRow,
} from "../store-rows.js";
import { checkPostgresUrl, createPool, inTransaction, lockRun } from "./postgres-connection.js";
import { applyMutation } from "./postgres-investigation.js";
import { listNotesVersions, loadInvestigation } from "./postgres-investigation-read.js";
import { migrate } from "./postgres-migrations.js";
import { persistSource, readSources } from "./postgres-sources.js";
import { redactUrl } from "./postgres-url.js";

export interface PostgresStoreOptions {
  /** `postgres://user:password@host:port/database` (or `postgresql://`). */
  url: string;
  /** Most pooled connections (default 10). */
  maxConnections?: number;
  /** How long to wait for a connection (default 10 s). */
  connectTimeoutMs?: number;
  /** Wall clock for created_at columns. */
  now?: () => Date;
}

/**
 * Connects, then creates and upgrades the schema. Throws UserError naming the URL (without
 * its password) when the URL is invalid, the server unreachable or the schema not applicable.
 */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<PostgresStore> {
  checkPostgresUrl(options.url);
  const pool = createPool({
    url: options.url,
    ...(options.maxConnections === undefined ? {} : { maxConnections: options.maxConnections }),
    ...(options.connectTimeoutMs === undefined ? {} : { connectTimeoutMs: options.connectTimeoutMs }),
  });
  const migrated = await migrate(pool);
  if (!migrated.ok) {
    await pool.end().catch(() => {});
    throw new UserError(`cannot open the database ${redactUrl(options.url)}: ${migrated.error}`);
  }
  return new PostgresStore(pool, options.now ?? (() => new Date()));
}

const RUN_COLUMNS: Record<keyof RunPatch, string> = {
  status: "status",
  outDir: "out_dir",
  artifactStatus: "artifact_status",
  error: "error",
  worker: "worker",
  originAt: "origin_at",
  finishedAt: "finished_at",
  notesId: "notes_id",
  phase: "phase",
  stopReason: "stop_reason",
  heartbeatAt: "heartbeat_at",
  cancelRequestedAt: "cancel_requested_at",
};

const INSERT_RUN = `${runInsertSql((position) => `$${position}`)} RETURNING *`;
const SOURCE_COPY = dollarParameters(SOURCE_COPY_SQL);
const CHUNK_COPY = dollarParameters(CHUNK_COPY_SQL);
const LIBRARY_LIST = dollarParameters(LIBRARY_LIST_SQL);

export class PostgresStore implements Store, InvestigationStore {
  readonly backend = "postgres";
  readonly pool: pg.Pool;
  readonly artifacts: PostgresArtifactStore;
  readonly #now: () => Date;
  readonly #fence: StoreFence | undefined;
  #closed = false;

  constructor(pool: pg.Pool, now: () => Date, fence?: StoreFence) {
    this.pool = pool;
    this.artifacts = new PostgresArtifactStore({ pool });
    this.#now = now;
    this.#fence = fence;
  }

  fenced(lease: RunLease, onLost?: (error: LeaseLostError) => void): this {
    return new PostgresStore(this.pool, this.#now, { lease, onLost }) as this;
  }

  async acquireLease(
    runId: number,
    claim: { holder: string; now: string; expiresAt: string; replacing?: string },
  ): Promise<LeaseAttempt> {
    // One statement: the compare-and-set. A fenced write in flight holds the row; this waits for it.
    const taken = await this.#write(`taking the lease of run ${runId}`, (client) =>
      client.query<{ lease_epoch: number }>(
        `UPDATE runs SET lease_holder = $2, lease_epoch = lease_epoch + 1, lease_expires_at = $3, heartbeat_at = $4,
           updated_at = $5
         WHERE id = $1 AND status = 'running' AND (lease_holder = '' OR lease_expires_at <= $4 OR lease_holder = $6)
         RETURNING lease_epoch`,
        [runId, claim.holder, claim.expiresAt, claim.now, this.#iso(), claim.replacing ?? ""],
      ),
    );
    const epoch = taken.rows[0]?.lease_epoch;
    if (epoch !== undefined)
      return { ok: true, lease: { runId, holder: claim.holder, epoch: Number(epoch), expiresAt: claim.expiresAt } };
    const [row] = await this.#rows("SELECT status, lease_holder, lease_expires_at FROM runs WHERE id = $1", [runId]);
    if (!row) return { ok: false, holder: "", expiresAt: "", status: "missing" };
    return {
      ok: false,
      holder: text(row, "lease_holder"),
      expiresAt: text(row, "lease_expires_at"),
      status: text(row, "status") as RunStatus,
    };
  }

  async renewLease(lease: RunLease, renewal: { now: string; expiresAt: string }): Promise<RunLease | undefined> {
    const result = await this.pool.query(
      `UPDATE runs SET lease_expires_at = $1, heartbeat_at = $2
       WHERE id = $3 AND lease_holder = $4 AND lease_epoch = $5 AND lease_holder <> ''`,
      [renewal.expiresAt, renewal.now, lease.runId, lease.holder, lease.epoch],
    );
    return result.rowCount === 1 ? { ...lease, expiresAt: renewal.expiresAt } : undefined;
  }

  async releaseLease(lease: RunLease): Promise<void> {
    await this.pool.query(
      "UPDATE runs SET lease_holder = '', lease_expires_at = '' WHERE id = $1 AND lease_holder = $2 AND lease_epoch = $3",
      [lease.runId, lease.holder, lease.epoch],
    );
  }

  #iso(): string {
    return this.#now().toISOString();
  }

  /** Runs one write in its own transaction; failures become StoreError. */
  async #write<T>(what: string, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    try {
      return await inTransaction(this.pool, work);
    } catch (error) {
      if (error instanceof StoreError) throw error;
      throw new StoreError(`${what} failed: ${describeError(error)}`, { cause: error });
    }
  }

  async #rows(sql: string, values: unknown[]): Promise<Row[]> {
    return (await this.pool.query<Row>(sql, values)).rows;
  }

  async createRun(
    request: RunRequest,
    options: { originAt: string; worker: string; userId?: string },
  ): Promise<RunRecord> {
    const now = this.#iso();
    const row = await this.#write("creating a run", async (client) => {
      const parentId = request.lineage?.parentId;
      if (parentId !== undefined) {
        // Locked: the parent's catalog cannot change while it is copied.
        const parent = await client.query<Row>("SELECT user_id FROM runs WHERE id = $1 FOR SHARE", [parentId]);
        const problem = parentProblem(parentId, parent.rows[0], options.userId);
        if (problem) throw new StoreError(problem);
      }
      const result = await client.query<Row>(INSERT_RUN, runInsertValues(request, options, now));
      const created = result.rows[0];
      if (parentId !== undefined && created) {
        await client.query(SOURCE_COPY, [created.id, parentId]);
        await client.query(CHUNK_COPY, [created.id, parentId]);
      }
      return created;
    });
    if (!row) throw new StoreError("the run just created cannot be read back");
    return runFromRow(row);
  }

  async getRun(runId: number): Promise<RunRecord | undefined> {
    const [row] = await this.#rows("SELECT * FROM runs WHERE id = $1", [runId]);
    return row ? runFromRow(row) : undefined;
  }

  async listRuns(options: { limit?: number; userId?: string } = {}): Promise<RunRecord[]> {
    const rows =
      options.userId === undefined
        ? await this.#rows("SELECT * FROM runs ORDER BY id DESC LIMIT $1", [options.limit ?? 50])
        : await this.#rows("SELECT * FROM runs WHERE user_id = $1 ORDER BY id DESC LIMIT $2", [
            options.userId,
            options.limit ?? 50,
          ]);
    return rows.map(runFromRow);
  }

  async createApiToken(token: NewApiToken): Promise<ApiTokenRecord> {
    const [row] = await this.#write("recording the API token", async (client) => {
      const result = await client.query<Row>(
        "INSERT INTO api_tokens (user_id, name, token_sha256, created_at) VALUES ($1, $2, $3, $4) RETURNING *",
        [token.userId, token.name, token.hash, token.createdAt],
      );
      return result.rows;
    });
    if (!row) throw new StoreError("the API token just created cannot be read back");
    return apiTokenFromRow(row);
  }

  async findApiToken(hash: string): Promise<ApiTokenRecord | undefined> {
    const [row] = await this.#rows("SELECT * FROM api_tokens WHERE token_sha256 = $1", [hash]);
    return row ? apiTokenFromRow(row) : undefined;
  }

  async listApiTokens(options: { userId?: string } = {}): Promise<ApiTokenRecord[]> {
    const rows =
      options.userId === undefined
        ? await this.#rows("SELECT * FROM api_tokens ORDER BY id DESC", [])
        : await this.#rows("SELECT * FROM api_tokens WHERE user_id = $1 ORDER BY id DESC", [options.userId]);
    return rows.map(apiTokenFromRow);
  }

  async revokeApiToken(id: number, at: string): Promise<boolean> {
    return this.#write(`revoking API token ${id}`, async (client) => {
      const result = await client.query("UPDATE api_tokens SET revoked_at = $1 WHERE id = $2 AND revoked_at = ''", [
        at,
        id,
      ]);
      await client.query("DELETE FROM web_sessions WHERE token_id = $1", [id]);
      return (result.rowCount ?? 0) > 0;
    });
  }

  async touchApiToken(id: number, at: string): Promise<void> {
    await this.pool.query("UPDATE api_tokens SET last_used_at = $1 WHERE id = $2", [at, id]);
  }

  async createWebSession(session: NewWebSession): Promise<WebSessionRecord> {
    const [row] = await this.#write("recording the web session", async (client) => {
      const result = await client.query<Row>(
        `INSERT INTO web_sessions (session_sha256, user_id, token_id, created_at, expires_at, idle_timeout_ms,
           last_used_at)
         VALUES ($1, $2, $3, $4, $5, $6, $4) RETURNING *`,
        [session.hash, session.userId, session.tokenId, session.createdAt, session.expiresAt, session.idleTimeoutMs],
      );
      return result.rows;
    });
    if (!row) throw new StoreError("the web session just created cannot be read back");
    return webSessionFromRow(row);
  }

  async findWebSession(hash: string): Promise<WebSessionRecord | undefined> {
    const [row] = await this.#rows(
      `SELECT s.* FROM web_sessions s JOIN api_tokens t ON t.id = s.token_id
       WHERE s.session_sha256 = $1 AND t.revoked_at = ''`,
      [hash],
    );
    return row ? webSessionFromRow(row) : undefined;
  }

  async touchWebSession(id: number, at: string): Promise<void> {
    await this.pool.query("UPDATE web_sessions SET last_used_at = $1 WHERE id = $2", [at, id]);
  }

  async deleteWebSession(hash: string): Promise<boolean> {
    const result = await this.pool.query("DELETE FROM web_sessions WHERE session_sha256 = $1", [hash]);
    return (result.rowCount ?? 0) > 0;
  }

  async pruneWebSessions(at: string): Promise<number> {
    return (await this.pool.query("DELETE FROM web_sessions WHERE expires_at <= $1", [at])).rowCount ?? 0;
  }

  async updateRun(runId: number, patch: RunPatch): Promise<void> {
    const sets: string[] = [];
    const values: unknown[] = [];
    for (const [key, column] of Object.entries(RUN_COLUMNS) as [keyof RunPatch, string][]) {
      if (patch[key] === undefined) continue;
      values.push(patch[key]);
      sets.push(`${column} = $${values.length}`);
    }
    values.push(this.#iso());
    sets.push(`updated_at = $${values.length}`);
    values.push(runId);
    const sql = `UPDATE runs SET ${sets.join(", ")} WHERE id = $${values.length}`;
    await this.#write(`updating run ${runId}`, async (client) => {
      if (this.#fence) await lockRun(client, runId, this.#fence);
      return client.query(sql, values);
    });
  }

  async appendEvent(runId: number, event: NewEvent): Promise<RunEvent> {
    const seq = await this.#write(`appending an event to run ${runId}`, async (client) => {
      await lockRun(client, runId, this.#fence);
      const result = await client.query<Row>(
        `INSERT INTO run_events (run_id, seq, type, offset_ms, at, data)
         SELECT $1, COALESCE(MAX(seq), 0) + 1, $2, $3, $4, $5 FROM run_events WHERE run_id = $1 RETURNING seq`,
        [runId, event.type, event.offsetMs, event.at, JSON.stringify(event.data)],
      );
      return num(result.rows[0] ?? {}, "seq");
    });
    return { ...event, runId, seq };
  }

  async userUsage(userId: string, options: { since?: string } = {}): Promise<GenerationUsage> {
    const rows = await this.#rows(
      `SELECT e.type, e.data FROM run_events e JOIN runs r ON r.id = e.run_id
       WHERE r.user_id = $1 AND e.type IN ('generation-finished', 'generation-failed') AND e.at >= $2`,
      [userId, options.since ?? ""],
    );
    return usageOf(
      rows.map((row) => ({ type: String(row.type), data: parseJson<Record<string, unknown>>(row.data, "event data") })),
    );
  }

  async listEvents(runId: number, options: { afterSeq?: number } = {}): Promise<RunEvent[]> {
    const rows = await this.#rows("SELECT * FROM run_events WHERE run_id = $1 AND seq > $2 ORDER BY seq", [
      runId,
      options.afterSeq ?? 0,
    ]);
    return rows.map((row) => eventFromRow(runId, row));
  }

  async recordSearchCall(runId: number, call: NewSearchCall): Promise<SearchCallRecord> {
    const id = await this.#write(`recording a search call of run ${runId}`, async (client) => {
      await lockRun(client, runId, this.#fence);
      const counted = await client.query<{ count: number }>(
        "SELECT COUNT(*) AS count FROM search_calls WHERE run_id = $1",
        [runId],
      );
      const next = queryId((counted.rows[0]?.count ?? 0) + 1);
      await client.query(
        `INSERT INTO search_calls (run_id, id, origin, query, status, hits, error, started_ms, finished_ms, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [
          runId,
          next,
          call.origin,
          JSON.stringify(call.query),
          call.status,
          JSON.stringify(call.hits),
          call.error,
          call.startedMs,
          call.finishedMs,
          this.#iso(),
        ],
      );
      return next;
    });
    return { ...call, runId, id };
  }

  async listSearchCalls(runId: number): Promise<SearchCallRecord[]> {
    // Ids come from the run's counter, so id order (numeric) is insertion order.
    const rows = await this.#rows('SELECT * FROM search_calls WHERE run_id = $1 ORDER BY LENGTH(id), id COLLATE "C"', [
      runId,
    ]);
    return rows.map((row) => searchCallFromRow(runId, row));
  }

  async persistSource(runId: number, source: NewSource, offsetNow: () => number): Promise<PersistResult> {
    return persistSource(this.pool, runId, source, { offsetNow, now: this.#iso(), fence: this.#fence });
  }

  async listSources(runId: number): Promise<SourceRecord[]> {
    return readSources(this.pool, runId);
  }

  async addDiagnostic(runId: number, diagnostic: NewDiagnostic): Promise<Diagnostic> {
    const at = this.#iso();
    const id = await this.#write(`recording a diagnostic of run ${runId}`, async (client) => {
      if (this.#fence) await lockRun(client, runId, this.#fence);
      const result = await client.query<Row>(
        `INSERT INTO diagnostics (run_id, stage, code, message, data, offset_ms, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
        [
          runId,
          diagnostic.stage,
          diagnostic.code,
          diagnostic.message,
          JSON.stringify(diagnostic.data ?? {}),
          diagnostic.offsetMs,
          at,
        ],
      );
      return num(result.rows[0] ?? {}, "id");
    });
    return { ...diagnostic, runId, id, at };
  }

  async listDiagnostics(runId: number): Promise<Diagnostic[]> {
    const rows = await this.#rows("SELECT * FROM diagnostics WHERE run_id = $1 ORDER BY id", [runId]);
    return rows.map((row) => diagnosticFromRow(runId, row));
  }

  async listChildRuns(runId: number): Promise<RunRecord[]> {
    const rows = await this.#rows("SELECT * FROM runs WHERE parent_id = $1 ORDER BY id", [runId]);
    return rows.map((row) => runFromRow(row));
  }

  async listLibrary(userId: string, options: { limit?: number } = {}): Promise<LibraryEntry[]> {
    const rows = await this.#rows(LIBRARY_LIST, [userId, options.limit ?? null]);
    return rows.map(libraryEntryFromRow);
  }

  async readLibrary(userId: string, ids: readonly number[]): Promise<LibraryDocument[]> {
    if (ids.length === 0) return [];
    const rows = await this.#rows("SELECT * FROM library WHERE user_id = $1 AND id = ANY($2::bigint[])", [
      userId,
      [...ids],
    ]);
    const byId = new Map(rows.map((row) => [num(row, "id"), row]));
    return ids.flatMap((id) => {
      const row = byId.get(id);
      return row ? [libraryDocumentFromRow(row)] : [];
    });
  }

  async forgetLibraryEntry(userId: string, id: number): Promise<boolean> {
    const result = await this.#write("forgetting a library entry", (client) =>
      client.query("DELETE FROM library WHERE user_id = $1 AND id = $2", [userId, id]),
    );
    return (result.rowCount ?? 0) > 0;
  }

  async loadInvestigation(runId: number): Promise<StoredInvestigation> {
    return loadInvestigation(this.pool, runId);
  }

  async applyMutation(
    runId: number,
    mutation: Mutation,
    options: { stateSeq: number },
  ): Promise<{ notesSeq?: number }> {
    return applyMutation(this.pool, runId, mutation, {
      stateSeq: options.stateSeq,
      now: this.#iso(),
      fence: this.#fence,
    });
  }

  async listNotesVersions(runId: number): Promise<NotesVersion[]> {
    return listNotesVersions(this.pool, runId);
  }

  /** Ends the pool (waiting for checked-out connections to be released). Idempotent. */
  async close(): Promise<void> {
    // A fenced view (`fenced`) leaves the pool to the store it came from.
    if (this.#closed || this.#fence) return;
    this.#closed = true;
    await this.pool.end();
  }
}
