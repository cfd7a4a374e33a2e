/**
 * Bytes to text for fetched bodies (pure): the media type and charset of a Content-Type header,
 * the charset a page declares in `<meta>`, detection of binary bodies, and decoding with
 * TextDecoder (a BOM wins, then the header, then `<meta>`, then UTF-8, else windows-1252).
 */

export interface MediaType {
  /** Lower-cased `type/subtype`, '' when absent. */
  mime: string;
  charset?: string;
}

export function parseContentType(header: string | undefined): MediaType {
  if (header === undefined) return { mime: "" };
  const [essence = "", ...parameters] = header.split(";");
  const mime = essence.trim().toLowerCase();
  for (const parameter of parameters) {
    const match = /^\s*charset\s*=\s*"?([^";\s]+)"?\s*$/i.exec(parameter);
    if (match?.[1]) return { mime, charset: match[1].toLowerCase() };
  }
  return { mime };
}

/** The charset named by a `<meta charset>` or `<meta http-equiv content="...; charset=...">` near the top. */
export function sniffMetaCharset(bytes: Uint8Array): string | undefined {
  const head = Buffer.from(bytes.subarray(0, 4096)).toString("latin1");
  for (const match of head.matchAll(/<meta\b[^>]*>/gi)) {
    const charset = /charset\s*=\s*["']?\s*([a-zA-Z0-9_:.-]+)/i.exec(match[0]);
    if (charset?.[1]) return charset[1].toLowerCase();
  }
  return undefined;
}

function bomCharset(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return "utf-8";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  return undefined;
}

function isUtf16(label: string | undefined): boolean {
  return label !== undefined && /^(utf-?16|ucs-?2|unicode)/i.test(label);
}

const SAMPLE = 8192;

/**
 * Whether a body that claims to be text is binary: a NUL byte or many control bytes in the
 * first 8 KiB, or, when it is declared UTF-8, more than 10% of the sample undecodable. An
 * undeclared body with invalid UTF-8 is legacy text (decoded as windows-1252), not binary:
 * real binaries carry NUL bytes. UTF-16 skips the byte checks. `charset` is the declared one.
 */
export function looksBinary(bytes: Uint8Array, charset?: string): boolean {
  const label = bomCharset(bytes) ?? charset;
  if (isUtf16(label)) return false;
  const sample = bytes.subarray(0, SAMPLE);
  if (sample.length === 0) return false;
  let control = 0;
  for (const byte of sample) {
    if (byte === 0) return true;
    if (byte < 0x09 || (byte > 0x0d && byte < 0x20 && byte !== 0x1b)) control++;
  }
  if (control / sample.length > 0.05) return true;
  if (label === undefined || !/^(utf-?8|unicode-1-1-utf-8)$/i.test(label)) return false;
  // stream: true, so a character cut at the end of the sample is not counted as invalid.
  const text = new TextDecoder("utf-8").decode(sample, { stream: true });
  let invalid = 0;
  for (const char of text) if (char === "\uFFFD") invalid++;
  return text.length > 0 && invalid / text.length > 0.1;
}

function isValidUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes, { stream: true });
    return true;
  } catch {
    return false;
  }
}

// windows-1252 differs from latin1 in 0x80-0x9F; Node 20's TextDecoder decodes that range as latin1.
const CP1252_HIGH =
  "\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f" +
  "\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178";

function decodeWindows1252(bytes: Uint8Array): string {
  return Buffer.from(bytes)
    .toString("latin1")
    .replace(/[\x80-\x9f]/g, (char) => CP1252_HIGH[char.charCodeAt(0) - 0x80] ?? char);
}

function decodeWith(label: string, bytes: Uint8Array): string | undefined {
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(label);
  } catch {
    // An unknown label, or a Node built without full ICU: latin1 is the usual intent.
    return /(1252|latin|8859-?1|ascii)/i.test(label) ? decodeWindows1252(bytes) : undefined;
  }
  // The WHATWG Encoding standard maps latin1, iso-8859-1 and ascii labels to windows-1252 too.
  return decoder.encoding === "windows-1252" ? decodeWindows1252(bytes) : decoder.decode(bytes);
}

export interface DecodeOptions {
  /** The charset from the Content-Type header. */
  headerCharset?: string;
  /** Look for `<meta charset>` (HTML only). */
  sniffMeta?: boolean;
}

/** Decodes a text body. Never throws: an unknown charset falls back to UTF-8 or windows-1252. */
export function decodeText(bytes: Uint8Array, options: DecodeOptions = {}): string {
  const declared =
    bomCharset(bytes) ?? options.headerCharset ?? (options.sniffMeta ? sniffMetaCharset(bytes) : undefined);
  const decoded = declared === undefined ? undefined : decodeWith(declared, bytes);
  if (decoded !== undefined) return decoded.replace(/^\uFEFF/, "");
  // Nothing usable declared: UTF-8 when the bytes are valid UTF-8, else the web's legacy default.
  if (isValidUtf8(bytes)) return new TextDecoder("utf-8").decode(bytes);
  return decodeWindows1252(bytes);
}
