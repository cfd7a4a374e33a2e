/**
 * EPUB e-books: the chapters in reading order (the package's spine), each a section cited as
 * "chapter N" with its heading. A book with DRM (META-INF/encryption.xml) is refused.
 */
import { posix } from "node:path";
import { entryText, readArchive, UnreadableDocumentError } from "./archive.js";
import type { ExtractedDocument } from "./extracted-document.js";
import { SectionedText } from "./sectioned-text.js";
import { childElements, findAll, findFirst, parseXml, textOf } from "./xml.js";

const BOOK_PARTS = (name: string): boolean => /\.(xml|opf|ncx|xhtml|html|htm)$/i.test(name);

export async function extractEpub(bytes: Uint8Array, fallbackTitle: string): Promise<ExtractedDocument> {
  const files = await readArchive(bytes, BOOK_PARTS);
  if (files.has("META-INF/encryption.xml") && /EncryptedData/.test(entryText(files, "META-INF/encryption.xml") ?? ""))
    throw new UnreadableDocumentError("encrypted (an e-book with DRM)");
  const container = entryText(files, "META-INF/container.xml");
  if (container === undefined) throw new UnreadableDocumentError("META-INF/container.xml is missing");
  const packagePath = findFirst(parseXml(container, "META-INF/container.xml"), "rootfile")?.attributes["full-path"];
  const packageXml = packagePath ? entryText(files, packagePath) : undefined;
  if (!packagePath || packageXml === undefined)
    throw new UnreadableDocumentError("the book's package document is missing");
  const pkg = parseXml(packageXml, packagePath);
  const base = posix.dirname(packagePath);
  const manifest = new Map(
    findAll(pkg, "item").map((item) => [
      item.attributes.id ?? "",
      posix.normalize(posix.join(base, decodeURIComponent(item.attributes.href ?? ""))),
    ]),
  );
  const { htmlFragment } = await import("./html-extractor.js");
  const out = new SectionedText();
  let chapter = 0;
  for (const itemref of childElements(findFirst(pkg, "spine") ?? pkg, "itemref")) {
    const name = manifest.get(itemref.attributes.idref ?? "");
    const html = name ? entryText(files, name) : undefined;
    if (html === undefined) continue;
    const { text, heading: fullHeading } = htmlFragment(html);
    if (text.length === 0) continue;
    chapter++;
    const heading = fullHeading.slice(0, 80);
    out.add(heading ? `chapter ${chapter} (${heading})` : `chapter ${chapter}`, text);
  }
  const title = findFirst(pkg, "title");
  return {
    title: (title ? textOf(title).replace(/\s+/g, " ").trim() : "") || fallbackTitle,
    text: out.text,
    contentType: "application/epub+zip",
    sections: out.sections,
  };
}
