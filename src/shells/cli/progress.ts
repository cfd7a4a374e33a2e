/**
 * Live progress of a run on stderr: one redrawn status line on a terminal, plain
 * timestamped lines otherwise.
 */
import { performance } from "node:perf_hooks";
import type { RunEvent } from "../../ports/store.js";
import { describeEvent } from "../event-lines.js";

export interface ProgressOptions {
  stream: NodeJS.WriteStream;
  maxSources: number;
  /** The corpus index being brought up to date, shown on the status line while it lasts. */
  indexing?: IndexMeter;
}

/** How far a corpus refresh has come: fed by the index (its IndexProgress), read by the status line. */
export class IndexMeter {
  #done = 0;
  #total = 0;
  readonly report = (done: number, total: number): void => {
    this.#done = done;
    this.#total = total;
  };
  /** "indexed 1,200 of 5,183 files" while files are left to index; "" otherwise. */
  text(): string {
    if (this.#total === 0 || this.#done >= this.#total) return "";
    const n = (value: number) => value.toLocaleString("en-US");
    return `indexed ${n(this.#done)} of ${n(this.#total)} files`;
  }
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)}s`;

export function progressListener(options: ProgressOptions): { listener: (event: RunEvent) => void; end: () => void } {
  const { stream } = options;
  const tty = stream.isTTY === true;
  const started = performance.now();
  let stage = "starting";
  let sources = 0;
  let drawn = false;
  let ticker: NodeJS.Timeout | undefined;
  const draw = (): void => {
    const indexing = options.indexing?.text() ?? "";
    stream.write(
      `\r\x1b[2K[${stage}] ${indexing === "" ? `${sources}/${options.maxSources} sources` : indexing} · ${seconds(performance.now() - started)}`,
    );
    drawn = true;
  };
  if (tty) {
    // Elapsed time moves even while nothing happens (a slow read, a long index).
    ticker = setInterval(draw, 250);
    ticker.unref();
  }
  const listener = (event: RunEvent): void => {
    if (event.type === "stage-changed") stage = String(event.data.stage);
    // One per source the run read itself, as the source budget counts them (a follow-up's
    // `persisted`, the catalog's size, also counts the parent's sources it reached again).
    if (event.type === "source-persisted") sources += 1;
    if (event.type === "run-resumed") sources = Number(event.data.read ?? event.data.sources ?? 0);
    const line = describeEvent(event);
    if (tty) {
      if (line && (event.type.endsWith("-published") || event.type === "run-finished")) {
        stream.write(`\r\x1b[2K${line}\n`);
      }
      draw();
    } else if (line) {
      stream.write(`${seconds(event.offsetMs).padStart(7)}  ${line}\n`);
    }
  };
  return {
    listener,
    end: () => {
      if (ticker) clearInterval(ticker);
      ticker = undefined;
      if (drawn) stream.write("\r\x1b[2K");
      drawn = false;
    },
  };
}
