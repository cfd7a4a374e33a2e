/** `assay run` and `assay resume`: one research driven in this process, followed on stderr or in the TUI. */
import { UserError } from "../../core/errors.js";
import { isQueued, type Store } from "../../ports/store.js";
import type { Runtime } from "../../runtime/runtime.js";
import { readConfigFile } from "./config-file.js";
import { modelSpec, resolveModel } from "./model-choice.js";
import { type DataPaths, dataPaths } from "./paths.js";
import { IndexMeter } from "./progress.js";
import type { EnqueueOptions } from "./queue-commands.js";
import { execute } from "./run-execution.js";
import { buildRequest, type CommonOptions, type RunCommandOptions } from "./run-request.js";
import { openStore } from "./stores.js";
import { interactive } from "./terminal.js";
import { buildRuntime } from "./wiring.js";

export type RunOptions = RunCommandOptions & EnqueueOptions & { queue?: boolean; tui?: boolean };

/** The runtime of a run driven in this process, and the meter its corpus index's refresh reports to. */
export function localRuntime(
  paths: DataPaths,
  store: Store,
  model: ReturnType<typeof resolveModel>,
): { runtime: Runtime; indexing: IndexMeter } {
  const indexing = new IndexMeter();
  return { runtime: buildRuntime(paths, store, model, process.env, { indexProgress: indexing.report }), indexing };
}

/** Researches `question` (or queues it with `--queue`); the exit code. */
export async function runCommand(question: string, options: RunOptions): Promise<number> {
  const paths = dataPaths(process.env);
  const spec = modelSpec(options.model, process.env);
  // A queued run's worker builds the model from the spec, with its own environment's keys.
  const model = options.queue ? undefined : resolveModel(spec, process.env);
  const file = readConfigFile({ explicit: options.config, home: paths.home });
  const request = await buildRequest(question, options, { model: spec, file });
  if (options.queue) return (await import("./queue-commands.js")).enqueueRun(paths, request, options);
  const store = await openStore(paths, options.db);
  const { runtime, indexing } = localRuntime(paths, store, model);
  if (options.tui && interactive())
    return (await import("../tui/tui-command.js")).runWithTui(store, runtime, request, options, process.env);
  return execute(
    store,
    options,
    request.budgets.maxSources,
    (listeners, signal) => runtime.run(request, { listeners, signal }),
    indexing,
  );
}

/** Continues interrupted run `runId` (or starts a recorded one); the exit code. */
export async function resumeCommand(runId: number, options: CommonOptions): Promise<number> {
  const paths = dataPaths(process.env);
  const store = await openStore(paths, options.db);
  const run = await store.getRun(runId);
  if (!run) {
    await store.close();
    throw new UserError(`there is no run ${runId}; see assay runs list`);
  }
  if (run.status !== "running") {
    await store.close();
    throw new UserError(`run ${runId} is ${run.status}; only an interrupted run can be resumed`);
  }
  let model: ReturnType<typeof resolveModel>;
  try {
    model = resolveModel(run.request.model, process.env);
  } catch (error) {
    await store.close();
    throw error;
  }
  const { runtime, indexing } = localRuntime(paths, store, model);
  // A run recorded but never started (by `assay tui`, or a server that stopped) starts from the beginning.
  const queued = isQueued(run);
  // The run's lease decides who drives it: the runtime refuses a run another process holds.
  return execute(
    store,
    options,
    run.request.budgets.maxSources,
    (listeners, signal) =>
      queued ? runtime.start(runId, { listeners, signal }) : runtime.resume(runId, { listeners, signal }),
    indexing,
  );
}
