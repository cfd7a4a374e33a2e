/**
 * The pure parts of the evaluation: the case parser, the run plan, the scores of one run, the
 * fault switches and the progress line. Reports are made by the real builder (buildReport
 * after admission), so that the scores read documents of the shape runs publish.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createOfflineModel } from "../adapters/models/offline/offline-model.js";
import { UserError } from "../core/errors.js";
import { type BuildInput, buildReport, type CatalogSource } from "../core/report/build-report.js";
import { parseReportDocument, type ReportDocument, type VerificationStatus } from "../core/report/report-document.js";
import type { VerificationMap } from "../core/report/synthesized-items.js";
import { admissionCatalog, admitSynthesis } from "../core/synthesis/admission.js";
import type { SynthesisOutput } from "../core/synthesis/proposals.js";
import type { ActInput, ActTurn } from "../ports/model.js";
import { duration, progressLine } from "../shells/cli/eval-progress.js";
import { reportInput as baseInput, catalogSource } from "../testing/report-inputs.js";
import { ScriptedModel, succeed } from "../testing/scripted-model.js";
import { type EvalCase, parseCases } from "./cases.js";
import { FAULT_HELP, faultyModel, parseFault, parseFaultList, STANDARD_FAULTS } from "./faults.js";
import { faultCasesOf, planRuns } from "./harness.js";
import { claimCounts, salvaged, scoreRun, statedVerdict, verifiesClaims } from "./scoring.js";

/** The UserError `run` throws (fails the test when it throws none or another kind). */
function userError(run: () => unknown): UserError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UserError);
    return error as UserError;
  }
  throw new Error("expected a UserError, but nothing was thrown");
}

describe("parseCases", () => {
  it("reads valid lines: ids and answers as strings, gold paths normalized, defaults filled, extra fields dropped", () => {
    const text = [
      JSON.stringify({
        id: "c1",
        question: "  Who built it?  ",
        answers: ["Yoshino", 1985],
        gold: ["./history/a.md", "chemistry\\b.md"],
        gold_sentences: { "history/a.md": ["He built it."] },
        label: "SUPPORT",
        fault_fixture: true,
        source: "extra field",
      }),
      JSON.stringify({ id: 7, question: "Unanswerable?", gold: [] }),
    ].join("\n");
    expect(parseCases(text, "cases.jsonl")).toEqual([
      {
        id: "c1",
        question: "Who built it?",
        answers: ["Yoshino", "1985"],
        gold: ["history/a.md", "chemistry/b.md"],
        goldSentences: { "history/a.md": ["He built it."] },
        label: "SUPPORT",
        faultFixture: true,
      },
      {
        id: "7",
        question: "Unanswerable?",
        answers: [],
        gold: [],
        goldSentences: {},
        label: null,
        faultFixture: false,
      },
    ]);
  });

  it("skips blank lines but counts them in line numbers", () => {
    const good = JSON.stringify({ id: "a", question: "Q?", gold: [] });
    const cases = parseCases(`\n${good}\n   \n\n`, "f.jsonl");
    expect(cases.map((item) => item.id)).toEqual(["a"]);
    expect(userError(() => parseCases(`\n${good}\n\n{oops`, "f.jsonl")).message).toBe("f.jsonl:4: not a JSON object");
  });

  it("names the file and line of malformed JSON", () => {
    const good = JSON.stringify({ id: "a", question: "Q?", gold: [] });
    expect(userError(() => parseCases(`${good}\n{"id": "b", "question": `, "data/cases.jsonl")).message).toBe(
      "data/cases.jsonl:2: not a JSON object",
    );
  });

  it("names the file, line and field of a case without gold, and of a line that is not an object", () => {
    const missing = userError(() => parseCases(JSON.stringify({ id: "a", question: "Q?" }), "f.jsonl"));
    expect(missing.message).toMatch(/^f\.jsonl:1: gold: .+ \(see the case format in docs\/eval\.md\)$/);
    const scalar = userError(() =>
      parseCases(`${JSON.stringify({ id: "a", question: "Q?", gold: [] })}\n42`, "f.jsonl"),
    );
    expect(scalar.message).toMatch(/^f\.jsonl:2: case: /);
    const label = userError(() =>
      parseCases(JSON.stringify({ id: "a", question: "Q?", gold: [], label: "MAYBE" }), "f"),
    );
    expect(label.message).toMatch(/^f:1: label: /);
  });

  it("refuses an id used twice, a number and a string with the same text included", () => {
    const text = [
      JSON.stringify({ id: 7, question: "Q?", gold: [] }),
      JSON.stringify({ id: "8", question: "Q?", gold: [] }),
      JSON.stringify({ id: "7", question: "Other?", gold: [] }),
    ].join("\n");
    expect(userError(() => parseCases(text, "f.jsonl")).message).toBe('f.jsonl:3: the case id "7" is used twice');
  });

  it("refuses a file without cases", () => {
    expect(userError(() => parseCases("", "empty.jsonl")).message).toBe("empty.jsonl holds no cases");
    expect(userError(() => parseCases("\n  \n", "blank.jsonl")).message).toBe("blank.jsonl holds no cases");
  });
});

describe("planRuns", () => {
  const cases = [{ id: "a" }, { id: "b", faultFixture: true }, { id: "c", faultFixture: true }];

  it("plans every case and strategy per repeat, then every fault on the fault cases", () => {
    const plan = planRuns(cases, ["simple", "pipeline"], 2, ["planner-failure", "fetch-failure:1"], 3);
    expect(plan).toHaveLength(3 * 2 * 2 + 2 * 2 * 2);
    expect(plan.map((run) => run.order)).toEqual(plan.map((_run, index) => index));
    expect(new Set(plan.map((run) => run.key)).size).toBe(plan.length);
    for (const run of plan) expect(run.key).toBe(`${run.caseId}|${run.strategy}|${run.fault}|${run.repeat}`);
  });

  it("starts each repeat at another case and another strategy", () => {
    const plan = planRuns(cases, ["simple", "pipeline"], 2, [], 0);
    expect(plan.map((run) => `${run.repeat}:${run.caseId}:${run.strategy}`)).toEqual([
      "0:a:simple",
      "0:a:pipeline",
      "0:b:simple",
      "0:b:pipeline",
      "0:c:simple",
      "0:c:pipeline",
      // ⌈3/2⌉ = 2 cases later, one strategy later.
      "1:c:pipeline",
      "1:c:simple",
      "1:a:pipeline",
      "1:a:simple",
      "1:b:pipeline",
      "1:b:simple",
    ]);
  });

  it("property: each repeat runs every pair once, and repeats start at another case and strategy", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 1, max: 5 }),
        (caseCount, strategyCount, repeat) => {
          const ids = Array.from({ length: caseCount }, (_item, index) => ({ id: `c${index}` }));
          const strategies = ["simple", "pipeline", "third"].slice(0, strategyCount);
          const plan = planRuns(ids, strategies, repeat, [], 0);
          expect(plan).toHaveLength(caseCount * strategyCount * repeat);
          for (let r = 0; r < repeat; r++) {
            const pairs = plan.filter((run) => run.repeat === r).map((run) => `${run.caseId}|${run.strategy}`);
            expect(new Set(pairs).size).toBe(caseCount * strategyCount);
          }
          const first = (r: number) => plan.find((run) => run.repeat === r);
          if (repeat >= 2 && caseCount >= 2) expect(first(1)?.caseId).not.toBe(first(0)?.caseId);
          if (repeat >= 2 && strategyCount >= 2) expect(first(1)?.strategy).not.toBe(first(0)?.strategy);
        },
      ),
    );
  });

  it("runs the faults after the clean runs, once per fault, fault case and strategy, in repeat 0", () => {
    const plan = planRuns(cases, ["simple", "pipeline"], 2, ["planner-failure", "fetch-failure:1"], 5);
    const faulted = plan.slice(12);
    expect(plan.slice(0, 12).every((run) => run.fault === "none")).toBe(true);
    expect(faulted.map((run) => `${run.fault}:${run.caseId}:${run.strategy}:${run.repeat}`)).toEqual([
      "planner-failure:b:simple:0",
      "planner-failure:b:pipeline:0",
      "planner-failure:c:simple:0",
      "planner-failure:c:pipeline:0",
      "fetch-failure:1:b:simple:0",
      "fetch-failure:1:b:pipeline:0",
      "fetch-failure:1:c:simple:0",
      "fetch-failure:1:c:pipeline:0",
    ]);
    expect(planRuns(cases, ["simple"], 1, ["model-timeout"], 1).map((run) => run.key)).toEqual([
      "a|simple|none|0",
      "b|simple|none|0",
      "c|simple|none|0",
      "b|simple|model-timeout|0",
    ]);
  });

  it("faultCasesOf: the marked cases, else the first ones, at most count", () => {
    expect(faultCasesOf(cases, 3).map((item) => item.id)).toEqual(["b", "c"]);
    expect(faultCasesOf(cases, 1).map((item) => item.id)).toEqual(["b"]);
    const unmarked = [{ id: "a" }, { id: "b", faultFixture: false }, { id: "c" }];
    expect(faultCasesOf(unmarked, 2).map((item) => item.id)).toEqual(["a", "b"]);
    expect(faultCasesOf(unmarked, 9).map((item) => item.id)).toEqual(["a", "b", "c"]);
    expect(faultCasesOf(cases, 0)).toEqual([]);
    expect(faultCasesOf([], 3)).toEqual([]);
  });
});

// Reports built as runs build them: sources chunked, proposals admitted, then the builder.
const YOSHINO =
  "In 1985 Akira Yoshino built a cell with a petroleum-coke anode and a lithium cobalt oxide cathode.\n\n" +
  "Asahi Kasei filed for a patent on the design.";
const GOODENOUGH = "John Goodenough led the Oxford laboratory where lithium cobalt oxide was found in 1980.";

const source = (n: number, path: string, text: string): CatalogSource => catalogSource(n, text, { path });

const SOURCES = [source(1, "history/yoshino.md", YOSHINO), source(2, "history/goodenough.md", GOODENOUGH)];

function reportInput(
  sources: readonly CatalogSource[],
  synthesis?: SynthesisOutput,
  verification?: VerificationMap,
): BuildInput {
  return baseInput("Who built the first carbon-anode cell?", sources, {
    attemptedQueries: ["“carbon anode cell”"],
    ...(synthesis
      ? {
          synthesis: {
            admitted: admitSynthesis(synthesis, admissionCatalog(sources)),
            ...(verification ? { verification } : {}),
          },
        }
      : {}),
  });
}

/**
 * A synthesized report whose facts (texts) all cite the first passage of s_001, with these
 * gaps; `statuses` gives each fact's verification (a verified one supported by s_001 and a
 * survived challenge, a contested one contradicted by s_001), else none is checked.
 */
function synthesizedReport(
  facts: readonly string[],
  gaps: readonly string[] = [],
  statuses?: readonly VerificationStatus[],
): ReportDocument {
  const cited = [{ sourceId: "s_001", chunkIds: ["s_001.p01"] }];
  const verification = statuses
    ? new Map(
        statuses.map((status, index) => [
          `f${index + 1}`,
          {
            status,
            supports: status === "verified" ? cited : [],
            contradicts: status === "contested" ? cited : [],
            ...(status === "verified" ? { challenge: "a search for sources that deny it" } : {}),
          },
        ]),
      )
    : undefined;
  const doc = buildReport(
    reportInput(
      SOURCES,
      {
        facts: facts.map((text, index) => ({ id: `f${index + 1}`, text, sourceId: "s_001", chunkIds: ["s_001.p01"] })),
        derivations: [],
        recommendations: [],
        gaps: gaps.map((text, index) => ({ id: `g${index + 1}`, text, relatedSourceIds: [] })),
      },
      verification,
    ),
  );
  expect(doc.directFindings.length + doc.findings.length).toBe(facts.length);
  expect(doc.gaps).toHaveLength(gaps.length);
  return doc;
}

const sourceBackedReport = (sources: readonly CatalogSource[] = SOURCES): ReportDocument =>
  buildReport(reportInput(sources));

function testCase(overrides: Partial<EvalCase> = {}): EvalCase {
  return {
    id: "c1",
    question: "Who built the first carbon-anode cell?",
    answers: ["Akira Yoshino"],
    gold: ["history/yoshino.md", "history/other.md"],
    goldSentences: {},
    label: null,
    faultFixture: false,
    ...overrides,
  };
}

describe("scoreRun", () => {
  const doc = synthesizedReport(["Akira Yoshino built a cell with a petroleum-coke anode."]);
  type Event = { type: string; offsetMs: number; data: Record<string, unknown> };
  /** The scores of a run that read two sources and published `report` (undefined: nothing published). */
  const score = (overrides: Partial<EvalCase>, report: ReportDocument | undefined, events: Event[] = []) =>
    scoreRun({
      testCase: testCase(overrides),
      strategy: "pipeline",
      doc: report,
      events,
      readPaths: ["history/yoshino.md", "x.md"],
    });

  it("counts gold recall and citation precision from the cited sources", () => {
    expect(doc.sources.map((entry) => entry.path)).toEqual(["history/yoshino.md"]);
    expect(score({}, doc)).toMatchObject({
      items: 1,
      gaps: 0,
      sources: { read: 2, cited: 1, citedGold: 1, gold: 2 },
      goldRecall: 0.5,
      citationPrecision: 1,
    });
    expect(score({ gold: ["history/goodenough.md"] }, doc)).toMatchObject({ goldRecall: 0, citationPrecision: 0 });
  });

  it("has no citation precision without gold or without a cited source, and no recall without gold", () => {
    expect(score({ gold: [] }, doc)).toMatchObject({ goldRecall: null, citationPrecision: null });
    const nothing = sourceBackedReport([]);
    expect(nothing.status).toBe("no-evidence");
    expect(score({}, nothing)).toMatchObject({ goldRecall: 0, citationPrecision: null, items: 0 });
    expect(score({}, undefined)).toMatchObject({
      goldRecall: 0,
      citationPrecision: null,
      items: 0,
      gaps: 0,
      answerFound: false,
      sources: { read: 2, cited: 0, citedGold: 0, gold: 2 },
    });
  });

  it("finds an accepted answer in findings and excerpts, normalized; yes/no and missing answers give null", () => {
    expect(score({ answers: ["akira  YOSHINO"] }, doc).answerFound).toBe(true);
    expect(score({ answers: ["Goodenough"] }, doc).answerFound).toBe(false);
    // Source-backed: the answer is in an excerpt of the reader-facing text.
    expect(score({ answers: ["Asahi Kasei"] }, sourceBackedReport()).answerFound).toBe(true);
    // Titles are not evidence text.
    expect(score({ answers: ["Document 1"] }, sourceBackedReport()).answerFound).toBe(false);
    expect(score({ answers: ["yes"] }, doc).answerFound).toBeNull();
    expect(score({ answers: ["Yes", " no "] }, doc).answerFound).toBeNull();
    expect(score({ answers: [] }, doc).answerFound).toBeNull();
    expect(score({ answers: ["yes"] }, undefined).answerFound).toBeNull();
  });

  it("says whether the first finding holds the answer, apart from whether any finding does", () => {
    const two = synthesizedReport([
      "Akira Yoshino built a cell with a petroleum-coke anode.",
      "John Goodenough found the cobalt oxide cathode.",
    ]);
    const first = [...two.directFindings, ...two.findings][0]?.text ?? "";
    const [inFirst, later] = first.includes("Yoshino") ? ["Yoshino", "Goodenough"] : ["Goodenough", "Yoshino"];
    expect(score({ answers: [inFirst] }, two)).toMatchObject({ answerFound: true, answerFirst: true });
    expect(score({ answers: [later] }, two)).toMatchObject({ answerFound: true, answerFirst: false });
    expect(score({ answers: ["yes"] }, two).answerFirst).toBeNull();
    expect(score({ answers: ["Yoshino"] }, undefined).answerFirst).toBe(false);
  });

  it("compares the stated verdict with the expected label", () => {
    const supported = synthesizedReport(["The claim is supported by the account of the 1985 cell."]);
    expect(score({ label: "SUPPORT" }, supported).verdict).toEqual({
      expected: "SUPPORT",
      stated: "SUPPORT",
      agrees: true,
    });
    expect(score({ label: "CONTRADICT" }, supported).verdict).toMatchObject({ agrees: false });
    expect(score({ label: null }, supported).verdict).toEqual({ expected: null, stated: "SUPPORT", agrees: null });
    expect(score({ label: "SUPPORT" }, doc).verdict).toEqual({ expected: "SUPPORT", stated: null, agrees: null });
  });

  it("sums the usage of every generation; a priced model's cost, or null when a cost is missing", () => {
    const generation = (type: string, usage: Record<string, unknown>): Event => ({
      type,
      offsetMs: 10,
      data: { usage },
    });
    const priced = [
      generation("generation-finished", { inputTokens: 100, outputTokens: 20, costUsd: 0.01 }),
      generation("generation-failed", { inputTokens: 50, outputTokens: 0, costUsd: 0.005 }),
      { type: "source-persisted", offsetMs: 5, data: {} },
    ];
    expect(score({}, doc, priced).usage).toEqual({
      generations: 2,
      inputTokens: 150,
      outputTokens: 20,
      costUsd: 0.015,
    });
    const unpriced = [...priced, generation("generation-finished", { inputTokens: 10, outputTokens: 5 })];
    expect(score({}, doc, unpriced).usage).toEqual({
      generations: 3,
      inputTokens: 160,
      outputTokens: 25,
      costUsd: null,
    });
    // The offline engine spends no tokens: nothing is unknown about its cost.
    const offline = [generation("generation-finished", {}), generation("generation-finished", { inputTokens: 0 })];
    expect(score({}, doc, offline).usage).toEqual({ generations: 2, inputTokens: 0, outputTokens: 0, costUsd: 0 });
    expect(score({}, doc, []).usage).toEqual({ generations: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 });
  });

  it("reads the first persisted source and the terminal offset from the events", () => {
    const events: Event[] = [
      { type: "run-started", offsetMs: 0, data: {} },
      { type: "source-persisted", offsetMs: 120, data: {} },
      { type: "source-persisted", offsetMs: 300, data: {} },
      { type: "run-finished", offsetMs: 900, data: {} },
    ];
    expect(score({}, doc, events).latency).toEqual({ firstSourcePersistedMs: 120, terminalMs: 900 });
    expect(score({}, doc, []).latency).toEqual({ firstSourcePersistedMs: null, terminalMs: null });
  });
});

describe("verified, contested and unverified claims, gaps reported", () => {
  /** The report as a run leaves it in report.json, read back as the harness reads it. */
  const published = (doc: ReportDocument): ReportDocument => {
    const parsed = parseReportDocument(JSON.parse(JSON.stringify(doc)));
    if (!parsed.ok) throw new Error(parsed.error);
    return parsed.value;
  };
  const scored = (strategy: string, doc: ReportDocument | undefined) =>
    scoreRun({ testCase: testCase(), strategy, doc, events: [], readPaths: [] });
  // Six findings (three direct, three further): two verified, one contested, three unverified.
  const investigative = published(
    synthesizedReport(
      [
        "Akira Yoshino built a cell with a petroleum-coke anode.",
        "Asahi Kasei filed for a patent on the design.",
        "The cell had a lithium cobalt oxide cathode.",
        "Akira Yoshino built a cell with a carbon anode in 1985.",
        "The design used a carbon anode.",
        "Sony sold the first cells.",
      ],
      ["No source gives the cell's capacity.", "The date of the first sale is not stated."],
      ["verified", "unverified", "verified", "contested", "unverified", "unverified"],
    ),
  );

  it("counts the published findings by the verification the report shows", () => {
    expect(investigative.directFindings).toHaveLength(3);
    expect(investigative.findings).toHaveLength(3);
    expect(claimCounts(investigative)).toEqual({ verified: 2, unverified: 3, contested: 1 });
    expect(scored("investigative", investigative)).toMatchObject({
      verifiedClaims: 2,
      unverifiedClaims: 3,
      contestedClaims: 1,
      gaps: 2,
    });
  });

  it("counts none for an investigative run that published nothing or no findings", () => {
    expect(claimCounts(undefined)).toEqual({ verified: 0, unverified: 0, contested: 0 });
    expect(scored("investigative", undefined)).toMatchObject({ verifiedClaims: 0, unverifiedClaims: 0, gaps: 0 });
    expect(scored("investigative", published(sourceBackedReport()))).toMatchObject({
      verifiedClaims: 0,
      unverifiedClaims: 0,
      contestedClaims: 0,
    });
  });

  it("says not applicable (null), not 0, for verified and unverified claims of strategies that verify none; contested and gaps count for every strategy", () => {
    expect(verifiesClaims("investigative")).toBe(true);
    expect(verifiesClaims("pipeline")).toBe(false);
    expect(verifiesClaims("simple")).toBe(false);
    const pipeline = published(synthesizedReport(["Akira Yoshino built a cell."], ["No capacity is given."]));
    expect(scored("pipeline", pipeline)).toMatchObject({ verifiedClaims: null, unverifiedClaims: null, gaps: 1 });
    expect(scored("pipeline", pipeline)).toMatchObject({ contestedClaims: 0 });
    expect(scored("simple", investigative)).toMatchObject({ verifiedClaims: null, contestedClaims: 1, gaps: 2 });
    expect(scored("simple", undefined)).toMatchObject({
      verifiedClaims: null,
      unverifiedClaims: null,
      contestedClaims: 0,
    });
  });

  it("reads a version 1 report: the unverified prefix becomes the status, other findings are not checked", () => {
    const v1 = JSON.parse(
      JSON.stringify(synthesizedReport(["Akira Yoshino built a cell.", "Unverified: Asahi Kasei filed for a patent."])),
    );
    v1.schemaVersion = 1;
    for (const finding of v1.directFindings) delete finding.verification;
    const read = published(v1);
    expect(read.directFindings.map((finding) => [finding.text, finding.verification.status])).toEqual([
      ["Akira Yoshino built a cell.", "not-checked"],
      ["Asahi Kasei filed for a patent.", "unverified"],
    ]);
    expect(claimCounts(read)).toEqual({ verified: 0, unverified: 1, contested: 0 });
  });
});

describe("statedVerdict", () => {
  it.each([
    ["SUPPORT", "The claim is supported by the 1985 cell."],
    ["SUPPORT", "The claim appears correct for the cell built in 1985."],
    ["CONTRADICT", "The claim is contradicted by the account of the 1985 cell."],
    ["CONTRADICT", "The claim is not supported by the patent record."],
    ["CONTRADICT", "This claim seems plainly false given the cell of 1985."],
    ["NOT_ENOUGH_INFO", "Whether the claim holds cannot be determined from the patent record."],
    ["NOT_ENOUGH_INFO", "The claim is neither supported nor contradicted by the patent record."],
  ] as const)("reads %s from a finding: %s", (label, text) => {
    expect(statedVerdict(synthesizedReport([text]))).toBe(label);
  });

  it("reads a verdict from a gap", () => {
    const doc = synthesizedReport(
      ["Akira Yoshino built a cell."],
      ["The claim cannot be verified from the sources that were read."],
    );
    expect(statedVerdict(doc)).toBe("NOT_ENOUGH_INFO");
  });

  it("does not count quoted source excerpts as the report's verdict", () => {
    const quoting = source(1, "trials/claim.md", "The claim is supported by the trial, the authors wrote.");
    const doc = sourceBackedReport([quoting]);
    expect(doc.sourceCards[0]?.excerpts[0]?.text).toContain("The claim is supported");
    expect(statedVerdict(doc)).toBeNull();
  });

  it("is null when no finding or gap states a verdict on the claim", () => {
    expect(statedVerdict(synthesizedReport(["Akira Yoshino built a cell with a petroleum-coke anode."]))).toBeNull();
    // "supported" without the claim is not a verdict on it.
    expect(statedVerdict(synthesizedReport(["The cathode is supported by a carbon anode."]))).toBeNull();
    expect(statedVerdict(sourceBackedReport([]))).toBeNull();
  });
});

describe("salvaged", () => {
  it("counts a published report that cites or quotes a source", () => {
    expect(salvaged(undefined)).toBe(false);
    expect(salvaged(sourceBackedReport([]))).toBe(false);
    expect(salvaged(sourceBackedReport())).toBe(true);
    expect(salvaged(synthesizedReport(["Akira Yoshino built a cell."]))).toBe(true);
  });
});

describe("faultyModel: the investigative loop's act turns", () => {
  const input: ActInput = { system: "s", messages: [{ role: "user", content: "q" }], tools: [], toolChoice: "auto" };
  const turn = (...names: string[]): ActTurn => ({
    text: "",
    calls: names.map((name, index) => ({ id: `call${index + 1}`, name, args: {} })),
  });
  /** The result of one act turn through the faulty model, and whether the wrapped model saw it. */
  async function acted(fault: string, scripted: ActTurn) {
    const model = new ScriptedModel().onAct(async () => succeed(scripted));
    const faulty = faultyModel(model, parseFault(fault));
    const result = await faulty.act?.(input, { timeoutMs: 1_000 });
    model.assertConsumed();
    return result;
  }

  it("planner-failure fails a turn that calls search, and only such a turn", async () => {
    expect(await acted("planner-failure", turn("notes_read", "search"))).toEqual({
      ok: false,
      kind: "transport",
      error: "injected fault: planner failure",
      usage: { inputTokens: 100, outputTokens: 50 },
      attempts: 1,
    });
    expect(await acted("planner-failure", turn("fetch_page", "add_question"))).toMatchObject({ ok: true });
    expect(await acted("planner-failure", turn("finalize_report"))).toMatchObject({ ok: true });
  });

  it("synthesis-failure fails a turn that calls finalize_report, and only such a turn", async () => {
    expect(await acted("synthesis-failure", turn("finalize_report"))).toMatchObject({
      ok: false,
      kind: "transport",
      error: "injected fault: synthesis failure",
    });
    expect(await acted("synthesis-failure", turn("search", "fetch_page"))).toMatchObject({ ok: true });
  });

  it("model-timeout hangs every act turn until the Host gives up", async () => {
    const model = new ScriptedModel();
    const faulty = faultyModel(model, parseFault("model-timeout"));
    const controller = new AbortController();
    const pending = faulty.act?.(input, { timeoutMs: 50, signal: controller.signal });
    controller.abort();
    expect(await pending).toMatchObject({ ok: false, kind: "timeout" });
    expect(model.calls).toEqual([]);
  });

  it("leaves act alone for the other faults, and absent for a model without it", async () => {
    const model = new ScriptedModel();
    for (const fault of ["search-failure", "fetch-failure:1", "crash-after-persisted:2"]) {
      expect(faultyModel(model, parseFault(fault))).toBe(model);
    }
    const { act: _act, ...withoutAct } = createOfflineModel();
    for (const fault of ["planner-failure", "synthesis-failure", "model-timeout"]) {
      expect(faultyModel(withoutAct, parseFault(fault)).act).toBeUndefined();
    }
  });

  it("plans every fault for the investigative strategy too", () => {
    const plan = planRuns([{ id: "a" }], ["simple", "investigative"], 1, [...STANDARD_FAULTS], 1);
    const faulted = plan.filter((run) => run.strategy === "investigative" && run.fault !== "none");
    expect(faulted.map((run) => run.fault)).toEqual([...STANDARD_FAULTS]);
  });
});

describe("parseFault and parseFaultList", () => {
  it("parses the plain and the numbered switches", () => {
    expect(parseFault("planner-failure")).toEqual({ kind: "planner-failure" });
    expect(parseFault(" synthesis-failure ")).toEqual({ kind: "synthesis-failure" });
    expect(parseFault("model-timeout")).toEqual({ kind: "model-timeout" });
    expect(parseFault("search-failure")).toEqual({ kind: "search-failure" });
    expect(parseFault("search-failure:3")).toEqual({ kind: "search-failure", nth: 3 });
    expect(parseFault("fetch-failure:12")).toEqual({ kind: "fetch-failure", nth: 12 });
    expect(parseFault("crash-after-persisted:2")).toEqual({ kind: "crash-after-persisted", after: 2 });
    for (const name of STANDARD_FAULTS) expect(() => parseFault(name)).not.toThrow();
  });

  it.each([
    "meteor",
    "fetch-failure",
    "fetch-failure:0",
    "crash-after-persisted",
    "crash-after-persisted:10000",
    "search-failure:-1",
    "planner-failure:1",
    "all",
    "",
  ])("refuses %j, naming the known switches", (name) => {
    expect(userError(() => parseFault(name)).message).toBe(`unknown fault "${name.trim()}" (known: ${FAULT_HELP})`);
  });

  it("expands all, drops none and blanks, and keeps the first of repeated switches", () => {
    expect(parseFaultList("all")).toEqual([...STANDARD_FAULTS]);
    expect(parseFaultList("none")).toEqual([]);
    expect(parseFaultList("")).toEqual([]);
    expect(parseFaultList(" , none ,")).toEqual([]);
    expect(parseFaultList("model-timeout, all")).toEqual([
      "model-timeout",
      ...STANDARD_FAULTS.filter((name) => name !== "model-timeout"),
    ]);
    expect(parseFaultList("all,search-failure:2")).toEqual([...STANDARD_FAULTS, "search-failure:2"]);
    expect(parseFaultList("fetch-failure:2,fetch-failure:2")).toEqual(["fetch-failure:2"]);
  });

  it("refuses a list with an unknown switch", () => {
    expect(userError(() => parseFaultList("planner-failure,meteor")).message).toMatch(
      /^unknown fault "meteor" \(known: .*, or all\)$/,
    );
  });
});

describe("the eval progress line", () => {
  it("duration writes seconds, minutes and hours", () => {
    expect(duration(0)).toBe("0 s");
    expect(duration(-5_000)).toBe("0 s");
    expect(duration(499)).toBe("0 s");
    expect(duration(42_000)).toBe("42 s");
    expect(duration(59_600)).toBe("1 min 00 s");
    expect(duration(65_000)).toBe("1 min 05 s");
    expect(duration(3_600_000 + 5 * 60_000 + 30_000)).toBe("1 h 05 min");
  });

  it("shows the bar, the counts, the elapsed time and an estimate from the runs done here", () => {
    expect(progressLine(0, 10, 0, 0)).toBe(`[${"-".repeat(24)}] 0/10 runs, 0 s elapsed`);
    expect(progressLine(5, 10, 50_000, 5)).toBe(
      `[${"#".repeat(12)}${"-".repeat(12)}] 5/10 runs, 50 s elapsed, about 50 s left`,
    );
    // Resumed: 6 runs were done before; 2 here took 20 s, so 2 left take about 20 s.
    expect(progressLine(8, 10, 20_000, 2, 10)).toBe("[########--] 8/10 runs, 20 s elapsed, about 20 s left");
    expect(progressLine(6, 10, 1_000, 0, 10)).toBe("[######----] 6/10 runs, 1 s elapsed");
    expect(progressLine(10, 10, 125_000, 10, 4)).toBe("[####] 10/10 runs, 2 min 05 s elapsed");
    expect(progressLine(0, 0, 0, 0, 4)).toBe("[####] 0/0 runs, 0 s elapsed");
  });
});
