/** `assay ask`, `assay revise` and `assay runs diff`: research in rounds. */
import { resolve } from "node:path";
import { LOCAL_USER, type RunRelation, type Store } from "../../ports/store.js";
import { childRequest, compareReports, diffLines, newestVersion, ownedRun } from "../lineage.js";
import { resolveModel } from "./model-choice.js";
import { dataPaths } from "./paths.js";
import { localRuntime } from "./run-command.js";
import { execute } from "./run-execution.js";
import type { CommonOptions } from "./run-request.js";
import { artifactStoreFor, openStore } from "./stores.js";

export interface ChildOptions extends CommonOptions {
  model?: string;
  out?: string;
  maxSources?: number;
}

/** Starts a follow-up or a revision of run `runId` and drives it to its report; the exit code. */
export async function continueCommand(
  relation: RunRelation,
  runId: number,
  text: string,
  options: ChildOptions,
): Promise<number> {
  const paths = dataPaths(process.env);
  const store = await openStore(paths, options.db);
  let request: ReturnType<typeof childRequest>;
  let model: ReturnType<typeof resolveModel>;
  try {
    const asked = await ownedRun(store, runId, LOCAL_USER);
    // A revision revises the newest version of the report.
    const parent = relation === "revision" ? await newestVersion(store, asked) : asked;
    request = childRequest(parent, relation, text, {
      ...(options.model ? { model: options.model } : {}),
      ...(options.out ? { outDir: resolve(options.out) } : {}),
      ...(options.maxSources ? { budgets: { maxSources: options.maxSources } } : {}),
    });
    model = resolveModel(request.model, process.env);
    if (!options.quiet && !options.json)
      process.stderr.write(
        relation === "revision"
          ? `Revising the report of run ${parent.id}${parent.id === runId ? "" : ` (the newest version of run ${runId}'s report)`}: ${request.lineage?.instruction}\n`
          : `Following up run ${parent.id}: ${request.question}\n`,
      );
  } catch (error) {
    await store.close();
    throw error;
  }
  const { runtime, indexing } = localRuntime(paths, store, model);
  return execute(
    store,
    options,
    request.budgets.maxSources,
    (listeners, signal) => runtime.run(request, { listeners, signal }),
    indexing,
  );
}

/** `assay runs diff`: what changed between two versions of a report (or a follow-up and its parent). */
export async function diffCommand(
  store: Store,
  runId: number,
  options: { from?: number; to?: number; json?: boolean },
  out: NodeJS.WritableStream,
): Promise<void> {
  const run = await ownedRun(store, runId, LOCAL_USER);
  const comparison = await compareReports(store, artifactStoreFor(store), run, {
    ...(options.from === undefined ? {} : { from: options.from }),
    ...(options.to === undefined ? {} : { to: options.to }),
  });
  out.write(options.json ? `${JSON.stringify(comparison, null, 2)}\n` : `${diffLines(comparison).join("\n")}\n`);
}
