/**
 * One extraction in a worker thread of the extraction pool (extraction-pool.ts): a corpus
 * file by its extension (extract-by-type.ts), or a fetched HTML page or PDF. A page that loops or exhausts the
 * worker's heap ends this thread, never the process.
 */
import { readFileSync } from "node:fs";
import { describeError } from "../../core/errors.js";
import { extractFile } from "./extract-by-type.js";
import type { ExtractedDocument } from "./extracted-document.js";

/** A corpus file of a batch: `name` gives its type and fallback title, `path` where it is read. */
export interface BatchFile {
  name: string;
  path: string;
}

/** What became of one file of a batch: its document, or why it could not be read. */
export type BatchOutcome = { ok: true; document: ExtractedDocument } | { ok: false; error: string };

export type ExtractionTask =
  | { kind: "file"; name: string; bytes: Uint8Array }
  /** Light files (plain text, Markdown) read and extracted here, many for one thread hop. */
  | { kind: "files"; files: BatchFile[] }
  | { kind: "html"; raw: string; title: string; url: string }
  | { kind: "pdf"; bytes: Uint8Array; title: string }
  /** Test hooks: a task that never ends, one that throws, one that kills its thread. */
  | { kind: "test-hang" }
  | { kind: "test-throw"; message: string }
  | { kind: "test-exit" };

export default async function extract(task: ExtractionTask): Promise<ExtractedDocument | BatchOutcome[]> {
  switch (task.kind) {
    case "file":
      return extractFile(task.name, task.bytes);
    case "files":
      return extractBatch(task.files);
    // Each reader loads with its first document: a worker given only light files never loads the DOM.
    case "html":
      return (await import("./html-extractor.js")).extractHtml(task.raw, task.title, task.url);
    case "pdf":
      return (await import("./pdf-extractor.js")).extractPdf(task.bytes, task.title);
    case "test-hang":
      for (;;) {
        // A page whose parsing never returns: only terminating the thread stops it.
      }
    case "test-throw":
      throw new Error(task.message);
    case "test-exit":
      process.exit(3);
  }
}

/** Each file of the batch read and extracted in turn; one that cannot be read fails alone. */
async function extractBatch(files: readonly BatchFile[]): Promise<BatchOutcome[]> {
  const outcomes: BatchOutcome[] = [];
  for (const file of files) {
    try {
      outcomes.push({ ok: true, document: await extractFile(file.name, readFileSync(file.path)) });
    } catch (error) {
      outcomes.push({ ok: false, error: describeError(error) });
    }
  }
  return outcomes;
}
