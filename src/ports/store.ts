/**
 * Durable run state. Every write resolves only after it is committed; a source is
 * committed before the Host lets a strategy or a model see it.
 * Implementations: SQLite (embedded default); PostgreSQL (shared). One contract
 * test suite (src/adapters/store/store-contract.ts) runs against each.
 */
import type { Budgets } from "../core/budgets.js";
import type { InvestigationConfig } from "../core/investigative/types.js";
import type { ArtifactStatus } from "../core/report/report-document.js";
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

export type EvidenceScope = CorpusScope | WebScope;

/** The research strategies a run may name (see docs/architecture.md). */
export const STRATEGY_NAMES = ["pipeline", "simple", "investigative"] as const;
export type StrategyName = (typeof STRATEGY_NAMES)[number];

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
}

export type RunStatus = "running" | "finished" | "failed";

/**
 * A queued run is recorded `running` with no worker: no process has taken it yet. The first
 * worker to take it records itself (and the run's clock origin) before any other write.
 */
export function isQueued(run: Pick<RunRecord, "status" | "worker">): boolean {
  return run.status === "running" && run.worker === "";
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
export interface NewSource extends FetchedDocument {
  sha256: string;
  capturedAt: string;
  /** Offset from the run origin at which the fetch completed. */
  fetchedMs: number;
  provenance: Provenance;
  chunks: NewChunk[];
}

export interface SourceRecord extends Omit<NewSource, "provenance" | "chunks"> {
  runId: number;
  /** Host id, 's_001'. */
  id: string;
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
  /** `userId` defaults to 'local'. */
  createRun(request: RunRequest, options: { originAt: string; worker: string; userId?: string }): Promise<RunRecord>;
  getRun(runId: number): Promise<RunRecord | undefined>;
  /** Most recent first; with `userId`, only that user's runs. */
  listRuns(options?: { limit?: number; userId?: string }): Promise<RunRecord[]>;
  updateRun(runId: number, patch: RunPatch): Promise<void>;

  appendEvent(runId: number, event: NewEvent): Promise<RunEvent>;
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

  /** Records an API token of `userId` by the SHA-256 hex of its secret (the secret is never stored). */
  createApiToken(token: NewApiToken): Promise<ApiTokenRecord>;
  /** The token whose secret hashes to `hash` (revoked or not); undefined when there is none. */
  findApiToken(hash: string): Promise<ApiTokenRecord | undefined>;
  /** Tokens, newest first; with `userId`, only that user's. */
  listApiTokens(options?: { userId?: string }): Promise<ApiTokenRecord[]>;
  /** Sets `revoked_at` (once); false when there is no such token or it was already revoked. */
  revokeApiToken(id: number, at: string): Promise<boolean>;
  /** Sets `last_used_at`. */
  touchApiToken(id: number, at: string): Promise<void>;

  close(): Promise<void>;
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
