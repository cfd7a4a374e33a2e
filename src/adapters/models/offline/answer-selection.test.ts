/** The offline engine's answer-shaped selection and its context rule (issue 20). */
import { describe, expect, it } from "vitest";
import { chunkContent } from "../../../core/chunking.js";
import { chunkId } from "../../../core/ids.js";
import { buildPacket } from "../../../core/synthesis/packet.js";
import type { PacketSource } from "../../../ports/model.js";
import { type AnswerShape, answerShapes, shapeLift, shapesOf } from "./answer-shape.js";
import { answersFirst, answersMore, extractiveSynthesis, pointsBack, rankSentences } from "./sentence-extraction.js";

function packet(id: string, title: string, text: string): PacketSource {
  return {
    id,
    title,
    location: `${id}.md`,
    chunks: chunkContent(text, { maxChars: 1_200 }).map((chunk) => ({ id: chunkId(id, chunk.seq), text: chunk.text })),
  };
}

/** How much a sentence (under `heading`) is lifted for the shapes asked. */
const lift = (sentence: string, shapes: ReadonlySet<AnswerShape>, heading = ""): number =>
  shapeLift(shapesOf(sentence, shapes, heading), shapes);

describe("answerShapes", () => {
  it("reads what kind of answer a question asks for", () => {
    expect([...answerShapes("When did Sony sell the first lithium-ion battery?")]).toEqual(["date"]);
    expect([...answerShapes("How many workers did the Nevada plant employ?")]).toEqual(["figure"]);
    expect([...answerShapes("Who led the Oxford laboratory?")]).toEqual(["name"]);
    expect([...answerShapes("Why did battery prices fall?")]).toEqual(["cause"]);
    expect(
      [...answerShapes("How did lithium-ion battery costs change between 1991 and 2020, and why?")].sort(),
    ).toEqual(["cause", "change", "figure"]);
    // A name asked for only when the question opens on it.
    expect(answerShapes("How did Sony sell it, and who built the first one?").has("name")).toBe(false);
    expect(answerShapes("Lithium cobalt oxide cathodes").size).toBe(0);
  });

  it("lifts a sentence by the share of the asked shapes it has", () => {
    const shapes = answerShapes("How did battery prices change, and why?");
    expect(lift("Prices fell by about 97 percent because factories grew.", shapes)).toBeCloseTo(0.3);
    expect(lift("Battery prices are a popular topic of conversation.", shapes)).toBe(0);
    expect(lift("Costs fell because the factories grew.", shapes)).toBeCloseTo(0.2);
    expect(lift("In 1991 Sony began selling the battery.", answerShapes("When did Sony begin?"))).toBeCloseTo(0.3);
    expect(lift("Sony began selling the battery.", answerShapes("When did Sony begin?"))).toBe(0);
  });

  it("counts a cause or a change its heading says of the sentences under it, never a heading's date or figure", () => {
    const shapes = answerShapes("How did battery prices change, and why?");
    const plain = "Larger plants spread fixed costs over more output.";
    expect(lift(plain, shapes)).toBe(0);
    expect([...shapesOf(plain, shapes, "What drove the decline › 1. Scale")].sort()).toEqual(["cause", "change"]);
    const when = answerShapes("When did Sony begin?");
    expect(lift("Sony began selling the battery.", when, "The 1991 launch")).toBe(0);
    expect(lift("Any gain in density lowers the cost per kilowatt-hour.", shapes)).toBeGreaterThan(0);
  });

  it("lifts a version number for 'which version' as much as the question's words, and nothing else", () => {
    const shapes = answerShapes("In which version was json.JSONDecodeError added?");
    expect([...shapes]).toEqual(["version"]);
    expect(lift("New in version 3.5.", shapes)).toBe(1);
    expect(lift("Deprecated since version 3.4: use loads() instead.", shapes)).toBe(1);
    expect(lift("Raised when a document is not valid JSON.", shapes)).toBe(0);
    expect(answerShapes("Since which release is the option deprecated?").has("version")).toBe(true);
    expect(answerShapes("Which company built the first cell?").has("version")).toBe(false);
  });
});

describe("the context rule", () => {
  it("recognises sentences that point back", () => {
    expect(pointsBack("He built a cell in 1985.")).toBe(true);
    expect(pointsBack("“This meant a cell could be assembled discharged.")).toBe(true);
    expect(pointsBack("However, the cell failed.")).toBe(true);
    expect(pointsBack("Hewlett built a cell.")).toBe(false);
    expect(pointsBack("The cell was built in 1985.")).toBe(false);
    // An "it" that stands for the clause after it.
    expect(pointsBack("It is false that Sony sold the first cell in 1991.")).toBe(false);
    expect(pointsBack("It was not until 1991 that the cell went on sale.")).toBe(false);
    expect(pointsBack("It was charged after assembly.")).toBe(true);
    // A pronoun in the first words, with no name before it.
    expect(pointsBack("In 1985 he built a cell.")).toBe(true);
    expect(pointsBack("In 1985 Akira Yoshino said he built a cell.")).toBe(false);
    // A possessive whose owner the sentence names right after it points forward.
    expect(pointsBack("In its 2020 survey, BNEF reported an average pack price of 137 US dollars.")).toBe(false);
    expect(pointsBack("In its 2020 survey, the firm reported a fall.")).toBe(true);
    expect(pointsBack("In his laboratory, he built a cell.")).toBe(true);
  });

  it("never quotes a sentence that points back alone: with the sentence before it, or not at all", () => {
    const sources = [
      packet(
        "s_001",
        "Akira Yoshino",
        "Akira Yoshino joined Asahi Kasei in 1972 and worked on conductive polymers. In 1985 he built a cell with a petroleum-coke anode and a lithium cobalt oxide cathode.\n\nHe built it to be safe. The cell was charged after assembly.",
      ),
    ];
    const output = extractiveSynthesis("Who built the cell with a petroleum-coke anode in 1985?", sources);
    const texts = output.facts.map((fact) => fact.text);
    // The answer is quoted from the sentence that names who "he" is (and, here, with the next one that points back too).
    const answer = texts.find((text) => text.includes("In 1985 he built a cell"));
    expect(answer?.startsWith("Akira Yoshino joined Asahi Kasei in 1972 and worked on conductive polymers. ")).toBe(
      true,
    );
    // No fact opens on a pronoun: the one with nothing before it in its passage is not quoted.
    for (const text of texts) expect(pointsBack(text), text).toBe(false);
    // Still verbatim, whitespace aside, in the passage each cites.
    for (const fact of output.facts) {
      const passage = sources[0]?.chunks.find((chunk) => chunk.id === fact.chunkIds[0])?.text ?? "";
      expect(passage.replace(/\s+/g, " ")).toContain(fact.text);
    }
  });

  it("quotes the sentence that points back together with the one it refers to, not that one alone", () => {
    const sources = [
      packet(
        "s_001",
        "Battery prices",
        "A study at the Massachusetts Institute of Technology assembled lithium battery price data going back to 1991. It found that lithium battery prices had fallen by about 97 percent since then. Cobalt is mined in many countries.",
      ),
    ];
    const output = extractiveSynthesis("How did lithium battery prices change after 1991?", sources);
    const texts = output.facts.map((fact) => fact.text);
    expect(texts).toContain(
      "A study at the Massachusetts Institute of Technology assembled lithium battery price data going back to 1991. It found that lithium battery prices had fallen by about 97 percent since then.",
    );
    expect(texts).not.toContain(
      "A study at the Massachusetts Institute of Technology assembled lithium battery price data going back to 1991.",
    );
  });
});

describe("one sentence per part of the question", () => {
  it("orders the sentences that answer a part nothing before them answers first, best first, then the others", () => {
    const ranked = [
      { id: "a", answers: [] },
      { id: "b", answers: ["term:1991", "shape:change"] },
      { id: "c", answers: ["term:1991"] },
      { id: "d", answers: ["shape:cause"] },
      { id: "e", answers: [] },
    ];
    expect(answersFirst(ranked).map((sentence) => sentence.id)).toEqual(["b", "d", "a", "c", "e"]);
    expect(answersMore({ answers: ["term:2020"] }, ranked)).toBe(true);
    expect(answersMore({ answers: ["term:1991"] }, ranked)).toBe(false);
  });

  /** One article on the question (many sentences on its words) and one other source. */
  const article = packet(
    "s_001",
    "The Price Collapse: Three Decades of Falling Lithium Battery Costs",
    [
      "Battery costs have been the subject of many battery cost studies and battery cost forecasts.",
      "Battery cost figures are published by many battery cost analysts every year.",
      "Battery costs matter to every battery cost analyst and every buyer of battery packs.",
      "A study found that battery costs had fallen by about 97 percent since 1991.",
      "In its 2020 survey, BNEF reported an average pack price of 137 dollars per kilowatt-hour.",
      "No single breakthrough explains the fall in prices.",
    ].join(" "),
  );
  const other = packet("s_002", "Cathode chemistry", "Battery costs depend on the cathode chemistry of each cell.");
  const question = "How did lithium battery costs change between 1991 and 2020, and why?";

  it("quotes the sentences that answer each part of the question, past the source's share of two", () => {
    const texts = extractiveSynthesis(question, [article, other]).facts.map((fact) => fact.text);
    expect(texts.join("\n")).toContain("fallen by about 97 percent since 1991");
    // Past the article's two: the only sentence that gives 2020, and the only one that gives a cause of the fall.
    expect(texts.join("\n")).toContain("In its 2020 survey, BNEF reported an average pack price");
    expect(texts.join("\n")).toContain("explains the fall");
    // A sentence that answers a part comes first, before those that only share the question's words.
    expect(texts[0]).toMatch(/97 percent|2020 survey|explains the fall/);
    expect(texts.slice(0, 3).some((text) => text.startsWith("Battery cost figures"))).toBe(false);
  });

  it("never quotes the document's title, written again as its first line, as a finding", () => {
    const title = "Charging Lithium-Ion Batteries: C-Rates, CC-CV and the Limits of Fast Charging";
    const texts = rankSentences("What limits fast charging of lithium-ion batteries?", [
      packet(
        "s_001",
        title,
        `${title}\n\nFast charging is limited by lithium plating on the anode at low temperatures.`,
      ),
    ]).map((sentence) => sentence.text);
    expect(texts).toContain("Fast charging is limited by lithium plating on the anode at low temperatures.");
    expect(texts).not.toContain(title);
  });

  it("lends the words of a title that names the question's subject to its own sentences", () => {
    const titled = (title: string) =>
      packet(
        "s_001",
        title,
        "Cell makers opened new plants in Asia last year. Pack prices fell sharply over the decade as plants grew.",
      );
    const rankOf = (title: string) =>
      rankSentences("How did lithium battery costs change?", [titled(title)]).map((sentence) => sentence.text);
    // "prices" and "fell" share nothing with the question: only a title about lithium battery costs that says "price" and "falling" lends them.
    expect(rankOf("The Price Collapse: Falling Lithium Battery Costs")).toContain(
      "Pack prices fell sharply over the decade as plants grew.",
    );
    expect(rankOf("Factories of Asia")).not.toContain("Pack prices fell sharply over the decade as plants grew.");
  });
});

describe("bridges", () => {
  it("a sentence full of names lifts the sources it leads to, not itself above the answer", () => {
    const sources = [
      packet(
        "s_001",
        "Evening Lantern (song)",
        '"Evening Lantern" is a duet by Mara Quist and Tobias Quist. It was released by Copper Records in 1950. ' +
          "They recorded it with Hal Brenner producing at Copper Studios in Dayton on May 2, 1950 and were backed by " +
          "Lena Ortiz (fiddle), Walt Ferris (steel guitar), Gus Tanner (lead guitar), Cy Moorland (mandolin), Jed " +
          "Pike (rhythm guitar), and Omar Dale (bass). Mara was six months pregnant at the time of the recording. By " +
          "May 1950 it had sold 700 copies.",
      ),
      packet(
        "s_002",
        "Mara Quist",
        "Mara Quist (1923 – 1975) was an American singer known as the first wife of Tobias Quist and the mother of " +
          "Tobias Quist Jr.",
      ),
      packet(
        "s_003",
        "River Hymn",
        '"River Hymn" is a hymn by Tobias Quist. It was recorded at Copper Studios with Lena Ortiz (fiddle), Walt ' +
          "Ferris (steel guitar) and Omar Dale (bass), and sold well in Dayton.",
      ),
    ];
    const output = extractiveSynthesis(
      'Who was Mara Quist pregnant with during the recording of "Evening Lantern"?',
      sources,
    );
    const texts = output.facts.map((fact) => fact.text);
    expect(
      texts.some((text) => text.includes("Mara was six months pregnant at the time of the recording.")),
      texts.join("\n"),
    ).toBe(true);
    expect(output.facts.map((fact) => fact.sourceId)).toContain("s_002");
  });
});

describe("ties between sources", () => {
  it("go to the source the packet lists first, whatever its id (ids follow when each read finished)", () => {
    const same = "Lithium cobalt oxide was reported as a cathode at Oxford in 1980.";
    const first = packet("s_002", "Oxford", same);
    const second = packet("s_001", "Oxford", same);
    const ranked = (sources: PacketSource[]) => rankSentences("Where was lithium cobalt oxide reported?", sources);
    expect(ranked([first, second]).map((sentence) => sentence.sourceId)).toEqual(["s_002", "s_001"]);
    expect(ranked([second, first]).map((sentence) => sentence.sourceId)).toEqual(["s_001", "s_002"]);
  });
});

describe("long structured pages", () => {
  /** A reference page as the HTML extractor gives it: each entry a section named by its headings. */
  function referencePage(id: string, entries: readonly { heading: string; body: string }[]): PacketSource {
    let content = "";
    const sections: { start: number; location: string }[] = [];
    for (const entry of entries) {
      if (content) content += "\n\n";
      sections.push({ start: content.length, location: `Reference › ${entry.heading}` });
      content += `${entry.heading}\n\n${entry.body}`;
    }
    return {
      id,
      title: "gc — Garbage Collector interface",
      location: `https://docs.example/${id}.html`,
      chunks: chunkContent(content, { maxChars: 1_200, sections }).map((chunk) => ({
        id: chunkId(id, chunk.seq),
        text: chunk.text,
        ...(chunk.location ? { section: chunk.location } : {}),
      })),
    };
  }

  const page = referencePage("s_001", [
    {
      heading: "gc.collect(generation=2)",
      body: "With no arguments, run a full collection. The number of unreachable objects found is returned.\n\nChanged in version 3.3: Added the generation argument.",
    },
    {
      heading: "gc.freeze()",
      body: "Freeze all the objects tracked by gc - move them to a permanent generation and ignore all the future collections. This can be used before a POSIX fork() call to make the gc copy-on-write friendly.\n\nNew in version 3.7.",
    },
    {
      heading: "gc.unfreeze()",
      body: "Unfreeze the objects in the permanent generation, put them back into the oldest generation.\n\nNew in version 3.7.",
    },
  ]);

  it("answers 'in which version' with the metadata line of the entry asked about, quoted after its heading", () => {
    const output = extractiveSynthesis("In which version was gc.freeze added?", [page]);
    expect(output.facts[0]?.text).toBe("gc.freeze(): New in version 3.7.");
    // It cites the passage that holds the line, under that entry.
    const cited = page.chunks.find((chunk) => chunk.id === output.facts[0]?.chunkIds[0]);
    expect(cited?.section).toBe("Reference › gc.freeze()");
    expect(cited?.text).toContain("New in version 3.7.");
    // Another entry's "Changed in version … Added …" is not the answer.
    expect(output.facts[0]?.text).not.toContain("3.3");
  });

  it("never quotes another entry's metadata line, about nothing the question asks", () => {
    const other = {
      ...referencePage("s_004", [
        {
          heading: "pickle.dump(obj, file)",
          body: "Write the pickled representation of the object to the open file object.\n\nChanged in version 3.8: The buffer_callback argument was added.",
        },
      ]),
      title: "pickle — Python object serialization",
    };
    const texts = extractiveSynthesis("In which version was gc.freeze added?", [page, other]).facts.map(
      (fact) => fact.text,
    );
    expect(texts[0]).toBe("gc.freeze(): New in version 3.7.");
    expect(texts.some((text) => text.includes("buffer_callback"))).toBe(false);
  });

  it("never quotes a metadata line that has no heading to quote it after", () => {
    const bare = packet("s_003", "gc notes", "New in version 3.7.\n\nThe collector can be tuned at run time.");
    const texts = extractiveSynthesis("In which version was the gc freeze added?", [bare]).facts.map(
      (fact) => fact.text,
    );
    expect(texts).not.toContain("New in version 3.7.");
  });

  it("on a page longer than the packet, chooses the sections whose headings match the question first", () => {
    // Passages that do not repeat their heading (a long entry's later passages, a line after a nested list).
    const passage = (seq: number, heading: string, text: string) => ({
      id: chunkId("s_002", seq),
      seq,
      text,
      location: `Reference › ${heading}`,
    });
    const candidate = {
      id: "s_002",
      title: "gc — Garbage Collector interface",
      location: "https://docs.example/gc.html",
      chunks: [
        passage(1, "gc.collect(generation=2)", "Changed in version 3.3: Added the generation argument."),
        passage(2, "gc.freeze()", "New in version 3.7."),
        passage(3, "gc.unfreeze()", "New in version 3.7."),
      ],
    };
    // Room for one short passage.
    const chosen = buildPacket("In which version was gc.unfreeze added?", [candidate], 25).sources[0]?.chunks ?? [];
    expect(chosen.map((chunk) => chunk.section)).toEqual(["Reference › gc.unfreeze()"]);
  });

  it("never quotes a sentence about the document itself, not even after the sentence it points back to", () => {
    const article = packet(
      "s_001",
      "Charging Lithium-Ion Batteries",
      "The answer depends on the chemistry of the cell and on how much lifetime the user is prepared to trade for speed of charging. This article introduces the C-rate and the physical limits that make fast charging difficult.\n\nThe main obstacle to fast charging is lithium plating on the negative electrode of the cell.",
    );
    const texts = extractiveSynthesis("What limits fast charging of lithium-ion cells?", [article]).facts.map(
      (fact) => fact.text,
    );
    expect(texts.some((text) => text.includes("The main obstacle to fast charging"))).toBe(true);
    expect(texts.some((text) => text.includes("This article"))).toBe(false);
  });
});

describe("a why a passage answers", () => {
  it("quotes the sentence that writes the resolution though it shares no word of the question, with the one beside it", () => {
    const graphite = packet(
      "s_001",
      "Graphite anodes",
      "# Graphite anodes\n\n## A slow road to graphite\n\nThe electrolytes of the 1980s were based on propylene carbonate, which destroyed graphite. " +
        "What was needed was a liquid electrolyte that behaved as well. The answer turned out to be ethylene carbonate (EC). " +
        "EC-based electrolytes became the industry standard. Over the 1990s graphite replaced disordered carbons as the dominant anode material.",
    );
    const filler = packet(
      "s_002",
      "Cathodes",
      "# Cathodes\n\nLithium cobalt oxide was the first commercial cathode. Nickel-rich cathodes store more energy. Lithium iron phosphate is cheap.",
    );
    const question = "What later allowed graphite to become the standard anode?";
    const texts = extractiveSynthesis(question, [graphite, filler]).facts.map((fact) => fact.text);
    expect(texts).toContain("The answer turned out to be ethylene carbonate (EC).");
    // The ranking alone scores it nothing: it shares no word with the question.
    expect(rankSentences(question, [graphite, filler]).map((ranked) => ranked.text)).not.toContain(
      "The answer turned out to be ethylene carbonate (EC).",
    );
  });
});
