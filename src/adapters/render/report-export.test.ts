/**
 * PDF and Word projections of a report, read back with pdf.js and mammoth: every finding, every
 * citation and every source of the report, in order, for a synthesized, a source-backed and a
 * no-evidence report, and for a report in Greek, Russian, Chinese and Japanese; references link
 * to the sources list; long unbroken strings stay on the page.
 */
import { describe, expect, it } from "vitest";
import { references } from "../../core/render/outline.js";
import { buildReport, buildSourceBackedReport, type CatalogSource } from "../../core/report/build-report.js";
import type { ReportDocument } from "../../core/report/report-document.js";
import { admissionCatalog, admitSynthesis } from "../../core/synthesis/admission.js";
import type { SynthesisOutput } from "../../core/synthesis/proposals.js";
import { catalogSource, reportInput } from "../../testing/report-inputs.js";
import { renderDocx } from "./report-docx.js";
import { renderPdf } from "./report-pdf.js";

const source = (n: number, title: string, text: string): CatalogSource => catalogSource(n, text, { title });

function synthesized(
  question: string,
  output: SynthesisOutput,
  sources: CatalogSource[],
  language = "en",
): ReportDocument {
  const catalog = admissionCatalog(sources);
  return buildReport(
    reportInput(question, sources, { language, synthesis: { admitted: admitSynthesis(output, catalog) } }),
  );
}

const OXFORD = "Lithium cobalt oxide was reported as a cathode at Oxford in 1980.";
const SONY = "Sony used a cobalt oxide cathode in 1991.";
const LONG_URL = `https://example.org/${"a-very-long-path-segment-without-any-break".repeat(6)}`;

/** `entry` as a web page at a URL too long for one line. */
function webSource(entry: CatalogSource): CatalogSource {
  const { path: _path, ...rest } = entry;
  return { ...rest, url: LONG_URL };
}

const latinSources = (): CatalogSource[] => [
  source(1, "Sony and the first cell", `${SONY} The cell used a carbon anode.`),
  webSource(source(2, "Oxford, 1980", `${OXFORD} The group was led by John Goodenough.`)),
  source(3, "Later cathodes", "Other layered oxides followed in the 1990s."),
];

const synthesizedReport = (): ReportDocument =>
  synthesized(
    "Who made the first lithium cobalt oxide cathode?",
    {
      facts: [
        { id: "f1", text: OXFORD, sourceId: "s_002", chunkIds: ["s_002.p01"] },
        { id: "f2", text: SONY, sourceId: "s_001", chunkIds: ["s_001.p01"] },
      ],
      derivations: [
        {
          id: "d1",
          text: "The cathode reached the market about a decade after its discovery.",
          premiseIds: ["f1", "f2"],
          method: "comparing the two years",
        },
      ],
      recommendations: [],
      gaps: [
        { id: "g1", text: "The sources do not say who manufactured the first cells.", relatedSourceIds: ["s_003"] },
      ],
    },
    latinSources(),
  );

const nonLatinReport = (): ReportDocument => {
  const greek = "Η πρώτη μπαταρία ιόντων λιθίου πωλήθηκε το 1991.";
  const russian = "Литий-ионный аккумулятор впервые продала компания Sony.";
  const chinese = "锂离子电池于1991年首次商业化。";
  const japanese = "吉野彰はリチウムイオン電池の原型を作った。";
  const sources = [
    source(1, "Ιστορία της μπαταρίας", greek),
    source(2, "История аккумулятора", russian),
    source(3, "锂电池的历史", chinese),
    source(4, "電池の歴史", japanese),
  ];
  return synthesized(
    "Когда и кем был продан первый литий-ионный аккумулятор?",
    {
      facts: [
        { id: "f1", text: greek, sourceId: "s_001", chunkIds: ["s_001.p01"] },
        { id: "f2", text: russian, sourceId: "s_002", chunkIds: ["s_002.p01"] },
        { id: "f3", text: chinese, sourceId: "s_003", chunkIds: ["s_003.p01"] },
        { id: "f4", text: japanese, sourceId: "s_004", chunkIds: ["s_004.p01"] },
      ],
      derivations: [],
      recommendations: [],
      gaps: [{ id: "g1", text: "资料没有说明电池的价格。", relatedSourceIds: [] }],
    },
    sources,
    "ru",
  );
};

const sourceBackedReport = (): ReportDocument =>
  buildSourceBackedReport(reportInput("Who made the first lithium cobalt oxide cathode?", latinSources()));

const noEvidenceReport = (): ReportDocument => buildReport(reportInput("What is the price of a unicorn battery?", []));

/** What each projection must contain, in this order: findings, their citations, gaps, sources. */
function expectedInOrder(doc: ReportDocument): string[] {
  const items = [...doc.directFindings, ...doc.findings].flatMap((finding) => [
    finding.text,
    ...references(finding.citations).map((reference) => reference.text),
  ]);
  return [
    doc.title,
    ...items,
    ...doc.gaps.map((gap) => gap.text),
    ...[...doc.sources, ...doc.reviewedSources].flatMap((entry) => [
      `${entry.number}. ${entry.title}`,
      entry.url ?? entry.path ?? "",
    ]),
  ];
}

const squeezed = (text: string): string => text.replace(/\s+/g, "");

/** Whether every string of `expected` is in `text`, each after the one before (whitespace ignored). */
function missingInOrder(text: string, expected: readonly string[]): string[] {
  const haystack = squeezed(text);
  const missing: string[] = [];
  let from = 0;
  for (const want of expected) {
    const at = haystack.indexOf(squeezed(want), from);
    if (at < 0) missing.push(want);
    else from = at + squeezed(want).length;
  }
  return missing;
}

async function pdfText(
  bytes: Uint8Array,
): Promise<{ text: string; links: string[]; pages: number; overflow: boolean }> {
  const pdfjs = await import("pdfjs-dist/legacy/build/pdf.mjs");
  const pdf = await pdfjs.getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, verbosity: 0 }).promise;
  const parts: string[] = [];
  const links: string[] = [];
  let overflow = false;
  for (let number = 1; number <= pdf.numPages; number++) {
    const page = await pdf.getPage(number);
    const width = page.getViewport({ scale: 1 }).width;
    const content = await page.getTextContent();
    for (const item of content.items as { str?: string; hasEOL?: boolean; transform?: number[]; width?: number }[]) {
      parts.push(item.str ?? "", item.hasEOL ? "\n" : "");
      const x = item.transform?.[4] ?? 0;
      if (x + (item.width ?? 0) > width - 20) overflow = true;
    }
    for (const annotation of (await page.getAnnotations()) as { subtype?: string; dest?: unknown }[])
      if (annotation.subtype === "Link" && typeof annotation.dest === "string") links.push(annotation.dest);
  }
  const pages = pdf.numPages;
  await pdf.destroy();
  return { text: parts.join(""), links, pages, overflow };
}

async function docxText(bytes: Uint8Array): Promise<{ text: string; xml: string }> {
  const mammoth = await import("mammoth");
  const { unzipSync, strFromU8 } = await import("fflate");
  const text = (await mammoth.extractRawText({ buffer: Buffer.from(bytes) })).value;
  const xml = strFromU8(unzipSync(bytes)["word/document.xml"] ?? new Uint8Array());
  return { text, xml };
}

const REPORTS: [string, () => ReportDocument][] = [
  ["synthesized", synthesizedReport],
  ["source-backed", sourceBackedReport],
  ["no-evidence", noEvidenceReport],
  ["non-Latin (Greek, Russian, Chinese, Japanese)", nonLatinReport],
];

describe("PDF export", () => {
  it.each(REPORTS)(
    "%s: every finding, citation and source, in order, read back with pdf.js",
    async (_name, make) => {
      const doc = make();
      const { text, links, overflow } = await pdfText(await renderPdf(doc));
      expect(missingInOrder(text, expectedInOrder(doc))).toEqual([]);
      // Each reference links to its source's entry, and nothing runs off the page.
      const cited = [...doc.directFindings, ...doc.findings].flatMap((finding) =>
        finding.citations.map((citation) => `source-${citation.number}`),
      );
      for (const destination of cited) expect(links).toContain(destination);
      expect(overflow).toBe(false);
    },
    30_000,
  );

  it("reports the statuses as the report does", async () => {
    const { text } = await pdfText(await renderPdf(noEvidenceReport()));
    expect(squeezed(text)).toContain(squeezed(noEvidenceReport().notice));
  });
});

describe("Word export", () => {
  it.each(REPORTS)(
    "%s: every finding, citation and source, in order, read back with mammoth",
    async (_name, make) => {
      const doc = make();
      const { text, xml } = await docxText(await renderDocx(doc));
      expect(missingInOrder(text, expectedInOrder(doc))).toEqual([]);
      for (const entry of doc.sources) expect(xml).toContain(`w:name="source_${entry.number}"`);
      for (const finding of [...doc.directFindings, ...doc.findings])
        for (const citation of finding.citations) expect(xml).toContain(`w:anchor="source_${citation.number}"`);
    },
    30_000,
  );
});
