/**
 * Only content becomes a finding, in every format (issue 43): the text a PDF, a Word memo, a
 * slide deck and a web page of the example corpus give, split into the sentences a finding or
 * an answer may quote (`sentencesRead`, the one content rule), holds no running header or
 * footer, page number, title line, question or list fragment with no predicate.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sentencesRead } from "../../core/answer/answer.js";
import { chunkContent } from "../../core/chunking.js";
import { EXAMPLE_CORPUS } from "../../testing/cli.js";
import { extractFile } from "./extract-by-type.js";

/** What no quoted sentence may be: a page's furniture, a question, a fragment. */
const NOT_CONTENT: readonly [string, RegExp][] = [
  ["a page number or running footer", /\bpage \d+ of \d+\b|\(cc[ -]by/iu],
  ["a question", /\?["”’)]?$/u],
  ["a name and a relative clause with no predicate", /^[^,]{1,40}, who\b[^.]*$/u],
];

describe("only content is quoted, in every format", () => {
  it.each([
    "safety/thermal-runaway-technical-note.pdf",
    "industry/lfp-storage-memo.docx",
    "technology/fast-charging-workshop.pptx",
    "safety/galaxy-note-7-recall.html",
    "chemistry/nmc-and-nca-explained.html",
  ])("%s", async (path) => {
    const document = await extractFile(path, readFileSync(join(EXAMPLE_CORPUS, path)));
    const chunks = chunkContent(document.text, { maxChars: 1_200, sections: [] }).map((chunk) => ({
      id: `c${chunk.seq}`,
      text: chunk.text,
    }));
    const quoted = sentencesRead([{ id: "s", title: document.title, chunks }]).map((sentence) => sentence.text);
    expect(quoted.length).toBeGreaterThan(3);
    for (const text of quoted) {
      for (const [what, pattern] of NOT_CONTENT) expect(pattern.test(text), `${what}: ${text}`).toBe(false);
      // The title line alone is the document's name, not a statement.
      expect(text).not.toBe(document.title);
    }
  });

  it("the PDF's running footer and page numbers are in its text, and none of them is quoted", async () => {
    const path = "safety/thermal-runaway-technical-note.pdf";
    const document = await extractFile(path, readFileSync(join(EXAMPLE_CORPUS, path)));
    expect(document.text).toMatch(/Page 1 of 2/u);
    const quoted = sentencesRead([{ id: "s", title: document.title, chunks: [{ id: "c1", text: document.text }] }]);
    expect(quoted.some((sentence) => /Page \d of \d/u.test(sentence.text))).toBe(false);
  });
});
