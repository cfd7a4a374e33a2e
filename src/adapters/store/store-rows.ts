/**
 * Rows of the store's tables turned back into the port's values. Both backends have the same
 * tables and columns (docs/schema.md), so both read through these functions: a value read
 * from PostgreSQL is the value SQLite returns. Pure, except that they throw `StoreError` on
 * stored JSON that does not parse.
 */
import { type Budgets, completeBudgets } from "../../core/budgets.js";
import { describeError, StoreError } from "../../core/errors.js";
import { chunkId } from "../../core/ids.js";
import { INVESTIGATION_LIMITS } from "../../core/investigative/config.js";
import type {
  Attempt,
  Challenge,
  Claim,
  InvestigationConfig,
  LedgerSource,
  Question,
  QuestionStatus,
  Transition,
} from "../../core/investigative/types.js";
import type { NotesReason, NotesVersion } from "../../ports/investigation-store.js";
import {
  type ApiTokenRecord,
  type ChunkRecord,
  type Diagnostic,
  type EvidenceScope,
  type LibraryDocument,
  type LibraryEntry,
  LOCAL_USER,
  type NewSource,
  type Provenance,
  RUN_RELATIONS,
  type RunEvent,
  type RunPhase,
  type RunRecord,
  type RunRelation,
  type RunRequest,
  type SearchCallRecord,
  type SourceRecord,
  type SourceReuse,
  type WebSessionRecord,
} from "../../ports/store.js";

export type Row = Record<string, unknown>;

export const text = (row: Row, key: string): string => String(row[key] ?? "");
export const num = (row: Row, key: string): number => Number(row[key] ?? 0);
export const nullableText = (row: Row, key: string): string | null => (row[key] === null ? null : text(row, key));

export function parseJson<T>(value: unknown, what: string): T {
  try {
    return JSON.parse(String(value)) as T;
  } catch (error) {
    throw new StoreError(`stored ${what} is not valid JSON: ${describeError(error)}`);
  }
}

export function stringArray(value: unknown, what: string): string[] {
  const parsed = parseJson<unknown>(value, what);
  if (!Array.isArray(parsed) || !parsed.every((item) => typeof item === "string")) {
    throw new StoreError(`stored ${what} is not an array of strings`);
  }
  return parsed;
}

/**
 * `runs.options`: a JSON object; `investigation`, when present, maps the knobs the user set
 * (camelCase) to numbers. Checked by hand: this is on the path of `runs list`, which should
 * not pay for loading a schema library to read one small object.
 */
function runOptionsShape(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "not an object";
  const investigation = (value as { investigation?: unknown }).investigation;
  if (investigation === undefined) return undefined;
  if (typeof investigation !== "object" || investigation === null || Array.isArray(investigation))
    return "investigation: not an object";
  for (const [name, setting] of Object.entries(investigation))
    if (typeof setting !== "number") return `investigation.${name}: not a number`;
  return undefined;
}

/** The `runs.options` JSON of a request. */
function runOptionsOf(request: RunRequest): string {
  return JSON.stringify(request.investigation === undefined ? {} : { investigation: request.investigation });
}

const RUN_INSERT_COLUMNS = [
  "question",
  "language",
  "strategy",
  "model",
  "scope",
  "budgets",
  "out_dir",
  "options",
  "origin_at",
  "worker",
  "user_id",
  "created_at",
  "updated_at",
  "parent_id",
  "relation",
  "instruction",
] as const;

/** The INSERT of a new run's row; `placeholder(n)` writes the store's n-th parameter (1-based). */
export function runInsertSql(placeholder: (position: number) => string): string {
  const values = RUN_INSERT_COLUMNS.map((_, index) => placeholder(index + 1));
  return `INSERT INTO runs (${RUN_INSERT_COLUMNS.join(", ")}) VALUES (${values.join(", ")})`;
}

/** The values of a new run's row, in the order of runInsertSql's columns. */
export function runInsertValues(
  request: RunRequest,
  options: { originAt: string; worker: string; userId?: string },
  now: string,
): (string | number)[] {
  return [
    request.question,
    request.language,
    request.strategy,
    request.model,
    JSON.stringify(request.scope),
    JSON.stringify(request.budgets),
    request.outDir,
    runOptionsOf(request),
    options.originAt,
    options.worker,
    options.userId ?? LOCAL_USER,
    now,
    now,
    request.lineage?.parentId ?? 0,
    request.lineage?.relation ?? "",
    request.lineage?.instruction ?? "",
  ];
}

function parseRunOptions(value: unknown): Pick<RunRequest, "investigation"> {
  const options = parseJson<{ investigation?: Record<string, number> }>(value, "run options");
  const problem = runOptionsShape(options);
  if (problem !== undefined) throw new StoreError(`stored run options are invalid: ${problem}`);
  if (options.investigation === undefined) return {};
  const investigation: Partial<InvestigationConfig> = {};
  for (const [name, setting] of Object.entries(options.investigation)) {
    // A knob this version does not know (written by a newer one) is left out.
    if (Object.hasOwn(INVESTIGATION_LIMITS, name)) investigation[name as keyof InvestigationConfig] = setting;
  }
  return { investigation };
}

/**
 * Why a run of `userId` may not continue run `parentId` (whose row is `parent`, or undefined when
 * there is none); undefined when it may. Another user's run reads as missing: its existence is
 * not disclosed.
 */
export function parentProblem(
  parentId: number,
  parent: Row | undefined,
  userId: string | undefined,
): string | undefined {
  if (!parent || text(parent, "user_id") !== (userId ?? LOCAL_USER)) return `there is no run ${parentId} to continue`;
  return undefined;
}

function lineageOf(row: Row): Pick<RunRequest, "lineage"> {
  const parentId = num(row, "parent_id");
  const relation = text(row, "relation");
  if (parentId === 0 || !(RUN_RELATIONS as readonly string[]).includes(relation)) return {};
  return { lineage: { parentId, relation: relation as RunRelation, instruction: text(row, "instruction") } };
}

export function runFromRow(row: Row): RunRecord {
  return {
    id: num(row, "id"),
    request: {
      question: text(row, "question"),
      language: text(row, "language"),
      strategy: text(row, "strategy") as RunRequest["strategy"],
      model: text(row, "model"),
      scope: parseJson(row.scope, "scope"),
      budgets: completeBudgets(parseJson<Partial<Budgets>>(row.budgets, "budgets")),
      outDir: text(row, "out_dir"),
      ...parseRunOptions(row.options ?? "{}"),
      ...lineageOf(row),
    },
    status: text(row, "status") as RunRecord["status"],
    artifactStatus: text(row, "artifact_status") as RunRecord["artifactStatus"],
    error: text(row, "error"),
    originAt: text(row, "origin_at"),
    worker: text(row, "worker"),
    createdAt: text(row, "created_at"),
    updatedAt: text(row, "updated_at"),
    finishedAt: text(row, "finished_at"),
    notesId: text(row, "notes_id"),
    phase: text(row, "phase") as RunPhase,
    stopReason: text(row, "stop_reason"),
    userId: text(row, "user_id"),
    heartbeatAt: text(row, "heartbeat_at"),
    cancelRequestedAt: text(row, "cancel_requested_at"),
    leaseHolder: text(row, "lease_holder"),
    leaseEpoch: num(row, "lease_epoch"),
    leaseExpiresAt: text(row, "lease_expires_at"),
  };
}

export function eventFromRow(runId: number, row: Row): RunEvent {
  return {
    runId,
    seq: num(row, "seq"),
    type: text(row, "type"),
    offsetMs: num(row, "offset_ms"),
    at: text(row, "at"),
    data: parseJson(row.data, "event data"),
  };
}

export function searchCallFromRow(runId: number, row: Row): SearchCallRecord {
  return {
    runId,
    id: text(row, "id"),
    origin: text(row, "origin") as SearchCallRecord["origin"],
    query: parseJson(row.query, "search query"),
    status: text(row, "status") as SearchCallRecord["status"],
    hits: parseJson(row.hits, "search hits"),
    error: text(row, "error"),
    startedMs: num(row, "started_ms"),
    finishedMs: num(row, "finished_ms"),
  };
}

export function chunkFromRow(sourceId: string, row: Row): ChunkRecord {
  return {
    id: chunkId(sourceId, num(row, "seq")),
    sourceId,
    seq: num(row, "seq"),
    start: num(row, "start_offset"),
    end: num(row, "end_offset"),
    text: text(row, "text"),
    ...(text(row, "location") ? { location: text(row, "location") } : {}),
  };
}

export function provenanceFromRow(row: Row): Provenance {
  return {
    queryId: text(row, "query_id"),
    rank: num(row, "rank"),
    requestedAnchor: text(row, "requested_anchor"),
  };
}

/** The columns `sources` and `library` share: what a stored copy of a document is. */
function copyFromRow(row: Row) {
  const path = text(row, "path");
  const url = text(row, "url");
  return {
    canonicalAnchor: text(row, "canonical_anchor"),
    title: text(row, "title"),
    transport: text(row, "transport") as SourceRecord["transport"],
    ...(path ? { path } : {}),
    ...(url ? { url } : {}),
    domain: text(row, "domain"),
    contentType: text(row, "content_type"),
    truncated: num(row, "truncated") === 1,
    sha256: text(row, "sha256"),
    capturedAt: text(row, "captured_at"),
  };
}

export function sourceFromRow(row: Row, provenance: Provenance[], chunks: ChunkRecord[]): SourceRecord {
  return {
    runId: num(row, "run_id"),
    id: text(row, "id"),
    requestedAnchor: text(row, "requested_anchor"),
    ...copyFromRow(row),
    content: text(row, "content"),
    fetchedMs: num(row, "fetched_ms"),
    persistedMs: num(row, "persisted_ms"),
    ...(text(row, "reused") ? { reused: text(row, "reused") as SourceReuse } : {}),
    provenance,
    chunks,
  };
}

const LIBRARY_METADATA = `id, user_id, identity, canonical_anchor, title, transport, path, corpus_root, url, domain,
  content_type, truncated, sha256, captured_at, first_run_id, last_run_id, created_at, updated_at,
  length(content) AS chars`;

/** The library entries of a user, newest first, at most a number (parameters: user id, limit; metadata only). */
export const LIBRARY_LIST_SQL = `SELECT ${LIBRARY_METADATA} FROM library WHERE user_id = ? ORDER BY id DESC LIMIT ?`;

export function libraryEntryFromRow(row: Row): LibraryEntry {
  const corpusRoot = text(row, "corpus_root");
  return {
    id: num(row, "id"),
    userId: text(row, "user_id"),
    identity: text(row, "identity"),
    ...copyFromRow(row),
    ...(corpusRoot ? { corpusRoot } : {}),
    chars: num(row, "chars"),
    firstRunId: num(row, "first_run_id"),
    lastRunId: num(row, "last_run_id"),
    createdAt: text(row, "created_at"),
    updatedAt: text(row, "updated_at"),
  };
}

export function libraryDocumentFromRow(row: Row): LibraryDocument {
  const sections = parseJson<unknown>(row.sections, "library sections");
  const valid =
    Array.isArray(sections) &&
    sections.every(
      (item) => typeof item?.start === "number" && typeof item?.location === "string" && item.location !== "",
    );
  if (!valid) throw new StoreError("stored library sections are not a list of {start, location}");
  return {
    ...libraryEntryFromRow({ ...row, chars: String(row.content ?? "").length }),
    content: text(row, "content"),
    sections,
  };
}

/**
 * The library row of a source a run just persisted: its identity (the canonical anchor of a web
 * source; a corpus file's real path and the SHA-256 of its text) and its named parts, derived
 * from its passages' locations. Undefined for a source that was not read by the run (carried
 * over or recalled from the library).
 */
export function libraryRowOf(
  source: NewSource,
  owner: { userId: string; runId: number; scope: EvidenceScope },
  now: string,
): (string | number)[] | undefined {
  if (source.reused !== undefined) return undefined;
  const root =
    owner.scope.kind === "corpus" ? owner.scope.root : owner.scope.kind === "hybrid" ? owner.scope.corpus.root : "";
  const corpusRoot = source.transport === "corpus" ? root : "";
  const identity =
    source.transport === "corpus"
      ? `${corpusRoot}/${source.path ?? source.canonicalAnchor}#sha256:${source.sha256}`
      : source.canonicalAnchor;
  const sections: { start: number; location: string }[] = [];
  for (const chunk of source.chunks) {
    const location = chunk.location ?? "";
    if (location !== "" && sections.at(-1)?.location !== location) sections.push({ start: chunk.start, location });
  }
  return [
    owner.userId,
    identity,
    source.canonicalAnchor,
    source.title,
    source.transport,
    source.path ?? "",
    corpusRoot,
    source.url ?? "",
    source.domain,
    source.contentType,
    source.content,
    source.truncated ? 1 : 0,
    source.sha256,
    source.capturedAt,
    JSON.stringify(sections),
    owner.runId,
    owner.runId,
    now,
    now,
  ];
}

/**
 * Adds a persisted source to its owner's library (parameters: `libraryRowOf`'s values), or, when
 * the identity is already there, records the run and takes the newer copy.
 */
export const LIBRARY_UPSERT_SQL = `INSERT INTO library (user_id, identity, canonical_anchor, title, transport, path,
    corpus_root, url, domain, content_type, content, truncated, sha256, captured_at, sections, first_run_id,
    last_run_id, created_at, updated_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (user_id, identity) DO UPDATE SET title = excluded.title, content_type = excluded.content_type,
    content = excluded.content, truncated = excluded.truncated, sha256 = excluded.sha256,
    captured_at = excluded.captured_at, sections = excluded.sections, last_run_id = excluded.last_run_id,
    updated_at = excluded.updated_at`;

/**
 * Copies the sources of a run (the second parameter) into another (the first), same ids, marked as carried over (and their passages,
 * with `CHUNK_COPY_SQL`): a follow-up's or a revision's catalog starts as its parent's.
 */
export const SOURCE_COPY_SQL = `INSERT INTO sources (run_id, id, requested_anchor, canonical_anchor, title, transport, path,
    url, domain, content_type, content, truncated, sha256, captured_at, fetched_ms, persisted_ms, note, reused)
  SELECT ?, id, requested_anchor, canonical_anchor, title, transport, path, url, domain, content_type, content,
    truncated, sha256, captured_at, 0, 0, '', 'parent'
  FROM sources WHERE run_id = ?`;

export const CHUNK_COPY_SQL = `INSERT INTO chunks (run_id, source_id, seq, start_offset, end_offset, text, location)
  SELECT ?, source_id, seq, start_offset, end_offset, text, location FROM chunks WHERE run_id = ?`;

/** A statement written with `?` placeholders (SQLite), for PostgreSQL: `$1`, `$2`, … in order. */
export function dollarParameters(sql: string): string {
  let position = 0;
  return sql.replaceAll("?", () => `$${++position}`);
}

export function diagnosticFromRow(runId: number, row: Row): Diagnostic {
  return {
    runId,
    id: num(row, "id"),
    stage: text(row, "stage"),
    code: text(row, "code"),
    message: text(row, "message"),
    data: parseJson(row.data, "diagnostic data"),
    offsetMs: num(row, "offset_ms"),
    at: text(row, "created_at"),
  };
}

export function questionFromRow(row: Row): Question {
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
    agent: row.agent === undefined ? 0 : num(row, "agent"),
    reopens: num(row, "reopens"),
    createdAt: text(row, "created_at"),
    updatedAt: text(row, "updated_at"),
  };
}

export function dependencyFromRow(row: Row): { questionId: string; dependsOnId: string } {
  return { questionId: text(row, "question_id"), dependsOnId: text(row, "depends_on_id") };
}

export function attemptFromRow(row: Row): Attempt {
  return {
    questionId: text(row, "question_id"),
    seq: num(row, "seq"),
    query: text(row, "query"),
    tool: text(row, "tool"),
    outcome: text(row, "outcome"),
    createdAt: text(row, "created_at"),
  };
}

export function transitionFromRow(row: Row): Transition {
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

/** A row of `sources` (id, path, url, domain, title, note) as the ledger sees it. */
export function ledgerSourceFromRow(row: Row): LedgerSource {
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
}

export function claimFromRow(row: Row): Claim {
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

export function claimSourceFromRow(row: Row) {
  return {
    claimId: text(row, "claim_id"),
    sourceId: text(row, "source_id"),
    stance: text(row, "stance") as "supports" | "contradicts",
    chunkIds: stringArray(row.chunk_ids, "claim passages"),
  };
}

export function contradictionFromRow(row: Row) {
  return {
    claimId: text(row, "claim_id"),
    otherClaimId: text(row, "other_claim_id"),
    questionId: text(row, "question_id"),
    addressed: num(row, "addressed") === 1,
  };
}

/** A row of `inv_challenges` joined with its attempt (`attempt_question_id`, `attempt_seq`). */
export function challengeFromRow(row: Row, sourceIds: string[]): Challenge {
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

/** Challenge id -> its source ids, in row order. */
export function challengeSourceMap(rows: readonly Row[]): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const row of rows) {
    const list = map.get(text(row, "challenge_id")) ?? [];
    list.push(text(row, "source_id"));
    map.set(text(row, "challenge_id"), list);
  }
  return map;
}

export function notesVersionFromRow(row: Row): NotesVersion {
  return {
    seq: num(row, "seq"),
    stateSeq: num(row, "state_seq"),
    reason: text(row, "reason") as NotesReason,
    text: text(row, "text"),
    createdAt: text(row, "created_at"),
  };
}

export function apiTokenFromRow(row: Row): ApiTokenRecord {
  return {
    id: num(row, "id"),
    userId: text(row, "user_id"),
    name: text(row, "name"),
    hash: text(row, "token_sha256"),
    createdAt: text(row, "created_at"),
    lastUsedAt: text(row, "last_used_at"),
    revokedAt: text(row, "revoked_at"),
  };
}

export function webSessionFromRow(row: Row): WebSessionRecord {
  return {
    id: num(row, "id"),
    hash: text(row, "session_sha256"),
    userId: text(row, "user_id"),
    tokenId: num(row, "token_id"),
    createdAt: text(row, "created_at"),
    expiresAt: text(row, "expires_at"),
    idleTimeoutMs: num(row, "idle_timeout_ms"),
    lastUsedAt: text(row, "last_used_at"),
  };
}
