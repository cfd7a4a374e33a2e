/**
 * Full-text index of a corpus folder: SQLite FTS5 with bm25 ranking, kept in its own file
 * and refreshed incrementally (only files whose size or modification time changed are
 * extracted again), so it is reused across runs.
 */
import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import BetterSqlite3, { type Database } from "better-sqlite3";
import { describeError } from "../../core/errors.js";
import { contentWords, keyTerms } from "../../core/text.js";
import { extractFile } from "../extract/extract-by-type.js";
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

  /** Brings the index up to date with the folder. Only changed files are read and extracted. */
  async refresh(signal?: AbortSignal): Promise<IndexStats> {
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
    };
    // Another process sharing the index (workers on one machine) may have indexed the file since
    // `known` was read: the row is read again under the write lock and kept when it is current.
    const upsert = this.#db.transaction(
      (path: string, size: number, mtime: number, title: string, body: string, error: string): boolean => {
        const old = this.#db.prepare("SELECT id, size, mtime_ms FROM documents WHERE path = ?").get(path) as
          | { id: number; size: number; mtime_ms: number }
          | undefined;
        if (old && old.size === size && old.mtime_ms === mtime) return false;
        if (old) {
          this.#db.prepare("DELETE FROM documents_fts WHERE rowid = ?").run(old.id);
          this.#db
            .prepare(
              "UPDATE documents SET size = ?, mtime_ms = ?, title = ?, body = ?, error = ?, indexed_at = ? WHERE id = ?",
            )
            .run(size, mtime, title, body, error, new Date().toISOString(), old.id);
          if (!error)
            this.#db
              .prepare("INSERT INTO documents_fts (rowid, title, body) VALUES (?, ?, ?)")
              .run(old.id, title, body);
        } else {
          const info = this.#db
            .prepare(
              "INSERT INTO documents (path, size, mtime_ms, title, body, error, indexed_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            )
            .run(path, size, mtime, title, body, error, new Date().toISOString());
          if (!error) {
            this.#db
              .prepare("INSERT INTO documents_fts (rowid, title, body) VALUES (?, ?, ?)")
              .run(info.lastInsertRowid, title, body);
          }
        }
        return true;
      },
    ).immediate;
    const seen = new Set<string>();
    for (const file of walk.files) {
      signal?.throwIfAborted();
      seen.add(file.path);
      const old = known.get(file.path);
      if (old && old.size === file.size && old.mtime_ms === file.mtimeMs) {
        stats.unchanged++;
        continue;
      }
      let title = "";
      let body = "";
      let error = "";
      try {
        // A link is extracted as its target's type (and title), exactly as the fetcher reads it.
        const target = relative(this.root, file.absolute).split(sep).join("/");
        const extracted = await extractFile(target, await readFile(file.absolute));
        title = extracted.title;
        body = extracted.text;
      } catch (failure) {
        error = describeError(failure);
        stats.failed.push({ path: file.path, reason: error });
      }
      if (!upsert(file.path, file.size, file.mtimeMs, title, body, error)) stats.unchanged++;
      else if (old) stats.updated++;
      else stats.added++;
    }
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
    return stats;
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
