/**
 * Office documents: Word (DOCX, through mammoth), PowerPoint (PPTX: a section per slide, its
 * speaker notes a section of their own), Excel (XLSX) and OpenDocument spreadsheets (ODS: a
 * sheet's rows in blocks, each cited by its sheet and row range) and OpenDocument text (ODT).
 * Every container is read through `readArchive`'s caps and its XML through `parseXml`. Macros,
 * embedded objects and media are never read; an encrypted file is refused with that reason.
 */

import { posix } from "node:path";
import { entryText, isCompoundFile, readArchive, UnreadableDocumentError } from "./archive.js";
import { type ExtractedDocument, firstLineTitle, tidyText } from "./extracted-document.js";
import { scriptText } from "./scripts.js";
import { addTable, SectionedText, TABLE_LIMITS, type Table } from "./sectioned-text.js";
import {
  childElements,
  findAll,
  findFirst,
  localName,
  parseXml,
  textOf,
  type XmlElement,
  type XmlNode,
} from "./xml.js";

const XML_PARTS = (name: string): boolean => name.endsWith(".xml") || name.endsWith(".rels");

function refuseCompound(bytes: Uint8Array): void {
  if (isCompoundFile(bytes))
    throw new UnreadableDocumentError(
      "password-protected, or a legacy binary Office file (an OLE compound file, not a ZIP container)",
    );
}

/** Parses entry `name` of `files`; a missing entry is an unreadable document. */
function part(files: ReadonlyMap<string, Buffer>, name: string): XmlElement {
  const text = entryText(files, name);
  if (text === undefined) throw new UnreadableDocumentError(`${name} is missing`);
  return parseXml(text, name);
}

/** Relationship id → part name, from the `.rels` of part `owner` (`ppt/presentation.xml`). */
function relationships(files: ReadonlyMap<string, Buffer>, owner: string): Map<string, string> {
  const rels = `${posix.dirname(owner)}/_rels/${posix.basename(owner)}.rels`;
  const map = new Map<string, string>();
  if (!files.has(rels)) return map;
  for (const rel of findAll(part(files, rels), "Relationship")) {
    const id = rel.attributes.Id;
    const target = rel.attributes.Target;
    if (!id || !target || rel.attributes.TargetMode === "External") continue;
    const resolved = target.startsWith("/")
      ? target.slice(1)
      : posix.normalize(posix.join(posix.dirname(owner), target));
    map.set(id, resolved);
  }
  return map;
}

/** The document's title from its core properties (docProps/core.xml), if set. */
function coreTitle(files: ReadonlyMap<string, Buffer>): string {
  if (!files.has("docProps/core.xml")) return "";
  const title = findFirst(part(files, "docProps/core.xml"), "title");
  return title ? textOf(title).replace(/\s+/g, " ").trim() : "";
}

/** Paragraphs of DrawingML text (`a:p`, runs `a:t`, breaks `a:br`) below `node`. */
function drawingParagraphs(node: XmlElement): string[] {
  return findAll(node, "p")
    .filter((paragraph) => paragraph.name.startsWith("a:") || !paragraph.name.includes(":"))
    .map((paragraph) =>
      paragraph.children
        .map((child) => {
          if (typeof child === "string") return "";
          const name = localName(child.name);
          if (name === "r" || name === "fld") {
            const text = findAll(child, "t").map(textOf).join("");
            // A run set above or below the line (`baseline` in thousandths of a percent) is an exponent or an index.
            const baseline = Number(findAll(child, "rPr")[0]?.attributes.baseline ?? 0);
            const script = baseline !== 0 ? scriptText(text) : undefined;
            return script === undefined ? text : `${baseline > 0 ? "^" : "_"}${script}`;
          }
          if (name === "br") return "\n";
          return "";
        })
        .join(""),
    );
}

export async function extractPptx(bytes: Uint8Array, fallbackTitle: string): Promise<ExtractedDocument> {
  refuseCompound(bytes);
  const files = await readArchive(bytes, (name) => XML_PARTS(name) && !name.startsWith("ppt/embeddings/"));
  const presentation = part(files, "ppt/presentation.xml");
  const rels = relationships(files, "ppt/presentation.xml");
  const out = new SectionedText();
  let number = 0;
  let firstTitle = "";
  for (const slideId of findAll(presentation, "sldId")) {
    const target = rels.get(slideId.attributes["r:id"] ?? "");
    number++;
    if (!target || !files.has(target)) continue;
    const slide = part(files, target);
    out.add(`slide ${number}`, drawingParagraphs(slide).join("\n\n"));
    if (!firstTitle) {
      const title = findAll(slide, "sp").find((shape) =>
        findAll(shape, "ph").some((ph) => /^(ctrTitle|title)$/.test(ph.attributes.type ?? "")),
      );
      if (title) firstTitle = drawingParagraphs(title).join(" ").replace(/\s+/g, " ").trim();
    }
    const notes = [...relationships(files, target).values()].find((name) => name.includes("notesSlide"));
    if (notes && files.has(notes)) {
      // The notes page repeats the slide's image and number in placeholders: only its body is the notes.
      const body = findAll(part(files, notes), "sp").filter((shape) =>
        findAll(shape, "ph").some((ph) => ph.attributes.type === "body"),
      );
      out.add(`slide ${number}, notes`, body.flatMap(drawingParagraphs).join("\n\n"));
    }
  }
  return {
    title: coreTitle(files) || firstTitle || fallbackTitle,
    text: out.text,
    contentType: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    sections: out.sections,
  };
}

export async function extractDocx(bytes: Uint8Array, fallbackTitle: string): Promise<ExtractedDocument> {
  refuseCompound(bytes);
  // The caps are checked by expanding every part mammoth may read; the same bytes expand the same way in mammoth.
  const files = await readArchive(bytes, XML_PARTS);
  if (!files.has("word/document.xml")) throw new UnreadableDocumentError("word/document.xml is missing");
  for (const [name, content] of files) parseXml(content.toString("utf8"), name);
  const mammoth = await import("mammoth");
  const result = await mammoth.convertToHtml(
    { buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) },
    // Images are never read: an empty element stands in for each.
    { convertImage: mammoth.images.imgElement(async () => ({ src: "" })) },
  );
  const { htmlFragmentText } = await import("./html-extractor.js");
  const text = htmlFragmentText(result.value);
  return {
    title: coreTitle(files) || firstLineTitle(text, fallbackTitle),
    text,
    contentType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  };
}

/** Column number (1-based) of a cell reference's letters: `C7` is 3. */
function columnOf(reference: string): number {
  let column = 0;
  for (const letter of reference.replace(/\d+$/, "").toUpperCase()) column = column * 26 + (letter.charCodeAt(0) - 64);
  return column;
}

/** Built-in number formats that show a date or time (ECMA-376 §18.8.30). */
const DATE_FORMAT_IDS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 45, 46, 47]);

/** Whether a custom number format code shows a date or time (d, m, y, h, s outside quotes and brackets). */
const isDateCode = (code: string): boolean => /[dmyhs]/i.test(code.replace(/"[^"]*"|\[[^\]]*\]|\\./g, ""));

/** A serial day number as the sheet shows a date: `2024-03-01` (and the time when it has one). */
function serialDate(serial: number, from1904: boolean): string {
  const epoch = from1904 ? Date.UTC(1904, 0, 1) : Date.UTC(1899, 11, 30);
  const date = new Date(epoch + Math.round(serial * 86_400_000));
  const iso = date.toISOString();
  return serial % 1 === 0 ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
}

/** A stored number as a sheet shows it at most: 15 significant digits (0.1 + 0.2 is 0.3). */
const shownNumber = (value: string): string => {
  const number = Number(value);
  return Number.isFinite(number) ? String(Number(number.toPrecision(15))) : value;
};

interface CellStyles {
  dates: Set<number>;
  percents: Set<number>;
}

function cellStyles(files: ReadonlyMap<string, Buffer>): CellStyles {
  const styles: CellStyles = { dates: new Set(), percents: new Set() };
  if (!files.has("xl/styles.xml")) return styles;
  const sheet = part(files, "xl/styles.xml");
  const codes = new Map(
    findAll(sheet, "numFmt").map((format) => [Number(format.attributes.numFmtId), format.attributes.formatCode ?? ""]),
  );
  const xfs = findFirst(sheet, "cellXfs");
  childElements(xfs ?? sheet, "xf").forEach((xf, index) => {
    const id = Number(xf.attributes.numFmtId ?? 0);
    const code = codes.get(id);
    if (DATE_FORMAT_IDS.has(id) || (code !== undefined && isDateCode(code))) styles.dates.add(index);
    else if (id === 9 || id === 10 || code?.includes("%")) styles.percents.add(index);
  });
  return styles;
}

/**
 * A worksheet's XML read up to the end of the row that passes `maxBytes`: a sheet bigger than
 * its cap is read as its first rows (the document is then marked truncated).
 */
function boundedSheet(xml: string, maxBytes: number): { xml: string; cut: boolean } {
  if (xml.length <= maxBytes) return { xml, cut: false };
  const end = xml.indexOf("</row>", maxBytes);
  const start = xml.indexOf("<sheetData");
  if (end < 0 || start < 0) return { xml, cut: false };
  const prefix = xml.slice(0, start).replace(/<sheetData[^>]*>/, "");
  const rows = xml.slice(start, end + "</row>".length);
  // The rows read, closed as the sheet closes them; anything after the sheet data is dropped.
  const closing = /<\/(\w+:)?sheetData>/.exec(xml)?.[1] ?? "";
  const root = /<(\w+:)?worksheet[\s>]/.exec(xml)?.[1] ?? "";
  return { xml: `${prefix}${rows}</${closing}sheetData></${root}worksheet>`, cut: true };
}

const SHEET_XML_BYTES = 16 * 1024 * 1024;

export async function extractXlsx(bytes: Uint8Array, fallbackTitle: string): Promise<ExtractedDocument> {
  refuseCompound(bytes);
  const files = await readArchive(
    bytes,
    (name) =>
      XML_PARTS(name) && (name.startsWith("xl/") || name.startsWith("docProps/")) && !name.includes("/embeddings/"),
  );
  const workbook = part(files, "xl/workbook.xml");
  const from1904 = findAll(workbook, "workbookPr").some((pr) => /^(1|true)$/.test(pr.attributes.date1904 ?? ""));
  const rels = relationships(files, "xl/workbook.xml");
  const shared = files.has("xl/sharedStrings.xml")
    ? childElements(
        findFirst(part(files, "xl/sharedStrings.xml"), "sst") ?? { name: "", attributes: {}, children: [] },
        "si",
      ).map(
        // Phonetic runs (rPh) are reading aids, not the cell's text.
        (item) =>
          item.children
            .map((child) => (typeof child !== "string" && localName(child.name) !== "rPh" ? textOf(child) : ""))
            .join(""),
      )
    : [];
  const styles = cellStyles(files);
  const out = new SectionedText();
  let truncated = false;
  for (const sheet of findAll(workbook, "sheet")) {
    const target = rels.get(sheet.attributes["r:id"] ?? "");
    const name = sheet.attributes.name ?? "";
    if (!target || !files.has(target)) continue;
    const bounded = boundedSheet(entryText(files, target) ?? "", SHEET_XML_BYTES);
    truncated ||= bounded.cut;
    const rows: Table["rows"] = [];
    for (const row of findAll(parseXml(bounded.xml, target), "row")) {
      if (rows.length > TABLE_LIMITS.maxRows) {
        truncated = true;
        break;
      }
      const cells: string[] = [];
      let next = 1;
      for (const c of childElements(row, "c")) {
        const column = c.attributes.r ? columnOf(c.attributes.r) : next;
        next = column + 1;
        if (column > TABLE_LIMITS.maxColumns) continue;
        const type = c.attributes.t ?? "n";
        const raw = textOf(findFirst(c, "v") ?? { name: "", attributes: {}, children: [] });
        const style = Number(c.attributes.s ?? 0);
        let value: string;
        if (type === "s") value = shared[Number(raw)] ?? "";
        else if (type === "inlineStr") value = textOf(findFirst(c, "is") ?? c);
        else if (type === "b") value = raw === "1" ? "TRUE" : "FALSE";
        else if (type === "str" || type === "e" || raw === "") value = raw;
        else if (styles.dates.has(style) && Number.isFinite(Number(raw))) value = serialDate(Number(raw), from1904);
        else if (styles.percents.has(style) && Number.isFinite(Number(raw)))
          value = `${shownNumber(String(Number(raw) * 100))}%`;
        else value = shownNumber(raw);
        while (cells.length < column - 1) cells.push("");
        cells[column - 1] = value;
      }
      rows.push({ number: Number(row.attributes.r ?? rows.length + 1), cells });
    }
    addTable(out, { rows }, `sheet ${name}, `);
  }
  return {
    title: coreTitle(files) || fallbackTitle,
    text: out.text,
    contentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    sections: out.sections,
    ...(truncated ? { truncated } : {}),
  };
}

/** An OpenDocument's content.xml, refused when the package is encrypted. */
async function openDocument(bytes: Uint8Array): Promise<{ content: XmlElement; title: string }> {
  const files = await readArchive(
    bytes,
    (name) => name === "content.xml" || name === "meta.xml" || name === "META-INF/manifest.xml",
  );
  const manifest = entryText(files, "META-INF/manifest.xml") ?? "";
  if (/encryption-data/.test(manifest))
    throw new UnreadableDocumentError("password-protected (an encrypted OpenDocument)");
  const meta = files.has("meta.xml") ? findFirst(part(files, "meta.xml"), "title") : undefined;
  return { content: part(files, "content.xml"), title: meta ? textOf(meta).replace(/\s+/g, " ").trim() : "" };
}

/** The text of an OpenDocument paragraph: spaces (`text:s`), tabs and line breaks as written; notes and comments left out. */
function odfText(node: XmlNode): string {
  if (typeof node === "string") return node;
  const name = localName(node.name);
  if (name === "s") return " ".repeat(Math.min(100, Number(node.attributes["text:c"] ?? 1) || 1));
  if (name === "tab") return "\t";
  if (name === "line-break") return "\n";
  if (name === "annotation" || name === "note" || name === "object" || name === "object-ole") return "";
  return node.children.map(odfText).join("");
}

export async function extractOdt(bytes: Uint8Array, fallbackTitle: string): Promise<ExtractedDocument> {
  const { content, title } = await openDocument(bytes);
  const body = findFirst(content, "text") ?? content;
  const paragraphs: string[] = [];
  const stack: XmlNode[] = [...body.children].reverse();
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === undefined || typeof node === "string") continue;
    const name = localName(node.name);
    if (name === "p" || name === "h") paragraphs.push(odfText(node));
    else if (name === "table-row") paragraphs.push(childElements(node).map(odfText).join(" | "));
    else if (name !== "annotation" && name !== "tracked-changes")
      for (let index = node.children.length - 1; index >= 0; index--) stack.push(node.children[index] as XmlNode);
  }
  const text = tidyText(paragraphs.join("\n\n"));
  return {
    title: title || firstLineTitle(text, fallbackTitle),
    text,
    contentType: "application/vnd.oasis.opendocument.text",
  };
}

export async function extractOds(bytes: Uint8Array, fallbackTitle: string): Promise<ExtractedDocument> {
  const { content, title } = await openDocument(bytes);
  const out = new SectionedText();
  let truncated = false;
  for (const table of findAll(content, "table")) {
    const rows: Table["rows"] = [];
    let number = 0;
    for (const row of findAll(table, "table-row")) {
      // A repeated row (most often the empty rest of the sheet) counts as many rows; its content is read once.
      const repeat = Math.max(1, Number(row.attributes["table:number-rows-repeated"] ?? 1) || 1);
      number += 1;
      const cells: string[] = [];
      for (const cell of childElements(row).filter((child) => /table-cell$/.test(localName(child.name)))) {
        const times = Math.max(1, Number(cell.attributes["table:number-columns-repeated"] ?? 1) || 1);
        const value = childElements(cell, "p").map(odfText).join("\n");
        for (let index = 0; index < times && cells.length < TABLE_LIMITS.maxColumns; index++) cells.push(value);
      }
      if (cells.some((value) => value.trim().length > 0)) {
        if (rows.length >= TABLE_LIMITS.maxRows) {
          truncated = true;
          break;
        }
        rows.push({ number, cells });
      }
      number += repeat - 1;
    }
    addTable(out, { rows }, `sheet ${table.attributes["table:name"] ?? ""}, `);
  }
  return {
    title: title || fallbackTitle,
    text: out.text,
    contentType: "application/vnd.oasis.opendocument.spreadsheet",
    sections: out.sections,
    ...(truncated ? { truncated } : {}),
  };
}
