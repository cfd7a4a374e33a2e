import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { chunksIn, codeNamesIn, namesIn, quotedIn, stem } from "../../../core/lexicon.js";
import { splitSentences } from "../../../core/sentences.js";
import { collapseWhitespace } from "../../../core/text.js";
import { profileRequest } from "./request.js";

describe("splitSentences", () => {
  it("splits at sentence ends but not after initials, abbreviations or inside numbers", () => {
    const text =
      "Dr. John B. Goodenough moved to the U.S. in 1986. He was born c. 1922 and won 3.5 awards! Did he? Yes.";
    expect(splitSentences(text).map((sentence) => sentence.text)).toEqual([
      "Dr. John B. Goodenough moved to the U.S. in 1986.",
      "He was born c. 1922 and won 3.5 awards!",
      "Did he?",
      "Yes.",
    ]);
  });

  it("keeps headings and list items apart and joins hard-wrapped lines", () => {
    const text =
      "Cathode materials\n\nLithium cobalt oxide was the first commercial cathode and it was used for a\n" +
      "long time in phones.\n- iron phosphate\n- manganese oxide";
    const sentences = splitSentences(text);
    expect(sentences.map((sentence) => sentence.text)).toEqual([
      "Cathode materials",
      "Lithium cobalt oxide was the first commercial cathode and it was used for a long time in phones.",
      "iron phosphate",
      "manganese oxide",
    ]);
    expect(sentences.map((sentence) => sentence.standalone)).toEqual([true, false, true, true]);
    expect(sentences.map((sentence) => sentence.listItem)).toEqual([false, false, true, true]);
  });

  it("property: every sentence is an in-order span whose text is the span with whitespace collapsed", () => {
    const text = fc.string({
      unit: fc.constantFrom("a", "B", "1", " ", "\t", ".", "?", "\n", "\n\n", "Dr. ", "x.y", '"', "- "),
      maxLength: 300,
    });
    fc.assert(
      fc.property(text, (value) => {
        let previous = 0;
        for (const sentence of splitSentences(value)) {
          expect(sentence.start).toBeGreaterThanOrEqual(previous);
          expect(sentence.end).toBeGreaterThan(sentence.start);
          expect(sentence.text).toBe(collapseWhitespace(value.slice(sentence.start, sentence.end)));
          expect(sentence.text.length).toBeGreaterThan(0);
          previous = sentence.end;
        }
      }),
    );
  });
});

describe("lexicon", () => {
  it("finds names, with connectors and initials, without the capitalised words that open a question", () => {
    const names = (text: string): string[] => namesIn(text).map((name) => name.text);
    expect(names("Are Christopher Nolan and Sathish Kalathil both film directors?")).toEqual([
      "Christopher Nolan",
      "Sathish Kalathil",
    ]);
    expect(names("What language was used in the era of Haymo of Faversham?")).toEqual(["Haymo of Faversham"]);
    expect(names("What do E. B. White and Dan Masterson have in common?")).toEqual(["E. B. White", "Dan Masterson"]);
    expect(names("Who performed in Welcome to the Show, on SBS's channel?")).toEqual(["Welcome to the Show", "SBS"]);
    expect(names("the lab that discovered LiCoO2")).toEqual(["LiCoO2"]);
  });

  it("finds dotted names of code, whose every part counts, and not abbreviations", () => {
    expect(codeNamesIn("In which version was shutil.which added, and os.path.join?")).toEqual([
      "shutil.which",
      "os.path.join",
    ]);
    expect(codeNamesIn("Trials in the U.S. showed e.g. 3.5 mg works; see i.e. Fig.2")).toEqual([]);
    // The request's name, so "which" is part of a phrase the engine looks for, not a dropped stop word.
    expect(profileRequest("In which version was shutil.which added?").names).toEqual(["shutil.which"]);
  });

  it("finds quoted phrases and runs of content words", () => {
    expect(quotedIn('the song "Dear Brother" and “Charmed”')).toEqual(["Dear Brother", "Charmed"]);
    expect(chunksIn("Which plant is larger, the Pterocarya or the Cotula?")).toEqual([
      "plant",
      "larger",
      "Pterocarya",
      "Cotula",
    ]);
  });

  it("stems inflections together", () => {
    expect(stem("translated")).toBe(stem("translation"));
    expect(stem("directors")).toBe(stem("director"));
    expect(stem("batteries")).toBe(stem("battery"));
    expect(stem("1986")).toBe("1986");
    expect(stem("dj'ed")).toBe(stem("dj"));
    expect(stem("sony’s")).toBe(stem("sony"));
  });

  it("profiles a request: names, numbers, salient stems", () => {
    const profile = profileRequest('Name the "Recovery of Aristotle" scholar born in 1243 near Faversham.');
    expect(profile.names).toEqual(["Recovery of Aristotle", "Faversham"]);
    expect(profile.numbers).toEqual(["1243"]);
    expect(profile.salient.has(stem("aristotle"))).toBe(true);
    expect(profile.salient.has(stem("scholar"))).toBe(false);
  });
});
