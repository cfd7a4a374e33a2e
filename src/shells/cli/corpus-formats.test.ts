/**
 * A research on the example corpus cites its spreadsheet, slide deck and notebook by where the
 * quoted words stand: a sheet and row range, a slide, a notebook cell (issue 21).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { EXAMPLE_CORPUS, runCli } from "../../testing/cli.js";
import { publishedReport } from "../../testing/read-report.js";
import { tempDir } from "../../testing/temp-dir.js";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

describe("a corpus run over office documents and notebooks", () => {
  it("cites a sheet's row range, a slide and a notebook cell by location, also in its PDF and Word exports", async () => {
    const dir = tempDir("assay-formats-");
    cleanups.push(dir.cleanup);
    const cases = [
      {
        question: "What was the average battery pack price in 2024?",
        path: "industry/pack-price-survey.xlsx",
        place: /^sheet Pack prices, rows? \d+(–\d+)?$/,
      },
      {
        question: "What limits fast charging of lithium-ion cells?",
        path: "technology/fast-charging-workshop.pptx",
        place: /^slide \d+$/,
      },
      {
        question: "How much capacity did the test cell keep after 500 cycles?",
        path: "technology/capacity-fade-analysis.ipynb",
        place: /^cell \d+$/,
      },
    ];
    const markdown: string[] = [];
    for (const [index, { question, path, place }] of cases.entries()) {
      const out = join(dir.path, `report-${index}`);
      const result = await runCli(["run", question, "--corpus", EXAMPLE_CORPUS, "--out", out], { home: dir.path });
      expect(result.code, result.stderr).toBe(0);
      const report = publishedReport(join(out, "report.json"));
      const source = report.sources.find((entry) => entry.path === path);
      expect(source, `${path} is cited`).toBeDefined();
      const quotes = [...report.directFindings, ...report.findings]
        .flatMap((finding) => finding.citations)
        .filter((citation) => citation.sourceId === source?.id)
        .flatMap((citation) => citation.evidence?.quotes ?? []);
      const excerpts = report.sourceCards
        .filter((card) => card.sourceId === source?.id)
        .flatMap((card) => card.excerpts);
      const places = [...quotes, ...excerpts].map((quote) => quote.location);
      expect(places.length).toBeGreaterThan(0);
      for (const location of places) expect(location).toMatch(place);
      markdown.push(readFileSync(join(out, "report.md"), "utf8"));
    }
    // The report leaves as PDF and Word (assay runs export), with the same findings and places.
    const first = publishedReport(join(dir.path, "report-0", "report.json"));
    const finding = first.directFindings[0]?.text ?? "";
    const pdfFile = join(dir.path, "first.pdf");
    const exported = await runCli(["runs", "export", "1", "--format", "pdf", "--out", pdfFile], { home: dir.path });
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toContain(`Exported the report of run 1`);
    const pdfjs = await import("pdfjs-dist/legacy/build/pdf.mjs");
    const pdf = await pdfjs.getDocument({ data: new Uint8Array(readFileSync(pdfFile)), verbosity: 0 }).promise;
    let pdfText = "";
    for (let number = 1; number <= pdf.numPages; number++)
      pdfText += ((await (await pdf.getPage(number)).getTextContent()).items as { str?: string }[])
        .map((item) => item.str ?? "")
        .join("");
    await pdf.destroy();
    const squeezed = (text: string): string => text.replace(/\s+/g, "");
    expect(squeezed(pdfText)).toContain(squeezed(finding));
    expect(squeezed(pdfText)).toMatch(/passage\d+,sheetPackprices,rows?\d/);
    const docxFile = join(dir.path, "first.docx");
    expect(
      (await runCli(["runs", "export", "1", "--format", "docx", "--out", docxFile], { home: dir.path })).code,
    ).toBe(0);
    const mammoth = await import("mammoth");
    expect((await mammoth.extractRawText({ path: docxFile })).value).toContain(finding);
    // The reader sees where: "passage 3, sheet Pack prices, row 6", a row range, a slide and a cell.
    expect(markdown[0]).toMatch(/passage \d+, sheet Pack prices, rows \d+–\d+/);
    expect(markdown[1]).toMatch(/passage \d+, slide \d+/);
    expect(markdown[2]).toMatch(/passage \d+, cell \d+/);
  }, 90_000);
});
