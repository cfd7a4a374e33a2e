/**
 * The embedded store: one SQLite file, WAL, synchronous=FULL. Every method commits before
 * it resolves; a run's small writes (events, sources, search calls, status patches,
 * diagnostics) share one commit with the others issued in the same event-loop turn
 * (sqlite-group-commit.ts).
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import BetterSqlite3, { type Database } from "better-sqlite3";
import { describeError, StoreError, UserError } from "../../../core/errors.js";
import { queryId, sourceId } from "../../../core/ids.js";
import type { Mutation } from "../../../core/investigative/types.js";
import { type GenerationUsage, usageOf } from "../../../core/usage.js";
import type { InvestigationStore, NotesVersion, StoredInvestigation } from "../../../ports/investigation-store.js";
import {
  type ApiTokenRecord,
  type ChunkRecord,
  checkFence,
  type Diagnostic,
  type LeaseAttempt,
  LeaseLostError,
  type LibraryDocument,
  type LibraryEntry,
  type NewApiToken,
  type NewDiagnostic,
  type NewEvent,
  type NewSearchCall,
  type NewSource,
  type NewWebSession,
  type PersistResult,
  type Provenance,
  type RunEvent,
  type RunLease,
  type RunPatch,
  type RunRecord,
  type RunRequest,
  type RunStatus,
  type SearchCallRecord,
  type SourceRecord,
  type Store,
  type StoreFence,
  type WebSessionRecord,
} from "../../../ports/store.js";
import {
  apiTokenFromRow,
  CHUNK_COPY_SQL,
  chunkFromRow,
  diagnosticFromRow,
  eventFromRow,
  LIBRARY_LIST_SQL,
  LIBRARY_UPSERT_SQL,
  libraryDocumentFromRow,
  libraryEntryFromRow,
  libraryRowOf,
  num,
  parentProblem,
  parseJson,
  provenanceFromRow,
  type Row,
  runFromRow,
  runInsertSql,
  runInsertValues,
  SOURCE_COPY_SQL,
  searchCallFromRow,
  sourceFromRow,
  text,
  webSessionFromRow,
} from "../store-rows.js";
import { flushGroup, groupCommitted } from "./sqlite-group-commit.js";
import { applyMutation } from "./sqlite-investigation.js";
import { listNotesVersions, loadInvestigation } from "./sqlite-investigation-read.js";
import { migrate } from "./sqlite-migrations.js";
import { prepared } from "./sqlite-statements.js";

export interface SqliteStoreOptions {
  /** Database file, or ':memory:'. */
  file: string;
  /** Wall clock for created_at columns. */
  now?: () => Date;
}

/** Opens (creating and upgrading) a SQLite store. Throws UserError when the file cannot be opened. */
export function openSqliteStore(options: SqliteStoreOptions): SqliteStore {
  let db: Database;
  try {
    if (options.file !== ":memory:") mkdirSync(dirname(options.file), { recursive: true });
    db = new BetterSqlite3(options.file);
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = FULL");
    db.pragma("foreign_keys = ON");
    db.pragma("busy_timeout = 5000");
    const migrated = migrate(db);
    if (!migrated.ok) throw new Error(`the schema could not be applied: ${migrated.error}`);
  } catch (error) {
    throw new UserError(`cannot open the database ${options.file}: ${describeError(error)}`, { cause: error });
  }
  return new SqliteStore(db, options.now ?? (() => new Date()));
}

const INSERT_RUN = runInsertSql(() => "?");

export class SqliteStore implements Store, InvestigationStore {
  readonly backend = "sqlite";
  readonly db: Database;
  readonly #now: () => Date;
  readonly #fence: StoreFence | undefined;

  constructor(db: Database, now: () => Date, fence?: StoreFence) {
    this.db = db;
    this.#now = now;
    this.#fence = fence;
  }

  /** Inside a write's transaction: refuses it when the run's lease moved on from the fence's. */
  #guard(runId: number): void {
    if (this.#fence?.lease.runId !== runId) return;
    const row = prepared(this.db, "SELECT lease_holder, lease_epoch FROM runs WHERE id = ?").get(runId) as
      | { lease_holder: string; lease_epoch: number }
      | undefined;
    checkFence(this.#fence, runId, row);
  }

  fenced(lease: RunLease, onLost?: (error: LeaseLostError) => void): this {
    return new SqliteStore(this.db, this.#now, { lease, onLost }) as this;
  }

  async acquireLease(
    runId: number,
    claim: { holder: string; now: string; expiresAt: string; replacing?: string },
  ): Promise<LeaseAttempt> {
    return groupCommitted(this.db, (): LeaseAttempt => {
      const row = prepared(
        this.db,
        "SELECT status, lease_holder, lease_epoch, lease_expires_at FROM runs WHERE id = ?",
      ).get(runId) as
        | { status: RunStatus; lease_holder: string; lease_epoch: number; lease_expires_at: string }
        | undefined;
      if (!row) return { ok: false, holder: "", expiresAt: "", status: "missing" };
      const free = row.lease_holder === "" || row.lease_expires_at <= claim.now || row.lease_holder === claim.replacing;
      if (row.status !== "running" || !free)
        return { ok: false, holder: row.lease_holder, expiresAt: row.lease_expires_at, status: row.status };
      const epoch = row.lease_epoch + 1;
      prepared(
        this.db,
        `UPDATE runs SET lease_holder = ?, lease_epoch = ?, lease_expires_at = ?, heartbeat_at = ?, updated_at = ?
           WHERE id = ?`,
      ).run(claim.holder, epoch, claim.expiresAt, claim.now, this.#iso(), runId);
      return { ok: true, lease: { runId, holder: claim.holder, epoch, expiresAt: claim.expiresAt } };
    });
  }

  async renewLease(lease: RunLease, renewal: { now: string; expiresAt: string }): Promise<RunLease | undefined> {
    const info = await groupCommitted(this.db, () =>
      prepared(
        this.db,
        `UPDATE runs SET lease_expires_at = ?, heartbeat_at = ?
           WHERE id = ? AND lease_holder = ? AND lease_epoch = ? AND lease_holder <> ''`,
      ).run(renewal.expiresAt, renewal.now, lease.runId, lease.holder, lease.epoch),
    );
    return info.changes === 1 ? { ...lease, expiresAt: renewal.expiresAt } : undefined;
  }

  async releaseLease(lease: RunLease): Promise<void> {
    await groupCommitted(this.db, () =>
      prepared(
        this.db,
        "UPDATE runs SET lease_holder = '', lease_expires_at = '' WHERE id = ? AND lease_holder = ? AND lease_epoch = ?",
      ).run(lease.runId, lease.holder, lease.epoch),
    );
  }

  #iso(): string {
    return this.#now().toISOString();
  }

  async createRun(
    request: RunRequest,
    options: { originAt: string; worker: string; userId?: string },
  ): Promise<RunRecord> {
    const now = this.#iso();
    const info = await groupCommitted(this.db, () => {
      const parentId = request.lineage?.parentId;
      if (parentId !== undefined) {
        const parent = prepared(this.db, "SELECT user_id FROM runs WHERE id = ?").get(parentId) as Row | undefined;
        const problem = parentProblem(parentId, parent, options.userId);
        if (problem) throw new StoreError(problem);
      }
      const inserted = prepared(this.db, INSERT_RUN).run(...runInsertValues(request, options, now));
      if (parentId !== undefined) {
        // The parent's catalog, carried over in the transaction that creates the run.
        prepared(this.db, SOURCE_COPY_SQL).run(inserted.lastInsertRowid, parentId);
        prepared(this.db, CHUNK_COPY_SQL).run(inserted.lastInsertRowid, parentId);
      }
      return inserted;
    });
    const run = await this.getRun(Number(info.lastInsertRowid));
    if (!run) throw new StoreError("the run just created cannot be read back");
    return run;
  }

  async getRun(runId: number): Promise<RunRecord | undefined> {
    const row = prepared(this.db, "SELECT * FROM runs WHERE id = ?").get(runId) as Row | undefined;
    return row ? runFromRow(row) : undefined;
  }

  async listRuns(options: { limit?: number; userId?: string } = {}): Promise<RunRecord[]> {
    const rows = (
      options.userId === undefined
        ? prepared(this.db, "SELECT * FROM runs ORDER BY id DESC LIMIT ?").all(options.limit ?? 50)
        : prepared(this.db, "SELECT * FROM runs WHERE user_id = ? ORDER BY id DESC LIMIT ?").all(
            options.userId,
            options.limit ?? 50,
          )
    ) as Row[];
    return rows.map((row) => runFromRow(row));
  }

  async createApiToken(token: NewApiToken): Promise<ApiTokenRecord> {
    const info = prepared(
      this.db,
      "INSERT INTO api_tokens (user_id, name, token_sha256, created_at) VALUES (?, ?, ?, ?)",
    ).run(token.userId, token.name, token.hash, token.createdAt);
    const row = prepared(this.db, "SELECT * FROM api_tokens WHERE id = ?").get(Number(info.lastInsertRowid)) as Row;
    return apiTokenFromRow(row);
  }

  async findApiToken(hash: string): Promise<ApiTokenRecord | undefined> {
    const row = prepared(this.db, "SELECT * FROM api_tokens WHERE token_sha256 = ?").get(hash) as Row | undefined;
    return row ? apiTokenFromRow(row) : undefined;
  }

  async listApiTokens(options: { userId?: string } = {}): Promise<ApiTokenRecord[]> {
    const rows = (
      options.userId === undefined
        ? prepared(this.db, "SELECT * FROM api_tokens ORDER BY id DESC").all()
        : prepared(this.db, "SELECT * FROM api_tokens WHERE user_id = ? ORDER BY id DESC").all(options.userId)
    ) as Row[];
    return rows.map(apiTokenFromRow);
  }

  async revokeApiToken(id: number, at: string): Promise<boolean> {
    return this.db.transaction(() => {
      const info = prepared(this.db, "UPDATE api_tokens SET revoked_at = ? WHERE id = ? AND revoked_at = ''").run(
        at,
        id,
      );
      prepared(this.db, "DELETE FROM web_sessions WHERE token_id = ?").run(id);
      return info.changes > 0;
    })();
  }

  async touchApiToken(id: number, at: string): Promise<void> {
    prepared(this.db, "UPDATE api_tokens SET last_used_at = ? WHERE id = ?").run(at, id);
  }

  async createWebSession(session: NewWebSession): Promise<WebSessionRecord> {
    const info = prepared(
      this.db,
      `INSERT INTO web_sessions (session_sha256, user_id, token_id, created_at, expires_at, idle_timeout_ms,
           last_used_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      session.hash,
      session.userId,
      session.tokenId,
      session.createdAt,
      session.expiresAt,
      session.idleTimeoutMs,
      session.createdAt,
    );
    const row = prepared(this.db, "SELECT * FROM web_sessions WHERE id = ?").get(Number(info.lastInsertRowid)) as Row;
    return webSessionFromRow(row);
  }

  async findWebSession(hash: string): Promise<WebSessionRecord | undefined> {
    const row = prepared(
      this.db,
      `SELECT s.* FROM web_sessions s JOIN api_tokens t ON t.id = s.token_id
         WHERE s.session_sha256 = ? AND t.revoked_at = ''`,
    ).get(hash) as Row | undefined;
    return row ? webSessionFromRow(row) : undefined;
  }

  async touchWebSession(id: number, at: string): Promise<void> {
    prepared(this.db, "UPDATE web_sessions SET last_used_at = ? WHERE id = ?").run(at, id);
  }

  async deleteWebSession(hash: string): Promise<boolean> {
    return prepared(this.db, "DELETE FROM web_sessions WHERE session_sha256 = ?").run(hash).changes > 0;
  }

  async pruneWebSessions(at: string): Promise<number> {
    return prepared(this.db, "DELETE FROM web_sessions WHERE expires_at <= ?").run(at).changes;
  }

  async updateRun(runId: number, patch: RunPatch): Promise<void> {
    const columns: Record<keyof RunPatch, string> = {
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
    const sets: string[] = [];
    const values: unknown[] = [];
    for (const [key, column] of Object.entries(columns) as [keyof RunPatch, string][]) {
      if (patch[key] === undefined) continue;
      sets.push(`${column} = ?`);
      values.push(patch[key]);
    }
    sets.push("updated_at = ?");
    values.push(this.#iso(), runId);
    await groupCommitted(this.db, () => {
      this.#guard(runId);
      prepared(this.db, `UPDATE runs SET ${sets.join(", ")} WHERE id = ?`).run(...values);
    });
  }

  async appendEvent(runId: number, event: NewEvent): Promise<RunEvent> {
    const seq = await groupCommitted(this.db, () => {
      this.#guard(runId);
      const { next } = prepared(
        this.db,
        "SELECT COALESCE(MAX(seq), 0) + 1 AS next FROM run_events WHERE run_id = ?",
      ).get(runId) as { next: number };
      prepared(
        this.db,
        "INSERT INTO run_events (run_id, seq, type, offset_ms, at, data) VALUES (?, ?, ?, ?, ?, ?)",
      ).run(runId, next, event.type, event.offsetMs, event.at, JSON.stringify(event.data));
      return next;
    });
    return { ...event, runId, seq };
  }

  async userUsage(userId: string, options: { since?: string } = {}): Promise<GenerationUsage> {
    const rows = prepared(
      this.db,
      `SELECT e.type, e.data FROM run_events e JOIN runs r ON r.id = e.run_id
         WHERE r.user_id = ? AND e.type IN ('generation-finished', 'generation-failed') AND e.at >= ?`,
    ).all(userId, options.since ?? "") as { type: string; data: string }[];
    return usageOf(
      rows.map((row) => ({ type: row.type, data: parseJson<Record<string, unknown>>(row.data, "event data") })),
    );
  }

  async listEvents(runId: number, options: { afterSeq?: number } = {}): Promise<RunEvent[]> {
    const rows = prepared(this.db, "SELECT * FROM run_events WHERE run_id = ? AND seq > ? ORDER BY seq").all(
      runId,
      options.afterSeq ?? 0,
    ) as Row[];
    return rows.map((row) => eventFromRow(runId, row));
  }

  async recordSearchCall(runId: number, call: NewSearchCall): Promise<SearchCallRecord> {
    const id = await groupCommitted(this.db, () => {
      this.#guard(runId);
      const { count } = prepared(this.db, "SELECT COUNT(*) AS count FROM search_calls WHERE run_id = ?").get(runId) as {
        count: number;
      };
      const id = queryId(count + 1);
      prepared(
        this.db,
        `INSERT INTO search_calls (run_id, id, origin, query, status, hits, error, started_ms, finished_ms, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        runId,
        id,
        call.origin,
        JSON.stringify(call.query),
        call.status,
        JSON.stringify(call.hits),
        call.error,
        call.startedMs,
        call.finishedMs,
        this.#iso(),
      );
      return id;
    });
    return { ...call, runId, id };
  }

  async listSearchCalls(runId: number): Promise<SearchCallRecord[]> {
    const rows = prepared(this.db, "SELECT * FROM search_calls WHERE run_id = ? ORDER BY rowid").all(runId) as Row[];
    return rows.map((row) => searchCallFromRow(runId, row));
  }

  #insertProvenance(runId: number, id: string, provenance: Provenance): void {
    prepared(
      this.db,
      `INSERT OR IGNORE INTO source_provenance (run_id, source_id, query_id, rank, requested_anchor, created_at)
         VALUES (?, ?, ?, ?, ?, ?)`,
    ).run(runId, id, provenance.queryId, provenance.rank, provenance.requestedAnchor, this.#iso());
  }

  async persistSource(runId: number, source: NewSource, offsetNow: () => number): Promise<PersistResult> {
    const write = (): { id: string; duplicate: boolean } => {
      this.#guard(runId);
      const existing = prepared(this.db, "SELECT id FROM sources WHERE run_id = ? AND canonical_anchor = ?").get(
        runId,
        source.canonicalAnchor,
      ) as { id: string } | undefined;
      if (existing) {
        this.#insertProvenance(runId, existing.id, source.provenance);
        return { id: existing.id, duplicate: true };
      }
      const { count } = prepared(this.db, "SELECT COUNT(*) AS count FROM sources WHERE run_id = ?").get(runId) as {
        count: number;
      };
      const id = sourceId(count + 1);
      prepared(
        this.db,
        `INSERT INTO sources (run_id, id, requested_anchor, canonical_anchor, title, transport, path, url, domain,
             content_type, content, truncated, sha256, captured_at, fetched_ms, persisted_ms, reused)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        runId,
        id,
        source.requestedAnchor,
        source.canonicalAnchor,
        source.title,
        source.transport,
        source.path ?? "",
        source.url ?? "",
        source.domain,
        source.contentType,
        source.content,
        source.truncated ? 1 : 0,
        source.sha256,
        source.capturedAt,
        source.fetchedMs,
        0,
        source.reused ?? "",
      );
      const insertChunk = prepared(
        this.db,
        "INSERT INTO chunks (run_id, source_id, seq, start_offset, end_offset, text, location) VALUES (?, ?, ?, ?, ?, ?, ?)",
      );
      for (const chunk of source.chunks)
        insertChunk.run(runId, id, chunk.seq, chunk.start, chunk.end, chunk.text, chunk.location ?? "");
      this.#insertProvenance(runId, id, source.provenance);
      const owner = prepared(this.db, "SELECT user_id, scope FROM runs WHERE id = ?").get(runId) as Row;
      const library = libraryRowOf(
        source,
        { userId: text(owner, "user_id"), runId, scope: parseJson(owner.scope, "scope") },
        this.#iso(),
      );
      if (library) prepared(this.db, LIBRARY_UPSERT_SQL).run(...library);
      prepared(this.db, "UPDATE sources SET persisted_ms = ? WHERE run_id = ? AND id = ?").run(offsetNow(), runId, id);
      return { id, duplicate: false };
    };
    let written: { id: string; duplicate: boolean };
    try {
      written = await groupCommitted(this.db, write);
    } catch (error) {
      if (error instanceof LeaseLostError) throw error;
      throw new StoreError(`the source ${source.canonicalAnchor} was not persisted: ${describeError(error)}`, {
        cause: error,
      });
    }
    const stored = this.#source(runId, written.id);
    if (!stored) throw new StoreError(`the source ${written.id} cannot be read back`);
    return { source: stored, duplicate: written.duplicate };
  }

  #chunks(runId: number, id: string): ChunkRecord[] {
    const rows = prepared(this.db, "SELECT * FROM chunks WHERE run_id = ? AND source_id = ? ORDER BY seq").all(
      runId,
      id,
    ) as Row[];
    return rows.map((row) => chunkFromRow(id, row));
  }

  #provenance(runId: number, id: string): Provenance[] {
    const rows = prepared(
      this.db,
      "SELECT * FROM source_provenance WHERE run_id = ? AND source_id = ? ORDER BY rowid",
    ).all(runId, id) as Row[];
    return rows.map(provenanceFromRow);
  }

  #sourceFromRow(row: Row): SourceRecord {
    const runId = num(row, "run_id");
    const id = text(row, "id");
    return sourceFromRow(row, this.#provenance(runId, id), this.#chunks(runId, id));
  }

  #source(runId: number, id: string): SourceRecord | undefined {
    const row = prepared(this.db, "SELECT * FROM sources WHERE run_id = ? AND id = ?").get(runId, id) as
      | Row
      | undefined;
    return row ? this.#sourceFromRow(row) : undefined;
  }

  async listSources(runId: number): Promise<SourceRecord[]> {
    const rows = prepared(this.db, "SELECT * FROM sources WHERE run_id = ? ORDER BY rowid").all(runId) as Row[];
    return rows.map((row) => this.#sourceFromRow(row));
  }

  async listChildRuns(runId: number): Promise<RunRecord[]> {
    const rows = prepared(this.db, "SELECT * FROM runs WHERE parent_id = ? ORDER BY id").all(runId) as Row[];
    return rows.map((row) => runFromRow(row));
  }

  async listLibrary(userId: string, options: { limit?: number } = {}): Promise<LibraryEntry[]> {
    const rows = prepared(this.db, LIBRARY_LIST_SQL).all(userId, options.limit ?? -1) as Row[];
    return rows.map(libraryEntryFromRow);
  }

  async readLibrary(userId: string, ids: readonly number[]): Promise<LibraryDocument[]> {
    const read = prepared(this.db, "SELECT * FROM library WHERE user_id = ? AND id = ?");
    return ids.flatMap((id) => {
      const row = read.get(userId, id) as Row | undefined;
      return row ? [libraryDocumentFromRow(row)] : [];
    });
  }

  async forgetLibraryEntry(userId: string, id: number): Promise<boolean> {
    const info = await groupCommitted(this.db, () =>
      prepared(this.db, "DELETE FROM library WHERE user_id = ? AND id = ?").run(userId, id),
    );
    return info.changes > 0;
  }

  async addDiagnostic(runId: number, diagnostic: NewDiagnostic): Promise<Diagnostic> {
    const at = this.#iso();
    const info = await groupCommitted(this.db, () => {
      this.#guard(runId);
      return prepared(
        this.db,
        "INSERT INTO diagnostics (run_id, stage, code, message, data, offset_ms, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
      ).run(
        runId,
        diagnostic.stage,
        diagnostic.code,
        diagnostic.message,
        JSON.stringify(diagnostic.data ?? {}),
        diagnostic.offsetMs,
        at,
      );
    });
    return { ...diagnostic, runId, id: Number(info.lastInsertRowid), at };
  }

  async listDiagnostics(runId: number): Promise<Diagnostic[]> {
    const rows = prepared(this.db, "SELECT * FROM diagnostics WHERE run_id = ? ORDER BY id").all(runId) as Row[];
    return rows.map((row) => diagnosticFromRow(runId, row));
  }

  async loadInvestigation(runId: number): Promise<StoredInvestigation> {
    return loadInvestigation(this.db, runId);
  }

  async applyMutation(
    runId: number,
    mutation: Mutation,
    options: { stateSeq: number },
  ): Promise<{ notesSeq?: number }> {
    return applyMutation(this.db, runId, mutation, {
      stateSeq: options.stateSeq,
      now: this.#iso(),
      guard: () => this.#guard(runId),
    });
  }

  async listNotesVersions(runId: number): Promise<NotesVersion[]> {
    return listNotesVersions(this.db, runId);
  }

  /** Closes the database; a fenced view (`fenced`) leaves it to the store it came from. */
  async close(): Promise<void> {
    if (this.#fence) return;
    flushGroup(this.db);
    if (this.db.open) this.db.close();
  }
}
