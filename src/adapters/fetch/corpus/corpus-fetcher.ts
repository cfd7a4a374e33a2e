/**
 * Reads a corpus document by its corpus-relative path and extracts clean text. The path
 * is validated and resolved so that nothing outside the corpus can be read.
 */
import { readFile } from "node:fs/promises";
import { relative, sep } from "node:path";
import { ExternalServiceError, UserError } from "../../../core/errors.js";
import type { FetchedDocument, Fetcher, FetchOptions } from "../../../ports/fetcher.js";
import { resolveCorpusFile } from "../../corpus/corpus-paths.js";
import { extractFileOffThread } from "../../extract/extraction-pool.js";

export class CorpusFetcher implements Fetcher {
  readonly #root: string;

  /** `root` is the real, absolute corpus folder. */
  constructor(root: string) {
    this.#root = root;
  }

  async fetch(anchor: string, options: FetchOptions): Promise<FetchedDocument> {
    options.signal?.throwIfAborted();
    const resolved = await resolveCorpusFile(this.#root, anchor);
    if (!resolved.ok) throw new UserError(`refused to read "${anchor}": ${resolved.error}`);
    let bytes: Buffer;
    try {
      bytes = await readFile(resolved.value.absolute);
    } catch (error) {
      throw new ExternalServiceError(`cannot read ${resolved.value.path}`, { cause: error });
    }
    options.signal?.throwIfAborted();
    // Identity is the real path: a link and its target inside the corpus are one source,
    // so the target's name (not the link's) picks the extractor and the fallback title.
    const canonical = relative(this.#root, resolved.value.absolute).split(sep).join("/");
    const extracted = await extractFileOffThread(canonical, bytes, options.signal);
    const truncated = extracted.truncated === true || extracted.text.length > options.maxChars;
    return {
      requestedAnchor: anchor,
      canonicalAnchor: canonical,
      title: extracted.title,
      transport: "corpus",
      path: canonical,
      domain: "",
      content: extracted.text.slice(0, options.maxChars),
      truncated,
      contentType: extracted.contentType,
      ...(extracted.sections ? { sections: extracted.sections } : {}),
    };
  }
}
