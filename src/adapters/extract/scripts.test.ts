/**
 * Numbers as written: a superscript is an exponent and a subscript an index in every format
 * that has them (HTML, Word, PowerPoint, PDF), so that "48" with a raised "3" reads 48^3, never
 * the number 483; a footnote mark stays as it was.
 */
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { docx, pptx } from "../../../scripts/office-files.mjs";
import { extractFile } from "./extract-by-type.js";
import { scriptText } from "./scripts.js";

// pdfkit's CommonJS build, as its types describe it (`export =`).
const PDFDocument = createRequire(import.meta.url)("pdfkit") as typeof import("pdfkit");

const W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";
const A = "http://schemas.openxmlformats.org/drawingml/2006/main";
const P = "http://schemas.openxmlformats.org/presentationml/2006/main";

const html = (body: string): Uint8Array =>
  new TextEncoder().encode(
    `<!doctype html><html><head><title>Blocks</title></head><body><main>${body}</main></body></html>`,
  );

function pdfWithExponent(): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const pdf = new PDFDocument({ size: "A4", margin: 72 });
    const chunks: Buffer[] = [];
    pdf.on("data", (chunk: Buffer) => chunks.push(chunk));
    pdf.on("end", () => resolve(new Uint8Array(Buffer.concat(chunks))));
    pdf.on("error", reject);
    pdf.font("Helvetica").fontSize(12).text("The block has a volume of 48", 72, 100, { lineBreak: false });
    const width = pdf.widthOfString("The block has a volume of 48");
    pdf.fontSize(7).text("3", 72 + width + 1, 96, { lineBreak: false });
    pdf.fontSize(12).text(" cubic centimetres.", 72 + width + 6, 100, { lineBreak: false });
    pdf.end();
  });
}

describe("superscripts and subscripts", () => {
  it("reads a short run as an exponent or an index, and nothing else", () => {
    expect(scriptText("3")).toBe("3");
    expect(scriptText("\u22129")).toBe("-9");
    expect(scriptText(" n ")).toBe("n");
    expect(scriptText("[1]")).toBeUndefined();
    expect(scriptText("citation needed")).toBeUndefined();
  });

  it("HTML: an exponent and an index, a footnote link kept as it was", async () => {
    const document = await extractFile(
      "block.html",
      html(
        "<p>Its volume is 48<sup>3</sup> cubic centimetres and the archive holds 10<sup>9</sup> records.</p><p>The gas is CO<sub>2</sub>, as the survey found.<sup><a href='#n1'>[1]</a></sup></p>",
      ),
    );
    expect(document.text).toContain("Its volume is 48^3 cubic centimetres and the archive holds 10^9 records.");
    expect(document.text).toContain("The gas is CO_2, as the survey found.[1]");
    expect(document.text).not.toContain("483");
  });

  it("Word: a raised run (through mammoth's <sup>) is an exponent", async () => {
    const body = `<w:p><w:r><w:t xml:space="preserve">The cube has a volume of 48</w:t></w:r><w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr><w:t>3</w:t></w:r><w:r><w:t xml:space="preserve"> cubic centimetres.</w:t></w:r></w:p>`;
    const bytes = docx({
      title: "Cube",
      blocks: [],
      extra: {
        "word/document.xml": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document xmlns:w="${W}"><w:body>${body}</w:body></w:document>`,
      },
    });
    const document = await extractFile("cube.docx", bytes);
    expect(document.text).toContain("The cube has a volume of 48^3 cubic centimetres.");
  });

  it("PowerPoint: a run set above the line is an exponent, one below an index", async () => {
    const slide = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<p:sld xmlns:a="${A}" xmlns:p="${P}"><p:cSld><p:spTree><p:sp><p:txBody><a:p><a:r><a:t>Sizes reach 10</a:t></a:r><a:r><a:rPr baseline="30000"/><a:t>9</a:t></a:r><a:r><a:t> bytes of H</a:t></a:r><a:r><a:rPr baseline="-25000"/><a:t>2</a:t></a:r><a:r><a:t>O.</a:t></a:r></a:p></p:txBody></p:sp></p:spTree></p:cSld></p:sld>`;
    const bytes = pptx({
      title: "Sizes",
      slides: [{ title: "x", bullets: ["y"] }],
      extra: { "ppt/slides/slide1.xml": slide },
    });
    const document = await extractFile("sizes.pptx", bytes);
    expect(document.text).toContain("Sizes reach 10^9 bytes of H_2O.");
  });

  it("PDF: a smaller raised item on the line is an exponent", async () => {
    const document = await extractFile("block.pdf", await pdfWithExponent());
    expect(document.text.replace(/\s+/g, " ")).toContain("volume of 48^3 cubic centimetres.");
    expect(document.text).not.toContain("483");
  });
});
