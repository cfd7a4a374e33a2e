/**
 * The progress bar of `assay eval` on stderr: runs done of planned, elapsed time and an
 * estimate of what remains (from the mean time of the runs done in this process). A
 * redrawn line on a terminal, a plain line every few runs otherwise.
 */
import { performance } from "node:perf_hooks";
import type { EvalRunRow } from "../../eval/eval-types.js";
import type { PlannedRun } from "../../eval/harness.js";

/** "1 min 05 s", "42 s". */
export function duration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = seconds % 60;
  if (hours > 0) return `${hours} h ${String(minutes).padStart(2, "0")} min`;
  if (minutes > 0) return `${minutes} min ${String(rest).padStart(2, "0")} s`;
  return `${rest} s`;
}

/** One progress line. Pure. */
export function progressLine(done: number, total: number, elapsedMs: number, doneHere: number, width = 24): string {
  const share = total === 0 ? 1 : done / total;
  const filled = Math.round(share * width);
  const bar = `${"#".repeat(filled)}${"-".repeat(width - filled)}`;
  const left = total - done;
  const estimate = doneHere > 0 && left > 0 ? `, about ${duration((elapsedMs / doneHere) * left)} left` : "";
  return `[${bar}] ${done}/${total} runs, ${duration(elapsedMs)} elapsed${estimate}`;
}

export class EvalProgress {
  readonly #stream: NodeJS.WriteStream;
  readonly #total: number;
  readonly #started = performance.now();
  readonly #tty: boolean;
  #done: number;
  #doneHere = 0;
  #current = "";

  constructor(stream: NodeJS.WriteStream, total: number, alreadyDone: number) {
    this.#stream = stream;
    this.#total = total;
    this.#done = alreadyDone;
    this.#tty = stream.isTTY === true;
    if (alreadyDone > 0) stream.write(`Resuming: ${alreadyDone} of ${total} runs are already done.\n`);
  }

  start(run: PlannedRun): void {
    this.#current = `${run.strategy} · ${run.caseId}${run.fault === "none" ? "" : ` · fault ${run.fault}`}`;
    if (this.#tty) this.#draw();
  }

  finish(row: EvalRunRow): void {
    this.#done += 1;
    this.#doneHere += 1;
    if (this.#tty) this.#draw();
    else if (
      this.#doneHere === 1 ||
      this.#done === this.#total ||
      this.#done % Math.max(1, Math.floor(this.#total / 20)) === 0
    ) {
      this.#stream.write(`${this.#line()} (last: ${row.strategy} ${row.caseId} ${row.status})\n`);
    }
  }

  #line(): string {
    return progressLine(this.#done, this.#total, performance.now() - this.#started, this.#doneHere);
  }

  #draw(): void {
    const columns = this.#stream.columns ?? 100;
    this.#stream.write(`\r\x1b[2K${`${this.#line()} · ${this.#current}`.slice(0, columns - 1)}`);
  }

  end(): void {
    if (this.#tty) this.#stream.write("\r\x1b[2K");
  }
}
