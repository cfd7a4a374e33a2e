/**
 * Publishes report files into the shared PostgreSQL store, so that any process connected to
 * it can serve any run's report.
 *
 * Tables (schema.sql): `artifacts` holds one row per file of a version (exact bytes and their
 * SHA-256); `artifact_current` points at each run's current version. One transaction, under
 * the run's row lock, numbers the next version, writes its three rows, reads them back,
 * checks their hashes, validates them, switches the pointer and prunes old versions. A
 * reader resolves the pointer and reads the files in one statement (one snapshot), so it sees
 * the old pair or the new one, never a mix; a pair that fails validation is rolled back.
 */
import { createHash } from "node:crypto";
import type pg from "pg";
import { describeError, ExternalServiceError } from "../../../core/errors.js";
import type {
  ArtifactFiles,
  ArtifactStore,
  ArtifactTarget,
  CurrentArtifacts,
  PublishedArtifacts,
} from "../../../ports/artifact-store.js";
import { inTransaction, lockRun } from "../../store/postgres/postgres-connection.js";

const NAMES = { json: "report.json", markdown: "report.md", html: "report.html" } as const;
type Kind = keyof typeof NAMES;
const KINDS = Object.keys(NAMES) as Kind[];
/** Versions kept per run (the current one included), as the file system keeps. */
const KEEP_VERSIONS = 3;

/** One stored file of the current version: its exact bytes and recorded hash. */
export interface StoredArtifact {
  kind: Kind;
  name: string;
  content: Buffer;
  sha256: string;
}

/** The current version's files as stored, for an export that must write the exact bytes. */
export interface StoredVersion {
  version: string;
  files: StoredArtifact[];
}

export const sha256Hex = (bytes: Buffer): string => createHash("sha256").update(bytes).digest("hex");

/** `0001`, `0002`, …: the file system's numbering, without its random suffix. */
const versionLabel = (version: number): string => String(version).padStart(4, "0");

export interface PostgresArtifactStoreOptions {
  /** The PostgreSQL store's pool (the artifact store does not close it). */
  pool: pg.Pool;
  /** Wall clock for created_at and switched_at. */
  now?: () => Date;
}

export class PostgresArtifactStore implements ArtifactStore {
  readonly #pool: pg.Pool;
  readonly #now: () => Date;

  constructor(options: PostgresArtifactStoreOptions) {
    this.#pool = options.pool;
    this.#now = options.now ?? (() => new Date());
  }

  /** Where readers find run `runId`'s files: keys, not paths (no password, no host). */
  static keys(runId: number): PublishedArtifacts["paths"] {
    return {
      json: `postgres:runs/${runId}/${NAMES.json}`,
      markdown: `postgres:runs/${runId}/${NAMES.markdown}`,
      html: `postgres:runs/${runId}/${NAMES.html}`,
    };
  }

  async publish(
    target: ArtifactTarget,
    files: ArtifactFiles,
    validate: (staged: ArtifactFiles) => string | undefined,
  ): Promise<PublishedArtifacts> {
    try {
      const version = await inTransaction(this.#pool, (client) => this.#publish(client, target.runId, files, validate));
      return { version: versionLabel(version), paths: PostgresArtifactStore.keys(target.runId) };
    } catch (error) {
      if (error instanceof ExternalServiceError) throw error;
      throw new ExternalServiceError(
        `cannot publish the report of run ${target.runId} in the database: ${describeError(error)}`,
        { cause: error },
      );
    }
  }

  async #publish(
    client: pg.PoolClient,
    runId: number,
    files: ArtifactFiles,
    validate: (staged: ArtifactFiles) => string | undefined,
  ): Promise<number> {
    // Publishers of one run queue here; the version number is then theirs alone.
    await lockRun(client, runId);
    const last = await client.query<{ last: number }>(
      `SELECT GREATEST(
         (SELECT COALESCE(MAX(version), 0) FROM artifacts WHERE run_id = $1),
         (SELECT COALESCE(MAX(version), 0) FROM artifact_current WHERE run_id = $1)) AS last`,
      [runId],
    );
    const version = (last.rows[0]?.last ?? 0) + 1;
    const now = this.#now().toISOString();
    for (const kind of KINDS) {
      const content = Buffer.from(files[kind], "utf8");
      await client.query(
        `INSERT INTO artifacts (run_id, version, kind, name, content, sha256, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [runId, version, kind, NAMES[kind], content, sha256Hex(content), now],
      );
    }

    // Validate what the database holds, not what was sent.
    const staged = await client.query<{ kind: Kind; content: Buffer; sha256: string; actual: string }>(
      `SELECT kind, content, sha256, encode(sha256(content), 'hex') AS actual
       FROM artifacts WHERE run_id = $1 AND version = $2`,
      [runId, version],
    );
    const read: Partial<ArtifactFiles> = {};
    for (const row of staged.rows) {
      if (row.actual !== row.sha256)
        throw new ExternalServiceError(`the staged ${NAMES[row.kind]} does not match its hash`);
      read[row.kind] = row.content.toString("utf8");
    }
    if (read.json === undefined || read.markdown === undefined || read.html === undefined) {
      throw new ExternalServiceError("the staged report is incomplete");
    }
    const problem = validate({ json: read.json, markdown: read.markdown, html: read.html });
    if (problem !== undefined) throw new ExternalServiceError(`the staged report failed validation: ${problem}`);

    await client.query(
      `INSERT INTO artifact_current (run_id, version, switched_at) VALUES ($1, $2, $3)
       ON CONFLICT (run_id) DO UPDATE SET version = EXCLUDED.version, switched_at = EXCLUDED.switched_at`,
      [runId, version, now],
    );
    await client.query("DELETE FROM artifacts WHERE run_id = $1 AND version <= $2", [runId, version - KEEP_VERSIONS]);
    return version;
  }

  async current(target: ArtifactTarget): Promise<CurrentArtifacts | undefined> {
    const stored = await this.currentVersion(target.runId);
    if (stored === undefined) return undefined;
    const text = (kind: Kind): string => {
      const file = stored.files.find((item) => item.kind === kind);
      if (file === undefined)
        throw new ExternalServiceError(`the current report of run ${target.runId} lacks ${NAMES[kind]}`);
      return file.content.toString("utf8");
    };
    return { version: stored.version, files: { json: text("json"), markdown: text("markdown"), html: text("html") } };
  }

  /** The current version's files as stored (exact bytes); undefined when nothing was published. */
  async currentVersion(runId: number): Promise<StoredVersion | undefined> {
    let rows: { version: number; kind: Kind; name: string; content: Buffer; sha256: string }[];
    try {
      // One statement, one snapshot: the pointer and the files it points at.
      rows = (
        await this.#pool.query(
          `SELECT c.version, a.kind, a.name, a.content, a.sha256
           FROM artifact_current c JOIN artifacts a ON a.run_id = c.run_id AND a.version = c.version
           WHERE c.run_id = $1 ORDER BY a.kind`,
          [runId],
        )
      ).rows;
    } catch (error) {
      throw new ExternalServiceError(`cannot read the report of run ${runId}: ${describeError(error)}`, {
        cause: error,
      });
    }
    const first = rows[0];
    if (first === undefined) return undefined;
    return {
      version: versionLabel(first.version),
      files: rows.map(({ kind, name, content, sha256 }) => ({ kind, name, content, sha256 })),
    };
  }
}
