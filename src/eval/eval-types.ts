/**
 * The data of an evaluation: one row per run (written as one JSON line) and the summary
 * the Markdown and HTML pages are rendered from. Plain JSON values only.
 */
import type { Budgets } from "../core/budgets.js";

export type SciFactLabel = "SUPPORT" | "CONTRADICT" | "NOT_ENOUGH_INFO";

/** One check of a fault's expected degradation (seed 004 "Budgets And Terminal Behavior"). */
export interface FaultCheck {
  name: string;
  passed: boolean;
  detail: string;
}

/** A judge's scores of one report, or the reason there are none. */
export type JudgeScores =
  | { scored: false; reason: string }
  | {
      scored: true;
      /** Items judged, by support of their cited passages. */
      support: { supported: number; partial: number; unsupported: number };
      coverage: number;
      decisionValue: number;
      language: "matches" | "mixed" | "wrong";
      inputTokens: number;
      outputTokens: number;
      costUsd: number | null;
    };

export interface EvalRunRow {
  /** `case|strategy|fault|repeat`: identifies the run across an interrupted evaluation. */
  key: string;
  caseId: string;
  strategy: string;
  /** `none` for a clean run, else the fault switch (`fetch-failure:2`). */
  fault: string;
  repeat: number;
  /** Position of the run in the evaluation's execution order (0-based). */
  order: number;
  runId: number | null;
  status: string;
  artifactStatus: string;
  published: boolean;
  error?: string;
  items: number;
  /** Gaps the published report states (0 when nothing was published); every strategy reports them. */
  gaps: number;
  /**
   * Published findings that rest on verified claims only (seed 000 "Claims and cross-checking").
   * null for a strategy that verifies no claims (pipeline, simple): not applicable, not 0.
   */
  verifiedClaims: number | null;
  /** Published findings whose verification is `unverified`; null as above. */
  unverifiedClaims: number | null;
  /** Published findings whose verification is `contested` (sources contradict them); null as above. */
  contestedClaims: number | null;
  sources: { read: number; cited: number; citedGold: number; gold: number };
  /** Share of the case's gold documents among the cited sources; null without gold. */
  goldRecall: number | null;
  /** Share of the cited sources that are gold documents; null when nothing was cited or the case has no gold. */
  citationPrecision: number | null;
  /** Whether an accepted answer appears in the report's findings; null when the case has none usable. */
  answerFound: boolean | null;
  /**
   * Whether an accepted answer appears in the report's first finding (its first direct finding,
   * else its first finding); null as above. Rows recorded before this figure existed lack it.
   */
  answerFirst?: boolean | null;
  /** SciFact: the verdict the report states (null: none stated) and the expected label. */
  verdict: { expected: SciFactLabel | null; stated: SciFactLabel | null; agrees: boolean | null };
  latency: { firstSourcePersistedMs: number | null; terminalMs: number | null; wallMs: number };
  usage: { generations: number; inputTokens: number; outputTokens: number; costUsd: number | null };
  /** Faulted runs: did the run still publish a useful (source-citing) artifact? null for clean runs. */
  salvaged: boolean | null;
  faultChecks: FaultCheck[];
  judge: JudgeScores;
}

/** A median and 90th percentile over the runs that have the figure. */
export interface Spread {
  n: number;
  median: number | null;
  p90: number | null;
}

/** A mean over the runs that have the figure (n of them). */
export interface Mean {
  n: number;
  mean: number | null;
}

export interface StrategySummary {
  strategy: string;
  /** Clean runs (no fault). */
  runs: number;
  published: number;
  failed: number;
  goldRecall: Mean;
  citationPrecision: Mean;
  answerShare: Mean;
  /** Share of the cases whose first finding holds an accepted answer. */
  answerFirstShare: Mean;
  labelAgreement: { agree: number; stated: number; expected: number };
  firstSourceMs: Spread;
  terminalMs: Spread;
  tokens: { input: number; output: number };
  /** USD summed over the clean runs; null when some run's cost is unknown (a model without a price). */
  costUsd: number | null;
  /** Mean per clean run of the published findings resting on verified claims; null: the strategy verifies none (n/a). */
  verifiedClaims: Mean | null;
  /** Mean per clean run of the published findings marked unverified; null: n/a, as above. */
  unverifiedClaims: Mean | null;
  /** Mean per clean run of the published findings marked contested; null: n/a, as above. */
  contestedClaims: Mean | null;
  /** Mean per clean run of the gaps its report states (a run that published nothing states 0). */
  gapsReported: Mean;
  /** Faulted runs of this strategy that still published a useful artifact. */
  salvage: { salvaged: number; faulted: number };
  judge:
    | { scored: false; reason: string }
    | { scored: true; runs: number; supportShare: Mean; coverage: Mean; decisionValue: Mean; languageShare: Mean };
}

export interface FaultSummary {
  fault: string;
  strategy: string;
  runs: number;
  salvaged: number;
  checksPassed: number;
  checksTotal: number;
  /** Names of the checks that failed at least once, with how often. */
  failing: { name: string; count: number; detail: string }[];
  /** Artifact statuses of the runs ("synthesized", "source-backed", "no-evidence", "none"). */
  outcomes: Record<string, number>;
}

export interface VerdictThresholds {
  /** Minimum mean gold recall of the candidate's clean runs. */
  minGoldRecall: number;
  /** Minimum mean citation precision of the candidate's clean runs. */
  minCitationPrecision: number;
  /** Minimum share of faulted runs that still publish a useful artifact. */
  minSalvage: number;
  /** The candidate's median terminal latency may be at most this multiple of the baseline's. */
  maxLatencyRatio: number;
  /** ...unless it is at most this many milliseconds slower (small absolute differences do not count). */
  latencySlackMs: number;
  /** A difference counts as material from this absolute share on. */
  materialDelta: number;
}

export interface Verdict {
  candidate: string;
  baseline: string;
  wins: boolean;
  /** Every reason, pass or fail, in reading order. */
  reasons: string[];
}

/** One figure of the seed 000 comparison: the candidate's and the baseline's value (null: not measured or n/a). */
export interface ComparedFigure {
  candidate: number | null;
  baseline: number | null;
}

/**
 * Seed 000 "Delivery order" 6: the investigative loop against the simple loop on the same
 * cases, on cost, verified claims and gaps reported. Means per clean run.
 */
export interface StrategyComparison {
  candidate: string;
  baseline: string;
  /** USD per clean run; null when a cost is unknown. */
  costUsd: ComparedFigure;
  /** Model tokens (input plus output) per clean run. */
  tokens: ComparedFigure;
  /** Published findings resting on verified claims per clean run; the baseline's is null when it verifies none. */
  verifiedClaims: ComparedFigure;
  /** Published findings marked unverified per clean run; null as above. */
  unverifiedClaims: ComparedFigure;
  /** Gaps the report states per clean run. */
  gapsReported: ComparedFigure;
}

export interface EvalSummary {
  title: string;
  createdAt: string;
  command: string;
  casesFile: string;
  corpus: string;
  cases: number;
  repeat: number;
  strategies: string[];
  baseline: string;
  faults: string[];
  model: string;
  judge: string | null;
  budgets: Budgets;
  /**
   * Budgets of a strategy that differ from `budgets` by design, by strategy (an investigative
   * run's turn budget is its max_iterations); {} when none differs.
   */
  strategyBudgets: Record<string, Partial<Budgets>>;
  runs: number;
  elapsedMs: number;
  perStrategy: StrategySummary[];
  /** The seed 000 comparison when both `investigative` and `simple` were evaluated, else null. */
  comparison: StrategyComparison | null;
  faultOutcomes: FaultSummary[];
  thresholds: VerdictThresholds;
  verdicts: Verdict[];
}
