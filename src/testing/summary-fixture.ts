/**
 * EvalSummary fixtures for the renderers' tests (pure): a realistic three-strategy
 * evaluation, and a variant whose every free text is hostile markup.
 */
import { DEFAULT_BUDGETS } from "../core/budgets.js";
import type { EvalSummary, StrategySummary } from "../eval/eval-types.js";

const simple: StrategySummary = {
  strategy: "simple",
  runs: 12,
  published: 12,
  failed: 0,
  goldRecall: { n: 12, mean: 0.625 },
  citationPrecision: { n: 11, mean: 0.4318 },
  answerShare: { n: 12, mean: 0.5 },
  answerFirstShare: { n: 12, mean: 0.5 },
  labelAgreement: { agree: 0, stated: 0, expected: 0 },
  firstSourceMs: { n: 12, median: 812, p90: 1_430 },
  terminalMs: { n: 12, median: 24_400, p90: 41_250 },
  tokens: { input: 182_340, output: 9_870 },
  costUsd: 0.4123,
  verifiedClaims: null,
  unverifiedClaims: null,
  contestedClaims: { n: 12, mean: 0 },
  gapsReported: { n: 12, mean: 0.5 },
  salvage: { salvaged: 3, faulted: 4 },
  judge: {
    scored: true,
    runs: 12,
    supportShare: { n: 12, mean: 0.78 },
    coverage: { n: 12, mean: 1.25 },
    decisionValue: { n: 12, mean: 1.0833 },
    languageShare: { n: 12, mean: 1 },
  },
};

const pipeline: StrategySummary = {
  strategy: "pipeline",
  runs: 12,
  published: 11,
  failed: 1,
  goldRecall: { n: 12, mean: 0.8125 },
  citationPrecision: { n: 11, mean: 0.6667 },
  answerShare: { n: 12, mean: 0.6667 },
  answerFirstShare: { n: 12, mean: 0.6667 },
  labelAgreement: { agree: 0, stated: 0, expected: 0 },
  firstSourceMs: { n: 11, median: 2_380, p90: 3_960 },
  terminalMs: { n: 12, median: 65_200, p90: 118_900 },
  tokens: { input: 96_512, output: 14_208 },
  costUsd: 0.2871,
  verifiedClaims: null,
  unverifiedClaims: null,
  contestedClaims: { n: 12, mean: 0.25 },
  gapsReported: { n: 12, mean: 1.25 },
  salvage: { salvaged: 6, faulted: 8 },
  judge: {
    scored: true,
    runs: 11,
    supportShare: { n: 11, mean: 0.9012 },
    coverage: { n: 11, mean: 1.6364 },
    decisionValue: { n: 11, mean: 1.4545 },
    languageShare: { n: 11, mean: 1 },
  },
};

/** A strategy with missing figures: no answer share, no first source, unknown cost, no judge. */
const agent: StrategySummary = {
  strategy: "agent",
  runs: 12,
  published: 9,
  failed: 3,
  goldRecall: { n: 12, mean: 0.5417 },
  citationPrecision: { n: 9, mean: 0.3889 },
  answerShare: { n: 0, mean: null },
  answerFirstShare: { n: 0, mean: null },
  labelAgreement: { agree: 0, stated: 0, expected: 0 },
  firstSourceMs: { n: 0, median: null, p90: null },
  terminalMs: { n: 12, median: 187_000, p90: 295_500 },
  tokens: { input: 401_877, output: 22_015 },
  costUsd: null,
  verifiedClaims: null,
  unverifiedClaims: null,
  contestedClaims: { n: 12, mean: 0 },
  gapsReported: { n: 12, mean: 0 },
  salvage: { salvaged: 0, faulted: 2 },
  judge: { scored: false, reason: "the judge's daily budget was spent before these runs" },
};

/** A realistic summary: three strategies, one not judged, four fault rows, two verdicts. Pure. */
export function sampleSummary(): EvalSummary {
  return {
    title: "assay eval: HotpotQA train-100, offline corpus",
    createdAt: "2026-12-02T10:44:26.726Z",
    command: "assay eval --cases ../shared/eval/hotpotqa-train100/cases.jsonl --strategies simple,pipeline,agent",
    casesFile: "../shared/eval/hotpotqa-train100/cases.jsonl",
    corpus: "../shared/eval/hotpotqa-train100/corpus",
    cases: 4,
    repeat: 3,
    strategies: ["simple", "pipeline", "agent"],
    baseline: "simple",
    faults: ["fetch-failure:2", "model-timeout", "search-outage"],
    model: "openai:gpt-4.1-mini",
    judge: "anthropic:claude-sonnet-4-5",
    budgets: { ...DEFAULT_BUDGETS },
    strategyBudgets: {},
    runs: 46,
    elapsedMs: 1_985_400,
    perStrategy: [structuredClone(simple), structuredClone(pipeline), structuredClone(agent)],
    comparison: null,
    faultOutcomes: [
      {
        fault: "fetch-failure:2",
        strategy: "simple",
        runs: 4,
        salvaged: 3,
        checksPassed: 7,
        checksTotal: 8,
        failing: [
          { name: "publishes-source-backed", count: 1, detail: "published no-evidence after 2 failed fetches" },
        ],
        outcomes: { "source-backed": 3, "no-evidence": 1 },
      },
      {
        fault: "fetch-failure:2",
        strategy: "pipeline",
        runs: 4,
        salvaged: 4,
        checksPassed: 8,
        checksTotal: 8,
        failing: [],
        outcomes: { synthesized: 2, "source-backed": 2 },
      },
      {
        fault: "model-timeout",
        strategy: "pipeline",
        runs: 4,
        salvaged: 2,
        checksPassed: 5,
        checksTotal: 8,
        failing: [
          { name: "keeps-bootstrap-sources", count: 2, detail: "0 sources persisted before the timeout" },
          { name: "publishes-before-deadline", count: 1, detail: "published 1.2 s after the wall clock" },
        ],
        outcomes: { "source-backed": 2, none: 2 },
      },
      {
        fault: "search-outage",
        strategy: "agent",
        runs: 2,
        salvaged: 0,
        checksPassed: 0,
        checksTotal: 0,
        failing: [],
        outcomes: { none: 2 },
      },
    ],
    thresholds: {
      minGoldRecall: 0.6,
      minCitationPrecision: 0.5,
      minSalvage: 0.5,
      maxLatencyRatio: 3,
      latencySlackMs: 1_000,
      materialDelta: 0.05,
    },
    verdicts: [
      {
        candidate: "pipeline",
        baseline: "simple",
        wins: true,
        reasons: [
          "gold-document recall 81.3% ≥ 60.0% and 18.8 points above the baseline (material)",
          "citation precision 66.7% ≥ 50.0%",
          "salvage 75.0% ≥ 50.0%",
          "median terminal latency 2.7× the baseline's ≤ 3×",
        ],
      },
      {
        candidate: "agent",
        baseline: "simple",
        wins: false,
        reasons: [
          "gold-document recall 54.2% < 60.0%",
          "citation precision 38.9% < 50.0%",
          "salvage 0.0% < 50.0%",
          "median terminal latency 7.7× the baseline's > 3×",
        ],
      },
    ],
  };
}

/** An investigative strategy: verified and unverified claims, a priced cost, its own turn budget. */
const investigative: StrategySummary = {
  strategy: "investigative",
  runs: 12,
  published: 12,
  failed: 0,
  goldRecall: { n: 12, mean: 0.75 },
  citationPrecision: { n: 12, mean: 0.6 },
  answerShare: { n: 12, mean: 0.5833 },
  answerFirstShare: { n: 12, mean: 0.5833 },
  labelAgreement: { agree: 0, stated: 0, expected: 0 },
  firstSourceMs: { n: 12, median: 1_910, p90: 2_870 },
  terminalMs: { n: 12, median: 142_000, p90: 201_300 },
  tokens: { input: 1_204_800, output: 61_200 },
  costUsd: 1.6488,
  verifiedClaims: { n: 12, mean: 3.25 },
  unverifiedClaims: { n: 12, mean: 1.5 },
  contestedClaims: { n: 12, mean: 0.5 },
  gapsReported: { n: 12, mean: 2 },
  salvage: { salvaged: 4, faulted: 4 },
  judge: { scored: false, reason: "no judge configured" },
};

/**
 * The sample summary with `investigative` in place of `agent`: the seed 000 comparison
 * (investigative against simple, means per clean run) and the investigative turn budget. Pure.
 */
export function investigativeSummary(): EvalSummary {
  const summary = sampleSummary();
  const perStrategy = summary.perStrategy.map((item) =>
    item.strategy === "agent" ? structuredClone(investigative) : item,
  );
  return {
    ...summary,
    strategies: ["simple", "pipeline", "investigative"],
    strategyBudgets: { investigative: { maxTurns: 60 } },
    perStrategy,
    comparison: {
      candidate: "investigative",
      baseline: "simple",
      costUsd: { candidate: 1.6488 / 12, baseline: 0.4123 / 12 },
      tokens: { candidate: (1_204_800 + 61_200) / 12, baseline: (182_340 + 9_870) / 12 },
      verifiedClaims: { candidate: 3.25, baseline: null },
      unverifiedClaims: { candidate: 1.5, baseline: null },
      gapsReported: { candidate: 2, baseline: 0.5 },
    },
    verdicts: summary.verdicts.map((verdict) =>
      verdict.candidate === "agent" ? { ...verdict, candidate: "investigative" } : verdict,
    ),
  };
}

/** Markup that must never reach a page unescaped. */
export const HOSTILE = `<script>alert("x")</script> & 'quoted' | pipe\nline`;

/** The sample summary with hostile text in every free-text field. Pure. */
export function hostileSummary(): EvalSummary {
  const summary = sampleSummary();
  const first = summary.perStrategy[0];
  if (first) first.strategy = `simple ${HOSTILE}`;
  const third = summary.perStrategy[2];
  if (third && !third.judge.scored) third.judge.reason = `reason ${HOSTILE}`;
  const fault = summary.faultOutcomes[0];
  if (fault) {
    fault.fault = `fetch ${HOSTILE}`;
    fault.failing = [{ name: `check ${HOSTILE}`, count: 2, detail: HOSTILE }];
    fault.outcomes = { [`status ${HOSTILE}`]: 1 };
  }
  const verdict = summary.verdicts[0];
  if (verdict) {
    verdict.baseline = `simple ${HOSTILE}`;
    verdict.reasons = [...verdict.reasons, `reason ${HOSTILE}`];
  }
  return {
    ...summary,
    title: `Eval ${HOSTILE}`,
    command: `assay eval --cases "${HOSTILE}"`,
    casesFile: `cases ${HOSTILE}.jsonl`,
    corpus: `corpus ${HOSTILE}`,
    baseline: `simple ${HOSTILE}`,
    model: `model ${HOSTILE}`,
    judge: `judge ${HOSTILE}`,
    strategies: summary.strategies.map((name) => (name === "simple" ? `simple ${HOSTILE}` : name)),
    faults: [`fetch ${HOSTILE}`],
  };
}
