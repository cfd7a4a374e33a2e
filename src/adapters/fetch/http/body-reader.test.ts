import { Readable } from "node:stream";
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { ExternalServiceError } from "../../../core/errors.js";
import { contentCoding, readBody } from "./body-reader.js";

const TEXT = Buffer.from("The quick brown fox jumps over the lazy dog. ".repeat(200));
const chunked = (bytes: Buffer, size = 1000): Readable =>
  Readable.from(
    Array.from({ length: Math.ceil(bytes.length / size) }, (_, index) =>
      bytes.subarray(index * size, (index + 1) * size),
    ),
  );
const limits = { maxBodyBytes: 1_000_000, maxDecodedBytes: 1_000_000 };

describe("readBody", () => {
  it("decodes gzip, zlib deflate, raw deflate and brotli", async () => {
    for (const [coding, bytes] of [
      ["gzip", gzipSync(TEXT)],
      ["x-gzip", gzipSync(TEXT)],
      ["deflate", deflateSync(TEXT)],
      ["deflate", deflateRawSync(TEXT)],
      ["br", brotliCompressSync(TEXT)],
      ["identity", TEXT],
      [undefined, TEXT],
    ] as const) {
      const read = await readBody(chunked(bytes, 97), coding, limits);
      expect(read.truncated, coding).toBe(false);
      expect(read.bytes.equals(TEXT), coding).toBe(true);
    }
  });

  it("cuts at the raw cap and at the decoded cap", async () => {
    const raw = await readBody(chunked(TEXT), undefined, { maxBodyBytes: 2500, maxDecodedBytes: 10 });
    expect(raw).toMatchObject({ truncated: true });
    expect(raw.bytes.equals(TEXT.subarray(0, 2500))).toBe(true);
    const decoded = await readBody(chunked(gzipSync(TEXT)), "gzip", { maxBodyBytes: 1_000_000, maxDecodedBytes: 3000 });
    expect(decoded.truncated).toBe(true);
    expect(decoded.bytes.equals(TEXT.subarray(0, 3000))).toBe(true);
  });

  it("decodes a compressed body cut at the raw cap as far as it goes", async () => {
    const compressed = gzipSync(Buffer.from(Array.from({ length: 20_000 }, (_, index) => `${index}`).join(",")));
    const read = await readBody(chunked(compressed, 100), "gzip", { maxBodyBytes: 4000, maxDecodedBytes: 1_000_000 });
    expect(read.truncated).toBe(true);
    expect(read.bytes.toString().startsWith("0,1,2,3,")).toBe(true);
  });

  it("does not flag a body that ends exactly at the cap", async () => {
    const read = await readBody(chunked(TEXT), undefined, { maxBodyBytes: TEXT.length, maxDecodedBytes: 1 });
    expect(read.truncated).toBe(false);
  });

  it("fails clearly on corrupt data and unknown codings", async () => {
    await expect(readBody(chunked(Buffer.from("not gzip at all")), "gzip", limits)).rejects.toThrow(
      /cannot decompress the gzip body/,
    );
    expect(() => contentCoding("zstd")).toThrow(ExternalServiceError);
    expect(() => contentCoding("gzip, br")).toThrow(/unsupported content encoding "gzip, br"/);
    expect(contentCoding(" Identity ")).toBe("identity");
  });
});
