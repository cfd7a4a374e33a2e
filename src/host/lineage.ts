/**
 * What a follow-up or a revision needs from the run it continues: the parent's question, its
 * current report (to keep its source numbers and to say what changed) and, for a revision,
 * which version of the report this one is.
 */
import { parseReportDocument, type ReportDocument } from "../core/report/report-document.js";
import type { ArtifactStore } from "../ports/artifact-store.js";
import type { RunRecord, Store } from "../ports/store.js";

export interface ParentContext {
  run: RunRecord;
  /** Its current report; undefined when it has none that parses. */
  report: ReportDocument | undefined;
  /** A revision: the version of the report the child publishes (the first report is version 1). */
  version: number;
  /** The instructions of the revisions from the first report to the child, oldest first (the child's included). */
  revisions: string[];
}

/** The report of `run` as currently published, parsed; undefined when there is none. */
export async function currentReport(artifacts: ArtifactStore, run: RunRecord): Promise<ReportDocument | undefined> {
  const current = await artifacts.current({ runId: run.id, outDir: run.request.outDir });
  if (!current) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(current.files.json);
  } catch {
    return undefined;
  }
  const parsed = parseReportDocument(value);
  return parsed.ok ? parsed.value : undefined;
}

/**
 * The versions of a report up to `run`, oldest first: the first report, then each revision of
 * it, then `run` (just `[run]` for a first report). A version whose parent is gone starts it.
 */
export async function revisionPath(store: Store, run: RunRecord): Promise<RunRecord[]> {
  const path = [run];
  for (let at = run; at.request.lineage?.relation === "revision"; ) {
    const parent = await store.getRun(at.request.lineage.parentId);
    if (!parent || path.some((known) => known.id === parent.id)) break;
    path.unshift(parent);
    at = parent;
  }
  return path;
}

/** The instructions of the revisions that led to `run`'s report, oldest first ([] for a first report). */
export async function revisionsOf(store: Store, run: RunRecord): Promise<string[]> {
  return (await revisionPath(store, run)).flatMap((at) =>
    at.request.lineage?.relation === "revision" ? [at.request.lineage.instruction] : [],
  );
}

/** The parent of a follow-up or a revision; undefined for a new research (or a parent deleted since). */
export async function openParent(
  store: Store,
  artifacts: ArtifactStore,
  run: RunRecord,
): Promise<ParentContext | undefined> {
  const lineage = run.request.lineage;
  if (!lineage) return undefined;
  const parent = await store.getRun(lineage.parentId);
  if (!parent) return undefined;
  const revisions = await revisionsOf(store, run);
  return { run: parent, report: await currentReport(artifacts, parent), version: revisions.length + 1, revisions };
}
