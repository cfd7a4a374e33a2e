/**
 * The PDF projection of a ReportDocument (pdfkit): the blocks of `reportOutline`, laid out on
 * A4 pages, every reference a link to its entry in the sources list. Fonts are embedded (the
 * characters used, as subsets): DejaVu Sans for Latin, Greek and Cyrillic, Droid Sans Fallback
 * for Chinese, Japanese and Korean, each character set in the first font that has it. Long
 * words and URLs are broken where they do not fit. Pure JavaScript: no browser, no network.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import * as fontkit from "fontkit";
import { type Block, type Run, reportOutline } from "../../core/render/outline.js";
import type { ReportDocument } from "../../core/report/report-document.js";

interface FontFace {
  name: string;
  bytes: Buffer;
  has: (codePoint: number) => boolean;
}

const require = createRequire(import.meta.url);
// pdfkit's CommonJS build, as its types describe it (`export =`).
const PDFDocument = require("pdfkit") as typeof import("pdfkit");

function face(name: string, file: string): FontFace {
  const bytes = readFileSync(file);
  const font = fontkit.create(bytes) as fontkit.Font;
  return { name, bytes, has: (codePoint) => font.hasGlyphForCodePoint(codePoint) };
}

interface Faces {
  regular: FontFace;
  bold: FontFace;
  italic: FontFace;
  fallback: FontFace;
}

let loaded: Faces | undefined;

/** The fonts, read once per process. */
function faces(): Faces {
  loaded ??= {
    regular: face("sans", require.resolve("dejavu-fonts-ttf/ttf/DejaVuSans.ttf")),
    bold: face("sans-bold", require.resolve("dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf")),
    italic: face("sans-italic", require.resolve("dejavu-fonts-ttf/ttf/DejaVuSans-Oblique.ttf")),
    fallback: face("cjk", fileURLToPath(new URL("../../../fonts/DroidSansFallbackFull.ttf", import.meta.url))),
  };
  return loaded;
}

type Style = "regular" | "bold" | "italic";

/** `text` cut into pieces each set in one font: the style's own where it has the glyph, else the fallback. */
function byFont(text: string, style: Style): { text: string; font: string }[] {
  const all = faces();
  const own = all[style];
  const pieces: { text: string; font: string }[] = [];
  for (const char of text) {
    const code = char.codePointAt(0) ?? 32;
    const font = own.has(code) || !all.fallback.has(code) || /\s/.test(char) ? own.name : all.fallback.name;
    const last = pieces.at(-1);
    if (last && last.font === font) last.text += char;
    else pieces.push({ text: char, font });
  }
  return pieces;
}

/** A line's pieces: text with a style, a reference with its link. */
interface Piece {
  text: string;
  style: Style;
  goTo?: string;
}

const anchor = (source: number): string => `source-${source}`;

function pieces(runs: readonly Run[], style: Style): Piece[] {
  return runs.map((run) =>
    typeof run === "string" ? { text: run, style } : { text: run.text, style, goTo: anchor(run.source) },
  );
}

const SIZE = { title: 18, h2: 13, h3: 11, body: 10, small: 9 };
const LINK = "#1a4f8b";
const TEXT = "#111111";
const MUTED = "#444444";

/** Writes `parts` as one paragraph at the current position (indented by `indent` points). */
function paragraph(
  doc: PDFKit.PDFDocument,
  parts: readonly Piece[],
  size: number,
  options: { indent?: number; color?: string; gap?: number; destination?: string } = {},
): void {
  const indent = options.indent ?? 0;
  const width = doc.page.width - doc.page.margins.left - doc.page.margins.right - indent;
  const x = doc.page.margins.left + indent;
  // A paragraph that starts near the bottom of a page starts on the next one.
  if (doc.y + size * 2.5 > doc.page.height - doc.page.margins.bottom) doc.addPage();
  if (options.destination) doc.addNamedDestination(options.destination, "XYZ", x, doc.y, null);
  const runs = parts.flatMap((part) => byFont(part.text, part.style).map((piece) => ({ ...piece, goTo: part.goTo })));
  if (runs.length === 0) return;
  doc.x = x;
  runs.forEach((run, index) => {
    doc
      .font(run.font)
      .fontSize(size)
      .fillColor(run.goTo ? LINK : (options.color ?? TEXT));
    const more = index < runs.length - 1;
    const textOptions: PDFKit.Mixins.TextOptions = {
      width,
      continued: more,
      lineGap: 1.5,
      // Not inherited from the run before: only a reference links.
      goTo: run.goTo ?? (null as unknown as string),
      underline: false,
    };
    if (index === 0) doc.text(run.text, x, doc.y, textOptions);
    else doc.text(run.text, textOptions);
  });
  doc.moveDown(options.gap ?? 0.4);
}

function draw(doc: PDFKit.PDFDocument, block: Block): void {
  switch (block.kind) {
    case "title":
      paragraph(doc, [{ text: block.text, style: "bold" }], SIZE.title, { gap: 0.5 });
      return;
    case "notice":
      paragraph(doc, [{ text: block.text, style: "italic" }], SIZE.small, { color: MUTED, gap: 0.6 });
      return;
    case "field":
      paragraph(
        doc,
        [
          { text: `${block.label}: `, style: "bold" },
          { text: block.text, style: "regular" },
        ],
        SIZE.body,
      );
      return;
    case "emphasis":
      paragraph(doc, [{ text: block.text, style: block.strong ? "bold" : "italic" }], SIZE.body);
      return;
    case "heading":
      doc.moveDown(block.level === 2 ? 0.6 : 0.3);
      paragraph(doc, [{ text: block.text, style: "bold" }], block.level === 2 ? SIZE.h2 : SIZE.h3, { gap: 0.3 });
      return;
    case "item":
      paragraph(
        doc,
        [
          { text: `${block.marker} `, style: "regular" },
          ...(block.label ? [{ text: `${block.label} `, style: "bold" as const }] : []),
          ...pieces(block.runs, "regular"),
        ],
        SIZE.body,
        { gap: 0.25 },
      );
      return;
    case "detail":
      paragraph(doc, pieces(block.runs, "regular"), SIZE.small, { indent: 16, color: MUTED, gap: 0.25 });
      return;
    case "quote":
      paragraph(doc, [{ text: block.text, style: "italic" }], SIZE.small, { indent: 16, gap: 0.1 });
      paragraph(doc, pieces(block.footer, "regular"), SIZE.small, { indent: 16, color: MUTED });
      return;
    case "source":
      paragraph(
        doc,
        [
          { text: `${block.number}. `, style: "bold" },
          { text: block.title, style: "bold" },
          { text: ` — ${block.where} (${block.read})`, style: "regular" },
        ],
        SIZE.body,
        { destination: anchor(block.number), gap: 0.15 },
      );
      for (const detail of block.details)
        paragraph(doc, [{ text: detail, style: "regular" }], SIZE.small, { indent: 16, color: MUTED, gap: 0.15 });
      doc.moveDown(0.2);
      return;
    case "line":
      paragraph(doc, [{ text: block.text, style: "regular" }], SIZE.small, { color: MUTED });
      return;
  }
}

/** `doc` as a PDF file. */
export function renderPdf(report: ReportDocument): Promise<Buffer> {
  const all = faces();
  const doc = new PDFDocument({
    size: "A4",
    margins: { top: 56, bottom: 56, left: 56, right: 56 },
    info: { Title: report.title, Creator: "Assay", Producer: "Assay (pdfkit)" },
    lang: report.language,
    displayTitle: true,
  });
  for (const font of [all.regular, all.bold, all.italic, all.fallback]) doc.registerFont(font.name, font.bytes);
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  for (const block of reportOutline(report)) draw(doc, block);
  doc.end();
  return done;
}
