import { describe, expect, it } from "vitest";
import { derivedBy, numbersIn, numberValue, sentencesOf, unsupportedTerms } from "./statements.js";

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
