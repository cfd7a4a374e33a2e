import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { chunkContent } from "./chunking.js";
import { isMetadataLine, metadataMeaning } from "./doc-metadata.js";

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

describe("documentation metadata lines", () => {
  it("recognises the lines reference pages write under an entry, and nothing else", () => {
    for (const line of [
      "New in version 3.5.",
      "Deprecated since version 3.4: use loads() instead.",
      "Changed in version 3.2: Allow strings for indent in addition to integers.",
      "Added in: v0.1.90",
      "Since 2.1",
      "Default: 30 seconds",
      "Availability: Unix, not Emscripten, not WASI.",
    ])
      expect(isMetadataLine(line), line).toBe(true);
    for (const line of [
      "New cells were added in 1991 by the team.",
      "Since the factories grew, prices fell.",
      "The default encoding is UTF-8 on every platform, whatever the locale says.",
      `New in version 3.5. ${"More text. ".repeat(30)}`,
    ])
      expect(isMetadataLine(line), line).toBe(false);
  });

  it("says what a line means in a question's words", () => {
    expect(metadataMeaning("New in version 3.5.")).toContain("added");
    expect(metadataMeaning("Since v2.1")).toContain("added");
    expect(metadataMeaning("Deprecated since version 3.4: use loads().")).toBe("deprecated");
    expect(metadataMeaning("Changed in version 3.6: keyword-only.")).toBe("changed");
    expect(metadataMeaning("New cells were added in 1991.")).toBe("");
  });

  it("keeps a metadata line with the passage before it in its section, past the short-piece rule", () => {
    const description =
      `Serialize obj to a JSON formatted str. ${"The arguments have the same meaning as in dump(). ".repeat(8)}`.trim();
    const content = `json.dumps(obj)\n\n${description}\n\nNew in version 3.5.\n\nNext entry\n\nIts text.`;
    const chunks = chunkContent(content, {
      maxChars: 1_200,
      sections: [
        { start: 0, location: "Basic Usage › json.dumps(obj)" },
        { start: content.indexOf("Next entry"), location: "Basic Usage › Next entry" },
      ],
    });
    expect(chunks[0]?.text.endsWith("New in version 3.5.")).toBe(true);
    expect(chunks[0]?.location).toBe("Basic Usage › json.dumps(obj)");
    expect(chunks[1]?.text.startsWith("Next entry")).toBe(true);
  });
});
