/**
 * Reading the investigative tables of the SQLite store (inv_*, and `sources` as the
 * ledger's sources) back into the core's values. Used by `SqliteStore`.
 */
import type { Database } from "better-sqlite3";
import { describeError, StoreError } from "../../../core/errors.js";
import type {
  Attempt,
  Challenge,
  Claim,
  Question,
  QuestionStatus,
  Transition,
} from "../../../core/investigative/types.js";
import type { NotesReason, NotesVersion, StoredInvestigation } from "../../../ports/investigation-store.js";

export type Row = Record<string, unknown>;

export const text = (row: Row, key: string): string => String(row[key] ?? "");
export const num = (row: Row, key: string): number => Number(row[key] ?? 0);
const nullableText = (row: Row, key: string): string | null => (row[key] === null ? null : text(row, key));

/** Id order: by prefix, then numerically (`q_999` before `q_1000`). */
const ID_ORDER = "SUBSTR(id, 1, INSTR(id, '_')), LENGTH(id), id";

function stringArray(value: unknown, what: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(String(value));
  } catch (error) {
    throw new StoreError(`stored ${what} is not valid JSON: ${describeError(error)}`);
  }
  if (!Array.isArray(parsed) || !parsed.every((item) => typeof item === "string")) {
    throw new StoreError(`stored ${what} is not an array of strings`);
  }
  return parsed;
}

function questionFromRow(row: Row): Question {
  const claimedBy = row.claimed_by;
  return {
    id: text(row, "id"),
    parentId: nullableText(row, "parent_id"),
    depth: num(row, "depth"),
    kind: text(row, "kind") as Question["kind"],
    question: text(row, "question"),
    rationale: text(row, "rationale"),
    priority: num(row, "priority"),
    status: text(row, "status") as QuestionStatus,
    validationCriteria: text(row, "validation_criteria"),
    targetSources: stringArray(row.target_sources, "target sources"),
    answer: text(row, "answer"),
    claimIds: stringArray(row.claim_ids, "claim ids"),
    exemption: text(row, "exemption"),
    claimedBy: claimedBy === null || claimedBy === undefined ? null : Number(claimedBy),
    reopens: num(row, "reopens"),
    createdAt: text(row, "created_at"),
    updatedAt: text(row, "updated_at"),
  };
}

function transitionFromRow(row: Row): Transition {
  return {
    questionId: text(row, "question_id"),
    seq: num(row, "seq"),
    fromStatus: text(row, "from_status") as Transition["fromStatus"],
    toStatus: text(row, "to_status") as QuestionStatus,
    trigger: text(row, "trigger") as Transition["trigger"],
    actor: text(row, "actor") as Transition["actor"],
    reason: text(row, "reason"),
    priority: num(row, "priority"),
    attempts: num(row, "attempts"),
    causedBy: text(row, "caused_by"),
    stateSeq: num(row, "state_seq"),
    createdAt: text(row, "created_at"),
  };
}

function claimFromRow(row: Row): Claim {
  return {
    id: text(row, "id"),
    questionId: nullableText(row, "question_id"),
    kind: text(row, "kind") as Claim["kind"],
    text: text(row, "text"),
    value: text(row, "value"),
    unit: text(row, "unit"),
    status: text(row, "status") as Claim["status"],
    check: text(row, "check_text"),
    independence: text(row, "independence"),
    createdAt: text(row, "created_at"),
    updatedAt: text(row, "updated_at"),
  };
}

function challengeFromRow(row: Row, sourceIds: string[]): Challenge {
  const attemptQuestion = row.attempt_question_id;
  return {
    id: text(row, "id"),
    questionId: nullableText(row, "question_id"),
    targetType: text(row, "target_type") as Challenge["targetType"],
    targetId: text(row, "target_id"),
    negation: text(row, "negation"),
    strategy: text(row, "strategy") as Challenge["strategy"],
    expectedIfFalse: text(row, "expected_if_false"),
    query: text(row, "query"),
    attempt:
      attemptQuestion === null || attemptQuestion === undefined
        ? null
        : { questionId: String(attemptQuestion), seq: num(row, "attempt_seq") },
    status: text(row, "status") as Challenge["status"],
    outcome: text(row, "outcome") as Challenge["outcome"],
    evidence: text(row, "evidence"),
    sourceIds,
    resultClaimId: nullableText(row, "result_claim_id"),
    createdAt: text(row, "created_at"),
    closedAt: nullableText(row, "closed_at"),
  };
}

/** Reads the whole investigation of a run. */
export function loadInvestigation(db: Database, runId: number): StoredInvestigation {
  const all = (sql: string): Row[] => db.prepare(sql).all(runId) as Row[];
  const challengeSources = new Map<string, string[]>();
  for (const row of all("SELECT challenge_id, source_id FROM inv_challenge_sources WHERE run_id = ? ORDER BY rowid")) {
    const list = challengeSources.get(text(row, "challenge_id")) ?? [];
    list.push(text(row, "source_id"));
    challengeSources.set(text(row, "challenge_id"), list);
  }
  const latest = db
    .prepare("SELECT seq, text, reason FROM inv_notes_versions WHERE run_id = ? ORDER BY seq DESC LIMIT 1")
    .get(runId) as Row | undefined;
  const { count } = db.prepare("SELECT COUNT(*) AS count FROM inv_notes_versions WHERE run_id = ?").get(runId) as {
    count: number;
  };
  return {
    questions: all(`SELECT * FROM inv_questions WHERE run_id = ? ORDER BY ${ID_ORDER}`).map(questionFromRow),
    dependencies: all("SELECT * FROM inv_dependencies WHERE run_id = ? ORDER BY rowid").map((row) => ({
      questionId: text(row, "question_id"),
      dependsOnId: text(row, "depends_on_id"),
    })),
    attempts: all("SELECT * FROM inv_attempts WHERE run_id = ? ORDER BY id").map(
      (row): Attempt => ({
        questionId: text(row, "question_id"),
        seq: num(row, "seq"),
        query: text(row, "query"),
        tool: text(row, "tool"),
        outcome: text(row, "outcome"),
        createdAt: text(row, "created_at"),
      }),
    ),
    transitions: all("SELECT * FROM inv_transitions WHERE run_id = ? ORDER BY id").map(transitionFromRow),
    sources: all(`SELECT id, path, url, domain, title, note FROM sources WHERE run_id = ? ORDER BY ${ID_ORDER}`).map(
      (row) => {
        const path = text(row, "path");
        // A corpus document has no domain: the document itself is its independence key.
        const domain = text(row, "domain") || (path ? `corpus:${path}` : "");
        return {
          id: text(row, "id"),
          location: text(row, "url") || path,
          domain,
          title: text(row, "title"),
          note: text(row, "note"),
        };
      },
    ),
    claims: all(`SELECT * FROM inv_claims WHERE run_id = ? ORDER BY ${ID_ORDER}`).map(claimFromRow),
    claimSources: all("SELECT * FROM inv_claim_sources WHERE run_id = ? ORDER BY rowid").map((row) => ({
      claimId: text(row, "claim_id"),
      sourceId: text(row, "source_id"),
      stance: text(row, "stance") as "supports" | "contradicts",
      chunkIds: stringArray(row.chunk_ids, "claim passages"),
    })),
    contradictions: all("SELECT * FROM inv_claim_links WHERE run_id = ? ORDER BY rowid").map((row) => ({
      claimId: text(row, "claim_id"),
      otherClaimId: text(row, "other_claim_id"),
      questionId: text(row, "question_id"),
      addressed: num(row, "addressed") === 1,
    })),
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
  const rows = db.prepare("SELECT * FROM inv_notes_versions WHERE run_id = ? ORDER BY seq").all(runId) as Row[];
  return rows.map((row) => ({
    seq: num(row, "seq"),
    stateSeq: num(row, "state_seq"),
    reason: text(row, "reason") as NotesReason,
    text: text(row, "text"),
    createdAt: text(row, "created_at"),
  }));
}
