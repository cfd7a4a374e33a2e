/**
 * Reading the investigative tables of the SQLite store (inv_*, and `sources` as the
 * ledger's sources) back into the core's values. Used by `SqliteStore`.
 */
import type { Database } from "better-sqlite3";
import type { NotesReason, NotesVersion, StoredInvestigation } from "../../../ports/investigation-store.js";
import {
  attemptFromRow,
  challengeFromRow,
  challengeSourceMap,
  claimFromRow,
  claimSourceFromRow,
  contradictionFromRow,
  dependencyFromRow,
  ledgerSourceFromRow,
  notesVersionFromRow,
  num,
  questionFromRow,
  type Row,
  text,
  transitionFromRow,
} from "../store-rows.js";
import { prepared } from "./sqlite-statements.js";

/** Id order: by prefix, then numerically (`q_999` before `q_1000`). */
const ID_ORDER = "SUBSTR(id, 1, INSTR(id, '_')), LENGTH(id), id";

/** Reads the whole investigation of a run. */
export function loadInvestigation(db: Database, runId: number): StoredInvestigation {
  const all = (sql: string): Row[] => prepared(db, sql).all(runId) as Row[];
  const challengeSources = challengeSourceMap(
    all("SELECT challenge_id, source_id FROM inv_challenge_sources WHERE run_id = ? ORDER BY rowid"),
  );
  const latest = prepared(
    db,
    "SELECT seq, text, reason FROM inv_notes_versions WHERE run_id = ? ORDER BY seq DESC LIMIT 1",
  ).get(runId) as Row | undefined;
  const { count } = prepared(db, "SELECT COUNT(*) AS count FROM inv_notes_versions WHERE run_id = ?").get(runId) as {
    count: number;
  };
  return {
    questions: all(`SELECT * FROM inv_questions WHERE run_id = ? ORDER BY ${ID_ORDER}`).map(questionFromRow),
    dependencies: all("SELECT * FROM inv_dependencies WHERE run_id = ? ORDER BY rowid").map(dependencyFromRow),
    attempts: all("SELECT * FROM inv_attempts WHERE run_id = ? ORDER BY id").map(attemptFromRow),
    transitions: all("SELECT * FROM inv_transitions WHERE run_id = ? ORDER BY id").map(transitionFromRow),
    sources: all(`SELECT id, path, url, domain, title, note FROM sources WHERE run_id = ? ORDER BY ${ID_ORDER}`).map(
      ledgerSourceFromRow,
    ),
    claims: all(`SELECT * FROM inv_claims WHERE run_id = ? ORDER BY ${ID_ORDER}`).map(claimFromRow),
    claimSources: all("SELECT * FROM inv_claim_sources WHERE run_id = ? ORDER BY rowid").map(claimSourceFromRow),
    contradictions: all("SELECT * FROM inv_claim_links WHERE run_id = ? ORDER BY rowid").map(contradictionFromRow),
    challenges: all(
      `SELECT c.*, a.question_id AS attempt_question_id, a.seq AS attempt_seq FROM inv_challenges c
       LEFT JOIN inv_attempts a ON a.id = c.attempt_id WHERE c.run_id = ?
       ORDER BY SUBSTR(c.id, 1, INSTR(c.id, '_')), LENGTH(c.id), c.id`,
    ).map((row) => challengeFromRow(row, challengeSources.get(text(row, "id")) ?? [])),
    notesVersions: count,
    latestNotes: latest
      ? { seq: num(latest, "seq"), text: text(latest, "text"), reason: text(latest, "reason") as NotesReason }
      : undefined,
  };
}

/** All notes versions of a run, oldest first. */
export function listNotesVersions(db: Database, runId: number): NotesVersion[] {
  const rows = prepared(db, "SELECT * FROM inv_notes_versions WHERE run_id = ? ORDER BY seq").all(runId) as Row[];
  return rows.map(notesVersionFromRow);
}
