/**
 * The offline engine on a broad question of the example corpus, in both strategies that use it
 * for findings (issue 20): the report quotes the figure of the change it asks about (with the
 * sentence that figure's "It" refers to), the figures at the question's end year, and a reason
 * for the change from the section that gives the reasons, and never a sentence that points back alone.
 */
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { pointsBack } from "../../adapters/models/offline/sentence-extraction.js";
import { EXAMPLE_CORPUS, runCli } from "../../testing/cli.js";
import { publishedReport } from "../../testing/read-report.js";
import { tempDir } from "../../testing/temp-dir.js";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

const COSTS = "How did lithium-ion battery costs change between 1991 and 2020, and why?";

describe("the offline engine on a broad question", () => {
  it.each([
    "pipeline",
    "investigative",
  ])("%s: quotes the fall, the 2020 pack price and a reason for the decline, and no pronoun alone", async (strategy) => {
    const dir = tempDir("assay-offline-answers-");
    cleanups.push(dir.cleanup);
    const out = join(dir.path, "report");
    const result = await runCli(["run", COSTS, "--corpus", EXAMPLE_CORPUS, "--strategy", strategy, "--out", out], {
      home: dir.path,
      // A whole research: the limits only catch a run that hangs, never a slow one on a busy machine.
      timeoutMs: 240_000,
    });
    expect(result.code, result.stderr).toBe(0);
    const parsed = publishedReport(join(out, "report.json"));
    const findings = [...parsed.directFindings, ...parsed.findings].map((finding) => finding.text);
    const fall = findings.find((text) => text.includes("fallen by about 97 percent"));
    // "It found that … 97 percent" is quoted with the sentence that says what "it" is.
    expect(fall, findings.join("\n")).toMatch(/^A study by Micah Ziegler and Jessika Trancik .* It found that/);
    // The end year's figures: the pack price in 2020 and where it stood in 2010.
    expect(findings.join("\n")).toContain(
      "In its 2020 survey, BNEF reported an average pack price of 137 US dollars per kilowatt-hour, and estimated that prices had been above 1,100 dollars per kilowatt-hour in 2010",
    );
    // A reason: a sentence that states a cause of a fall in cost or price (not of the 2022 rise).
    const reason = findings.find(
      (text) =>
        /\b(?:because|explains|drove|driven by|led to|as a result)\b/i.test(text) &&
        /\b(?:lowers|fell|fall|declined?|cheaper|reduced?)\b[^.]*\b(?:costs?|prices?)\b|\b(?:costs?|prices?)\b[^.]*\b(?:fell|fall|declined?)\b/i.test(
          text,
        ),
    );
    expect(reason, findings.join("\n")).toBeDefined();
    for (const text of findings) expect(pointsBack(text), text).toBe(false);
  }, 250_000);
});
