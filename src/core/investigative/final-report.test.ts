import { describe, expect, it } from "vitest";
import { VERIFY_RATIONALE } from "./breakers.js";
import { type FinalReport, finalizationGate, finalReportSchema, parseFinalReport } from "./final-report.js";
import { type Claim, DEFAULT_INVESTIGATION_CONFIG, type Investigation, type Question } from "./types.js";

const NOW = "2026-03-01T12:00:00.000Z";
const HOST = ["s_001", "s_002", "s_003", "s_004", "s_005"];

const question = (id: string, status: Question["status"], answer = ""): Question => ({
  id,
  parentId: id === "q_001" ? null : "q_001",
  depth: id === "q_001" ? 0 : 1,
  kind: "question",
  question: `question ${id}`,
  rationale: "",
  priority: 0.5,
  status,
  validationCriteria: "a figure",
  targetSources: [],
  answer,
  claimIds: [],
  exemption: "",
  claimedBy: null,
  agent: 0,
  reopens: 0,
  createdAt: NOW,
  updatedAt: NOW,
});

const claim = (id: string, status: Claim["status"]): Claim => ({
  id,
  questionId: null,
  kind: id.startsWith("d_") ? "datapoint" : "claim",
  text: `text of ${id}`,
  value: "",
  unit: "",
  status,
  check: "",
  independence: "",
  createdAt: NOW,
  updatedAt: NOW,
});

const INVESTIGATION: Investigation = {
  runId: 1,
  config: { ...DEFAULT_INVESTIGATION_CONFIG },
  frontier: {
    objective: "objective",
    questions: [
      question("q_001", "resolved", "24 GB"),
      question("q_002", "unresolvable", "assume batch 1"),
      question("q_003", "unresolvable", "assume no offload"),
      question("q_004", "pruned"),
    ],
    dependencies: [],
    attempts: [],
    transitions: [],
    rootAtomic: false,
  },
  ledger: {
    sources: HOST.map((id) => ({
      id,
      location: `https://${id}.example/`,
      domain: `${id}.example`,
      title: id,
      note: "",
    })),
    claims: [
      claim("c_001", "VERIFIED"),
      claim("c_002", "UNVERIFIED"),
      claim("c_003", "REFUTED"),
      claim("d_001", "RETRACTED"),
    ],
    claimSources: [
      { claimId: "c_001", sourceId: "s_001", stance: "supports", chunkIds: [] },
      { claimId: "c_001", sourceId: "s_002", stance: "supports", chunkIds: [] },
      { claimId: "c_002", sourceId: "s_003", stance: "supports", chunkIds: [] },
      { claimId: "c_002", sourceId: "s_004", stance: "contradicts", chunkIds: [] },
      { claimId: "c_003", sourceId: "s_005", stance: "supports", chunkIds: [] },
    ],
    contradictions: [],
  },
  challenges: [],
  scratch: "",
  stateSeq: 0,
};

const REPORT: FinalReport = {
  summary: "Model X needs about 24 GB at fp16 (c_001).",
  items: [
    { text: "24 GB at fp16 for inference.", claimIds: ["c_001"], sourceIds: ["s_001", "s_002"] },
    { text: "The vendor alone states the batch size.", claimIds: ["c_002", "c_001"], sourceIds: ["s_003"] },
  ],
  gaps: [
    { text: "Batch size unknown; assumed 1.", questionIds: ["q_002"] },
    { text: "Offload not covered.", questionIds: ["q_003"] },
  ],
  keyClaims: [
    { claimId: "c_001", status: "VERIFIED" },
    { claimId: "c_002", status: "UNVERIFIED" },
  ],
};

const gate = (report: FinalReport, host: readonly string[] = HOST) => finalizationGate(INVESTIGATION, report, host);

describe("finalReportSchema", () => {
  it("accepts a well-formed report and bounds its parts", () => {
    expect(finalReportSchema.safeParse(REPORT).success).toBe(true);
    expect(parseFinalReport({ ...REPORT, summary: "x".repeat(1_500) }).ok).toBe(true);
    const long = parseFinalReport({ ...REPORT, summary: "x".repeat(1_501) });
    expect(long.ok).toBe(false);
    if (!long.ok) expect(long.error).toMatch(/^The report does not fit its schema: summary: /);
    const item = { text: "t", claimIds: ["c_001"], sourceIds: [] };
    expect(parseFinalReport({ ...REPORT, items: Array.from({ length: 40 }, () => item) }).ok).toBe(true);
    expect(parseFinalReport({ ...REPORT, items: Array.from({ length: 41 }, () => item) }).ok).toBe(false);
    // Nothing established is a report too: its gaps say what is missing.
    expect(parseFinalReport({ ...REPORT, items: [] }).ok).toBe(true);
    expect(parseFinalReport({ ...REPORT, items: [{ ...item, claimIds: [] }] }).ok).toBe(false);
    expect(parseFinalReport({ ...REPORT, keyClaims: [{ claimId: "c_001", status: "TRUE" }] }).ok).toBe(false);
    expect(parseFinalReport({ ...REPORT, extra: 1 }).ok).toBe(false);
    expect(parseFinalReport("not a report").ok).toBe(false);
  });
});

describe("finalizationGate", () => {
  it("passes a report that cites persisted sources, holding claims with their real status, and every gap", () => {
    expect(gate(REPORT)).toEqual({ passed: true, missing: [] });
  });

  it("refuses source ids the Host has not persisted, in fields and in text", () => {
    const report: FinalReport = {
      ...REPORT,
      summary: "See s_009.",
      items: [{ text: "24 GB at fp16.", claimIds: ["c_001"], sourceIds: ["s_001", "s_008"] }],
      keyClaims: [{ claimId: "c_001", status: "VERIFIED" }],
    };
    expect(gate(report).missing).toEqual([
      "item 1 cites s_008, which is not a persisted source of this run: cite only source ids you were shown.",
      "the summary (text) cites s_009, which is not a persisted source of this run: cite only source ids you were shown.",
    ]);
    expect(gate(REPORT, ["s_001", "s_002"]).missing).toEqual([
      "item 2 cites s_003, which is not a persisted source of this run: cite only source ids you were shown.",
    ]);
  });

  it("refuses unknown claim ids and claims that are REFUTED or RETRACTED, by id", () => {
    const report: FinalReport = {
      ...REPORT,
      items: [
        ...REPORT.items,
        { text: "Needs 32 GB.", claimIds: ["c_003"], sourceIds: [] },
        { text: "A figure.", claimIds: ["d_001", "c_404"], sourceIds: [] },
      ],
      gaps: [...REPORT.gaps, { text: "Earlier figure c_003 no longer holds.", questionIds: [] }],
      keyClaims: [
        ...REPORT.keyClaims,
        { claimId: "c_003", status: "REFUTED" },
        { claimId: "d_001", status: "RETRACTED" },
      ],
    };
    expect(gate(report).missing).toEqual([
      "item 3 cites c_003, which is REFUTED: drop it, or rest the statement on a claim that holds.",
      "item 4 cites d_001, which is RETRACTED: drop it, or rest the statement on a claim that holds.",
      "item 4 cites c_404, which is not a recorded claim: cite only ledger claim ids.",
      "gap 3 (text) cites c_003, which is REFUTED: drop it, or rest the statement on a claim that holds.",
    ]);
  });

  it("requires keyClaims to state each cited claim's real status", () => {
    const report: FinalReport = {
      ...REPORT,
      keyClaims: [
        { claimId: "c_001", status: "VERIFIED" },
        { claimId: "c_003", status: "VERIFIED" },
        { claimId: "c_404", status: "VERIFIED" },
      ],
    };
    expect(gate(report).missing).toEqual([
      "keyClaims states c_003 VERIFIED, but it is REFUTED: state its real status.",
      "keyClaims names c_404, which is not a recorded claim.",
      "keyClaims must state the status of every cited claim; add: c_002 UNVERIFIED.",
    ]);
    const overstated: FinalReport = {
      ...REPORT,
      keyClaims: [
        { claimId: "c_001", status: "VERIFIED" },
        { claimId: "c_002", status: "VERIFIED" },
      ],
    };
    expect(gate(overstated).missing).toEqual([
      "keyClaims states c_002 VERIFIED, but it is UNVERIFIED: state its real status.",
    ]);
  });

  it("allows an item's sources only among those supporting its claims", () => {
    const report: FinalReport = {
      ...REPORT,
      items: [
        { text: "24 GB.", claimIds: ["c_001"], sourceIds: ["s_001", "s_003", "s_005"] },
        { text: "Vendor batch size.", claimIds: ["c_002"], sourceIds: ["s_004"] },
      ],
    };
    expect(gate(report).missing).toEqual([
      "item 1 shows s_003, s_005, which support none of its claims (c_001): show only sources linked to them (s_001, s_002).",
      "item 2 shows s_004, which supports none of its claims (c_002): show only sources linked to them (s_003).",
    ]);
  });

  it("requires every unresolvable question under gaps, and known question ids there", () => {
    const report: FinalReport = {
      ...REPORT,
      gaps: [{ text: "Batch size and q_099.", questionIds: ["q_002", "q_099"] }],
    };
    expect(gate(report).missing).toEqual([
      "gap 1 names q_099, which is not a question of this run.",
      "Every unresolvable question must appear under gaps (by questionIds); missing: q_003. Add a gap for each with its assumption.",
    ]);
    const textOnly: FinalReport = { ...REPORT, gaps: [{ text: "q_002 and q_003 stay open.", questionIds: [] }] };
    expect(gate(textOnly).missing).toEqual([
      "Every unresolvable question must appear under gaps (by questionIds); missing: q_002, q_003. Add a gap for each with its assumption.",
    ]);
  });

  it("needs no gap for a claim's own verification check: the claim's label says it", () => {
    const check: Question = {
      ...question("q_005", "unresolvable", "no independent source read"),
      question: "Is c_001 supported by an independent source: 24 GB.",
      rationale: VERIFY_RATIONALE,
    };
    const investigation = {
      ...INVESTIGATION,
      frontier: { ...INVESTIGATION.frontier, questions: [...INVESTIGATION.frontier.questions, check] },
    };
    expect(finalizationGate(investigation, REPORT, HOST).missing).toEqual([]);
    // Any other unresolvable question still needs its gap.
    const other = { ...check, rationale: "A facet of the objective." };
    const withOther = {
      ...INVESTIGATION,
      frontier: { ...INVESTIGATION.frontier, questions: [...INVESTIGATION.frontier.questions, other] },
    };
    expect(finalizationGate(withOther, REPORT, HOST).missing).toEqual([
      "Every unresolvable question must appear under gaps (by questionIds); missing: q_005. Add a gap for each with its assumption.",
    ]);
  });
});
