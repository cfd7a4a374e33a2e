import { describe, expect, it } from "vitest";
import type { Judge } from "../judgment/judge.js";
import { stem } from "../lexicon.js";
import {
  type AnswerSentence,
  answerQuestion,
  bridgeQueries,
  embeddedQuestion,
  sentencesRead,
  unansweredStatement,
} from "./answer.js";
import { askedParts } from "./asked.js";

const sentence = (key: string, text: string, sourceId = key, about?: string): AnswerSentence => ({
  key,
  text,
  sourceId,
  ...(about ? { about } : {}),
});

/** A sentence of a page titled `title`. */
const titled = (key: string, text: string, title: string): AnswerSentence => ({
  key,
  text,
  sourceId: title,
  about: title,
  title,
});

/** A judge that decides nothing and knows the ways of writing the words given (each word else only itself). */
const judgeWith = (mentions: Readonly<Record<string, readonly string[]>>): Judge => ({
  judge: () => ({ verdict: "silent", reason: "" }) as unknown as ReturnType<Judge["judge"]>,
  mentionsOf: (term) => mentions[term] ?? [term],
});

/** Background sentences that make the question's words rare enough to weigh. */
const filler = Array.from({ length: 30 }, (_, index) =>
  sentence(`filler${index}`, `The weather on day ${index} was mild and the river stayed calm.`),
);

describe("askedParts", () => {
  it.each([
    ["Who led the laboratory where LiCoO2 was discovered?", ["person"]],
    ["When did Sony start selling cells?", ["date"]],
    ["How many cells did Sony make in 1991?", ["number"]],
    ["What was the average battery pack price in 2024?", ["number"]],
    ["Why did prices rise in 2022?", ["cause"]],
    ["Which tram station has the most daily riders?", ["superlative"]],
    ["Is LFP cheaper than NMC?", ["yes-no"]],
    // An auxiliary first, but an asking phrase inside: it asks for the year, not yes or no.
    ["Do Lafzon Ki Kahani, is a 2016 Hindi film, it is a remake of Always, released in which year?", ["date"]],
    ["Are both the band which formed in 1990 and Muse British?", ["yes-no"]],
    [
      "Which company recycles the scrap, who founded it, and which route recovers lithium best?",
      ["organisation", "person", "superlative"],
    ],
    ["At which university did he work, and when did he move there?", ["place", "date"]],
  ])("%s asks for %j", (question, kinds) => {
    expect(askedParts(question).map((part) => part.kind)).toEqual(kinds);
  });

  it("takes what a bare part asks from the sentence before the question", () => {
    const parts = askedParts("The head of the laboratory later moved to another university. Which one, and when?");
    expect(parts.map((part) => part.kind)).toEqual(["place", "date"]);
    expect(parts[0]?.terms).toContain("univers");
  });

  it("takes the noun a generic one qualifies as what a part asks for (a cathode, for 'what cathode chemistry')", () => {
    expect(askedParts("What cathode chemistry is in the cells that Panasonic makes?")[0]?.head).toBe(stem("cathode"));
    expect(askedParts("Which chemistry is used in Tesla cells?")[0]?.head).toBeUndefined();
    expect(askedParts("Which university did he join?")[0]?.head).toBe(stem("university"));
  });

  it("pins a part to a year after a preposition, not to one that describes a noun", () => {
    expect(askedParts("Why did prices rise in 2022?")[0]?.pins).toEqual([["2022"]]);
    expect(askedParts("How did costs change from 1980 to 2020?")[0]?.pins).toEqual([["1980", "2020"]]);
    expect(askedParts("Why did Yoshino use coke for his 1985 anode?")[0]?.pins.flat()).not.toContain("1985");
    // A name the part gives pins it too: a sentence about another subject does not answer it.
    expect(askedParts("Why did Yoshino use coke for his 1985 anode?")[0]?.names).toEqual([["yoshino"]]);
    // "From 1945-1949": a range written with a dash pins by either end; a nationality pins nothing.
    expect(askedParts("From 1945-1949 he played for a team based in what state?")[0]?.pins).toEqual([["1945", "1949"]]);
    expect(askedParts("Which English singer recorded it?")[0]?.names).toEqual([]);
  });

  it("says what a part asks of its answer: the words beside a trailing wh-word, not a name's", () => {
    expect(askedParts("Kate Ramsay is a character from a soap opera created by who?")[0]).toMatchObject({
      kind: "person",
      focus: ["creat"],
    });
    expect(
      askedParts("The soundtrack of Natural Born Killers was produced by a man born in what year?")[0]?.focus,
    ).toEqual(["born"]);
    // A relative "who" is not the asking word: the last wh-word is.
    expect(askedParts("Scott Howell is a consultant who has worked with the mayor of what city?")[0]?.focus).toContain(
      "mayor",
    );
  });

  it("finds the names a choice is between, and asks for a place, not a body in it, for a city", () => {
    expect(askedParts("Which band was formed first, The Exies or Circus Diablo?")[0]?.options).toEqual([
      "Exies",
      "Circus Diablo",
    ]);
    expect(askedParts("Toad Hall is in a university located in what Australian city?")[0]).toMatchObject({
      kind: "place",
      geographic: true,
    });
    // A superlative before the asking word describes; it does not make the part a superlative.
    expect(askedParts("The best selling beer brand had an annual output of what in 2011?")[0]?.kind).not.toBe(
      "superlative",
    );
  });

  it("does not split a question after an initial", () => {
    expect(askedParts("Which 1988 comedy produced by D.P. Varma had music by her?")).toHaveLength(1);
  });
});

describe("answerQuestion", () => {
  it("answers across a bridge whose own document gives the answer, citing both sentences", () => {
    const read = [
      ...filler,
      titled(
        "hop",
        "Wonderland by Night was recorded by Engelbert Humperdinck for his 1968 album.",
        "Wonderland by Night",
      ),
      titled("ans", "He has sold more than 150 million records worldwide.", "Engelbert Humperdinck (singer)"),
      titled("other", "The album sold well in Europe.", "A Man Without Love"),
    ];
    const [part] = answerQuestion(
      '"Wonderland by Night" was recorded by a singer who has sold more than how many records worldwide?',
      read,
      read,
    );
    expect(part?.status).toBe("answered");
    expect(part?.uses).toEqual([
      { key: "ans", mark: "150 million", role: "answer" },
      { key: "hop", mark: "Engelbert Humperdinck", role: "bridge" },
    ]);
  });

  it("answers what is asked of something described by a name about it, not with the sentence that names it", () => {
    const read = [
      ...filler,
      titled(
        "game",
        "Chick Chick Boom is an online game created for Easter 2007 and published by Nintendo of Europe.",
        "Chick Chick Boom",
      ),
      titled(
        "systems",
        "Nintendo of Europe unveiled its new systems to the press on October 18, 1985, in London.",
        "Nintendo of Europe",
      ),
    ];
    const question = "On what date did the publisher of Chick Chick Boom unveil its new systems?";
    const [part] = answerQuestion(question, read, read);
    expect(part?.status).toBe("answered");
    expect(part?.uses).toEqual([
      { key: "systems", mark: "October 18, 1985", role: "answer" },
      { key: "game", mark: "Nintendo of Europe", role: "bridge" },
    ]);
    // Asked of the game itself, the sentence about it answers.
    const [own] = answerQuestion("On what date was Chick Chick Boom created?", read, read);
    expect(own?.uses[0]).toMatchObject({ key: "game", role: "answer" });
  });

  it("answers from the first sentence when the one about its bridge only says what the question says of it", () => {
    const read = [
      ...filler,
      titled(
        "album",
        "Hello Friends is a compilation album mixed by Jack Dangers including music produced by Ben Stokes.",
        "Hello Friends",
      ),
      titled("born", "Born in Christchurch, New Zealand, he moved to England at the age of 12.", "Ben Stokes"),
    ];
    const [part] = answerQuestion(
      "Who mixed the compilation album partially produced by a cricketer born in Christchurch, New Zealand?",
      read,
      read,
    );
    expect(part?.status).toBe("answered");
    expect(part?.uses).toEqual([
      { key: "album", mark: "Jack Dangers", role: "answer" },
      // The page about the bridge calls him "he": the bridge is marked only where it is written.
      { key: "born", role: "bridge" },
    ]);
  });

  it("does not cross a bridge into a longer name that holds it, nor answer with the bridge's own name", () => {
    const read = [
      ...filler,
      titled(
        "chain",
        "Little Caesars is the third-largest pizza chain in the United States, behind Pizza Hut.",
        "Little Caesars",
      ),
      titled(
        "election",
        "It was the first election decided under the United States Constitution by the House.",
        "United States presidential election, 1824",
      ),
    ];
    const [part] = answerQuestion(
      "Little Caesars and Pizza Hut were founded within a year of each other. Which was the first to serve pizza?",
      read,
      read,
    );
    expect(part?.uses.map((use) => use.key)).not.toContain("election");
    const stokes = [
      ...filler,
      titled("album", "Hello Friends is a compilation album mixed by Jack Dangers with Ben Stokes.", "Hello Friends"),
      titled("ben", 'Benjamin Andrew "Ben" Stokes (born 1991) is a cricketer born in Christchurch.', "Ben Stokes"),
    ];
    const [mixed] = answerQuestion(
      "Who mixed the compilation album that holds music by a cricketer born in Christchurch?",
      stokes,
      stokes,
    );
    expect(mixed?.uses[0]).toEqual({ key: "album", mark: "Jack Dangers", role: "answer" });
  });

  it("answers a '… by who?' part with the agent written after 'by', not another name in a sentence of its words", () => {
    const read = [
      ...filler,
      titled(
        "kate",
        "The character was created as part of a new family, with her sister Kate (Ashleigh Brewer).",
        "Sophie Ramsay",
      ),
      titled("watson", "Neighbours was created by TV executive Reg Watson for the Seven Network.", "Neighbours"),
      titled("soap", "Kate Ramsay is a character from the Australian soap opera Neighbours.", "Kate Ramsay"),
    ];
    const [part] = answerQuestion("Kate Ramsay is a character from a soap opera created by who?", read, read);
    expect(part?.uses[0]).toEqual({ key: "watson", mark: "Reg Watson", role: "answer" });
    expect(part?.uses.map((use) => use.mark)).not.toContain("Ashleigh Brewer");
  });

  it("answers from the sentence that says what is asked of the answer, not one that only names the subject", () => {
    const read = [
      ...filler,
      titled(
        "kate",
        "Kate Ramsay is a fictional character from the soap opera Neighbours, played by Ashleigh Brewer.",
        "Kate Ramsay",
      ),
      titled("watson", "It was created by TV executive Reg Watson in 1985.", "Neighbours"),
    ];
    const [part] = answerQuestion("Kate Ramsay is a character from a soap opera created by who?", read, read);
    expect(part?.uses[0]).toEqual({ key: "watson", mark: "Reg Watson", role: "answer" });
    expect(part?.uses.map((use) => use.mark)).not.toContain("Ashleigh Brewer");
  });

  it("answers from a sentence whose passage gives the names that pin the part, and not across passages", () => {
    const passage = (key: string, text: string, id: string): AnswerSentence => ({
      ...sentence(key, text, "mali", "Jagdish Mali"),
      title: "Jagdish Mali",
      passage: id,
    });
    const question = "Jagdish Mali, known for portraits of Shabana Azmi, is father to which Bollywood actress?";
    const together = [
      ...filler,
      passage("intro", "Jagdish Mali was an Indian photographer known for his portraits of Shabana Azmi.", "p1"),
      passage("father", "He was the father of Bollywood actress Antara Mali.", "p1"),
    ];
    const [part] = answerQuestion(question, together, together);
    expect(part?.status).toBe("answered");
    expect(part?.uses[0]).toMatchObject({ key: "father", mark: "Antara Mali" });
    // The same sentence in a passage that does not name Shabana Azmi answers another question.
    const apart = [
      ...filler,
      passage("intro", "Jagdish Mali was an Indian photographer known for his portraits of Shabana Azmi.", "p1"),
      passage("father", "He was the father of Bollywood actress Antara Mali.", "p2"),
    ];
    expect(answerQuestion(question, apart, apart)[0]?.uses.map((use) => use.key)).not.toContain("father");
  });

  it("answers a city with a place, not the university the question's subject stands in", () => {
    const read = [
      ...filler,
      titled("hall", "Toad Hall is a residential hall in Australian National University.", "Toad Hall"),
      titled(
        "anu",
        "The Australian National University is a research university located in Canberra, the capital of Australia.",
        "Australian National University",
      ),
    ];
    const [part] = answerQuestion(
      "Toad Hall is a residential hall in a university located in what Australian city?",
      read,
      read,
    );
    expect(part?.uses[0]).toEqual({ key: "anu", mark: "Canberra", role: "answer" });
  });

  it("answers an entry named by its code identifier only from a sentence that writes its name", () => {
    expect(askedParts("In which version was decimal.Context.clear_traps added?")[0]?.identifiers).toEqual([
      "clear_traps",
    ]);
    const others = [
      ...filler,
      sentence("ctrl", "signal.CTRL_C_EVENT: New in version 3.2."),
      sentence("handlers", "class signal.Handlers: New in version 3.5."),
    ];
    const [unsaid] = answerQuestion("In which version was signal.Signals added?", others, others);
    expect(unsaid?.status).not.toBe("answered");
    const read = [
      ...others,
      sentence("signals", "New in version 3.5.", "signals", "Module contents › class signal.Signals"),
    ];
    const [part] = answerQuestion("In which version was signal.Signals added?", read, read);
    expect(part?.uses).toEqual([{ key: "signals", mark: "version 3.5", role: "answer" }]);
    // In its case: the built-in "tuple" is not typing.Tuple.
    const builtin = [
      ...filler,
      sentence("dict", "class typing.TypedDict(dict): Deprecated since version 3.11: a tuple of keys."),
    ];
    expect(answerQuestion("Since which version is typing.Tuple deprecated?", builtin, builtin)[0]?.status).not.toBe(
      "answered",
    );
  });

  it("does not take the word of a name the question gives for what it asks (Born of Natural Born Killers)", () => {
    const question = 'The soundtrack from the film "Natural Born Killers" was produced by a man born in what year?';
    const remix = titled(
      "remix",
      'A remix was included on the soundtrack of the 1994 film "Natural Born Killers".',
      "Burn (Nine Inch Nails song)",
    );
    const read = [...filler, remix];
    expect(answerQuestion(question, read, read)[0]?.uses.map((use) => use.key)).not.toContain("remix");
    const reznor = titled(
      "reznor",
      "Trent Reznor (born May 17, 1965) produced the soundtrack of the film Natural Born Killers.",
      "Trent Reznor",
    );
    const both = [...read, reznor];
    expect(answerQuestion(question, both, both)[0]?.uses[0]).toMatchObject({ key: "reznor", mark: "May 17, 1965" });
  });

  it("answers a when-question with the date of the event its verb names, or a synonym the judge knows", () => {
    const question = "When was the company founded for which Kathi Reinstein resigned to be a lobbyist?";
    const served = titled(
      "served",
      "Kathi Reinstein served in the Massachusetts House of Representatives from 1999 to 2014.",
      "Kathi Reinstein",
    );
    const read = [...filler, served];
    expect(askedParts(question)[0]).toMatchObject({ focus: ["found"], event: "founded" });
    expect(answerQuestion(question, read, read)[0]?.status).not.toBe("answered");
    const brewer = [
      ...read,
      titled("lobby", "She resigned to become a lobbyist for the Boston Beer Company.", "Kathi Reinstein"),
      titled("beer", "The Boston Beer Company was established in 1984 in Boston.", "Boston Beer Company"),
    ];
    const judge = judgeWith({ founded: ["founded", "establish", "set up"] });
    expect(answerQuestion(question, brewer, brewer)[0]?.status).not.toBe("answered");
    expect(answerQuestion(question, brewer, brewer, { judge })[0]?.uses[0]).toMatchObject({
      key: "beer",
      mark: "1984",
    });
  });

  it("dates what a thing became, not any becoming ('when did batteries become commercial')", () => {
    const question = "When did lithium-ion batteries become commercial?";
    expect(askedParts(question)[0]).toMatchObject({ event: "commercial", focus: [stem("commercial")] });
    const read = [
      ...filler,
      sentence("became", "Raw-material prices became a strong influence on lithium-ion battery prices in 2022.", "a"),
      sentence("sold", "In 1991 Sony began selling the first commercial lithium-ion rechargeable battery.", "b"),
    ];
    expect(answerQuestion(question, read, read)[0]?.uses[0]).toMatchObject({ key: "sold", mark: "1991" });
  });

  it("answers a why with a sentence that gives the cause, not across pages by a name, and not with 'in doing so'", () => {
    const question = "Why did Yoshino use petroleum coke rather than graphite for his 1985 anode?";
    expect(askedParts(question)[0]?.refersBack).toBe(false);
    const read = [
      ...filler,
      titled("stayed", "Yoshino stayed with Asahi Kasei for the rest of his career.", "Akira Yoshino"),
      titled(
        "built",
        "In 1985 he built a cell with a petroleum-coke anode, and Asahi Kasei filed for a patent.",
        "Akira Yoshino",
      ),
      titled(
        "doing",
        "Yoshino built the first carbon-anode cell, and in doing so produced the prototype.",
        "Lithium-ion battery",
      ),
    ];
    const uses = answerQuestion(question, read, read)[0]?.uses ?? [];
    expect(uses.map((use) => use.key)).not.toContain("stayed");
    expect(uses.map((use) => use.mark)).not.toContain("so produced the prototype");
    const prices = [
      ...filler,
      titled(
        "survey",
        "Its 2022 survey recorded the first increase, to 151 dollars per kilowatt-hour, as raw material prices soared.",
        "Battery cost",
      ),
    ];
    expect(answerQuestion("Why did battery pack prices rise in 2022?", prices, prices)[0]?.uses[0]).toMatchObject({
      key: "survey",
      mark: "as raw material prices soared",
    });
  });

  it('answers an entry of a group its innermost heading names by prefix ("mmap.MADV_*"), not one under another entry', () => {
    const question = "In which version was mmap.MADV_NOHUGEPAGE added?";
    const under = (key: string, location: string) =>
      sentence(key, "New in version 3.8.", "mmap", `MADV_* Constants › ${location}`);
    const other = [...filler, under("free", "mmap.MADV_FREE_REUSE")];
    expect(answerQuestion(question, other, other)[0]?.status).not.toBe("answered");
    const read = [...other, under("group", "mmap.MADV_*")];
    expect(answerQuestion(question, read, read)[0]?.uses).toEqual([
      { key: "group", mark: "version 3.8", role: "answer" },
    ]);
  });

  it("settles a choice by date between the options the question names, citing both", () => {
    const read = [
      ...filler,
      titled(
        "diablo",
        "Circus Diablo is an American rock band, formed in early 2006 by Billy Morrison.",
        "Circus Diablo",
      ),
      titled("exies", "The Exies were an American rock band from Los Angeles, formed in 1997.", "The Exies"),
    ];
    const [part] = answerQuestion("Which band was formed first, The Exies or Circus Diablo?", read, read);
    expect(part?.uses).toEqual([
      { key: "exies", mark: "Exies", role: "answer" },
      { key: "diablo", mark: "2006", role: "answer" },
    ]);
    // Without a year for one of them, nothing is chosen by date.
    const undated = read.filter((item) => item.key !== "exies");
    const [open] = answerQuestion("Which band was formed first, The Exies or Circus Diablo?", undated, undated);
    expect(open?.uses.map((use) => use.mark)).not.toContain("Exies");
    // A longer name that holds an option names another thing: it gives no year for the option.
    const magazines = [
      ...filler,
      titled("guitar", "Guitar World is a monthly music magazine, published since July 1980.", "Guitar World"),
      titled(
        "students",
        "Science News for Students is an online magazine started in 2003.",
        "Science News for Students",
      ),
    ];
    const [magazine] = answerQuestion(
      "Which magazine was published first, Guitar World or Science News?",
      magazines,
      magazines,
    );
    expect(magazine?.uses.map((use) => use.mark)).not.toContain("Guitar World");
  });

  it("marks the person who answers a who-question, not a name the question already gives", () => {
    const read = [
      ...filler,
      sentence("a", "The laboratory at Oxford that found the cathode was headed by John B. Goodenough."),
      sentence("b", "The Oxford laboratory published many papers on cathode chemistry."),
    ];
    const [part] = answerQuestion("Who headed the Oxford laboratory that found the cathode?", read, read);
    expect(part?.status).toBe("answered");
    expect(part?.uses[0]).toMatchObject({ key: "a", mark: "John B. Goodenough", role: "answer" });
  });

  it("shows both figures where two sources give different ones for the same measure", () => {
    const read = [
      ...filler,
      sentence("x", "The first commercial cells reached around 90 Wh/kg.", "s1"),
      sentence("y", "The first commercial cells stored roughly 80 watt-hours per kilogram.", "s2"),
      sentence("z", "The first commercial cells were sold in 1991 by 3 companies.", "s3"),
    ];
    const [part] = answerQuestion("What was the specific energy of the first commercial cells?", read, read);
    expect(part?.uses.map((use) => use.mark)).toEqual(["90 Wh/kg", "80 watt-hours per kilogram"]);
  });

  it("shows a share written in words beside one in percent, where the second source writes the name by its initials", () => {
    const about = "Cobalt, the Democratic Republic of the Congo and the Battery Supply Chain";
    const read = [
      ...filler,
      sentence(
        "pct",
        "According to figures widely quoted in the late 2010s, the Democratic Republic of the Congo accounted for around 60 percent of world cobalt mine production.",
        "s1",
      ),
      sentence(
        "words",
        "The DRC produced about 170,000 tonnes of the roughly 230,000 tonnes of cobalt mined worldwide in 2023, or about three-quarters of the total.",
        "s2",
        about,
      ),
      sentence("other", "The Democratic Republic of the Congo has a long border with Zambia.", "s3"),
    ];
    const [part] = answerQuestion(
      "How dependent is the cathode industry on the Democratic Republic of the Congo for cobalt?",
      read,
      read,
    );
    expect(part?.uses.map((use) => [use.key, use.mark])).toEqual([
      ["pct", "60 percent"],
      ["words", "three-quarters"],
    ]);
  });

  it("answers a part about 'this episode' from the episode the sentence before names, never with that sentence again", () => {
    const read = [
      ...filler,
      titled(
        "same",
        '"Homer\'s Odyssey" is the third episode of the first season of "The Simpsons".',
        "Homer's Odyssey",
      ),
      titled(
        "other",
        "This episode marks the first appearance of a popular recurring character, Karen McCluskey.",
        "Ice Water",
      ),
      titled("ans", 'Smithers first appeared in the episode "Homer\'s Odyssey" as a recurring character.', "Smithers"),
    ];
    const [part] = answerQuestion(
      'Homer\'s Odyssey is the third episode of the first season of "The Simpsons". What recurring character makes his first appearance in this episode?',
      read,
      read,
    );
    expect(part?.uses.map((use) => use.key)).toEqual(["ans"]);
  });

  it("puts a sentence that writes the cause before a better-scored one that only shares the why-part's words", () => {
    const read = [
      ...filler,
      sentence(
        "memo",
        "The project team recommends lithium iron phosphate (LFP) cells for the stationary storage system, as most new stationary storage systems now use them.",
        "memo",
      ),
      sentence(
        "why",
        "Most new stationary systems use LFP cells because of their cost, safety and long cycle life.",
        "costs",
      ),
    ];
    const [part] = answerQuestion("Why would a stationary storage project choose LFP cells?", read, read);
    expect(part?.uses.map((use) => use.key)).toEqual(["why", "memo"]);
    expect(part?.uses[0]?.mark).toBe("because of their cost, safety and long cycle life");
  });

  it("does not answer with a figure of a sibling of what the question names (sodium-ion for lithium-ion)", () => {
    const read = [
      ...filler,
      sentence("li", "The first commercial lithium-ion cells reached around 90 Wh/kg.", "s1"),
      sentence("na", "The first commercial sodium-ion battery had a specific energy of 160 Wh/kg at cell level.", "s2"),
    ];
    const [part] = answerQuestion("What was the specific energy of the first commercial lithium-ion cell?", read, read);
    expect(part?.uses.map((use) => use.mark)).toEqual(["90 Wh/kg"]);
  });

  it("answers 'why is cobalt a supply concern' only with a sentence about cobalt, not another metal's supply", () => {
    expect(askedParts("Why is cobalt a supply concern for lithium-ion batteries?")[0]?.subject).toBe(stem("cobalt"));
    const read = [
      ...filler,
      // A passage on sodium that mentions cobalt elsewhere: its sentence on lithium's supply is no reason for cobalt's.
      {
        ...sentence(
          "lithium",
          "Interest revived, driven by concern about the cost and supply of lithium batteries.",
          "na",
        ),
        passage: "na.p1",
      },
      { ...sentence("other", "Sodium cells avoid cobalt altogether.", "na"), passage: "na.p1" },
      sentence("cobalt", "Because supply is concentrated, cobalt prices for batteries have been volatile.", "co"),
    ];
    const [part] = answerQuestion("Why is cobalt a supply concern for lithium-ion batteries?", read, read);
    expect(part?.uses.map((use) => use.key)).toEqual(["cobalt"]);
  });

  it("does not say the sources give no count when the subject's own page gives one in words", () => {
    const read = [
      ...filler,
      titled("pro", "He was a two-time Pro Bowl selection.", "Deltha O'Neal"),
      titled("who", "Deltha O'Neal is a former American football cornerback.", "Deltha O'Neal"),
    ];
    const [part] = answerQuestion(
      "How many times was Deltha Lee O'Neal selected for the all-star game of the National Football League?",
      read,
      read,
    );
    expect(part?.status).not.toBe("not-said");
  });

  it("answers with a one-digit figure and its unit", () => {
    const read = [...filler, sentence("a", "Cell A stores 5 Wh of energy.")];
    const [part] = answerQuestion("How much energy does cell A store?", read, read);
    expect(part).toMatchObject({ status: "answered", uses: [{ key: "a", mark: "5 Wh", role: "answer" }] });
  });

  it("says a part is not said when no sentence read carries a figure of what is counted", () => {
    const read = [
      ...filler,
      sentence("x", "Sony began selling the first lithium-ion cells in 1991."),
      sentence("y", "The first Sony cells reached 80 Wh/kg in 1991."),
    ];
    const [part] = answerQuestion("How many lithium-ion cells did Sony make in 1991?", read, read);
    expect(part?.status).toBe("not-said");
  });

  it("answers across two sentences when one names the bridge and the other answers about it", () => {
    const read = [
      ...filler,
      sentence("hop1", "Sony's first commercial cell used a LiCoO2 cathode.", "sony"),
      sentence("hop2", "LiCoO2 was discovered in a laboratory headed by John B. Goodenough.", "oxford"),
      sentence("noise", "Sony's first commercial cell was sold in Japan.", "sony"),
    ];
    const [part] = answerQuestion(
      "Who headed the laboratory where the cathode of Sony's first commercial cell was discovered?",
      read,
      read,
    );
    expect(part?.status).toBe("answered");
    expect(part?.uses).toEqual([
      { key: "hop2", mark: "John B. Goodenough", role: "answer" },
      { key: "hop1", mark: "LiCoO2", role: "bridge" },
    ]);
  });

  it("is unsettled, not 'not said', when a sentence read answers but no finding offered does", () => {
    const read = [...filler, sentence("a", "Redwood Materials was founded in 2017 by JB Straubel.")];
    const [part] = answerQuestion("Who founded Redwood Materials?", [filler[0] as AnswerSentence], read);
    expect(part?.status).toBe("unsettled");
    expect(part?.related).toEqual(["a"]);
  });

  it("needs the noun a what-question asks for: a warranty is not answered by the car's cathode", () => {
    const read = [
      ...filler,
      sentence("a", "The first-generation Nissan Leaf used a cathode based on manganese spinel."),
    ];
    const [part] = answerQuestion("What battery warranty did Nissan offer on the first-generation Leaf?", read, read);
    // Not answered; but the sentence is about the Leaf, so the report does not say the sources are silent.
    expect(part?.status).toBe("unsettled");
    // Asked for a figure ("years or kilometres"), no sentence read gives one: the sources do not say.
    const [figure] = answerQuestion(
      "What battery warranty (years or kilometres) did Nissan offer on the first-generation Leaf?",
      read,
      read,
    );
    expect(figure?.status).toBe("not-said");
  });

  it("picks the highest figure for a superlative", () => {
    const read = [
      ...filler,
      sentence("a", "Station: Central; Daily riders: 1200"),
      sentence("b", "Station: Harbour; Daily riders: 4100"),
      sentence("c", "Station: Museum; Daily riders: 2300"),
    ];
    const [part] = answerQuestion("Which tram station has the most daily riders?", read, read);
    expect(part?.uses).toEqual([{ key: "b", mark: "4100", role: "answer" }]);
  });
});

describe("what the report says of a part it cannot answer", () => {
  const phrasing = {
    verbsOf: (text: string) => new Set(text.toLowerCase().match(/\b(?:make|offer|choose)\b/g) ?? []),
    inflection: {
      past: (verb: string) => ({ make: "made", offer: "offered" })[verb] ?? verb,
      thirdPerson: (verb: string) => `${verb}s`,
    },
  };

  it.each([
    ["How many cells did Sony make in 1991?", "The sources read do not say how many cells Sony made in 1991."],
    [
      "What was the specific energy of the first cell?",
      "The sources read do not say what the specific energy of the first cell was.",
    ],
    [
      "Why would a storage project choose LFP cells?",
      "The sources read do not say why a storage project would choose LFP cells.",
    ],
    ["Who led the laboratory?", "The sources read do not say who led the laboratory."],
  ])("%s", (asked, statement) => {
    expect(unansweredStatement({ asked, status: "not-said" }, phrasing)).toBe(statement);
  });

  it("quotes the question where it cannot be put as a clause", () => {
    expect(embeddedQuestion("Which one?", () => false)).toBeUndefined();
    expect(unansweredStatement({ asked: "Sony, 1991?", status: "not-said" })).toBe(
      "The sources read do not answer this: “Sony, 1991?”",
    );
  });
});

describe("answerQuestion: a why-part", () => {
  it("answers first with the sentence of the best one's passage that writes the cause", () => {
    const of = (key: string, text: string): AnswerSentence => ({
      key,
      text,
      sourceId: "yoshino",
      passage: "yoshino.p5",
      about: "Akira Yoshino and the Carbon Anode › Switching to carbon",
      title: "Akira Yoshino and the Carbon Anode",
    });
    const read = [
      ...filler,
      of(
        "damaged",
        "Ordinary graphite, when used with the propylene-carbonate-based electrolytes of the day, was damaged as solvent molecules forced their way between its layers.",
      ),
      of("built", "In 1985 Yoshino built a cell with a petroleum-coke anode and a lithium cobalt oxide cathode."),
      of("patent", "Asahi Kasei filed for a patent on the design."),
    ];
    const [part] = answerQuestion(
      "Why did Yoshino use petroleum coke rather than graphite for his 1985 anode?",
      read,
      read,
    );
    expect(part?.uses.map((use) => use.key)).toEqual(["damaged", "built"]);
    expect(part?.uses[0]?.mark).toMatch(/^damaged as solvent molecules/u);
  });
});

describe("answerQuestion: a cause of what is asked", () => {
  const question = "What caused the Samsung Galaxy Note 7 battery fires?";
  const note7 = (key: string, text: string, passage: string): AnswerSentence => ({
    ...titled(key, text, "The Galaxy Note 7 recall"),
    passage,
  });
  const deformation = note7(
    "deformation",
    "In the Samsung Galaxy Note 7, the deformation of the battery could damage the separator, creating an internal short circuit that started the fires.",
    "p6",
  );

  it("is a cause of it, not of what the rest of the sentence says, and not what follows from it", () => {
    const read = [
      ...filler,
      deformation,
      note7(
        "believed",
        "Because Samsung believed the Galaxy Note 7 battery fires were confined to one supplier, the replacement phones were fitted with cells from the other.",
        "p2",
      ),
      note7(
        "oxygen",
        "Samsung Galaxy Note 7 battery fires supply their own oxygen from the cathode, so smothering them is of limited use.",
        "p9",
      ),
      note7("launch", "Samsung launched the Galaxy Note 7 in August 2016, and its batteries later caught fire.", "p1"),
    ];
    const [part] = answerQuestion(question, read, read, { strict: true });
    expect(part?.uses[0]).toEqual({
      key: "deformation",
      mark: "could damage the separator, creating an internal short circuit that started the fires",
      role: "answer",
    });
    expect(part?.uses.map((use) => use.key)).not.toContain("believed");
    expect(part?.uses.map((use) => use.key)).not.toContain("oxygen");
  });

  it("is marked by the clause an opening connective starts, not the connective alone", () => {
    const read = [
      ...filler,
      note7(
        "because",
        "Because the separators in the second supplier's Galaxy Note 7 cells were too thin for the welding burrs on their electrodes, the batteries caught fire.",
        "p5",
      ),
    ];
    const [part] = answerQuestion(question, read, read, { strict: true });
    expect(part?.uses[0]?.mark).toBe(
      "Because the separators in the second supplier's Galaxy Note 7 cells were too thin for the welding burrs on their electrodes",
    );
  });

  it("asks 'what happens' of a process, not for a name", () => {
    const [cause, process] = askedParts(
      "What caused the Note 7 fires, and what happens inside a cell after an internal short circuit begins?",
    );
    expect(cause?.nameAsked).toBeUndefined();
    expect(process?.nameAsked).toBeUndefined();
    expect(askedParts("What medal did he win?")[0]?.nameAsked).toBe(true);
  });
});

describe("answerQuestion: a why-part no sentence gives a cause for", () => {
  it("is not answered in a report by sentences that only share its words", () => {
    const read = [
      ...filler,
      sentence("dominant", "Graphite became the dominant anode material in later generations of lithium-ion cells."),
      sentence("standard", "Graphite, the standard lithium-ion anode, does not work well with sodium."),
    ];
    const [part] = answerQuestion("What later allowed graphite to become the standard anode?", read, read, {
      strict: true,
    });
    expect(part?.part.kind).toBe("cause");
    expect(part?.status).not.toBe("answered");
    expect(part?.uses).toEqual([]);
    // What an engine reads on from: the sentences that bear on it best.
    const [guide] = answerQuestion("What later allowed graphite to become the standard anode?", read, read);
    expect(guide?.uses.map((use) => use.key)).toContain("dominant");
  });
});

describe("answerQuestion: a why-part a passage answers", () => {
  const inPassage = (key: string, text: string): AnswerSentence => ({
    key,
    text,
    sourceId: "graphite",
    title: "Graphite anodes",
    about: "Graphite anodes A slow road to graphite",
    passage: "graphite.p05",
  });
  const passage = [
    inPassage("needed", "What was needed was a liquid electrolyte that behaved as well."),
    inPassage("answer", "The answer turned out to be ethylene carbonate (EC)."),
    inPassage(
      "film",
      "In 1990 Fong, von Sacken and Dahn reported that in EC-based electrolytes graphite forms a stable film.",
    ),
    inPassage("standard", "EC-based electrolytes became the industry standard."),
    inPassage("replaced", "Over the 1990s graphite replaced disordered carbons as the dominant anode material."),
  ];

  it("answers with the sentence of a passage that carries the part whole that writes what resolved it, its resolution marked", () => {
    const read = [...filler, ...passage];
    const [part] = answerQuestion("What later allowed graphite to become the standard anode?", read, read, {
      strict: true,
    });
    expect(part?.status).toBe("answered");
    expect(part?.uses[0]).toMatchObject({ key: "answer", mark: "ethylene carbonate (EC)", role: "answer" });
    // With the sentence of its passage that carries most of the part.
    expect(part?.uses[1]?.key).toBe("standard");
  });

  it("does not answer from a passage that carries only some of the part", () => {
    const read = [...filler, ...passage.filter((entry) => entry.key !== "replaced" && entry.key !== "standard")];
    const [part] = answerQuestion("What later allowed graphite to become the standard anode?", read, read, {
      strict: true,
    });
    expect(part?.uses.map((use) => use.key)).not.toContain("answer");
  });
});

describe("answerQuestion: a person the question describes and does not name", () => {
  const question =
    "The head of the Oxford laboratory that discovered lithium cobalt oxide later moved to another university. Which one, when, and which cathode material did his group report there?";
  const oxford = (key: string, text: string): AnswerSentence => ({
    key,
    text,
    sourceId: "oxford",
    title: "Oxford, 1980",
    about: "Oxford, 1980",
    passage: "oxford.p01",
  });
  const read = [
    ...filler,
    oxford(
      "headed",
      "The compound was lithium cobalt oxide, and the laboratory where it was found was the Inorganic Chemistry Laboratory, then headed by John B. Goodenough.",
    ),
    oxford("exxon", "By that time the work on titanium disulfide at Exxon was well known."),
    oxford(
      "thackeray",
      "In 1983 Michael Thackeray, working in John Goodenough's group at Oxford, reported a spinel cathode, before Thackeray moved on to Argonne National Laboratory.",
    ),
    titled(
      "whittingham",
      "Whittingham had moved to Binghamton University in 1988, after his years at Exxon, and built a research group there.",
      "The 2019 Nobel Prize",
    ),
  ];

  it("is not answered by another person's move, whether a body beside the description or an owner's name bridges to it", () => {
    const parts = answerQuestion(question, read, read, { strict: true });
    expect(parts.map((part) => part.status)).toEqual(["unsettled", "unsettled", "unsettled"]);
  });

  it("is answered across the sentence that names the person in the role described", () => {
    const moved = titled(
      "austin",
      "John B. Goodenough moved to the University of Texas at Austin in 1986.",
      "Lithium iron phosphate",
    );
    const parts = answerQuestion(question, [...read, moved], [...read, moved], { strict: true });
    expect(parts[0]?.uses).toEqual([
      { key: "austin", mark: "University of Texas", role: "answer" },
      { key: "headed", mark: "John B. Goodenough", role: "bridge" },
    ]);
    expect(parts[1]?.uses[0]).toMatchObject({ key: "austin", mark: "1986" });
  });
});

describe("answerQuestion: what the sentence before the question says happened", () => {
  const question =
    "The head of the Oxford laboratory that discovered lithium cobalt oxide later moved to another university. Which one, when, and which cathode material did his group report there?";
  // WordNet's mentions of "moved" include "leave" (go away) and "work" (move into or onto).
  const judge = judgeWith({ moved: ["moved", "move", "relocate", "leave", "work"] });
  const headed = titled(
    "headed",
    "The compound was lithium cobalt oxide, and the laboratory where it was found was the Inorganic Chemistry Laboratory, then headed by John B. Goodenough.",
    "Oxford, 1980",
  );
  const left = titled(
    "left",
    "John B. Goodenough left Oxford in 1986 to take up a chair in engineering at the University of Texas at Austin, where he would remain for the rest of his career.",
    "Lithium Iron Phosphate: The Olivine Cathode from Austin",
  );
  const reported = titled(
    "reported",
    "The most important polyanion cathode is lithium iron phosphate, LiFePO4, reported in 1997 from the University of Texas at Austin.",
    "Cathode materials",
  );

  it("is answered by a sentence that says it in other words, across the sentence that names the person", () => {
    const read = [...filler, headed, left, reported];
    expect(askedParts(question)[1]).toMatchObject({ event: "moved", head: stem("university") });
    expect(answerQuestion(question, read, read, { strict: true }).map((part) => part.status)).not.toContain("answered");
    const parts = answerQuestion(question, read, read, { judge, strict: true });
    expect(parts.map((part) => part.uses[0])).toEqual([
      { key: "left", mark: "University of Texas", role: "answer" },
      { key: "left", mark: "1986", role: "answer" },
      { key: "reported", mark: "LiFePO4", role: "answer" },
    ]);
  });

  it("does not answer 'which material' with the sentence that only says where 'there' is", () => {
    const origins = (key: string, text: string): AnswerSentence => ({
      key,
      text,
      sourceId: "olivine",
      title: "Lithium Iron Phosphate: The Olivine Cathode from Austin",
      about: "Lithium Iron Phosphate: The Olivine Cathode from Austin Origins at the University of Texas",
      passage: "olivine.p2",
    });
    const findings = [
      headed,
      origins("left", left.text),
      origins(
        "looked",
        "In Austin he continued to look for cathode materials, and in particular for ones that avoided the cost and supply problems of cobalt.",
      ),
    ];
    // Sentences read that make "group", "report" and "cathode material" common words, as in a real corpus.
    const common = Array.from({ length: 20 }, (_, index) =>
      sentence(`common${index}`, `Group ${index} will report on a cathode material of lithium cobalt oxide.`),
    );
    const read = [...filler, ...common, ...findings];
    const parts = answerQuestion(question, findings, read, { judge, strict: true });
    expect(parts[0]?.status).toBe("answered");
    expect(parts[2]?.status).toBe("unsettled");
  });

  it("is answered from the sentence of a finding that says it, not a date in another of its sentences", () => {
    const asked = "When was John Goodenough transferred to Austin?";
    const synonyms = judgeWith({ transferred: ["transferred", "transfer", "move", "work"] });
    const two = sentence(
      "two",
      "John Goodenough first visited Austin in 1952 for a conference. In Austin he was later working on oxides.",
    );
    expect(
      answerQuestion(asked, [...filler, two], [...filler, two], { judge: synonyms, strict: true })[0]?.status,
    ).not.toBe("answered");
    const one = sentence("one", "John Goodenough was working on oxides in Austin from 1986.");
    expect(
      answerQuestion(asked, [...filler, one], [...filler, one], { judge: synonyms, strict: true })[0]?.uses,
    ).toEqual([{ key: "one", mark: "1986", role: "answer" }]);
  });

  it("searches for the bridge with the words of the sentence before a part that says nothing of its own", () => {
    const read = [...filler, headed];
    expect(bridgeQueries(question, read)).toContain("John B. Goodenough later moved another university");
  });
});

describe("answerQuestion: a role the question describes", () => {
  it("bridges through the person a sentence says holds it ('directed by'), not another person the page names", () => {
    const question = "The director of the film Big Stone Gap is based in what New York city?";
    const read = [
      ...filler,
      titled("stars", "Big Stone Gap is a film that stars Ashley Judd as a pharmacist.", "Big Stone Gap"),
      titled("directed", "Big Stone Gap is a 2014 film written and directed by Adriana Trigiani.", "Big Stone Gap"),
      titled("judd", "Ashley Judd is based in Brooklyn, a borough of New York City.", "Ashley Judd"),
      titled("trigiani", "Adriana Trigiani is based in Greenwich Village, New York City.", "Adriana Trigiani"),
    ];
    const [part] = answerQuestion(question, read, read, { strict: true });
    expect(part?.uses.map((use) => use.key)).toEqual(["trigiani", "directed"]);
  });
});

describe("answerQuestion: a part a name answers, across a bridge", () => {
  it("is not answered by a sentence about the bridge that names nothing of the kind asked", () => {
    const question = "What cathode chemistry is in the cells that Panasonic makes at Tesla's Nevada Gigafactory?";
    const read = [
      ...filler,
      titled(
        "nevada",
        "The announcement of Tesla and Panasonic's Nevada factory in 2014 made the term gigafactory famous, but the largest share of new capacity since then has been built in China.",
        "Tesla, Panasonic and the Nevada Gigafactory",
      ),
      titled(
        "china",
        "LFP has become the dominant chemistry for stationary storage and a large share of electric vehicles, especially in China.",
        "Lithium Iron Phosphate: The Olivine Cathode from Austin",
      ),
    ];
    const [part] = answerQuestion(question, read, read, { strict: true });
    expect(part?.status).not.toBe("answered");
  });
});

describe("askedParts: a name that says what kind of answer is wanted", () => {
  it("is no name the answer must write ('which California city'), unlike the subject of a verb ('in which Jung Joon-young made')", () => {
    const [campus] = askedParts(
      "Steve Johnson is the head coach at a University which also has a second campus in which California city?",
    );
    expect(campus?.names.flat()).not.toContain(stem("california"));
    const [film] = askedParts("Who directed the film in which Jung Joon-young made his big screen debut?");
    expect(film?.names.flat()).toContain(stem("jung"));
  });
});

describe("answerQuestion: a member of a category", () => {
  it("answers 'what position' without the word 'position', marking no name as the position", () => {
    const question = "What position does Sergio Agüero play for Manchester City?";
    expect(askedParts(question)[0]).toMatchObject({ category: true });
    expect(askedParts(question)[0]?.head).toBeUndefined();
    const read = [
      ...filler,
      titled(
        "striker",
        "Sergio Agüero is an Argentine professional footballer who plays as a striker for Manchester City.",
        "Sergio Agüero",
      ),
    ];
    const [part] = answerQuestion(question, read, read, { strict: true });
    expect(part?.status).toBe("answered");
    // "Sergio Agüero" is who plays, not the position.
    expect(part?.uses).toEqual([{ key: "striker", role: "answer" }]);
  });
});

describe("stem", () => {
  it("stems an irregular past form as its verb, and leaves a form that is a word of its own", () => {
    expect(stem("became")).toBe(stem("become"));
    expect(stem("won")).toBe(stem("win"));
    expect(stem("written")).toBe(stem("write"));
    expect(stem("left")).toBe(stem("leave"));
    // "born" asks when someone was born, not what was carried; "founded" stays "found".
    expect(stem("born")).toBe("born");
    expect(stem("founded")).not.toBe(stem("find"));
  });
});

describe("answerQuestion: a superlative with no figure to compare", () => {
  it("answers with the sentence that rates the ranked thing in the direction asked, under the heading that names it", () => {
    const under = (key: string, text: string, heading: string): AnswerSentence => ({
      key,
      text,
      sourceId: "recycling",
      passage: key,
      about: `Recycling Lithium-Ion Batteries › ${heading}`,
      title: "Recycling Lithium-Ion Batteries",
    });
    const read = [
      ...filler,
      sentence(
        "scrap",
        "Scrap from the Nevada plant goes to Redwood Materials, which recovers metals such as nickel, cobalt and lithium.",
      ),
      under(
        "slag",
        "Lithium is not recovered directly and ends up in the slag.",
        "Route one: pyrometallurgy › Weaknesses",
      ),
      under(
        "leach",
        "The metals are recovered as compounds such as nickel sulfate and lithium carbonate.",
        "Route two: hydrometallurgy",
      ),
      under(
        "high",
        "High recovery rates for lithium as well as nickel and cobalt.",
        "Route two: hydrometallurgy › Strengths",
      ),
    ];
    const [part] = answerQuestion("Which recycling route recovers lithium best?", read, read);
    expect(part?.part.head).toBe(stem("route"));
    expect(part?.uses.map((use) => use.key)).toEqual(["high"]);
    // The lowest: the sentence that rates it low.
    const [worst] = answerQuestion("Which recycling route recovers lithium worst?", read, read);
    expect(worst?.uses.map((use) => use.key)).toEqual(["slag"]);
  });
});

describe("sentencesRead", () => {
  it("keeps content only: no question, running footer or heading", () => {
    const read = sentencesRead([
      {
        id: "s1",
        title: "Notes",
        chunks: [
          {
            id: "c1",
            text: "How fast can a cell be charged?\n\nThe cell charges in 15 minutes.\n\nTN-07 (CC BY 4.0) Page 1 of 2\n\nThermal runaway",
          },
        ],
      },
    ]);
    expect(read.map((item) => item.text)).toEqual(["The cell charges in 15 minutes."]);
    expect(read[0]?.passage).toBe("c1");
  });

  it("drops a heading written again as its passage's first line, and a sentence about the document itself", () => {
    const read = sentencesRead([
      {
        id: "s1",
        title: "Recycling Lithium-Ion Batteries: Three Routes",
        chunks: [
          {
            id: "c1",
            text: "Recycling Lithium-Ion Batteries: Three Routes\n\nThis briefing describes the main recycling routes and their strengths.",
          },
          {
            id: "c2",
            section: "Route three: direct recycling",
            text: "Route three: direct recycling\n\nDirect recycling aims to recover the cathode material itself.",
          },
        ],
      },
    ]);
    expect(read.map((item) => item.text)).toEqual(["Direct recycling aims to recover the cathode material itself."]);
  });
});

describe("bridgeQueries", () => {
  it("searches first the bridge beside the figure that pins the part, a quoted title being no person", () => {
    const read = [
      ...filler,
      titled(
        "leland",
        'Films such as "Domestic Disturbance" (2001), "Maximum Overdrive" (1986) and "We\'re the Millers" (2013) were shot in or around Leland.',
        "Leland, North Carolina",
      ),
    ];
    const [first] = bridgeQueries("Who directed the film that was shot in or around Leland in 1986?", read);
    expect(first).toMatch(/^Maximum Overdrive\b/u);
  });

  it("does not take the question's own subject, written longer, or a roman numeral for a bridge", () => {
    const read = [
      ...filler,
      titled(
        "howell",
        "Herbert Weston Scott Howell III is an American political consultant whose clients include Rudy Giuliani.",
        "Scott Howell",
      ),
    ];
    expect(bridgeQueries("Scott Howell is a consultant who has worked with the mayor of what city?", read)).toEqual([
      "Rudy Giuliani city mayor worked",
    ]);
  });

  it("searches first the bridge beside the question's verb, not one beside a word of a name it gives", () => {
    const read = [
      ...filler,
      titled(
        "soundtrack",
        'Natural Born Killers: A Soundtrack for an Oliver Stone Film is the soundtrack to the film "Natural Born Killers", produced by Trent Reznor of Nine Inch Nails.',
        "Natural Born Killers (soundtrack)",
      ),
    ];
    const [first] = bridgeQueries(
      'The soundtrack from the film "Natural Born Killers" was produced by a man born in what year?',
      read,
    );
    expect(first).toMatch(/^Trent Reznor\b/u);
  });

  it("does not take the question's subject written with other names of it for a bridge", () => {
    const read = [
      ...filler,
      titled(
        "saxby",
        "Kerry-Anne Saxby-Junna, born Kerry Saxby AM, is a retired race walker who was born in Young, New South Wales.",
        "Kerry Saxby-Junna",
      ),
    ];
    const [first] = bridgeQueries("What was the population of the city where Kerry Saxby-Junna was born?", read);
    expect(first).toMatch(/^Young\b/u);
  });

  it("takes a bridge that writes a nationality the question gives", () => {
    const read = [
      ...filler,
      titled("toad", "Toad Hall is a residential hall of the Australian National University.", "Toad Hall"),
    ];
    const [first] = bridgeQueries(
      "Toad Hall is a residential hall in a university located in what Australian city?",
      read,
    );
    expect(first).toMatch(/^Australian National University\b/u);
  });

  it("does not take a sentence without the span the part gives for its answer, and searches the bridge with the words nearest the asking word", () => {
    const question =
      "The Curse of the Jade Scorpion is a 2001 crime comedy film featuring an American actress who starred in what for seven years?";
    expect(askedParts(question)[0]?.pins).toEqual([["seven", "7"]]);
    const read = [
      ...filler,
      titled(
        "jade",
        "The Curse of the Jade Scorpion is a 2001 crime comedy film written, directed and starring Woody Allen.",
        "The Curse of the Jade Scorpion",
      ),
    ];
    expect(answerQuestion(question, read, read)[0]?.status).not.toBe("answered");
    expect(bridgeQueries(question, read)[0]).toBe("Woody Allen seven years actress American");
  });

  it("takes the bridges of a sentence in the order it gives them", () => {
    const read = [
      ...filler,
      titled(
        "twf",
        "It aired on Cartoon Network in the United States, YTV in Canada, and BBC One in the United Kingdom.",
        "Thumb Wrestling Federation",
      ),
    ];
    const [first] = bridgeQueries("Thumb Wrestling Federation aired on a network founded by who?", read);
    expect(first).toMatch(/^Cartoon Network\b/u);
  });
});
