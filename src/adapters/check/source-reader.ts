/**
 * Reads the sources a draft cites for `assay check`: a path inside the folder in scope (the
 * corpus fetcher: no escape by "..", symlinks or absolute paths; every format Assay reads), a
 * URL through the guarded HTTP fetcher (no private addresses, robots.txt, size caps), or text
 * given inline. Each is cut into passages with the headings they stand under. Never throws.
 */
import { chunkContent } from "../../core/chunking.js";
import { passagesOf, type ReadSource, type SourceRef } from "../../core/judgment/claim-check.js";
import type { Fetcher } from "../../ports/fetcher.js";

/** Characters read of one source. */
const MAX_CHARS = 2_000_000;

export interface SourceReaderOptions {
  /** Reads paths, inside the folder in scope. */
  files: Fetcher;
  /** Reads URLs; without one a URL is reported as not read. */
  web?: Fetcher;
}

const reason = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export function sourceReader(options: SourceReaderOptions): (source: SourceRef) => Promise<ReadSource> {
  return async (source) => {
    if (source.kind === "text") {
      return { ok: true, label: "text given", title: "", passages: passagesOf(source.text) };
    }
    const label = source.kind === "path" ? source.path : source.url;
    const fetcher = source.kind === "path" ? options.files : options.web;
    if (!fetcher) return { ok: false, label, error: "URLs are read only with --web" };
    try {
      const document = await fetcher.fetch(label, { maxChars: MAX_CHARS });
      const chunks = chunkContent(document.content, { ...(document.sections ? { sections: document.sections } : {}) });
      return {
        ok: true,
        label,
        title: document.title,
        passages: chunks.map((chunk) => ({ text: chunk.text, ...(chunk.location ? { heading: chunk.location } : {}) })),
      };
    } catch (error) {
      return { ok: false, label, error: reason(error) };
    }
  };
}
