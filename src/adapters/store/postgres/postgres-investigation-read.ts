/**
 * Reading the investigative tables of the PostgreSQL store (inv_*, and `sources` as the
 * ledger's sources) back into the core's values, from one REPEATABLE READ snapshot. Used by
 * `PostgresStore`.
 */
import type pg from "pg";
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
import { inTransaction } from "./postgres-connection.js";

/** Id order: by prefix, then numerically (`q_999` before `q_1000`); byte order, whatever the database's collation. */
const idOrder = (column: string): string =>
  `substr(${column}, 1, strpos(${column}, '_')) COLLATE "C", length(${column}), ${column} COLLATE "C"`;

/** Reads the whole investigation of a run. */
export async function loadInvestigation(pool: pg.Pool, runId: number): Promise<StoredInvestigation> {
  return inTransaction(
    pool,
    async (client) => {
      const all = async (sql: string): Promise<Row[]> => (await client.query<Row>(sql, [runId])).rows;
      const challengeSources = challengeSourceMap(
        await all("SELECT challenge_id, source_id FROM inv_challenge_sources WHERE run_id = $1 ORDER BY rowid"),
      );
      const [latest] = await all(
        "SELECT seq, text, reason FROM inv_notes_versions WHERE run_id = $1 ORDER BY seq DESC LIMIT 1",
      );
      const [counted] = await all("SELECT COUNT(*) AS count FROM inv_notes_versions WHERE run_id = $1");
      return {
        questions: (await all(`SELECT * FROM inv_questions WHERE run_id = $1 ORDER BY ${idOrder("id")}`)).map(
          questionFromRow,
        ),
        dependencies: (await all("SELECT * FROM inv_dependencies WHERE run_id = $1 ORDER BY rowid")).map(
          dependencyFromRow,
        ),
        attempts: (await all("SELECT * FROM inv_attempts WHERE run_id = $1 ORDER BY id")).map(attemptFromRow),
        transitions: (await all("SELECT * FROM inv_transitions WHERE run_id = $1 ORDER BY id")).map(transitionFromRow),
        sources: (
          await all(
            `SELECT id, path, url, domain, title, note FROM sources WHERE run_id = $1 ORDER BY ${idOrder("id")}`,
          )
        ).map(ledgerSourceFromRow),
        claims: (await all(`SELECT * FROM inv_claims WHERE run_id = $1 ORDER BY ${idOrder("id")}`)).map(claimFromRow),
        claimSources: (await all("SELECT * FROM inv_claim_sources WHERE run_id = $1 ORDER BY rowid")).map(
          claimSourceFromRow,
        ),
        contradictions: (await all("SELECT * FROM inv_claim_links WHERE run_id = $1 ORDER BY rowid")).map(
          contradictionFromRow,
        ),
        challenges: (
          await all(
            `SELECT c.*, a.question_id AS attempt_question_id, a.seq AS attempt_seq FROM inv_challenges c
             LEFT JOIN inv_attempts a ON a.id = c.attempt_id WHERE c.run_id = $1 ORDER BY ${idOrder("c.id")}`,
          )
        ).map((row) => challengeFromRow(row, challengeSources.get(text(row, "id")) ?? [])),
        notesVersions: counted ? num(counted, "count") : 0,
        latestNotes: latest
          ? { seq: num(latest, "seq"), text: text(latest, "text"), reason: text(latest, "reason") as NotesReason }
          : undefined,
      };
    },
    { isolation: "repeatable read", readOnly: true },
  );
}

/** All notes versions of a run, oldest first. */
export async function listNotesVersions(pool: pg.Pool, runId: number): Promise<NotesVersion[]> {
  const result = await pool.query<Row>("SELECT * FROM inv_notes_versions WHERE run_id = $1 ORDER BY seq", [runId]);
  return result.rows.map(notesVersionFromRow);
}
