import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { chunkContent } from "./chunking.js";

describe("chunkContent", () => {
  it("splits on blank lines and keeps exact offsets", () => {
    const content = "Title\n\nFirst paragraph here.\n\n  Second one.  \n";
    const chunks = chunkContent(content, { maxChars: 30 });
    // The short heading joins the paragraph after it; the next paragraph starts a new chunk.
    expect(chunks.map((chunk) => chunk.text)).toEqual(["Title\n\nFirst paragraph here.", "Second one."]);
    expect(chunks.map((chunk) => [chunk.start, chunk.end])).toEqual([
      [0, 28],
      [32, 43],
    ]);
  });

  it("cuts a long paragraph at sentence ends", () => {
    const sentence = "Lithium ions move between the electrodes during charge. ";
    const content = sentence.repeat(50).trim();
    const chunks = chunkContent(content, { maxChars: 300 });
    expect(chunks.length).toBeGreaterThan(5);
    for (const chunk of chunks) {
      expect(chunk.text.length).toBeLessThanOrEqual(300);
      expect(chunk.text.endsWith(".")).toBe(true);
    }
  });

  it("numbers chunks 1..n and returns none for blank content", () => {
    expect(chunkContent("  \n\n \n")).toEqual([]);
    const chunks = chunkContent("a\n\nb\n\nc", { maxChars: 1 });
    expect(chunks.map((chunk) => chunk.seq)).toEqual([1, 2, 3]);
  });

  it("property: every chunk is an exact, ordered, non-overlapping, bounded slice covering all text", () => {
    const text = fc.string({
      unit: fc.constantFrom("a", "b", " ", ".", "\n", "\n\n", "word ", "Sentence. "),
      maxLength: 400,
    });
    fc.assert(
      fc.property(text, fc.integer({ min: 20, max: 200 }), (content, maxChars) => {
        const chunks = chunkContent(content, { maxChars });
        let previousEnd = 0;
        for (const chunk of chunks) {
          expect(chunk.text).toBe(content.slice(chunk.start, chunk.end));
          expect(chunk.start).toBeGreaterThanOrEqual(previousEnd);
          expect(chunk.text.length).toBeLessThanOrEqual(maxChars);
          expect(chunk.text.trim()).toBe(chunk.text);
          previousEnd = chunk.end;
        }
        const covered = chunks
          .map((chunk) => chunk.text)
          .join("")
          .replace(/\s+/g, "");
        expect(covered).toBe(content.replace(/\s+/g, ""));
      }),
    );
  });
});
