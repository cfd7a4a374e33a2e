import { describe, expect, it } from "vitest";
import { markedText, sourceViewBody } from "./source-view.js";

describe("the source view", () => {
  it("marks the quoted spans of a passage, merged and clipped to it, every text escaped", () => {
    // The passage starts at offset 100 of the stored text.
    const text = "<b>Sony</b> sold cells in 1991 & later.";
    const html = markedText(text, 100, [
      { start: 111, end: 122 },
      { start: 118, end: 130 },
      { start: 0, end: 5 },
      { start: 138, end: 400 },
    ]);
    expect(html).toBe("&lt;b&gt;Sony&lt;/b&gt;<mark> sold cells in 1991</mark> &amp; later<mark>.</mark>");
  });

  it("names each passage, marks those the report quotes, and escapes the source's title", () => {
    const body = sourceViewBody(
      {
        id: "s_001",
        number: 2,
        title: "Cells <script>alert(1)</script>",
        url: "javascript:alert(1)",
        capturedAt: "2026-12-01T10:00:00.000Z",
      },
      [
        { seq: 1, start: 0, text: "First passage." },
        { seq: 2, start: 20, text: "Second passage, quoted." },
      ],
      [{ start: 20, end: 34 }],
      "/runs/7/report",
    );
    expect(body).not.toContain("<script>");
    expect(body).not.toContain('href="javascript:');
    expect(body).toContain('<section class="passage" id="passage-1"');
    expect(body).toContain('<section class="passage quoted" id="passage-2"');
    expect(body).toContain("<mark>Second passage</mark>, quoted.");
    expect(body).toContain('href="/runs/7/report#source-2"');
  });
});
