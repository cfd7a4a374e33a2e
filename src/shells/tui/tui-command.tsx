/**
 * `assay tui` and `assay run --tui`: the terminal UI over the store. Without an interactive
 * terminal both fall back to plain lines: `assay tui` prints the runs list (or, with --run,
 * follows that run's progress until it ends); `assay run --tui` prints the usual progress.
 */
import { realpath } from "node:fs/promises";
import { isAbsolute, join, resolve } from "node:path";
import { render } from "ink";
import { UserError } from "../../core/errors.js";
import type { RunRequest, Store } from "../../ports/store.js";
import type { Runtime } from "../../runtime/runtime.js";
import { readConfigFile } from "../cli/config-file.js";
import { modelSpec, resolveModel } from "../cli/model-choice.js";
import type { DataPaths } from "../cli/paths.js";
import { progressListener } from "../cli/progress.js";
import { conclude, withInterrupt } from "../cli/run-execution.js";
import type { CommonOptions } from "../cli/run-request.js";
import { buildRequest } from "../cli/run-request.js";
import { listRuns } from "../cli/runs-list.js";
import { artifactStoreFor, openStore } from "../cli/stores.js";
import { interactive } from "../cli/terminal.js";
import { buildRuntime } from "../cli/wiring.js";
import { corpusChoices } from "../web/form.js";
import { App } from "./app.js";
import { type NewResearch, startDetached, storeData, type TuiData } from "./tui-data.js";

export interface TuiOptions {
  db?: string;
  corpusRoot?: string[];
  run?: number;
  model?: string;
  config?: string | false;
}

const colorAllowed = (environment: Record<string, string | undefined>): boolean =>
  environment.NO_COLOR === undefined || environment.NO_COLOR === "";

/**
 * Renders `App` on the terminal's alternate screen until the user quits; the screen and the
 * scrollback the user had come back afterwards. Frames are one row shorter than the terminal,
 * so that Ink redraws only what changed instead of clearing the screen each time.
 */
async function show(element: React.ReactElement): Promise<void> {
  process.stdout.write("\u001b[?1049h");
  try {
    const instance = render(element, { exitOnCtrlC: false, patchConsole: true });
    await instance.waitUntilExit();
  } finally {
    process.stdout.write("\u001b[?1049l");
  }
}

export async function tuiCommand(
  paths: DataPaths,
  options: TuiOptions,
  environment: Record<string, string | undefined>,
  bin: string,
): Promise<number> {
  const store = await openStore(paths, options.db);
  try {
    if (options.run !== undefined && !(await store.getRun(options.run)))
      throw new UserError(`there is no run ${options.run}; see assay runs list`);
    const roots: string[] = [];
    for (const root of options.corpusRoot ?? []) {
      try {
        roots.push(await realpath(root));
      } catch {
        throw new UserError(`--corpus-root ${root} does not exist or cannot be read`);
      }
    }
    if (!interactive()) {
      if (options.run !== undefined) return await followPlain(store, options.run);
      process.stderr.write("assay tui: not an interactive terminal; here is the runs list instead.\n");
      await listRuns(store, { json: false, limit: 50 }, process.stdout);
      return 0;
    }
    const first = roots[0] ?? process.cwd();
    const corpora = (await corpusChoices(roots)).map((choice) => ({
      label: choice.label,
      value: isAbsolute(choice.value) ? choice.value : resolve(first, choice.value),
    }));
    const spec = modelSpec(options.model, environment);
    // Refused now (exit 2) rather than by the detached process, where no one would see why.
    resolveModel(spec, environment);
    const file = readConfigFile({ explicit: options.config, home: paths.home });
    // Records the run here and drives it in its own detached process: it outlives the interface.
    const runtime = buildRuntime(paths, store, undefined, {});
    const launch = async (request: RunRequest): Promise<number> => {
      // A follow-up or a revision keeps its parent's model: one this interface cannot build is refused here,
      // where the prompt says why, not by the detached process.
      resolveModel(request.model, environment);
      const run = await runtime.createQueued(request);
      startDetached(bin, run.id, options.db, process.env, join(paths.home, "logs", `run-${run.id}.log`));
      return run.id;
    };
    const start = async (research: NewResearch): Promise<number> => {
      const request = await buildRequest(
        research.question,
        { corpus: research.corpus, strategy: research.strategy, language: "en" },
        { model: spec, file },
      );
      return launch({ ...request, scope: { ...request.scope, label: research.label } });
    };
    const data = storeData(store, artifactStoreFor(store), { corpora, start, launch });
    await show(
      <App
        data={data}
        color={colorAllowed(environment)}
        {...(options.run === undefined ? {} : { initial: { name: "run" as const, runId: options.run } })}
      />,
    );
    return 0;
  } finally {
    await store.close();
  }
}

/** Plain progress lines of a run driven elsewhere, read from the store until it ends. */
async function followPlain(store: Store, runId: number): Promise<number> {
  const run = await store.getRun(runId);
  const progress = progressListener({ stream: process.stderr, maxSources: run?.request.budgets.maxSources ?? 0 });
  let after = 0;
  let endedPolls = 0;
  for (;;) {
    const current = await store.getRun(runId);
    let finished = false;
    for (const event of await store.listEvents(runId, { afterSeq: after })) {
      progress.listener(event);
      after = event.seq;
      if (event.type === "run-finished") finished = true;
    }
    if (!current || current.status !== "running") {
      if (finished || ++endedPolls > 1) {
        progress.end();
        process.stdout.write(
          `Run ${runId} ${current?.status ?? "missing"}: ${current?.artifactStatus || "nothing"} published.\n`,
        );
        return current?.status === "finished" ? 0 : 1;
      }
    }
    await new Promise((done) => setTimeout(done, 250));
  }
}

/**
 * `assay run --tui` on a terminal: the run is driven in this process, as without --tui, while
 * the live view follows it and then shows its report. q or Ctrl-C while it goes on stops it
 * as Ctrl-C does without the interface: the Host publishes what is persisted.
 */
export async function runWithTui(
  store: Store,
  runtime: Runtime,
  request: RunRequest,
  options: CommonOptions,
  environment: Record<string, string | undefined>,
): Promise<number> {
  try {
    const run = await runtime.createQueued(request);
    const data: TuiData = storeData(store, artifactStoreFor(store), {
      corpora: [],
      start: () => Promise.reject(new UserError("start new researches from assay tui")),
      launch: (request) =>
        Promise.reject(
          new UserError(
            request.lineage?.relation === "revision"
              ? "revise reports from assay tui, or with assay revise"
              : "ask follow-ups from assay tui, or with assay ask",
          ),
        ),
    });
    let settled = false;
    const ui = show(
      <App
        data={data}
        single
        color={colorAllowed(environment)}
        initial={{ name: "run", runId: run.id }}
        onQuit={() => {
          // Stopping the interface while the run goes on stops the run, as Ctrl-C does: it publishes.
          if (!settled) process.kill(process.pid, "SIGINT");
        }}
      />,
    );
    const { outcome, interrupted } = await withInterrupt((signal) => runtime.start(run.id, { signal }));
    settled = true;
    await ui;
    // Ink leaves the cursor at the end of its last line.
    process.stdout.write("\n");
    return conclude(outcome, interrupted, options);
  } finally {
    await store.close();
  }
}
