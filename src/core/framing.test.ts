import { describe, expect, it } from "vitest";
import { coreQueryIndex } from "./framing.js";

describe("coreQueryIndex: the planned query that searches what a framed request holds", () => {
  const framed =
    "Is the following claim supported or contradicted by the literature: Folate deficiency raises homocysteine.";

  it("finds the core wherever the planner put it, word for word or in another case and punctuation", () => {
    expect(coreQueryIndex(framed, ["homocysteine levels", "Folate deficiency raises homocysteine."])).toBe(1);
    expect(coreQueryIndex(framed, ["folate DEFICIENCY raises homocysteine"])).toBe(0);
  });

  it("takes the core's leading words where a length limit cut it, but not a fragment of it", () => {
    expect(coreQueryIndex(framed, ["Folate deficiency raises"])).toBe(0);
    expect(coreQueryIndex(framed, ["Folate deficiency"])).toBe(-1);
    expect(coreQueryIndex(framed, ["deficiency raises homocysteine"])).toBe(-1);
  });

  it("finds none for a request without a frame, even when a query repeats it", () => {
    const plain = "Folate deficiency raises homocysteine.";
    expect(coreQueryIndex(plain, [plain, "folate"])).toBe(-1);
  });
});
