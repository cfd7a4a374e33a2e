// Builds small, valid office documents and e-books from plain content: DOCX, PPTX, XLSX, ODT,
// ODS and EPUB (ZIP containers of XML, written with fflate), for the example corpus
// (scripts/make-example-documents.mjs) and the extraction tests. Each file holds only what the
// formats require for Word, PowerPoint, Excel, LibreOffice and e-readers to open it. Output is
// byte-for-byte reproducible (fixed timestamps).

import { zipSync } from "fflate";

const FIXED_TIME = new Date(Date.UTC(2026, 0, 1));

/** XML text escaped. */
export const esc = (text) =>
  String(text).replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");

const bytes = (text) => new TextEncoder().encode(text);

/**
 * A ZIP archive of `entries` (name → string or bytes), in the given order. `store` names entries
 * kept uncompressed (EPUB's mimetype must be).
 */
export function zip(entries, store = []) {
  const files = {};
  for (const [name, content] of Object.entries(entries)) {
    const data = typeof content === "string" ? bytes(content) : content;
    files[name] = [data, { level: store.includes(name) ? 0 : 6, mtime: FIXED_TIME }];
  }
  return zipSync(files);
}

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships";

function rels(list) {
  return `${XML}<Relationships xmlns="${PKG_REL}">${list
    .map(([id, type, target]) => `<Relationship Id="${id}" Type="${REL}/${type}" Target="${esc(target)}"/>`)
    .join("")}</Relationships>`;
}

function core(title) {
  return `${XML}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>${esc(title)}</dc:title></cp:coreProperties>`;
}

function contentTypes(overrides) {
  return `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>${overrides
    .map(([part, type]) => `<Override PartName="/${part}" ContentType="${type}"/>`)
    .join(
      "",
    )}<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/></Types>`;
}

/**
 * A Word document. `blocks`: `{ heading: text }`, `{ text }` (a paragraph) or `{ table: rows }`.
 * `extra` adds entries as they are (a macro project, an embedded object, for hostile tests).
 */
export function docx({ title, blocks, extra = {} }) {
  const W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";
  const run = (text) => `<w:r><w:t xml:space="preserve">${esc(text)}</w:t></w:r>`;
  const body = blocks
    .map((block) => {
      if (block.heading !== undefined)
        return `<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr>${run(block.heading)}</w:p>`;
      if (block.table !== undefined)
        return `<w:tbl>${block.table
          .map((row) => `<w:tr>${row.map((cell) => `<w:tc><w:p>${run(cell)}</w:p></w:tc>`).join("")}</w:tr>`)
          .join("")}</w:tbl>`;
      return `<w:p>${run(block.text)}</w:p>`;
    })
    .join("");
  const styles = `${XML}<w:styles xmlns:w="${W}"><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/></w:style></w:styles>`;
  return zip({
    "[Content_Types].xml": contentTypes([
      ["word/document.xml", "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"],
      ["word/styles.xml", "application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"],
    ]),
    "_rels/.rels": rels([
      ["rId1", "officeDocument", "word/document.xml"],
      ["rId2", "metadata/core-properties", "docProps/core.xml"],
    ]),
    "docProps/core.xml": core(title),
    "word/_rels/document.xml.rels": rels([["rId1", "styles", "styles.xml"]]),
    "word/styles.xml": styles,
    "word/document.xml": `${XML}<w:document xmlns:w="${W}"><w:body>${body}</w:body></w:document>`,
    ...extra,
  });
}

/** A presentation: `slides` of `{ title, bullets, notes? }`. */
export function pptx({ title, slides, extra = {} }) {
  const A = "http://schemas.openxmlformats.org/drawingml/2006/main";
  const P = "http://schemas.openxmlformats.org/presentationml/2006/main";
  const paragraphs = (lines) => lines.map((line) => `<a:p><a:r><a:t>${esc(line)}</a:t></a:r></a:p>`).join("");
  const shape = (type, lines) =>
    `<p:sp><p:nvSpPr><p:cNvPr id="2" name="${type}"/><p:cNvSpPr/><p:nvPr><p:ph type="${type}"/></p:nvPr></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/>${paragraphs(lines)}</p:txBody></p:sp>`;
  const entries = {
    "[Content_Types].xml": contentTypes([
      ["ppt/presentation.xml", "application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"],
      ...slides.map((_, index) => [
        `ppt/slides/slide${index + 1}.xml`,
        "application/vnd.openxmlformats-officedocument.presentationml.slide+xml",
      ]),
    ]),
    "_rels/.rels": rels([
      ["rId1", "officeDocument", "ppt/presentation.xml"],
      ["rId2", "metadata/core-properties", "docProps/core.xml"],
    ]),
    "docProps/core.xml": core(title),
    "ppt/_rels/presentation.xml.rels": rels(
      slides.map((_, index) => [`rId${index + 1}`, "slide", `slides/slide${index + 1}.xml`]),
    ),
    "ppt/presentation.xml": `${XML}<p:presentation xmlns:a="${A}" xmlns:r="${REL}" xmlns:p="${P}"><p:sldIdLst>${slides
      .map((_, index) => `<p:sldId id="${256 + index}" r:id="rId${index + 1}"/>`)
      .join("")}</p:sldIdLst></p:presentation>`,
  };
  slides.forEach((slide, index) => {
    const n = index + 1;
    entries[`ppt/slides/slide${n}.xml`] =
      `${XML}<p:sld xmlns:a="${A}" xmlns:r="${REL}" xmlns:p="${P}"><p:cSld><p:spTree>${shape("title", [slide.title])}${shape("body", slide.bullets)}</p:spTree></p:cSld></p:sld>`;
    if (slide.notes !== undefined) {
      entries[`ppt/slides/_rels/slide${n}.xml.rels`] = rels([
        ["rId1", "notesSlide", `../notesSlides/notesSlide${n}.xml`],
      ]);
      entries[`ppt/notesSlides/notesSlide${n}.xml`] =
        `${XML}<p:notes xmlns:a="${A}" xmlns:r="${REL}" xmlns:p="${P}"><p:cSld><p:spTree>${shape("sldImg", [])}${shape("body", [slide.notes])}${shape("sldNum", [String(n)])}</p:spTree></p:cSld></p:notes>`;
    }
  });
  return zip({ ...entries, ...extra });
}

const columnName = (index) => {
  let name = "";
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
};

/**
 * A workbook: `sheets` of `{ name, rows }`; a cell is a string, a number, or `{ date: "2024-03-01" }`
 * (stored as a serial day number with a date format, as spreadsheets store dates).
 */
export function xlsx({ title, sheets }) {
  const S = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
  const strings = [];
  const stringIndex = new Map();
  const shared = (text) => {
    if (!stringIndex.has(text)) {
      stringIndex.set(text, strings.length);
      strings.push(text);
    }
    return stringIndex.get(text);
  };
  const cellXml = (value, ref) => {
    if (typeof value === "number") return `<c r="${ref}"><v>${value}</v></c>`;
    if (value && typeof value === "object" && "date" in value) {
      const serial = (Date.parse(`${value.date}T00:00:00Z`) - Date.UTC(1899, 11, 30)) / 86_400_000;
      return `<c r="${ref}" s="1"><v>${serial}</v></c>`;
    }
    return `<c r="${ref}" t="s"><v>${shared(String(value))}</v></c>`;
  };
  const sheetXml = (rows) =>
    `${XML}<worksheet xmlns="${S}"><sheetData>${rows
      .map(
        (row, r) =>
          `<row r="${r + 1}">${row
            .map((value, c) => (value === "" || value === undefined ? "" : cellXml(value, `${columnName(c)}${r + 1}`)))
            .join("")}</row>`,
      )
      .join("")}</sheetData></worksheet>`;
  const sheetEntries = Object.fromEntries(
    sheets.map((sheet, index) => [`xl/worksheets/sheet${index + 1}.xml`, sheetXml(sheet.rows)]),
  );
  return zip({
    "[Content_Types].xml": contentTypes([
      ["xl/workbook.xml", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"],
      ["xl/styles.xml", "application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"],
      ["xl/sharedStrings.xml", "application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"],
      ...sheets.map((_, index) => [
        `xl/worksheets/sheet${index + 1}.xml`,
        "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml",
      ]),
    ]),
    "_rels/.rels": rels([
      ["rId1", "officeDocument", "xl/workbook.xml"],
      ["rId2", "metadata/core-properties", "docProps/core.xml"],
    ]),
    "docProps/core.xml": core(title),
    "xl/_rels/workbook.xml.rels": rels([
      ...sheets.map((_, index) => [`rId${index + 1}`, "worksheet", `worksheets/sheet${index + 1}.xml`]),
      [`rId${sheets.length + 1}`, "styles", "styles.xml"],
      [`rId${sheets.length + 2}`, "sharedStrings", "sharedStrings.xml"],
    ]),
    "xl/workbook.xml": `${XML}<workbook xmlns="${S}" xmlns:r="${REL}"><sheets>${sheets
      .map((sheet, index) => `<sheet name="${esc(sheet.name)}" sheetId="${index + 1}" r:id="rId${index + 1}"/>`)
      .join("")}</sheets></workbook>`,
    "xl/styles.xml": `${XML}<styleSheet xmlns="${S}"><cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="14" applyNumberFormat="1"/></cellXfs></styleSheet>`,
    ...sheetEntries,
    // Written last: the strings are collected while the sheets are.
    "xl/sharedStrings.xml": `${XML}<sst xmlns="${S}" count="${strings.length}" uniqueCount="${strings.length}">${strings
      .map((text) => `<si><t xml:space="preserve">${esc(text)}</t></si>`)
      .join("")}</sst>`,
  });
}

const ODF_NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"';

function odf(mime, title, body, manifestExtra = "") {
  return zip(
    {
      mimetype: mime,
      "META-INF/manifest.xml": `${XML}<manifest:manifest ${ODF_NS} manifest:version="1.3"><manifest:file-entry manifest:full-path="/" manifest:media-type="${mime}"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml">${manifestExtra}</manifest:file-entry></manifest:manifest>`,
      "meta.xml": `${XML}<office:document-meta ${ODF_NS} office:version="1.3"><office:meta><dc:title>${esc(title)}</dc:title></office:meta></office:document-meta>`,
      "content.xml": `${XML}<office:document-content ${ODF_NS} office:version="1.3"><office:body>${body}</office:body></office:document-content>`,
    },
    ["mimetype"],
  );
}

/** An OpenDocument text: `blocks` of `{ heading }` or `{ text }`. `encrypted` marks it as a password-protected package. */
export function odt({ title, blocks, encrypted = false }) {
  const body = blocks
    .map((block) =>
      block.heading !== undefined
        ? `<text:h text:outline-level="1">${esc(block.heading)}</text:h>`
        : `<text:p>${esc(block.text)}</text:p>`,
    )
    .join("");
  return odf(
    "application/vnd.oasis.opendocument.text",
    title,
    `<office:text>${body}</office:text>`,
    encrypted ? '<manifest:encryption-data manifest:checksum-type="SHA1" manifest:checksum="x"/>' : "",
  );
}

/** An OpenDocument spreadsheet: `sheets` of `{ name, rows }`; `trailingEmptyRows` repeated as a spreadsheet saves them. */
export function ods({ title, sheets, trailingEmptyRows = 0 }) {
  const body = sheets
    .map(
      (sheet) =>
        `<table:table table:name="${esc(sheet.name)}">${sheet.rows
          .map(
            (row) =>
              `<table:table-row>${row
                .map(
                  (value) =>
                    `<table:table-cell office:value-type="string"><text:p>${esc(value)}</text:p></table:table-cell>`,
                )
                .join("")}<table:table-cell table:number-columns-repeated="16000"/></table:table-row>`,
          )
          .join(
            "",
          )}${trailingEmptyRows > 0 ? `<table:table-row table:number-rows-repeated="${trailingEmptyRows}"><table:table-cell table:number-columns-repeated="16384"/></table:table-row>` : ""}</table:table>`,
    )
    .join("");
  return odf(
    "application/vnd.oasis.opendocument.spreadsheet",
    title,
    `<office:spreadsheet>${body}</office:spreadsheet>`,
  );
}

/** An EPUB 3 book: `chapters` of `{ title, paragraphs }`. */
export function epub({ title, chapters }) {
  const entries = {
    mimetype: "application/epub+zip",
    "META-INF/container.xml": `${XML}<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/book.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`,
    "OEBPS/book.opf": `${XML}<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">assay-example</dc:identifier><dc:title>${esc(title)}</dc:title><dc:language>en</dc:language></metadata><manifest>${chapters
      .map(
        (_, index) => `<item id="c${index + 1}" href="chapter${index + 1}.xhtml" media-type="application/xhtml+xml"/>`,
      )
      .join(
        "",
      )}</manifest><spine>${chapters.map((_, index) => `<itemref idref="c${index + 1}"/>`).join("")}</spine></package>`,
  };
  chapters.forEach((chapter, index) => {
    entries[`OEBPS/chapter${index + 1}.xhtml`] =
      `${XML}<html xmlns="http://www.w3.org/1999/xhtml"><head><title>${esc(chapter.title)}</title></head><body><h1>${esc(chapter.title)}</h1>${chapter.paragraphs
        .map((text) => `<p>${esc(text)}</p>`)
        .join("")}</body></html>`;
  });
  return zip(entries, ["mimetype"]);
}

/** A Jupyter notebook (nbformat 4): `cells` of `{ markdown }` or `{ code, output? }`. */
export function notebook({ cells }) {
  return JSON.stringify(
    {
      nbformat: 4,
      nbformat_minor: 5,
      metadata: { kernelspec: { name: "python3", display_name: "Python 3", language: "python" } },
      cells: cells.map((cell) =>
        cell.markdown !== undefined
          ? { cell_type: "markdown", metadata: {}, source: cell.markdown.split(/(?<=\n)/) }
          : {
              cell_type: "code",
              metadata: {},
              execution_count: 1,
              source: cell.code.split(/(?<=\n)/),
              outputs:
                cell.output === undefined
                  ? []
                  : [{ output_type: "stream", name: "stdout", text: cell.output.split(/(?<=\n)/) }],
            },
      ),
    },
    null,
    1,
  );
}
