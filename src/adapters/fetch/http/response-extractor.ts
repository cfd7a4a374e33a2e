/**
 * Title and clean text of a fetched body by its media type: HTML through Readability, plain
 * text, Markdown, PDF, JSON pretty-printed, and the document types a corpus holds (Word,
 * PowerPoint, Excel, OpenDocument, CSV, EPUB, notebooks, mail: extract-by-type.ts, in the
 * extraction pool), also when served as application/octet-stream under their file extension;
 * anything else, and binary bodies that claim to be text, are skipped with an ExternalServiceError.
 */
import { describeError, ExternalServiceError } from "../../../core/errors.js";
import type { ExtractedDocument } from "../../extract/extracted-document.js";
import { extractionPool } from "../../extract/extraction-pool.js";
import { extractMarkdown, extractPlainText } from "../../extract/text-extractor.js";
import { findCanonicalHref } from "../../web/canonical-link.js";
import type { BodyRead } from "./body-reader.js";
import { decodeText, looksBinary, parseContentType, sniffMetaCharset } from "./text-decoding.js";

export interface ExtractedPage extends ExtractedDocument {
  /** The page's `<link rel=canonical>` href, as written. */
  canonicalHref?: string;
  /** True when the body was cut before extraction. */
  truncated: boolean;
}

const HTML = new Set(["text/html", "application/xhtml+xml"]);

/** Media types read as the corpus reads a file of the extension. */
const DOCUMENT_TYPES: Readonly<Record<string, string>> = {
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": ".docx",
  "application/vnd.openxmlformats-officedocument.presentationml.presentation": ".pptx",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": ".xlsx",
  "application/vnd.oasis.opendocument.text": ".odt",
  "application/vnd.oasis.opendocument.spreadsheet": ".ods",
  "application/epub+zip": ".epub",
  "application/x-ipynb+json": ".ipynb",
  "text/csv": ".csv",
  "text/tab-separated-values": ".tsv",
  "message/rfc822": ".eml",
};

/** Extensions whose content a cut body cannot be read from (containers), and those a cut body still reads as its beginning. */
const CONTAINERS = new Set([".docx", ".pptx", ".xlsx", ".odt", ".ods", ".epub", ".ipynb"]);

/** The extension a document type is read as: by its media type, or for a body sent as octets by the URL's own extension. */
function documentExtension(mime: string, octets: boolean, url: URL): string | undefined {
  const byType = DOCUMENT_TYPES[mime];
  if (byType) return byType;
  if (!octets) return undefined;
  const extension = /\.[a-z0-9]{2,5}$/i.exec(url.pathname)?.[0]?.toLowerCase();
  return extension && Object.values(DOCUMENT_TYPES).includes(extension) ? extension : undefined;
}
const TEXT = new Set(["text/plain", "text/markdown", "text/x-markdown"]);

/** A title from the URL's last path segment, else its host. */
export function fallbackTitle(url: URL): string {
  const segment = url.pathname.split("/").findLast((part) => part !== "") ?? "";
  let name = segment;
  try {
    name = decodeURIComponent(segment);
  } catch {
    // Keep the raw segment.
  }
  return (
    name
      .replace(/\.[a-z0-9]{1,5}$/i, "")
      .replace(/[-_]+/g, " ")
      .trim() || url.hostname
  );
}

function sniffMime(bytes: Uint8Array): string {
  const start = Buffer.from(bytes.subarray(0, 512)).toString("latin1");
  if (start.startsWith("%PDF-")) return "application/pdf";
  if (looksBinary(bytes)) return "application/octet-stream";
  if (/^\s*(\uFEFF|\xEF\xBB\xBF)?\s*<(!doctype html|html|head|body)\b/i.test(start)) return "text/html";
  return "text/plain";
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

export interface ResponseInput {
  url: URL;
  contentType: string | undefined;
  body: BodyRead;
  /** HTML beyond this many bytes is cut before extraction. */
  maxHtmlBytes: number;
}

export async function extractResponse(input: ResponseInput): Promise<ExtractedPage> {
  const { url, body } = input;
  const declared = parseContentType(input.contentType);
  const octets = declared.mime === "" || declared.mime === "application/octet-stream";
  const mime = octets ? sniffMime(body.bytes) : declared.mime;
  const title = fallbackTitle(url);
  const extension = documentExtension(mime, octets, url);
  if (extension) {
    if (body.truncated && CONTAINERS.has(extension))
      throw new ExternalServiceError(
        `skipped: ${extension.slice(1).toUpperCase()} larger than the body cap: ${url.href}`,
      );
    try {
      const extracted = await extractionPool().run({ kind: "file", name: `${title}${extension}`, bytes: body.bytes });
      return { ...extracted, truncated: body.truncated || extracted.truncated === true };
    } catch (error) {
      throw new ExternalServiceError(`cannot read the document at ${url.href}: ${describeError(error)}`, {
        cause: error,
      });
    }
  }
  if (mime === "application/pdf") {
    if (body.truncated) throw new ExternalServiceError(`skipped: PDF larger than the body cap: ${url.href}`);
    try {
      return { ...(await extractionPool().run({ kind: "pdf", bytes: body.bytes, title })), truncated: false };
    } catch (error) {
      throw new ExternalServiceError(`cannot read the PDF at ${url.href}: ${describeError(error)}`, { cause: error });
    }
  }
  const isJson = mime === "application/json" || mime.endsWith("+json");
  if (!HTML.has(mime) && !TEXT.has(mime) && !isJson) {
    throw new ExternalServiceError(`skipped: unsupported content type ${mime}: ${url.href}`);
  }
  const charset = declared.charset ?? (HTML.has(mime) ? sniffMetaCharset(body.bytes) : undefined);
  if (looksBinary(body.bytes, charset)) {
    throw new ExternalServiceError(`skipped: binary body served as ${mime}: ${url.href}`);
  }
  const decodeOptions = declared.charset ? { headerCharset: declared.charset } : {};
  if (HTML.has(mime)) {
    const cut = body.bytes.length > input.maxHtmlBytes;
    const html = cut ? body.bytes.subarray(0, input.maxHtmlBytes) : body.bytes;
    const raw = decodeText(html, { ...decodeOptions, sniffMeta: true });
    const extracted = await extractionPool().run({ kind: "html", raw, title, url: url.href });
    const page: ExtractedPage = { ...extracted, truncated: body.truncated || cut };
    const canonicalHref = findCanonicalHref(raw);
    if (canonicalHref !== undefined) page.canonicalHref = canonicalHref;
    return page;
  }
  const text = decodeText(body.bytes, decodeOptions);
  const truncated = body.truncated;
  if (isJson) return { title, text: prettyJson(text), contentType: "application/json", truncated };
  if (mime === "text/plain") return { ...extractPlainText(text, title), truncated };
  return { ...extractMarkdown(text, title), truncated };
}
