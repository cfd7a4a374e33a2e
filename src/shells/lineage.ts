/**
 * Follow-ups, revisions and the versions of a report, as every shell offers them (CLI, HTTP,
 * MCP, TUI): which run may be continued, the request of the child run, the chain of versions
 * of a report, and the diff between two of them.
 */
import { UserError } from "../core/errors.js";
import { diffReports, type ReportDiff } from "../core/lineage/report-diff.js";
import type { ReportDocument } from "../core/report/report-document.js";
import { currentReport, revisionPath } from "../host/lineage.js";
import type { ArtifactStore } from "../ports/artifact-store.js";
import { ownerOf, type RunRecord, type RunRelation, type RunRequest, type Store } from "../ports/store.js";

const MAX_TEXT = 4_000;

/** Why `run` cannot be continued now (a follow-up or a revision starts from a published report), or undefined. */
export function continuationProblem(run: RunRecord): string | undefined {
  if (run.status === "running") return `run ${run.id} is still running; ask or revise once it has finished`;
  if (run.artifactStatus === "" || run.artifactStatus === "publication-failed")
    return `run ${run.id} published no report to continue`;
  return undefined;
}

/** The run `runId` of `userId`, or a UserError that does not disclose another user's runs. */
export async function ownedRun(store: Store, runId: number, userId: string): Promise<RunRecord> {
  const run = await store.getRun(runId);
  if (!run || ownerOf(run) !== userId) throw new UserError(`there is no run ${runId}; see assay runs list`);
  return run;
}

/**
 * The newest version of `run`'s report: following its revisions down (the latest finished one
 * at each step). A revision is always of the newest version, so the versions stay one chain.
 */
export async function newestVersion(store: Store, run: RunRecord): Promise<RunRecord> {
  let at = run;
  for (;;) {
    const children = await store.listChildRuns(at.id);
    const running = children.find(
      (child) => child.request.lineage?.relation === "revision" && child.status === "running",
    );
    if (running)
      throw new UserError(
        `a revision of run ${at.id} is still being written (run ${running.id}); revise once it has finished`,
      );
    const next = children
      .filter((child) => child.request.lineage?.relation === "revision" && continuationProblem(child) === undefined)
      .at(-1);
    if (!next) return at;
    at = next;
  }
}

/**
 * The request of a run continuing `parent`: the parent's scope, strategy, language and budgets
 * (`budgets` may override some), the follow-up's question or the parent's question with the
 * revision's instruction, and the model given (default: the parent's).
 */
export function childRequest(
  parent: RunRecord,
  relation: RunRelation,
  text: string,
  options: { model?: string; outDir?: string; budgets?: Partial<RunRequest["budgets"]> } = {},
): RunRequest {
  const trimmed = text.trim();
  const what = relation === "follow-up" ? "the follow-up question" : "the instruction";
  if (trimmed === "") throw new UserError(`${what} is empty`);
  if (trimmed.length > MAX_TEXT) throw new UserError(`${what} is longer than ${MAX_TEXT} characters`);
  const problem = continuationProblem(parent);
  if (problem) throw new UserError(problem);
  return {
    ...parent.request,
    question: relation === "follow-up" ? trimmed : parent.request.question,
    model: options.model ?? parent.request.model,
    outDir: options.outDir ?? "",
    budgets: { ...parent.request.budgets, ...options.budgets },
    lineage: { parentId: parent.id, relation, instruction: relation === "revision" ? trimmed : "" },
  };
}

/** The versions of the report `run` belongs to, oldest first: the first report, then each revision. */
export async function versionChain(store: Store, run: RunRecord): Promise<RunRecord[]> {
  const chain = await revisionPath(store, run);
  // Down from `run`: the revisions of it, the latest at each step.
  for (let at = run; ; ) {
    const next = (await store.listChildRuns(at.id))
      .filter((child) => child.request.lineage?.relation === "revision")
      .at(-1);
    if (!next) break;
    chain.push(next);
    at = next;
  }
  return chain;
}

export interface ReportComparison {
  from: { run: number; version?: number; question: string };
  to: { run: number; version?: number; question: string };
  diff: ReportDiff;
}

async function reportOf(artifacts: ArtifactStore, run: RunRecord): Promise<ReportDocument> {
  const report = await currentReport(artifacts, run);
  if (!report) throw new UserError(`run ${run.id} has no published report to compare`);
  return report;
}

/**
 * The diff of two versions of `run`'s report (`from`, `to`: version numbers; by default the
 * run's own version against the one before), or for a follow-up, of its report against its
 * parent's.
 */
export async function compareReports(
  store: Store,
  artifacts: ArtifactStore,
  run: RunRecord,
  versions: { from?: number; to?: number } = {},
): Promise<ReportComparison> {
  const describe = (at: RunRecord, version?: number) => ({
    run: at.id,
    ...(version === undefined ? {} : { version }),
    question: at.request.question,
  });
  if (run.request.lineage?.relation === "follow-up" && versions.from === undefined && versions.to === undefined) {
    const parent = await store.getRun(run.request.lineage.parentId);
    if (!parent) throw new UserError(`run ${run.id}'s parent run ${run.request.lineage.parentId} no longer exists`);
    return {
      from: describe(parent),
      to: describe(run),
      diff: diffReports(await reportOf(artifacts, parent), await reportOf(artifacts, run)),
    };
  }
  const chain = await versionChain(store, run);
  const own = chain.findIndex((at) => at.id === run.id) + 1;
  const to = versions.to ?? (versions.from === undefined ? Math.max(own, 2) : chain.length);
  const from = versions.from ?? to - 1;
  const pick = (version: number, flag: string): RunRecord => {
    const at = chain[version - 1];
    if (!at || !Number.isInteger(version))
      throw new UserError(
        chain.length === 1
          ? `run ${run.id}'s report has one version; revise it first (assay revise ${run.id} "…")`
          : `${flag} ${version}: the report has versions 1 to ${chain.length}`,
      );
    return at;
  };
  const older = pick(from, "--from");
  const newer = pick(to, "--to");
  return {
    from: describe(older, from),
    to: describe(newer, to),
    diff: diffReports(await reportOf(artifacts, older), await reportOf(artifacts, newer)),
  };
}

/** The diff as lines of text, item by item. */
export function diffLines(comparison: ReportComparison): string[] {
  const name = (side: ReportComparison["from"]): string =>
    side.version === undefined ? `run ${side.run}` : `version ${side.version} (run ${side.run})`;
  const { diff } = comparison;
  const lines = [`From ${name(comparison.from)} to ${name(comparison.to)}:`];
  const section = (title: string, body: string[]): void => {
    if (body.length > 0) lines.push("", title, ...body.map((line) => `  ${line}`));
  };
  const items = (kind: string, changes: ReportDiff["findings"]): void => {
    section(
      `${kind} added (${changes.added.length}):`,
      changes.added.map((item) => `+ ${item.number}. ${item.text}`),
    );
    section(
      `${kind} removed (${changes.removed.length}):`,
      changes.removed.map((item) => `- ${item.number}. ${item.text}`),
    );
    section(
      `${kind} changed (${changes.changed.length}):`,
      changes.changed.flatMap((item) => [
        `~ ${item.from.number} → ${item.to.number} (${item.changes.join(", ")})`,
        ...(item.changes.includes("wording") ? [`    was: ${item.from.text}`, `    now: ${item.to.text}`] : []),
        ...item.citationsAdded.map((key) => `    + cites ${key}`),
        ...item.citationsRemoved.map((key) => `    - no longer cites ${key}`),
      ]),
    );
  };
  items("Findings", diff.findings);
  items("Recommendations", diff.recommendations);
  section(
    `Gaps added (${diff.gaps.added.length}):`,
    diff.gaps.added.map((text) => `+ ${text}`),
  );
  section(
    `Gaps removed (${diff.gaps.removed.length}):`,
    diff.gaps.removed.map((text) => `- ${text}`),
  );
  section(
    `Sources cited newly (${diff.sources.added.length}):`,
    diff.sources.added.map((source) => `+ [${source.number}] ${source.title} — ${source.location}`),
  );
  section(
    `Sources no longer cited (${diff.sources.removed.length}):`,
    diff.sources.removed.map((source) => `- [${source.number}] ${source.title} — ${source.location}`),
  );
  const unchanged = diff.findings.unchanged.length;
  lines.push("", `${unchanged} finding${unchanged === 1 ? "" : "s"} unchanged.`);
  return lines;
}
