-- A PostgreSQL database as written before the upgrade list existed (the SQLite v0 fixture in
-- PostgreSQL types): runs without worker and finished_at, sources without content_type.
CREATE TABLE runs (
	id              BIGSERIAL PRIMARY KEY,
	question        TEXT NOT NULL CHECK (question <> ''),
	language        TEXT NOT NULL DEFAULT 'en',
	strategy        TEXT NOT NULL DEFAULT 'pipeline',
	scope           TEXT NOT NULL,
	budgets         TEXT NOT NULL,
	out_dir         TEXT NOT NULL DEFAULT '',
	status          TEXT NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'finished', 'failed')),
	artifact_status TEXT NOT NULL DEFAULT '',
	error           TEXT NOT NULL DEFAULT '',
	origin_at       TEXT NOT NULL,
	created_at      TEXT NOT NULL,
	updated_at      TEXT NOT NULL
);
CREATE TABLE sources (
	run_id           BIGINT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	id               TEXT NOT NULL,
	requested_anchor TEXT NOT NULL,
	canonical_anchor TEXT NOT NULL CHECK (canonical_anchor <> ''),
	title            TEXT NOT NULL DEFAULT '',
	transport        TEXT NOT NULL CHECK (transport IN ('corpus', 'http')),
	path             TEXT NOT NULL DEFAULT '',
	url              TEXT NOT NULL DEFAULT '',
	domain           TEXT NOT NULL DEFAULT '',
	content          TEXT NOT NULL,
	truncated        INTEGER NOT NULL DEFAULT 0 CHECK (truncated IN (0, 1)),
	sha256           TEXT NOT NULL,
	captured_at      TEXT NOT NULL,
	fetched_ms       DOUBLE PRECISION NOT NULL,
	persisted_ms     DOUBLE PRECISION NOT NULL,
	PRIMARY KEY (run_id, id),
	UNIQUE (run_id, canonical_anchor)
);
INSERT INTO runs (question, scope, budgets, out_dir, origin_at, created_at, updated_at)
VALUES ('An old question', '{"kind":"corpus","root":"/old","label":"old"}', '{}', '/tmp/old', '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z');
