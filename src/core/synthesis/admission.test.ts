import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { numbersIn } from "../statements.js";
import { type AdmissionCatalog, admitSynthesis, readerTextProblem } from "./admission.js";
import type { SynthesisOutput } from "./proposals.js";

const catalog: AdmissionCatalog = new Map([
  [
    "s_001",
    new Map([
      ["s_001.p01", "Lithium cobalt oxide was reported at Oxford in 1980."],
      ["s_001.p02", "The group was led by John Goodenough."],
    ]),
  ],
  ["s_002", new Map([["s_002.p01", "Sony sold the first commercial cell in 1991, rated at 3.6 volts."]])],
]);

const empty: SynthesisOutput = { facts: [], derivations: [], recommendations: [], gaps: [] };
const fact = (id: string, overrides: Partial<SynthesisOutput["facts"][number]> = {}) => ({
  id,
  text: "Lithium cobalt oxide was reported at Oxford in 1980.",
  sourceId: "s_001",
  chunkIds: ["s_001.p01"],
  ...overrides,
});

describe("admitSynthesis", () => {
  it("admits well-formed items and keeps the graph", () => {
    const admitted = admitSynthesis(
      {
        facts: [
          fact("f1"),
          fact("f2", {
            text: "Sony sold the first commercial cell in 1991.",
            sourceId: "s_002",
            chunkIds: ["s_002.p01"],
          }),
        ],
        derivations: [
          {
            id: "d1",
            text: "The cathode reached the market eleven years after its discovery.",
            premiseIds: ["f1", "f2"],
            method: "difference of years",
          },
        ],
        recommendations: [
          {
            id: "r1",
            text: "Read the original 1980 paper for the measured voltages.",
            premiseIds: ["f1"],
            conditions: ["when exact figures matter"],
          },
        ],
        gaps: [{ id: "g1", text: "The sources do not give the cell's capacity.", relatedSourceIds: ["s_002"] }],
      },
      catalog,
    );
    expect(admitted.diagnostics).toEqual([]);
    expect([
      admitted.facts.length,
      admitted.derivations.length,
      admitted.recommendations.length,
      admitted.gaps.length,
    ]).toEqual([2, 1, 1, 1]);
  });

  it("drops an invalid item with a reason and keeps its siblings", () => {
    const admitted = admitSynthesis(
      {
        ...empty,
        facts: [
          fact("f1"),
          fact("f2", { sourceId: "s_999" }),
          fact("f3", { chunkIds: ["s_002.p01"] }),
          fact("f4", { text: "See https://example.com for more." }),
          fact("f5", { text: "Lithium cobalt oxide was reported at Oxford in 1979." }),
          fact("f6", { text: "Bad\u0007 control" }),
          fact("f7", { chunkIds: ["s_001.p01", "s_001.p01"] }),
          fact("bad id!"),
        ],
      },
      catalog,
    );
    expect(admitted.facts.map((item) => item.id)).toEqual(["f1"]);
    expect(admitted.diagnostics.map((item) => [item.itemId, item.reason])).toEqual([
      ["f2", "cites source s_999, which is not in the catalog"],
      ["f3", "cites chunk s_002.p01, which is not a chunk of s_001"],
      ["f4", "text contains an authored URL"],
      ["f5", "states the number 1979, which its cited passages do not contain"],
      ["f6", "text contains control characters"],
      ["f7", "cites the same chunk twice"],
      ["bad id!", 'local id "bad id!" is not of the form letter + letters/digits'],
    ]);
  });

  it("holds every item kind to one numbers rule: as written, from the passages, or by checked arithmetic", () => {
    const f1 = fact("f1");
    const f2 = fact("f2", {
      text: "Sony sold the first commercial cell in 1991.",
      sourceId: "s_002",
      chunkIds: ["s_002.p01"],
    });
    const derivation = (id: string, text: string, method = "difference of years") => ({
      id,
      text,
      premiseIds: ["f1", "f2"],
      method,
    });
    const admitted = admitSynthesis(
      {
        facts: [f1, f2, fact("f3", { text: "Lithium cobalt oxide was reported at Oxford in 1,980." })],
        derivations: [
          derivation("d1", "The first cell was sold 11 years after the cathode was reported in 1980."),
          derivation("d2", "The battery costs $4,000 and kills 300 people a year."),
          derivation("d3", "Sony's cell, at 3.6 volts, hurt 42 people.", "ratio"),
          derivation("d4", "The cathode predates the cell by 11 years.", "difference"),
        ],
        recommendations: [
          {
            id: "r1",
            text: "Prefer cells designed after 1991.",
            conditions: ["when 11 years of field data matter"],
            premiseIds: ["d1"],
          },
          { id: "r2", text: "Budget $4,000 per cell.", conditions: [], premiseIds: ["f1"] },
        ],
        gaps: [],
      },
      catalog,
    );
    expect(admitted.facts.map((item) => item.id)).toEqual(["f1", "f2"]);
    expect(admitted.derivations.map((item) => item.id)).toEqual(["d1", "d4"]);
    expect(admitted.recommendations.map((item) => item.id)).toEqual(["r1"]);
    expect(admitted.diagnostics.map((item) => [item.itemId, item.reason])).toEqual([
      // "1,980" is a figure with a thousands separator, not the year 1980.
      ["f3", "states the number 1,980, which its cited passages do not contain"],
      [
        "d2",
        "states the number 4,000, which its premises' passages neither contain nor give by a difference, ratio, percentage change or sum",
      ],
      [
        "d3",
        "states the number 42, which its premises' passages neither contain nor give by a difference, ratio, percentage change or sum",
      ],
      [
        "r2",
        "states the number 4,000, which its premises' passages neither contain nor give by a difference, ratio, percentage change or sum",
      ],
    ]);
  });

  it("refuses domain-like text by its public suffix, not by a list of endings", () => {
    expect(readerTextProblem("Read more at evil.ru/x today.")).toBe(
      "text contains an authored URL (evil.ru/x)".replace("/x", ""),
    );
    expect(readerTextProblem("Mirrors live on files.example.co.uk.")).toBe(
      "text contains an authored URL (files.example.co.uk)",
    );
    expect(readerTextProblem("Write to mailto:someone")).toBe("text contains an authored URL");
    for (const plain of [
      "It ran at 3.6 V.",
      "See e.g. the 2019 report.",
      "The U.S. market grew.",
      "Node.js 20 ships it.",
    ])
      expect(readerTextProblem(plain), plain).toBeUndefined();
  });

  it("admits a fact's contradictions only when they cite another source's passages and quote them verbatim", () => {
    const against = {
      sourceId: "s_002",
      chunkIds: ["s_002.p01"],
      quote: "Sony sold the first commercial cell in 1991,",
    };
    const admitted = admitSynthesis(
      {
        ...empty,
        facts: [
          fact("f1", { contradictedBy: [against] }),
          fact("f2", { contradictedBy: [{ ...against, quote: "Sony sold the first commercial cell in 1992." }] }),
          fact("f3", {
            contradictedBy: [{ ...against, sourceId: "s_001", chunkIds: ["s_001.p02"], quote: "John Goodenough" }],
          }),
          fact("f4", { contradictedBy: [{ ...against, chunkIds: ["s_002.p09"] }] }),
          fact("f5", { contradictedBy: [{ ...against, quote: "See https://evil.example/x" }] }),
        ],
      },
      catalog,
    );
    expect(admitted.facts.map((item) => item.id)).toEqual(["f1"]);
    expect(admitted.diagnostics.map((item) => [item.itemId, item.reason])).toEqual([
      ["f2", "contradiction: the quote is not written in the passages of s_002 it cites"],
      ["f3", "is contradicted by its own source"],
      ["f4", "contradiction: cites chunk s_002.p09, which is not a chunk of s_002"],
      ["f5", "contradiction: text contains an authored URL"],
    ]);
  });

  it("drops a derivation whose premise was dropped, and everything resting on it, but not unrelated components", () => {
    const admitted = admitSynthesis(
      {
        facts: [
          fact("f1"),
          fact("f2", { sourceId: "s_404" }),
          fact("f3", { text: "The group was led by John Goodenough.", chunkIds: ["s_001.p02"] }),
        ],
        derivations: [
          { id: "d1", text: "Derived from a bad fact.", premiseIds: ["f2"], method: "m" },
          { id: "d2", text: "Derived from d1.", premiseIds: ["d1", "f1"], method: "m" },
          { id: "d3", text: "Derived from good facts.", premiseIds: ["f1", "f3"], method: "m" },
          { id: "d4", text: "Cycle a.", premiseIds: ["d5"], method: "m" },
          { id: "d5", text: "Cycle b.", premiseIds: ["d4"], method: "m" },
          { id: "d6", text: "Missing premise.", premiseIds: ["f9"], method: "m" },
        ],
        recommendations: [
          { id: "r1", text: "Rests on d2.", premiseIds: ["d2"], conditions: [] },
          { id: "r2", text: "Rests on d3.", premiseIds: ["d3"], conditions: [] },
        ],
        gaps: [{ id: "g1", text: "Unknown source.", relatedSourceIds: ["s_777"] }],
      },
      catalog,
    );
    expect(admitted.facts.map((item) => item.id)).toEqual(["f1", "f3"]);
    expect(admitted.derivations.map((item) => item.id)).toEqual(["d3"]);
    expect(admitted.recommendations.map((item) => item.id)).toEqual(["r2"]);
    const reasons = Object.fromEntries(admitted.diagnostics.map((item) => [item.itemId, item.reason]));
    expect(reasons).toMatchObject({
      d1: "premise f2 was not admitted",
      d2: "premise d1 was not admitted",
      d4: "its premises form a cycle",
      d5: "its premises form a cycle",
      d6: "premise f9 does not exist",
      r1: "premise d2 was not admitted",
      g1: "relates to source s_777, which is not in the catalog",
    });
  });

  it("refuses a reused local id on every item that uses it", () => {
    const admitted = admitSynthesis({ ...empty, facts: [fact("f1"), fact("f1"), fact("f2")] }, catalog);
    expect(admitted.facts.map((item) => item.id)).toEqual(["f2"]);
    expect(admitted.diagnostics).toHaveLength(2);
  });

  it("finds numbers and reader-text problems", () => {
    expect(numbersIn("In 1991 it cost $1,100 and ran at 3.6 V.")).toEqual(["1991", "1,100", "3.6"]);
    expect(readerTextProblem("   ")).toBe("empty text");
    expect(readerTextProblem("<script>alert(1)</script>")).toBe("text contains markup");
    expect(readerTextProblem("Plain sentence with 3 < 4.")).toBeUndefined();
  });

  it("property: an invalid item never removes a valid item that depends on nothing invalid", () => {
    const chunkIds = [...catalog].flatMap(([sourceId, chunks]) =>
      [...chunks.keys()].map((chunkId) => ({ sourceId, chunkId })),
    );
    const factArbitrary = fc.record({
      valid: fc.boolean(),
      pick: fc.integer({ min: 0, max: chunkIds.length - 1 }),
    });
    const graph = fc.record({
      facts: fc.array(factArbitrary, { minLength: 1, maxLength: 8 }),
      derivations: fc.array(
        fc.record({ valid: fc.boolean(), premises: fc.array(fc.nat(), { minLength: 1, maxLength: 3 }) }),
        {
          maxLength: 8,
        },
      ),
    });
    fc.assert(
      fc.property(graph, (spec) => {
        const output: SynthesisOutput = { ...empty, facts: [], derivations: [] };
        const validIds = new Set<string>();
        spec.facts.forEach((item, index) => {
          const target = chunkIds[item.pick] ?? { sourceId: "s_001", chunkId: "s_001.p01" };
          const text = catalog.get(target.sourceId)?.get(target.chunkId) ?? "";
          output.facts.push({
            id: `f${index}`,
            text: item.valid ? text : `${text} See www.example.com.`,
            sourceId: target.sourceId,
            chunkIds: [target.chunkId],
          });
          if (item.valid) validIds.add(`f${index}`);
        });
        // Derivations may only point at earlier items, so the graph is acyclic by construction.
        spec.derivations.forEach((item, index) => {
          const earlier = [...output.facts.map((f) => f.id), ...output.derivations.map((d) => d.id)];
          const premises = [...new Set(item.premises.map((premise) => earlier[premise % earlier.length] ?? "f0"))];
          output.derivations.push({
            id: `d${index}`,
            text: item.valid ? "A derived statement." : "A derived statement with <b>markup</b>.",
            premiseIds: premises,
            method: "combination",
          });
          if (item.valid && premises.every((premise) => validIds.has(premise))) validIds.add(`d${index}`);
        });
        const admitted = admitSynthesis(output, catalog);
        const kept = new Set([...admitted.facts, ...admitted.derivations].map((item) => item.id));
        expect(kept).toEqual(validIds);
        expect(admitted.diagnostics.length).toBe(output.facts.length + output.derivations.length - validIds.size);
      }),
    );
  });
});
