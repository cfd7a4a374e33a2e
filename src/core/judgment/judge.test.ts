/**
 * The judge on small cases of every kind it decides (pure; the real English language: wink-nlp
 * and WordNet), the regressions the lexical stance left behind, and the property that a
 * passage that negates, corrects or gives an incompatible value for a claim never supports it.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { englishLanguage } from "../../adapters/language/english-language.js";
import { createJudge, type Verdict } from "./judge.js";

const judge = createJudge(englishLanguage());
const verdict = (claim: string, passage: string, context: { heading?: string; title?: string } = {}): Verdict =>
  judge.judge(claim, { text: passage, ...context }).verdict;
const neither = (value: Verdict): boolean => value === "partial" || value === "unrelated";

const SONY = "In 1991 Sony began selling the first commercial lithium-ion rechargeable battery.";

describe("the judge", () => {
  it.each([
    [
      "another year, the subject named in the heading",
      "The Harbour Bridge opened to traffic in 1932.",
      "The bridge was inaugurated in 1929.",
      { heading: "Harbour Bridge" },
    ],
    [
      "a negation in the clause that carries the value",
      "The Volta EV has a range of 500 km.",
      "The Volta EV went on sale in 2021. Its advertised range of 500 km was never reached in tests; it managed 310 km.",
    ],
    [
      "another length in other units",
      "The Fjell tunnel is 6.1 km long.",
      "The 2.4-mile Fjell tunnel took six years to dig.",
    ],
    [
      "a correction of the value",
      "The turnout was 41%.",
      "Correction: an earlier version of this article gave the turnout as 41%; it was 14%.",
    ],
    ["a denied value", "The company was founded in 1887.", "The company was founded in 1903, not in 1887."],
    [
      "another count at the same time",
      "The Nevada gigafactory employed 7,000 workers in 2020.",
      "The Nevada gigafactory employed 3,000 workers in 2020, according to the state's labour office.",
    ],
    ["the opposite", "Prices rose in 2022.", "Prices fell in 2022."],
    [
      "a negated superlative",
      "Kingston is the largest city in the province.",
      "Kingston is not the largest city in the province, but it is the oldest.",
    ],
    [
      "a denial",
      SONY,
      "It is false that Sony began selling the first commercial lithium-ion rechargeable battery in 1991.",
    ],
  ] as [string, string, string, { heading?: string }?][])("contradicts: %s", (_, claim, passage, context = {}) => {
    expect(judge.judge(claim, { text: passage, ...context })).toMatchObject({ verdict: "contradicts" });
  });

  it.each([
    [
      "the passive and a clause more",
      "The Harbour Bridge opened to traffic in 1932.",
      "The Harbour Bridge was opened to traffic in 1932, after eight years of work.",
    ],
    ["the same length in miles", "The Fjell tunnel is 4.2 km long.", "The Fjell tunnel is 2.6 miles long."],
    ["a figure without its thousands separator", "The town has 2150 residents.", "The town has 2,150 residents."],
    ["synonyms of the attribute", "The company was founded in 1887.", "The firm was established in 1887."],
    [
      "residents for population",
      "Springfield had a population of 30,720 in 2010.",
      "In 2010, Springfield had 30,720 residents.",
    ],
    [
      "the other clause of a contrast",
      "Kingston is the oldest city in the province.",
      "Kingston is not the largest city in the province, but it is the oldest.",
    ],
    [
      "the value the passage gives after the one it denies",
      "The Volta EV has a range of 310 km.",
      "The Volta EV went on sale in 2021. Its advertised range of 500 km was never reached in tests; it managed 310 km.",
    ],
    [
      "other words and a plural",
      SONY,
      "Sony started selling the first commercial lithium-ion rechargeable batteries in 1991, for its camcorders.",
    ],
    ["a date within the year", "The museum opened in 1904.", "The museum opened its doors on 4 July 1904."],
  ] as const)("supports: %s", (_, claim, passage) => {
    expect(judge.judge(claim, { text: passage })).toMatchObject({ verdict: "supports" });
  });

  it.each([
    ["a hedge", "The drug lowers blood pressure.", "Some studies suggest that the drug lowers blood pressure."],
    ["a forecast", "The plant produces 5 GW.", "The plant will produce 5 GW by 2030."],
    [
      "one of two propositions",
      "The museum opened in 1904 and was rebuilt after a fire.",
      "The museum opened in 1904.",
    ],
  ] as const)("partial: %s", (_, claim, passage) => {
    const judgement = judge.judge(claim, { text: passage });
    expect(judgement.verdict).toBe("partial");
    expect(judgement.reason).not.toMatch(/\b[cs]_\d+/);
  });

  it("another moment is not a contradiction: a population from another year", () => {
    expect(
      verdict("Springfield had a population of 30,720 in 2010.", "Springfield's population was 32,100 in 2020."),
    ).toSatisfy(neither);
  });

  it("says which part is missing and quotes the sentences that decide", () => {
    const judgement = judge.judge("The museum opened in 1904 and was rebuilt after a fire.", {
      text: "The museum is on the square. It opened in 1904.",
      heading: "The city museum",
    });
    expect(judgement.verdict).toBe("partial");
    expect(judgement.missing).toEqual(["was rebuilt after a fire"]);
    expect(judgement.passage.map((span) => span.text)).toEqual(["It opened in 1904."]);
  });

  it.each([
    ["a heading", "Lithium cobalt oxide (LCO)", "Lithium cobalt oxide (LCO) was the first commercial cathode."],
    ["a heading worded as a question", "What a cathode material has to do", "What a cathode material has to do"],
    ["a heading with a colon", "Fast charging: what limits it", "Fast charging: what limits it"],
    ["a question", "How fast can a lithium-ion battery be charged?", "How fast can a lithium-ion battery be charged?"],
  ])("a claim that states nothing is supported by nothing, not even itself: %s", (_, claim, passage) => {
    const judgement = judge.judge(claim, { text: passage });
    expect(judgement.verdict).toBe("unrelated");
    expect(judgement.reason).toMatch(/states nothing/);
  });

  it.each<[string, string, string, Verdict]>([
    [
      "a negation of what another named subject did",
      "1985 Cell with petroleum-coke anode and LiCoO2 cathode; patent filed.",
      "According to accounts Goodenough gave later in life, the University of Oxford was not interested in filing a patent on the discovery.",
      "contradicts",
    ],
    [
      "a heading, whose initials only look like the claim's words",
      "Black mass: The powder produced by shredding and screening spent lithium-ion cells.",
      "What a BMS cannot do",
      "contradicts",
    ],
    [
      "a heading with a negation",
      "Lithium metal anodes can be recharged safely.",
      "Why lithium metal anodes cannot be recharged",
      "contradicts",
    ],
    [
      "a kind of the claim's subject that only modifies another noun",
      "Within the cell, materials dominate.",
      "The precursor and cathode industries are dominated by a relatively small number of companies.",
      "supports",
    ],
    [
      "a noun's far sense (event as a result)",
      "Again, the result could be an internal short circuit.",
      "The Boston event began with an internal short circuit in one cell.",
      "supports",
    ],
  ])("regressions from the example corpus, the wrong verdict refused: %s", (_, claim, passage, wrong) => {
    expect(verdict(claim, passage)).not.toBe(wrong);
  });

  it("a claim whose subject only refers back is neither stated nor denied; the sentence before names it", () => {
    const passage = "Cobalt, the costliest cathode metal, was progressively replaced with nickel.";
    expect(verdict("Both replace most of the cobalt with nickel.", passage)).toSatisfy(neither);
    expect(verdict("It opened in 1904.", "The museum opened in 1904.")).toSatisfy(neither);
    expect(
      verdict(
        "Black mass is a powder made from spent cells. It is the main feedstock for recycling.",
        "Black mass is a powder made from spent cells. Black mass is the main feedstock for recycling.",
      ),
    ).toBe("supports");
  });

  it("a unique description is another thing without its unique word: LFP cells are not the first cells", () => {
    expect(
      verdict(
        "The first cells stored roughly 80 watt-hours per kilogram.",
        "LFP cells sit lower in specific energy, commonly around 160-200 Wh/kg at cell level.",
      ),
    ).not.toBe("contradicts");
    expect(
      verdict("The first cells stored roughly 80 watt-hours per kilogram.", "The first cells stored about 90 Wh/kg."),
    ).toBe("contradicts");
  });

  it("a letter names the thing: cell B's figure is not another value for cell A's", () => {
    expect(verdict("Cell A stores 5 Wh of energy.", "Cell B stores 7 Wh. Cell B is heavier than cell A.")).not.toBe(
      "contradicts",
    );
    expect(verdict("Cell A stores 5 Wh of energy.", "Cell A stores 7 Wh of energy.")).toBe("contradicts");
  });

  it("who a figure is attributed to, or who found it, is not part of it: another figure contradicts", () => {
    expect(
      verdict(
        "In 2019 the Harbour Bridge carried about 160,000 vehicles a day, according to the city's traffic office.",
        "In 2019 the Harbour Bridge carried about 200,000 vehicles a day, the review found.",
      ),
    ).toBe("contradicts");
    expect(
      verdict(
        "In 2019 the Harbour Bridge carried about 160,000 vehicles a day, according to the city's traffic office.",
        "In 2019 the Harbour Bridge carried about 160,000 vehicles a day.",
      ),
    ).toBe("supports");
  });

  it("a list fragment with no predicate is stated by no passage that only names its words", () => {
    const passage = {
      text: "On paper, lithium metal is the ideal negative electrode. Its theoretical specific capacity is about 3,860 mAh/g, more than ten times that of graphite.",
      title: "Dendrites: Why Lithium Metal Anodes Were Abandoned",
    };
    const judgement = judge.judge("A negative electrode of carbon.", passage);
    expect(judgement.verdict).not.toBe("supports");
    expect(judgement.reason).toContain("without saying anything of it");
    // The same words with a predicate are judged as usual.
    expect(judge.judge("Lithium metal is the ideal negative electrode.", passage).verdict).toBe("supports");
  });

  it("a record line is a statement: its cells are checked", () => {
    const row = "Survey year: 2024; Average pack price (USD per kWh): 115; Reported in: BNEF 2024 survey";
    expect(verdict(row, row)).toBe("supports");
  });

  it("gives the same verdict for the same claim and passage, and another where the context differs", () => {
    const claim = "The Harbour Bridge opened to traffic in 1932.";
    const passage = { text: "It was inaugurated in 1929." };
    const alone = judge.judge(claim, passage);
    expect(alone.verdict).not.toBe("contradicts");
    expect(judge.judge(claim, { ...passage })).toEqual(alone);
    expect(judge.judge(claim, { ...passage, heading: "Harbour Bridge" }).verdict).toBe("contradicts");
    expect(judge.judge(claim, { ...passage }).verdict).toBe(alone.verdict);
  });
});

describe("regressions from real sentences (HotpotQA, the example corpus)", () => {
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
    expect(verdict(SONY, sentence)).toBe("contradicts");
  });

  it("another figure between the same words contradicts; the right one in a correction supports", () => {
    const claim = "The Nevada gigafactory employed 7,000 workers in 2020, making it a large employer.";
    expect(verdict(claim, "The Nevada gigafactory employed 3,000 workers in 2020, the state says.")).toBe(
      "contradicts",
    );
    expect(verdict("The company was founded in 1887.", "The company was founded in 1903, not in 1887.")).toBe(
      "contradicts",
    );
    expect(verdict("The company was founded in 1903.", "The company was founded in 1903, not in 1887.")).toBe(
      "supports",
    );
  });

  it("the same statement in other words supports; a negation about something else does not count", () => {
    expect(verdict(SONY, "Sony started selling the first commercial lithium-ion rechargeable batteries in 1991.")).toBe(
      "supports",
    );
    expect(
      verdict(
        SONY,
        "Sony did not invent the chemistry, but in 1991 Sony began selling the first commercial lithium-ion rechargeable battery.",
      ),
    ).toBe("supports");
    expect(verdict(SONY, SONY)).toBe("supports");
  });

  it("a sentence about another named subject neither supports nor contradicts, whatever words it shares", () => {
    const claim =
      "Vivaaha Bhojanambu is a 1988 Telugu comedy film, produced by Jandhyala, Jayakrishna on J. J. Movies banner.";
    expect(
      verdict(
        claim,
        "Navvulata (English: Joke) is a 1998 Telugu comedy film, produced by D. P. Varma on Surya Vamsi Films Pvt Ltd banner.",
      ),
    ).toSatisfy(neither);
    const sony = "In 1991 Sony began selling the first commercial lithium-ion rechargeable battery.";
    expect(
      verdict(sony, "In 1991 Panasonic began selling the first commercial lithium-ion rechargeable battery."),
    ).toSatisfy(neither);
    expect(
      verdict(sony, "Panasonic did not begin selling the first commercial lithium-ion rechargeable battery in 1991."),
    ).toSatisfy(neither);
    expect(
      verdict(sony, "Sony did not begin selling the first commercial lithium-ion rechargeable battery in 1991."),
    ).toBe("contradicts");
  });

  it("another figure contradicts only a claim that names what it is about, named in the sentence too", () => {
    expect(
      verdict(
        "The Heinkel HD 39 was a special-purpose cargo aircraft developed in Germany in the 1920s to distribute the Berlin newspaper.",
        "The Heinkel HD 40 was a special-purpose cargo aircraft developed in Germany in the 1920s to distribute the Berlin newspaper.",
      ),
    ).toSatisfy(neither);
    expect(
      verdict(
        "According to the 2011 census it had a population of 6,493.",
        "Part of the division at the 2011 census had a population of 141.",
      ),
    ).toSatisfy(neither);
    expect(
      verdict(
        "Producing 46 tornadoes, the outbreak killed at least 72 people.",
        "The outbreak is infamous for producing a deadly F5 that tore through the suburbs, killing 32 people.",
      ),
    ).toSatisfy(neither);
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
    expect(verdict(claim, sentence)).toSatisfy(neither);
  });

  it("a year range's short end is a year: the same span in full is no contradiction", () => {
    const claim =
      '"The Jetsons" is an American animated sitcom produced by Hanna-Barbera, originally airing in primetime from 1962–63, then later as part of the weekday/weekend morning programming block called "The Funtastic World of Hanna-Barbera", until 1987.';
    const sentence =
      'The Jetsons is an American animated sitcom produced by Hanna-Barbera, originally airing in primetime from September 23, 1962, to March 17, 1963, then later in syndication, with new episodes in 1985 to 1987 as part of "The Funtastic World of Hanna-Barbera" block.';
    expect(verdict(claim, sentence)).not.toBe("contradicts");
    // The same season named in both, with another figure for what it was: a contradiction.
    expect(
      verdict(
        "The 2003–04 NBA season was the 15th season for the Orlando Magic in the National Basketball Association.",
        "The 2003–04 NBA season was the 16th season for the Orlando Magic in the National Basketball Association.",
      ),
    ).toBe("contradicts");
    expect(
      verdict(
        'Benton Fraser (born 1962) is a fictional character in the television series "Due South".',
        "Benton Fraser (born 1965) is a fictional character in the television series Due South.",
      ),
    ).toBe("contradicts");
    // The same year's survey, another price: a contradiction.
    expect(
      verdict(
        "In its 2020 survey, BNEF reported an average pack price of 137 US dollars per kilowatt-hour.",
        "In its 2020 survey, BNEF reported an average pack price of 152 US dollars per kilowatt-hour.",
      ),
    ).toBe("contradicts");
  });

  it("a hedge or a missing figure is neither; a limit narrows", () => {
    expect(
      verdict(SONY, "Sony reportedly began selling the first commercial lithium-ion rechargeable battery in 1991."),
    ).toSatisfy(neither);
    expect(verdict(SONY, "Sony began selling the first commercial lithium-ion rechargeable battery.")).toSatisfy(
      neither,
    );
    expect(
      verdict(
        SONY,
        "Sony began selling the first commercial lithium-ion rechargeable battery in 1991, but only in Japan.",
      ),
    ).not.toBe("contradicts");
    expect(verdict(SONY, "Cobalt prices rose in 2022.")).toSatisfy(neither);
  });
});

describe("property: what negates, corrects or gives another value never supports", () => {
  const subject = fc.constantFrom("The Orsk dam", "The Harbour Bridge", "Lake Vell station", "The Kiran plant");
  const predicate = fc.constantFrom("opened", "was completed", "was inaugurated", "began operating");
  const year = fc.integer({ min: 1850, max: 2020 });
  const figure = fc.integer({ min: 2, max: 900 });
  it("holds for denials, negations, corrections, other years and other figures", () => {
    fc.assert(
      fc.property(subject, predicate, year, figure, fc.integer({ min: 1, max: 60 }), (who, did, y, f, shift) => {
        const claim = `${who} ${did} in ${y} with ${f},000 workers.`;
        const passages = [
          `It is false that ${who.toLowerCase()} ${did} in ${y} with ${f},000 workers.`,
          `${who} never ${did.replace(/^was /, "was ")} in ${y} with ${f},000 workers.`.replace(
            "never was",
            "was never",
          ),
          `Correction: an earlier version of this article said ${who.toLowerCase()} ${did} in ${y} with ${f},000 workers; it was ${y + shift}.`,
          `${who} ${did} in ${y + shift} with ${f},000 workers.`,
          `${who} ${did} in ${y} with ${f + shift},000 workers.`,
          `${who} ${did} in ${y}, not with ${f},000 workers.`,
          `The claim that ${who.toLowerCase()} ${did} in ${y} with ${f},000 workers has been retracted.`,
        ];
        for (const passage of passages) expect(verdict(claim, passage), passage).not.toBe("supports");
      }),
      { numRuns: 200 },
    );
  });

  it("a sentence supports itself (the judge reads a claim as it reads a passage)", () => {
    fc.assert(
      fc.property(subject, predicate, year, figure, (who, did, y, f) => {
        const claim = `${who} ${did} in ${y} with ${f},000 workers.`;
        expect(verdict(claim, claim)).toBe("supports");
      }),
      { numRuns: 100 },
    );
  });
});

describe("a word of a source is never a key of the judge's tables", () => {
  // The Python reference's "…in 3.10: The SSLContext constructor…" once crashed a run: "constructor" after a figure read as a unit.
  it.each([
    [
      "The context was deprecated in 3.10.",
      "Changed in version 3.10: The SSLContext constructor without protocol is deprecated.",
    ],
    ["It weighs 3 kg.", "It weighs 3 toString and 4 __proto__, then 5 hasOwnProperty and 6 valueOf."],
    ["Prices rose 3 percent.", "Prices rose 3 constructor and 2 prototype."],
  ])("%s / %s", (claim, passage) => {
    expect(() => judge.judge(claim, { text: passage })).not.toThrow();
  });
});
