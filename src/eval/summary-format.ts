/**
 * Reader-facing figures and tables of an EvalSummary, shared by the Markdown and HTML pages
 * so that both show the same cells (pure). Cells are plain text: each renderer escapes them.
 */
import type { Budgets } from "../core/budgets.js";
import { readableTime } from "../core/render/format.js";
import type {
  ComparedFigure,
  EvalSummary,
  FaultSummary,
  Mean,
  Spread,
  StrategySummary,
  VerdictThresholds,
} from "./eval-types.js";

/** What a missing figure reads as. */
export const MISSING = "—";

/** What a figure that does not apply to a strategy reads as (verified claims of a strategy that verifies none). */
export const NOT_APPLICABLE = "n/a";

/** The text of a judge cell whose strategy was not scored. */
export const NOT_SCORED = "not scored";

/** One column of a summary table; numbers are right-aligned and do not wrap in HTML. */
export interface SummaryColumn {
  label: string;
  kind: "text" | "number";
}

/** A table of plain-text cells; the first cell of each row is the row's header. */
export interface SummaryTable {
  id: "budgets" | "strategies" | "judge" | "faults";
  caption: string;
  columns: SummaryColumn[];
  rows: string[][];
  /** What to say instead of a table without rows. */
  empty: string;
}

/** `0.8125` -> `81.3%`; null or not finite -> `—`. Pure. */
export function formatShare(share: number | null): string {
  return share === null || !Number.isFinite(share) ? MISSING : `${(share * 100).toFixed(1)}%`;
}

/** `812 ms`, `2.4 s`, `1 min 05 s`, `2 h 03 min`; null or negative -> `—`. Pure. */
export function formatMs(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms) || ms < 0) return MISSING;
  if (Math.round(ms) < 1000) return `${Math.round(ms)} ms`;
  const tenths = Math.round(ms / 100);
  if (tenths < 600) return `${(tenths / 10).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${pad(seconds % 60)} s`;
  const minutes = Math.round(ms / 60_000);
  return `${Math.floor(minutes / 60)} h ${pad(minutes % 60)} min`;
}

function pad(value: number): string {
  return String(value).padStart(2, "0");
}

/** `12345` -> `12,345`. Pure. */
export function formatCount(value: number): string {
  if (!Number.isFinite(value)) return MISSING;
  const sign = value < 0 ? "-" : "";
  return sign + String(Math.round(Math.abs(value))).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** `$1.23`, `$0.0042`; null -> `unknown`. Pure. */
export function formatCost(usd: number | null): string {
  if (usd === null || !Number.isFinite(usd)) return "unknown";
  return `$${usd.toFixed(usd > 0 && usd < 0.01 ? 4 : 2)}`;
}

/** A mean share with its count: `81.3% (n=12)`; n=0 or no mean -> `—`. Pure. */
export function formatMeanShare(mean: Mean): string {
  return mean.n === 0 || mean.mean === null ? MISSING : `${formatShare(mean.mean)} (n=${mean.n})`;
}

/** A mean score with its count: `1.50 (n=4)`; n=0 or no mean -> `—`. Pure. */
export function formatMeanScore(mean: Mean): string {
  return mean.n === 0 || mean.mean === null || !Number.isFinite(mean.mean)
    ? MISSING
    : `${mean.mean.toFixed(2)} (n=${mean.n})`;
}

/** A mean that may not apply: null -> `n/a`, else as `formatMeanScore`. Pure. */
export function formatApplicableMean(mean: Mean | null): string {
  return mean === null ? NOT_APPLICABLE : formatMeanScore(mean);
}

/** `812 ms / 2.4 s` (median / p90); n=0 -> `—`. Pure. */
export function formatSpread(spread: Spread): string {
  return spread.n === 0 ? MISSING : `${formatMs(spread.median)} / ${formatMs(spread.p90)}`;
}

/** `x/y`, or `—` when y is 0. Pure. */
export function formatRatio(part: number, whole: number): string {
  return whole === 0 ? MISSING : `${part}/${whole}`;
}

const BUDGET_LABELS: Partial<Record<keyof Budgets, string>> = {
  wallClockMs: "Wall clock",
  publishReserveMs: "Publish reserve",
  maxGenerations: "Model generations",
  maxTurns: "Model turns (tool loop)",
  modelCallTimeoutMs: "Model call time limit",
  maxSearchCalls: "Search calls",
  maxFetchAttempts: "Fetch attempts",
  maxSources: "Sources",
  bootstrapSources: "Bootstrap sources",
  maxSourceChars: "Characters kept per source",
  maxPacketChars: "Characters per synthesis packet",
  excerptCharsPerSource: "Excerpt characters per source",
  excerptCharsTotal: "Excerpt characters in all",
};

function budgetLabel(key: string): string {
  const known = BUDGET_LABELS[key as keyof Budgets];
  if (known !== undefined) return known;
  const words = key.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A budget's value in its unit, chosen from its name (`…Ms`, `…Chars…`, else a count). Pure. */
export function formatBudget(key: string, value: unknown): string {
  if (typeof value !== "number") return String(value);
  if (key.endsWith("Ms")) return formatMs(value);
  if (key.includes("Chars")) return `${formatCount(value)} characters`;
  return formatCount(value);
}

function judgeCells(strategy: StrategySummary): string[] {
  const judge = strategy.judge;
  if (!judge.scored) return [NOT_SCORED, NOT_SCORED, NOT_SCORED, NOT_SCORED, NOT_SCORED, judge.reason];
  return [
    String(judge.runs),
    formatMeanShare(judge.supportShare),
    formatMeanScore(judge.coverage),
    formatMeanScore(judge.decisionValue),
    formatMeanShare(judge.languageShare),
    MISSING,
  ];
}

function strategyCells(strategy: StrategySummary, baseline: string): string[] {
  const label = strategy.labelAgreement;
  return [
    strategy.strategy === baseline ? `${strategy.strategy} (baseline)` : strategy.strategy,
    String(strategy.runs),
    String(strategy.published),
    String(strategy.failed),
    formatMeanShare(strategy.goldRecall),
    formatMeanShare(strategy.citationPrecision),
    formatMeanShare(strategy.answerShare),
    formatMeanShare(strategy.answerFirstShare),
    label.expected === 0 ? MISSING : `${label.agree}/${label.stated} (${label.expected})`,
    formatApplicableMean(strategy.verifiedClaims),
    formatApplicableMean(strategy.unverifiedClaims),
    formatApplicableMean(strategy.contestedClaims),
    formatMeanScore(strategy.gapsReported),
    formatSpread(strategy.firstSourceMs),
    formatSpread(strategy.terminalMs),
    `${formatCount(strategy.tokens.input)} / ${formatCount(strategy.tokens.output)}`,
    formatCost(strategy.costUsd),
    formatRatio(strategy.salvage.salvaged, strategy.salvage.faulted),
  ];
}

function faultCells(fault: FaultSummary): string[] {
  const failing = fault.failing.map(
    (check) => `${check.name} ×${check.count}${check.detail ? ` (${check.detail})` : ""}`,
  );
  const outcomes = Object.entries(fault.outcomes).map(([status, count]) => `${status} ${count}`);
  return [
    fault.fault,
    fault.strategy,
    String(fault.runs),
    formatRatio(fault.salvaged, fault.runs),
    formatRatio(fault.checksPassed, fault.checksTotal),
    failing.length > 0 ? failing.join("; ") : MISSING,
    outcomes.length > 0 ? outcomes.join(", ") : MISSING,
  ];
}

/** `; investigative: 60` for each strategy whose `key` budget differs by design, or ''. */
function strategyBudgetNote(summary: EvalSummary, key: string): string {
  return Object.entries(summary.strategyBudgets)
    .flatMap(([strategy, budgets]) => {
      const value = (budgets as Record<string, unknown>)[key];
      return value === undefined ? [] : [`; ${strategy}: ${formatBudget(key, value)}`];
    })
    .join("");
}

const text = (label: string): SummaryColumn => ({ label, kind: "text" });
const number = (label: string): SummaryColumn => ({ label, kind: "number" });

/** The summary's tables, in reading order. Pure. */
export function summaryTables(summary: EvalSummary): SummaryTable[] {
  return [
    {
      id: "budgets",
      caption: "Equal budgets: every strategy ran under these limits",
      columns: [text("Budget"), text("Setting"), number("Value")],
      rows: Object.entries(summary.budgets).map(([key, value]) => [
        budgetLabel(key),
        key,
        formatBudget(key, value) + strategyBudgetNote(summary, key),
      ]),
      empty: "No budgets were recorded.",
    },
    {
      id: "strategies",
      caption: "Per strategy: clean runs (salvage counts faulted runs)",
      columns: [
        text("Strategy"),
        number("Runs"),
        number("Published"),
        number("Failed"),
        number("Gold-document recall"),
        number("Citation precision"),
        number("Answer share"),
        number("Answer in the first finding"),
        number("Label agreement: agree/stated (expected)"),
        number("Verified claims per run"),
        number("Unverified claims per run"),
        number("Contested claims per run"),
        number("Gaps reported per run"),
        number("First source (median / p90)"),
        number("Terminal (median / p90)"),
        number("Tokens (in / out)"),
        number("Cost"),
        number("Salvage"),
      ],
      rows: summary.perStrategy.map((strategy) => strategyCells(strategy, summary.baseline)),
      empty: "No strategy ran.",
    },
    {
      id: "judge",
      caption: summary.judge === null ? "Judge: none configured" : `Judge: ${summary.judge}`,
      columns: [
        text("Strategy"),
        number("Runs judged"),
        number("Supported items"),
        number("Coverage (0–2)"),
        number("Decision value (0–2)"),
        number("Language matches"),
        text("Note"),
      ],
      rows: summary.perStrategy.map((strategy) => [strategy.strategy, ...judgeCells(strategy)]),
      empty: "No strategy ran.",
    },
    {
      id: "faults",
      caption: "Faults: injected failures and how each strategy degraded",
      columns: [
        text("Fault"),
        text("Strategy"),
        number("Runs"),
        number("Salvaged"),
        number("Checks passed"),
        text("Failing checks"),
        text("Outcomes"),
      ],
      rows: summary.faultOutcomes.map(faultCells),
      empty: "No faults were run.",
    },
  ];
}

/** The run's facts as label and value, in reading order. Pure. */
export function runFacts(summary: EvalSummary): [string, string][] {
  return [
    ["Command", summary.command],
    ["Cases file", summary.casesFile],
    ["Corpus", summary.corpus],
    ["Cases", String(summary.cases)],
    ["Repeat", String(summary.repeat)],
    ["Strategies", summary.strategies.length > 0 ? summary.strategies.join(", ") : "none"],
    ["Baseline", summary.baseline],
    ["Faults", summary.faults.length > 0 ? summary.faults.join(", ") : "none"],
    ["Model", summary.model],
    ["Judge", summary.judge ?? "none"],
    ["Runs", String(summary.runs)],
    ["Elapsed", formatMs(summary.elapsedMs)],
    ["Created", readableTime(summary.createdAt)],
  ];
}

/** The verdict thresholds as sentences. Pure. */
export function thresholdLines(thresholds: VerdictThresholds): string[] {
  return [
    `Mean gold-document recall of clean runs at least ${formatShare(thresholds.minGoldRecall)}`,
    `Mean citation precision of clean runs at least ${formatShare(thresholds.minCitationPrecision)}`,
    `Faulted runs that still publish a useful artifact at least ${formatShare(thresholds.minSalvage)}`,
    `Median terminal latency at most ${thresholds.maxLatencyRatio}× the baseline's, or at most ${formatMs(thresholds.latencySlackMs)} slower`,
    `A difference is material from ${formatShare(thresholds.materialDelta)} on`,
  ];
}

/** A per-run figure: `2.50`; null -> `—`. */
function perRun(value: number | null): string {
  return value === null || !Number.isFinite(value) ? MISSING : value.toFixed(2);
}

/** ` (3.08× simple's)` when both are known and the baseline's is above 0, else ''. */
function ratio(figure: ComparedFigure, baseline: string): string {
  const { candidate, baseline: base } = figure;
  return candidate === null || base === null || base <= 0 ? "" : ` (${(candidate / base).toFixed(2)}× ${baseline}'s)`;
}

/** ` (+0.75)` when both are known, else ''. */
function difference(figure: ComparedFigure): string {
  const { candidate, baseline } = figure;
  if (candidate === null || baseline === null) return "";
  const delta = candidate - baseline;
  return ` (${delta < 0 ? "-" : "+"}${Math.abs(delta).toFixed(2)})`;
}

/**
 * The seed 000 comparison (investigative against simple: cost, verified claims, gaps
 * reported) as sentences, one per figure; [] when the summary has none. Pure.
 */
export function comparisonLines(summary: EvalSummary): string[] {
  const comparison = summary.comparison;
  if (!comparison) return [];
  const { candidate, baseline } = comparison;
  const baselineSummary = summary.perStrategy.find((item) => item.strategy === baseline);
  // The baseline's count is n/a when it verifies no claims, not merely missing.
  const claims = (value: number | null): string =>
    value === null && baselineSummary?.verifiedClaims === null ? NOT_APPLICABLE : perRun(value);
  const cost = (value: number | null): string => (value === null ? "unknown" : formatCost(value));
  const tokens = (value: number | null): string => (value === null ? MISSING : formatCount(value));
  const verifiedNote = baselineSummary?.verifiedClaims === null ? ` (${baseline} verifies no claims)` : "";
  return [
    `Cost per clean run: ${candidate} ${cost(comparison.costUsd.candidate)} vs ${baseline} ${cost(comparison.costUsd.baseline)}${ratio(comparison.costUsd, baseline)}`,
    `Model tokens per clean run: ${candidate} ${tokens(comparison.tokens.candidate)} vs ${baseline} ${tokens(comparison.tokens.baseline)}${ratio(comparison.tokens, baseline)}`,
    `Verified claims per clean run: ${candidate} ${perRun(comparison.verifiedClaims.candidate)} vs ${baseline} ${claims(comparison.verifiedClaims.baseline)}${verifiedNote}; unverified ${perRun(comparison.unverifiedClaims.candidate)} vs ${claims(comparison.unverifiedClaims.baseline)}`,
    `Gaps reported per clean run: ${candidate} ${perRun(comparison.gapsReported.candidate)} vs ${baseline} ${perRun(comparison.gapsReported.baseline)}${difference(comparison.gapsReported)}`,
  ];
}
