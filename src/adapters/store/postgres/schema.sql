-- Assay store, PostgreSQL. The same tables, columns, CHECKs and indexes as the SQLite schema
-- (src/adapters/store/sqlite/schema.sql, where every column is documented); only the types differ:
--   ids and run references  BIGSERIAL / BIGINT (SQLite: INTEGER PRIMARY KEY AUTOINCREMENT / INTEGER)
--   *_ms offsets, priority  DOUBLE PRECISION (SQLite's REAL is an 8-byte float; PostgreSQL's REAL only 4 bytes)
--   chunk offsets           BIGINT
--   JSON columns            TEXT holding the exact JSON the store wrote (see docs/decisions/0006-postgresql-store.md)
--   times                   ISO-8601 UTC text, as in SQLite
--   rowid                   SQLite's implicit rowid, made explicit (BIGSERIAL) on the tables whose rows are
--                           listed in insertion order; tables with an id column are listed by it
-- Foreign keys are DEFERRABLE (INITIALLY IMMEDIATE): the store defers them only inside the transaction
-- that writes an investigative mutation, whose rows may reference each other in any order (SQLite:
-- PRAGMA defer_foreign_keys).
-- This file is the FINAL state of the schema. Changes to existing tables ALSO go into the upgrade list
-- in postgres-migrations.ts (ALTER TABLE ... ADD COLUMN IF NOT EXISTS, run on every start).

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
--   notes_id   random id of the run's notes.md working copy ('' for runs made before it, and for pipeline runs)
--   phase      investigative strategy phase: exploration | synthesis ('' for other strategies)
--   stop_reason  why an investigation stopped: finalized, frontier_exhausted, breaker:iterations, breaker:tokens,
--              breaker:cost, breaker:wall_clock ('' while running)
--   user_id    the owner of the run ('local' for the CLI)
--   options    JSON run options beyond the budgets: {"investigation": {maxDepth: 2, ...}} holds only the
--              investigative knobs the user set; '{}' when none
--   heartbeat_at  wall-clock time of the last heartbeat of the `assay worker` driving the run ('' when no
--              worker has driven it); a running run whose heartbeat is stale shows as interrupted
--   cancel_requested_at  when a cancel was requested through the HTTP API for a run another process drives
--              ('' when none was): the worker (or `assay serve`) driving it reads it and cancels the run
--   lease_holder, lease_epoch, lease_expires_at  the run lease: the process driving the run, how many
--              times the lease was taken (every write of a driven run checks it), and when it lapses
--              unless renewed ('' when released); taken by compare-and-set, one holder at a time
--   parent_id  the run this one continues (0 for a new research); relation says how: follow-up | revision
--   instruction  a revision's instruction ("add the 2024 figures"); '' otherwise
CREATE TABLE IF NOT EXISTS runs (
	id              BIGSERIAL PRIMARY KEY,
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
	finished_at     TEXT NOT NULL DEFAULT '',
	notes_id        TEXT NOT NULL DEFAULT '',
	phase           TEXT NOT NULL DEFAULT '' CHECK (phase IN ('', 'exploration', 'synthesis')),
	stop_reason     TEXT NOT NULL DEFAULT '',
	user_id         TEXT NOT NULL DEFAULT 'local',
	options         TEXT NOT NULL DEFAULT '{}',
	heartbeat_at    TEXT NOT NULL DEFAULT '',
	cancel_requested_at TEXT NOT NULL DEFAULT '',
	lease_holder    TEXT NOT NULL DEFAULT '',
	lease_epoch     INTEGER NOT NULL DEFAULT 0,
	lease_expires_at TEXT NOT NULL DEFAULT '',
	parent_id        BIGINT NOT NULL DEFAULT 0,
	relation         TEXT NOT NULL DEFAULT '' CHECK (relation IN ('', 'follow-up', 'revision')),
	instruction      TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS idx_runs_status ON runs(status, id);

-- APPEND-ONLY event log of a run: one row per event, seq 1, 2, ... per run.
--   type       noun-verb name: run-started, search-finished, source-fetched, source-persisted, ...
--   offset_ms  milliseconds from the run origin
--   data       JSON details
CREATE TABLE IF NOT EXISTS run_events (
	run_id    BIGINT NOT NULL REFERENCES runs(id) ON DELETE CASCADE DEFERRABLE,
	seq       INTEGER NOT NULL CHECK (seq >= 1),
	type      TEXT NOT NULL CHECK (type <> ''),
	offset_ms DOUBLE PRECISION NOT NULL,
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
	run_id      BIGINT NOT NULL REFERENCES runs(id) ON DELETE CASCADE DEFERRABLE,
	id          TEXT NOT NULL,
	origin      TEXT NOT NULL CHECK (origin IN ('bootstrap', 'planner', 'catalog')),
	query       TEXT NOT NULL,
	status      TEXT NOT NULL CHECK (status IN ('ok', 'failed')),
	hits        TEXT NOT NULL DEFAULT '[]',
	error       TEXT NOT NULL DEFAULT '',
	started_ms  DOUBLE PRECISION NOT NULL,
	finished_ms DOUBLE PRECISION NOT NULL,
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
--   note              the investigative ledger's note on the source, e.g. 'read, nothing relevant' (these rows
--                     ARE the ledger's sources: claims and challenges cite them)
CREATE TABLE IF NOT EXISTS sources (
	run_id           BIGINT NOT NULL REFERENCES runs(id) ON DELETE CASCADE DEFERRABLE,
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
	fetched_ms       DOUBLE PRECISION NOT NULL,
	persisted_ms     DOUBLE PRECISION NOT NULL,
	note             TEXT NOT NULL DEFAULT '',
	reused           TEXT NOT NULL DEFAULT '' CHECK (reused IN ('', 'parent', 'library')),
	PRIMARY KEY (run_id, id),
	UNIQUE (run_id, canonical_anchor)
);

-- How each source was reached: one row per (source, query, requested anchor). Duplicates merge here.
CREATE TABLE IF NOT EXISTS source_provenance (
	rowid            BIGSERIAL NOT NULL,
	run_id           BIGINT NOT NULL,
	source_id        TEXT NOT NULL,
	query_id         TEXT NOT NULL,
	rank             INTEGER NOT NULL DEFAULT 0,
	requested_anchor TEXT NOT NULL,
	created_at       TEXT NOT NULL,
	PRIMARY KEY (run_id, source_id, query_id, requested_anchor),
	FOREIGN KEY (run_id, source_id) REFERENCES sources(run_id, id) ON DELETE CASCADE DEFERRABLE
);

-- Passages of a source. The Host id is '<source id>.p<seq>' ('s_001.p01'); text = content[start_offset, end_offset).
-- location: where in its document the passage stands ('slide 3', 'sheet Prices, rows 2–21'), '' when the document does not say.
CREATE TABLE IF NOT EXISTS chunks (
	run_id       BIGINT NOT NULL,
	source_id    TEXT NOT NULL,
	seq          INTEGER NOT NULL CHECK (seq >= 1),
	start_offset BIGINT NOT NULL,
	end_offset   BIGINT NOT NULL,
	text         TEXT NOT NULL,
	location     TEXT NOT NULL DEFAULT '',
	PRIMARY KEY (run_id, source_id, seq),
	FOREIGN KEY (run_id, source_id) REFERENCES sources(run_id, id) ON DELETE CASCADE DEFERRABLE
);

-- Internal diagnostics (provider errors, refused paths, budget stops). Never reader-facing.
CREATE TABLE IF NOT EXISTS diagnostics (
	id         BIGSERIAL PRIMARY KEY,
	run_id     BIGINT NOT NULL REFERENCES runs(id) ON DELETE CASCADE DEFERRABLE,
	stage      TEXT NOT NULL,
	code       TEXT NOT NULL,
	message    TEXT NOT NULL DEFAULT '',
	data       TEXT NOT NULL DEFAULT '{}',
	offset_ms  DOUBLE PRECISION NOT NULL,
	created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS idx_diagnostics_run ON diagnostics(run_id, id);

-- ===== Investigative strategy (seed 000 "Database schema"): frontier, ledger, challenges, notes history. =====
-- Every row is scoped to a run and deleted with it. Ids ('q_001', 'c_001', 'd_001', 'ch_001') come from per-run
-- counters (max existing + 1 for the prefix), checked by the store in the inserting transaction.

-- One row per question of a run (a node of the frontier graph). 'q_001' is the root.
--   parent_id            the question it was split from (NULL for the root)
--   kind                 question | hypothesis
--   priority             0..1
--   status               pending | in_progress | resolved | blocked | unresolvable | pruned; written in the same
--                        transaction as its inv_transitions row, so the latest transition always equals it
--   target_sources       JSON array of strings
--   answer               resolved: the answer; unresolvable: the assumption; pruned: the reason
--   claim_ids            JSON array of the claim ids the answer cites
--   exemption            why an UNVERIFIED claim is the best available, or why a depth 0/1 answer was not challenged
--   claimed_by           the worker run holding it while in_progress (NULL otherwise)
--   agent                the sub-agent of that run holding it while in_progress (1 … max_parallel), 0 otherwise
--   reopens              times reopened
CREATE TABLE IF NOT EXISTS inv_questions (
	run_id              BIGINT NOT NULL REFERENCES runs(id) ON DELETE CASCADE DEFERRABLE,
	id                  TEXT NOT NULL,
	parent_id           TEXT,
	depth               INTEGER NOT NULL CHECK (depth >= 0),
	kind                TEXT NOT NULL DEFAULT 'question' CHECK (kind IN ('question', 'hypothesis')),
	question            TEXT NOT NULL CHECK (question <> ''),
	rationale           TEXT NOT NULL DEFAULT '',
	priority            DOUBLE PRECISION NOT NULL CHECK (priority >= 0 AND priority <= 1),
	status              TEXT NOT NULL DEFAULT 'pending'
	                    CHECK (status IN ('pending', 'in_progress', 'resolved', 'blocked', 'unresolvable', 'pruned')),
	validation_criteria TEXT NOT NULL DEFAULT '',
	target_sources      TEXT NOT NULL DEFAULT '[]',
	answer              TEXT NOT NULL DEFAULT '',
	claim_ids           TEXT NOT NULL DEFAULT '[]',
	exemption           TEXT NOT NULL DEFAULT '',
	claimed_by          BIGINT REFERENCES runs(id) ON DELETE SET NULL DEFERRABLE,
	agent               INTEGER NOT NULL DEFAULT 0 CHECK (agent >= 0),
	reopens             INTEGER NOT NULL DEFAULT 0 CHECK (reopens >= 0),
	created_at          TEXT NOT NULL,
	updated_at          TEXT NOT NULL,
	PRIMARY KEY (run_id, id),
	FOREIGN KEY (run_id, parent_id) REFERENCES inv_questions(run_id, id) ON DELETE CASCADE DEFERRABLE
);
CREATE INDEX IF NOT EXISTS idx_inv_questions_pick ON inv_questions(run_id, status, priority DESC, depth);

-- Edges "question_id depends on depends_on_id" (a DAG; cycles are rejected by the core before insert).
CREATE TABLE IF NOT EXISTS inv_dependencies (
	rowid            BIGSERIAL NOT NULL,
	run_id        BIGINT NOT NULL REFERENCES runs(id) ON DELETE CASCADE DEFERRABLE,
	question_id   TEXT NOT NULL,
	depends_on_id TEXT NOT NULL,
	PRIMARY KEY (run_id, question_id, depends_on_id),
	CHECK (question_id <> depends_on_id),
	FOREIGN KEY (run_id, question_id)   REFERENCES inv_questions(run_id, id) ON DELETE CASCADE DEFERRABLE,
	FOREIGN KEY (run_id, depends_on_id) REFERENCES inv_questions(run_id, id) ON DELETE CASCADE DEFERRABLE
);

-- APPEND-ONLY attempt log: one row per query tried on a question (drives the dead-end rule).
--   seq      1, 2, ... per question
--   tool     web_search, fetch_page, search, read, challenge, ... (a challenge row points to its attempt by id)
--   outcome  one-line summary of what it yielded
CREATE TABLE IF NOT EXISTS inv_attempts (
	id          BIGSERIAL PRIMARY KEY,
	run_id      BIGINT NOT NULL REFERENCES runs(id) ON DELETE CASCADE DEFERRABLE,
	question_id TEXT NOT NULL,
	seq         INTEGER NOT NULL CHECK (seq >= 1),
	query       TEXT NOT NULL CHECK (query <> ''),
	tool        TEXT NOT NULL DEFAULT '',
	outcome     TEXT NOT NULL DEFAULT '',
	created_at  TEXT NOT NULL,
	UNIQUE (run_id, question_id, seq),
	FOREIGN KEY (run_id, question_id) REFERENCES inv_questions(run_id, id) ON DELETE CASCADE DEFERRABLE
);

-- APPEND-ONLY: one row per status change of a question, written in the same transaction as inv_questions.status.
-- Replaying the rows of a run (latest to_status per question) rebuilds every question's status.
--   seq          1, 2, 3, ... per question; seq 1 is the creation (from_status '')
--   from_status  the status before ('' on creation); to_status the status after
--   trigger      created, selected, resolved, retried, attempts_exhausted, reopened, dependency_failed, dependency_met,
--                reprioritized (from_status = to_status), pruned_branch, pruned_depth, pruned_scope, contradiction
--   actor        agent (a tool call of the model) | code (a deterministic rule)
--   reason       the agent's stated reason, or the rule that fired
--   priority     the question's priority at that moment; attempts: attempts made so far
--   caused_by    the question or challenge that triggered it ('q_044', 'ch_003'), or ''
--   state_seq    the research state sequence of the run when it happened
CREATE TABLE IF NOT EXISTS inv_transitions (
	id          BIGSERIAL PRIMARY KEY,
	run_id      BIGINT NOT NULL REFERENCES runs(id) ON DELETE CASCADE DEFERRABLE,
	question_id TEXT NOT NULL,
	seq         INTEGER NOT NULL CHECK (seq >= 1),
	from_status TEXT NOT NULL DEFAULT '',
	to_status   TEXT NOT NULL CHECK (to_status IN ('pending', 'in_progress', 'resolved', 'blocked', 'unresolvable', 'pruned')),
	trigger     TEXT NOT NULL CHECK (trigger <> ''),
	actor       TEXT NOT NULL CHECK (actor IN ('agent', 'code')),
	reason      TEXT NOT NULL DEFAULT '',
	priority    DOUBLE PRECISION NOT NULL CHECK (priority >= 0 AND priority <= 1),
	attempts    INTEGER NOT NULL DEFAULT 0,
	caused_by   TEXT NOT NULL DEFAULT '',
	state_seq   INTEGER NOT NULL DEFAULT 0,
	created_at  TEXT NOT NULL,
	UNIQUE (run_id, question_id, seq),
	FOREIGN KEY (run_id, question_id) REFERENCES inv_questions(run_id, id) ON DELETE CASCADE DEFERRABLE
);
CREATE INDEX IF NOT EXISTS idx_inv_transitions_run ON inv_transitions(run_id, id);

-- Claims ('c_001') and datapoints ('d_001', kind 'datapoint' fills value/unit).
--   question_id   the question that produced it
--   status        UNVERIFIED | VERIFIED | REFUTED | RETRACTED (VERIFIED is gated by the core, not by a constraint)
--   check_text    what would verify it
--   independence  the agent's statement of why its supporting sources are independent
CREATE TABLE IF NOT EXISTS inv_claims (
	run_id       BIGINT NOT NULL REFERENCES runs(id) ON DELETE CASCADE DEFERRABLE,
	id           TEXT NOT NULL,
	question_id  TEXT,
	kind         TEXT NOT NULL DEFAULT 'claim' CHECK (kind IN ('claim', 'datapoint')),
	text         TEXT NOT NULL CHECK (text <> ''),
	value        TEXT NOT NULL DEFAULT '',
	unit         TEXT NOT NULL DEFAULT '',
	status       TEXT NOT NULL DEFAULT 'UNVERIFIED' CHECK (status IN ('UNVERIFIED', 'VERIFIED', 'REFUTED', 'RETRACTED')),
	check_text   TEXT NOT NULL DEFAULT '',
	independence TEXT NOT NULL DEFAULT '',
	created_at   TEXT NOT NULL,
	updated_at   TEXT NOT NULL,
	PRIMARY KEY (run_id, id)
);

-- Claim <-> source links (sources are the Host's persisted sources); stance: supports | contradicts.
--   chunk_ids  JSON array of the passages of that source (chunk ids 's_001.p03', each a row of
--              chunks, checked by the store) that support or contradict the claim; '[]' for none
CREATE TABLE IF NOT EXISTS inv_claim_sources (
	rowid            BIGSERIAL NOT NULL,
	run_id    BIGINT NOT NULL REFERENCES runs(id) ON DELETE CASCADE DEFERRABLE,
	claim_id  TEXT NOT NULL,
	source_id TEXT NOT NULL,
	stance    TEXT NOT NULL CHECK (stance IN ('supports', 'contradicts')),
	chunk_ids TEXT NOT NULL DEFAULT '[]',
	PRIMARY KEY (run_id, claim_id, source_id),
	FOREIGN KEY (run_id, claim_id)  REFERENCES inv_claims(run_id, id) ON DELETE CASCADE DEFERRABLE,
	FOREIGN KEY (run_id, source_id) REFERENCES sources(run_id, id) ON DELETE CASCADE DEFERRABLE
);

-- Claim-vs-claim contradictions.
--   question_id  the question spawned to resolve it ('' until spawned)
--   addressed    1 once settled (it leaves the Contradictions section of notes.md)
CREATE TABLE IF NOT EXISTS inv_claim_links (
	rowid            BIGSERIAL NOT NULL,
	run_id         BIGINT NOT NULL REFERENCES runs(id) ON DELETE CASCADE DEFERRABLE,
	claim_id       TEXT NOT NULL,
	other_claim_id TEXT NOT NULL,
	question_id    TEXT NOT NULL DEFAULT '',
	addressed      INTEGER NOT NULL DEFAULT 0 CHECK (addressed IN (0, 1)),
	PRIMARY KEY (run_id, claim_id, other_claim_id),
	CHECK (claim_id <> other_claim_id),
	FOREIGN KEY (run_id, claim_id)       REFERENCES inv_claims(run_id, id) ON DELETE CASCADE DEFERRABLE,
	FOREIGN KEY (run_id, other_claim_id) REFERENCES inv_claims(run_id, id) ON DELETE CASCADE DEFERRABLE
);

-- One row per adversarial query ('ch_001'), opened by 'challenge', closed by 'record_challenge_result'.
--   target_type        claim | question_answer | conclusion; target_id: claim id, question id, or '' (conclusion)
--   negation           the belief inverted into the statement the search tries to prove
--   strategy           negation, discrepancy, criticism, alternative_method, scope_limit, primary_source, staleness
--   expected_if_false  what the evidence would look like if the belief were wrong (written before the search)
--   attempt_id         the inv_attempts row that executed it (NULL until it runs)
--   status             open until a verdict is recorded, then closed
--   outcome            survived | weakened | refuted | inconclusive ('' while open)
--   evidence           what was found, short; result_claim_id: the claim the counter-evidence produced, if any
CREATE TABLE IF NOT EXISTS inv_challenges (
	run_id            BIGINT NOT NULL REFERENCES runs(id) ON DELETE CASCADE DEFERRABLE,
	id                TEXT NOT NULL,
	question_id       TEXT,
	target_type       TEXT NOT NULL CHECK (target_type IN ('claim', 'question_answer', 'conclusion')),
	target_id         TEXT NOT NULL DEFAULT '',
	negation          TEXT NOT NULL CHECK (negation <> ''),
	strategy          TEXT NOT NULL CHECK (strategy IN ('negation', 'discrepancy', 'criticism', 'alternative_method',
	                  'scope_limit', 'primary_source', 'staleness')),
	expected_if_false TEXT NOT NULL CHECK (expected_if_false <> ''),
	query             TEXT NOT NULL CHECK (query <> ''),
	attempt_id        BIGINT REFERENCES inv_attempts(id) ON DELETE SET NULL DEFERRABLE,
	status            TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
	outcome           TEXT NOT NULL DEFAULT '' CHECK (outcome IN ('', 'survived', 'weakened', 'refuted', 'inconclusive')),
	evidence          TEXT NOT NULL DEFAULT '',
	result_claim_id   TEXT,
	created_at        TEXT NOT NULL,
	closed_at         TEXT,
	PRIMARY KEY (run_id, id),
	CHECK ((status = 'open' AND outcome = '') OR (status = 'closed' AND outcome <> ''))
);
CREATE INDEX IF NOT EXISTS idx_inv_challenges_target ON inv_challenges(run_id, target_type, target_id);

-- Sources that backed a challenge's verdict.
CREATE TABLE IF NOT EXISTS inv_challenge_sources (
	rowid            BIGSERIAL NOT NULL,
	run_id       BIGINT NOT NULL REFERENCES runs(id) ON DELETE CASCADE DEFERRABLE,
	challenge_id TEXT NOT NULL,
	source_id    TEXT NOT NULL,
	PRIMARY KEY (run_id, challenge_id, source_id),
	FOREIGN KEY (run_id, challenge_id) REFERENCES inv_challenges(run_id, id) ON DELETE CASCADE DEFERRABLE,
	FOREIGN KEY (run_id, source_id)    REFERENCES sources(run_id, id) ON DELETE CASCADE DEFERRABLE
);

-- APPEND-ONLY: the whole notes.md after each write (the file is the working copy; this is the record).
--   seq        1, 2, 3, ... per run, in write order
--   state_seq  the research state sequence of the run when the write happened
--   reason     notes_append, notes_update, notes_scratch, consolidation, restore, frontier
--   text       the whole notes.md after the write
CREATE TABLE IF NOT EXISTS inv_notes_versions (
	run_id     BIGINT NOT NULL REFERENCES runs(id) ON DELETE CASCADE DEFERRABLE,
	seq        INTEGER NOT NULL CHECK (seq >= 1),
	state_seq  INTEGER NOT NULL DEFAULT 0,
	reason     TEXT NOT NULL DEFAULT '',
	text       TEXT NOT NULL,
	created_at TEXT NOT NULL,
	PRIMARY KEY (run_id, seq)
);

-- Published reports (PostgreSQL only: with SQLite the report is published as files in out_dir).
-- One row per file of a published version; a version's three rows and the switch of
-- artifact_current are written in one transaction, so a reader joining the two sees one pair.
--   version    1, 2, 3, ... per run, in publication order (continues across resumes); the
--              newest three are kept, older ones are deleted when a newer one is published
--   kind       json | markdown | html
--   name       the file name the version is exported under: report.json | report.md | report.html
--   content    the file's exact bytes (UTF-8)
--   sha256     hex SHA-256 of content, checked against the stored bytes before the switch
CREATE TABLE IF NOT EXISTS artifacts (
	run_id     BIGINT NOT NULL REFERENCES runs(id) ON DELETE CASCADE DEFERRABLE,
	version    INTEGER NOT NULL CHECK (version >= 1),
	kind       TEXT NOT NULL CHECK (kind IN ('json', 'markdown', 'html')),
	name       TEXT NOT NULL CHECK (name IN ('report.json', 'report.md', 'report.html')),
	content    BYTEA NOT NULL,
	sha256     TEXT NOT NULL CHECK (length(sha256) = 64),
	created_at TEXT NOT NULL,
	PRIMARY KEY (run_id, version, kind)
);

-- The current published version of each run (the pointer readers follow), switched in the
-- transaction that writes the version's rows.
CREATE TABLE IF NOT EXISTS artifact_current (
	run_id      BIGINT PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE DEFERRABLE,
	version     INTEGER NOT NULL CHECK (version >= 1),
	switched_at TEXT NOT NULL
);

-- API tokens of the HTTP API (`assay serve`), created with `assay tokens create`. The secret is shown once
-- and never stored: only its hash is.
--   user_id       the user the token acts as; runs created with it are owned by this user
--   name          a label for the operator ('' when none)
--   token_sha256  lowercase hex SHA-256 of the secret (unique); a request's token is looked up by its hash
--   created_at    when it was created
--   last_used_at  when it last authenticated a request ('' before its first use)
--   revoked_at    when `assay tokens revoke` revoked it ('' while valid); a revoked token authenticates nothing
CREATE TABLE IF NOT EXISTS api_tokens (
	id           BIGSERIAL PRIMARY KEY,
	user_id      TEXT NOT NULL CHECK (user_id <> ''),
	name         TEXT NOT NULL DEFAULT '',
	token_sha256 TEXT NOT NULL UNIQUE CHECK (length(token_sha256) = 64),
	created_at   TEXT NOT NULL,
	last_used_at TEXT NOT NULL DEFAULT '',
	revoked_at   TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS idx_api_tokens_user ON api_tokens(user_id, id);

-- A user's library: every source the user's runs read, kept once per canonical identity, searched
-- with `--library` and managed with `assay library`. Not scoped to a run: forgetting an entry
-- leaves the runs that cite it as they are, and deleting a run leaves the library as it is.
--   identity      the canonical URL (or DOI) of a web source; for a corpus file, its real path
--                 plus the SHA-256 of its text (a changed file is a new entry)
--   corpus_root   the corpus folder of a corpus file ('' for web sources)
--   sections      JSON [{start, location}]: the named parts of the text (slides, sheets), as read
--   first_run_id, last_run_id  the first and the latest run that read it (no foreign key)
--   the other columns as in `sources`; a later read of the same web identity replaces them
CREATE TABLE IF NOT EXISTS library (
	id               BIGSERIAL PRIMARY KEY,
	user_id          TEXT NOT NULL CHECK (user_id <> ''),
	identity         TEXT NOT NULL CHECK (identity <> ''),
	canonical_anchor TEXT NOT NULL,
	title            TEXT NOT NULL DEFAULT '',
	transport        TEXT NOT NULL CHECK (transport IN ('corpus', 'http')),
	path             TEXT NOT NULL DEFAULT '',
	corpus_root      TEXT NOT NULL DEFAULT '',
	url              TEXT NOT NULL DEFAULT '',
	domain           TEXT NOT NULL DEFAULT '',
	content_type     TEXT NOT NULL DEFAULT '',
	content          TEXT NOT NULL,
	truncated        INTEGER NOT NULL DEFAULT 0 CHECK (truncated IN (0, 1)),
	sha256           TEXT NOT NULL,
	captured_at      TEXT NOT NULL,
	sections         TEXT NOT NULL DEFAULT '[]',
	first_run_id     BIGINT NOT NULL,
	last_run_id      BIGINT NOT NULL,
	created_at       TEXT NOT NULL,
	updated_at       TEXT NOT NULL,
	UNIQUE (user_id, identity)
);
CREATE INDEX IF NOT EXISTS idx_library_user ON library(user_id, id);

-- Sessions of the web UI (`assay serve`): a browser that signed in with an API token. Its cookie holds a
-- random session id, never the token; only the id's hash is stored.
--   session_sha256   lowercase hex SHA-256 of the session id (unique); a request's cookie is looked up by its hash
--   user_id          the user it acts as (its token's)
--   token_id         the API token it was signed in with; `assay tokens revoke` deletes the token's sessions
--   created_at       when it was signed in
--   expires_at       when it ends, however much it is used (created_at + the absolute lifetime)
--   idle_timeout_ms  how long it may go unused (since last_used_at) before it ends
--   last_used_at     when it last authenticated a request (written at most once a minute; created_at at first)
CREATE TABLE IF NOT EXISTS web_sessions (
	id              BIGSERIAL PRIMARY KEY,
	session_sha256  TEXT NOT NULL UNIQUE CHECK (length(session_sha256) = 64),
	user_id         TEXT NOT NULL CHECK (user_id <> ''),
	token_id        BIGINT NOT NULL REFERENCES api_tokens(id) ON DELETE CASCADE DEFERRABLE,
	created_at      TEXT NOT NULL,
	expires_at      TEXT NOT NULL,
	idle_timeout_ms BIGINT NOT NULL CHECK (idle_timeout_ms > 0),
	last_used_at    TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS idx_web_sessions_token ON web_sessions(token_id);
CREATE INDEX IF NOT EXISTS idx_web_sessions_expires ON web_sessions(expires_at);
