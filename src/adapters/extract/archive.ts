/**
 * Reading the entries of a ZIP container (DOCX, PPTX, XLSX, ODT, ODS, EPUB) with caps that
 * hold while it is expanded: how many entries it lists, how many bytes the entries read
 * expand to (counted as they inflate, so a size the archive lies about stops it too), and
 * how far one entry may expand against its compressed size. Archives inside an archive are
 * never opened. yauzl checks that every entry inflates to exactly the size the archive lists.
 */
import yauzl, { type Entry, type ZipFile } from "yauzl";

/** A document that cannot be read as what its name says, and why: it is skipped with that reason. */
export class UnreadableDocumentError extends Error {
  override readonly name = "UnreadableDocumentError";
}

export interface ArchiveLimits {
  /** Entries the archive may list. */
  maxEntries: number;
  /** Bytes the entries read may expand to, all together. */
  maxExpandedBytes: number;
  /** Largest expanded / compressed ratio of one entry, checked once it passes `ratioFloorBytes`. */
  maxRatio: number;
  ratioFloorBytes: number;
}

export const ARCHIVE_LIMITS: ArchiveLimits = {
  maxEntries: 10_000,
  maxExpandedBytes: 128 * 1024 * 1024,
  maxRatio: 200,
  ratioFloorBytes: 1024 * 1024,
};

const MB = (bytes: number): string => `${Math.round(bytes / (1024 * 1024))} MB`;

function openZip(bytes: Uint8Array): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(
      Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      { lazyEntries: true, validateEntrySizes: true, strictFileNames: false },
      (error, zip) => (error || !zip ? reject(error ?? new Error("no archive")) : resolve(zip)),
    );
  });
}

/** Every entry name, in the archive's order, without reading any. */
function listEntries(zip: ZipFile): Promise<Entry[]> {
  return new Promise((resolve, reject) => {
    const entries: Entry[] = [];
    zip.on("entry", (entry: Entry) => {
      entries.push(entry);
      zip.readEntry();
    });
    zip.on("end", () => resolve(entries));
    zip.on("error", reject);
    zip.readEntry();
  });
}

/**
 * The entries of archive `bytes` that `wanted` picks (by name), expanded, within `limits`.
 * Rejects with UnreadableDocumentError: not a ZIP archive, too many entries, expanding past
 * the caps, an encrypted entry among those wanted.
 */
export async function readArchive(
  bytes: Uint8Array,
  wanted: (name: string) => boolean,
  limits: ArchiveLimits = ARCHIVE_LIMITS,
): Promise<Map<string, Buffer>> {
  let zip: ZipFile;
  try {
    zip = await openZip(bytes);
  } catch (error) {
    throw new UnreadableDocumentError(`not a readable ZIP container (${(error as Error).message})`);
  }
  try {
    if (zip.entryCount > limits.maxEntries)
      throw new UnreadableDocumentError(
        `the archive lists ${zip.entryCount.toLocaleString("en-US")} entries, more than the ${limits.maxEntries.toLocaleString("en-US")} allowed`,
      );
    let entries: Entry[];
    try {
      entries = await listEntries(zip);
    } catch (error) {
      throw new UnreadableDocumentError(`a malformed ZIP container (${(error as Error).message})`);
    }
    const files = new Map<string, Buffer>();
    let expanded = 0;
    for (const entry of entries) {
      if (entry.fileName.endsWith("/") || !wanted(entry.fileName)) continue;
      if (entry.isEncrypted()) throw new UnreadableDocumentError("password-protected (an encrypted entry)");
      if (expanded + entry.uncompressedSize > limits.maxExpandedBytes)
        throw new UnreadableDocumentError(`expands to more than ${MB(limits.maxExpandedBytes)}`);
      const content = await readEntry(zip, entry, limits, expanded);
      expanded += content.length;
      files.set(entry.fileName, content);
    }
    return files;
  } finally {
    zip.close();
  }
}

function readEntry(zip: ZipFile, entry: Entry, limits: ArchiveLimits, before: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => {
      if (error || !stream) {
        reject(new UnreadableDocumentError(`cannot read ${entry.fileName} (${error?.message ?? "no stream"})`));
        return;
      }
      const parts: Buffer[] = [];
      let size = 0;
      const stop = (reason: string): void => {
        stream.destroy();
        reject(new UnreadableDocumentError(reason));
      };
      stream.on("data", (part: Buffer) => {
        size += part.length;
        if (before + size > limits.maxExpandedBytes) return stop(`expands to more than ${MB(limits.maxExpandedBytes)}`);
        if (size > limits.ratioFloorBytes && size > limits.maxRatio * Math.max(1, entry.compressedSize))
          return stop(`${entry.fileName} expands more than ${limits.maxRatio} times its compressed size (a ZIP bomb?)`);
        parts.push(part);
      });
      stream.on("error", (failure: Error) =>
        reject(new UnreadableDocumentError(`cannot expand ${entry.fileName} (${failure.message})`)),
      );
      stream.on("end", () => resolve(Buffer.concat(parts)));
    });
  });
}

/** An entry's text, UTF-8 (a byte-order mark dropped). */
export function entryText(files: ReadonlyMap<string, Buffer>, name: string): string | undefined {
  const content = files.get(name);
  return content === undefined ? undefined : new TextDecoder("utf-8").decode(content);
}

/** The bytes of an OLE compound file: what an encrypted Office document (or a legacy .doc/.xls) is. */
export function isCompoundFile(bytes: Uint8Array): boolean {
  const magic = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
  return bytes.length >= 8 && magic.every((byte, index) => bytes[index] === byte);
}
