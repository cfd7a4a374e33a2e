/**
 * Running a request from the command line: Ctrl-C as a cancel signal, live progress, the
 * hidden crash faults, the summary on stdout and the exit code.
 */
import type { RunEvent, Store } from "../../ports/store.js";
import type { RunOutcome } from "../../runtime/runtime.js";
import { EXIT } from "./exit-codes.js";
import type { Fault } from "./options.js";
import { type IndexMeter, progressListener } from "./progress.js";
import type { CommonOptions } from "./run-request.js";

export function faultListener(fault: Fault | undefined): ((event: RunEvent) => void)[] {
  if (fault === undefined) return [];
  let persisted = 0;
  return [
    (event) => {
      const hit =
        "afterPersisted" in fault
          ? event.type === "source-persisted" && ++persisted >= fault.afterPersisted
          : event.type === fault.afterEvent;
      if (hit) process.kill(process.pid, "SIGKILL");
    },
  ];
}

export function report(outcome: RunOutcome, options: CommonOptions): void {
  if (options.json) {
    process.stdout.write(
      `${JSON.stringify({
        runId: outcome.runId,
        status: outcome.status,
        artifactStatus: outcome.artifactStatus,
        artifacts: outcome.paths ?? null,
        timings: outcome.timings,
      })}\n`,
    );
    return;
  }
  const lines = [`Run ${outcome.runId} ${outcome.status}: ${outcome.artifactStatus || "nothing"} published.`];
  if (outcome.paths) {
    lines.push(`  ${outcome.paths.markdown}`, `  ${outcome.paths.html}`, `  ${outcome.paths.json}`);
  }
  const t = outcome.timings;
  if (t.firstSourcePersistedMs !== undefined)
    lines.push(`First source persisted at ${Math.round(t.firstSourcePersistedMs)} ms.`);
  if (t.terminalMs !== undefined) lines.push(`Finished at ${Math.round(t.terminalMs)} ms.`);
  process.stdout.write(`${lines.join("\n")}\n`);
}

/** Runs `work` with Ctrl-C turned into a cancel signal: acquisition stops, the Host publishes. */
export async function withInterrupt(
  work: (signal: AbortSignal) => Promise<RunOutcome>,
): Promise<{ outcome: RunOutcome; interrupted: boolean }> {
  const controller = new AbortController();
  let interrupted = false;
  const onSignal = (): void => {
    if (interrupted) process.exit(EXIT.interrupted);
    interrupted = true;
    process.stderr.write("\nInterrupted: publishing what is persisted (Ctrl-C again to quit now).\n");
    controller.abort(new Error("interrupted"));
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  try {
    return { outcome: await work(controller.signal), interrupted };
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}

/** Prints the run's summary (and its error or failure) and returns the command's exit code. */
export function conclude(outcome: RunOutcome, interrupted: boolean, options: CommonOptions): number {
  report(outcome, options);
  if (outcome.error !== undefined) {
    process.stderr.write(`assay: ${outcome.error}\n`);
    return EXIT.usage;
  }
  if (outcome.failure !== undefined) process.stderr.write(`assay: the run failed: ${outcome.failure}\n`);
  if (interrupted) return EXIT.interrupted;
  return outcome.status === "finished" ? EXIT.ok : EXIT.failed;
}

export async function execute(
  store: Store,
  options: CommonOptions,
  maxSources: number,
  start: (listeners: ((event: RunEvent) => void)[], signal: AbortSignal) => Promise<RunOutcome>,
  indexing?: IndexMeter,
): Promise<number> {
  const progress = options.quiet
    ? undefined
    : progressListener({ stream: process.stderr, maxSources, ...(indexing ? { indexing } : {}) });
  try {
    const { outcome, interrupted } = await withInterrupt((signal) =>
      start([...(progress ? [progress.listener] : []), ...faultListener(options.fault)], signal),
    );
    progress?.end();
    return conclude(outcome, interrupted, options);
  } finally {
    progress?.end();
    await store.close();
  }
}
