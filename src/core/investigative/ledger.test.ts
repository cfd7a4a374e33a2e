import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Result } from "../result.js";
import { attachAttempt, recordChallengeResult, registerChallenge, validateChallenge } from "./challenges.js";
import {
  addContradiction,
  addressContradiction,
  appendClaim,
  type ClaimInput,
  contradictionSettled,
  EMPTY_LEDGER,
  independenceKey,
  isPassageOf,
  linkSource,
  nextSequentialId,
  questionsCiting,
  registerSource,
  supportingKeys,
  updateClaim,
  verificationGaps,
} from "./ledger.js";
import {
  CHALLENGE_STRATEGIES,
  type Challenge,
  type ClaimStatus,
  DEFAULT_INVESTIGATION_CONFIG,
  type DecisionContext,
  EMPTY_MUTATION,
  type Ledger,
  type LedgerSource,
  type Rejection,
} from "./types.js";

const ctx: DecisionContext = { now: "2025-01-01T00:00:00.000Z", actor: "agent" };
const later: DecisionContext = { now: "2025-01-01T00:05:00.000Z", actor: "agent" };
const config = DEFAULT_INVESTIGATION_CONFIG;

function value<T>(result: Result<T, Rejection>): T {
  if (!result.ok) throw new Error(`unexpected rejection ${result.error.rule}: ${result.error.message}`);
  return result.value;
}

function rejection<T>(result: Result<T, Rejection>): Rejection {
  if (result.ok) throw new Error("expected a rejection");
  return result.error;
}

const source = (id: string, domain: string, location = `https://${domain}/${id}`): LedgerSource => ({
  id,
  location,
  domain,
  title: `title ${id}`,
  note: "",
});

/** s_001 and s_002 share a domain; s_003 is another; s_004 and s_005 are corpus documents. */
const SOURCES = [
  source("s_001", "example.com"),
  source("s_002", "example.com"),
  source("s_003", "other.org"),
  source("s_004", "", "docs/a.md"),
  source("s_005", "", "docs/b.md"),
];

function withSources(sources: readonly LedgerSource[] = SOURCES): Ledger {
  return sources.reduce((ledger, row) => value(registerSource(ledger, row)).ledger, EMPTY_LEDGER);
}

const claimInput = (overrides: Partial<ClaimInput> = {}): ClaimInput => ({
  kind: "claim",
  text: "Library L supports feature F",
  questionId: "q_002",
  sourceIds: ["s_001"],
  ...overrides,
});

/** A closed challenge on a claim with the given outcome (built directly: the ledger only reads them). */
const closedChallenge = (id: string, claimId: string, outcome: Challenge["outcome"]): Challenge => ({
  id,
  questionId: "q_002",
  targetType: "claim",
  targetId: claimId,
  negation: "L does not support F",
  strategy: "negation",
  expectedIfFalse: "issues saying F is missing",
  query: "L lacks F",
  attempt: { questionId: "q_002", seq: 1 },
  status: outcome === "" ? "open" : "closed",
  outcome,
  evidence: outcome === "survived" ? "" : "an issue",
  sourceIds: outcome === "survived" ? [] : ["s_003"],
  resultClaimId: null,
  createdAt: ctx.now,
  closedAt: outcome === "" ? null : ctx.now,
});

describe("independenceKey and ids", () => {
  it("uses the registrable domain, or the corpus document when there is none", () => {
    expect(independenceKey(source("s_001", "example.com"))).toBe("example.com");
    expect(independenceKey(source("s_004", "", "docs/a.md"))).toBe("corpus:docs/a.md");
  });

  it("numbers ids per prefix as max existing + 1", () => {
    expect(nextSequentialId("c", [])).toBe("c_001");
    expect(nextSequentialId("c", ["c_001", "c_007", "d_009", "ch_010"])).toBe("c_008");
    expect(nextSequentialId("ch", ["c_001", "ch_002"])).toBe("ch_003");
  });
});

describe("registerSource", () => {
  it("adds a source and lists it in the mutation", () => {
    const change = value(registerSource(EMPTY_LEDGER, SOURCES[0] as LedgerSource));
    expect(change.ledger.sources).toEqual([SOURCES[0]]);
    expect(change.mutation).toEqual({ ...EMPTY_MUTATION, sources: [SOURCES[0]] });
  });

  it("is idempotent by id and updates the note", () => {
    const ledger = withSources();
    const again = value(registerSource(ledger, SOURCES[0] as LedgerSource));
    expect(again.ledger).toBe(ledger);
    expect(again.mutation).toBe(EMPTY_MUTATION);
    const noted = value(registerSource(ledger, { ...(SOURCES[0] as LedgerSource), note: "read, nothing relevant" }));
    expect(noted.ledger.sources[0]?.note).toBe("read, nothing relevant");
    expect(noted.ledger.sources).toHaveLength(SOURCES.length);
    expect(noted.mutation.sources).toEqual([{ ...SOURCES[0], note: "read, nothing relevant" }]);
  });

  it("rejects a known id with another location and a source without id", () => {
    const ledger = withSources();
    const moved = rejection(registerSource(ledger, { ...(SOURCES[0] as LedgerSource), location: "https://x.net/" }));
    expect(moved.rule).toBe("source-identity");
    expect(moved.message).toContain("s_001 is already registered for https://example.com/s_001");
    expect(rejection(registerSource(ledger, source("", "a.com"))).rule).toBe("source");
  });
});

describe("appendClaim", () => {
  it("records an UNVERIFIED claim linked to its supporting sources", () => {
    const change = value(appendClaim(withSources(), claimInput({ sourceIds: ["s_001", "s_003", "s_001"] }), ctx));
    expect(change.claim).toMatchObject({ id: "c_001", status: "UNVERIFIED", questionId: "q_002", createdAt: ctx.now });
    expect(change.mutation.claimSources).toEqual([
      { claimId: "c_001", sourceId: "s_001", stance: "supports", chunkIds: [] },
      { claimId: "c_001", sourceId: "s_003", stance: "supports", chunkIds: [] },
    ]);
    expect(change.mutation.claims).toEqual([change.claim]);
  });

  it("numbers claims and datapoints with separate counters", () => {
    let ledger = withSources();
    const ids: string[] = [];
    for (const [index, kind] of (["claim", "datapoint", "claim", "datapoint"] as const).entries()) {
      const change = value(appendClaim(ledger, claimInput({ kind, value: String(11 + index), unit: "GB" }), ctx));
      ledger = change.ledger;
      ids.push(change.claim.id);
    }
    expect(ids).toEqual(["c_001", "d_001", "c_002", "d_002"]);
    expect(ledger.claims.find((claim) => claim.id === "d_001")).toMatchObject({ value: "12", unit: "GB" });
  });

  it("continues after the highest existing id", () => {
    const ledger = value(appendClaim(withSources(), claimInput(), ctx)).ledger;
    const gapped = { ...ledger, claims: ledger.claims.map((claim) => ({ ...claim, id: "c_041" })) };
    expect(value(appendClaim(gapped, claimInput({ text: "Library L supports feature G" }), ctx)).claim.id).toBe(
      "c_042",
    );
  });

  it("refuses a claim the ledger already records in the same words, naming it; a retracted one may be said again", () => {
    const ledger = value(appendClaim(withSources(), claimInput(), ctx)).ledger;
    const again = rejection(
      appendClaim(ledger, claimInput({ text: "library L supports  feature F.", sourceIds: ["s_002"] }), ctx),
    );
    expect(again.rule).toBe("duplicate-claim");
    expect(again.message).toContain("c_001 already records this claim: cite c_001, or add a further source to it");
    // Another value is another datapoint; a retracted claim no longer records anything.
    const points = value(appendClaim(ledger, claimInput({ kind: "datapoint", value: "11", unit: "GB" }), ctx)).ledger;
    expect(value(appendClaim(points, claimInput({ kind: "datapoint", value: "12", unit: "GB" }), ctx)).claim.id).toBe(
      "d_002",
    );
    const retracted = { ...ledger, claims: ledger.claims.map((claim) => ({ ...claim, status: "RETRACTED" as const })) };
    expect(value(appendClaim(retracted, claimInput(), ctx)).claim.id).toBe("c_002");
  });

  it("rejects an empty text, a datapoint without value or unit, no source and an unknown source", () => {
    const ledger = withSources();
    expect(rejection(appendClaim(ledger, claimInput({ text: "  " }), ctx))).toEqual({
      rule: "claim-text",
      message: "a claim needs its text: one self-contained assertion",
    });
    expect(rejection(appendClaim(ledger, claimInput({ kind: "datapoint", value: "11" }), ctx)).rule).toBe("datapoint");
    expect(rejection(appendClaim(ledger, claimInput({ kind: "datapoint", unit: "GB" }), ctx)).message).toContain(
      "value and unit",
    );
    expect(rejection(appendClaim(ledger, claimInput({ sourceIds: [] }), ctx)).rule).toBe("claim-sources");
    expect(rejection(appendClaim(ledger, claimInput({ sourceIds: ["s_001", "s_099"] }), ctx))).toEqual({
      rule: "unknown-source",
      message: "unknown source id(s): s_099; cite only sources you were shown",
    });
  });
});

describe("passages on claim-source links", () => {
  it("tells a passage id of a source by its Host form", () => {
    expect(isPassageOf("s_001.p03", "s_001")).toBe(true);
    expect(isPassageOf("s_001.p120", "s_001")).toBe(true);
    for (const id of ["s_002.p03", "s_001.p003", "s_001.p00", "s_001.p", "s_001.px1", "s_0011.p01", "s_001"]) {
      expect(isPassageOf(id, "s_001")).toBe(false);
    }
  });

  it("stores the passages given for each supporting source, once each", () => {
    const chunkIds = new Map([["s_003", ["s_003.p02", "s_003.p01", "s_003.p02"]]]);
    const change = value(appendClaim(withSources(), claimInput({ sourceIds: ["s_001", "s_003"], chunkIds }), ctx));
    expect(change.mutation.claimSources).toEqual([
      { claimId: "c_001", sourceId: "s_001", stance: "supports", chunkIds: [] },
      { claimId: "c_001", sourceId: "s_003", stance: "supports", chunkIds: ["s_003.p02", "s_003.p01"] },
    ]);
  });

  it("refuses passages of a source the claim does not cite, and ids that are not that source's passages", () => {
    const ledger = withSources();
    const other = new Map([["s_003", ["s_003.p01"]]]);
    expect(rejection(appendClaim(ledger, claimInput({ sourceIds: ["s_001"], chunkIds: other }), ctx))).toEqual({
      rule: "passage",
      message: "passages of s_003 were given, but s_003 is not one of the claim's sources (s_001)",
    });
    const foreign = new Map([["s_001", ["s_001.p01", "s_003.p01"]]]);
    expect(rejection(appendClaim(ledger, claimInput({ sourceIds: ["s_001"], chunkIds: foreign }), ctx))).toEqual({
      rule: "passage",
      message:
        "s_003.p01 is not a passage of s_001: cite passage ids of that source as shown (s_001.p01, s_001.p02, …)",
    });
    const base = value(appendClaim(ledger, claimInput(), ctx)).ledger;
    const link = { claimId: "c_001", sourceId: "s_003", stance: "supports" as const, chunkIds: ["s_001.p01"] };
    expect(rejection(linkSource(base, link)).rule).toBe("passage");
  });

  it("adds new passages to an existing link with the same stance, and nothing twice", () => {
    const base = value(appendClaim(withSources(), claimInput({ sourceIds: ["s_001"] }), ctx)).ledger;
    const first = value(
      linkSource(base, { claimId: "c_001", sourceId: "s_001", stance: "supports", chunkIds: ["s_001.p02"] }),
    );
    expect(first.mutation.claimSources).toEqual([
      { claimId: "c_001", sourceId: "s_001", stance: "supports", chunkIds: ["s_001.p02"] },
    ]);
    expect(first.ledger.claimSources).toEqual(first.mutation.claimSources);
    const more = value(
      linkSource(first.ledger, {
        claimId: "c_001",
        sourceId: "s_001",
        stance: "supports",
        chunkIds: ["s_001.p02", "s_001.p05"],
      }),
    );
    expect(more.link.chunkIds).toEqual(["s_001.p02", "s_001.p05"]);
    const same = value(
      linkSource(more.ledger, { claimId: "c_001", sourceId: "s_001", stance: "supports", chunkIds: ["s_001.p05"] }),
    );
    expect(same.mutation).toBe(EMPTY_MUTATION);
    const flipped = linkSource(more.ledger, {
      claimId: "c_001",
      sourceId: "s_001",
      stance: "contradicts",
      chunkIds: ["s_001.p07"],
    });
    expect(rejection(flipped).rule).toBe("stance");
  });

  it("carries passages through updateClaim's addSource", () => {
    const base = value(appendClaim(withSources(), claimInput({ sourceIds: ["s_001"] }), ctx)).ledger;
    const change = value(
      updateClaim(
        base,
        [],
        { id: "c_001", addSource: { sourceId: "s_004", stance: "contradicts", chunkIds: ["s_004.p01"] } },
        config,
        later,
      ),
    );
    expect(change.mutation.claimSources).toEqual([
      { claimId: "c_001", sourceId: "s_004", stance: "contradicts", chunkIds: ["s_004.p01"] },
    ]);
  });
});

describe("linkSource", () => {
  const base = value(appendClaim(withSources(), claimInput(), ctx)).ledger;

  it("adds a link with its stance, once", () => {
    const change = value(linkSource(base, { claimId: "c_001", sourceId: "s_003", stance: "contradicts" }));
    expect(change.mutation.claimSources).toEqual([
      { claimId: "c_001", sourceId: "s_003", stance: "contradicts", chunkIds: [] },
    ]);
    const again = value(linkSource(change.ledger, { claimId: "c_001", sourceId: "s_003", stance: "contradicts" }));
    expect(again.ledger).toBe(change.ledger);
    expect(again.mutation).toBe(EMPTY_MUTATION);
  });

  it("rejects another stance for a linked source, an unknown claim and an unknown source", () => {
    expect(rejection(linkSource(base, { claimId: "c_001", sourceId: "s_001", stance: "contradicts" }))).toEqual({
      rule: "stance",
      message: "s_001 is already linked to c_001 as 'supports'; a source has one stance per claim",
    });
    expect(rejection(linkSource(base, { claimId: "c_009", sourceId: "s_001", stance: "supports" }))).toEqual({
      rule: "unknown-claim",
      message: "unknown claim id: c_009; refer only to claim ids shown in the notes",
    });
    expect(rejection(linkSource(base, { claimId: "c_001", sourceId: "s_099", stance: "supports" })).rule).toBe(
      "unknown-source",
    );
  });
});

describe("verificationGaps", () => {
  const base = value(appendClaim(withSources(), claimInput(), ctx)).ledger;

  it("lists sources, survived challenges and the independence statement", () => {
    const gaps = verificationGaps(base, [], "c_001", config);
    expect(gaps).toEqual([
      "2 supporting sources of distinct origins; it has 1: link a source from an independent origin",
      "1 closed challenge(s) with outcome survived on c_001; it has 0: challenge it",
      "a statement of why its supporting sources are independent (independence)",
    ]);
  });

  it("counts sources of a common origin once", () => {
    const ledger = value(linkSource(base, { claimId: "c_001", sourceId: "s_002", stance: "supports" })).ledger;
    expect(supportingKeys(ledger, "c_001")).toEqual(["example.com"]);
    expect(verificationGaps(ledger, [], "c_001", config)[0]).toBe(
      "2 supporting sources of distinct origins; it has 1 (its 2 sources share origins: example.com): link a source from an independent origin",
    );
  });

  it("treats two corpus documents as independent and ignores contradicting sources", () => {
    let ledger = value(appendClaim(withSources(), claimInput({ sourceIds: ["s_004"] }), ctx)).ledger;
    ledger = value(linkSource(ledger, { claimId: "c_001", sourceId: "s_003", stance: "contradicts" })).ledger;
    expect(supportingKeys(ledger, "c_001")).toEqual(["corpus:docs/a.md"]);
    ledger = value(linkSource(ledger, { claimId: "c_001", sourceId: "s_005", stance: "supports" })).ledger;
    expect(supportingKeys(ledger, "c_001")).toEqual(["corpus:docs/a.md", "corpus:docs/b.md"]);
  });

  it("counts only closed survived challenges on the claim itself", () => {
    const others = [
      closedChallenge("ch_001", "c_001", ""),
      closedChallenge("ch_002", "c_001", "inconclusive"),
      closedChallenge("ch_003", "c_001", "weakened"),
      closedChallenge("ch_004", "c_002", "survived"),
      { ...closedChallenge("ch_005", "c_001", "survived"), targetType: "question_answer" as const },
    ];
    expect(verificationGaps(base, others, "c_001", config)).toContain(
      "1 closed challenge(s) with outcome survived on c_001; it has 0: challenge it",
    );
    const survived = [...others, closedChallenge("ch_006", "c_001", "survived")];
    expect(verificationGaps(base, survived, "c_001", config)).toHaveLength(2);
  });

  it("names an unknown claim", () => {
    expect(verificationGaps(base, [], "c_404", config)).toEqual(["c_404 is not a recorded claim"]);
  });
});

describe("updateClaim", () => {
  const base = value(appendClaim(withSources(), claimInput(), ctx)).ledger;
  const survived = [closedChallenge("ch_001", "c_001", "survived")];
  const verifiable = value(linkSource(base, { claimId: "c_001", sourceId: "s_003", stance: "supports" })).ledger;

  it("refuses VERIFIED with what is missing", () => {
    const refused = rejection(updateClaim(base, [], { id: "c_001", status: "VERIFIED" }, config, later));
    expect(refused.rule).toBe("verification");
    expect(refused.message).toBe(
      "c_001 cannot be VERIFIED yet; it needs 2 supporting sources of distinct origins; it has 1: link a source from an independent origin; 1 closed challenge(s) with outcome survived on c_001; it has 0: challenge it; a statement of why its supporting sources are independent (independence)",
    );
  });

  it("verifies with independent sources, a survived challenge and a statement, in one change", () => {
    const change = value(
      updateClaim(
        base,
        survived,
        {
          id: "c_001",
          status: "VERIFIED",
          addSource: { sourceId: "s_003", stance: "supports" },
          independence: "two publishers",
        },
        config,
        later,
      ),
    );
    expect(change.claim).toMatchObject({ status: "VERIFIED", independence: "two publishers", updatedAt: later.now });
    expect(change.refuted).toBe(false);
    expect(change.mutation.claims).toEqual([change.claim]);
    expect(change.mutation.claimSources).toEqual([
      { claimId: "c_001", sourceId: "s_003", stance: "supports", chunkIds: [] },
    ]);
  });

  it("does not verify with sources of a common origin", () => {
    const refused = rejection(
      updateClaim(
        base,
        survived,
        { id: "c_001", status: "VERIFIED", addSource: { sourceId: "s_002", stance: "supports" }, independence: "x" },
        config,
        later,
      ),
    );
    expect(refused.message).toContain("share origins: example.com");
  });

  it("rejects an empty independence statement and an empty amendment", () => {
    expect(rejection(updateClaim(base, [], { id: "c_001", independence: " " }, config, later)).rule).toBe(
      "independence",
    );
    expect(rejection(updateClaim(base, [], { id: "c_001", amendText: "" }, config, later)).rule).toBe("amend");
  });

  it("refuses REFUTED without a contradicting source or refuted challenge", () => {
    expect(rejection(updateClaim(base, [], { id: "c_001", status: "REFUTED" }, config, later))).toEqual({
      rule: "refutation",
      message:
        "c_001 cannot be REFUTED without evidence: link a contradicting source (addSource with stance 'contradicts') or record a refuted challenge on it",
    });
  });

  it("refutes with a contradicting source or a refuted challenge and reports it", () => {
    const bySource = value(
      updateClaim(
        base,
        [],
        { id: "c_001", status: "REFUTED", addSource: { sourceId: "s_003", stance: "contradicts" } },
        config,
        later,
      ),
    );
    expect(bySource.refuted).toBe(true);
    expect(bySource.claim.status).toBe("REFUTED");
    const byChallenge = value(
      updateClaim(
        base,
        [closedChallenge("ch_001", "c_001", "refuted")],
        { id: "c_001", status: "REFUTED" },
        config,
        later,
      ),
    );
    expect(byChallenge.refuted).toBe(true);
    const again = value(updateClaim(byChallenge.ledger, [], { id: "c_001", status: "REFUTED" }, config, later));
    expect(again.refuted).toBe(false);
    expect(again.mutation).toBe(EMPTY_MUTATION);
  });

  it("requires a reason to retract", () => {
    expect(rejection(updateClaim(base, [], { id: "c_001", status: "RETRACTED" }, config, later))).toEqual({
      rule: "retraction",
      message: "say why c_001 is withdrawn (retractReason: source unreliable or misread)",
    });
    const retracted = value(
      updateClaim(base, [], { id: "c_001", status: "RETRACTED", retractReason: "misread the table" }, config, later),
    );
    expect(retracted.claim.status).toBe("RETRACTED");
    expect(retracted.refuted).toBe(false);
  });

  it("never turns a REFUTED or RETRACTED claim back to VERIFIED or UNVERIFIED", () => {
    const refuted = value(
      updateClaim(
        verifiable,
        survived,
        { id: "c_001", status: "REFUTED", addSource: { sourceId: "s_004", stance: "contradicts" }, independence: "x" },
        config,
        later,
      ),
    ).ledger;
    expect(rejection(updateClaim(refuted, survived, { id: "c_001", status: "VERIFIED" }, config, later))).toEqual({
      rule: "claim-final",
      message: "c_001 is REFUTED and cannot become VERIFIED again; record a new claim if new evidence supports it",
    });
    const retracted = value(
      updateClaim(base, [], { id: "c_001", status: "RETRACTED", retractReason: "unreliable" }, config, later),
    ).ledger;
    expect(rejection(updateClaim(retracted, [], { id: "c_001", status: "UNVERIFIED" }, config, later)).rule).toBe(
      "claim-final",
    );
    expect(rejection(updateClaim(retracted, [], { id: "c_001", amendText: "only v2" }, config, later)).message).toBe(
      "c_001 is RETRACTED; record a new claim instead of amending it",
    );
  });

  it("amends the text with a scope and returns a VERIFIED claim to UNVERIFIED", () => {
    const verified = value(
      updateClaim(
        verifiable,
        survived,
        { id: "c_001", status: "VERIFIED", independence: "two publishers" },
        config,
        ctx,
      ),
    ).ledger;
    const amended = value(updateClaim(verified, survived, { id: "c_001", amendText: "only on Linux" }, config, later));
    expect(amended.claim).toMatchObject({
      text: "Library L supports feature F (scope: only on Linux)",
      status: "UNVERIFIED",
    });
  });

  it("rejects an unknown claim and changes nothing for an empty change", () => {
    expect(rejection(updateClaim(base, [], { id: "c_404" }, config, later)).rule).toBe("unknown-claim");
    const none = value(updateClaim(base, [], { id: "c_001" }, config, later));
    expect(none.ledger).toBe(base);
    expect(none.mutation).toBe(EMPTY_MUTATION);
  });

  it("propagates a link rejection", () => {
    const refused = updateClaim(
      base,
      [],
      { id: "c_001", addSource: { sourceId: "s_001", stance: "contradicts" } },
      config,
      later,
    );
    expect(rejection(refused).rule).toBe("stance");
  });
});

describe("contradictions", () => {
  let ledger = withSources();
  ledger = value(appendClaim(ledger, claimInput(), ctx)).ledger;
  ledger = value(appendClaim(ledger, claimInput({ text: "L lacks F" }), ctx)).ledger;

  it("records a pair once, sets the spawned question later and marks it addressed", () => {
    const added = value(addContradiction(ledger, "c_001", "c_002", ""));
    expect(added.mutation.contradictions).toEqual([
      { claimId: "c_001", otherClaimId: "c_002", questionId: "", addressed: false },
    ]);
    const same = value(addContradiction(added.ledger, "c_002", "c_001", ""));
    expect(same.mutation).toBe(EMPTY_MUTATION);
    const spawned = value(addContradiction(added.ledger, "c_002", "c_001", "q_044"));
    expect(spawned.ledger.contradictions).toEqual([
      { claimId: "c_001", otherClaimId: "c_002", questionId: "q_044", addressed: false },
    ]);
    const addressed = value(addressContradiction(spawned.ledger, "c_002", "c_001"));
    expect(addressed.contradiction.addressed).toBe(true);
    expect(value(addressContradiction(addressed.ledger, "c_001", "c_002")).mutation).toBe(EMPTY_MUTATION);
  });

  it("rejects a claim against itself, an unknown claim and addressing an unknown pair", () => {
    expect(rejection(addContradiction(ledger, "c_001", "c_001", "")).rule).toBe("contradiction");
    expect(rejection(addContradiction(ledger, "c_001", "c_009", "")).rule).toBe("unknown-claim");
    expect(rejection(addressContradiction(ledger, "c_001", "c_002"))).toEqual({
      rule: "contradiction",
      message: "no contradiction between c_001 and c_002 is recorded",
    });
  });
});

describe("questionsCiting", () => {
  it("returns resolved questions citing the claim by id list or in the answer", () => {
    const questions = [
      { id: "q_001", status: "resolved", claimIds: ["c_001"], answer: "" },
      { id: "q_002", status: "resolved", claimIds: [], answer: "Yes, see c_001." },
      { id: "q_003", status: "pending", claimIds: ["c_001"], answer: "" },
      { id: "q_004", status: "resolved", claimIds: ["c_0011"], answer: "c_0011 says so" },
      { id: "q_005", status: "resolved", claimIds: ["c_002"] },
    ];
    expect(questionsCiting("c_001", questions).map((question) => question.id)).toEqual(["q_001", "q_002"]);
  });
});

describe("property: VERIFIED only with independent sources and survived challenges", () => {
  type Op =
    | { op: "append"; kind: "claim" | "datapoint"; sources: number[] }
    | { op: "link"; claim: number; source: number; stance: "supports" | "contradicts" }
    | { op: "challenge"; claim: number; strategy: number }
    | { op: "attach"; challenge: number }
    | { op: "result"; challenge: number; outcome: number; sources: number[] }
    | {
        op: "update";
        claim: number;
        status: ClaimStatus | undefined;
        source: number | undefined;
        independence: boolean;
      };

  const index = fc.nat({ max: 7 });
  // Few claims and challenges, survived and VERIFIED favoured, so that runs do reach VERIFIED.
  const slot = fc.nat({ max: 2 });
  const outcomes = ["survived", "survived", "survived", "weakened", "refuted", "inconclusive"] as const;
  const opArbitrary: fc.Arbitrary<Op> = fc.oneof(
    fc.record({
      op: fc.constant("append" as const),
      kind: fc.constantFrom("claim" as const, "datapoint" as const),
      sources: fc.array(index, { maxLength: 3 }),
    }),
    fc.record({
      op: fc.constant("link" as const),
      claim: slot,
      source: index,
      stance: fc.constantFrom("supports" as const, "contradicts" as const),
    }),
    fc.record({ op: fc.constant("challenge" as const), claim: slot, strategy: index }),
    fc.record({ op: fc.constant("attach" as const), challenge: slot }),
    fc.record({
      op: fc.constant("result" as const),
      challenge: slot,
      outcome: fc.nat({ max: outcomes.length - 1 }),
      sources: fc.array(index, { maxLength: 2 }),
    }),
    fc.record({
      op: fc.constant("update" as const),
      claim: slot,
      status: fc.option(fc.constantFrom("VERIFIED", "VERIFIED", "UNVERIFIED", "REFUTED", "RETRACTED" as const), {
        nil: undefined,
      }),
      source: fc.option(index, { nil: undefined }),
      independence: fc.boolean(),
    }),
  );

  const pick = <T>(rows: readonly T[], at: number): T | undefined =>
    rows.length > 0 ? rows[at % rows.length] : undefined;
  const sourceAt = (at: number): string => (SOURCES[at % SOURCES.length] as LedgerSource).id;

  it("holds over random sequences of ledger and challenge changes", () => {
    let verifiedSeen = 0;
    fc.assert(
      fc.property(
        fc.array(opArbitrary, { minLength: 5, maxLength: 60, size: "max" }),
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 0, max: 2 }),
        (ops, minIndependentSources, minChallenges) => {
          const settings = { ...config, minIndependentSources, minChallenges };
          let ledger = withSources();
          let challenges: readonly Challenge[] = [];
          let attempts = 0;
          for (const [step, op] of ops.entries()) {
            const now: DecisionContext = {
              now: `2025-01-01T00:00:${String(step).padStart(2, "0")}.000Z`,
              actor: "agent",
            };
            if (op.op === "append") {
              const input = claimInput({ kind: op.kind, value: "1", unit: "GB", sourceIds: op.sources.map(sourceAt) });
              const change = appendClaim(ledger, input, now);
              if (change.ok) ledger = change.value.ledger;
            } else if (op.op === "link") {
              const claim = pick(ledger.claims, op.claim);
              const change =
                claim && linkSource(ledger, { claimId: claim.id, sourceId: sourceAt(op.source), stance: op.stance });
              if (change?.ok) ledger = change.value.ledger;
            } else if (op.op === "challenge") {
              const claim = pick(ledger.claims, op.claim);
              if (!claim) continue;
              const valid = validateChallenge(
                {
                  targetType: "claim",
                  targetId: claim.id,
                  negation: "the opposite",
                  strategy: CHALLENGE_STRATEGIES[op.strategy % CHALLENGE_STRATEGIES.length] as string,
                  expectedIfFalse: "reports of the opposite",
                  query: `counter evidence step${"x".repeat(step)}`,
                  questionId: "q_002",
                },
                { challenges, claims: ledger.claims, questions: [], attemptQueries: [], config: settings },
              );
              const change = valid.ok ? registerChallenge(challenges, valid.value, now) : undefined;
              if (change?.ok) challenges = change.value.challenges;
            } else if (op.op === "attach") {
              const challenge = pick([...challenges].reverse(), op.challenge);
              attempts += 1;
              const change =
                challenge && attachAttempt(challenges, challenge.id, { questionId: "q_002", seq: attempts });
              if (change?.ok) challenges = change.value.challenges;
            } else if (op.op === "result") {
              const challenge = pick([...challenges].reverse(), op.challenge);
              if (!challenge) continue;
              const outcome = outcomes[op.outcome % outcomes.length] as string;
              const change = recordChallengeResult(
                challenges,
                {
                  challengeId: challenge.id,
                  outcome,
                  evidence: "found something",
                  sourceIds: op.sources.map(sourceAt),
                },
                { sourceIds: SOURCES.map((row) => row.id), claims: ledger.claims },
                now,
              );
              if (!change.ok) continue;
              challenges = change.value.challenges;
              if (outcome === "refuted") {
                expect(change.value.consequences).toContainEqual({
                  kind: "reopen-citing",
                  claimId: challenge.targetId,
                  causedBy: challenge.id,
                });
                const refuted = updateClaim(
                  ledger,
                  challenges,
                  { id: challenge.targetId, status: "REFUTED" },
                  settings,
                  now,
                );
                expect(refuted.ok).toBe(true);
                if (refuted.ok) ledger = refuted.value.ledger;
              }
            } else {
              const claim = pick(ledger.claims, op.claim);
              if (!claim) continue;
              const change = updateClaim(
                ledger,
                challenges,
                {
                  id: claim.id,
                  ...(op.status === undefined ? {} : { status: op.status }),
                  ...(op.source === undefined
                    ? {}
                    : { addSource: { sourceId: sourceAt(op.source), stance: "supports" } }),
                  ...(op.independence ? { independence: "different publishers" } : {}),
                  retractReason: "misread",
                },
                settings,
                now,
              );
              if (change.ok) ledger = change.value.ledger;
            }
            for (const claim of ledger.claims.filter((row) => row.status === "VERIFIED")) {
              verifiedSeen += 1;
              expect(supportingKeys(ledger, claim.id).length).toBeGreaterThanOrEqual(minIndependentSources);
              const survived = challenges.filter(
                (row) =>
                  row.targetType === "claim" &&
                  row.targetId === claim.id &&
                  row.status === "closed" &&
                  row.outcome === "survived",
              );
              expect(survived.length).toBeGreaterThanOrEqual(minChallenges);
              expect(claim.independence).not.toBe("");
            }
          }
        },
      ),
      { numRuns: 300 },
    );
    // The generator must reach VERIFIED for the property to say anything.
    expect(verifiedSeen).toBeGreaterThan(0);
  });
});

describe("contradictionSettled", () => {
  const pair = (questionId: string, addressed = false) => ({
    claimId: "c_001",
    otherClaimId: "c_002",
    questionId,
    addressed,
  });
  const claims = [
    { id: "c_001", status: "UNVERIFIED" as const },
    { id: "c_002", status: "REFUTED" as const },
  ];

  it("waits for the question spawned to resolve it, whatever the claims' statuses", () => {
    expect(contradictionSettled(pair("q_005"), claims, [{ id: "q_005", status: "pending" }])).toBe(false);
    expect(contradictionSettled(pair("q_005"), claims, [{ id: "q_005", status: "in_progress" }])).toBe(false);
    for (const status of ["resolved", "unresolvable", "pruned"]) {
      expect(contradictionSettled(pair("q_005"), claims, [{ id: "q_005", status }]), status).toBe(true);
    }
  });

  it("without a question, is settled once one of the claims is refuted or retracted", () => {
    expect(contradictionSettled(pair(""), claims, [])).toBe(true);
    const alive = claims.map((claim) => ({ ...claim, status: "UNVERIFIED" as const }));
    expect(contradictionSettled(pair(""), alive, [])).toBe(false);
    expect(contradictionSettled(pair("", true), alive, [])).toBe(true);
  });
});
