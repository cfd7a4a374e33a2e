/**
 * What the investigative engine's extraction considers first on a page (`rankedSentences`): the
 * sentences that answer a part of its focus (core/answer), read with the headings they stand
 * under, before the ones that only share its words.
 */
import { describe, expect, it } from "vitest";
import type { LoopPage } from "../../../core/investigative/loop-tools.js";
import { rankedSentences } from "./investigative-evidence.js";

const recycling: LoopPage = {
  sourceId: "s_001",
  title: "Recycling Lithium-Ion Batteries",
  location: "industry/recycling-methods.txt",
  alreadyRead: false,
  passages: [
    {
      id: "s_001.p01",
      text: "Recycling lithium-ion batteries recovers lithium, nickel and cobalt from spent cells and production scrap, and recycling plants for lithium-ion batteries now recover lithium at scale.",
    },
    {
      id: "s_001.p02",
      section: "Route one: pyrometallurgy",
      text: "In pyrometallurgical recycling, batteries are smelted in a furnace, and lithium ends up mostly in the slag.",
    },
    {
      id: "s_001.p03",
      section: "Route two: hydrometallurgy › Strengths",
      text: "- High recovery rates for lithium as well as nickel and cobalt.\n- Lower temperatures than smelting.",
    },
  ],
};

describe("rankedSentences", () => {
  it("takes first the sentence that answers a part, by the heading it stands under, whatever its rank", () => {
    const ranked = rankedSentences(
      "Which recycling route recovers lithium best?",
      "Which recycling route recovers lithium best?",
      [recycling],
      1,
    );
    expect(ranked.map((sentence) => sentence.text)).toEqual([
      "High recovery rates for lithium as well as nickel and cobalt.",
    ]);
    expect(ranked[0]?.answering).toBe(true);
  });

  it("records a sentence that answers a part of the question though it shares no word of the focus but the question's", () => {
    const yoshino: LoopPage = {
      sourceId: "s_002",
      title: "Akira Yoshino and the Carbon Anode",
      location: "history/yoshino.md",
      alreadyRead: false,
      passages: [
        {
          id: "s_002.p05",
          section: "Switching to carbon",
          text: "Not every carbon worked. Ordinary graphite, when used with the propylene-carbonate-based electrolytes of the day, was damaged as solvent molecules forced their way between its layers. In 1985 Yoshino built a cell with a petroleum-coke anode and a lithium cobalt oxide cathode.",
        },
      ],
    };
    const texts = rankedSentences(
      "Yoshino",
      "Yoshino. Why did Yoshino use petroleum coke rather than graphite for his 1985 anode?",
      [yoshino],
      3,
      { also: "Why did Yoshino use petroleum coke rather than graphite for his 1985 anode?" },
    ).map((sentence) => sentence.text);
    expect(texts).toContain(
      "Ordinary graphite, when used with the propylene-carbonate-based electrolytes of the day, was damaged as solvent molecules forced their way between its layers.",
    );
  });
});
