/**
 * Durable state of the investigative strategy (seed 000 "Database schema"): the frontier,
 * the claim ledger, challenges and the history of notes.md. The core computes a `Mutation`
 * (pure); the store writes it in one transaction and enforces the per-run id counters and
 * the agreement of question statuses with their transitions.
 * Implementations: SQLite; PostgreSQL. The investigation section of the store
 * contract (src/adapters/store/store-contract.ts) runs against each.
 */
import { StoreError } from "../core/errors.js";
import type {
  Attempt,
  Challenge,
  Claim,
  ClaimSource,
  Contradiction,
  Dependency,
  LedgerSource,
  Mutation,
  Question,
  Transition,
} from "../core/investigative/types.js";

export type NotesReason = NonNullable<Mutation["notes"]>["reason"];

/** One stored copy of notes.md. */
export interface NotesVersion {
  /** 1, 2, … per run, in write order. */
  seq: number;
  /** The research state sequence the write belonged to. */
  stateSeq: number;
  reason: NotesReason;
  text: string;
  createdAt: string;
}

/** Everything stored for one run's investigation. Arrays are in id order (numeric within a prefix) or write order. */
export interface StoredInvestigation {
  questions: Question[];
  dependencies: Dependency[];
  /** In write order. */
  attempts: Attempt[];
  /** In write order. */
  transitions: Transition[];
  /** The run's Host-persisted sources, in id order. */
  sources: LedgerSource[];
  claims: Claim[];
  claimSources: ClaimSource[];
  contradictions: Contradiction[];
  challenges: Challenge[];
  /** How many notes versions exist. */
  notesVersions: number;
  latestNotes: { seq: number; text: string; reason: NotesReason } | undefined;
}

/** The investigation of a run that has none. */
export const EMPTY_INVESTIGATION: Readonly<StoredInvestigation> = Object.freeze({
  questions: [],
  dependencies: [],
  attempts: [],
  transitions: [],
  sources: [],
  claims: [],
  claimSources: [],
  contradictions: [],
  challenges: [],
  notesVersions: 0,
  latestNotes: undefined,
});

export interface InvestigationStore {
  /** Reads the whole investigation of a run (empty arrays for a run without one). */
  loadInvestigation(runId: number): Promise<StoredInvestigation>;

  /**
   * Writes every row of `mutation` in one transaction, or nothing. New question, claim and
   * challenge ids must each be the next of their per-run counter (`IdConflictError`);
   * attempt and transition seqs the next of their question (`IdConflictError`); every
   * question the mutation writes must end with a latest transition whose `toStatus` equals
   * its status, cited sources must be the run's persisted sources and the passages on a
   * claim-source link (`chunkIds`) stored chunks of that link's source
   * (`LedgerIntegrityError`). With `mutation.notes`, appends a notes version (state seq
   * `options.stateSeq`) and returns its seq.
   */
  applyMutation(runId: number, mutation: Mutation, options: { stateSeq: number }): Promise<{ notesSeq?: number }>;

  /** All notes versions of a run, oldest first. */
  listNotesVersions(runId: number): Promise<NotesVersion[]>;
}

/** Whether a store also keeps investigations (the investigative strategy needs one that does). */
export function isInvestigationStore<S extends object>(store: S): store is S & InvestigationStore {
  const candidate = store as Partial<InvestigationStore>;
  return (
    typeof candidate.loadInvestigation === "function" &&
    typeof candidate.applyMutation === "function" &&
    typeof candidate.listNotesVersions === "function"
  );
}

/**
 * A mutation used an id or seq that is not the next of its counter: another writer got
 * there first, or the caller computed from stale state. Reload and decide again.
 */
export class IdConflictError extends StoreError {}

/** A mutation would leave the investigation inconsistent (a status without its transition, an unknown source). */
export class LedgerIntegrityError extends StoreError {}
