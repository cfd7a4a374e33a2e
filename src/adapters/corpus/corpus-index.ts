/**
 * Full-text index of a corpus folder: SQLite FTS5 with bm25 ranking, kept in its own file
 * and refreshed incrementally (only files whose size or modification time changed are
 * extracted again), so it is reused across runs.
 */
import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, extname, join, relative, sep } from "node:path";
import BetterSqlite3, { type Database } from "better-sqlite3";
import { describeError } from "../../core/errors.js";
import { contentWords, keyTerms } from "../../core/text.js";
import { LIGHT_EXTENSIONS } from "../extract/extract-by-type.js";
import type { BatchOutcome } from "../extract/extract-worker.js";
import { extractFileOffThread, extractionPool } from "../extract/extraction-pool.js";
import { walkCorpus } from "./corpus-paths.js";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS documents (
	id         INTEGER PRIMARY KEY,
	path       TEXT NOT NULL UNIQUE,
	size       INTEGER NOT NULL,
	mtime_ms   REAL NOT NULL,
	title      TEXT NOT NULL DEFAULT '',
	body       TEXT NOT NULL DEFAULT '',
	error      TEXT NOT NULL DEFAULT '',
	indexed_at TEXT NOT NULL
);
CREATE VIRTUAL TABLE IF NOT EXISTS documents_fts USING fts5(title, body, tokenize = 'porter unicode61 remove_diacritics 2');
`;

export interface IndexStats {
  documents: number;
  added: number;
  updated: number;
  removed: number;
  unchanged: number;
  failed: { path: string; reason: string }[];
  skipped: { path: string; reason: string }[];
  /** Files of types Assay does not read, by extension. */
  unsupported: Record<string, number>;
}

/** Files extracted so far of those a refresh has to extract. */
export type IndexProgress = (done: number, total: number) => void;

/** Files per write transaction of a refresh, and the longest wait before a partial batch is written. */
const BATCH_FILES = 250;
const BATCH_MS = 1_000;
/** From this many light files to extract, they go to the workers, this many per task. */
const POOL_LIGHT_FILES = 200;
const LIGHT_BATCH_FILES = 50;

interface Extracted {
  path: string;
  size: number;
  mtime: number;
  title: string;
  body: string;
  error: string;
}

export interface IndexedHit {
  path: string;
  title: string;
  snippet: string;
  score: number;
}

export interface IndexedDocument {
  path: string;
  title: string;
  body: string;
}

/** The index file for a corpus root: one per real root path, under `indexDir`. */
export function indexFileFor(indexDir: string, root: string): string {
  return join(indexDir, `${createHash("sha256").update(root).digest("hex").slice(0, 16)}.sqlite`);
}

const MAX_QUERY_TERMS = 32;

/**
 * An FTS5 query for free text: every content word, plus each pair of adjacent content
 * words as a phrase, all OR-ed. The phrases lift documents that use the request's own
 * wording ("cobalt oxide") above ones that only share common words. Every term is quoted,
 * so no FTS5 syntax from the text is interpreted. Pure.
 */
export function ftsQuery(text: string): string {
  const words = contentWords(text).slice(0, MAX_QUERY_TERMS * 2);
  const terms = keyTerms(text).slice(0, MAX_QUERY_TERMS);
  if (terms.length === 0) return "";
  const quote = (value: string): string => `"${value.replaceAll('"', "")}"`;
  const phrases = new Set<string>();
  for (let index = 0; index + 1 < words.length && phrases.size < MAX_QUERY_TERMS; index++) {
    if (words[index] !== words[index + 1]) phrases.add(`${words[index]} ${words[index + 1]}`);
  }
  return [...terms, ...phrases].map(quote).join(" OR ");
}

export class CorpusIndex {
  readonly root: string;
  readonly #db: Database;

  private constructor(root: string, db: Database) {
    this.root = root;
    this.#db = db;
  }

  /** Opens (creating) the index of real corpus root `root` in file `file`. */
  static open(root: string, file: string): CorpusIndex {
    if (file !== ":memory:") mkdirSync(dirname(file), { recursive: true });
    const db = new BetterSqlite3(file);
    db.pragma("journal_mode = WAL");
    db.pragma("busy_timeout = 10000");
    db.exec(SCHEMA);
    return new CorpusIndex(root, db);
  }

  /**
   * Brings the index up to date with the folder. Only new and changed files are read and
   * extracted, several at once (HTML, PDF and office files in the extraction pool's workers; a
   * large folder's plain text and Markdown there too, in batches), and committed
   * in batches: a process killed mid-way leaves every committed batch usable, and the next
   * refresh extracts only what is left. `progress` hears (files done, files to do) as they go.
   */
  async refresh(signal?: AbortSignal, progress?: IndexProgress): Promise<IndexStats> {
    const walk = await walkCorpus(this.root);
    const known = new Map(
      (
        this.#db.prepare("SELECT id, path, size, mtime_ms FROM documents").all() as {
          id: number;
          path: string;
          size: number;
          mtime_ms: number;
        }[]
      ).map((row) => [row.path, row]),
    );
    const stats: IndexStats = {
      documents: 0,
      added: 0,
      updated: 0,
      removed: 0,
      unchanged: 0,
      failed: [],
      skipped: walk.skipped,
      unsupported: walk.unsupported,
    };
    const current = (file: { path: string; size: number; mtimeMs: number }): boolean => {
      const old = known.get(file.path);
      return old !== undefined && old.size === file.size && old.mtime_ms === file.mtimeMs;
    };
    const changed = walk.files.filter((file) => !current(file));
    stats.unchanged = walk.files.length - changed.length;

    const pool = changed.length > 0 ? extractionPool() : undefined;
    const pending: Extracted[] = [];
    let done = 0;
    let lastCommit = Date.now();
    const commit = (): void => {
      const batch = pending.splice(0);
      if (batch.length === 0) return;
      for (const [index, written] of this.#writeBatch(batch).entries()) {
        const entry = batch[index];
        if (!entry) continue;
        if (!written) stats.unchanged++;
        else if (known.has(entry.path)) stats.updated++;
        else stats.added++;
      }
      lastCommit = Date.now();
    };
    type Changed = (typeof changed)[number];
    const record = (file: Changed, outcome: BatchOutcome): void => {
      const error = outcome.ok ? "" : outcome.error;
      if (!outcome.ok) stats.failed.push({ path: file.path, reason: error });
      const title = outcome.ok ? outcome.document.title : "";
      const body = outcome.ok ? outcome.document.text : "";
      pending.push({ path: file.path, size: file.size, mtime: file.mtimeMs, title, body, error });
      done++;
      progress?.(done, changed.length);
      if (pending.length >= BATCH_FILES || Date.now() - lastCommit >= BATCH_MS) commit();
    };
    // A link is extracted as its target's type (and title), exactly as the fetcher reads it.
    const targetOf = (file: Changed): string => relative(this.root, file.absolute).split(sep).join("/");
    const extractOne = async (file: Changed): Promise<void> => {
      let outcome: BatchOutcome;
      try {
        const document = await extractFileOffThread(targetOf(file), await readFile(file.absolute), signal, pool);
        outcome = { ok: true, document };
      } catch (failure) {
        if (signal?.aborted) throw failure;
        outcome = { ok: false, error: describeError(failure) };
      }
      record(file, outcome);
    };
    // Many light files (plain text, Markdown) are read and extracted in the workers, a batch per
    // thread hop, while this thread writes; a few cost less here than a worker's start.
    const light = changed.filter((file) => LIGHT_EXTENSIONS.has(extname(targetOf(file)).toLowerCase()));
    const batched = pool && light.length >= POOL_LIGHT_FILES ? new Set(light) : new Set<Changed>();
    const extractBatch = async (files: Changed[]): Promise<void> => {
      let outcomes: BatchOutcome[] | undefined;
      try {
        outcomes = await pool?.runBatch(
          files.map((file) => ({ name: targetOf(file), path: file.absolute })),
          signal,
        );
      } catch (failure) {
        if (signal?.aborted) throw failure;
      }
      // A batch that failed as a whole (its worker ended) is read again here, file by file.
      if (!outcomes) for (const file of files) await extractOne(file);
      else
        files.forEach((file, index) => {
          record(file, outcomes[index] ?? { ok: false, error: "the extraction worker gave no result for it" });
        });
    };
    const units: (() => Promise<void>)[] = [];
    const inBatch = [...batched];
    for (let index = 0; index < inBatch.length; index += LIGHT_BATCH_FILES) {
      const files = inBatch.slice(index, index + LIGHT_BATCH_FILES);
      units.push(() => extractBatch(files));
    }
    for (const file of changed) if (!batched.has(file)) units.push(() => extractOne(file));
    // Enough extractions in flight to keep every worker busy while this thread reads and writes.
    let next = 0;
    const lanes = Array.from({ length: Math.min(units.length, (pool?.threads ?? 0) * 2 + 2) }, async () => {
      while (next < units.length) {
        signal?.throwIfAborted();
        const unit = units[next++];
        if (unit) await unit();
      }
    });
    try {
      await Promise.all(lanes);
    } finally {
      // What was extracted before a failure or a cancel is kept: the next refresh skips it.
      commit();
    }
    const seen = new Set(walk.files.map((file) => file.path));
    const remove = this.#db.transaction((ids: number[]) => {
      for (const id of ids) {
        this.#db.prepare("DELETE FROM documents_fts WHERE rowid = ?").run(id);
        this.#db.prepare("DELETE FROM documents WHERE id = ?").run(id);
      }
    });
    const gone = [...known.values()].filter((row) => !seen.has(row.path)).map((row) => row.id);
    remove(gone);
    stats.removed = gone.length;
    stats.documents = seen.size;
    stats.failed.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return stats;
  }

  /**
   * Writes extracted files in one transaction; for each, whether it was written. Another
   * process sharing the index (workers on one machine) may have indexed a file since it was
   * read: the row is read again under the write lock and kept when it is current.
   */
  #writeBatch(batch: readonly Extracted[]): boolean[] {
    const find = this.#db.prepare("SELECT id, size, mtime_ms FROM documents WHERE path = ?");
    const unindex = this.#db.prepare("DELETE FROM documents_fts WHERE rowid = ?");
    const update = this.#db.prepare(
      "UPDATE documents SET size = ?, mtime_ms = ?, title = ?, body = ?, error = ?, indexed_at = ? WHERE id = ?",
    );
    const insert = this.#db.prepare(
      "INSERT INTO documents (path, size, mtime_ms, title, body, error, indexed_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
    );
    const index = this.#db.prepare("INSERT INTO documents_fts (rowid, title, body) VALUES (?, ?, ?)");
    const write = this.#db.transaction((entries: readonly Extracted[]): boolean[] => {
      const now = new Date().toISOString();
      return entries.map(({ path, size, mtime, title, body, error }) => {
        const old = find.get(path) as { id: number; size: number; mtime_ms: number } | undefined;
        if (old && old.size === size && old.mtime_ms === mtime) return false;
        let id: number | bigint;
        if (old) {
          unindex.run(old.id);
          update.run(size, mtime, title, body, error, now, old.id);
          id = old.id;
        } else {
          id = insert.run(path, size, mtime, title, body, error, now).lastInsertRowid;
        }
        if (!error) index.run(id, title, body);
        return true;
      });
    });
    return write.immediate(batch);
  }

  /**
   * Adds documents that are not files (an index over the user's library: `path` is the
   * document's anchor), in one transaction, ranked by the same bm25 as files.
   */
  add(documents: readonly IndexedDocument[]): void {
    this.#writeBatch(documents.map(({ path, title, body }) => ({ path, size: 0, mtime: 0, title, body, error: "" })));
  }

  /** bm25-ranked documents for the content words of `text` (any word may match). */
  search(text: string, limit: number): IndexedHit[] {
    const match = ftsQuery(text);
    if (match === "") return [];
    const rows = this.#db
      .prepare(
        `SELECT d.path AS path, d.title AS title,
                snippet(documents_fts, 1, '', '', '…', 24) AS snippet,
                bm25(documents_fts, 4.0, 1.0) AS score
         FROM documents_fts JOIN documents d ON d.id = documents_fts.rowid
         WHERE documents_fts MATCH ?
         ORDER BY score, d.path
         LIMIT ?`,
      )
      .all(match, limit) as { path: string; title: string; snippet: string; score: number }[];
    return rows.map((row) => ({ ...row, score: -row.score }));
  }

  /** Indexed documents under `prefix` (a normalized corpus path or ''), in path order. */
  *documents(prefix = ""): Generator<IndexedDocument> {
    // Paths first, then one body at a time: the statement is not held open across the
    // caller's awaits (another query on this connection would fail while it is).
    // Not LIKE, which ignores ASCII case: paths are case-sensitive, so `docs` must not match `Docs/`.
    const folder = `${prefix}/`;
    const paths = this.#db
      .prepare(
        "SELECT path FROM documents WHERE error = '' AND (? = '' OR path = ? OR substr(path, 1, length(?)) = ?) ORDER BY path",
      )
      .pluck()
      .all(prefix, prefix, folder, folder) as string[];
    const read = this.#db.prepare("SELECT path, title, body FROM documents WHERE path = ? AND error = ''");
    for (const path of paths) {
      const row = read.get(path) as IndexedDocument | undefined;
      if (row) yield row;
    }
  }

  close(): void {
    if (this.#db.open) this.#db.close();
  }
}
