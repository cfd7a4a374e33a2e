/**
 * Issue 42, end to end as `assay run` runs (in this process; a sample through the binary in judgment-contradictions): controls, where two independent sources state a
 * claim in other words (units, number formats, synonyms, the passive, "not the largest X, but
 * …", a figure of another year beside them). The investigative strategy verifies at least 90%
 * of them; no strategy marks one contested; no report invents a gap.
 */
import { afterAll, describe, expect, it } from "vitest";
import { ADVERSARIAL_CASES } from "../../testing/adversarial-corpora.js";
import { type CaseOutcome, runAdversarialCase } from "../../testing/adversarial-run.js";

const CONTROLS = ADVERSARIAL_CASES.filter((item) => item.category === "control");

describe("investigative: controls stated by two independent sources", () => {
  const outcomes: CaseOutcome[] = [];
  it.each(CONTROLS.map((item) => [item.id, item] as const))(
    "%s",
    async (_, item) => {
      const outcome = await runAdversarialCase(item, "investigative");
      outcomes.push(outcome);
      // Not contested, no false gap; whether it is verified is counted below.
      expect(outcome.problems.filter((problem) => !problem.startsWith("the control is not verified"))).toEqual([]);
    },
    60_000,
  );

  afterAll(() => {
    if (outcomes.length < CONTROLS.length) return;
    const verified = outcomes.filter((outcome) => outcome.verified).length;
    expect(verified, `verified ${verified} of ${CONTROLS.length}`).toBeGreaterThanOrEqual(
      Math.ceil(CONTROLS.length * 0.9),
    );
  });
});

describe("pipeline: controls are not marked contested", () => {
  it.each(CONTROLS.map((item) => [item.id, item] as const))(
    "%s",
    async (_, item) => {
      const outcome = await runAdversarialCase(item, "pipeline");
      expect(outcome.problems).toEqual([]);
    },
    60_000,
  );
});
