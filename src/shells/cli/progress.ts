/**
 * Live progress of a run on stderr: one redrawn status line on a terminal, plain
 * timestamped lines otherwise.
 */
import { performance } from "node:perf_hooks";
import type { RunEvent } from "../../ports/store.js";

export interface ProgressOptions {
  stream: NodeJS.WriteStream;
  maxSources: number;
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)}s`;

function describe(event: RunEvent): string | undefined {
  const data = event.data;
  switch (event.type) {
    case "run-started":
      return `run started: ${String(data.question)}`;
    case "run-resumed":
      return `run resumed with ${String(data.sources)} persisted sources`;
    case "corpus-indexed":
      return `corpus indexed: ${String(data.documents)} documents (${String(data.added)} added, ${String(data.updated)} updated, ${String(data.unchanged)} unchanged)`;
    case "search-finished":
      return `search finished: ${String(data.hits)} hits`;
    case "search-failed":
      return "search failed (see diagnostics)";
    case "source-persisted":
      return `source persisted: ${String(data.anchor)}`;
    case "fetch-failed":
      return `could not read: ${String(data.anchor)}`;
    case "generation-finished":
      return `${String(data.purpose)} finished (${String(data.model)})`;
    case "generation-failed":
      return `${String(data.purpose)} failed: ${String(data.kind)} (the run goes on without it)`;
    case "synthesis-admitted":
      return `synthesis: ${String(data.facts)} facts, ${String(data.derivations)} derivations, ${String(data.recommendations)} recommendations admitted; ${String(data.dropped)} dropped`;
    case "answer-admitted":
      return `answer: ${String(data.statements)} statements and ${String(data.gaps)} gaps admitted; ${String(data.dropped)} dropped`;
    case "budget-exhausted":
      return `stopped at the ${String(data.limit)}`;
    case "deadline-reached":
      return "time limit reached: publishing from persisted sources";
    case "preliminary-published":
      return `preliminary report published (${String(data.sources)} sources)`;
    case "final-published":
      return `report published: ${String(data.status)}`;
    case "publication-failed":
      return "publication failed (see diagnostics)";
    case "run-finished":
      return `run finished: ${String(data.status)}`;
    default:
      return undefined;
  }
}

export function progressListener(options: ProgressOptions): { listener: (event: RunEvent) => void; end: () => void } {
  const { stream } = options;
  const tty = stream.isTTY === true;
  const started = performance.now();
  let stage = "starting";
  let sources = 0;
  let drawn = false;
  let ticker: NodeJS.Timeout | undefined;
  const draw = (): void => {
    stream.write(
      `\r\x1b[2K[${stage}] ${sources}/${options.maxSources} sources · ${seconds(performance.now() - started)}`,
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
    if (event.type === "source-persisted") sources = Number(event.data.persisted ?? sources + 1);
    if (event.type === "run-resumed") sources = Number(event.data.sources ?? 0);
    const line = describe(event);
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
