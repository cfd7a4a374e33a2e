/**
 * Reads a response body as a stream under two caps: raw bytes on the wire and decoded bytes
 * after decompression. Reading stops at a cap (the rest is never read, the stream is destroyed)
 * and the result says it was truncated, so an endless page or a compression bomb costs at most
 * the cap in memory.
 */
import { pipeline, Readable, type Transform } from "node:stream";
import * as zlib from "node:zlib";
import { ExternalServiceError } from "../../../core/errors.js";

export interface BodyLimits {
  /** Most bytes read from the wire. */
  maxBodyBytes: number;
  /** Most bytes after decompression (the same as maxBodyBytes when the body is not compressed). */
  maxDecodedBytes: number;
}

export interface BodyRead {
  bytes: Buffer;
  /** True when a cap cut the body. */
  truncated: boolean;
}

export const SUPPORTED_ENCODINGS = "gzip, deflate, br";

/** The content coding of a response, or throws ExternalServiceError for one we cannot decode. */
export function contentCoding(header: string | undefined): "identity" | "gzip" | "deflate" | "br" {
  const codings = (header ?? "")
    .split(",")
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== "" && coding !== "identity");
  if (codings.length === 0) return "identity";
  const [only] = codings;
  if (codings.length === 1 && (only === "gzip" || only === "x-gzip")) return "gzip";
  if (codings.length === 1 && (only === "deflate" || only === "br")) return only;
  throw new ExternalServiceError(`skipped: unsupported content encoding "${codings.join(", ")}"`);
}

// Sync flush at the end: a body cut at the raw cap decodes as far as it goes instead of failing.
const ZLIB_OPTIONS = { finishFlush: zlib.constants.Z_SYNC_FLUSH };

function decoderFor(coding: "gzip" | "deflate" | "br", first: Uint8Array): Transform {
  if (coding === "gzip") return zlib.createGunzip(ZLIB_OPTIONS);
  if (coding === "br") return zlib.createBrotliDecompress({ finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH });
  // "deflate" should be zlib-wrapped (RFC 9110), but some servers send raw deflate.
  return ((first[0] ?? 0) & 0x0f) === 0x08 ? zlib.createInflate(ZLIB_OPTIONS) : zlib.createInflateRaw(ZLIB_OPTIONS);
}

/** Yields at most `limit` bytes of `source`, setting `state.truncated` when more were there. */
async function* capped(
  source: AsyncIterable<Uint8Array>,
  limit: number,
  state: { truncated: boolean },
): AsyncGenerator<Uint8Array> {
  let total = 0;
  for await (const chunk of source) {
    const room = limit - total;
    if (chunk.byteLength > room) {
      state.truncated = true;
      if (room > 0) yield chunk.subarray(0, room);
      return;
    }
    total += chunk.byteLength;
    yield chunk;
  }
}

async function* decoded(
  raw: AsyncGenerator<Uint8Array>,
  coding: "gzip" | "deflate" | "br",
): AsyncGenerator<Uint8Array> {
  const first = await raw.next();
  if (first.done) return;
  const head = first.value;
  async function* whole(): AsyncGenerator<Uint8Array> {
    yield head;
    yield* raw;
  }
  const decoder = pipeline(Readable.from(whole(), { objectMode: false }), decoderFor(coding, head), () => {});
  try {
    for await (const chunk of decoder) yield chunk as Uint8Array;
  } catch (error) {
    if (error instanceof Error && "errno" in error) {
      throw new ExternalServiceError(`cannot decompress the ${coding} body: ${error.message}`, { cause: error });
    }
    throw error;
  } finally {
    decoder.destroy();
  }
}

/**
 * Reads `body` decoded by `contentEncoding` under `limits`. Always destroys `body` before
 * returning, so a cut-off server connection is closed rather than drained.
 */
export async function readBody(
  body: Readable,
  contentEncoding: string | undefined,
  limits: BodyLimits,
): Promise<BodyRead> {
  try {
    const coding = contentCoding(contentEncoding);
    const rawState = { truncated: false };
    const decodedState = { truncated: false };
    const raw = capped(body, limits.maxBodyBytes, rawState);
    const source = coding === "identity" ? raw : decoded(raw, coding);
    const limit = coding === "identity" ? limits.maxBodyBytes : limits.maxDecodedBytes;
    const chunks: Uint8Array[] = [];
    for await (const chunk of capped(source, limit, decodedState)) chunks.push(chunk);
    return { bytes: Buffer.concat(chunks), truncated: rawState.truncated || decodedState.truncated };
  } finally {
    body.destroy();
  }
}
