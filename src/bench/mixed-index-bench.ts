/**
 * Corpus indexing over a folder of mixed formats (issue 21): the same number of documents of
 * each type Assay reads beyond text (DOCX, PPTX, XLSX, ODT, ODS, CSV, EPUB, notebooks, mail),
 * built by scripts/office-files.mjs with different text in each, plus the example corpus's
 * Markdown, text, HTML and PDF. CorpusIndex.refresh from scratch, a fresh index file each pass:
 * the whole folder, then each type on its own.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { extname, join, relative } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { docx, epub, notebook, ods, odt, pptx, xlsx } from "../../scripts/office-files.mjs";
import { CorpusIndex } from "../adapters/corpus/corpus-index.js";
import { extractionPool } from "../adapters/extract/extraction-pool.js";
import { type Figure, fixed, printFigures } from "./figures.js";

const EXAMPLES = fileURLToPath(new URL("../../examples/corpus", import.meta.url));
const PER_TYPE = 60;
const MB = 1_000_000;

const WORDS = "cell anode cathode lithium cobalt nickel graphite electrolyte separator capacity voltage charge".split(
  " ",
);

/** Sentence `n` of document `d`: different words in each, so no two documents are alike. */
const sentence = (d: number, n: number): string =>
  `In test ${d}.${n} the ${WORDS[(d + n) % WORDS.length]} held ${100 + ((d * 7 + n * 13) % 900)} units at ${20 + (n % 30)} degrees after ${d * 10 + n} cycles.`;

const paragraphs = (d: number, count: number): string[] => Array.from({ length: count }, (_, n) => sentence(d, n));

function mail(d: number): string {
  return [
    `From: Lab ${d} <lab${d}@example.org>`,
    "To: team@example.org",
    `Subject: Results of test series ${d}`,
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=utf-8",
    "",
    ...paragraphs(d, 12),
    "",
  ].join("\r\n");
}

function csv(d: number): string {
  const rows = Array.from({ length: 60 }, (_, r) => `${r + 1},${WORDS[(d + r) % WORDS.length]},${(d * r) % 997}`);
  return ["Test,Material,Value", ...rows].join("\n");
}

/** Document `d` of each type, as bytes. */
const MAKERS: Record<string, (d: number) => Uint8Array | string> = {
  ".docx": (d) => docx({ title: `Memo ${d}`, blocks: paragraphs(d, 12).map((text) => ({ text })) }),
  ".pptx": (d) =>
    pptx({
      title: `Deck ${d}`,
      slides: Array.from({ length: 6 }, (_, s) => ({ title: `Slide ${s + 1}`, bullets: paragraphs(d * 10 + s, 2) })),
    }),
  ".xlsx": (d) =>
    xlsx({
      title: `Book ${d}`,
      sheets: [
        {
          name: "Results",
          rows: [
            ["Test", "Material", "Value"],
            ...Array.from({ length: 60 }, (_, r) => [r + 1, WORDS[(d + r) % WORDS.length] ?? "", (d * r) % 997]),
          ],
        },
      ],
    }),
  ".odt": (d) => odt({ title: `Text ${d}`, blocks: paragraphs(d, 12).map((text) => ({ text })) }),
  ".ods": (d) =>
    ods({
      title: `Sheet ${d}`,
      sheets: [
        {
          name: "Results",
          rows: [["Test", "Value"], ...Array.from({ length: 60 }, (_, r) => [String(r), String((d * r) % 997)])],
        },
      ],
    }),
  ".csv": csv,
  ".epub": (d) =>
    epub({
      title: `Book ${d}`,
      chapters: Array.from({ length: 4 }, (_, c) => ({
        title: `Chapter ${c + 1}`,
        paragraphs: paragraphs(d * 10 + c, 3),
      })),
    }),
  ".ipynb": (d) =>
    notebook({
      cells: paragraphs(d, 6).map((text, n) =>
        n % 2 === 0 ? { markdown: text } : { code: `print(${n})`, output: text },
      ),
    }),
  ".eml": mail,
};

function folderBytes(root: string): number {
  let bytes = 0;
  for (const entry of readdirSync(root, { withFileTypes: true, recursive: true }))
    if (entry.isFile()) bytes += statSync(join(entry.parentPath, entry.name)).size;
  return bytes;
}

async function indexOnce(root: string, file: string): Promise<{ ms: number; documents: number; failed: number }> {
  const index = CorpusIndex.open(root, file);
  const started = performance.now();
  const stats = await index.refresh();
  const ms = performance.now() - started;
  index.close();
  return { ms, documents: stats.documents, failed: stats.failed.length };
}

export async function mixedIndexBench(tempRoot: string, passes: number): Promise<void> {
  console.log(`\nCorpus index over mixed formats: ${PER_TYPE} documents of each type, from scratch`);
  const work = mkdtempSync(join(tempRoot, "mixed-"));
  const all = join(work, "all");
  for (const [type, make] of Object.entries(MAKERS)) {
    const folder = join(work, type.slice(1));
    mkdirSync(folder);
    mkdirSync(join(all, type.slice(1)), { recursive: true });
    for (let d = 1; d <= PER_TYPE; d++) {
      const content = make(d);
      writeFileSync(join(folder, `doc-${d}${type}`), content);
      writeFileSync(join(all, type.slice(1), `doc-${d}${type}`), content);
    }
  }
  for (const entry of readdirSync(EXAMPLES, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || Object.hasOwn(MAKERS, extname(entry.name))) continue;
    const from = join(entry.parentPath, entry.name);
    const to = join(all, "examples", relative(EXAMPLES, from));
    mkdirSync(join(to, ".."), { recursive: true });
    copyFileSync(from, to);
  }
  await extractionPool().run({ kind: "html", raw: "<p>warm</p>", title: "warm", url: "https://corpus.invalid/" });
  const figures: Figure[] = [];
  const allBytes = folderBytes(all);
  const wall: number[] = [];
  let documents = 0;
  let failed = 0;
  for (let pass = 0; pass <= passes; pass++) {
    const result = await indexOnce(all, join(work, `all-${pass}.sqlite`));
    documents = result.documents;
    failed = result.failed;
    if (pass > 0) wall.push(result.ms);
  }
  figures.push(
    ["M", "mixed folder: wall time", wall, "ms"],
    ["M1", "  documents per second", wall.map((ms) => documents / (ms / 1000)), "docs/s"],
    ["M2", "  input per second", wall.map((ms) => allBytes / MB / (ms / 1000)), "MB/s"],
  );
  for (const [index, type] of Object.keys(MAKERS).entries()) {
    const folder = join(work, type.slice(1));
    const rates: number[] = [];
    for (let pass = 0; pass <= passes; pass++) {
      const result = await indexOnce(folder, join(work, `${type.slice(1)}-${pass}.sqlite`));
      if (pass > 0) rates.push(result.documents / (result.ms / 1000));
    }
    figures.push([`M${index + 3}`, `  ${type} alone`, rates, "docs/s"]);
  }
  printFigures(String(documents), figures, "docs");
  console.log(
    `  folder: ${documents} documents, ${fixed(allBytes / MB, 2)} MB (${PER_TYPE} of each of ${Object.keys(MAKERS).length} types, plus the example corpus's text, Markdown, HTML and PDF); ${failed} failed; ${extractionPool().threads} extraction workers.`,
  );
}
