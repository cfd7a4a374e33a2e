/**
 * The aggregation of an evaluation's run rows into its summary, and the verdict rule of seed 004
 * ("Required Evaluation"): a candidate wins only if it passes the product thresholds and materially
 * outperforms the simpler baseline on its salvage or citation outcomes without violating latency.
 * Everything here is pure: no I/O, no clock.
 * @module
 */
import type {
  EvalRunRow,
  EvalSummary,
  FaultSummary,
  Mean,
  Spread,
  StrategyComparison,
  StrategySummary,
  Verdict,
  VerdictThresholds,
} from "./eval-types.js";
import { verifiesClaims } from "./scoring.js";
import { formatMs, formatShare } from "./summary-format.js";

/** The product thresholds a candidate must pass before it can win. */
export const DEFAULT_THRESHOLDS: Readonly<VerdictThresholds> = Object.freeze({
  minGoldRecall: 0.5,
  minCitationPrecision: 0.3,
  minSalvage: 0.8,
  maxLatencyRatio: 1.5,
  latencySlackMs: 1_000,
  materialDelta: 0.05,
});

/** What `summarize` takes besides the rows: every summary field it does not compute (`strategyBudgets` defaults to {}). */
export type SummaryMeta = Omit<
  EvalSummary,
  "perStrategy" | "faultOutcomes" | "verdicts" | "runs" | "comparison" | "strategyBudgets"
> & { strategyBudgets?: EvalSummary["strategyBudgets"] };

/** Seed 000 "Delivery order" 6 compares the investigative loop with the simple loop. */
export const SEED_COMPARISON = { candidate: "investigative", baseline: "simple" } as const;

/** The fault of a clean run. */
const CLEAN = "none";

/** Shares and ratios are compared with this slack, so that 0.35 − 0.30 counts as a 5-point difference. */
const EPSILON = 1e-9;

/**
 * Summarizes the rows of an evaluation: per strategy (in `meta.strategies` order), per fault and
 * strategy (in `meta.faults` then `meta.strategies` order, faults and strategies not named there
 * after them), and a verdict for each strategy other than the baseline. Never throws. Pure.
 */
export function summarize(rows: readonly EvalRunRow[], meta: SummaryMeta): EvalSummary {
  const perStrategy = unique(meta.strategies).map((strategy) => summarizeStrategy(rows, strategy));
  const baseline =
    perStrategy.find((item) => item.strategy === meta.baseline) ?? summarizeStrategy(rows, meta.baseline);
  const verdicts = perStrategy
    .filter((item) => item.strategy !== meta.baseline)
    .map((candidate) => verdict(candidate, baseline, meta.thresholds));
  return {
    ...meta,
    strategyBudgets: meta.strategyBudgets ?? {},
    runs: rows.length,
    perStrategy,
    comparison: seedComparison(perStrategy),
    faultOutcomes: summarizeFaults(rows, meta),
    verdicts,
  };
}

/**
 * Seed 000's comparison (investigative against simple: cost, verified claims, gaps reported),
 * as means per clean run; null unless both strategies were evaluated. Pure.
 */
export function seedComparison(perStrategy: readonly StrategySummary[]): StrategyComparison | null {
  const candidate = perStrategy.find((item) => item.strategy === SEED_COMPARISON.candidate);
  const baseline = perStrategy.find((item) => item.strategy === SEED_COMPARISON.baseline);
  if (!candidate || !baseline) return null;
  const perRun = (item: StrategySummary, total: number | null): number | null =>
    total === null || item.runs === 0 ? null : total / item.runs;
  const figure = (pick: (item: StrategySummary) => number | null) => ({
    candidate: pick(candidate),
    baseline: pick(baseline),
  });
  return {
    candidate: candidate.strategy,
    baseline: baseline.strategy,
    costUsd: figure((item) => perRun(item, item.costUsd)),
    tokens: figure((item) => perRun(item, item.tokens.input + item.tokens.output)),
    verifiedClaims: figure((item) => item.verifiedClaims?.mean ?? null),
    unverifiedClaims: figure((item) => item.unverifiedClaims?.mean ?? null),
    gapsReported: figure((item) => item.gapsReported.mean),
  };
}

function summarizeStrategy(rows: readonly EvalRunRow[], strategy: string): StrategySummary {
  const own = rows.filter((row) => row.strategy === strategy);
  const clean = own.filter((row) => row.fault === CLEAN);
  const faulted = own.filter((row) => row.fault !== CLEAN);
  return {
    strategy,
    runs: clean.length,
    published: count(clean, (row) => row.published),
    failed: count(clean, (row) => row.status !== "finished"),
    goldRecall: mean(clean.map((row) => row.goldRecall)),
    citationPrecision: mean(clean.map((row) => row.citationPrecision)),
    answerShare: mean(clean.map((row) => (row.answerFound === null ? null : row.answerFound ? 1 : 0))),
    answerFirstShare: mean(clean.map((row) => (row.answerFirst == null ? null : row.answerFirst ? 1 : 0))),
    labelAgreement: {
      agree: count(clean, (row) => row.verdict.agrees === true),
      stated: count(clean, (row) => row.verdict.stated !== null && row.verdict.expected !== null),
      expected: count(clean, (row) => row.verdict.expected !== null),
    },
    firstSourceMs: spread(clean.map((row) => row.latency.firstSourcePersistedMs)),
    terminalMs: spread(clean.map((row) => row.latency.terminalMs)),
    tokens: {
      input: sum(clean.map((row) => row.usage.inputTokens)),
      output: sum(clean.map((row) => row.usage.outputTokens)),
    },
    costUsd: totalCost(clean),
    // Rows written before these counts existed have none (?? null).
    verifiedClaims: verifiesClaims(strategy) ? mean(clean.map((row) => row.verifiedClaims ?? null)) : null,
    unverifiedClaims: verifiesClaims(strategy) ? mean(clean.map((row) => row.unverifiedClaims ?? null)) : null,
    contestedClaims: mean(clean.map((row) => row.contestedClaims ?? null)),
    gapsReported: mean(clean.map((row) => row.gaps)),
    salvage: { salvaged: count(faulted, (row) => row.salvaged === true), faulted: faulted.length },
    judge: summarizeJudge(clean),
  };
}

/** The runs' summed cost; null when a run that used tokens has no known cost (a run without tokens costs 0). */
function totalCost(rows: readonly EvalRunRow[]): number | null {
  let total = 0;
  for (const { usage } of rows) {
    if (usage.costUsd !== null && Number.isFinite(usage.costUsd)) total += usage.costUsd;
    else if (usage.inputTokens + usage.outputTokens > 0) return null;
  }
  return total;
}

function summarizeJudge(clean: readonly EvalRunRow[]): StrategySummary["judge"] {
  const scored = clean.flatMap((row) => (row.judge.scored ? [row.judge] : []));
  if (scored.length === 0) {
    const first = clean[0]?.judge;
    const reason = first !== undefined && !first.scored && first.reason !== "" ? first.reason : "no judge configured";
    return { scored: false, reason };
  }
  return {
    scored: true,
    runs: scored.length,
    supportShare: mean(
      scored.map(({ support }) => {
        const items = support.supported + support.partial + support.unsupported;
        return items > 0 ? support.supported / items : null;
      }),
    ),
    coverage: mean(scored.map((judge) => judge.coverage / 2)),
    decisionValue: mean(scored.map((judge) => judge.decisionValue / 2)),
    languageShare: mean(scored.map((judge) => (judge.language === "matches" ? 1 : 0))),
  };
}

function summarizeFaults(rows: readonly EvalRunRow[], meta: SummaryMeta): FaultSummary[] {
  const faulted = rows.filter((row) => row.fault !== CLEAN);
  const faults = unique([...meta.faults, ...faulted.map((row) => row.fault)]);
  const strategies = unique([...meta.strategies, ...faulted.map((row) => row.strategy)]);
  const out: FaultSummary[] = [];
  for (const fault of faults) {
    for (const strategy of strategies) {
      const group = faulted.filter((row) => row.fault === fault && row.strategy === strategy);
      if (group.length > 0) out.push(summarizeFault(fault, strategy, group));
    }
  }
  return out;
}

function summarizeFault(fault: string, strategy: string, group: readonly EvalRunRow[]): FaultSummary {
  const failing = new Map<string, { count: number; detail: string }>();
  const outcomes = new Map<string, number>();
  let checksPassed = 0;
  let checksTotal = 0;
  for (const row of group) {
    // A check that fails twice in one run counts once, with the run's first failing detail.
    const failedHere = new Map<string, string>();
    for (const check of row.faultChecks) {
      checksTotal += 1;
      if (check.passed) checksPassed += 1;
      else if (!failedHere.has(check.name)) failedHere.set(check.name, check.detail);
    }
    for (const [name, detail] of failedHere) {
      const entry = failing.get(name);
      failing.set(name, entry ? { count: entry.count + 1, detail: entry.detail } : { count: 1, detail });
    }
    const outcome = !row.published || row.artifactStatus === "" ? "none" : row.artifactStatus;
    outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
  }
  return {
    fault,
    strategy,
    runs: group.length,
    salvaged: count(group, (row) => row.salvaged === true),
    checksPassed,
    checksTotal,
    failing: byCountThenName([...failing].map(([name, entry]) => ({ name, ...entry }))),
    outcomes: Object.fromEntries(
      byCountThenName([...outcomes].map(([name, runs]) => ({ name, count: runs }))).map((item) => [
        item.name,
        item.count,
      ]),
    ),
  };
}

/** One check of a verdict: a product threshold, a material improvement over the baseline, or latency. */
export interface VerdictCheck {
  kind: "comparison" | "threshold" | "improvement" | "latency";
  /** What the check is about, for the closing sentence (`citation precision`). */
  label: string;
  /** For an improvement, "passes" means material; "not measured" never blocks and never wins. */
  outcome: "passes" | "fails" | "not measured";
  reason: string;
}

/**
 * Every check of the verdict rule, in reading order: the product thresholds, the material
 * improvements over the baseline, then latency (only a comparison check when the two cannot be
 * compared). Pure.
 */
export function verdictChecks(
  candidate: StrategySummary,
  baseline: StrategySummary,
  thresholds: VerdictThresholds,
): VerdictCheck[] {
  const comparison = (reason: string): VerdictCheck[] => [
    { kind: "comparison", label: reason, outcome: "fails", reason },
  ];
  if (candidate.strategy === baseline.strategy) return comparison(`${candidate.strategy} is the baseline itself`);
  if (candidate.runs === 0) return comparison(`${candidate.strategy} has no clean runs to judge`);
  if (baseline.runs === 0) return comparison(`the baseline ${baseline.strategy} has no clean runs to compare against`);
  const salvageOf = (item: StrategySummary) =>
    item.salvage.faulted > 0 ? item.salvage.salvaged / item.salvage.faulted : null;
  return [
    threshold("gold-document recall", candidate.goldRecall.mean, thresholds.minGoldRecall),
    threshold("citation precision", candidate.citationPrecision.mean, thresholds.minCitationPrecision),
    salvageThreshold(candidate, thresholds.minSalvage),
    improvement("salvage", salvageOf(candidate), salvageOf(baseline), thresholds.materialDelta),
    improvement(
      "citation precision",
      candidate.citationPrecision.mean,
      baseline.citationPrecision.mean,
      thresholds.materialDelta,
    ),
    improvement("gold-document recall", candidate.goldRecall.mean, baseline.goldRecall.mean, thresholds.materialDelta),
    latency(
      candidate.terminalMs.median,
      baseline.terminalMs.median,
      thresholds.maxLatencyRatio,
      thresholds.latencySlackMs,
    ),
  ];
}

/**
 * Seed 004's rule: the candidate wins only if it passes every product threshold, materially
 * outperforms the baseline on at least one of salvage, citation precision or gold-document recall,
 * and does not violate latency. `reasons` gives every check, then the conclusion. Pure.
 */
export function verdict(candidate: StrategySummary, baseline: StrategySummary, thresholds: VerdictThresholds): Verdict {
  const checks = verdictChecks(candidate, baseline, thresholds);
  const blocking = checks.filter((check) => check.kind !== "improvement" && check.outcome === "fails");
  const material = checks.filter((check) => check.kind === "improvement" && check.outcome === "passes");
  const wins = blocking.length === 0 && material.length > 0;
  const names = `${candidate.strategy} against the baseline ${baseline.strategy}`;
  const conclusion = wins
    ? `${names}: wins (passes the thresholds, materially better on ${material.map((check) => check.label).join(", ")}, within latency)`
    : `${names}: does not win (${[
        ...blocking.map((check) => (check.kind === "threshold" ? `fails ${check.label}` : check.label)),
        ...(material.length === 0 && checks.some((check) => check.kind === "improvement")
          ? ["no material improvement"]
          : []),
      ].join("; ")}); keep the baseline`;
  return {
    candidate: candidate.strategy,
    baseline: baseline.strategy,
    wins,
    reasons: [...checks.map((check) => check.reason), conclusion],
  };
}

function threshold(label: string, value: number | null, minimum: number): VerdictCheck {
  if (value === null) return { kind: "threshold", label, outcome: "fails", reason: `${label} not measured: fails` };
  const passes = value >= minimum - EPSILON;
  const reason = `${label} ${formatShare(value)} ${passes ? "≥" : "<"} threshold ${formatShare(minimum)}: ${passes ? "passes" : "fails"}`;
  return { kind: "threshold", label, outcome: passes ? "passes" : "fails", reason };
}

function salvageThreshold(candidate: StrategySummary, minimum: number): VerdictCheck {
  const { salvaged, faulted } = candidate.salvage;
  if (faulted === 0) {
    const reason = "salvage not measured (no fault runs): does not block, but cannot be the material improvement";
    return { kind: "threshold", label: "salvage", outcome: "not measured", reason };
  }
  const check = threshold("salvage", salvaged / faulted, minimum);
  return { ...check, reason: check.reason.replace(/^salvage /, `salvage ${salvaged}/${faulted} = `) };
}

function improvement(label: string, value: number | null, base: number | null, delta: number): VerdictCheck {
  if (value === null || base === null) {
    const missing = value === null ? (base === null ? "either side" : "the candidate") : "the baseline";
    return {
      kind: "improvement",
      label,
      outcome: "not measured",
      reason: `${label} not compared: not measured for ${missing}`,
    };
  }
  const difference = value - base;
  const material = difference >= delta - EPSILON;
  const reason =
    `${label} ${formatShare(value)} vs baseline ${formatShare(base)}: ${points(difference)} points, ` +
    (material ? `material (≥ ${onePlace(delta * 100)})` : `not material (< ${onePlace(delta * 100)})`);
  return { kind: "improvement", label, outcome: material ? "passes" : "fails", reason };
}

function latency(value: number | null, base: number | null, maxRatio: number, slackMs: number): VerdictCheck {
  const label = "violates latency";
  const limit = maxRatio.toFixed(2);
  const check = (passes: boolean, reason: string): VerdictCheck => ({
    kind: "latency",
    label,
    outcome: passes ? "passes" : "fails",
    reason,
  });
  const shown = (ms: number | null) => (ms === null ? "not measured" : formatMs(ms));
  if (base !== null && value !== null && value - base <= slackMs + EPSILON) {
    // Sub-second differences (an offline run of 0.3 s against 0.2 s) are not a latency a reader feels.
    return check(
      true,
      `median terminal latency ${formatMs(value)} vs baseline ${formatMs(base)}: at most ${formatMs(slackMs)} slower: within latency`,
    );
  }
  if (base === null || base <= 0) {
    // Without a baseline latency there is no ratio: only a candidate without latency either is not slower.
    const head = `median terminal latency ${shown(value)} vs baseline ${shown(base)}: no ratio`;
    return value === null || value <= 0
      ? check(true, `${head}: not violated`)
      : check(false, `${head} to stay within: violates latency`);
  }
  if (value === null) {
    return check(false, `median terminal latency not measured vs baseline ${formatMs(base)}: violates latency`);
  }
  const ratio = value / base;
  const passes = ratio <= maxRatio + EPSILON;
  return check(
    passes,
    `median terminal latency ${formatMs(value)} vs baseline ${formatMs(base)}: ratio ${ratio.toFixed(2)} ` +
      (passes ? `≤ ${limit}: within latency` : `> ${limit}: violates latency`),
  );
}

/** `0.108` -> `+10.8`; `-0.02` -> `-2.0`. */
function points(share: number): string {
  const rounded = Math.round(share * 1000) / 10;
  return `${rounded < 0 ? "-" : "+"}${onePlace(Math.abs(rounded))}`;
}

function onePlace(value: number): string {
  return value.toFixed(1);
}

/** The mean of the finite values; nulls and non-finite values are skipped. */
function mean(values: readonly (number | null)[]): Mean {
  const present = finite(values);
  return { n: present.length, mean: present.length === 0 ? null : sum(present) / present.length };
}

/** Median and 90th percentile by nearest rank over the finite values. */
function spread(values: readonly (number | null)[]): Spread {
  const sorted = finite(values).sort((a, b) => a - b);
  return { n: sorted.length, median: nearestRank(sorted, 0.5), p90: nearestRank(sorted, 0.9) };
}

/** The value at rank ⌈p·n⌉ (1-based) of `sorted`; null when empty. */
function nearestRank(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(p * sorted.length)));
  return sorted[rank - 1] ?? null;
}

function finite(values: readonly (number | null)[]): number[] {
  return values.filter((value): value is number => value !== null && Number.isFinite(value));
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => (Number.isFinite(value) ? total + value : total), 0);
}

function count<T>(items: readonly T[], predicate: (item: T) => boolean): number {
  return items.reduce((total, item) => (predicate(item) ? total + 1 : total), 0);
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}

/** Most frequent first, then by name (code-unit order, so independent of locale). */
function byCountThenName<T extends { name: string; count: number }>(items: T[]): T[] {
  return items.sort((a, b) => b.count - a.count || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
