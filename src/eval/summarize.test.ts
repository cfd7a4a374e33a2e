import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_BUDGETS } from "../core/budgets.js";
import type { EvalRunRow, EvalSummary, FaultCheck, JudgeScores, StrategySummary } from "./eval-types.js";
import { DEFAULT_THRESHOLDS, type SummaryMeta, summarize, verdict, verdictChecks } from "./summarize.js";

const NO_JUDGE: JudgeScores = { scored: false, reason: "no judge configured" };

function row(overrides: Partial<EvalRunRow> = {}): EvalRunRow {
  return {
    key: "c1|simple|none|0",
    caseId: "c1",
    strategy: "simple",
    fault: "none",
    repeat: 0,
    order: 0,
    runId: 1,
    status: "finished",
    artifactStatus: "synthesized",
    published: true,
    items: 3,
    gaps: 0,
    verifiedClaims: null,
    unverifiedClaims: null,
    contestedClaims: null,
    sources: { read: 4, cited: 2, citedGold: 1, gold: 2 },
    goldRecall: 0.5,
    citationPrecision: 0.5,
    answerFound: true,
    verdict: { expected: null, stated: null, agrees: null },
    latency: { firstSourcePersistedMs: 100, terminalMs: 1000, wallMs: 1100 },
    usage: { generations: 2, inputTokens: 100, outputTokens: 50, costUsd: 0.01 },
    salvaged: null,
    faultChecks: [],
    judge: NO_JUDGE,
    ...overrides,
  };
}

function latency(terminalMs: number | null, firstSourcePersistedMs: number | null = 100): EvalRunRow["latency"] {
  return { firstSourcePersistedMs, terminalMs, wallMs: terminalMs ?? 0 };
}

function judged(
  support: [number, number, number],
  coverage: number,
  decisionValue: number,
  language: "matches" | "mixed" | "wrong",
): JudgeScores {
  const [supported, partial, unsupported] = support;
  return {
    scored: true,
    support: { supported, partial, unsupported },
    coverage,
    decisionValue,
    language,
    inputTokens: 10,
    outputTokens: 5,
    costUsd: null,
  };
}

function meta(overrides: Partial<SummaryMeta> = {}): SummaryMeta {
  return {
    title: "Evaluation",
    createdAt: "2025-01-01T00:00:00.000Z",
    command: "assay eval",
    casesFile: "cases.json",
    corpus: "fixtures",
    cases: 1,
    repeat: 1,
    strategies: ["simple", "pipeline"],
    baseline: "simple",
    faults: [],
    model: "offline",
    judge: null,
    budgets: { ...DEFAULT_BUDGETS },
    elapsedMs: 0,
    thresholds: { ...DEFAULT_THRESHOLDS },
    ...overrides,
  };
}

function strategyOf(rows: EvalRunRow[], strategy = "simple"): StrategySummary {
  const found = summarize(rows, meta({ strategies: [strategy] })).perStrategy[0];
  if (!found) throw new Error("no summary");
  return found;
}

/** A strategy summary with only the figures the verdict reads set. */
function summaryOf(strategy: string, figures: Partial<StrategySummary> = {}): StrategySummary {
  return { ...strategyOf([row({ strategy })], strategy), ...figures };
}

const spreadOf = (median: number | null) => ({ n: median === null ? 0 : 5, median, p90: median });
const meanOf = (value: number | null) => ({ n: value === null ? 0 : 5, mean: value });

describe("summarize: seed 000 figures and the comparison with simple", () => {
  const investigative = (overrides: Partial<EvalRunRow> = {}) =>
    row({ strategy: "investigative", verifiedClaims: 0, unverifiedClaims: 0, ...overrides });
  const rows = [
    investigative({ verifiedClaims: 4, unverifiedClaims: 1, gaps: 2, usage: usage(3_000, 0.3) }),
    investigative({ verifiedClaims: 2, unverifiedClaims: 3, gaps: 1, usage: usage(1_000, 0.1) }),
    // A failed run counts: it published nothing, so no claims and no gaps.
    investigative({ status: "failed", published: false, usage: usage(500, 0.05) }),
    // Faulted runs are not in the clean figures.
    investigative({ fault: "model-timeout", verifiedClaims: 9, gaps: 9, salvaged: false }),
    row({ gaps: 1, usage: usage(600, 0.06) }),
    row({ gaps: 0, usage: usage(600, 0.06) }),
    row({ strategy: "pipeline", gaps: 3 }),
  ];
  function usage(tokens: number, costUsd: number | null): EvalRunRow["usage"] {
    return { generations: 2, inputTokens: tokens, outputTokens: 0, costUsd };
  }

  it("means verified and unverified claims per clean run; n/a (null) for strategies that verify none", () => {
    const summary = summarize(rows, meta({ strategies: ["simple", "pipeline", "investigative"] }));
    const [simple, pipeline, own] = summary.perStrategy;
    expect(own).toMatchObject({
      runs: 3,
      verifiedClaims: { n: 3, mean: 2 },
      unverifiedClaims: { n: 3, mean: 4 / 3 },
      gapsReported: { n: 3, mean: 1 },
      tokens: { input: 4_500, output: 0 },
    });
    expect(own?.costUsd).toBeCloseTo(0.45);
    expect(simple).toMatchObject({ verifiedClaims: null, unverifiedClaims: null, gapsReported: { n: 2, mean: 0.5 } });
    expect(pipeline).toMatchObject({ verifiedClaims: null, unverifiedClaims: null, gapsReported: { n: 1, mean: 3 } });
  });

  it("compares investigative with simple on cost, tokens, claims and gaps, per clean run", () => {
    const summary = summarize(rows, meta({ strategies: ["simple", "pipeline", "investigative"] }));
    const comparison = summary.comparison;
    expect(comparison).toMatchObject({
      candidate: "investigative",
      baseline: "simple",
      tokens: { candidate: 1_500, baseline: 600 },
      verifiedClaims: { candidate: 2, baseline: null },
      unverifiedClaims: { candidate: 4 / 3, baseline: null },
      gapsReported: { candidate: 1, baseline: 0.5 },
    });
    expect(comparison?.costUsd.candidate).toBeCloseTo(0.15);
    expect(comparison?.costUsd.baseline).toBeCloseTo(0.06);
    // The verdict (seed 004) is unchanged: simple is the baseline, the others are candidates.
    expect(summary.verdicts.map((item) => item.candidate)).toEqual(["pipeline", "investigative"]);
  });

  it("has an unknown cost when a run's price is unknown, and no comparison without both strategies", () => {
    const unpriced = [...rows, investigative({ usage: usage(100, null) })];
    const summary = summarize(unpriced, meta({ strategies: ["investigative", "simple"], baseline: "investigative" }));
    expect(summary.comparison?.costUsd).toEqual({ candidate: null, baseline: expect.closeTo(0.06) });
    expect(summarize(rows, meta({ strategies: ["simple", "pipeline"] })).comparison).toBeNull();
    expect(summarize(rows, meta({ strategies: ["investigative"] })).comparison).toBeNull();
  });

  it("reads rows written before the claim counts existed as not counted", () => {
    const old = investigative();
    const { verifiedClaims: _verified, unverifiedClaims: _unverified, ...rest } = old;
    const summary = summarize([rest as EvalRunRow], meta({ strategies: ["investigative"] }));
    expect(summary.perStrategy[0]?.verifiedClaims).toEqual({ n: 0, mean: null });
  });

  it("keeps the per-strategy budgets and writes everything as plain JSON", () => {
    const summary = summarize(
      rows,
      meta({ strategies: ["simple", "investigative"], strategyBudgets: { investigative: { maxTurns: 60 } } }),
    );
    expect(summary.strategyBudgets).toEqual({ investigative: { maxTurns: 60 } });
    expect(summarize(rows, meta()).strategyBudgets).toEqual({});
    const json = JSON.parse(JSON.stringify(summary)) as EvalSummary;
    expect(json).toEqual(summary);
    expect(json.perStrategy.find((item) => item.strategy === "simple")).toMatchObject({
      verifiedClaims: null,
      unverifiedClaims: null,
    });
    expect(json.comparison?.verifiedClaims).toEqual({ candidate: 2, baseline: null });
  });
});

describe("summarize: per strategy", () => {
  it("takes median and p90 by nearest rank over odd and even counts, skipping nulls", () => {
    const odd = strategyOf([500, 100, null, 300, 200, 400].map((ms) => row({ latency: latency(ms) })));
    expect(odd.terminalMs).toEqual({ n: 5, median: 300, p90: 500 });
    const even = strategyOf([40, 10, 30, 20].map((ms) => row({ latency: latency(ms, null) })));
    expect(even.terminalMs).toEqual({ n: 4, median: 20, p90: 40 });
    expect(even.firstSourceMs).toEqual({ n: 0, median: null, p90: null });
    const ten = strategyOf([1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((ms) => row({ latency: latency(ms) })));
    expect(ten.terminalMs).toEqual({ n: 10, median: 5, p90: 9 });
  });

  it("counts runs, published and failed over clean runs and means over non-null figures", () => {
    const summary = strategyOf([
      row({ goldRecall: 1, citationPrecision: 0.5, answerFound: true }),
      row({ goldRecall: 0, citationPrecision: null, answerFound: false, status: "failed", published: false }),
      row({ goldRecall: null, citationPrecision: 0.25, answerFound: null }),
      row({ fault: "fetch-failure:2", salvaged: true, goldRecall: 0 }),
    ]);
    expect(summary).toMatchObject({
      runs: 3,
      published: 2,
      failed: 1,
      goldRecall: { n: 2, mean: 0.5 },
      citationPrecision: { n: 2, mean: 0.375 },
      answerShare: { n: 2, mean: 0.5 },
      salvage: { salvaged: 1, faulted: 1 },
    });
  });

  it("counts label agreement", () => {
    const summary = strategyOf([
      row({ verdict: { expected: "SUPPORT", stated: "SUPPORT", agrees: true } }),
      row({ verdict: { expected: "SUPPORT", stated: "CONTRADICT", agrees: false } }),
      row({ verdict: { expected: "CONTRADICT", stated: null, agrees: null } }),
      row({ verdict: { expected: null, stated: "SUPPORT", agrees: null } }),
    ]);
    expect(summary.labelAgreement).toEqual({ agree: 1, stated: 2, expected: 3 });
  });

  it("sums tokens and cost; a run without tokens and cost costs nothing", () => {
    const free = { generations: 0, inputTokens: 0, outputTokens: 0, costUsd: null };
    const summary = strategyOf([row(), row(), row({ usage: free })]);
    expect(summary.tokens).toEqual({ input: 200, output: 100 });
    expect(summary.costUsd).toBeCloseTo(0.02);
    expect(strategyOf([row({ usage: free })]).costUsd).toBe(0);
  });

  it("makes the cost unknown when a run that used tokens has no cost", () => {
    const unknown = { generations: 1, inputTokens: 10, outputTokens: 0, costUsd: null };
    expect(strategyOf([row(), row({ usage: unknown })]).costUsd).toBeNull();
  });

  it("reports an unscored judge with the first run's reason, or no judge", () => {
    const reason = "judge model unreachable";
    expect(strategyOf([row({ judge: { scored: false, reason } }), row()]).judge).toEqual({ scored: false, reason });
    expect(strategyOf([]).judge).toEqual({ scored: false, reason: "no judge configured" });
  });

  it("means the judge's scores over scored runs, as shares", () => {
    const summary = strategyOf([
      row({ judge: judged([3, 1, 0], 2, 1, "matches") }),
      row({ judge: judged([0, 0, 0], 1, 0, "mixed") }),
      row({ judge: judged([1, 0, 1], 0, 2, "matches") }),
      row(),
      row({ fault: "fetch-failure:1", salvaged: false, judge: judged([0, 0, 5], 0, 0, "wrong") }),
    ]);
    expect(summary.judge).toEqual({
      scored: true,
      runs: 3,
      supportShare: { n: 2, mean: 0.625 },
      coverage: { n: 3, mean: 0.5 },
      decisionValue: { n: 3, mean: 0.5 },
      languageShare: { n: 3, mean: 2 / 3 },
    });
  });

  it("orders strategies as declared, keeps unknown ones out and counts every row", () => {
    const rows = [row({ strategy: "pipeline" }), row(), row({ strategy: "other" })];
    const summary = summarize(rows, meta());
    expect(summary.perStrategy.map((item) => item.strategy)).toEqual(["simple", "pipeline"]);
    expect(summary.runs).toBe(3);
    expect(summary.verdicts.map((item) => item.candidate)).toEqual(["pipeline"]);
    expect(summary.title).toBe("Evaluation");
  });
});

describe("summarize: fault outcomes", () => {
  const check = (name: string, passed: boolean, detail = ""): FaultCheck => ({ name, passed, detail });

  it("groups faulted runs by fault then strategy in declared order", () => {
    const rows = [
      row({ strategy: "pipeline", fault: "fetch-failure:2", salvaged: true }),
      row({ fault: "synthesis-failure", salvaged: true }),
      row({ fault: "fetch-failure:2", salvaged: false }),
      row({ fault: "unlisted", salvaged: false }),
      row(),
    ];
    const summary = summarize(rows, meta({ faults: ["fetch-failure:2", "synthesis-failure"] }));
    expect(summary.faultOutcomes.map((item) => [item.fault, item.strategy, item.runs])).toEqual([
      ["fetch-failure:2", "simple", 1],
      ["fetch-failure:2", "pipeline", 1],
      ["synthesis-failure", "simple", 1],
      ["unlisted", "simple", 1],
    ]);
  });

  it("sums checks, counts failing checks per run with the first detail and counts outcomes", () => {
    const fault = "synthesis-failure";
    const rows = [
      row({
        fault,
        salvaged: true,
        faultChecks: [check("keeps-sources", true), check("no-recovery-prose", false, "generic text in run 1")],
      }),
      row({
        fault,
        salvaged: false,
        published: false,
        faultChecks: [
          check("keeps-sources", false, "lost source 2"),
          check("no-recovery-prose", false, "generic text in run 2"),
          check("no-recovery-prose", false, "again"),
        ],
      }),
      row({ fault, salvaged: true, artifactStatus: "source-backed", faultChecks: [check("bounded", false, "x")] }),
      row({ fault, salvaged: true, artifactStatus: "" }),
    ];
    const [summary] = summarize(rows, meta({ faults: [fault] })).faultOutcomes;
    expect(summary).toEqual({
      fault,
      strategy: "simple",
      runs: 4,
      salvaged: 3,
      checksPassed: 1,
      checksTotal: 6,
      failing: [
        { name: "no-recovery-prose", count: 2, detail: "generic text in run 1" },
        { name: "bounded", count: 1, detail: "x" },
        { name: "keeps-sources", count: 1, detail: "lost source 2" },
      ],
      outcomes: { none: 2, "source-backed": 1, synthesized: 1 },
    });
    expect(Object.keys(summary?.outcomes ?? {})).toEqual(["none", "source-backed", "synthesized"]);
  });
});

describe("verdict", () => {
  const baseline = summaryOf("simple", {
    goldRecall: meanOf(0.6),
    citationPrecision: meanOf(0.4),
    terminalMs: spreadOf(1000),
    salvage: { salvaged: 5, faulted: 10 },
  });
  const candidate = (figures: Partial<StrategySummary>) =>
    summaryOf("pipeline", {
      goldRecall: meanOf(0.6),
      citationPrecision: meanOf(0.4),
      terminalMs: spreadOf(1200),
      salvage: { salvaged: 9, faulted: 10 },
      ...figures,
    });

  it("declares a clear win through salvage", () => {
    const result = verdict(candidate({}), baseline, DEFAULT_THRESHOLDS);
    expect(result.wins).toBe(true);
    expect(result.reasons).toContain("gold-document recall 60.0% ≥ threshold 50.0%: passes");
    expect(result.reasons).toContain("salvage 9/10 = 90.0% ≥ threshold 80.0%: passes");
    expect(result.reasons).toContain("salvage 90.0% vs baseline 50.0%: +40.0 points, material (≥ 5.0)");
    expect(result.reasons).toContain("citation precision 40.0% vs baseline 40.0%: +0.0 points, not material (< 5.0)");
    expect(result.reasons).toContain(
      "median terminal latency 1.2 s vs baseline 1.0 s: at most 1.0 s slower: within latency",
    );
    expect(result.reasons.at(-1)).toMatch(/: wins \(.*materially better on salvage/);
    const strict = verdict(candidate({}), baseline, { ...DEFAULT_THRESHOLDS, latencySlackMs: 0 });
    expect(strict.reasons).toContain(
      "median terminal latency 1.2 s vs baseline 1.0 s: ratio 1.20 ≤ 1.50: within latency",
    );
  });

  it("does not count a small absolute slowdown as a latency violation, whatever its ratio", () => {
    const fast = summaryOf("simple", { ...baseline, terminalMs: spreadOf(160) });
    const result = verdict(candidate({ terminalMs: spreadOf(260) }), fast, DEFAULT_THRESHOLDS);
    expect(result.reasons).toContain(
      "median terminal latency 260 ms vs baseline 160 ms: at most 1.0 s slower: within latency",
    );
    const strict = verdict(candidate({ terminalMs: spreadOf(260) }), fast, {
      ...DEFAULT_THRESHOLDS,
      latencySlackMs: 50,
    });
    expect(strict.wins).toBe(false);
  });

  it("loses on latency", () => {
    const result = verdict(
      candidate({ terminalMs: spreadOf(1900) }),
      summaryOf("simple", { ...baseline, terminalMs: spreadOf(800) }),
      DEFAULT_THRESHOLDS,
    );
    expect(result.wins).toBe(false);
    expect(result.reasons).toContain(
      "median terminal latency 1.9 s vs baseline 800 ms: ratio 2.38 > 1.50: violates latency",
    );
    expect(result.reasons.at(-1)).toMatch(/does not win \(violates latency\); keep the baseline$/);
  });

  it("loses on a threshold, however much better it is", () => {
    const result = verdict(candidate({ citationPrecision: meanOf(0.25) }), baseline, DEFAULT_THRESHOLDS);
    expect(result.wins).toBe(false);
    expect(result.reasons).toContain("citation precision 25.0% < threshold 30.0%: fails");
    expect(result.reasons.at(-1)).toContain("fails citation precision");
    const unmeasured = verdict(candidate({ goldRecall: meanOf(null) }), baseline, DEFAULT_THRESHOLDS);
    expect(unmeasured.wins).toBe(false);
    expect(unmeasured.reasons).toContain("gold-document recall not measured: fails");
  });

  it("does not win without a material difference", () => {
    const result = verdict(candidate({ salvage: { salvaged: 5, faulted: 10 } }), baseline, DEFAULT_THRESHOLDS);
    expect(result.wins).toBe(false);
    expect(result.reasons.at(-1)).toContain("no material improvement");
  });

  it("counts a difference of exactly the material delta despite rounding", () => {
    const result = verdict(
      candidate({ citationPrecision: meanOf(0.45), salvage: { salvaged: 0, faulted: 0 } }),
      baseline,
      {
        ...DEFAULT_THRESHOLDS,
        minSalvage: 0,
      },
    );
    expect(result.reasons).toContain("citation precision 45.0% vs baseline 40.0%: +5.0 points, material (≥ 5.0)");
    expect(result.wins).toBe(true);
  });

  it("does not block on salvage that was not measured, but needs a citation or recall improvement", () => {
    const noFaults = { salvage: { salvaged: 0, faulted: 0 } };
    const flat = verdict(candidate(noFaults), baseline, DEFAULT_THRESHOLDS);
    expect(flat.wins).toBe(false);
    expect(flat.reasons).toContain(
      "salvage not measured (no fault runs): does not block, but cannot be the material improvement",
    );
    expect(flat.reasons).toContain("salvage not compared: not measured for the candidate");
    const better = verdict(candidate({ ...noFaults, citationPrecision: meanOf(0.6) }), baseline, DEFAULT_THRESHOLDS);
    expect(better.wins).toBe(true);
  });

  it("treats a missing baseline latency as a violation only when the candidate has one", () => {
    const noLatency = summaryOf("simple", { ...baseline, terminalMs: spreadOf(null) });
    const slow = verdict(candidate({}), noLatency, DEFAULT_THRESHOLDS);
    expect(slow.wins).toBe(false);
    expect(slow.reasons).toContain(
      "median terminal latency 1.2 s vs baseline not measured: no ratio to stay within: violates latency",
    );
    const neither = verdict(candidate({ terminalMs: spreadOf(null) }), noLatency, DEFAULT_THRESHOLDS);
    expect(neither.wins).toBe(true);
    const candidateMissing = verdict(candidate({ terminalMs: spreadOf(null) }), baseline, DEFAULT_THRESHOLDS);
    expect(candidateMissing.wins).toBe(false);
  });

  it("refuses to compare a strategy with itself or without runs", () => {
    const self = verdict(baseline, baseline, DEFAULT_THRESHOLDS);
    expect(self).toMatchObject({ wins: false, candidate: "simple", baseline: "simple" });
    expect(self.reasons[0]).toBe("simple is the baseline itself");
    const empty = verdict(candidate({ runs: 0 }), baseline, DEFAULT_THRESHOLDS);
    expect(empty.wins).toBe(false);
    expect(empty.reasons[0]).toBe("pipeline has no clean runs to judge");
    expect(verdict(candidate({}), { ...baseline, runs: 0 }, DEFAULT_THRESHOLDS).wins).toBe(false);
  });
});

const share = fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: null });
const ms = fc.option(fc.nat({ max: 100_000 }), { nil: null });
const label = fc.option(fc.constantFrom("SUPPORT" as const, "CONTRADICT" as const, "NOT_ENOUGH_INFO" as const), {
  nil: null,
});
const judgeScores: fc.Arbitrary<JudgeScores> = fc.oneof(
  fc.record({ scored: fc.constant(false as const), reason: fc.string() }),
  fc.record({
    scored: fc.constant(true as const),
    support: fc.record({ supported: fc.nat(5), partial: fc.nat(5), unsupported: fc.nat(5) }),
    coverage: fc.integer({ min: 0, max: 2 }),
    decisionValue: fc.integer({ min: 0, max: 2 }),
    language: fc.constantFrom("matches" as const, "mixed" as const, "wrong" as const),
    inputTokens: fc.nat(),
    outputTokens: fc.nat(),
    costUsd: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: null }),
  }),
);
const arbitraryRow: fc.Arbitrary<EvalRunRow> = fc
  .record({
    strategy: fc.constantFrom("simple", "pipeline", "other"),
    fault: fc.constantFrom("none", "none", "fetch-failure:2", "synthesis-failure"),
    status: fc.constantFrom("finished", "failed", "interrupted"),
    artifactStatus: fc.constantFrom("synthesized", "source-backed", "no-evidence", ""),
    published: fc.boolean(),
    goldRecall: share,
    citationPrecision: share,
    answerFound: fc.option(fc.boolean(), { nil: null }),
    expected: label,
    stated: label,
    firstSourceMs: ms,
    terminalMs: ms,
    inputTokens: fc.nat(1000),
    costUsd: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: null }),
    salvaged: fc.option(fc.boolean(), { nil: null }),
    faultChecks: fc.array(
      fc.record({ name: fc.constantFrom("a", "b", "c"), passed: fc.boolean(), detail: fc.string() }),
      {
        maxLength: 4,
      },
    ),
    judge: judgeScores,
  })
  .map((figures) =>
    row({
      strategy: figures.strategy,
      fault: figures.fault,
      status: figures.status,
      artifactStatus: figures.artifactStatus,
      published: figures.published,
      goldRecall: figures.goldRecall,
      citationPrecision: figures.citationPrecision,
      answerFound: figures.answerFound,
      verdict: {
        expected: figures.expected,
        stated: figures.stated,
        agrees: figures.expected === null || figures.stated === null ? null : figures.expected === figures.stated,
      },
      latency: { firstSourcePersistedMs: figures.firstSourceMs, terminalMs: figures.terminalMs, wallMs: 0 },
      usage: { generations: 1, inputTokens: figures.inputTokens, outputTokens: 0, costUsd: figures.costUsd },
      salvaged: figures.salvaged,
      faultChecks: figures.faultChecks,
      judge: figures.judge,
    }),
  );
const thresholds = fc.record({
  minGoldRecall: fc.double({ min: 0, max: 1, noNaN: true }),
  minCitationPrecision: fc.double({ min: 0, max: 1, noNaN: true }),
  minSalvage: fc.double({ min: 0, max: 1, noNaN: true }),
  maxLatencyRatio: fc.double({ min: 0.5, max: 3, noNaN: true }),
  latencySlackMs: fc.integer({ min: 0, max: 5_000 }),
  materialDelta: fc.double({ min: 0, max: 0.5, noNaN: true }),
});

describe("summarize: properties", () => {
  it("never throws, counts every row and keeps share means within [0, 1]", () => {
    fc.assert(
      fc.property(fc.array(arbitraryRow, { maxLength: 30 }), thresholds, (rows, limits) => {
        const summary = summarize(rows, meta({ thresholds: limits, faults: ["fetch-failure:2"] }));
        expect(summary.runs).toBe(rows.length);
        for (const item of summary.perStrategy) {
          const shares = [item.goldRecall, item.citationPrecision, item.answerShare];
          if (item.judge.scored) {
            const { supportShare, coverage, decisionValue, languageShare } = item.judge;
            shares.push(supportShare, coverage, decisionValue, languageShare);
          }
          for (const mean of shares) {
            expect(mean.mean === null || (mean.mean >= 0 && mean.mean <= 1)).toBe(true);
            expect(mean.mean === null).toBe(mean.n === 0);
          }
          for (const spread of [item.firstSourceMs, item.terminalMs]) {
            if (spread.median !== null && spread.p90 !== null) expect(spread.median).toBeLessThanOrEqual(spread.p90);
          }
        }
        const faulted = rows.filter((item) => item.fault !== "none").length;
        expect(summary.faultOutcomes.reduce((total, item) => total + item.runs, 0)).toBe(faulted);
      }),
    );
  });

  it("lets a candidate win only when no threshold fails and latency holds", () => {
    fc.assert(
      fc.property(fc.array(arbitraryRow, { maxLength: 30 }), thresholds, (rows, limits) => {
        const summary = summarize(rows, meta({ thresholds: limits }));
        const [base, candidate] = summary.perStrategy;
        if (!base || !candidate) throw new Error("missing strategy");
        const checks = verdictChecks(candidate, base, limits);
        const result = verdict(candidate, base, limits);
        expect(result.reasons).toHaveLength(checks.length + 1);
        if (!result.wins) return;
        const gates = checks.filter((check) => check.kind === "threshold");
        expect(gates).toHaveLength(3);
        for (const gate of gates) {
          expect(gate.reason).toMatch(gate.outcome === "not measured" ? /^salvage not measured/ : /: passes$/);
        }
        expect(checks.find((check) => check.kind === "latency")?.outcome).toBe("passes");
        expect(checks.some((check) => check.kind === "improvement" && check.outcome === "passes")).toBe(true);
      }),
    );
  });
});
