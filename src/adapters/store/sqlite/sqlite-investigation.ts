/**
 * Writing one investigative `Mutation` to the SQLite store in one BEGIN IMMEDIATE
 * transaction, with the per-run counters and the status/transition agreement checked
 * inside it. Used by `SqliteStore`.
 */
import type { Database } from "better-sqlite3";
import { describeError, StoreError } from "../../../core/errors.js";
import { chunkId } from "../../../core/ids.js";
import type { Attempt, Challenge, Mutation, Question, Transition } from "../../../core/investigative/types.js";
import { IdConflictError, LedgerIntegrityError } from "../../../ports/investigation-store.js";
import { num, type Row, text } from "../store-rows.js";
import { prepared } from "./sqlite-statements.js";

/** Per-run counters by id prefix: `q_001`, `c_001`, `d_001`, `ch_001`. */
const ID_PATTERN = /^(q|c|d|ch)_(\d+)$/;
const formatId = (prefix: string, n: number): string => `${prefix}_${String(n).padStart(3, "0")}`;

/** Writes one mutation inside an open transaction; throws (and so rolls back) on any violation. */
class MutationWriter {
  readonly #db: Database;
  readonly #runId: number;
  readonly #counters = new Map<string, number>();

  constructor(db: Database, runId: number) {
    this.#db = db;
    this.#runId = runId;
  }

  #get(sql: string, ...values: unknown[]): Row | undefined {
    return prepared(this.#db, sql).get(this.#runId, ...values) as Row | undefined;
  }

  /** Checks that `id` is either stored in `table` or exactly the next of its prefix's counter. */
  #claimId(table: string, id: string, prefixes: readonly string[]): void {
    if (this.#get(`SELECT 1 AS found FROM ${table} WHERE run_id = ? AND id = ?`, id)) return;
    const match = ID_PATTERN.exec(id);
    const prefix = match?.[1];
    if (!match || prefix === undefined || !prefixes.includes(prefix)) {
      throw new IdConflictError(`${id} is not a valid new id for ${table}`);
    }
    let last = this.#counters.get(prefix);
    if (last === undefined) {
      last = 0;
      for (const row of prepared(this.#db, `SELECT id FROM ${table} WHERE run_id = ?`).all(this.#runId) as Row[]) {
        const stored = ID_PATTERN.exec(text(row, "id"));
        if (stored?.[1] === prefix) last = Math.max(last, Number(stored[2]));
      }
    }
    const expected = formatId(prefix, last + 1);
    if (id !== expected) throw new IdConflictError(`new id ${id} is not the next of the run's counter (${expected})`);
    this.#counters.set(prefix, last + 1);
  }

  #nextSeq(table: string, questionId: string, seq: number, what: string): void {
    const row = this.#get(
      `SELECT COALESCE(MAX(seq), 0) + 1 AS next FROM ${table} WHERE run_id = ? AND question_id = ?`,
      questionId,
    );
    const next = row ? num(row, "next") : 1;
    if (seq !== next) throw new IdConflictError(`${what} seq ${seq} of ${questionId} is not the next (${next})`);
  }

  #requireSource(id: string): void {
    if (!this.#get("SELECT 1 AS found FROM sources WHERE run_id = ? AND id = ?", id)) {
      throw new LedgerIntegrityError(`${id} is not a persisted source of run ${this.#runId}`);
    }
  }

  /** Each chunk id must name a stored chunk of `sourceId` (`s_001.p03` is chunk 3 of `s_001`). */
  #requireChunks(sourceId: string, chunkIds: readonly string[]): void {
    const prefix = `${sourceId}.p`;
    for (const id of chunkIds) {
      const seq = id.startsWith(prefix) ? Number(id.slice(prefix.length)) : Number.NaN;
      const canonical = Number.isSafeInteger(seq) && seq >= 1 && chunkId(sourceId, seq) === id;
      if (
        !canonical ||
        !this.#get("SELECT 1 AS found FROM chunks WHERE run_id = ? AND source_id = ? AND seq = ?", sourceId, seq)
      ) {
        throw new LedgerIntegrityError(`${id} is not a stored passage of ${sourceId} in run ${this.#runId}`);
      }
    }
  }

  /** Runs `sql` with named parameters; `@runId` is this run. */
  #write(sql: string, values: object): number {
    return prepared(this.#db, sql).run({ ...values, runId: this.#runId }).changes;
  }

  questions(questions: readonly Question[]): void {
    for (const q of questions) {
      this.#claimId("inv_questions", q.id, ["q"]);
      this.#write(
        `INSERT INTO inv_questions (run_id, id, parent_id, depth, kind, question, rationale, priority, status,
           validation_criteria, target_sources, answer, claim_ids, exemption, claimed_by, agent, reopens, created_at, updated_at)
         VALUES (@runId, @id, @parentId, @depth, @kind, @question, @rationale, @priority, @status, @validationCriteria,
           @targetSources, @answer, @claimIds, @exemption, @claimedBy, @agent, @reopens, @createdAt, @updatedAt)
         ON CONFLICT (run_id, id) DO UPDATE SET parent_id = excluded.parent_id, depth = excluded.depth,
           kind = excluded.kind, question = excluded.question, rationale = excluded.rationale,
           priority = excluded.priority, status = excluded.status, validation_criteria = excluded.validation_criteria,
           target_sources = excluded.target_sources, answer = excluded.answer, claim_ids = excluded.claim_ids,
           exemption = excluded.exemption, claimed_by = excluded.claimed_by, agent = excluded.agent, reopens = excluded.reopens,
           updated_at = excluded.updated_at`,
        { ...q, targetSources: JSON.stringify(q.targetSources), claimIds: JSON.stringify(q.claimIds) },
      );
    }
  }

  dependencies(mutation: Mutation): void {
    for (const dependency of mutation.dependencies) {
      this.#write(
        `INSERT OR IGNORE INTO inv_dependencies (run_id, question_id, depends_on_id)
         VALUES (@runId, @questionId, @dependsOnId)`,
        dependency,
      );
    }
  }

  attempts(attempts: readonly Attempt[]): void {
    for (const attempt of attempts) {
      this.#nextSeq("inv_attempts", attempt.questionId, attempt.seq, "attempt");
      this.#write(
        `INSERT INTO inv_attempts (run_id, question_id, seq, query, tool, outcome, created_at)
         VALUES (@runId, @questionId, @seq, @query, @tool, @outcome, @createdAt)`,
        attempt,
      );
    }
  }

  transitions(transitions: readonly Transition[]): void {
    for (const transition of transitions) {
      this.#nextSeq("inv_transitions", transition.questionId, transition.seq, "transition");
      this.#write(
        `INSERT INTO inv_transitions (run_id, question_id, seq, from_status, to_status, trigger, actor, reason, priority,
           attempts, caused_by, state_seq, created_at)
         VALUES (@runId, @questionId, @seq, @fromStatus, @toStatus, @trigger, @actor, @reason, @priority, @attempts,
           @causedBy, @stateSeq, @createdAt)`,
        transition,
      );
    }
  }

  /** Every question the mutation touched ends with a latest transition equal to its status. */
  checkStatuses(mutation: Mutation): void {
    const touched = new Set([...mutation.questions.map((q) => q.id), ...mutation.transitions.map((t) => t.questionId)]);
    for (const id of touched) {
      const row = this.#get(
        `SELECT q.status, (SELECT t.to_status FROM inv_transitions t WHERE t.run_id = q.run_id AND t.question_id = q.id
           ORDER BY t.seq DESC LIMIT 1) AS latest FROM inv_questions q WHERE q.run_id = ? AND q.id = ?`,
        id,
      );
      if (!row) throw new LedgerIntegrityError(`transition for unknown question ${id}`);
      if (row.latest !== row.status) {
        throw new LedgerIntegrityError(
          `question ${id} has status ${text(row, "status")} but its latest transition is ${row.latest === null ? "missing" : text(row, "latest")}`,
        );
      }
    }
  }

  claims(mutation: Mutation): void {
    for (const claim of mutation.claims) {
      this.#claimId("inv_claims", claim.id, ["c", "d"]);
      this.#write(
        `INSERT INTO inv_claims (run_id, id, question_id, kind, text, value, unit, status, check_text, independence,
           created_at, updated_at)
         VALUES (@runId, @id, @questionId, @kind, @text, @value, @unit, @status, @check, @independence, @createdAt,
           @updatedAt)
         ON CONFLICT (run_id, id) DO UPDATE SET question_id = excluded.question_id, kind = excluded.kind,
           text = excluded.text, value = excluded.value, unit = excluded.unit, status = excluded.status,
           check_text = excluded.check_text, independence = excluded.independence, updated_at = excluded.updated_at`,
        claim,
      );
    }
    for (const link of mutation.claimSources) {
      this.#requireSource(link.sourceId);
      this.#requireChunks(link.sourceId, link.chunkIds);
      this.#write(
        `INSERT INTO inv_claim_sources (run_id, claim_id, source_id, stance, chunk_ids)
         VALUES (@runId, @claimId, @sourceId, @stance, @chunkIds)
         ON CONFLICT (run_id, claim_id, source_id) DO UPDATE SET stance = excluded.stance, chunk_ids = excluded.chunk_ids`,
        { ...link, chunkIds: JSON.stringify(link.chunkIds) },
      );
    }
    for (const link of mutation.contradictions) {
      this.#write(
        `INSERT INTO inv_claim_links (run_id, claim_id, other_claim_id, question_id, addressed)
         VALUES (@runId, @claimId, @otherClaimId, @questionId, @addressed)
         ON CONFLICT (run_id, claim_id, other_claim_id) DO UPDATE SET question_id = excluded.question_id,
           addressed = excluded.addressed`,
        { ...link, addressed: link.addressed ? 1 : 0 },
      );
    }
  }

  #attemptId(challenge: Challenge): number | null {
    if (!challenge.attempt) return null;
    const { questionId, seq } = challenge.attempt;
    const row = this.#get(
      "SELECT id FROM inv_attempts WHERE run_id = ? AND question_id = ? AND seq = ?",
      questionId,
      seq,
    );
    if (!row)
      throw new LedgerIntegrityError(`challenge ${challenge.id} cites attempt ${seq} of ${questionId}, not stored`);
    return num(row, "id");
  }

  challenges(challenges: readonly Challenge[]): void {
    for (const challenge of challenges) {
      this.#claimId("inv_challenges", challenge.id, ["ch"]);
      this.#write(
        `INSERT INTO inv_challenges (run_id, id, question_id, target_type, target_id, negation, strategy, expected_if_false,
           query, attempt_id, status, outcome, evidence, result_claim_id, created_at, closed_at)
         VALUES (@runId, @id, @questionId, @targetType, @targetId, @negation, @strategy, @expectedIfFalse, @query,
           @attemptId, @status, @outcome, @evidence, @resultClaimId, @createdAt, @closedAt)
         ON CONFLICT (run_id, id) DO UPDATE SET question_id = excluded.question_id, target_type = excluded.target_type,
           target_id = excluded.target_id, negation = excluded.negation, strategy = excluded.strategy,
           expected_if_false = excluded.expected_if_false, query = excluded.query, attempt_id = excluded.attempt_id,
           status = excluded.status, outcome = excluded.outcome, evidence = excluded.evidence,
           result_claim_id = excluded.result_claim_id, closed_at = excluded.closed_at`,
        { ...challenge, attemptId: this.#attemptId(challenge) },
      );
      // The challenge carries its whole current source list: replace the stored one.
      this.#write("DELETE FROM inv_challenge_sources WHERE run_id = @runId AND challenge_id = @id", challenge);
      for (const sourceId of new Set(challenge.sourceIds)) {
        this.#requireSource(sourceId);
        this.#write(
          "INSERT INTO inv_challenge_sources (run_id, challenge_id, source_id) VALUES (@runId, @id, @sourceId)",
          { id: challenge.id, sourceId },
        );
      }
    }
  }

  sourceNotes(mutation: Mutation): void {
    for (const source of mutation.sources) {
      if (this.#write("UPDATE sources SET note = @note WHERE run_id = @runId AND id = @id", source) === 0) {
        throw new LedgerIntegrityError(`${source.id} is not a persisted source of run ${this.#runId}`);
      }
    }
  }

  notes(notes: NonNullable<Mutation["notes"]>, stateSeq: number, now: string): number {
    const row = this.#get("SELECT COALESCE(MAX(seq), 0) + 1 AS next FROM inv_notes_versions WHERE run_id = ?");
    const seq = row ? num(row, "next") : 1;
    this.#write(
      `INSERT INTO inv_notes_versions (run_id, seq, state_seq, reason, text, created_at)
       VALUES (@runId, @seq, @stateSeq, @reason, @text, @now)`,
      { ...notes, seq, stateSeq, now },
    );
    return seq;
  }
}

/**
 * Writes every row of `mutation` in one BEGIN IMMEDIATE transaction, or nothing. Typed
 * errors (`IdConflictError`, `LedgerIntegrityError`) pass through; any other failure
 * becomes a `StoreError`.
 */
export function applyMutation(
  db: Database,
  runId: number,
  mutation: Mutation,
  options: { stateSeq: number; now: string; guard?: () => void },
): { notesSeq?: number } {
  const write = db.transaction((): { notesSeq?: number } => {
    options.guard?.();
    // Rows of one mutation may reference each other in any order; keys are checked at commit.
    db.pragma("defer_foreign_keys = ON");
    const writer = new MutationWriter(db, runId);
    writer.questions(mutation.questions);
    writer.dependencies(mutation);
    writer.attempts(mutation.attempts);
    writer.transitions(mutation.transitions);
    writer.checkStatuses(mutation);
    writer.claims(mutation);
    writer.challenges(mutation.challenges);
    writer.sourceNotes(mutation);
    return mutation.notes ? { notesSeq: writer.notes(mutation.notes, options.stateSeq, options.now) } : {};
  });
  try {
    return write.immediate();
  } catch (error) {
    if (error instanceof StoreError) throw error;
    throw new StoreError(`the investigation change of run ${runId} was not written: ${describeError(error)}`, {
      cause: error,
    });
  }
}
