import { describe, expect, it } from "vitest";
import { unframed } from "../../../core/framing.js";
import { planQueries } from "./query-expansion.js";
import { profileRequest } from "./request.js";

describe("unframed", () => {
  it("takes what a frame holds: a lead-in of framing words before a colon, or an opener", () => {
    expect(
      unframed(
        "Is the following claim supported or contradicted by the literature: 1 in 5 million in UK have abnormal PrP positivity.",
      ),
    ).toBe("1 in 5 million in UK have abnormal PrP positivity.");
    expect(unframed("Tell me about the Nevada Gigafactory")).toBe("the Nevada Gigafactory");
    expect(unframed("I'd like to know whether Sony sold the first lithium-ion battery")).toBe(
      "Sony sold the first lithium-ion battery",
    );
    expect(unframed("Can you tell me who led the Oxford laboratory?")).toBe("who led the Oxford laboratory?");
    expect(unframed("Is it true that cobalt is mined in Congo?")).toBe("cobalt is mined in Congo?");
  });

  it("leaves a request without a frame as it is, and a colon whose lead-in says something", () => {
    expect(unframed("Who built the first cell with a carbon anode?")).toBe(
      "Who built the first cell with a carbon anode?",
    );
    expect(unframed("Lithium-ion costs: how did they change after 2010?")).toBe(
      "Lithium-ion costs: how did they change after 2010?",
    );
    expect(unframed("If a cell is charged too fast, what happens?")).toBe(
      "If a cell is charged too fast, what happens?",
    );
    // All frame: kept whole rather than emptied.
    expect(unframed("Tell me")).toBe("Tell me");
  });

  it("keeps the frame out of the expansions and the profile, and searches the framed claim on its own", () => {
    const request =
      "Is the following claim supported or contradicted by the literature: Chronic aerobic exercise lowers resting blood pressure.";
    const profile = profileRequest(request);
    expect(profile.question).toBe(request);
    expect(profile.words.map((word) => word.toLowerCase())).not.toEqual(expect.arrayContaining(["claim"]));
    const queries = planQueries(request, [], { maxQueries: 5, maxQueryChars: 300 });
    expect(queries[0]).toBe("Chronic aerobic exercise lowers resting blood pressure.");
    for (const query of queries)
      expect(query.toLowerCase()).not.toMatch(/\b(claim|literature|contradicted|supported)\b/);
  });
});
