import { describe, expect, it } from "vitest";
import { chunkId } from "../ids.js";
import { admissionCatalog, admitSynthesis } from "../synthesis/admission.js";
import { synthesisOutputSchema } from "../synthesis/proposals.js";
import { type FinalReport, finalizationGate } from "./final-report.js";
import { finalReportToSynthesis, UNVERIFIED_MARKER, verificationNote, withoutIds } from "./report-mapping.js";
import { type Claim, type ClaimSource, DEFAULT_INVESTIGATION_CONFIG, type Investigation } from "./types.js";

const NOW = "2026-03-01T12:00:00.000Z";

/** The Host's persisted sources with their passages, as the store lists them. */
const PERSISTED = [
  {
    id: "s_001",
    location: "https://alpha.example/model-x",
    passages: ["Model card of model X.", "Model X has 7 billion parameters; its weights load in half precision."],
  },
  {
    id: "s_002",
    location: "https://beta.example/bench",
    passages: [
      "Benchmark setup: one GPU, CUDA 12.",
      "We measured peak memory after loading.",
      "At fp16 the weights of model X occupy 14 GB of GPU memory.",
    ],
  },
  { id: "s_003", location: "docs/profiling.md", passages: ["With batch 8 the activation memory reaches 24 GB."] },
  { id: "s_004", location: "https://gamma.example/forum", passages: ["A user says a 16 GB card is enough."] },
];

const CATALOG = admissionCatalog(
  PERSISTED.map((source) => ({
    id: source.id,
    chunks: source.passages.map((text, index) => ({ id: chunkId(source.id, index + 1), text })),
  })),
);

const claim = (id: string, status: Claim["status"], text: string): Claim => ({
  id,
  questionId: "q_002",
  kind: id.startsWith("d_") ? "datapoint" : "claim",
  text,
  value: id.startsWith("d_") ? "24" : "",
  unit: id.startsWith("d_") ? "GB" : "",
  status,
  check: "",
  independence: status === "VERIFIED" ? "a vendor card and an independent benchmark" : "",
  createdAt: NOW,
  updatedAt: NOW,
});

const supports = (claimId: string, sourceId: string, chunkIds: string[] = []): ClaimSource => ({
  claimId,
  sourceId,
  stance: "supports",
  chunkIds,
});

const INVESTIGATION: Investigation = {
  runId: 1,
  config: { ...DEFAULT_INVESTIGATION_CONFIG },
  frontier: {
    objective: "How much GPU memory does model X need at fp16?",
    questions: [],
    dependencies: [],
    attempts: [],
    transitions: [],
    rootAtomic: false,
  },
  ledger: {
    sources: PERSISTED.map((source) => ({
      id: source.id,
      location: source.location,
      domain: source.location.startsWith("https://") ? new URL(source.location).hostname : "",
      title: source.id,
      note: "",
    })),
    claims: [
      claim("c_001", "VERIFIED", "The fp16 weights of model X take 14 GB."),
      claim("d_001", "UNVERIFIED", "activation memory at batch 8"),
      claim("c_002", "UNVERIFIED", "A 16 GB card is enough."),
      claim("c_003", "REFUTED", "Model X needs 40 GB."),
    ],
    claimSources: [
      supports("c_001", "s_001", ["s_001.p02"]),
      supports("c_001", "s_002", ["s_002.p03", "s_002.p02"]),
      supports("d_001", "s_003", ["s_003.p01"]),
      // Recorded before passages were kept.
      supports("c_002", "s_004"),
      { claimId: "c_002", sourceId: "s_002", stance: "contradicts", chunkIds: ["s_002.p03"] },
      supports("c_003", "s_004", ["s_004.p01"]),
    ],
    contradictions: [],
  },
  challenges: [],
  scratch: "",
  stateSeq: 0,
};

const REPORT: FinalReport = {
  summary: "Model X needs 14 GB for its fp16 weights, and more with activations (c_001).",
  items: [
    { text: "Model X needs 14 GB of GPU memory for its fp16 weights (c_001).", claimIds: ["c_001"], sourceIds: [] },
    { text: "Activation memory reaches 24 GB at batch 8.", claimIds: ["d_001"], sourceIds: ["s_003"] },
    { text: "A smaller card is said to be enough.", claimIds: ["c_002"], sourceIds: ["s_004"] },
    {
      text: "Weights and activations together exceed what a consumer card holds.",
      claimIds: ["c_001", "d_001"],
      sourceIds: ["s_002", "s_003"],
    },
  ],
  gaps: [{ text: "Offloading to the CPU was not measured [s_002].", questionIds: [] }],
  keyClaims: [
    { claimId: "c_001", status: "VERIFIED" },
    { claimId: "d_001", status: "UNVERIFIED" },
    { claimId: "c_002", status: "UNVERIFIED" },
  ],
};

describe("finalReportToSynthesis", () => {
  it("maps items to facts citing the passages on their claims' links, and gaps to gaps", () => {
    expect(finalizationGate(INVESTIGATION, REPORT, ["s_001", "s_002", "s_003", "s_004"]).passed).toBe(true);
    const { output, dropped } = finalReportToSynthesis(REPORT, INVESTIGATION, CATALOG);
    expect(synthesisOutputSchema.safeParse(output).success).toBe(true);
    expect(output.facts).toEqual([
      // One fact for c_001, not one per source: the link whose passages hold 14 and 16 (fp16).
      {
        id: "item1_c_001",
        text: "Model X needs 14 GB of GPU memory for its fp16 weights.",
        sourceId: "s_002",
        chunkIds: ["s_002.p03", "s_002.p02"],
      },
      {
        id: "item2_d_001",
        text: "Unverified: Activation memory reaches 24 GB at batch 8.",
        sourceId: "s_003",
        chunkIds: ["s_003.p01"],
      },
      {
        id: "item4_c_001",
        text: "Unverified: Weights and activations together exceed what a consumer card holds.",
        sourceId: "s_002",
        chunkIds: ["s_002.p03", "s_002.p02"],
      },
      {
        id: "item4_d_001",
        text: "Unverified: Weights and activations together exceed what a consumer card holds.",
        sourceId: "s_003",
        chunkIds: ["s_003.p01"],
      },
    ]);
    expect(output.gaps).toEqual([
      { id: "gap1", text: "Offloading to the CPU was not measured.", relatedSourceIds: [] },
    ]);
    expect(output.derivations).toEqual([]);
    expect(output.recommendations).toEqual([]);
    expect(dropped).toEqual([
      { itemId: "item3", kind: "fact", reason: "no supporting source link of c_002 has passages in the catalog" },
    ]);
  });

  it("is admitted whole by admitSynthesis against the catalog", () => {
    const { output } = finalReportToSynthesis(REPORT, INVESTIGATION, CATALOG);
    const admitted = admitSynthesis(output, CATALOG);
    expect(admitted.diagnostics).toEqual([]);
    expect(admitted.facts).toEqual(output.facts);
    expect(admitted.gaps).toEqual(output.gaps);
  });

  it("cites the first supporting link with passages, preferring the sources the item shows", () => {
    const item = { text: "Model X loads its weights in half precision.", claimIds: ["c_001"] };
    const first = finalReportToSynthesis({ ...REPORT, items: [{ ...item, sourceIds: [] }] }, INVESTIGATION, CATALOG);
    expect(first.output.facts.map((fact) => [fact.sourceId, fact.chunkIds])).toEqual([["s_001", ["s_001.p02"]]]);
    const shown = finalReportToSynthesis(
      { ...REPORT, items: [{ ...item, sourceIds: ["s_002"] }] },
      INVESTIGATION,
      CATALOG,
    );
    expect(shown.output.facts.map((fact) => fact.sourceId)).toEqual(["s_002"]);
  });

  it("keeps only passages the catalog holds, and drops an item whose links have none there", () => {
    const stale: Investigation = {
      ...INVESTIGATION,
      ledger: {
        ...INVESTIGATION.ledger,
        claimSources: [
          supports("c_001", "s_001", ["s_001.p09", "s_001.p02"]),
          supports("d_001", "s_009", ["s_009.p01"]),
        ],
      },
    };
    const report: FinalReport = { ...REPORT, items: REPORT.items.slice(0, 2) };
    const { output, dropped } = finalReportToSynthesis(report, stale, CATALOG);
    expect(output.facts.map((fact) => fact.chunkIds)).toEqual([["s_001.p02"]]);
    expect(dropped).toEqual([
      { itemId: "item2", kind: "fact", reason: "no supporting source link of d_001 has passages in the catalog" },
    ]);
  });

  it("drops an item resting on an unknown, refuted or retracted claim, with the reason", () => {
    const report: FinalReport = {
      ...REPORT,
      items: [
        { text: "Model X needs 40 GB.", claimIds: ["c_003"], sourceIds: [] },
        { text: "Something else.", claimIds: ["c_001", "c_404"], sourceIds: [] },
      ],
    };
    expect(finalReportToSynthesis(report, INVESTIGATION, CATALOG).dropped).toEqual([
      { itemId: "item1", kind: "fact", reason: "rests on c_003, which is REFUTED" },
      { itemId: "item2", kind: "fact", reason: "rests on c_404, which is not a recorded claim" },
    ]);
  });

  it("marks only items resting on a claim that is not VERIFIED", () => {
    const { output } = finalReportToSynthesis(REPORT, INVESTIGATION, CATALOG);
    const marked = output.facts.filter((fact) => fact.text.startsWith(UNVERIFIED_MARKER)).map((fact) => fact.id);
    expect(marked).toEqual(["item2_d_001", "item4_c_001", "item4_d_001"]);
    const verified: Investigation = {
      ...INVESTIGATION,
      ledger: {
        ...INVESTIGATION.ledger,
        claims: INVESTIGATION.ledger.claims.map((row) => (row.id === "d_001" ? { ...row, status: "VERIFIED" } : row)),
      },
    };
    const again = finalReportToSynthesis(REPORT, verified, CATALOG);
    expect(again.output.facts.find((fact) => fact.id === "item2_d_001")?.text).toBe(
      "Activation memory reaches 24 GB at batch 8.",
    );
  });
});

describe("withoutIds", () => {
  it("removes bracketed id lists and bare ids, tidying the spaces", () => {
    expect(withoutIds("14 GB (c_001, s_002.p03) at fp16 [s_002]; see d_004.")).toBe("14 GB at fp16; see.");
    expect(withoutIds("No ids here (really).")).toBe("No ids here (really).");
  });
});

describe("verificationNote", () => {
  it("counts the findings resting on verified claims and the marked ones", () => {
    expect(verificationNote(REPORT, INVESTIGATION)).toBe(
      "1 finding rests on claims verified by independent sources and a survived challenge; 3 are unverified and marked.",
    );
    const one = { ...REPORT, items: REPORT.items.slice(0, 2) };
    expect(verificationNote(one, INVESTIGATION)).toBe(
      "1 finding rests on claims verified by independent sources and a survived challenge; 1 is unverified and marked.",
    );
    const verified = { ...REPORT, items: [...REPORT.items.slice(0, 1), ...REPORT.items.slice(0, 1)] };
    expect(verificationNote(verified, INVESTIGATION)).toBe(
      "2 findings rest on claims verified by independent sources and a survived challenge.",
    );
    const none = { ...REPORT, items: REPORT.items.slice(1, 3) };
    expect(verificationNote(none, INVESTIGATION)).toBe(
      "No finding rests on claims verified by independent sources and a survived challenge; 2 findings are unverified and marked.",
    );
  });
});
