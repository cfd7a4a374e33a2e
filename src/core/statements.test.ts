import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  derivedBy,
  numbersIn,
  numberValue,
  sentencesOf,
  stanceOf,
  statesClaim,
  unsupportedTerms,
} from "./statements.js";

const SONY = "In 1991 Sony began selling the first commercial lithium-ion rechargeable battery.";

describe("numbersIn", () => {
  it("keeps numbers as written: a thousands separator is part of the figure", () => {
    expect(numbersIn("In 1991 it cost $1,100 and ran at 3.6 V; version 2.10.1.")).toEqual([
      "1991",
      "1,100",
      "3.6",
      "2.10.1",
    ]);
    expect(numbersIn("1\u202F985 mAh or 1\u00A0985 mAh")).toEqual(["1,985", "1,985"]);
    expect(numbersIn("1,985 mAh")).not.toContain("1985");
    expect(numbersIn("no figures here")).toEqual([]);
  });

  it("reads values for arithmetic, and refuses ambiguous ones", () => {
    expect(numberValue("4,000")).toBe(4000);
    expect(numberValue("3.5")).toBe(3.5);
    expect(numberValue("3,5")).toBeNaN();
    expect(numberValue("2.10.1")).toBeNaN();
  });
});

describe("derivedBy", () => {
  const premises = ["1,100", "132", "1991", "2020"];
  it("finds a difference, ratio, percentage change or sum of two premise figures, within the rounding shown", () => {
    expect(derivedBy("29", premises)).toMatch(/difference/);
    expect(derivedBy("968", premises)).toMatch(/difference/);
    expect(derivedBy("8.3", premises)).toMatch(/ratio/);
    expect(derivedBy("88", premises)).toMatch(/percentage change/);
    expect(derivedBy("1,232", premises)).toMatch(/sum/);
    expect(derivedBy("4,000", premises)).toBeUndefined();
    expect(derivedBy("88.2", premises)).toBeUndefined();
  });
});

describe("unsupportedTerms", () => {
  it("names the numbers and names of a text that its evidence does not carry", () => {
    expect(unsupportedTerms(SONY, SONY)).toEqual({ numbers: [], names: [] });
    expect(unsupportedTerms("In 1992 Panasonic began selling it.", SONY)).toEqual({
      numbers: ["1992"],
      names: ["Panasonic"],
    });
    expect(unsupportedTerms("It had 1,985 mAh.", "In 1985 it had a capacity.").numbers).toEqual(["1,985"]);
  });
});

describe("sentencesOf", () => {
  it("does not cut after an initial", () => {
    expect(sentencesOf("Navvulata was produced by D. P. Varma on the J. J. Movies banner. It was a hit.")).toEqual([
      "Navvulata was produced by D. P. Varma on the J. J. Movies banner.",
      "It was a hit.",
    ]);
  });

  it("keeps a heading apart from the sentence under it", () => {
    expect(sentencesOf(`# Sony\n\n${SONY} It used a carbon anode.`)).toEqual(["Sony", SONY, "It used a carbon anode."]);
  });
});

describe("stanceOf", () => {
  it.each([
    [
      "a negation",
      "It is false that Sony began selling the first commercial lithium-ion rechargeable battery in 1991.",
    ],
    ["a myth", "That Sony began selling the first commercial lithium-ion rechargeable battery in 1991 is a myth."],
    [
      "a retraction",
      "The article claiming that Sony began selling the first commercial lithium-ion rechargeable battery in 1991 has been retracted.",
    ],
    ["another date", "Sony began selling the first commercial lithium-ion rechargeable battery in 1992."],
    ["a denied date", "Sony began selling the first commercial lithium-ion rechargeable battery, but not in 1991."],
    ["never", "Sony never sold the first commercial lithium-ion rechargeable battery, in 1991 or later."],
  ])("a sentence with %s contradicts the claim", (_, sentence) => {
    expect(stanceOf(sentence, SONY)).toBe("contradicts");
  });

  it("another figure between the same words contradicts; the right one in a correction supports", () => {
    const claim = "The Nevada gigafactory employed 7,000 workers in 2020, making it a large employer.";
    expect(stanceOf("The Nevada gigafactory employed 3,000 workers in 2020, the state says.", claim)).toBe(
      "contradicts",
    );
    expect(stanceOf("The company was founded in 1903, not in 1887.", "The company was founded in 1887.")).toBe(
      "contradicts",
    );
    expect(stanceOf("The company was founded in 1903, not in 1887.", "The company was founded in 1903.")).toBe(
      "supports",
    );
  });

  it("the same statement in other words supports; a negation about something else does not count", () => {
    expect(
      stanceOf("Sony started selling the first commercial lithium-ion rechargeable batteries in 1991.", SONY),
    ).toBe("supports");
    expect(
      stanceOf(
        "Sony did not invent the chemistry, but in 1991 Sony began selling the first commercial lithium-ion rechargeable battery.",
        SONY,
      ),
    ).toBe("supports");
    expect(statesClaim(SONY, SONY)).toBe(true);
  });

  it("a sentence about another named subject neither supports nor contradicts, whatever words it shares", () => {
    const claim =
      "Vivaaha Bhojanambu is a 1988 Telugu comedy film, produced by Jandhyala, Jayakrishna on J. J. Movies banner.";
    expect(
      stanceOf(
        "Navvulata (English: Joke) is a 1998 Telugu comedy film, produced by D. P. Varma on Surya Vamsi Films Pvt Ltd banner.",
        claim,
      ),
    ).toBe("neither");
    const sony = "In 1991 Sony began selling the first commercial lithium-ion rechargeable battery.";
    expect(
      stanceOf("In 1991 Panasonic began selling the first commercial lithium-ion rechargeable battery.", sony),
    ).toBe("neither");
    expect(
      stanceOf("Panasonic did not begin selling the first commercial lithium-ion rechargeable battery in 1991.", sony),
    ).toBe("neither");
    expect(
      stanceOf("Sony did not begin selling the first commercial lithium-ion rechargeable battery in 1991.", sony),
    ).toBe("contradicts");
  });

  it("another figure contradicts only a claim that names what it is about, named in the sentence too", () => {
    expect(
      stanceOf(
        "The Heinkel HD 40 was a special-purpose cargo aircraft developed in Germany in the 1920s to distribute the Berlin newspaper.",
        "The Heinkel HD 39 was a special-purpose cargo aircraft developed in Germany in the 1920s to distribute the Berlin newspaper.",
      ),
    ).toBe("neither");
    expect(
      stanceOf(
        "Part of the division at the 2011 census had a population of 141.",
        "According to the 2011 census it had a population of 6,493.",
      ),
    ).toBe("neither");
    expect(
      stanceOf(
        "The outbreak is infamous for producing a deadly F5 that tore through the suburbs, killing 32 people.",
        "Producing 46 tornadoes, the outbreak killed at least 72 people.",
      ),
    ).toBe("neither");
  });

  it.each([
    [
      "another census's figures",
      "At the 2011 Census this ward had a population of 16,099.",
      "Part of Blennerville electoral division falls within the area of Tralee Town Council, and at the 2011 census had a population of 141.",
    ],
    [
      "a census named only as the frame",
      "According to the 2001 census it had a population of 6,493, increasing to 7,049 at the 2011 Census.",
      "According to 2011 Census of India, West Bengal has over 24.6 million Bengali Muslims, who form 27% of the state's population.",
    ],
    [
      "another season",
      "The 2003–04 NBA season was the 15th season for the Orlando Magic in the National Basketball Association.",
      "The 1997–98 NBA season was the ninth season for the Orlando Magic in the National Basketball Association.",
    ],
    [
      "another season, the other way round",
      "The 1997–98 NBA season was the ninth season for the Orlando Magic in the National Basketball Association.",
      "The 2003–04 NBA season was the 15th season for the Orlando Magic in the National Basketball Association.",
    ],
    [
      "another edition of an event",
      "At the 1929 FIS Nordic World Ski Championships, he won the ski jumping competition while earning a bronze at the 1930 event.",
      "Ruud won a gold medal at the 1938 FIS Nordic World Ski Championships.",
    ],
    [
      "another holder of a title",
      "He became 4th Baron Stafford on the death of his father in 1603",
      "Edward Fitzherbert, 13th Baron Stafford",
    ],
    [
      "another outbreak",
      "The tornado outbreak sequence of May 22–31, 2008 was a series of tornado outbreaks affecting the central plains of the United States since May 22 to May 31 of 2008.",
      "The Tornado outbreak sequence of May 1896 was a series of violent and deadly tornado outbreaks that struck much of the Central and Southern United States from May 15 to May 28, 1896.",
    ],
    [
      "a year of something else",
      'Benton Fraser (born 1962) is a fictional character in the television series "Due South".',
      'He is known for his lead role as Constable Benton Fraser in the television series "Due South" as well as his 2008 war film "Passchendaele", which he wrote, produced, directed, and starred in.',
    ],
    [
      "a team's other years",
      "The 1976 Tampa Bay Buccaneers season was the team’s first in the National Football League.",
      "Mark Dominik (born March 9, 1971) is a former professional football executive and scout for the Kansas City Chiefs and Tampa Bay Buccaneers of the National Football League (NFL) from 1994 to 2013.",
    ],
    [
      "another song on the same chart",
      'The song debuted on the U.S. "Billboard" Hot 100 at 13.',
      'The song debuted on the "Billboard" Hot 100 chart at number 38 on October 27, 2001.',
    ],
    [
      "a function word that frames the figure (since)",
      "Since 1994 (when a full professional football league was established in Indonesia), there have been 3 All-star games (1994, 1995 and 2006).",
      "No All-Star Game MVP was named in 1999 since the game was canceled due to the league's lockout.",
    ],
    [
      "another year's survey (a year that says which one)",
      "In its 2020 survey, BNEF reported an average pack price of 137 US dollars per kilowatt-hour, and estimated that prices had been above 1,100 dollars per kilowatt-hour in 2010.",
      "Survey year: 2022; Average pack price (USD per kWh): 151; Reported in: BNEF 2022 survey; Note: First year-on-year increase since the survey began.",
    ],
  ])("a sentence about another thing neither supports nor contradicts: %s", (_, claim, sentence) => {
    expect(stanceOf(sentence, claim)).toBe("neither");
  });

  it("a year range's short end is a year: the same span in full is no contradiction", () => {
    const claim =
      '"The Jetsons" is an American animated sitcom produced by Hanna-Barbera, originally airing in primetime from 1962–63, then later as part of the weekday/weekend morning programming block called "The Funtastic World of Hanna-Barbera", until 1987.';
    const sentence =
      'The Jetsons is an American animated sitcom produced by Hanna-Barbera, originally airing in primetime from September 23, 1962, to March 17, 1963, then later in syndication, with new episodes in 1985 to 1987 as part of "The Funtastic World of Hanna-Barbera" block.';
    expect(stanceOf(sentence, claim)).not.toBe("contradicts");
    // The same season named in both, with another figure for what it was: a contradiction.
    expect(
      stanceOf(
        "The 2003–04 NBA season was the 16th season for the Orlando Magic in the National Basketball Association.",
        "The 2003–04 NBA season was the 15th season for the Orlando Magic in the National Basketball Association.",
      ),
    ).toBe("contradicts");
    expect(
      stanceOf(
        "Benton Fraser (born 1965) is a fictional character in the television series Due South.",
        'Benton Fraser (born 1962) is a fictional character in the television series "Due South".',
      ),
    ).toBe("contradicts");
    // The same year's survey, another price: a contradiction.
    expect(
      stanceOf(
        "In its 2020 survey, BNEF reported an average pack price of 152 US dollars per kilowatt-hour.",
        "In its 2020 survey, BNEF reported an average pack price of 137 US dollars per kilowatt-hour.",
      ),
    ).toBe("contradicts");
  });

  it("a hedge or a missing figure is neither; a limit narrows", () => {
    expect(
      stanceOf("Sony reportedly began selling the first commercial lithium-ion rechargeable battery in 1991.", SONY),
    ).toBe("neither");
    expect(stanceOf("Sony began selling the first commercial lithium-ion rechargeable battery.", SONY)).toBe("neither");
    expect(
      stanceOf(
        "Sony began selling the first commercial lithium-ion rechargeable battery in 1991, but only in Japan.",
        SONY,
      ),
    ).toBe("narrows");
    expect(stanceOf("Cobalt prices rose in 2022.", SONY)).toBe("neither");
  });

  it("property: a sentence that contradicts a claim never counts as its support", () => {
    const word = fc.constantFrom(
      "Sony",
      "Panasonic",
      "battery",
      "cathode",
      "factory",
      "commercial",
      "lithium",
      "cells",
      "market",
      "energy",
      "anode",
      "produced",
    );
    const year = fc.integer({ min: 1900, max: 2099 });
    const figure = fc.integer({ min: 2, max: 999 }).map((value) => `${value},000`);
    const claimOf = fc.record({ words: fc.array(word, { minLength: 4, maxLength: 8 }), year, figure });
    const denial = fc.constantFrom(
      (text: string) => `It is false that ${text}`,
      (text: string) => `${text} This is a myth.`.replace(". This", " — a myth. This"),
      (text: string) => `The claim that ${text} was retracted.`,
      (text: string) => `It is wrong that ${text}`,
      (text: string) => `Contrary to reports, it is not true that ${text}`,
    );
    fc.assert(
      fc.property(claimOf, denial, fc.integer({ min: 1, max: 150 }), ({ words, year: y, figure: f }, deny, shift) => {
        const claim = `${words.join(" ")} reached ${f} units in ${y}.`;
        // A denial of the claim, and the claim with another year, never support it.
        expect(stanceOf(deny(claim), claim)).not.toBe("supports");
        const otherYear = `${words.join(" ")} reached ${f} units in ${y + shift > 2099 ? y - shift : y + shift}.`;
        expect(stanceOf(otherYear, claim)).not.toBe("supports");
        const otherFigure = `${words.join(" ")} reached ${numberValue(f) / 1000 + shift},000 units in ${y}.`;
        expect(stanceOf(otherFigure, claim)).not.toBe("supports");
      }),
      { numRuns: 300 },
    );
  });
});
