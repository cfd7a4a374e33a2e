-- Assay store, SQLite. This file is the FINAL state of the schema: a new database gets
-- everything from it. Changes to existing tables ALSO go into the upgrade list in
-- sqlite-migrations.ts (ALTER ... ADD COLUMN, run only when pragma_table_info lacks the column).
-- Times are ISO-8601 UTC text; *_ms columns are offsets in milliseconds from the run origin.

-- One research.
--   question, language, strategy   the request as given
--   model      offline | none | provider:model-name (secrets are never stored)
--   scope      JSON {kind:'corpus', root, label} | {kind:'web', search:{provider, baseUrl?}, allowHosts, label}
--   budgets    JSON: every budget of the run (all maxima)
--   out_dir    folder where the report is published (absolute)
--   status     running | finished | failed  (a killed run stays 'running' until resumed)
--   artifact_status  what was last published: synthesized | source-backed | no-evidence | publication-failed | ''
--   error      internal error text of a failed run
--   origin_at  wall-clock time of the run's clock origin
--   worker     host:pid of the process running it
CREATE TABLE IF NOT EXISTS runs (
	id              INTEGER PRIMARY KEY AUTOINCREMENT,
	question        TEXT NOT NULL CHECK (question <> ''),
	language        TEXT NOT NULL DEFAULT 'en',
	strategy        TEXT NOT NULL DEFAULT 'pipeline',
	model           TEXT NOT NULL DEFAULT 'none',
	scope           TEXT NOT NULL,
	budgets         TEXT NOT NULL,
	out_dir         TEXT NOT NULL DEFAULT '',
	status          TEXT NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'finished', 'failed')),
	artifact_status TEXT NOT NULL DEFAULT '',
	error           TEXT NOT NULL DEFAULT '',
	origin_at       TEXT NOT NULL,
	worker          TEXT NOT NULL DEFAULT '',
	created_at      TEXT NOT NULL,
	updated_at      TEXT NOT NULL,
	finished_at     TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS idx_runs_status ON runs(status, id);

-- APPEND-ONLY event log of a run: one row per event, seq 1, 2, ... per run.
--   type       noun-verb name: run-started, search-finished, source-fetched, source-persisted, ...
--   offset_ms  milliseconds from the run origin
--   data       JSON details
CREATE TABLE IF NOT EXISTS run_events (
	run_id    INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	seq       INTEGER NOT NULL CHECK (seq >= 1),
	type      TEXT NOT NULL CHECK (type <> ''),
	offset_ms REAL NOT NULL,
	at        TEXT NOT NULL,
	data      TEXT NOT NULL DEFAULT '{}',
	PRIMARY KEY (run_id, seq)
);

-- One row per search call (successful or not). id 'sq_001' per run, assigned by the Host.
--   origin     bootstrap | planner | catalog
--   query      JSON {kind:'text', text} | {kind:'pattern', pattern, pathPrefix?}
--   hits       JSON array of discovery metadata (anchor, title, snippet, rank, score): never evidence
--   error      internal error text ('' when ok)
CREATE TABLE IF NOT EXISTS search_calls (
	run_id      INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	id          TEXT NOT NULL,
	origin      TEXT NOT NULL CHECK (origin IN ('bootstrap', 'planner', 'catalog')),
	query       TEXT NOT NULL,
	status      TEXT NOT NULL CHECK (status IN ('ok', 'failed')),
	hits        TEXT NOT NULL DEFAULT '[]',
	error       TEXT NOT NULL DEFAULT '',
	started_ms  REAL NOT NULL,
	finished_ms REAL NOT NULL,
	created_at  TEXT NOT NULL,
	PRIMARY KEY (run_id, id)
);

-- Persisted sources (seed 004 SourceRecord). One row per canonical anchor per run.
--   id                Host id 's_001', from the per-run counter, in the inserting transaction
--   requested_anchor  what was asked for (path or URL)
--   canonical_anchor  source identity: normalized corpus path or canonical URL
--   transport         corpus | http
--   path, url         corpus-relative path or canonical URL ('' when not applicable)
--   domain            registrable domain ('' for corpus documents)
--   content           the full bounded fetched text; truncated = 1 when cut at the budget
--   sha256            of content
--   captured_at       wall-clock capture time
--   fetched_ms        offset at which the fetch completed
--   persisted_ms      offset taken inside the committing transaction
CREATE TABLE IF NOT EXISTS sources (
	run_id           INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	id               TEXT NOT NULL,
	requested_anchor TEXT NOT NULL,
	canonical_anchor TEXT NOT NULL CHECK (canonical_anchor <> ''),
	title            TEXT NOT NULL DEFAULT '',
	transport        TEXT NOT NULL CHECK (transport IN ('corpus', 'http')),
	path             TEXT NOT NULL DEFAULT '',
	url              TEXT NOT NULL DEFAULT '',
	domain           TEXT NOT NULL DEFAULT '',
	content_type     TEXT NOT NULL DEFAULT '',
	content          TEXT NOT NULL,
	truncated        INTEGER NOT NULL DEFAULT 0 CHECK (truncated IN (0, 1)),
	sha256           TEXT NOT NULL,
	captured_at      TEXT NOT NULL,
	fetched_ms       REAL NOT NULL,
	persisted_ms     REAL NOT NULL,
	PRIMARY KEY (run_id, id),
	UNIQUE (run_id, canonical_anchor)
);

-- How each source was reached: one row per (source, query, requested anchor). Duplicates merge here.
CREATE TABLE IF NOT EXISTS source_provenance (
	run_id           INTEGER NOT NULL,
	source_id        TEXT NOT NULL,
	query_id         TEXT NOT NULL,
	rank             INTEGER NOT NULL DEFAULT 0,
	requested_anchor TEXT NOT NULL,
	created_at       TEXT NOT NULL,
	PRIMARY KEY (run_id, source_id, query_id, requested_anchor),
	FOREIGN KEY (run_id, source_id) REFERENCES sources(run_id, id) ON DELETE CASCADE
);

-- Passages of a source. The Host id is '<source id>.p<seq>' ('s_001.p01'); text = content[start_offset, end_offset).
CREATE TABLE IF NOT EXISTS chunks (
	run_id       INTEGER NOT NULL,
	source_id    TEXT NOT NULL,
	seq          INTEGER NOT NULL CHECK (seq >= 1),
	start_offset INTEGER NOT NULL,
	end_offset   INTEGER NOT NULL,
	text         TEXT NOT NULL,
	PRIMARY KEY (run_id, source_id, seq),
	FOREIGN KEY (run_id, source_id) REFERENCES sources(run_id, id) ON DELETE CASCADE
);

-- Internal diagnostics (provider errors, refused paths, budget stops). Never reader-facing.
CREATE TABLE IF NOT EXISTS diagnostics (
	id         INTEGER PRIMARY KEY AUTOINCREMENT,
	run_id     INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	stage      TEXT NOT NULL,
	code       TEXT NOT NULL,
	message    TEXT NOT NULL DEFAULT '',
	data       TEXT NOT NULL DEFAULT '{}',
	offset_ms  REAL NOT NULL,
	created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS idx_diagnostics_run ON diagnostics(run_id, id);
