import { describe, expect, it } from "vitest";
import type { ReportDocument } from "../report/report-document.js";
import { dropTopics, mentions, parseInstruction, researchText, revisionFocus } from "./instruction.js";
import { diffReports, isEmptyDiff } from "./report-diff.js";
import { reportLineage } from "./report-lineage.js";

describe("revision instructions", () => {
  it("reads what to add and what to drop, clause by clause", () => {
    expect(parseInstruction("drop the part on recycling")).toEqual({ add: [], drop: ["recycling"] });
    expect(parseInstruction("Add the 2024 figures.")).toEqual({ add: ["2024 figures"], drop: [] });
    expect(parseInstruction("remove the section about the Nobel prize and add sodium-ion cells")).toEqual({
      add: ["sodium-ion cells"],
      drop: ["Nobel prize"],
    });
    expect(parseInstruction("go deeper on the 2022 price rise")).toEqual({ add: ["2022 price rise"], drop: [] });
    // Anything else is a topic to research and add.
    expect(parseInstruction("costs in Europe")).toEqual({ add: ["costs in Europe"], drop: [] });
    expect(revisionFocus(["add sodium-ion", "drop recycling"])).toEqual({ add: ["sodium-ion"], drop: ["recycling"] });
  });

  it("matches a topic by the stems of all its words", () => {
    expect(mentions("Recycled cells can catch fire in recycling plants.", "recycling")).toBe(true);
    expect(mentions("Cobalt prices rose.", "recycling")).toBe(false);
    expect(mentions("The Nobel Prize in Chemistry 2019.", "Nobel prize")).toBe(true);
    expect(mentions("A prize was given.", "Nobel prize")).toBe(false);
    expect(mentions("anything", "")).toBe(false);
  });

  it("a follow-up searches in its parent's context but answers its own question; a revision searches only what it adds", () => {
    const followUp = researchText(
      "and sodium-ion?",
      { relation: "follow-up", instruction: "" },
      {
        parentQuestion: "Why is cobalt scarce?",
        revisions: [],
      },
    );
    expect(followUp).toEqual({ question: "and sodium-ion?", search: "and sodium-ion? Why is cobalt scarce?" });
    const revision = researchText(
      "Why is cobalt scarce?",
      { relation: "revision", instruction: "drop recycling" },
      {
        parentQuestion: "Why is cobalt scarce?",
        revisions: ["add sodium-ion", "drop recycling"],
      },
    );
    expect(revision).toEqual({ question: "Why is cobalt scarce? sodium-ion", search: "" });
  });

  it("drops the items on a topic and what rests on them", () => {
    const admitted = {
      facts: [
        { id: "f1", text: "Recycling recovers cobalt.", sourceId: "s_001", chunkIds: ["s_001.p01"] },
        { id: "f2", text: "Cobalt is mined in the DRC.", sourceId: "s_002", chunkIds: ["s_002.p01"] },
      ],
      derivations: [{ id: "d1", text: "So supply can grow.", premiseIds: ["f1"], method: "reading" }],
      recommendations: [{ id: "r1", text: "Diversify.", premiseIds: ["f2"], conditions: [] }],
      gaps: [{ id: "g1", text: "Recycling rates are unknown.", relatedSourceIds: [] }],
      diagnostics: [],
    };
    const { admitted: kept, dropped } = dropTopics(admitted, ["recycling"]);
    expect(kept.facts.map((fact) => fact.id)).toEqual(["f2"]);
    expect(kept.derivations).toEqual([]);
    expect(kept.recommendations.map((item) => item.id)).toEqual(["r1"]);
    expect(kept.gaps).toEqual([]);
    expect(dropped).toBe(3);
    expect(dropTopics(admitted, []).dropped).toBe(0);
  });
});

const citation = (sourceId: string, number: number, passage: number) => ({
  sourceId,
  number,
  chunkIds: [`${sourceId}.p0${passage}`],
  passages: [passage],
});

function report(
  findings: { text: string; source: string; number: number; passage: number }[],
  extra: Partial<ReportDocument> = {},
): ReportDocument {
  const sources = [...new Map(findings.map((item) => [item.source, item.number])).entries()].map(([id, number]) => ({
    id,
    number,
    title: `Title ${id}`,
    path: `${id}.md`,
    capturedAt: "2026-01-01T00:00:00.000Z",
  }));
  return {
    schemaVersion: 3,
    status: "synthesized",
    preliminary: false,
    title: "Q",
    question: "Q",
    language: "en",
    notice: "n",
    boundary: { scope: "s", statement: "s" },
    directFindings: findings.map((item, index) => ({
      number: index + 1,
      kind: "fact" as const,
      text: item.text,
      basedOn: [],
      citations: [citation(item.source, item.number, item.passage)],
      verification: { status: "not-checked" as const, supports: [], contradicts: [] },
    })),
    findings: [],
    recommendations: [],
    gaps: [],
    sourceCards: [],
    attemptedQueries: [],
    acquisitionBoundaries: [],
    sources: sources.sort((a, b) => a.number - b.number),
    reviewedSources: [],
    generatedAt: "2026-01-01T00:00:00.000Z",
    ...extra,
  };
}

describe("the structural diff of two reports", () => {
  const v1 = report(
    [
      { text: "Cobalt is mined in the DRC.", source: "s_001", number: 1, passage: 1 },
      { text: "Recycling recovers cobalt from spent cells.", source: "s_002", number: 2, passage: 3 },
      { text: "Prices were volatile in 2022.", source: "s_001", number: 1, passage: 4 },
    ],
    { gaps: [{ text: "No figures for 2024.", relatedSources: [] }] },
  );
  const v2 = report([
    { text: "Prices were volatile in 2022.", source: "s_001", number: 1, passage: 4 },
    { text: "Cobalt is mined mostly in the DRC.", source: "s_001", number: 1, passage: 1 },
    { text: "Sodium-ion cells avoid cobalt.", source: "s_003", number: 3, passage: 2 },
  ]);

  it("names what was added, removed, reworded and kept, item by item", () => {
    const diff = diffReports(v1, v2);
    expect(diff.findings.added.map((item) => item.text)).toEqual(["Sodium-ion cells avoid cobalt."]);
    expect(diff.findings.removed.map((item) => [item.number, item.text])).toEqual([
      [2, "Recycling recovers cobalt from spent cells."],
    ]);
    expect(diff.findings.changed.map((item) => [item.from.number, item.to.number, item.changes])).toEqual([
      [1, 2, ["wording"]],
    ]);
    expect(diff.findings.unchanged).toEqual([{ from: 3, to: 1 }]);
    expect(diff.gaps).toEqual({ added: [], removed: ["No figures for 2024."] });
    expect(diff.sources.added.map((source) => source.location)).toEqual(["s_003.md"]);
    expect(diff.sources.removed.map((source) => source.location)).toEqual(["s_002.md"]);
    expect(isEmptyDiff(diffReports(v1, v1))).toBe(true);
    expect(isEmptyDiff(diff)).toBe(false);
  });

  it("does not pair two different sentences of one passage as one changed finding", () => {
    const other = report([{ text: "Smelters are in China.", source: "s_001", number: 1, passage: 1 }]);
    const diff = diffReports(v1, other);
    expect(diff.findings.changed).toEqual([]);
    expect(diff.findings.added.map((item) => item.text)).toEqual(["Smelters are in China."]);
  });

  it("a citation that moves to another passage is a change of citations", () => {
    const moved = report([{ text: "Cobalt is mined in the DRC.", source: "s_001", number: 1, passage: 2 }]);
    const [change] = diffReports(v1, moved).findings.changed;
    expect(change?.changes).toEqual(["citations"]);
    expect(change?.citationsAdded).toEqual(["s_001.md, passage 2"]);
    expect(change?.citationsRemoved).toEqual(["s_001.md, passage 1"]);
  });

  it("a revision's lineage block says what is new, kept, changed and gone", () => {
    const lineage = reportLineage(v2, {
      relation: "revision",
      parentRun: 4,
      parentQuestion: "Q",
      parentReport: v1,
      instruction: "drop recycling",
      version: 2,
      droppedByInstruction: 1,
      carried: new Set(["s_001", "s_002"]),
    });
    expect(lineage).toMatchObject({
      relation: "revision",
      version: 2,
      instruction: "drop recycling",
      newFindings: [3],
      repeatedFindings: [{ number: 1, parentNumber: 3 }],
      changedFindings: [{ number: 2, parentNumber: 1, changes: ["wording"] }],
      removedFindings: [{ parentNumber: 2, text: "Recycling recovers cobalt from spent cells." }],
      sourcesFromParent: 1,
      sourcesNew: 1,
    });
    // A follow-up removes nothing from its parent's report: it answers another question.
    const followUp = reportLineage(v2, {
      relation: "follow-up",
      parentRun: 4,
      parentQuestion: "Q",
      parentReport: v1,
      instruction: "",
      droppedByInstruction: 0,
      carried: new Set(["s_001"]),
    });
    expect(followUp.removedFindings).toEqual([]);
    expect(followUp.instruction).toBeUndefined();
    // What the user typed reaches the report as one reader-safe line.
    const typed = reportLineage(v2, {
      relation: "revision",
      parentRun: 4,
      parentQuestion: "Why\n  cobalt?",
      parentReport: v1,
      instruction: "drop\u0007 the\n\npart on recycling",
      version: 2,
      droppedByInstruction: 0,
      carried: new Set(),
    });
    expect([typed.parentQuestion, typed.instruction]).toEqual(["Why cobalt?", "drop the part on recycling"]);
  });
});
