/**
 * Extraction of office documents, spreadsheets, e-books, notebooks and mail, on files built by
 * scripts/office-files.mjs, and each class of hostile file: ZIP bombs, nested archives, too many
 * entries, malformed XML and entity declarations, huge sheets, macros and embedded objects,
 * encrypted files.
 */
import { describe, expect, it } from "vitest";
import { docx, epub, notebook, ods, odt, pptx, xlsx, zip } from "../../../scripts/office-files.mjs";
import { chunkContent } from "../../core/chunking.js";
import { readArchive } from "./archive.js";
import { extractFile, isSupportedFile } from "./extract-by-type.js";
import type { ExtractedDocument } from "./extracted-document.js";
import { TABLE_LIMITS } from "./sectioned-text.js";

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

/** Each section's location with its text. */
function sectionTexts(document: ExtractedDocument): [string, string][] {
  const sections = document.sections ?? [];
  return sections.map((section, index) => [
    section.location,
    document.text.slice(section.start, sections[index + 1]?.start ?? document.text.length).trim(),
  ]);
}

/** The reason a file is not read: the extraction's error message. */
async function refusal(name: string, bytes: Uint8Array): Promise<string> {
  try {
    await extractFile(name, bytes);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`${name} was read`);
}

describe("office documents", () => {
  it("reads a DOCX's headings, paragraphs and tables, with its title", async () => {
    const document = await extractFile(
      "notes/report.docx",
      docx({
        title: "Pack costs 2024",
        blocks: [
          { heading: "Summary" },
          { text: "Pack prices fell to 115 USD per kWh in 2024." },
          {
            table: [
              ["Year", "Price"],
              ["2023", "139"],
            ],
          },
        ],
      }),
    );
    expect(document.title).toBe("Pack costs 2024");
    expect(document.text.split("\n\n")).toEqual(
      expect.arrayContaining(["Summary", "Pack prices fell to 115 USD per kWh in 2024."]),
    );
    expect(document.text.split("\n\n")).toEqual(expect.arrayContaining(["Year | Price", "2023 | 139"]));
  });

  it("reads a PPTX slide by slide, speaker notes apart, each a section", async () => {
    const document = await extractFile(
      "deck.pptx",
      pptx({
        title: "Battery outlook",
        slides: [
          { title: "Costs", bullets: ["Cell costs fell 90 percent since 2010."] },
          {
            title: "Chemistry",
            bullets: ["LFP gained share.", "NMC kept the high end."],
            notes: "Mention sodium-ion.",
          },
        ],
      }),
    );
    expect(document.title).toBe("Battery outlook");
    expect(sectionTexts(document)).toEqual([
      ["slide 1", "Costs\n\nCell costs fell 90 percent since 2010."],
      ["slide 2", "Chemistry\n\nLFP gained share.\n\nNMC kept the high end."],
      ["slide 2, notes", "Mention sodium-ion."],
    ]);
  });

  it("reads an XLSX's sheets as rows with their header, blocks cited by sheet and row range", async () => {
    const document = await extractFile(
      "prices.xlsx",
      xlsx({
        title: "Prices",
        sheets: [
          {
            name: "Packs",
            rows: [
              ["Year", "Price (USD/kWh)", "Published"],
              ["2013", 780, { date: "2014-01-15" }],
              ["2023", 139, { date: "2023-11-26" }],
              ["2024", 0.1 + 0.2, ""],
            ],
          },
          { name: "Empty", rows: [] },
        ],
      }),
    );
    expect(sectionTexts(document)).toEqual([
      [
        "sheet Packs, rows 2–4",
        [
          "Year: 2013; Price (USD/kWh): 780; Published: 2014-01-15",
          "Year: 2023; Price (USD/kWh): 139; Published: 2023-11-26",
          "Year: 2024; Price (USD/kWh): 0.3",
        ].join("\n\n"),
      ],
    ]);
  });

  it("bounds a huge sheet and says the text is cut", async () => {
    const rows = [["n", "square"], ...Array.from({ length: TABLE_LIMITS.maxRows + 500 }, (_, i) => [String(i), i * i])];
    const document = await extractFile("big.xlsx", xlsx({ title: "Big", sheets: [{ name: "S", rows }] }));
    expect(document.truncated).toBe(true);
    const last = document.sections?.at(-1)?.location ?? "";
    expect(Number(/–(\d+)$/.exec(last)?.[1])).toBeLessThanOrEqual(TABLE_LIMITS.maxRows + 1);
  });

  it("reads ODT text and ODS sheets, a repeated empty row or column costing nothing", async () => {
    const text = await extractFile(
      "memo.odt",
      odt({ title: "Memo", blocks: [{ heading: "Scope" }, { text: "Only cells made after 2020." }] }),
    );
    expect(text).toMatchObject({ title: "Memo", text: "Scope\n\nOnly cells made after 2020." });
    const sheet = await extractFile(
      "sites.ods",
      ods({
        title: "Sites",
        sheets: [
          {
            name: "Plants",
            rows: [
              ["Site", "GWh"],
              ["Nevada", "37"],
              ["Berlin", "50"],
            ],
          },
        ],
        trailingEmptyRows: 1_048_000,
      }),
    );
    expect(sectionTexts(sheet)).toEqual([["sheet Plants, rows 2–3", "Site: Nevada; GWh: 37\n\nSite: Berlin; GWh: 50"]]);
  });

  it("reads an EPUB chapter by chapter in spine order", async () => {
    const document = await extractFile(
      "book.epub",
      epub({
        title: "A Short History of Cells",
        chapters: [
          { title: "Volta", paragraphs: ["The voltaic pile came in 1800."] },
          { title: "Lithium", paragraphs: ["The first lithium-ion cell was sold in 1991."] },
        ],
      }),
    );
    expect(document.title).toBe("A Short History of Cells");
    expect(sectionTexts(document)).toEqual([
      ["chapter 1 (Volta)", "Volta\n\nThe voltaic pile came in 1800."],
      ["chapter 2 (Lithium)", "Lithium\n\nThe first lithium-ion cell was sold in 1991."],
    ]);
  });
});

describe("notebooks, mail and CSV", () => {
  it("reads a notebook cell by cell: Markdown, code and saved outputs, nothing run", async () => {
    const document = await extractFile(
      "analysis.ipynb",
      utf8(
        notebook({
          cells: [
            { markdown: "# Cost analysis\nPrices by year." },
            { code: "print(sum([139, 115]))", output: "254\n" },
          ],
        }),
      ),
    );
    expect(document.title).toBe("Cost analysis");
    expect(sectionTexts(document)).toEqual([
      ["cell 1", "Cost analysis\n\nPrices by year."],
      ["cell 2", "print(sum([139, 115]))\n\n254"],
    ]);
  });

  it("refuses an old notebook format and malformed JSON with what to do", async () => {
    expect(await refusal("old.ipynb", utf8('{"nbformat": 3, "worksheets": []}'))).toMatch(/nbconvert/);
    expect(await refusal("broken.ipynb", utf8("{"))).toMatch(/malformed JSON/);
  });

  it("reads an e-mail's headers, body and text attachments, not other attachments", async () => {
    const mail = [
      "From: Ana Ruiz <ana@example.org>",
      "To: team@example.org",
      "Subject: Supplier prices",
      "Date: Tue, 03 Mar 2026 10:00:00 +0000",
      "MIME-Version: 1.0",
      'Content-Type: multipart/mixed; boundary="b1"',
      "",
      "--b1",
      "Content-Type: text/plain; charset=utf-8",
      "",
      "The supplier quoted 98 USD per kWh for 2027.",
      "--b1",
      'Content-Type: text/plain; name="terms.txt"',
      'Content-Disposition: attachment; filename="terms.txt"',
      "",
      "Delivery within 12 weeks.",
      "--b1",
      'Content-Type: application/octet-stream; name="tool.exe"',
      'Content-Disposition: attachment; filename="tool.exe"',
      "Content-Transfer-Encoding: base64",
      "",
      Buffer.from("MZ binary payload").toString("base64"),
      "--b1--",
      "",
    ].join("\r\n");
    const document = await extractFile("inbox/prices.eml", utf8(mail));
    expect(document.title).toBe("Supplier prices");
    const sections = sectionTexts(document);
    expect(sections.map(([location]) => location)).toEqual(["message", "attachment terms.txt"]);
    expect(sections[0]?.[1]).toContain("From: Ana Ruiz <ana@example.org>");
    expect(sections[0]?.[1]).toContain("The supplier quoted 98 USD per kWh for 2027.");
    expect(sections[1]?.[1]).toBe("Delivery within 12 weeks.");
    expect(document.text).not.toContain("MZ binary");
  });

  it("reads CSV and TSV rows with their header, the delimiter found", async () => {
    const csv = await extractFile("data/prices.csv", utf8('Year;Price;Note\n2013;780;"first, survey"\n\n2024;115;\n'));
    expect(sectionTexts(csv)).toEqual([
      ["rows 2–4", "Year: 2013; Price: 780; Note: first, survey\n\nYear: 2024; Price: 115"],
    ]);
    const tsv = await extractFile("data/prices.tsv", utf8("a\tb\n1\t2\n"));
    expect(sectionTexts(tsv)).toEqual([["row 2", "a: 1; b: 2"]]);
  });

  it("reads every format here through the extractor by extension", () => {
    for (const name of ["a.docx", "a.pptx", "a.xlsx", "a.odt", "a.ods", "a.csv", "a.tsv", "a.epub", "a.ipynb", "a.eml"])
      expect(isSupportedFile(name)).toBe(true);
    expect(isSupportedFile("a.zip")).toBe(false);
    expect(isSupportedFile("a.docm")).toBe(false);
  });
});

describe("passages keep their location", () => {
  it("cuts passages at section starts and labels them", async () => {
    const document = await extractFile(
      "deck.pptx",
      pptx({
        title: "T",
        slides: [
          { title: "One", bullets: ["a"] },
          { title: "Two", bullets: ["b"] },
        ],
      }),
    );
    const chunks = chunkContent(document.text, { sections: document.sections ?? [] });
    expect(chunks.map((chunk) => [chunk.location, chunk.text])).toEqual([
      ["slide 1", "One\n\na"],
      ["slide 2", "Two\n\nb"],
    ]);
    for (const chunk of chunks) expect(document.text.slice(chunk.start, chunk.end)).toBe(chunk.text);
  });
});

describe("hostile files", () => {
  it("stops a ZIP bomb while it expands", async () => {
    const bomb = docx({
      title: "x",
      blocks: [{ text: "hi" }],
      extra: { "word/bomb.xml": "\0".repeat(8 * 1024 * 1024) },
    });
    expect(bomb.length).toBeLessThan(100_000);
    expect(await refusal("bomb.docx", bomb)).toMatch(/expands more than 200 times .*ZIP bomb/);
  });

  it("stops at the expanded-bytes cap and the entry-count cap", async () => {
    const archive = zip({ "a.xml": "a".repeat(5_000), "b.xml": "b".repeat(5_000) });
    const limits = { maxEntries: 10, maxExpandedBytes: 8_000, maxRatio: 1_000, ratioFloorBytes: 1 << 20 };
    await expect(readArchive(archive, () => true, limits)).rejects.toThrow(/expands to more than/);
    const many = zip(Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`e${i}.xml`, "<a/>"])));
    await expect(readArchive(many, () => true, limits)).rejects.toThrow(/lists 12 entries, more than the 10 allowed/);
  });

  it("never opens an archive inside an archive", async () => {
    let nested: Uint8Array = zip({ "deep.txt": "SECRET NESTED TEXT" });
    for (let depth = 0; depth < 20; depth++) nested = zip({ "inner.zip": nested });
    const document = await extractFile(
      "nested.pptx",
      pptx({
        title: "T",
        slides: [{ title: "Only", bullets: ["slide text"] }],
        extra: { "ppt/embeddings/inner.zip": nested },
      }),
    );
    expect(document.text).toBe("Only\n\nslide text");
  });

  it("refuses malformed XML and a document type declaration, naming the part", async () => {
    const broken = pptx({
      title: "T",
      slides: [{ title: "A", bullets: ["b"] }],
      extra: { "ppt/slides/slide1.xml": "<p:sld><a:t>" },
    });
    expect(await refusal("broken.pptx", broken)).toMatch(/malformed XML in ppt\/slides\/slide1\.xml/);
    const laughs = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]><p:sld><a:t>&lol2;</a:t></p:sld>`;
    const entity = pptx({
      title: "T",
      slides: [{ title: "A", bullets: ["b"] }],
      extra: { "ppt/slides/slide1.xml": laughs },
    });
    expect(await refusal("laughs.pptx", entity)).toMatch(/declares a document type \(refused\)/);
  });

  it("never reads macros or embedded objects as text", async () => {
    const document = await extractFile(
      "macro.docx",
      docx({
        title: "T",
        blocks: [{ text: "Visible text." }],
        extra: {
          "word/vbaProject.bin": 'Sub AutoOpen() Shell "calc" End Sub',
          "word/embeddings/oleObject1.bin": "EMBEDDED OBJECT TEXT",
        },
      }),
    );
    expect(document.text).toBe("Visible text.");
  });

  it("refuses encrypted files with that reason", async () => {
    const compound = new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, ...new Array(504).fill(0)]);
    for (const name of ["locked.docx", "locked.xlsx", "locked.pptx"])
      expect(await refusal(name, compound)).toMatch(/password-protected/);
    expect(await refusal("locked.odt", odt({ title: "T", blocks: [{ text: "x" }], encrypted: true }))).toMatch(
      /password-protected/,
    );
    // An entry flagged as encrypted (general purpose bit 0, in its local and central headers).
    const archive = pptx({ title: "T", slides: [{ title: "A", bullets: ["b"] }] });
    const flagged = new Uint8Array(archive);
    const view = new DataView(flagged.buffer);
    for (let at = 0; at + 4 <= flagged.length; at++) {
      const signature = view.getUint32(at, true);
      if (signature === 0x04034b50) view.setUint16(at + 6, view.getUint16(at + 6, true) | 1, true);
      if (signature === 0x02014b50) view.setUint16(at + 8, view.getUint16(at + 8, true) | 1, true);
    }
    expect(await refusal("flagged.pptx", flagged)).toMatch(/password-protected/);
  });

  it("refuses a file that is not the container its name says", async () => {
    expect(await refusal("fake.docx", utf8("just text"))).toMatch(/not a readable ZIP container/);
    expect(await refusal("fake.epub", zip({ "a.txt": "x" }))).toMatch(/container\.xml is missing/);
  });
});
