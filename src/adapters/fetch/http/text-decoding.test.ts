import { describe, expect, it } from "vitest";
import { decodeText, looksBinary, parseContentType, sniffMetaCharset } from "./text-decoding.js";

const latin1 = (text: string): Buffer => Buffer.from(text, "latin1");

describe("parseContentType", () => {
  it("reads the media type and charset", () => {
    expect(parseContentType('Text/HTML; Charset="ISO-8859-1"')).toEqual({ mime: "text/html", charset: "iso-8859-1" });
    expect(parseContentType("application/json")).toEqual({ mime: "application/json" });
    expect(parseContentType(undefined)).toEqual({ mime: "" });
  });
});

describe("sniffMetaCharset", () => {
  it("finds <meta charset> and the http-equiv form", () => {
    expect(sniffMetaCharset(latin1('<head><meta charset="windows-1252"></head>'))).toBe("windows-1252");
    expect(sniffMetaCharset(latin1('<meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-1">'))).toBe(
      "iso-8859-1",
    );
    expect(sniffMetaCharset(latin1('<meta name="x" content="y">'))).toBeUndefined();
  });
});

describe("decodeText", () => {
  const cafe = latin1("<p>caf\xe9 \xfcber \x80</p>");

  it("uses the BOM, then the header charset, then <meta>, then UTF-8", () => {
    expect(decodeText(cafe, { headerCharset: "windows-1252" })).toBe("<p>café über €</p>");
    expect(decodeText(Buffer.concat([latin1('<meta charset="latin1">'), cafe]), { sniffMeta: true })).toContain(
      "café über €",
    );
    expect(decodeText(Buffer.from("\uFEFFnaïve", "utf8"), { headerCharset: "windows-1252" })).toBe("naïve");
    expect(decodeText(Buffer.from("naïve", "utf8"))).toBe("naïve");
  });

  it("falls back to windows-1252 for undeclared invalid UTF-8, and survives unknown labels", () => {
    expect(decodeText(cafe)).toBe("<p>café über €</p>");
    expect(decodeText(Buffer.from("ok ü", "utf8"), { headerCharset: "x-no-such-charset" })).toBe("ok ü");
  });
});

describe("looksBinary", () => {
  it("flags NUL bytes, control bytes and invalid bytes declared as UTF-8", () => {
    expect(looksBinary(Buffer.from([0x3c, 0x68, 0x00, 0x01]))).toBe(true);
    expect(looksBinary(Buffer.from(Array.from({ length: 100 }, (_, index) => (index % 2 ? 0x41 : 0x02))))).toBe(true);
    const invalid = Buffer.from(Array.from({ length: 400 }, (_, index) => 0x80 + (index % 64)));
    expect(looksBinary(invalid, "utf-8")).toBe(true);
    expect(looksBinary(invalid)).toBe(false);
  });

  it("reads an undeclared or meta-declared legacy page as text", () => {
    const cyrillic = Buffer.from([0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2, 0x20, 0xec, 0xe8, 0xf0]);
    const page = Buffer.concat([latin1('<meta charset="windows-1251"><p>'), cyrillic]);
    expect(looksBinary(cyrillic)).toBe(false);
    expect(decodeText(page, { sniffMeta: true })).toContain("Привет мир");
  });

  it("accepts text, legacy charsets and UTF-16", () => {
    expect(looksBinary(Buffer.from("<html>Grüße\n\tand tabs</html>", "utf8"))).toBe(false);
    expect(looksBinary(latin1("caf\xe9 ".repeat(50)), "windows-1252")).toBe(false);
    expect(looksBinary(Buffer.from("\uFEFFhi", "utf16le"))).toBe(false);
    expect(looksBinary(new Uint8Array())).toBe(false);
  });
});
