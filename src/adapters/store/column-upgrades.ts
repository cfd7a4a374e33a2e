/**
 * The columns added to the store's tables after they first shipped, and the indexes on them:
 * one list for both backends (SQLite and PostgreSQL use the same definitions). Each column is
 * also in each backend's schema.sql, so a new database has it and its upgrade is skipped.
 */
export interface ColumnUpgrade {
  table: string;
  column: string;
  /** Column definition as in `ALTER TABLE t ADD COLUMN <column> <definition>`. */
  definition: string;
}

export const COLUMN_UPGRADES: readonly ColumnUpgrade[] = [
  { table: "runs", column: "worker", definition: "TEXT NOT NULL DEFAULT ''" },
  { table: "runs", column: "finished_at", definition: "TEXT NOT NULL DEFAULT ''" },
  { table: "sources", column: "content_type", definition: "TEXT NOT NULL DEFAULT ''" },
  { table: "runs", column: "model", definition: "TEXT NOT NULL DEFAULT 'none'" },
  { table: "runs", column: "notes_id", definition: "TEXT NOT NULL DEFAULT ''" },
  {
    table: "runs",
    column: "phase",
    definition: "TEXT NOT NULL DEFAULT '' CHECK (phase IN ('', 'exploration', 'synthesis'))",
  },
  { table: "runs", column: "stop_reason", definition: "TEXT NOT NULL DEFAULT ''" },
  { table: "runs", column: "user_id", definition: "TEXT NOT NULL DEFAULT 'local'" },
  { table: "sources", column: "note", definition: "TEXT NOT NULL DEFAULT ''" },
  { table: "runs", column: "options", definition: "TEXT NOT NULL DEFAULT '{}'" },
  { table: "runs", column: "heartbeat_at", definition: "TEXT NOT NULL DEFAULT ''" },
  { table: "runs", column: "cancel_requested_at", definition: "TEXT NOT NULL DEFAULT ''" },
  { table: "runs", column: "lease_holder", definition: "TEXT NOT NULL DEFAULT ''" },
  { table: "runs", column: "lease_epoch", definition: "INTEGER NOT NULL DEFAULT 0" },
  { table: "runs", column: "lease_expires_at", definition: "TEXT NOT NULL DEFAULT ''" },
  { table: "inv_claim_sources", column: "chunk_ids", definition: "TEXT NOT NULL DEFAULT '[]'" },
  { table: "inv_questions", column: "agent", definition: "INTEGER NOT NULL DEFAULT 0 CHECK (agent >= 0)" },
  { table: "chunks", column: "location", definition: "TEXT NOT NULL DEFAULT ''" },
  { table: "runs", column: "parent_id", definition: "BIGINT NOT NULL DEFAULT 0" },
  {
    table: "runs",
    column: "relation",
    definition: "TEXT NOT NULL DEFAULT '' CHECK (relation IN ('', 'follow-up', 'revision'))",
  },
  { table: "runs", column: "instruction", definition: "TEXT NOT NULL DEFAULT ''" },
  {
    table: "sources",
    column: "reused",
    definition: "TEXT NOT NULL DEFAULT '' CHECK (reused IN ('', 'parent', 'library'))",
  },
];

/** Indexes on upgraded columns, created after the upgrades. */
export const POST_UPGRADE_INDEXES: readonly string[] = [
  "CREATE INDEX IF NOT EXISTS idx_runs_worker ON runs(worker) WHERE worker <> ''",
  "CREATE INDEX IF NOT EXISTS idx_runs_user ON runs(user_id, id)",
  "CREATE INDEX IF NOT EXISTS idx_runs_parent ON runs(parent_id) WHERE parent_id <> 0",
];
