/**
 * One extraction in a worker thread of the extraction pool (extraction-pool.ts): a corpus
 * file by its extension (extract-by-type.ts), or a fetched HTML page or PDF. A page that loops or exhausts the
 * worker's heap ends this thread, never the process.
 */
import { extractFile } from "./extract-by-type.js";
import type { ExtractedDocument } from "./extracted-document.js";
import { extractHtml } from "./html-extractor.js";
import { extractPdf } from "./pdf-extractor.js";

export type ExtractionTask =
  | { kind: "file"; name: string; bytes: Uint8Array }
  | { kind: "html"; raw: string; title: string; url: string }
  | { kind: "pdf"; bytes: Uint8Array; title: string }
  /** Test hooks: a task that never ends, one that throws, one that kills its thread. */
  | { kind: "test-hang" }
  | { kind: "test-throw"; message: string }
  | { kind: "test-exit" };

export default async function extract(task: ExtractionTask): Promise<ExtractedDocument> {
  switch (task.kind) {
    case "file":
      return extractFile(task.name, task.bytes);
    case "html":
      return extractHtml(task.raw, task.title, task.url);
    case "pdf":
      return extractPdf(task.bytes, task.title);
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
