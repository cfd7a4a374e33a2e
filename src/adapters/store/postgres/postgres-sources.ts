/**
 * Sources of the PostgreSQL store: a source, its chunks and its provenance are written in one
 * transaction under the run's lock (the `s_` counter), and committed before `persistSource`
 * resolves. Used by `PostgresStore`.
 */

import type pg from "pg";
import { describeError, StoreError } from "../../../core/errors.js";
import { sourceId } from "../../../core/ids.js";
import type {
  ChunkRecord,
  NewSource,
  PersistResult,
  Provenance,
  SourceRecord,
  StoreFence,
} from "../../../ports/store.js";
import { LeaseLostError } from "../../../ports/store.js";
import {
  chunkFromRow,
  dollarParameters,
  LIBRARY_UPSERT_SQL,
  libraryRowOf,
  parseJson,
  provenanceFromRow,
  type Row,
  sourceFromRow,
  text,
} from "../store-rows.js";

const LIBRARY_UPSERT = dollarParameters(LIBRARY_UPSERT_SQL);

import { inTransaction, lockRun } from "./postgres-connection.js";

async function insertProvenance(
  client: pg.PoolClient,
  runId: number,
  id: string,
  provenance: Provenance,
  now: string,
): Promise<void> {
  await client.query(
    `INSERT INTO source_provenance (run_id, source_id, query_id, rank, requested_anchor, created_at)
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
    [runId, id, provenance.queryId, provenance.rank, provenance.requestedAnchor, now],
  );
}

async function insertSource(
  client: pg.PoolClient,
  runId: number,
  source: NewSource,
  options: { offsetNow: () => number; now: string; fence?: StoreFence | undefined },
): Promise<{ id: string; duplicate: boolean }> {
  await lockRun(client, runId, options.fence);
  const existing = await client.query<{ id: string }>(
    "SELECT id FROM sources WHERE run_id = $1 AND canonical_anchor = $2",
    [runId, source.canonicalAnchor],
  );
  const found = existing.rows[0];
  if (found) {
    await insertProvenance(client, runId, found.id, source.provenance, options.now);
    return { id: found.id, duplicate: true };
  }
  const counted = await client.query<{ count: number }>("SELECT COUNT(*) AS count FROM sources WHERE run_id = $1", [
    runId,
  ]);
  const id = sourceId((counted.rows[0]?.count ?? 0) + 1);
  await client.query(
    `INSERT INTO sources (run_id, id, requested_anchor, canonical_anchor, title, transport, path, url, domain,
       content_type, content, truncated, sha256, captured_at, fetched_ms, persisted_ms, reused)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, 0, $16)`,
    [
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
      source.reused ?? "",
    ],
  );
  if (source.chunks.length > 0) {
    // One statement for all chunks: arrays of the columns, unnested into rows.
    await client.query(
      `INSERT INTO chunks (run_id, source_id, seq, start_offset, end_offset, text, location)
       SELECT $1, $2, * FROM unnest($3::int[], $4::bigint[], $5::bigint[], $6::text[], $7::text[])`,
      [
        runId,
        id,
        source.chunks.map((chunk) => chunk.seq),
        source.chunks.map((chunk) => chunk.start),
        source.chunks.map((chunk) => chunk.end),
        source.chunks.map((chunk) => chunk.text),
        source.chunks.map((chunk) => chunk.location ?? ""),
      ],
    );
  }
  await insertProvenance(client, runId, id, source.provenance, options.now);
  const owner = (await client.query<Row>("SELECT user_id, scope FROM runs WHERE id = $1", [runId])).rows[0] ?? {};
  const library = libraryRowOf(
    source,
    { userId: text(owner, "user_id"), runId, scope: parseJson(owner.scope, "scope") },
    options.now,
  );
  if (library) await client.query(LIBRARY_UPSERT, library);
  await client.query("UPDATE sources SET persisted_ms = $1 WHERE run_id = $2 AND id = $3", [
    options.offsetNow(),
    runId,
    id,
  ]);
  return { id, duplicate: false };
}

/** Reads sources of a run (all, or the one `id`) with their provenance and chunks, from one snapshot. */
export async function readSources(pool: pg.Pool, runId: number, id?: string): Promise<SourceRecord[]> {
  return inTransaction(
    pool,
    async (client) => {
      const filter = id === undefined ? "" : " AND source_id = $2";
      const values = id === undefined ? [runId] : [runId, id];
      const sources = await client.query<Row>(
        `SELECT * FROM sources WHERE run_id = $1${id === undefined ? "" : " AND id = $2"}
         ORDER BY LENGTH(id), id COLLATE "C"`,
        values,
      );
      const provenance = await client.query<Row>(
        `SELECT * FROM source_provenance WHERE run_id = $1${filter} ORDER BY rowid`,
        values,
      );
      const chunks = await client.query<Row>(
        `SELECT * FROM chunks WHERE run_id = $1${filter} ORDER BY source_id, seq`,
        values,
      );
      const provenanceOf = new Map<string, Provenance[]>();
      for (const row of provenance.rows) {
        const key = text(row, "source_id");
        provenanceOf.set(key, [...(provenanceOf.get(key) ?? []), provenanceFromRow(row)]);
      }
      const chunksOf = new Map<string, ChunkRecord[]>();
      for (const row of chunks.rows) {
        const key = text(row, "source_id");
        chunksOf.set(key, [...(chunksOf.get(key) ?? []), chunkFromRow(key, row)]);
      }
      return sources.rows.map((row) =>
        sourceFromRow(row, provenanceOf.get(text(row, "id")) ?? [], chunksOf.get(text(row, "id")) ?? []),
      );
    },
    { isolation: "repeatable read", readOnly: true },
  );
}

/**
 * Commits a source with its chunks and provenance in one transaction, or merges the
 * provenance of a duplicate canonical anchor. Resolves after COMMIT.
 */
export async function persistSource(
  pool: pg.Pool,
  runId: number,
  source: NewSource,
  options: { offsetNow: () => number; now: string; fence?: StoreFence | undefined },
): Promise<PersistResult> {
  let written: { id: string; duplicate: boolean };
  try {
    written = await inTransaction(pool, (client) => insertSource(client, runId, source, options));
  } catch (error) {
    if (error instanceof LeaseLostError) throw error;
    throw new StoreError(`the source ${source.canonicalAnchor} was not persisted: ${describeError(error)}`, {
      cause: error,
    });
  }
  const [stored] = await readSources(pool, runId, written.id);
  if (!stored) throw new StoreError(`the source ${written.id} cannot be read back`);
  return { source: stored, duplicate: written.duplicate };
}
