/**
 * The Word (DOCX) projection of a ReportDocument (the `docx` library): the blocks of
 * `reportOutline` as styled paragraphs, every reference an internal link to its entry (a
 * bookmark) in the sources list. Text is Unicode; Word sets each script in a font the reader
 * has (the east-Asian font is named for Chinese, Japanese and Korean text). Word wraps long
 * words and URLs itself.
 */
import {
  AlignmentType,
  Bookmark,
  Document,
  HeadingLevel,
  InternalHyperlink,
  Packer,
  Paragraph,
  type ParagraphChild,
  TextRun,
} from "docx";
import { type Block, type Run, reportOutline } from "../../core/render/outline.js";
import type { ReportDocument } from "../../core/report/report-document.js";

const anchor = (source: number): string => `source_${source}`;

const FONT = { ascii: "Calibri", hAnsi: "Calibri", cs: "Calibri", eastAsia: "Microsoft YaHei" };
const MUTED = "444444";
const LINK = "1A4F8B";

interface RunStyle {
  bold?: boolean;
  italics?: boolean;
  color?: string;
  size?: number;
}

function runs(parts: readonly Run[], style: RunStyle = {}): ParagraphChild[] {
  return parts.map((part) =>
    typeof part === "string"
      ? new TextRun({ text: part, ...style })
      : new InternalHyperlink({
          anchor: anchor(part.source),
          children: [new TextRun({ text: part.text, ...style, color: LINK, underline: {} })],
        }),
  );
}

function paragraphs(block: Block): Paragraph[] {
  switch (block.kind) {
    case "title":
      return [new Paragraph({ heading: HeadingLevel.TITLE, children: [new TextRun({ text: block.text })] })];
    case "notice":
      return [new Paragraph({ children: [new TextRun({ text: block.text, italics: true, color: MUTED, size: 18 })] })];
    case "field":
      return [
        new Paragraph({ children: [new TextRun({ text: `${block.label}: `, bold: true }), new TextRun(block.text)] }),
      ];
    case "emphasis":
      return [
        new Paragraph({
          children: [new TextRun({ text: block.text, ...(block.strong ? { bold: true } : { italics: true }) })],
        }),
      ];
    case "heading":
      return [
        new Paragraph({
          heading: block.level === 2 ? HeadingLevel.HEADING_1 : HeadingLevel.HEADING_2,
          children: [new TextRun(block.text)],
        }),
      ];
    case "item":
      return [
        new Paragraph({
          indent: { left: 360, hanging: 360 },
          children: [
            new TextRun(`${block.marker} `),
            ...(block.label ? [new TextRun({ text: `${block.label} `, bold: true })] : []),
            ...runs(block.runs),
          ],
        }),
      ];
    case "detail":
      return [new Paragraph({ indent: { left: 720 }, children: runs(block.runs, { color: MUTED, size: 18 }) })];
    case "quote":
      return [
        new Paragraph({
          indent: { left: 720 },
          children: [new TextRun({ text: block.text, italics: true, size: 18 })],
        }),
        new Paragraph({ indent: { left: 720 }, children: runs(block.footer, { color: MUTED, size: 18 }) }),
      ];
    case "source":
      return [
        new Paragraph({
          children: [
            new Bookmark({
              id: anchor(block.number),
              children: [new TextRun({ text: `${block.number}. ${block.title}`, bold: true })],
            }),
            new TextRun(` — ${block.where} (${block.read})`),
          ],
        }),
        ...block.details.map(
          (detail) =>
            new Paragraph({ indent: { left: 720 }, children: [new TextRun({ text: detail, color: MUTED, size: 18 })] }),
        ),
      ];
    case "line":
      return [
        new Paragraph({
          alignment: AlignmentType.LEFT,
          children: [new TextRun({ text: block.text, color: MUTED, size: 18 })],
        }),
      ];
  }
}

/** `report` as a Word document. */
export function renderDocx(report: ReportDocument): Promise<Buffer> {
  const document = new Document({
    title: report.title,
    creator: "Assay",
    description: report.question,
    styles: { default: { document: { run: { font: FONT, size: 21 } } } },
    sections: [{ children: reportOutline(report).flatMap(paragraphs) }],
  });
  return Packer.toBuffer(document);
}
