/** A run over a real corpus folder of large documents: truncation and excerpt bounds hold. */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { FilesystemArtifactStore } from "../adapters/artifacts/filesystem/filesystem-artifact-store.js";
import { systemClock } from "../adapters/clock/system-clock.js";
import { corpusScopeOpener } from "../adapters/corpus/corpus-scope.js";
import { openSqliteStore } from "../adapters/store/sqlite/sqlite-store.js";
import { resolveBudgets } from "../core/budgets.js";
import { publishedReport, readHtml, readMarkdown } from "../testing/read-report.js";
import { tempDir } from "../testing/temp-dir.js";
import { createRuntime } from "./runtime.js";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function largeDocument(index: number): string {
  const paragraphs: string[] = [`# Report ${index} on sodium and lithium cells`];
  for (let paragraph = 0; paragraph < 600; paragraph++) {
    paragraphs.push(
      `Paragraph ${paragraph} of report ${index}: sodium-ion cells avoid cobalt and lithium, while lithium-ion cells ` +
        `still lead on energy density. Measurement ${paragraph * index} was taken at ${20 + (paragraph % 15)} degrees. ` +
        "The team repeated the cycling test and recorded capacity retention after each hundred cycles.",
    );
  }
  return paragraphs.join("\n\n");
}

describe("a run over large documents", () => {
  it("truncates sources at the character budget and bounds excerpts per source and globally", async () => {
    const dir = tempDir();
    cleanups.push(dir.cleanup);
    const corpus = join(dir.path, "corpus");
    mkdirSync(corpus);
    for (let index = 1; index <= 8; index++) writeFileSync(join(corpus, `report-${index}.md`), largeDocument(index));
    const store = openSqliteStore({ file: join(dir.path, "assay.db") });
    const runtime = createRuntime({
      store,
      artifacts: new FilesystemArtifactStore(),
      clock: systemClock,
      scopes: corpusScopeOpener({ indexDir: join(dir.path, "index") }),
    });
    const budgets = resolveBudgets({
      maxSources: 8,
      maxSourceChars: 50_000,
      excerptCharsPerSource: 400,
      excerptCharsTotal: 1_500,
    });
    if (!budgets.ok) throw new Error(budgets.error);
    const out = join(dir.path, "out");
    try {
      const outcome = await runtime.run({
        question: "How does sodium-ion compare with lithium-ion on energy density?",
        language: "en",
        strategy: "pipeline",
        model: "none",
        scope: { kind: "corpus", root: corpus, label: "large" },
        budgets: budgets.value,
        outDir: out,
      });
      expect(outcome.status).toBe("finished");
      const sources = await store.listSources(outcome.runId);
      expect(sources).toHaveLength(8);
      for (const source of sources) {
        expect(source.truncated).toBe(true);
        expect(source.content.length).toBeLessThanOrEqual(50_000);
        for (const chunk of source.chunks) expect(source.content.slice(chunk.start, chunk.end)).toBe(chunk.text);
      }
      const parsed = publishedReport(join(out, "report.json"));
      const doc = parsed;
      let total = 0;
      for (const card of doc.sourceCards) {
        const chars = card.excerpts.reduce((sum, excerpt) => sum + excerpt.text.length, 0);
        expect(chars).toBeLessThanOrEqual(400);
        total += chars;
      }
      expect(total).toBeLessThanOrEqual(1_500);
      expect(doc.sourceCards.length).toBeGreaterThan(2);
      expect(doc.reviewedSources.length).toBeGreaterThan(0);
      const markdown = readFileSync(join(out, "report.md"), "utf8");
      const html = readFileSync(join(out, "report.html"), "utf8");
      expect(readMarkdown(markdown)).toEqual(readHtml(html));
      // The report is bounded: nowhere near the 400 KB of source text.
      expect(markdown.length).toBeLessThan(12_000);
    } finally {
      await store.close();
    }
  });
});
