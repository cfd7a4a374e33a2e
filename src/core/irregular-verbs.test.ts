/** The stemmer's table of irregular verbs is the one its script generates from compromise. */
import { describe, expect, it } from "vitest";
import { irregularVerbTable } from "../../scripts/make-irregular-verbs.mjs";
import { IRREGULAR_VERBS } from "./irregular-verbs.js";

describe("IRREGULAR_VERBS", () => {
  it("is what scripts/make-irregular-verbs.mjs generates (run it after changing the script or compromise)", () => {
    expect([...IRREGULAR_VERBS]).toEqual(irregularVerbTable());
  });
});
