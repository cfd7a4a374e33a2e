/**
 * Extraction of HTML, PDF, office documents, e-books, notebooks and mail in a pool of worker
 * threads (piscina), sized to the machine: a server extracting pages keeps answering,
 * indexing a folder uses every core, and a hostile
 * document that hangs, throws or exhausts memory costs one worker (terminated and replaced)
 * and fails only its own extraction, with a message saying which limit it hit.
 */
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { extname } from "node:path";
import { fileURLToPath } from "node:url";
import { Piscina } from "piscina";
import { ExternalServiceError } from "../../core/errors.js";
import { extractFile, LIGHT_EXTENSIONS } from "./extract-by-type.js";
import type { BatchFile, BatchOutcome, ExtractionTask } from "./extract-worker.js";
import type { ExtractedDocument } from "./extracted-document.js";

export interface ExtractionPoolOptions {
  /** Worker threads; default: the machine's available parallelism, at least 1. */
  threads?: number;
  /** Longest one extraction may take before its worker is terminated; default 30 s. */
  timeoutMs?: number;
  /** Heap of each worker, MiB; a document that needs more fails alone. Default 512. */
  maxHeapMb?: number;
}

export const DEFAULT_EXTRACTION_TIMEOUT_MS = 30_000;

/**
 * The worker's compiled file. Under the test runner this module is TypeScript source and
 * the worker runs from the build (`npm run build`, which `npm test` runs first).
 */
function workerFile(): string {
  const here = fileURLToPath(import.meta.url);
  if (!here.endsWith(".ts")) return fileURLToPath(new URL("./extract-worker.js", import.meta.url));
  const built = fileURLToPath(new URL("../../../dist/adapters/extract/extract-worker.js", import.meta.url));
  if (!existsSync(built)) throw new Error(`the extraction worker is not built (${built}): run npm run build`);
  return built;
}

/** What a task is called in a message. */
const described = (task: ExtractionTask): string => {
  switch (task.kind) {
    case "file":
      return task.name;
    case "files":
      return `${task.files.length} files from ${task.files[0]?.name ?? "nowhere"}`;
    case "html":
      return task.url;
    case "pdf":
      return task.title;
    default:
      return task.kind;
  }
};

export class ExtractionPool {
  readonly threads: number;
  readonly timeoutMs: number;
  readonly #pool: Piscina<ExtractionTask, ExtractedDocument | BatchOutcome[]>;
  /** Tasks in workers now; at most `threads`, so a task's time limit starts when its worker does. */
  #running = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(options: ExtractionPoolOptions = {}) {
    this.threads = Math.max(1, Math.floor(options.threads ?? availableParallelism()));
    this.timeoutMs = options.timeoutMs ?? DEFAULT_EXTRACTION_TIMEOUT_MS;
    this.#pool = new Piscina({
      filename: workerFile(),
      minThreads: 0,
      maxThreads: this.threads,
      // Idle workers end after a while; a CLI process is never kept alive by them.
      idleTimeout: 10_000,
      resourceLimits: { maxOldGenerationSizeMb: options.maxHeapMb ?? 512 },
    });
  }

  /**
   * Runs `task` in a worker. Rejects with ExternalServiceError when the document could not be
   * read (its own error), took longer than the time limit, or ended its worker; with the
   * caller's reason when `signal` aborts.
   */
  async run(task: Exclude<ExtractionTask, { kind: "files" }>, signal?: AbortSignal): Promise<ExtractedDocument> {
    return (await this.#run(task, signal)) as ExtractedDocument;
  }

  /**
   * Reads and extracts light files (plain text, Markdown) in a worker, many for one thread hop:
   * what became of each, in order. Rejects as `run` does when the batch as a whole failed.
   */
  async runBatch(files: BatchFile[], signal?: AbortSignal): Promise<BatchOutcome[]> {
    return (await this.#run({ kind: "files", files }, signal)) as BatchOutcome[];
  }

  async #run(task: ExtractionTask, signal?: AbortSignal): Promise<ExtractedDocument | BatchOutcome[]> {
    await this.#slot(signal);
    const timer = AbortSignal.timeout(this.timeoutMs);
    const both = signal ? AbortSignal.any([signal, timer]) : timer;
    try {
      return await this.#pool.run(task, { signal: both });
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      const what = described(task);
      if (timer.aborted)
        throw new ExternalServiceError(
          `extraction of ${what} took longer than ${this.timeoutMs / 1000} s and was stopped`,
          { cause: error },
        );
      const message = error instanceof Error ? error.message : String(error);
      if (/ERR_WORKER_OUT_OF_MEMORY|out of memory/i.test(message))
        throw new ExternalServiceError(`extraction of ${what} ran out of memory and was stopped`, { cause: error });
      if (/exited|Terminating worker thread/i.test(message))
        throw new ExternalServiceError(`extraction of ${what} ended its worker (${message})`, { cause: error });
      throw error;
    } finally {
      this.#running--;
      this.#waiting.shift()?.();
    }
  }

  /** Waits for a free worker (or the caller's cancel) and takes it. */
  async #slot(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    while (this.#running >= this.threads) {
      await new Promise<void>((resolve, reject) => {
        const wake = (): void => {
          signal?.removeEventListener("abort", cancel);
          resolve();
        };
        const cancel = (): void => {
          const at = this.#waiting.indexOf(wake);
          if (at >= 0) this.#waiting.splice(at, 1);
          reject(signal?.reason);
        };
        this.#waiting.push(wake);
        signal?.addEventListener("abort", cancel, { once: true });
      });
    }
    this.#running++;
  }

  async close(): Promise<void> {
    await this.#pool.destroy();
  }
}

let shared: ExtractionPool | undefined;

/** The process's extraction pool, started at its first use. */
export function extractionPool(): ExtractionPool {
  shared ??= new ExtractionPool();
  return shared;
}

/** A corpus file's title and text (extract-by-type.ts), all but plain text and Markdown in `pool`'s workers. */
export function extractFileOffThread(
  name: string,
  bytes: Uint8Array,
  signal?: AbortSignal,
  pool: ExtractionPool = extractionPool(),
): Promise<ExtractedDocument> {
  if (LIGHT_EXTENSIONS.has(extname(name).toLowerCase())) return extractFile(name, bytes);
  return pool.run({ kind: "file", name, bytes }, signal);
}
