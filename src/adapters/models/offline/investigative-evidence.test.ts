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
});
