/** `assay runs show` and `assay runs export` (`runs list` is runs-list.ts: it loads far less). */
import { randomBytes } from "node:crypto";
import { rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { FilesystemArtifactStore } from "../../adapters/artifacts/filesystem/filesystem-artifact-store.js";
import { REPORT_FILE_FORMATS, type ReportFileFormat, renderReportFile } from "../../adapters/render/report-files.js";
import type { PostgresStore } from "../../adapters/store/postgres/postgres-store.js";
import { UserError } from "../../core/errors.js";
import { atifTrajectory } from "../../core/investigative/atif.js";
import {
  challengeLines,
  challengeStats,
  frontierStats,
  frontierStatsLines,
  frontierTree,
  investigationExport,
  ledgerLines,
  transitionsTimeline,
} from "../../core/investigative/observability.js";
import { parseReportDocument } from "../../core/report/report-document.js";
import { runTimings } from "../../core/timings.js";
import { runCost, usageOf } from "../../core/usage.js";
import { describeQuery } from "../../host/publication.js";
import type { ArtifactFiles } from "../../ports/artifact-store.js";
import {
  EMPTY_INVESTIGATION,
  type InvestigationStore,
  type StoredInvestigation,
} from "../../ports/investigation-store.js";
import type { EvidenceScope, RunEvent, RunRecord, Store } from "../../ports/store.js";
import type { ExportFormat } from "./options.js";
import { displayStatus } from "./run-state.js";
import { artifactStoreFor } from "./stores.js";

/** "   (2 generations, 1800 in / 240 out tokens, $0.0012)" from the generation events. */
function usageLine(events: readonly RunEvent[]): string {
  const usage = usageOf(events);
  if (usage.generations === 0) return "";
  const cost = runCost(usage);
  const price = cost === undefined ? "" : `, ${cost}`;
  return `   (${usage.generations} generation${usage.generations === 1 ? "" : "s"}, ${usage.inputTokens} in / ${usage.outputTokens} out tokens${price})`;
}

const ms = (value: number | undefined): string => (value === undefined ? "—" : `${Math.round(value)} ms`);

/** How many of the latest transitions `runs show` prints. */
const SHOWN_TRANSITIONS = 40;

const hasInvestigations = (store: Store): store is Store & InvestigationStore =>
  typeof (store as Partial<InvestigationStore>).loadInvestigation === "function";

/** The run's investigation, or undefined for a run without one (or a store that keeps none). */
async function loadInvestigation(store: Store, runId: number): Promise<StoredInvestigation | undefined> {
  if (!hasInvestigations(store)) return undefined;
  const stored = await store.loadInvestigation(runId);
  return stored.questions.length > 0 ? stored : undefined;
}

/** The export without the run and the events, which `runs show --json` has already. */
function investigationJson(run: RunRecord, stored: StoredInvestigation) {
  const { run: _run, events: _events, ...rest } = investigationExport(run, stored, []);
  return rest;
}

/** The Frontier, Transitions, Challenges and Claims sections of `runs show`. */
function investigationLines(run: RunRecord, stored: StoredInvestigation): string[] {
  const until = run.finishedAt ? { until: run.finishedAt } : {};
  const timeline = transitionsTimeline(stored.transitions);
  const shown = timeline.slice(-SHOWN_TRANSITIONS);
  const left = timeline.length - shown.length;
  const ledger = ledgerLines(stored.claims, stored.claimSources);
  return [
    "",
    `Frontier (${stored.questions.length} questions):`,
    ...frontierTree(stored.questions, stored.transitions).map((line) => `  ${line}`),
    ...frontierStatsLines(frontierStats(stored.questions, stored.transitions, until)),
    "",
    `Transitions (${timeline.length}):`,
    ...(left > 0 ? [`  (${left} earlier left out; assay runs export ${run.id} has them all)`] : []),
    ...shown.map((line) => `  ${line}`),
    "",
    `Challenges (${stored.challenges.length}):`,
    ...challengeLines(challengeStats(stored.challenges, stored.transitions)),
    "",
    `Claims (${stored.claims.length}):`,
    ...(ledger.length > 0 ? ledger.map((line) => `  ${line}`) : ["  none"]),
  ];
}

/** Where the run's report lives: the database (with its current version) or the run's folder. */
async function reportLocation(
  store: Store,
  run: RunRecord,
): Promise<{ store: "database"; version: string | null } | { store: "folder"; dir: string }> {
  if (store.backend !== "postgres") return { store: "folder", dir: run.request.outDir };
  const current = await (store as PostgresStore).artifacts.currentVersion(run.id);
  return { store: "database", version: current?.version ?? null };
}

function reportLine(runId: number, location: Awaited<ReturnType<typeof reportLocation>>): string {
  if (location.store === "folder") return location.dir;
  if (location.version === null) return "in the database (none published yet)";
  return `in the database, version ${location.version} (assay runs export ${runId} --artifacts <dir> writes it to a folder)`;
}

export async function showRun(
  store: Store,
  runId: number,
  options: { json: boolean },
  out: NodeJS.WritableStream,
): Promise<void> {
  const run = await store.getRun(runId);
  if (!run) throw new UserError(`there is no run ${runId}; see assay runs list`);
  const [events, calls, sources, diagnostics, investigation, location, children] = await Promise.all([
    store.listEvents(runId),
    store.listSearchCalls(runId),
    store.listSources(runId),
    store.listDiagnostics(runId),
    loadInvestigation(store, runId),
    reportLocation(store, run),
    store.listChildRuns(runId),
  ]);
  const timings = runTimings(events);
  const lineage = run.request.lineage;
  if (options.json) {
    out.write(
      `${JSON.stringify({
        run: { ...run, displayStatus: displayStatus(run) },
        report: location,
        children: children.map((child) => ({ id: child.id, relation: child.request.lineage?.relation })),
        timings,
        searches: calls.map(({ hits, ...call }) => ({ ...call, hitCount: hits.length })),
        sources: sources.map(({ content, chunks, ...source }) => ({
          ...source,
          chars: content.length,
          chunks: chunks.length,
        })),
        diagnostics,
        events,
        investigation: investigation ? investigationJson(run, investigation) : null,
      })}\n`,
    );
    return;
  }
  const lines = [
    `Run ${run.id}: ${displayStatus(run)}${run.artifactStatus ? ` — ${run.artifactStatus} report` : ""}`,
    `Question:  ${run.request.question}`,
    ...(lineage
      ? [
          `Continues: ${lineage.relation === "revision" ? `a revision of run ${lineage.parentId}: “${lineage.instruction}”` : `a follow-up of run ${lineage.parentId}`}`,
        ]
      : []),
    ...(children.length > 0
      ? [
          `Continued: ${children.map((child) => `run ${child.id} (${child.request.lineage?.relation ?? "follow-up"})`).join(", ")}`,
        ]
      : []),
    `Strategy:  ${run.request.strategy}   model: ${run.request.model}${usageLine(events)}`,
    `Scope:     ${scopeLine(run.request.scope)}`,
    `Report:    ${reportLine(run.id, location)}`,
    `Started:   ${run.originAt}${run.finishedAt ? `   finished: ${run.finishedAt}` : ""}`,
    ...(run.worker
      ? [`Worker:    ${run.worker}${run.heartbeatAt ? `   last heartbeat: ${run.heartbeatAt}` : ""}`]
      : []),
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
        `  ${source.id}  ${(source.path ?? source.url ?? "").padEnd(40)} ${String(source.content.length).padStart(7)} chars  ${source.chunks.length} passages  ${source.reused === "parent" ? `carried over from run ${lineage?.parentId}` : `persisted at ${ms(source.persistedMs)}${source.reused === "library" ? " (from the library)" : ""}`}${source.truncated ? "  (truncated)" : ""}`,
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
  if (investigation) lines.push(...investigationLines(run, investigation));
  lines.push("", `Events: ${events.length} (assay runs show ${run.id} --json lists them)`);
  out.write(`${lines.join("\n")}\n`);
}

/** The formats `runs export` writes: the investigation as JSON, or the run's trajectory as ATIF. */

/** Writes `text` to `file` through a temporary file in the same folder and a rename: readers never see half of it. */
async function writeAtomically(file: string, text: string | Uint8Array): Promise<void> {
  const temporary = join(dirname(file), `.${basename(file)}.${randomBytes(6).toString("hex")}.tmp`);
  try {
    await writeFile(temporary, text, { flag: "wx" });
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw new UserError(`cannot write ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * `assay runs export`: the run's whole investigation as JSON (`json`) or its trajectory as an
 * ATIF document (`atif`), on stdout or into `options.out`.
 */
export async function exportRun(
  store: Store,
  runId: number,
  options: { out?: string; format: ExportFormat },
  out: NodeJS.WritableStream,
): Promise<void> {
  const run = await store.getRun(runId);
  if (!run) throw new UserError(`there is no run ${runId}; see assay runs list`);
  if (options.format === "pdf" || options.format === "docx") {
    await exportReportFile(store, run, options.format, options.out, out);
    return;
  }
  const document =
    options.format === "atif"
      ? atifTrajectory(run, await store.listEvents(runId))
      : await investigationDocument(store, run);
  const text = `${JSON.stringify(document, null, 2)}\n`;
  if (options.out === undefined) {
    out.write(text);
    return;
  }
  const file = resolve(options.out);
  await writeAtomically(file, text);
  out.write(`Exported run ${run.id} to ${file}\n`);
}

/**
 * The run's current report as a PDF or Word file: into `outFile`, or beside the run's report
 * files (`report.pdf`, `report.docx`) when none is given.
 */
async function exportReportFile(
  store: Store,
  run: RunRecord,
  format: ReportFileFormat,
  outFile: string | undefined,
  out: NodeJS.WritableStream,
): Promise<void> {
  const current = await artifactStoreFor(store).current({ runId: run.id, outDir: run.request.outDir });
  if (current === undefined) throw new UserError(`run ${run.id} has no published report yet`);
  const parsed = parseReportDocument(JSON.parse(current.files.json));
  if (!parsed.ok) throw new UserError(`the stored report of run ${run.id} cannot be read: ${parsed.error}`);
  const bytes = await renderReportFile(parsed.value, format);
  const file = resolve(outFile ?? join(run.request.outDir, `report.${REPORT_FILE_FORMATS[format].extension}`));
  await writeAtomically(file, bytes);
  out.write(`Exported the report of run ${run.id} (version ${current.version}) to ${file}\n`);
}

/** What `runs export --format json` writes: the investigation's rows (empty without one), stats and events. */
export async function investigationDocument(store: Store, run: RunRecord): Promise<unknown> {
  const [events, stored] = await Promise.all([
    store.listEvents(run.id),
    hasInvestigations(store) ? store.loadInvestigation(run.id) : undefined,
  ]);
  const rows = stored ?? EMPTY_INVESTIGATION;
  return investigationExport({ ...run, displayStatus: displayStatus(run) }, rows, events);
}

/**
 * `assay runs export <run> --artifacts <dir>`: writes the run's current report pair, exactly
 * as stored, into `dir` with the file system's atomic switch (report.json, report.md and
 * report.html there always belong to one version).
 */
export async function exportArtifacts(
  store: Store,
  runId: number,
  dir: string,
  out: NodeJS.WritableStream,
): Promise<void> {
  const run = await store.getRun(runId);
  if (!run) throw new UserError(`there is no run ${runId}; see assay runs list`);
  const current = await artifactStoreFor(store).current({ runId, outDir: run.request.outDir });
  if (current === undefined) throw new UserError(`run ${runId} has no published report`);
  const same = (staged: ArtifactFiles): string | undefined =>
    staged.json === current.files.json &&
    staged.markdown === current.files.markdown &&
    staged.html === current.files.html
      ? undefined
      : "the written files differ from the stored ones";
  const published = await new FilesystemArtifactStore().publish({ runId, outDir: resolve(dir) }, current.files, same);
  out.write(
    `Exported the report of run ${runId} (version ${current.version}) to:\n  ${published.paths.markdown}\n  ${published.paths.html}\n  ${published.paths.json}\n`,
  );
}

/** The scope as `runs show` prints it: a folder with its real path, the web by its label, or both. */
function scopeLine(scope: EvidenceScope): string {
  if (scope.kind === "corpus") return `corpus ${scope.label} (${scope.root})`;
  if (scope.kind === "hybrid") return `${scope.label} (folder ${scope.corpus.root})`;
  return scope.label;
}
