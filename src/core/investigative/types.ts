/**
 * The values of the investigative strategy (seed 000): the question frontier, the claim
 * ledger, challenges and the notes, with the knobs and their defaults. Plain immutable
 * data; every change is a pure function elsewhere in this folder that returns a new value
 * plus the rows it appends (a `Mutation`), which the effect layer persists in one
 * transaction. Ids and times come in as arguments.
 */

/**
 * Seed 000 "Configuration", with its defaults (the stage-1 subset plus what the gates use).
 * The seed's snake_case names (`max_depth`, …) map to these camelCase ones
 * (`investigationKnob` in config.ts).
 */
export interface InvestigationConfig {
  maxDepth: number;
  maxAttempts: number;
  maxQuestions: number;
  maxIterations: number;
  /** Tokens the whole run may spend (input and output); absent: no limit. */
  maxTotalTokens?: number;
  /** US dollars the whole run may spend; absent: no limit. */
  maxCostUsd?: number;
  synthesisReserve: number;
  keepTurns: number;
  extractionThreshold: number;
  notesMaxTokens: number;
  minSources: number;
  minDomains: number;
  minIndependentSources: number;
  minChallenges: number;
  maxChallengesPerTarget: number;
  gatePriority: number;
  maxReopens: number;
  maxParallel: number;
}

export const DEFAULT_INVESTIGATION_CONFIG: Readonly<InvestigationConfig> = Object.freeze({
  maxDepth: 3,
  maxAttempts: 4,
  maxQuestions: 40,
  maxIterations: 60,
  synthesisReserve: 0.15,
  keepTurns: 2,
  extractionThreshold: 4_000,
  notesMaxTokens: 6_000,
  minSources: 5,
  minDomains: 3,
  minIndependentSources: 2,
  minChallenges: 1,
  maxChallengesPerTarget: 3,
  gatePriority: 0.5,
  maxReopens: 1,
  maxParallel: 1,
});

export const QUESTION_STATUSES = ["pending", "in_progress", "resolved", "blocked", "unresolvable", "pruned"] as const;
export type QuestionStatus = (typeof QUESTION_STATUSES)[number];

export const QUESTION_KINDS = ["question", "hypothesis"] as const;
export type QuestionKind = (typeof QUESTION_KINDS)[number];

/** Seed 000's closed vocabulary of transition triggers. */
export const TRANSITION_TRIGGERS = [
  "created",
  "selected",
  "resolved",
  "retried",
  "attempts_exhausted",
  "reopened",
  "dependency_failed",
  "dependency_met",
  "reprioritized",
  "pruned_branch",
  "pruned_depth",
  "pruned_scope",
  "contradiction",
] as const;
export type TransitionTrigger = (typeof TRANSITION_TRIGGERS)[number];

export type Actor = "agent" | "code";

export interface Question {
  /** `q_001` (the root), `q_002`, … assigned by code. */
  id: string;
  parentId: string | null;
  depth: number;
  kind: QuestionKind;
  question: string;
  rationale: string;
  /** 0..1. */
  priority: number;
  status: QuestionStatus;
  validationCriteria: string;
  targetSources: readonly string[];
  /** resolved: the answer; unresolvable: the assumption; pruned: the reason. */
  answer: string;
  /** Claim ids the answer cites (resolved questions). */
  claimIds: readonly string[];
  /** Why an UNVERIFIED claim is the best available, or why a depth 0/1 answer was not challenged. */
  exemption: string;
  /** The run whose worker holds it while in_progress; null otherwise. */
  claimedBy: number | null;
  /**
   * The sub-agent of that run holding it while in_progress (1 … max_parallel, seed 000
   * "Parallelism and sub-agents"); 0 otherwise. A row claimed before sub-agents existed reads 0
   * and counts as sub-agent 1's.
   */
  agent: number;
  /** Times reopened (bounded by the caller's rules). */
  reopens: number;
  createdAt: string;
  updatedAt: string;
}

/** `questionId` depends on `dependsOnId`. */
export interface Dependency {
  questionId: string;
  dependsOnId: string;
}

export interface Attempt {
  questionId: string;
  /** 1, 2, … per question. */
  seq: number;
  query: string;
  /** search, fetch_page, … (the loop's acquisition tools) */
  tool: string;
  outcome: string;
  createdAt: string;
}

export interface Transition {
  questionId: string;
  /** 1, 2, … per question; 1 is the creation. */
  seq: number;
  /** '' on creation. */
  fromStatus: QuestionStatus | "";
  toStatus: QuestionStatus;
  trigger: TransitionTrigger;
  actor: Actor;
  reason: string;
  priority: number;
  attempts: number;
  /** The question or challenge that caused it ('q_044', 'ch_003'), or ''. */
  causedBy: string;
  stateSeq: number;
  createdAt: string;
}

export interface Frontier {
  objective: string;
  questions: readonly Question[];
  dependencies: readonly Dependency[];
  attempts: readonly Attempt[];
  transitions: readonly Transition[];
  /** The agent declared the objective atomic: frontier_next may run without children of the root. */
  rootAtomic: boolean;
}

export const CLAIM_STATUSES = ["UNVERIFIED", "VERIFIED", "REFUTED", "RETRACTED"] as const;
export type ClaimStatus = (typeof CLAIM_STATUSES)[number];

/**
 * A source the ledger may cite: a Host-persisted source (`s_001`) with its independence
 * key — the registrable domain for web sources; for corpus documents (no domain) the
 * document itself (`corpus:<path>`), since a local folder has no domains.
 */
export interface LedgerSource {
  id: string;
  /** URL or corpus-relative path. */
  location: string;
  domain: string;
  title: string;
  /** e.g. "read, nothing relevant". */
  note: string;
}

export interface Claim {
  /** `c_001` for claims, `d_001` for datapoints. */
  id: string;
  questionId: string | null;
  kind: "claim" | "datapoint";
  text: string;
  value: string;
  unit: string;
  status: ClaimStatus;
  /** What would verify it (shown in Unverified as `| check: …`). */
  check: string;
  /** The agent's statement of why its supporting sources are independent. */
  independence: string;
  createdAt: string;
  updatedAt: string;
}

export interface ClaimSource {
  claimId: string;
  sourceId: string;
  stance: "supports" | "contradicts";
  /**
   * The passages of that source (Host chunk ids, `s_001.p03`) that support or contradict the
   * claim: what a report cites. Empty for links recorded without passages (older rows).
   */
  chunkIds: readonly string[];
}

/** Two claims in conflict, and the question spawned to resolve it ('' until spawned). */
export interface Contradiction {
  claimId: string;
  otherClaimId: string;
  questionId: string;
  /** Settled contradictions leave the Contradictions section. */
  addressed: boolean;
}

export interface Ledger {
  sources: readonly LedgerSource[];
  claims: readonly Claim[];
  claimSources: readonly ClaimSource[];
  contradictions: readonly Contradiction[];
  /**
   * Who each source and each supporting statement comes from (derived from the sources' texts
   * when the ledger is loaded, never stored; core/judgment/origins): sources that copy one
   * another, or statements attributed to one origin, count once.
   */
  origins?: LedgerOrigins;
}

/** Origins derived from the texts read (`originsOf`, `statementOrigin`). */
export interface LedgerOrigins {
  /** Source id → its origin key. */
  bySource: Readonly<Record<string, string>>;
  /** `<claim id> <source id>` → the origin the supporting statement is attributed to. */
  byLink: Readonly<Record<string, string>>;
}

export const CHALLENGE_TARGETS = ["claim", "question_answer", "conclusion"] as const;
export type ChallengeTarget = (typeof CHALLENGE_TARGETS)[number];

export const CHALLENGE_STRATEGIES = [
  "negation",
  "discrepancy",
  "criticism",
  "alternative_method",
  "scope_limit",
  "primary_source",
  "staleness",
] as const;
export type ChallengeStrategy = (typeof CHALLENGE_STRATEGIES)[number];

export const CHALLENGE_OUTCOMES = ["survived", "weakened", "refuted", "inconclusive"] as const;
export type ChallengeOutcome = (typeof CHALLENGE_OUTCOMES)[number];

export interface Challenge {
  /** `ch_001`. */
  id: string;
  questionId: string | null;
  targetType: ChallengeTarget;
  /** Claim id, question id, or '' for the conclusion. */
  targetId: string;
  negation: string;
  strategy: ChallengeStrategy;
  expectedIfFalse: string;
  query: string;
  /** The attempt that executed it (question id and attempt seq), null until it ran. */
  attempt: { questionId: string; seq: number } | null;
  status: "open" | "closed";
  outcome: ChallengeOutcome | "";
  evidence: string;
  sourceIds: readonly string[];
  resultClaimId: string | null;
  createdAt: string;
  closedAt: string | null;
}

/** Everything the investigative tools read and change, for one run. */
export interface Investigation {
  runId: number;
  config: InvestigationConfig;
  frontier: Frontier;
  ledger: Ledger;
  challenges: readonly Challenge[];
  /** The Scratch section of notes.md (free text). */
  scratch: string;
  /** The research state sequence the next change belongs to (seed 000 `state_seq`). */
  stateSeq: number;
  /** The sub-agent making the calls (1 … max_parallel); 1 when absent. */
  agent?: number;
}

/** Every kind of row an investigation stores, one array per table. */
export interface InvestigationRowSet {
  questions: readonly Question[];
  dependencies: readonly Dependency[];
  attempts: readonly Attempt[];
  transitions: readonly Transition[];
  sources: readonly LedgerSource[];
  claims: readonly Claim[];
  claimSources: readonly ClaimSource[];
  contradictions: readonly Contradiction[];
  challenges: readonly Challenge[];
}

/**
 * The rows one decision adds or changes: what the effect layer writes in one transaction.
 * Question rows are upserts of the whole current value; transitions, attempts and version
 * rows are appends.
 */
export interface Mutation extends InvestigationRowSet {
  /** The whole notes.md after the change, when the change writes notes, with what wrote it. */
  notes?: {
    text: string;
    reason: "notes_append" | "notes_update" | "notes_scratch" | "consolidation" | "restore" | "frontier";
  };
}

export const EMPTY_MUTATION: Mutation = Object.freeze({
  questions: [],
  dependencies: [],
  attempts: [],
  transitions: [],
  sources: [],
  claims: [],
  claimSources: [],
  contradictions: [],
  challenges: [],
});

/** A refused tool call: the rule that refused it and what to do instead, for the model. */
export interface Rejection {
  rule: string;
  message: string;
}

/** The context of one decision: the time and, for ids, the counters the store confirms in its transaction. */
export interface DecisionContext {
  now: string;
  actor: Actor;
}
