/**
 * Issue 42, end to end as `assay run` runs (in this process; a sample through the binary in judgment-contradictions) with the investigative offline engine: a claim that
 * a second source only hedges, forecasts, reports from one origin (a copy, a wire story, a
 * release and its rewrite, "as the Gazette reported", a mirror) or states only in part is never
 * shown verified (what both do state may be); a word written in other words is not a gap; a
 * superscript is not read as digits.
 */
import { describe, expect, it } from "vitest";
import { ADVERSARIAL_CASES } from "../../testing/adversarial-corpora.js";
import { runAdversarialCase } from "../../testing/adversarial-run.js";

const CASES = ADVERSARIAL_CASES.filter((item) =>
  ["hedge", "one-origin", "partial", "gap", "superscript"].includes(item.category),
);

describe("investigative: support that is not support", () => {
  it.each(CASES.map((item) => [`${item.category}: ${item.id}`, item] as const))(
    "%s",
    async (_, item) => {
      const outcome = await runAdversarialCase(item, "investigative");
      expect(outcome.wronglyVerified).toEqual([]);
      expect(outcome.falseGaps).toEqual([]);
      expect(outcome.problems).toEqual([]);
    },
    60_000,
  );
});
