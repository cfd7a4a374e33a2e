/**
 * Writing one investigative `Mutation` to the PostgreSQL store in one transaction: the run's
 * row lock serializes writers of a run (as SQLite's BEGIN IMMEDIATE does), foreign keys are
 * deferred to COMMIT, and the per-run counters and the status/transition agreement are checked
 * inside it. Used by `PostgresStore`.
 */
import type pg from "pg";
import { describeError, StoreError } from "../../../core/errors.js";
import { chunkId } from "../../../core/ids.js";
import type { Attempt, Challenge, Mutation, Question, Transition } from "../../../core/investigative/types.js";
import { IdConflictError, LedgerIntegrityError } from "../../../ports/investigation-store.js";
import type { StoreFence } from "../../../ports/store.js";
import { num, type Row, text } from "../store-rows.js";
import { inTransaction, lockRun } from "./postgres-connection.js";

/** Per-run counters by id prefix: `q_001`, `c_001`, `d_001`, `ch_001`. */
const ID_PATTERN = /^(q|c|d|ch)_(\d+)$/;
const formatId = (prefix: string, n: number): string => `${prefix}_${String(n).padStart(3, "0")}`;

/** `@name` placeholders (as in the SQLite writer) turned into `$n` with their values. Pure. */
export function positional(sql: string, values: Record<string, unknown>): { text: string; values: unknown[] } {
  const names: string[] = [];
  const converted = sql.replace(/@([A-Za-z]+)/g, (_, name: string) => {
    if (!Object.hasOwn(values, name)) throw new Error(`no value for @${name}`);
    let index = names.indexOf(name);
    if (index < 0) index = names.push(name) - 1;
    return `$${index + 1}`;
  });
  return { text: converted, values: names.map((name) => values[name]) };
}

/** Writes one mutation inside an open transaction; throws (and so rolls back) on any violation. */
class MutationWriter {
  readonly #client: pg.PoolClient;
  readonly #runId: number;
  readonly #counters = new Map<string, number>();

  constructor(client: pg.PoolClient, runId: number) {
    this.#client = client;
    this.#runId = runId;
  }

  /** The first row of `sql`, whose `$1` is this run. */
  async #get(sql: string, ...values: unknown[]): Promise<Row | undefined> {
    return (await this.#client.query<Row>(sql, [this.#runId, ...values])).rows[0];
  }

  /** Runs `sql` with named parameters; `@runId` is this run. Returns the affected row count. */
  async #write(sql: string, values: object): Promise<number> {
    const query = positional(sql, { ...values, runId: this.#runId });
    return (await this.#client.query(query.text, query.values)).rowCount ?? 0;
  }

  /** Checks that `id` is either stored in `table` or exactly the next of its prefix's counter. */
  async #claimId(table: string, id: string, prefixes: readonly string[]): Promise<void> {
    if (await this.#get(`SELECT 1 AS found FROM ${table} WHERE run_id = $1 AND id = $2`, id)) return;
    const match = ID_PATTERN.exec(id);
    const prefix = match?.[1];
    if (!match || prefix === undefined || !prefixes.includes(prefix)) {
      throw new IdConflictError(`${id} is not a valid new id for ${table}`);
    }
    let last = this.#counters.get(prefix);
    if (last === undefined) {
      last = 0;
      const rows = await this.#client.query<Row>(`SELECT id FROM ${table} WHERE run_id = $1`, [this.#runId]);
      for (const row of rows.rows) {
        const stored = ID_PATTERN.exec(text(row, "id"));
        if (stored?.[1] === prefix) last = Math.max(last, Number(stored[2]));
      }
    }
    const expected = formatId(prefix, last + 1);
    if (id !== expected) throw new IdConflictError(`new id ${id} is not the next of the run's counter (${expected})`);
    this.#counters.set(prefix, last + 1);
  }

  async #nextSeq(table: string, questionId: string, seq: number, what: string): Promise<void> {
    const row = await this.#get(
      `SELECT COALESCE(MAX(seq), 0) + 1 AS next FROM ${table} WHERE run_id = $1 AND question_id = $2`,
      questionId,
    );
    const next = row ? num(row, "next") : 1;
    if (seq !== next) throw new IdConflictError(`${what} seq ${seq} of ${questionId} is not the next (${next})`);
  }

  async #requireSource(id: string): Promise<void> {
    if (!(await this.#get("SELECT 1 AS found FROM sources WHERE run_id = $1 AND id = $2", id))) {
      throw new LedgerIntegrityError(`${id} is not a persisted source of run ${this.#runId}`);
    }
  }

  /** Each chunk id must name a stored chunk of `sourceId` (`s_001.p03` is chunk 3 of `s_001`). */
  async #requireChunks(sourceId: string, chunkIds: readonly string[]): Promise<void> {
    const prefix = `${sourceId}.p`;
    for (const id of chunkIds) {
      const seq = id.startsWith(prefix) ? Number(id.slice(prefix.length)) : Number.NaN;
      const canonical = Number.isSafeInteger(seq) && seq >= 1 && seq <= 2 ** 31 - 1 && chunkId(sourceId, seq) === id;
      const found =
        canonical &&
        (await this.#get(
          "SELECT 1 AS found FROM chunks WHERE run_id = $1 AND source_id = $2 AND seq = $3",
          sourceId,
          seq,
        ));
      if (!found) throw new LedgerIntegrityError(`${id} is not a stored passage of ${sourceId} in run ${this.#runId}`);
    }
  }

  async questions(questions: readonly Question[]): Promise<void> {
    for (const q of questions) {
      await this.#claimId("inv_questions", q.id, ["q"]);
      await this.#write(
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

  async dependencies(mutation: Mutation): Promise<void> {
    for (const dependency of mutation.dependencies) {
      await this.#write(
        `INSERT INTO inv_dependencies (run_id, question_id, depends_on_id)
         VALUES (@runId, @questionId, @dependsOnId) ON CONFLICT DO NOTHING`,
        dependency,
      );
    }
  }

  async attempts(attempts: readonly Attempt[]): Promise<void> {
    for (const attempt of attempts) {
      await this.#nextSeq("inv_attempts", attempt.questionId, attempt.seq, "attempt");
      await this.#write(
        `INSERT INTO inv_attempts (run_id, question_id, seq, query, tool, outcome, created_at)
         VALUES (@runId, @questionId, @seq, @query, @tool, @outcome, @createdAt)`,
        attempt,
      );
    }
  }

  async transitions(transitions: readonly Transition[]): Promise<void> {
    for (const transition of transitions) {
      await this.#nextSeq("inv_transitions", transition.questionId, transition.seq, "transition");
      await this.#write(
        `INSERT INTO inv_transitions (run_id, question_id, seq, from_status, to_status, trigger, actor, reason, priority,
           attempts, caused_by, state_seq, created_at)
         VALUES (@runId, @questionId, @seq, @fromStatus, @toStatus, @trigger, @actor, @reason, @priority, @attempts,
           @causedBy, @stateSeq, @createdAt)`,
        transition,
      );
    }
  }

  /** Every question the mutation touched ends with a latest transition equal to its status. */
  async checkStatuses(mutation: Mutation): Promise<void> {
    const touched = new Set([...mutation.questions.map((q) => q.id), ...mutation.transitions.map((t) => t.questionId)]);
    for (const id of touched) {
      const row = await this.#get(
        `SELECT q.status, (SELECT t.to_status FROM inv_transitions t WHERE t.run_id = q.run_id AND t.question_id = q.id
           ORDER BY t.seq DESC LIMIT 1) AS latest FROM inv_questions q WHERE q.run_id = $1 AND q.id = $2`,
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

  async claims(mutation: Mutation): Promise<void> {
    for (const claim of mutation.claims) {
      await this.#claimId("inv_claims", claim.id, ["c", "d"]);
      await this.#write(
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
      await this.#requireSource(link.sourceId);
      await this.#requireChunks(link.sourceId, link.chunkIds);
      await this.#write(
        `INSERT INTO inv_claim_sources (run_id, claim_id, source_id, stance, chunk_ids)
         VALUES (@runId, @claimId, @sourceId, @stance, @chunkIds)
         ON CONFLICT (run_id, claim_id, source_id) DO UPDATE SET stance = excluded.stance, chunk_ids = excluded.chunk_ids`,
        { ...link, chunkIds: JSON.stringify(link.chunkIds) },
      );
    }
    for (const link of mutation.contradictions) {
      await this.#write(
        `INSERT INTO inv_claim_links (run_id, claim_id, other_claim_id, question_id, addressed)
         VALUES (@runId, @claimId, @otherClaimId, @questionId, @addressed)
         ON CONFLICT (run_id, claim_id, other_claim_id) DO UPDATE SET question_id = excluded.question_id,
           addressed = excluded.addressed`,
        { ...link, addressed: link.addressed ? 1 : 0 },
      );
    }
  }

  async #attemptId(challenge: Challenge): Promise<number | null> {
    if (!challenge.attempt) return null;
    const { questionId, seq } = challenge.attempt;
    const row = await this.#get(
      "SELECT id FROM inv_attempts WHERE run_id = $1 AND question_id = $2 AND seq = $3",
      questionId,
      seq,
    );
    if (!row)
      throw new LedgerIntegrityError(`challenge ${challenge.id} cites attempt ${seq} of ${questionId}, not stored`);
    return num(row, "id");
  }

  async challenges(challenges: readonly Challenge[]): Promise<void> {
    for (const challenge of challenges) {
      await this.#claimId("inv_challenges", challenge.id, ["ch"]);
      await this.#write(
        `INSERT INTO inv_challenges (run_id, id, question_id, target_type, target_id, negation, strategy, expected_if_false,
           query, attempt_id, status, outcome, evidence, result_claim_id, created_at, closed_at)
         VALUES (@runId, @id, @questionId, @targetType, @targetId, @negation, @strategy, @expectedIfFalse, @query,
           @attemptId, @status, @outcome, @evidence, @resultClaimId, @createdAt, @closedAt)
         ON CONFLICT (run_id, id) DO UPDATE SET question_id = excluded.question_id, target_type = excluded.target_type,
           target_id = excluded.target_id, negation = excluded.negation, strategy = excluded.strategy,
           expected_if_false = excluded.expected_if_false, query = excluded.query, attempt_id = excluded.attempt_id,
           status = excluded.status, outcome = excluded.outcome, evidence = excluded.evidence,
           result_claim_id = excluded.result_claim_id, closed_at = excluded.closed_at`,
        { ...challenge, attemptId: await this.#attemptId(challenge) },
      );
      // The challenge carries its whole current source list: replace the stored one.
      await this.#write("DELETE FROM inv_challenge_sources WHERE run_id = @runId AND challenge_id = @id", {
        id: challenge.id,
      });
      for (const sourceId of new Set(challenge.sourceIds)) {
        await this.#requireSource(sourceId);
        await this.#write(
          "INSERT INTO inv_challenge_sources (run_id, challenge_id, source_id) VALUES (@runId, @id, @sourceId)",
          { id: challenge.id, sourceId },
        );
      }
    }
  }

  async sourceNotes(mutation: Mutation): Promise<void> {
    for (const source of mutation.sources) {
      const changed = await this.#write("UPDATE sources SET note = @note WHERE run_id = @runId AND id = @id", {
        note: source.note,
        id: source.id,
      });
      if (changed === 0) throw new LedgerIntegrityError(`${source.id} is not a persisted source of run ${this.#runId}`);
    }
  }

  async notes(notes: NonNullable<Mutation["notes"]>, stateSeq: number, now: string): Promise<number> {
    const row = await this.#get("SELECT COALESCE(MAX(seq), 0) + 1 AS next FROM inv_notes_versions WHERE run_id = $1");
    const seq = row ? num(row, "next") : 1;
    await this.#write(
      `INSERT INTO inv_notes_versions (run_id, seq, state_seq, reason, text, created_at)
       VALUES (@runId, @seq, @stateSeq, @reason, @text, @now)`,
      { reason: notes.reason, text: notes.text, seq, stateSeq, now },
    );
    return seq;
  }
}

/**
 * Writes every row of `mutation` in one transaction, or nothing. Typed errors
 * (`IdConflictError`, `LedgerIntegrityError`) pass through; any other failure (a foreign key
 * checked at COMMIT included) becomes a `StoreError`.
 */
export async function applyMutation(
  pool: pg.Pool,
  runId: number,
  mutation: Mutation,
  options: { stateSeq: number; now: string; fence?: StoreFence | undefined },
): Promise<{ notesSeq?: number }> {
  try {
    return await inTransaction(pool, async (client): Promise<{ notesSeq?: number }> => {
      await lockRun(client, runId, options.fence);
      // Rows of one mutation may reference each other in any order; keys are checked at commit.
      await client.query("SET CONSTRAINTS ALL DEFERRED");
      const writer = new MutationWriter(client, runId);
      await writer.questions(mutation.questions);
      await writer.dependencies(mutation);
      await writer.attempts(mutation.attempts);
      await writer.transitions(mutation.transitions);
      await writer.checkStatuses(mutation);
      await writer.claims(mutation);
      await writer.challenges(mutation.challenges);
      await writer.sourceNotes(mutation);
      return mutation.notes ? { notesSeq: await writer.notes(mutation.notes, options.stateSeq, options.now) } : {};
    });
  } catch (error) {
    if (error instanceof StoreError) throw error;
    throw new StoreError(`the investigation change of run ${runId} was not written: ${describeError(error)}`, {
      cause: error,
    });
  }
}
