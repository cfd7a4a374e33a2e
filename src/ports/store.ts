/**
 * Durable run state. Every write resolves only after it is committed; a source is
 * committed before the Host lets a strategy or a model see it.
 * Implementations: SQLite (embedded default); PostgreSQL (shared). One contract
 * test suite (src/adapters/store/store-contract.ts) runs against each.
 */

import type { Budgets } from "../core/budgets.js";
import { StoreError } from "../core/errors.js";
import type { InvestigationConfig } from "../core/investigative/types.js";
import type { ArtifactStatus } from "../core/report/report-document.js";
import type { GenerationUsage } from "../core/usage.js";
import type { ArtifactStore } from "./artifact-store.js";
import type { FetchedDocument } from "./fetcher.js";
import type { SearchHit, SearchQuery } from "./search-provider.js";

export interface CorpusScope {
  kind: "corpus";
  /** Absolute, real path of the corpus folder. */
  root: string;
  /** Reader-facing name of the folder, as the user gave it. */
  label: string;
}

/** The web: a search provider (secrets are not stored; the shell supplies them) and a fetcher. */
export interface WebScope {
  kind: "web";
  /** Provider name and optional base URL, e.g. searxng at http://localhost:8080. */
  search: { provider: string; baseUrl?: string };
  /** Hosts, IPs or CIDRs the fetcher may reach even when private (intranet, tests). */
  allowHosts: string[];
  /** Reader-facing description ("the web, searched with SearXNG"). */
  label: string;
}

/**
 * A folder and the web in one run: text queries go to both, patterns to the folder only;
 * a source is a corpus document or a web page, and the report's boundary names both.
 */
export interface HybridScope {
  kind: "hybrid";
  corpus: CorpusScope;
  web: WebScope;
  /** Reader-facing description ("the local folder “notes” and the web, searched with …"). */
  label: string;
}

/**
 * The user's library: every source the user's runs persisted, kept once per canonical identity
 * and searched like a corpus. Reads cost no fetch and keep their original capture time.
 */
export interface LibraryScope {
  kind: "library";
  /** Whose library: the run's owner. */
  userId: string;
  /** Reader-facing description ("your library of sources read by earlier runs"). */
  label: string;
}

export type EvidenceScope = CorpusScope | WebScope | HybridScope | LibraryScope;

/** What kind of queries a scope takes: patterns need a folder (a corpus or hybrid scope). */
export type ScopeKind = EvidenceScope["kind"];

/** Whether a scope searches a folder, and so takes pattern queries (the web and the library take text only). */
export function takesPatterns(kind: ScopeKind): boolean {
  return kind === "corpus" || kind === "hybrid";
}

/** The research strategies a run may name (see docs/architecture.md). */
export const STRATEGY_NAMES = ["pipeline", "simple", "investigative"] as const;
export type StrategyName = (typeof STRATEGY_NAMES)[number];

/** How a run relates to the run it continues: a follow-up question, or a revision of its report. */
export const RUN_RELATIONS = ["follow-up", "revision"] as const;
export type RunRelation = (typeof RUN_RELATIONS)[number];

/**
 * A run that continues another: it starts with the parent's persisted sources in its catalog
 * (same ids, no refetch) and publishes a report that says what it adds to or changes in the
 * parent's. A revision is the next version of the parent's report.
 */
export interface RunLineage {
  parentId: number;
  relation: RunRelation;
  /** For a revision: what to change ("add the 2024 figures"); '' for a follow-up. */
  instruction: string;
}

/** Everything needed to run (and resume) a research. */
export interface RunRequest {
  question: string;
  language: string;
  strategy: StrategyName;
  scope: EvidenceScope;
  budgets: Budgets;
  /** Model spec: `offline` (the embedded engine), `none` (source-backed only) or `provider:model`. */
  model: string;
  /** Folder where the report is published; absolute, or '' for the runtime's default for the run. */
  outDir: string;
  /**
   * The investigative knobs the user set (only those; the rest take their defaults when the
   * strategy resolves them). Absent when none was set. Stored with the run for `resume`.
   */
  investigation?: Partial<InvestigationConfig>;
  /** The run this one continues (a follow-up or a revision); absent for a new research. */
  lineage?: RunLineage;
}

export type RunStatus = "running" | "finished" | "failed";

/**
 * A queued run is recorded `running` with no worker: no process has taken it yet. The first
 * worker to take it records itself (and the run's clock origin) before any other write.
 */
export function isQueued(run: Pick<RunRecord, "status" | "worker">): boolean {
  return run.status === "running" && run.worker === "";
}

/** The user of the command line and the terminal UI: the owner of the runs they record. */
export const LOCAL_USER = "local";

/** The user a run belongs to: its `userId`, or the local user (the CLI's) for a run recorded without one. */
export function ownerOf(run: Pick<RunRecord, "userId">): string {
  return run.userId ?? LOCAL_USER;
}

/** The phase of an investigative run ('' for other strategies). */
export type RunPhase = "exploration" | "synthesis" | "";

export interface RunRecord {
  id: number;
  request: RunRequest;
  status: RunStatus;
  /** What was last published ('' before the first publication). */
  artifactStatus: ArtifactStatus | "publication-failed" | "";
  /** Internal error text for failed runs. */
  error: string;
  /** Wall-clock ISO time of the run origin. */
  originAt: string;
  /** `host:pid` of the process that runs it. */
  worker: string;
  createdAt: string;
  updatedAt: string;
  finishedAt: string;
  /** Random id of the run's notes.md working copy ('' when it has none). */
  notesId?: string;
  phase?: RunPhase;
  /** Why an investigation stopped (`finalized`, `frontier_exhausted`, `breaker:…`); '' while running. */
  stopReason?: string;
  /** Owner of the run; 'local' for the CLI. */
  userId?: string;
  /** Wall-clock ISO time of the last heartbeat of the `assay worker` driving the run ('' when none has). */
  heartbeatAt?: string;
  /** When a cancel was requested for the run from another process ('' when none was); its driver cancels it. */
  cancelRequestedAt?: string;
  /** The process that holds the run's lease (`host:pid/…`; '' when none ever did or it was released). */
  leaseHolder?: string;
  /** Counts the takings of the lease: every write of a driven run carries it (fencing). */
  leaseEpoch?: number;
  /** Wall-clock ISO time the lease lapses unless renewed ('' when released). */
  leaseExpiresAt?: string;
}

/**
 * The right to drive a run: one holder at a time, taken by compare-and-set on the run row
 * and renewed while the run is driven. Writes through `Store.fenced(lease)` carry its epoch
 * and are refused inside their transaction once another holder has taken the run.
 */
export interface RunLease {
  runId: number;
  holder: string;
  epoch: number;
  expiresAt: string;
}

/** What a fenced store's writes carry (`Store.fenced`): the lease, and who hears of a refused write. */
export interface StoreFence {
  lease: RunLease;
  onLost: ((error: LeaseLostError) => void) | undefined;
}

/**
 * Inside a write's transaction, with the run row's lease as read there: refuses the write
 * (`LeaseLostError`, `onLost` told) when a fence on this run no longer matches it. The one
 * fencing rule of every Store implementation.
 */
export function checkFence(
  fence: StoreFence | undefined,
  runId: number,
  row: { lease_holder: string; lease_epoch: number | string } | undefined,
): void {
  if (!fence || fence.lease.runId !== runId) return;
  if (row && Number(row.lease_epoch) === fence.lease.epoch && row.lease_holder === fence.lease.holder) return;
  const error = new LeaseLostError(runId, fence.lease.epoch);
  fence.onLost?.(error);
  throw error;
}

export type LeaseAttempt =
  | { ok: true; lease: RunLease }
  | { ok: false; holder: string; expiresAt: string; status: RunStatus | "missing" };

/** A write of a driven run refused because its lease is held by another process now (or released). */
export class LeaseLostError extends StoreError {
  constructor(
    readonly runId: number,
    readonly epoch: number,
  ) {
    super(`run ${runId}: the write was refused, the lease (epoch ${epoch}) is no longer this process's`);
  }
}

export interface NewEvent {
  type: string;
  /** Milliseconds from the run origin. */
  offsetMs: number;
  at: string;
  data: Record<string, unknown>;
}

export interface RunEvent extends NewEvent {
  runId: number;
  seq: number;
}

export type SearchOrigin = "bootstrap" | "planner" | "catalog";

export interface NewSearchCall {
  origin: SearchOrigin;
  query: SearchQuery;
  status: "ok" | "failed";
  hits: SearchHit[];
  /** Internal error text ('' when ok). */
  error: string;
  startedMs: number;
  finishedMs: number;
}

export interface SearchCallRecord extends NewSearchCall {
  runId: number;
  /** Host id, 'sq_001'. */
  id: string;
}

export interface NewChunk {
  seq: number;
  start: number;
  end: number;
  text: string;
  /** Where in its document the passage stands ("slide 3"), when the document says. */
  location?: string;
}

export interface ChunkRecord extends NewChunk {
  /** Host id, 's_001.p01'. */
  id: string;
  sourceId: string;
}

export interface Provenance {
  queryId: string;
  rank: number;
  requestedAnchor: string;
}

/** A fetched document as the Host hands it to the store (seed 004 SourceRecord fields). */
export interface NewSource extends Omit<FetchedDocument, "sections" | "library"> {
  /** Set for a document this run did not fetch (it is not added to the library again). */
  reused?: SourceReuse;
  sha256: string;
  capturedAt: string;
  /** Offset from the run origin at which the fetch completed. */
  fetchedMs: number;
  provenance: Provenance;
  chunks: NewChunk[];
}

/**
 * Where a persisted source came from when this run did not read it itself: `parent`, carried
 * over from the run it continues (no fetch, same id); `library`, read from the user's library
 * (no fetch, original capture time).
 */
export type SourceReuse = "parent" | "library";

export interface SourceRecord extends Omit<NewSource, "provenance" | "chunks"> {
  runId: number;
  /** Host id, 's_001'. */
  id: string;
  /** Set when the source was not fetched by this run (see SourceReuse). */
  reused?: SourceReuse;
  /** Offset from the run origin taken inside the committing transaction. */
  persistedMs: number;
  provenance: Provenance[];
  chunks: ChunkRecord[];
}

export interface PersistResult {
  source: SourceRecord;
  /** True when the canonical anchor was already persisted: provenance merged, no new id. */
  duplicate: boolean;
}

export interface NewDiagnostic {
  stage: string;
  code: string;
  /** Internal text: never shown to readers. */
  message: string;
  offsetMs: number;
  data?: Record<string, unknown>;
}

export interface Diagnostic extends NewDiagnostic {
  runId: number;
  id: number;
  at: string;
}

export interface RunPatch {
  status?: RunStatus;
  outDir?: string;
  artifactStatus?: ArtifactStatus | "publication-failed" | "";
  error?: string;
  worker?: string;
  /** Wall-clock ISO time of the run origin: set when a worker starts a queued run. */
  originAt?: string;
  finishedAt?: string;
  notesId?: string;
  phase?: RunPhase;
  stopReason?: string;
  /** Written by the worker when it takes the run and at every lease renewal. */
  heartbeatAt?: string;
  /** Written by `assay serve` to cancel a run another process drives. */
  cancelRequestedAt?: string;
}

export interface Store {
  /** Which database this is: PostgreSQL stores are shared by processes on many hosts. */
  readonly backend: "sqlite" | "postgres";
  /**
   * Where this store's reports are published when it keeps them itself (PostgreSQL: in the
   * database, so any process connected to it serves any run's report); absent, they are files
   * in the run's folder.
   */
  readonly artifacts?: ArtifactStore;
  /**
   * `userId` defaults to 'local'. A request with a `lineage` copies the parent's sources and
   * their passages into the new run (same ids, marked `reused: "parent"`) in the same
   * transaction; the parent must exist and belong to the same user (`StoreError` otherwise).
   */
  createRun(request: RunRequest, options: { originAt: string; worker: string; userId?: string }): Promise<RunRecord>;
  getRun(runId: number): Promise<RunRecord | undefined>;
  /** Most recent first; with `userId`, only that user's runs. */
  listRuns(options?: { limit?: number; userId?: string }): Promise<RunRecord[]>;
  updateRun(runId: number, patch: RunPatch): Promise<void>;

  appendEvent(runId: number, event: NewEvent): Promise<RunEvent>;
  /**
   * The model usage of every run of `userId` (tokens, cost, generations of unknown price), from
   * their generation events; with `since` (an ISO time), only the generations recorded since.
   */
  userUsage(userId: string, options?: { since?: string }): Promise<GenerationUsage>;
  /** In seq order; with `afterSeq`, only the events after it (a live reader's next page). */
  listEvents(runId: number, options?: { afterSeq?: number }): Promise<RunEvent[]>;

  recordSearchCall(runId: number, call: NewSearchCall): Promise<SearchCallRecord>;
  listSearchCalls(runId: number): Promise<SearchCallRecord[]>;

  /**
   * Commits a source with its chunks and provenance in one transaction and assigns its id
   * from the run's counter. A source whose canonical anchor is already stored only gains
   * a provenance row. `offsetNow` is read inside the transaction for `persistedMs`.
   */
  persistSource(runId: number, source: NewSource, offsetNow: () => number): Promise<PersistResult>;
  listSources(runId: number): Promise<SourceRecord[]>;

  addDiagnostic(runId: number, diagnostic: NewDiagnostic): Promise<Diagnostic>;
  listDiagnostics(runId: number): Promise<Diagnostic[]>;

  /**
   * The runs that continue `runId` (follow-ups and revisions), oldest first. Every source a run
   * persists (read by the run itself, not carried over or recalled) is also kept in its owner's
   * library in the same transaction (see LibraryEntry).
   */
  listChildRuns(runId: number): Promise<RunRecord[]>;
  /** `userId`'s library, newest first (metadata, no text); with `limit`, at most that many. */
  listLibrary(userId: string, options?: { limit?: number }): Promise<LibraryEntry[]>;
  /** The entries `ids` of `userId`'s library with their text (another user's ids give nothing). */
  readLibrary(userId: string, ids: readonly number[]): Promise<LibraryDocument[]>;
  /** Removes an entry from `userId`'s library (the runs that cite it keep their copy); false when none. */
  forgetLibraryEntry(userId: string, id: number): Promise<boolean>;

  /** Records an API token of `userId` by the SHA-256 hex of its secret (the secret is never stored). */
  createApiToken(token: NewApiToken): Promise<ApiTokenRecord>;
  /** The token whose secret hashes to `hash` (revoked or not); undefined when there is none. */
  findApiToken(hash: string): Promise<ApiTokenRecord | undefined>;
  /** Tokens, newest first; with `userId`, only that user's. */
  listApiTokens(options?: { userId?: string }): Promise<ApiTokenRecord[]>;
  /**
   * Sets `revoked_at` (once) and deletes the token's web sessions, in one transaction; false when
   * there is no such token or it was already revoked.
   */
  revokeApiToken(id: number, at: string): Promise<boolean>;
  /** Sets `last_used_at`. */
  touchApiToken(id: number, at: string): Promise<void>;

  /** Records a web UI session by the SHA-256 hex of its id (the id is never stored); `lastUsedAt` starts at `createdAt`. */
  createWebSession(session: NewWebSession): Promise<WebSessionRecord>;
  /**
   * The session whose id hashes to `hash`, while the API token it was signed in with is valid
   * (ended or not: the caller checks its expiry); undefined when there is none or its token is revoked.
   */
  findWebSession(hash: string): Promise<WebSessionRecord | undefined>;
  /** Sets `last_used_at`. */
  touchWebSession(id: number, at: string): Promise<void>;
  /** Deletes the session whose id hashes to `hash` (sign-out); false when there was none. */
  deleteWebSession(hash: string): Promise<boolean>;
  /** Deletes the sessions whose `expiresAt` is at or before `at`; the number deleted. */
  pruneWebSessions(at: string): Promise<number>;

  /**
   * Takes the run's lease when nobody holds it or the holder's lease lapsed (`expiresAt` ≤
   * `now`) or its holder is `replacing` (known dead), by compare-and-set; the epoch goes up by
   * one. Refused (with the holder and its expiry) while another holds it, and for a run that is
   * not running.
   */
  acquireLease(
    runId: number,
    claim: { holder: string; now: string; expiresAt: string; replacing?: string },
  ): Promise<LeaseAttempt>;
  /** Extends a held lease (and writes the heartbeat); undefined when it is no longer held. */
  renewLease(lease: RunLease, renewal: { now: string; expiresAt: string }): Promise<RunLease | undefined>;
  /** Gives a held lease up (a no-op when it is no longer held). */
  releaseLease(lease: RunLease): Promise<void>;
  /**
   * This store, with every write of `lease.runId` fenced: refused (`LeaseLostError`, and
   * `onLost` called) inside its transaction when the run's lease epoch is no longer `lease.epoch`.
   */
  fenced(lease: RunLease, onLost?: (error: LeaseLostError) => void): this;

  close(): Promise<void>;
}

/**
 * One source in a user's library: kept once per canonical identity (`identity`: the canonical
 * URL or DOI of a web source; a corpus file's real path plus its content's hash), whichever runs
 * read it. A later read of the same web identity replaces the stored copy; a changed corpus file
 * is a new identity.
 */
export interface LibraryEntry {
  id: number;
  userId: string;
  identity: string;
  canonicalAnchor: string;
  title: string;
  transport: FetchedDocument["transport"];
  /** Corpus-relative path, and the corpus folder it is in (corpus sources). */
  path?: string;
  corpusRoot?: string;
  url?: string;
  domain: string;
  contentType: string;
  truncated: boolean;
  sha256: string;
  /** When it was captured: a library read keeps this as its observation time. */
  capturedAt: string;
  /** Length of its text in characters. */
  chars: number;
  /** The first and the latest run that read it. */
  firstRunId: number;
  lastRunId: number;
  createdAt: string;
  updatedAt: string;
}

/** A library entry with its text and the named parts of it (passages are cut at them). */
export interface LibraryDocument extends LibraryEntry {
  content: string;
  sections: { start: number; location: string }[];
}

/** An API token of the HTTP API (`assay tokens create`), as stored: its hash, never its secret. */
export interface NewApiToken {
  userId: string;
  /** A label for the operator ('' when none). */
  name: string;
  /** Lowercase hex SHA-256 of the secret. */
  hash: string;
  createdAt: string;
}

export interface ApiTokenRecord extends NewApiToken {
  id: number;
  /** '' until first used. */
  lastUsedAt: string;
  /** '' while valid. */
  revokedAt: string;
}

/**
 * A signed-in browser of the web UI (`assay serve`), as stored: the hash of its id (the
 * cookie's value), never the id.
 */
export interface NewWebSession {
  /** Lowercase hex SHA-256 of the session id. */
  hash: string;
  /** The user it acts as: its token's. */
  userId: string;
  /** The API token it was signed in with; revoking the token ends the session. */
  tokenId: number;
  createdAt: string;
  /** When it ends, however much it is used. */
  expiresAt: string;
  /** How long it may go unused (since `lastUsedAt`) before it ends. */
  idleTimeoutMs: number;
}

export interface WebSessionRecord extends NewWebSession {
  id: number;
  /** When it last authenticated a request (`createdAt` until then). */
  lastUsedAt: string;
}
