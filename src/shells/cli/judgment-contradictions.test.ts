/**
 * Issue 42, end to end as `assay run` runs (its request and runtime in this process; a sample
 * through the built binary) on the adversarial corpora: a claim that another
 * source read contradicts (in other words, another unit, a later correction, a retraction, a
 * table row, a sentence that shares the claim's number) is never shown verified, and every
 * strategy publishes it contested with the other side quoted, both sides marked.
 */
import { describe, expect, it } from "vitest";
import { ADVERSARIAL_CASES } from "../../testing/adversarial-corpora.js";
import { runAdversarialCase } from "../../testing/adversarial-run.js";

const CASES = ADVERSARIAL_CASES.filter(
  (item) => item.category === "contradiction" || item.category === "contradicting-support",
);

describe.each([
  "investigative",
  "pipeline",
] as const)("%s: contradictions read are shown, never verified", (strategy) => {
  it.each(CASES.map((item) => [item.id, item] as const))(
    "%s",
    async (_, item) => {
      const outcome = await runAdversarialCase(item, strategy);
      expect(outcome.wronglyVerified).toEqual([]);
      expect(outcome.contested, outcome.problems.join("\n")).toBe(true);
      expect(outcome.problems).toEqual([]);
    },
    60_000,
  );
});

/** The same outcome through the built binary, as a user runs it: one case of each kind. */
describe("through the assay binary", () => {
  const sample = ["contradiction", "contradicting-support", "hedge", "one-origin", "control", "superscript"].flatMap(
    (category) => ADVERSARIAL_CASES.filter((item) => item.category === category).slice(0, 1),
  );
  it.each(sample.map((item) => [item.id, item] as const))(
    "%s",
    async (_, item) => {
      const outcome = await runAdversarialCase(item, "investigative", "process");
      expect(outcome.problems).toEqual([]);
      if (item.against) expect(outcome.contested).toBe(true);
      if (item.expect === "verified") expect(outcome.verified).toBe(true);
    },
    60_000,
  );
});
