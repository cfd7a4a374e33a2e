import { describe, expect, it } from "vitest";
import { parseCases } from "./cases.js";
import { musiqueCorpus, musiqueSamples } from "./musique.js";

// Two samples in MuSiQue's shape, written for this test (no data from the set).
const first = {
  id: "2hop__1_2",
  question: "When did the founder of Example Corp die?",
  answer: "1950",
  answer_aliases: ["in 1950"],
  answerable: true,
  paragraphs: [
    { idx: 0, title: "Example Corp", paragraph_text: "Example Corp was founded by Ann Smith.", is_supporting: true },
    { idx: 1, title: "Ann Smith", paragraph_text: "Ann Smith (1890–1950) was an engineer.", is_supporting: true },
    { idx: 2, title: "Other Corp", paragraph_text: "Other Corp makes ovens.", is_supporting: false },
    { idx: 3, title: "Other Corp", paragraph_text: "Other Corp was renamed in 2001.", is_supporting: false },
  ],
};
const second = {
  id: "2hop__3_4",
  question: "Who renamed Other Corp?",
  answer: "Bob",
  answerable: false,
  paragraphs: [{ idx: 0, title: "Other Corp", paragraph_text: "Other Corp makes ovens.", is_supporting: false }],
};

describe("MuSiQue as an evaluation set", () => {
  it("reads JSON Lines and a JSON array alike", () => {
    const lines = `${JSON.stringify(first)}\n\n${JSON.stringify(second)}\n`;
    expect(musiqueSamples(lines, "dev.jsonl").map((sample) => sample.id)).toEqual(["2hop__1_2", "2hop__3_4"]);
    expect(musiqueSamples(JSON.stringify([first]), "train.json")).toHaveLength(1);
  });

  it("names the file and the sample that is not a MuSiQue question", () => {
    expect(() => musiqueSamples("{not json", "bad.jsonl")).toThrow(/bad\.jsonl is neither JSON Lines nor a JSON array/);
    expect(() => musiqueSamples(JSON.stringify([first, { id: "x" }]), "odd.json")).toThrow(
      /odd\.json: sample 2 is not a MuSiQue question \(question: /,
    );
  });

  it("makes the answerable questions cases over one corpus, with their supporting paragraphs as gold", () => {
    const { cases, documents } = musiqueCorpus([first, second]);
    expect(cases).toEqual([
      {
        id: "2hop__1_2",
        question: "When did the founder of Example Corp die?",
        answers: ["1950", "in 1950"],
        type: "2hop",
        gold: ["example-corp.md", "ann-smith.md"],
      },
    ]);
    // Two texts under one title are two documents; the unanswerable question adds none.
    expect([...documents.keys()]).toEqual(["example-corp.md", "ann-smith.md", "other-corp.md", "other-corp-2.md"]);
    expect(documents.get("ann-smith.md")).toBe("# Ann Smith\n\nAnn Smith (1890–1950) was an engineer.\n");
    // The cases are in the format `assay eval` reads.
    const parsed = parseCases(cases.map((item) => JSON.stringify(item)).join("\n"), "cases.jsonl");
    expect(parsed[0]).toMatchObject({ answers: ["1950", "in 1950"], gold: ["example-corp.md", "ann-smith.md"] });
  });
});
