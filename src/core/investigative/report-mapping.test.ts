import { describe, expect, it } from "vitest";
import { englishJudge } from "../../adapters/language/english-judge.js";
import { chunkId } from "../ids.js";
import { admissionCatalog, admitSynthesis } from "../synthesis/admission.js";
import { synthesisOutputSchema } from "../synthesis/proposals.js";
import { type FinalReport, finalizationGate } from "./final-report.js";
import { finalReportToSynthesis, withoutIds } from "./report-mapping.js";
import { type Claim, type ClaimSource, DEFAULT_INVESTIGATION_CONFIG, type Investigation } from "./types.js";

const JUDGE = englishJudge();
const NOW = "2026-03-01T12:00:00.000Z";

/** The Host's persisted sources with their passages, as the store lists them. */
const PERSISTED = [
  {
    id: "s_001",
    location: "https://alpha.example/model-x",
    passages: [
      "Model card of model X.",
      "Model X has 7 billion parameters; at fp16 the weights of model X take 14 GB.",
    ],
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
  challenges: [
    {
      id: "ch_001",
      questionId: "q_002",
      targetType: "claim",
      targetId: "c_001",
      negation: "Model X's weights do not take 14 GB.",
      strategy: "discrepancy",
      expectedIfFalse: "another figure",
      query: "model X fp16 weights memory different figure",
      status: "closed",
      outcome: "survived",
      evidence: "s_002 states it independently of s_001; nothing read contradicts it.",
      sourceIds: ["s_002"],
      resultClaimId: null,
      attempt: null,
      createdAt: NOW,
      closedAt: NOW,
    },
  ],
  scratch: "",
  stateSeq: 0,
};

const REPORT: FinalReport = {
  summary: "Model X needs 14 GB for its fp16 weights, and more with activations (c_001).",
  items: [
    { text: "The fp16 weights of model X take 14 GB of GPU memory (c_001).", claimIds: ["c_001"], sourceIds: [] },
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
    const { output, dropped } = finalReportToSynthesis(REPORT, INVESTIGATION, CATALOG, JUDGE);
    expect(synthesisOutputSchema.safeParse(output).success).toBe(true);
    expect(output.facts).toEqual([
      // One fact for c_001, not one per source: the first link whose passages hold 14 and 16 (fp16).
      {
        id: "item1_c_001",
        text: "The fp16 weights of model X take 14 GB of GPU memory.",
        sourceId: "s_001",
        chunkIds: ["s_001.p02"],
      },
      {
        id: "item2_d_001",
        text: "Activation memory reaches 24 GB at batch 8.",
        sourceId: "s_003",
        chunkIds: ["s_003.p01"],
      },
      {
        id: "item4_c_001",
        text: "Weights and activations together exceed what a consumer card holds.",
        sourceId: "s_002",
        chunkIds: ["s_002.p03", "s_002.p02"],
      },
      {
        id: "item4_d_001",
        text: "Weights and activations together exceed what a consumer card holds.",
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
    const { output } = finalReportToSynthesis(REPORT, INVESTIGATION, CATALOG, JUDGE);
    const admitted = admitSynthesis(output, CATALOG);
    expect(admitted.diagnostics).toEqual([]);
    expect(admitted.facts).toEqual(output.facts);
    expect(admitted.gaps).toEqual(output.gaps);
  });

  it("cites the first supporting link with passages, preferring the sources the item shows", () => {
    const item = { text: "Model X loads its weights in half precision.", claimIds: ["c_001"] };
    const first = finalReportToSynthesis(
      { ...REPORT, items: [{ ...item, sourceIds: [] }] },
      INVESTIGATION,
      CATALOG,
      JUDGE,
    );
    expect(first.output.facts.map((fact) => [fact.sourceId, fact.chunkIds])).toEqual([["s_001", ["s_001.p02"]]]);
    const shown = finalReportToSynthesis(
      { ...REPORT, items: [{ ...item, sourceIds: ["s_002"] }] },
      INVESTIGATION,
      CATALOG,
      JUDGE,
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
    const { output, dropped, demoted } = finalReportToSynthesis(report, stale, CATALOG, JUDGE);
    expect(output.facts.map((fact) => fact.chunkIds)).toEqual([["s_001.p02"]]);
    expect(dropped).toEqual([
      { itemId: "item2", kind: "fact", reason: "no supporting source link of d_001 has passages in the catalog" },
    ]);
    // Only s_001 is left to support c_001: one origin, where VERIFIED needs two.
    expect(demoted).toEqual([
      {
        itemId: "item1",
        kind: "fact",
        reason:
          "the judge finds 1 independent origin(s) whose passages state a VERIFIED claim it rests on; 2 are needed: published as unverified",
      },
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
    expect(finalReportToSynthesis(report, INVESTIGATION, CATALOG, JUDGE).dropped).toEqual([
      { itemId: "item1", kind: "fact", reason: "rests on c_003, which is REFUTED" },
      { itemId: "item2", kind: "fact", reason: "rests on c_404, which is not a recorded claim" },
    ]);
  });

  it("gives each fact its verification from the ledger: verified with every supporting source and the challenge", () => {
    const { verification } = finalReportToSynthesis(REPORT, INVESTIGATION, CATALOG, JUDGE);
    expect(verification.get("item1_c_001")).toEqual({
      status: "verified",
      supports: [
        {
          sourceId: "s_001",
          chunkIds: ["s_001.p02"],
          quote: "Model X has 7 billion parameters; at fp16 the weights of model X take 14 GB.",
        },
        // The sentence that states it, named for the report's evidence (the report checks it is written there).
        {
          sourceId: "s_002",
          chunkIds: ["s_002.p03", "s_002.p02"],
          quote: "At fp16 the weights of model X occupy 14 GB of GPU memory.",
        },
      ],
      contradicts: [],
      // The recorded evidence names ledger ids, which are not reader text: only the search is told.
      challenge: "a search for conflicting figures (“model X fp16 weights memory different figure”)",
    });
    expect(verification.get("item2_d_001")?.status).toBe("unverified");
    // An item resting on a VERIFIED and an UNVERIFIED claim is not verified.
    expect(verification.get("item4_c_001")?.status).toBe("unverified");
    expect(verification.get("item4_d_001")?.status).toBe("unverified");
  });

  it("publishes an item naming a VERIFIED claim as unverified when it writes a number or a name its passages lack", () => {
    const items = [
      { text: "Model X needs 18 GB for its fp16 weights.", claimIds: ["c_001"], sourceIds: [] },
      { text: "Nvidia says model X has 7 billion parameters.", claimIds: ["c_001"], sourceIds: [] },
      { text: "Model X has 7 billion parameters.", claimIds: ["c_001"], sourceIds: [] },
    ];
    const { verification, demoted } = finalReportToSynthesis({ ...REPORT, items }, INVESTIGATION, CATALOG, JUDGE);
    expect(verification.get("item1_c_001")?.status).toBe("unverified");
    expect(verification.get("item2_c_001")?.status).toBe("unverified");
    expect(verification.get("item3_c_001")?.status).toBe("verified");
    expect(demoted.map((item) => [item.itemId, item.reason])).toEqual([
      ["item1", "its text writes “18”, which the passages of its VERIFIED claims do not: published as unverified"],
      ["item2", "its text writes “Nvidia”, which the passages of its VERIFIED claims do not: published as unverified"],
    ]);
  });

  it("publishes a claim that sources contradict as contested, both sides cited and quoted", () => {
    const contested: Investigation = {
      ...INVESTIGATION,
      ledger: {
        ...INVESTIGATION.ledger,
        claims: [...INVESTIGATION.ledger.claims, claim("c_004", "REFUTED", "Model X has 7 billion parameters.")],
        claimSources: [
          ...INVESTIGATION.ledger.claimSources,
          supports("c_004", "s_001", ["s_001.p02"]),
          { claimId: "c_004", sourceId: "s_003", stance: "contradicts", chunkIds: ["s_003.p01"] },
        ],
      },
    };
    const { output, verification } = finalReportToSynthesis(REPORT, contested, CATALOG, JUDGE);
    expect(output.facts.at(-1)).toEqual({
      id: "contested1",
      text: "Model X has 7 billion parameters.",
      sourceId: "s_001",
      chunkIds: ["s_001.p02"],
    });
    expect(verification.get("contested1")).toEqual({
      status: "contested",
      supports: [
        {
          sourceId: "s_001",
          chunkIds: ["s_001.p02"],
          quote: "Model X has 7 billion parameters; at fp16 the weights of model X take 14 GB.",
        },
      ],
      // The ledger links s_003 as contradicting, but no sentence of it contradicts the claim: it
      // is cited, and nothing is quoted as the other side rather than a sentence that is not.
      contradicts: [{ sourceId: "s_003", chunkIds: ["s_003.p01"] }],
    });
  });
});

describe("withoutIds", () => {
  it("removes bracketed id lists and bare ids, tidying the spaces", () => {
    expect(withoutIds("14 GB (c_001, s_002.p03) at fp16 [s_002]; see d_004.")).toBe("14 GB at fp16; see.");
    expect(withoutIds("No ids here (really).")).toBe("No ids here (really).");
  });
});
