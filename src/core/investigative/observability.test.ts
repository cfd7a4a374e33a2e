import { describe, expect, it } from "vitest";
import { at, challenge, question } from "../../testing/investigation-rows.js";
import {
  challengeLines,
  challengeStats,
  type FrontierNode,
  frontierForest,
  frontierStats,
  frontierStatsLines,
  frontierTree,
  investigationExport,
  ledgerLines,
  shorten,
  transitionsTimeline,
} from "./observability.js";
import type { Claim, Question, QuestionStatus, Transition } from "./types.js";

/** Transitions of one question through `steps` ([to, trigger, second, actor?, reason?]), seqs from 1. */
function history(
  questionId: string,
  steps: [QuestionStatus, Transition["trigger"], number, ("agent" | "code")?, string?][],
): Transition[] {
  let from: QuestionStatus | "" = "";
  return steps.map(([toStatus, trigger, second, actor, reason], index) => {
    const row: Transition = {
      questionId,
      seq: index + 1,
      fromStatus: from,
      toStatus,
      trigger,
      actor: actor ?? "agent",
      reason: reason ?? "",
      priority: 0.5,
      attempts: 0,
      causedBy: "",
      stateSeq: 0,
      createdAt: at(second),
    };
    from = toStatus;
    return row;
  });
}

const QUESTIONS: Question[] = [
  question("q_001", null, "pending", { priority: 1, question: "When was the lithium-ion battery commercialised?" }),
  // Out of order on purpose: the tree sorts by id number, q_010 after q_003.
  question("q_010", "q_002", "pruned", { depth: 2, answer: "off topic" }),
  question("q_002", "q_001", "resolved", { priority: 0.8, answer: "Sony, 1991", reopens: 1 }),
  question("q_003", "q_001", "unresolvable", { priority: 0.6, answer: "Sony was first" }),
  question("q_004", "q_001", "pruned", { priority: 0.3 }),
];

const TRANSITIONS: Transition[] = [
  ...history("q_001", [["pending", "created", 0, "code"]]),
  ...history("q_002", [
    ["pending", "created", 1],
    ["in_progress", "selected", 2, "code"],
    ["resolved", "resolved", 12],
    ["pending", "reopened", 14, "agent", "a source says 1992"],
    ["in_progress", "selected", 15, "code"],
    ["resolved", "resolved", 20],
  ]),
  ...history("q_003", [
    ["pending", "created", 1],
    ["in_progress", "selected", 21, "code"],
    ["pending", "retried", 25],
    ["in_progress", "selected", 26, "code"],
    ["unresolvable", "attempts_exhausted", 30, "code"],
  ]),
  ...history("q_004", [
    ["pending", "created", 1],
    ["pruned", "pruned_depth", 3, "code", "deeper than max_depth"],
  ]),
  ...history("q_010", [
    ["pending", "created", 4],
    ["pruned", "pruned_branch", 5, "agent", "off topic"],
  ]),
];

describe("frontierTree", () => {
  it("nests children under their parent in id order, with the outcome shortened", () => {
    const long = question("q_005", "q_001", "resolved", { answer: `Sony ${"x".repeat(100)}` });
    const lines = frontierTree([...QUESTIONS, long], TRANSITIONS);
    expect(lines).toEqual([
      "[q_001] pending  P 1.00  When was the lithium-ion battery commercialised?",
      "  [q_002] resolved  P 0.80  Question q_002?  — answer: Sony, 1991  (reopened 1×)",
      "    [q_010] pruned  P 0.50  Question q_010?  — pruned by agent (pruned_branch): off topic",
      "  [q_003] unresolvable  P 0.60  Question q_003?  — assumption: Sony was first",
      "  [q_004] pruned  P 0.30  Question q_004?  — pruned by code (pruned_depth): deeper than max_depth",
      `  [q_005] resolved  P 0.50  Question q_005?  — answer: ${shorten(long.answer, 60)}`,
    ]);
    expect(lines[5]?.endsWith("…")).toBe(true);
  });

  it("lists orphans and parent cycles at the top level rather than hiding them", () => {
    const lines = frontierTree(
      [
        question("q_007", "q_008", "pending"),
        question("q_008", "q_007", "pending"),
        question("q_009", "q_404", "pending"),
      ],
      [],
    );
    expect(lines.map((line) => line.trim().slice(0, 7))).toEqual(["[q_009]", "[q_007]", "[q_008]"]);
    expect(lines[2]).toMatch(/^ {2}\[q_008\]/);
  });
});

describe("frontierForest", () => {
  /** `id(child id(grandchild))`: the shape of a forest in one string. */
  const shape = (nodes: readonly FrontierNode[]): string =>
    nodes.map((node) => `${node.question.id}${node.children.length ? `(${shape(node.children)})` : ""}`).join(" ");

  it("nests children under their parent in id order, each with its outcome", () => {
    const forest = frontierForest(QUESTIONS, TRANSITIONS);
    expect(shape(forest)).toBe("q_001(q_002(q_010) q_003 q_004)");
    const [root] = forest;
    expect(root?.outcome).toBe("");
    expect(root?.children.map((node) => node.outcome)).toEqual([
      "answer: Sony, 1991",
      "assumption: Sony was first",
      "pruned by code (pruned_depth): deeper than max_depth",
    ]);
    expect(root?.children[0]?.children[0]?.question).toBe(QUESTIONS[1]);
  });

  it("lists orphans at the top level and each member of a parent cycle once", () => {
    const forest = frontierForest(
      [
        question("q_008", "q_007", "pending"),
        question("q_007", "q_008", "pending"),
        question("q_009", "q_404", "pending"),
      ],
      [],
    );
    expect(shape(forest)).toBe("q_009 q_007(q_008)");
    expect(frontierForest([], [])).toEqual([]);
  });
});

describe("transitionsTimeline", () => {
  it("prints one line per transition in write order", () => {
    const rows = [
      ...history("q_002", [
        ["pending", "created", 4],
        ["in_progress", "selected", 5, "code"],
      ]),
    ];
    const caused = { ...history("q_003", [["pending", "created", 6]])[0], causedBy: "ch_001", reason: "contradiction" };
    expect(transitionsTimeline([...rows, caused as Transition])).toEqual([
      "12:03:04  q_002  (new) → pending  created  (agent)",
      "12:03:05  q_002  pending → in_progress  selected  (code)",
      "12:03:06  q_003  (new) → pending  created  (agent)  caused by ch_001  contradiction",
    ]);
  });
});

describe("frontierStats", () => {
  it("counts reopened and retried questions, outcomes per depth and who pruned", () => {
    const stats = frontierStats(QUESTIONS, TRANSITIONS);
    expect(stats.questions).toBe(5);
    expect(stats.byStatus).toMatchObject({ pending: 1, resolved: 1, unresolvable: 1, pruned: 2 });
    expect(stats.reopened).toEqual({ q_002: 1 });
    expect(stats.retried).toEqual({ q_003: 1 });
    expect(stats.byDepth).toEqual([
      { depth: 0, resolved: 0, unresolvable: 0, resolvedRatio: null },
      { depth: 1, resolved: 1, unresolvable: 1, resolvedRatio: 0.5 },
      { depth: 2, resolved: 0, unresolvable: 0, resolvedRatio: null },
    ]);
    expect(stats.pruned).toEqual({ agent: ["q_010"], code: ["q_004"] });
  });

  it("sums the time per status from consecutive transitions, the current status up to `until`", () => {
    const closed = frontierStats(QUESTIONS, TRANSITIONS);
    // q_002 pending 1+1 s, q_003 20+1 s, q_004 2 s, q_010 1 s.
    expect(closed.timePerStatus.pending).toBe(26_000);
    // q_002 10+5 s, q_003 4+4 s.
    expect(closed.timePerStatus.in_progress).toBe(23_000);
    expect(closed.timePerStatus.resolved).toBe(2_000);
    expect(closed.timePerStatus.unresolvable).toBe(0);

    const until = frontierStats(QUESTIONS, TRANSITIONS, { until: at(40) });
    // q_001 is still pending from 0 s; the final statuses count up to 40 s.
    expect(until.timePerStatus.pending).toBe(26_000 + 40_000);
    expect(until.timePerStatus.resolved).toBe(2_000 + 20_000);
    expect(until.timePerStatus.unresolvable).toBe(10_000);
    expect(until.timePerStatus.pruned).toBe(37_000 + 35_000);
    expect(frontierStatsLines(closed)).toEqual([
      "  5 questions: pending 1, resolved 1, unresolvable 1, pruned 2",
      "  time per status: pending 26s, in_progress 23s, resolved 2.0s",
      "  resolved/unresolvable per depth: d0 0/0, d1 1/1, d2 0/0",
      "  reopened: q_002 1×; retried: q_003 1×",
      "  pruned by the agent: q_010; by code: q_004",
    ]);
  });
});

describe("challengeStats", () => {
  it("flags two or more challenges that all survived with one strategy", () => {
    const stats = challengeStats([challenge("ch_001"), challenge("ch_002", { targetId: "c_002" })]);
    expect(stats.suspect).toBe(true);
    expect(stats.suspectReason).toBe("all 2 challenges survived, all with one strategy (negation)");
    expect(stats.byTarget).toEqual({ "claim c_001": 1, "claim c_002": 1 });
    expect(challengeLines(stats).at(-1)).toBe("  SUSPECT: all 2 challenges survived, all with one strategy (negation)");
  });

  it("does not flag one challenge, two strategies, an open one or another outcome", () => {
    expect(challengeStats([challenge("ch_001")]).suspect).toBe(false);
    expect(challengeStats([challenge("ch_001"), challenge("ch_002", { strategy: "criticism" })]).suspect).toBe(false);
    expect(challengeStats([challenge("ch_001"), challenge("ch_002", { status: "open", outcome: "" })]).suspect).toBe(
      false,
    );
    expect(challengeStats([challenge("ch_001"), challenge("ch_002", { outcome: "inconclusive" })]).suspect).toBe(false);
    expect(challengeStats([]).suspect).toBe(false);
    expect(challengeLines(challengeStats([]))).toEqual(["  none"]);
  });

  it("counts strategy × outcome and lists refutations with their sources and what changed", () => {
    const challenges = [
      challenge("ch_001"),
      challenge("ch_002", {
        strategy: "discrepancy",
        outcome: "refuted",
        sourceIds: ["s_002"],
        resultClaimId: "c_003",
        evidence: "the press release says 1992",
      }),
      challenge("ch_003", {
        strategy: "discrepancy",
        targetType: "conclusion",
        targetId: "",
        status: "open",
        outcome: "",
      }),
    ];
    const reopened = { ...(TRANSITIONS.find((row) => row.trigger === "reopened") as Transition), causedBy: "ch_002" };
    const stats = challengeStats(challenges, [reopened]);
    expect(stats.byOutcome).toEqual({ survived: 1, weakened: 0, refuted: 1, inconclusive: 0, open: 1 });
    expect(stats.byStrategy).toEqual({
      negation: { survived: 1, weakened: 0, refuted: 0, inconclusive: 0, open: 0 },
      discrepancy: { survived: 0, weakened: 0, refuted: 1, inconclusive: 0, open: 1 },
    });
    expect(stats.byTarget).toEqual({ "claim c_001": 2, conclusion: 1 });
    expect(stats.refutations).toEqual([
      {
        challengeId: "ch_002",
        outcome: "refuted",
        target: "claim c_001",
        evidence: "the press release says 1992",
        sourceIds: ["s_002"],
        resultClaimId: "c_003",
        changedQuestions: ["q_002"],
      },
    ]);
    expect(challengeLines(stats)).toEqual([
      "  outcomes: survived 1, refuted 1, open 1",
      "  negation           survived 1",
      "  discrepancy        refuted 1, open 1",
      "  per target: claim c_001 2, conclusion 1",
      "  ch_002 refuted claim c_001  src: s_002  → c_003  changed q_002  the press release says 1992",
      "  suspect: no",
    ]);
  });
});

describe("ledgerLines", () => {
  it("lists claims in id order with supporting and contradicting sources", () => {
    const claim = (id: string, extra: Partial<Claim>): Claim => ({
      id,
      questionId: "q_002",
      kind: "claim",
      text: `Claim ${id}.`,
      value: "",
      unit: "",
      status: "UNVERIFIED",
      check: "",
      independence: "",
      createdAt: at(0),
      updatedAt: at(0),
      ...extra,
    });
    const lines = ledgerLines(
      [
        claim("c_010", { status: "REFUTED", questionId: null }),
        claim("d_002", { kind: "datapoint", value: "3.6", unit: "V" }),
      ],
      [
        { claimId: "c_010", sourceId: "s_001", stance: "supports", chunkIds: [] },
        { claimId: "c_010", sourceId: "s_003", stance: "contradicts", chunkIds: [] },
      ],
    );
    expect(lines).toEqual([
      "[d_002] UNVERIFIED  Claim d_002. = 3.6 V  src: —  (q_002)",
      "[c_010] REFUTED  Claim c_010.  src: s_001  contra: s_003",
    ]);
  });
});

describe("investigationExport", () => {
  it("puts everything in one JSON-ready object", () => {
    const rows = {
      questions: QUESTIONS,
      dependencies: [],
      attempts: [],
      transitions: TRANSITIONS,
      sources: [
        { id: "s_002", location: "history/press.md", domain: "corpus:history/press.md", title: "Press", note: "" },
      ],
      claims: [],
      claimSources: [],
      contradictions: [],
      challenges: [challenge("ch_001", { sourceIds: ["s_002", "s_404"] })],
      notesVersions: 3,
    };
    const exported = investigationExport({ id: 7, finishedAt: at(40) }, rows, [{ type: "run-started" }]);
    const parsed = JSON.parse(JSON.stringify(exported)) as typeof exported;
    expect(parsed).toMatchObject({ format: "assay-investigation", schemaVersion: 1, run: { id: 7 }, notesVersions: 3 });
    expect(parsed.frontier.tree).toEqual(frontierTree(QUESTIONS, TRANSITIONS));
    expect(parsed.frontier.questions).toHaveLength(5);
    expect(parsed.transitions).toHaveLength(TRANSITIONS.length);
    expect(parsed.challenges[0]?.sources.map((source) => [source.id, source.location])).toEqual([
      ["s_002", "history/press.md"],
      ["s_404", ""],
    ]);
    expect(parsed.stats.frontier.timePerStatus.unresolvable).toBe(10_000);
    expect(parsed.stats.challenges.total).toBe(1);
    expect(parsed.events).toEqual([{ type: "run-started" }]);
  });
});
