/** `assay runs list` and `assay runs show`. */
import { UserError } from "../../core/errors.js";
import { runTimings } from "../../core/timings.js";
import { describeQuery } from "../../host/publication.js";
import type { RunEvent, Store } from "../../ports/store.js";
import { displayStatus } from "./run-state.js";

/** "   2 generations, 1 800 in / 240 out tokens, $0.0012" from the generation events. */
function usageLine(events: readonly RunEvent[]): string {
  const done = events.filter((event) => event.type === "generation-finished" || event.type === "generation-failed");
  if (done.length === 0) return "";
  let input = 0;
  let output = 0;
  let cost: number | undefined;
  for (const event of done) {
    const usage = event.data.usage as { inputTokens?: number; outputTokens?: number; costUsd?: number } | undefined;
    input += usage?.inputTokens ?? 0;
    output += usage?.outputTokens ?? 0;
    if (usage?.costUsd !== undefined) cost = (cost ?? 0) + usage.costUsd;
  }
  const price = cost === undefined ? "" : `, $${cost.toFixed(4)}`;
  return `   (${done.length} generation${done.length === 1 ? "" : "s"}, ${input} in / ${output} out tokens${price})`;
}

const ms = (value: number | undefined): string => (value === undefined ? "—" : `${Math.round(value)} ms`);

export async function listRuns(
  store: Store,
  options: { json: boolean; limit: number },
  out: NodeJS.WritableStream,
): Promise<void> {
  const runs = await store.listRuns({ limit: options.limit });
  if (options.json) {
    const rows = runs.map((run) => ({
      id: run.id,
      status: displayStatus(run),
      artifactStatus: run.artifactStatus,
      question: run.request.question,
      strategy: run.request.strategy,
      scope: run.request.scope.label,
      createdAt: run.createdAt,
      finishedAt: run.finishedAt,
      outDir: run.request.outDir,
    }));
    out.write(`${JSON.stringify(rows)}\n`);
    return;
  }
  if (runs.length === 0) {
    out.write('No runs yet. Start one with: assay run "<question>" --corpus <folder>\n');
    return;
  }
  out.write(`${"ID".padEnd(5)} ${"STATUS".padEnd(12)} ${"REPORT".padEnd(14)} ${"CREATED".padEnd(20)} QUESTION\n`);
  for (const run of runs) {
    const question = run.request.question.replace(/\s+/g, " ");
    out.write(
      `${String(run.id).padEnd(5)} ${displayStatus(run).padEnd(12)} ${(run.artifactStatus || "—").padEnd(14)} ${run.createdAt.slice(0, 19).replace("T", " ").padEnd(20)} ${question.length > 60 ? `${question.slice(0, 59)}…` : question}\n`,
    );
  }
}

export async function showRun(
  store: Store,
  runId: number,
  options: { json: boolean },
  out: NodeJS.WritableStream,
): Promise<void> {
  const run = await store.getRun(runId);
  if (!run) throw new UserError(`there is no run ${runId}; see assay runs list`);
  const [events, calls, sources, diagnostics] = await Promise.all([
    store.listEvents(runId),
    store.listSearchCalls(runId),
    store.listSources(runId),
    store.listDiagnostics(runId),
  ]);
  const timings = runTimings(events);
  if (options.json) {
    out.write(
      `${JSON.stringify({
        run: { ...run, displayStatus: displayStatus(run) },
        timings,
        searches: calls.map(({ hits, ...call }) => ({ ...call, hitCount: hits.length })),
        sources: sources.map(({ content, chunks, ...source }) => ({
          ...source,
          chars: content.length,
          chunks: chunks.length,
        })),
        diagnostics,
        events,
      })}\n`,
    );
    return;
  }
  const lines = [
    `Run ${run.id}: ${displayStatus(run)}${run.artifactStatus ? ` — ${run.artifactStatus} report` : ""}`,
    `Question:  ${run.request.question}`,
    `Strategy:  ${run.request.strategy}   model: ${run.request.model}${usageLine(events)}`,
    `Scope:     ${run.request.scope.kind === "corpus" ? `corpus ${run.request.scope.label} (${run.request.scope.root})` : run.request.scope.label}`,
    `Report:    ${run.request.outDir}`,
    `Started:   ${run.originAt}${run.finishedAt ? `   finished: ${run.finishedAt}` : ""}`,
    `Timings:   first source fetched ${ms(timings.firstSourceFetchedMs)}, persisted ${ms(timings.firstSourcePersistedMs)}; preliminary ${ms(timings.preliminaryPublishedMs)}; final ${ms(timings.finalPublishedMs)}; finished ${ms(timings.terminalMs)}`,
    "",
    `Searches (${calls.length}):`,
    ...calls.map(
      (call) =>
        `  ${call.id}  ${call.origin.padEnd(9)} ${call.status.padEnd(6)} ${String(call.hits.length).padStart(3)} hits  ${describeQuery(call.query)}`,
    ),
    "",
    `Sources (${sources.length}):`,
    ...sources.map(
      (source) =>
        `  ${source.id}  ${(source.path ?? source.url ?? "").padEnd(40)} ${String(source.content.length).padStart(7)} chars  ${source.chunks.length} passages  persisted at ${ms(source.persistedMs)}${source.truncated ? "  (truncated)" : ""}`,
    ),
  ];
  if (diagnostics.length > 0) {
    lines.push("", `Diagnostics (${diagnostics.length}):`);
    for (const diagnostic of diagnostics) {
      lines.push(
        `  ${ms(diagnostic.offsetMs).padStart(9)}  ${diagnostic.stage}/${diagnostic.code}: ${diagnostic.message}`,
      );
    }
  }
  lines.push("", `Events: ${events.length} (assay runs show ${run.id} --json lists them)`);
  out.write(`${lines.join("\n")}\n`);
}
