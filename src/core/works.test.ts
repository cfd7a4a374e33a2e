import { describe, expect, it } from "vitest";
import { mergeWorks, normalizeDoi, workAnchor, workIdentity, workLine } from "./works.js";

describe("works", () => {
  it("reads a DOI however it is written, lower-cased and bare", () => {
    expect(normalizeDoi("https://doi.org/10.1038/NATURE14539")).toBe("10.1038/nature14539");
    expect(normalizeDoi("doi: 10.3389/fcvm.2025.1611449.")).toBe("10.3389/fcvm.2025.1611449");
    expect(normalizeDoi("not a doi")).toBeUndefined();
    expect(normalizeDoi(undefined)).toBeUndefined();
  });

  it("identifies and anchors a work by its DOI, else its arXiv id, else its PMID", () => {
    const all = { doi: "10.1/x", arxivId: "1706.03762", pmid: "123", authors: [] };
    expect([workIdentity(all), workAnchor(all)]).toEqual(["doi:10.1/x", "https://doi.org/10.1/x"]);
    const arxiv = { arxivId: "hep-th/9901001", pmid: "123", authors: [] };
    expect([workIdentity(arxiv), workAnchor(arxiv)]).toEqual([
      "arxiv:hep-th/9901001",
      "https://arxiv.org/abs/hep-th/9901001",
    ]);
    expect(workAnchor({ pmid: "123", authors: [] })).toBe("https://pubmed.ncbi.nlm.nih.gov/123/");
    expect([workIdentity({ authors: ["A"] }), workAnchor(undefined)]).toEqual([undefined, undefined]);
  });

  it("merges two listings field by field, the first winning", () => {
    expect(
      mergeWorks(
        { arxivId: "1706.03762", authors: [], year: 2017 },
        { doi: "10.48550/arxiv.1706.03762", authors: ["A. Vaswani"], venue: "NeurIPS", year: 2018 },
      ),
    ).toEqual({
      doi: "10.48550/arxiv.1706.03762",
      arxivId: "1706.03762",
      authors: ["A. Vaswani"],
      venue: "NeurIPS",
      year: 2017,
    });
    expect(mergeWorks(undefined, { authors: [] })).toEqual({ authors: [] });
  });

  it("names a work in one line, three authors at most", () => {
    expect(workLine({ doi: "10.1/x", authors: ["A", "B", "C", "D"], venue: "V", year: 1980 })).toBe(
      "A, B, C et al. · V · 1980 · doi:10.1/x",
    );
    expect(workLine({ authors: ["A"] })).toBe("A");
    expect(workLine({ authors: [] })).toBe("");
  });
});
