/**
 * Issue 43 (point 4): what may become a finding is decided once, at extraction, for every
 * format: never a question, a running header or footer, a page number, a heading or a list
 * fragment with no predicate.
 */
import { describe, expect, it } from "vitest";
import { isContent } from "../../../core/judgment/statement.js";

describe("only content becomes a finding", () => {
  it.each([
    ["a question", "How fast can a lithium-ion battery be charged?", false],
    ["a PDF's running footer", "Technical Note TN-07 Thermal runaway (CC BY 4.0) Page 1 of 2", false],
    ["a page number", "12", false],
    ["a heading", "Lithium cobalt oxide (LCO)", false],
    ["a heading worded as a question", "What a cathode material has to do", false],
    [
      "a list fragment with no predicate",
      "Yoshio Nishi, who led the development at Sony that brought the first lithium-ion battery to market in 1991.",
      false,
    ],
  ])("not %s", (_, text, expected) => {
    expect(isContent(text, true)).toBe(expected);
  });

  it.each([
    ["the document's title", "Charging Lithium-Ion Batteries: C-Rates, CC-CV and the Limits of Fast Charging"],
    ["a heading its passage stands under", "Route three: direct recycling"],
    ["a sentence about the document itself", "This article introduces the C-rate and the limits of fast charging."],
  ])("not %s, written again as a line of its passage", (_, text) => {
    const headings = [
      "Charging Lithium-Ion Batteries: C-Rates, CC-CV and the Limits of Fast Charging",
      "Routes › Route three: direct recycling",
    ];
    expect(isContent(text, false, headings)).toBe(false);
    // Without the headings it would pass as a statement: the headings decide.
    if (!text.startsWith("This")) expect(isContent(text, false)).toBe(true);
  });

  it.each([
    ["a sentence", "In 1991 Sony began selling the first commercial lithium-ion rechargeable battery."],
    ["a sentence with a relative clause", "Nishi, who led the work, named the battery in 1991."],
    ["a table row with its headers", "Survey year: 2024; Average pack price (USD per kWh): 115"],
    ["a short statement", "Hesby has 2150 residents."],
  ])("but %s", (_, text) => {
    expect(isContent(text, false)).toBe(true);
  });
});
