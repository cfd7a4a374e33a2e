/**
 * What the terminal UI reads and does, over the store (SQLite or PostgreSQL): runs, a run's
 * events after a seq (the same log the web UI's event stream reads, so it follows runs other
 * processes drive), its investigation, its current report, a source, what a report changed
 * from the one it continues, and starting a research, a follow-up or a revision. The components
 * take this interface, so the tests give them a store of their own.
 */
import { spawn } from "node:child_process";
import { closeSync, mkdirSync, openSync } from "node:fs";
import { dirname } from "node:path";
import type { Claim, Question, Transition } from "../../core/investigative/types.js";
import { parseReportDocument, type ReportDocument } from "../../core/report/report-document.js";
import type { ArtifactStore } from "../../ports/artifact-store.js";
import { isInvestigationStore } from "../../ports/investigation-store.js";
import {
  LOCAL_USER,
  type RunEvent,
  type RunRecord,
  type RunRequest,
  type SourceRecord,
  type Store,
  type StrategyName,
} from "../../ports/store.js";
import { childRequest, compareReports, diffLines, newestVersion, ownedRun, versionChain } from "../lineage.js";

/** The user the terminal UI acts as: it records runs without one, so they are the CLI's. */
export const TUI_USER = LOCAL_USER;

export interface InvestigationSnapshot {
  questions: Question[];
  transitions: Transition[];
  claims: Claim[];
}

export interface NewResearch {
  question: string;
  /** A folder, absolute. */
  corpus: string;
  /** How the folder is named to readers (the form's label, e.g. `corpora/batteries`). */
  label: string;
  strategy: StrategyName;
}

export interface TuiData {
  listRuns(): Promise<RunRecord[]>;
  run(runId: number): Promise<RunRecord | undefined>;
  events(runId: number, afterSeq: number): Promise<RunEvent[]>;
  /** Undefined for a store without investigations. */
  investigation(runId: number): Promise<InvestigationSnapshot | undefined>;
  /** The current published report, or undefined before the first publication. */
  report(run: RunRecord): Promise<{ document: ReportDocument; version: string } | undefined>;
  source(runId: number, sourceId: string): Promise<SourceRecord | undefined>;
  /** Folders the new-research form offers. */
  corpora: readonly { value: string; label: string }[];
  /** Records a research and starts it; resolves with its run id (throws UserError for a bad one). */
  start(research: NewResearch): Promise<number>;
  /**
   * Records a follow-up of run `parentId` asking `question` (the parent's scope, strategy, budgets
   * and model) and starts it; resolves with its run id. Throws UserError when the run is not the
   * interface's user's, cannot be continued yet, or the question is empty.
   */
  followUp(parentId: number, question: string): Promise<number>;
  /**
   * The run a revision of run `runId`'s report revises: the newest finished version of that
   * report (`newestVersion`; run `runId` itself when it was never revised). Throws UserError
   * when the run is not the interface's user's, or while a revision of it is still running.
   */
  newestVersion(runId: number): Promise<RunRecord>;
  /**
   * Records a revision of the newest version of run `runId`'s report following `instruction`
   * (as `assay revise` does: `newestVersion`, then `childRequest`) and starts it; resolves with
   * its run id. Throws UserError as `newestVersion` does, and when that version cannot be
   * continued or the instruction is empty.
   */
  revise(runId: number, instruction: string): Promise<number>;
  /**
   * What run `runId`'s report changes, as lines (`diffLines`): a follow-up's against its
   * parent's, a revision's against the version before, a first report against its first
   * revision. Undefined when there is nothing to compare (no parent, no revision).
   */
  changes(runId: number): Promise<string[] | undefined>;
}

export function storeData(
  store: Store,
  artifacts: ArtifactStore,
  options: {
    corpora: readonly { value: string; label: string }[];
    start: (research: NewResearch) => Promise<number>;
    /** Records a run of `request` (a follow-up or a revision) and starts it; resolves with its id. */
    launch: (request: RunRequest) => Promise<number>;
  },
): TuiData {
  return {
    listRuns: () => store.listRuns({ limit: 200 }),
    run: (runId) => store.getRun(runId),
    events: (runId, afterSeq) => store.listEvents(runId, { afterSeq }),
    async investigation(runId) {
      if (!isInvestigationStore(store)) return undefined;
      const { questions, transitions, claims } = await store.loadInvestigation(runId);
      return { questions, transitions, claims };
    },
    async report(run) {
      if (run.artifactStatus === "") return undefined;
      const current = await artifacts.current({ runId: run.id, outDir: run.request.outDir });
      if (!current) return undefined;
      const parsed = parseReportDocument(JSON.parse(current.files.json));
      if (!parsed.ok) throw new Error(`the stored report of run ${run.id} does not parse: ${parsed.error}`);
      return { document: parsed.value, version: current.version };
    },
    async source(runId, sourceId) {
      return (await store.listSources(runId)).find((source) => source.id === sourceId);
    },
    corpora: options.corpora,
    start: options.start,
    async followUp(parentId, question) {
      const parent = await ownedRun(store, parentId, TUI_USER);
      return options.launch(childRequest(parent, "follow-up", question));
    },
    async newestVersion(runId) {
      return newestVersion(store, await ownedRun(store, runId, TUI_USER));
    },
    async revise(runId, instruction) {
      const newest = await newestVersion(store, await ownedRun(store, runId, TUI_USER));
      return options.launch(childRequest(newest, "revision", instruction));
    },
    async changes(runId) {
      const run = await store.getRun(runId);
      if (!run) throw new Error(`there is no run ${runId}`);
      if (!run.request.lineage && (await versionChain(store, run)).length === 1) return undefined;
      return diffLines(await compareReports(store, artifacts, run));
    },
  };
}

/**
 * Starts a recorded run in its own detached `assay resume` process, so that it goes on when the
 * terminal UI quits (or its terminal closes). Its progress goes to the store; what it prints
 * (a summary, or an error that stopped it) to the file `log`.
 */
export function startDetached(
  bin: string,
  runId: number,
  db: string | undefined,
  env: NodeJS.ProcessEnv,
  log: string,
): void {
  mkdirSync(dirname(log), { recursive: true });
  const output = openSync(log, "a");
  try {
    const child = spawn(process.execPath, [bin, "resume", String(runId), "--quiet", ...(db ? ["--db", db] : [])], {
      detached: true,
      stdio: ["ignore", output, output],
      env,
    });
    child.unref();
  } finally {
    closeSync(output);
  }
}
