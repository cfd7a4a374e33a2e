import { describe, expect, it } from "vitest";
import { chunkContent } from "../../../core/chunking.js";
import { chunkId } from "../../../core/ids.js";
import type { PacketSource } from "../../../ports/model.js";
import { feedbackNames } from "./query-expansion.js";
import { profileRequest } from "./request.js";

function packet(id: string, title: string, text: string): PacketSource {
  return {
    id,
    title,
    location: `${id}.md`,
    chunks: chunkContent(text).map((chunk) => ({ id: chunkId(id, chunk.seq), text: chunk.text })),
  };
}

describe("feedbackNames", () => {
  it("takes section labels written in capitals off the names they run into, and keeps acronyms", () => {
    const abstract = packet(
      "s_001",
      "Weight loss surgery and cancer",
      "IMPORTANCE Bariatric surgery is associated with weight loss and lower cancer rates in obese adults. " +
        "OBJECTIVE To determine whether the surgery reduces cancer, we followed 8,000 patients. " +
        "RESULTS Patients treated at the Karolinska Institute had fewer cancers (HR 0.6), and KLF4 expression " +
        "fell in those whose cancer rates were lowest. CONCLUSIONS AND RELEVANCE Surgery lowered cancer rates; " +
        "the importance of these results for the objective of screening is discussed.",
    );
    const names = feedbackNames(profileRequest("Does bariatric surgery reduce cancer rates?"), [abstract]).map(
      (feedback) => feedback.name,
    );
    for (const name of names) expect(name).not.toMatch(/IMPORTANCE|OBJECTIVE|RESULTS|CONCLUSIONS|RELEVANCE/);
    expect(names).toContain("Karolinska Institute");
    expect(names).toContain("KLF4");
  });
});
