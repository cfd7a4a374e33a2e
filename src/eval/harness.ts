/**
 * The evaluation harness (seed 004 "Required Evaluation", seed 000 "Evals"): every strategy
 * on every case with equal budgets, repeated in rotated order, then every fault on the
 * fault cases. Each run goes through the public runtime API; every failure is retained as
 * a row, never rerun. Scores are computed from the published artifacts and the event log.
 */
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import type { Budgets } from "../core/budgets.js";
import { describeError } from "../core/errors.js";
import type { InvestigationConfig } from "../core/investigative/types.js";
import { parseReportDocument, type ReportDocument } from "../core/report/report-document.js";
import { runTimings } from "../core/timings.js";
import type { ArtifactStore } from "../ports/artifact-store.js";
import type { Clock } from "../ports/clock.js";
import type { ScopeOpener } from "../ports/evidence-scope.js";
import type { JudgeInput, Model } from "../ports/model.js";
import type { NotesFiles } from "../ports/notes-store.js";
import type { RunRequest, SourceRecord, Store, StrategyName } from "../ports/store.js";
import { createRuntime, type RunOutcome, type Runtime } from "../runtime/runtime.js";
import type { EvalCase } from "./cases.js";
import type { EvalRunRow, JudgeScores } from "./eval-types.js";
import { type FaultLog, faultChecks, faultyModel, faultyScopes, parseFault, type RunFacts } from "./faults.js";
import { salvaged, scoreRun } from "./scoring.js";

export interface PlannedRun {
  key: string;
  caseId: string;
  strategy: string;
  fault: string;
  repeat: number;
  order: number;
}

const rotate = <T>(items: readonly T[], by: number): T[] => {
  if (items.length === 0) return [];
  const shift = ((by % items.length) + items.length) % items.length;
  return [...items.slice(shift), ...items.slice(0, shift)];
};

/**
 * The execution order. Repeat r starts the case list r·⌈n/R⌉ places later and the strategy
 * list r places later, so no case or strategy always runs first (warm caches, provider
 * load). Faults run once per (fault, fault case, strategy) after the clean repeats (see
 * faultCasesOf). Pure.
 */
/**
 * The cases the faults run on: those marked as fault fixtures, else the first `count`. Pure.
 */
export function faultCasesOf<T extends { faultFixture?: boolean }>(cases: readonly T[], count: number): T[] {
  const marked = cases.filter((testCase) => testCase.faultFixture === true);
  return (marked.length > 0 ? marked : cases).slice(0, Math.max(0, count));
}

export function planRuns(
  cases: readonly { id: string; faultFixture?: boolean }[],
  strategies: readonly string[],
  repeat: number,
  faults: readonly string[],
  faultCases: number,
): PlannedRun[] {
  const plan: PlannedRun[] = [];
  const push = (caseId: string, strategy: string, fault: string, r: number): void => {
    plan.push({ key: `${caseId}|${strategy}|${fault}|${r}`, caseId, strategy, fault, repeat: r, order: plan.length });
  };
  const step = Math.ceil(cases.length / Math.max(1, repeat));
  for (let r = 0; r < repeat; r++) {
    for (const testCase of rotate(cases, r * step)) {
      for (const strategy of rotate(strategies, r)) push(testCase.id, strategy, "none", r);
    }
  }
  for (const fault of faults) {
    for (const testCase of faultCasesOf(cases, faultCases)) {
      for (const strategy of strategies) push(testCase.id, strategy, fault, 0);
    }
  }
  return plan;
}

/** What a crashing child process left: whether it was killed, and the run it started. */
export interface CrashOutcome {
  killed: boolean;
  detail: string;
  runId: number | undefined;
}

export interface HarnessOptions {
  cases: readonly EvalCase[];
  plan: readonly PlannedRun[];
  /** Keys of runs an earlier, interrupted evaluation finished: not run again. */
  done: ReadonlySet<string>;
  budgets: Budgets;
  /**
   * A strategy's budgets where they differ from `budgets` by design, by strategy: an
   * investigative run's turn budget is its max_iterations (see `strategyBudgets` in the CLI's
   * config-file.ts). Strategies not listed run under `budgets`.
   */
  strategyBudgets?: Readonly<Record<string, Budgets>>;
  /** The investigative knobs the user set, equal for every run; only investigative runs take them. */
  investigation?: Partial<InvestigationConfig>;
  language: string;
  modelSpec: string;
  corpus: { root: string; label: string };
  /** Each run publishes in `<outDir>/runs/<order>`. */
  outDir: string;
  store: Store;
  artifacts: ArtifactStore;
  clock: Clock;
  scopes: ScopeOpener;
  /**
   * notes.md working copies of investigative runs; required by that strategy. A crashed run
   * resumes from the copy its child process wrote, so give the directory the CLI uses.
   */
  notes?: NotesFiles;
  model?: Model;
  judge?: Model;
  /** Starts `request` in a process that is killed after `after` persisted sources. */
  crashRun(request: RunRequest, after: number): Promise<CrashOutcome>;
  onRow(row: EvalRunRow): void | Promise<void>;
  onStart?(run: PlannedRun): void;
  signal?: AbortSignal;
}

export interface HarnessResult {
  rows: EvalRunRow[];
  /** True when the signal stopped the evaluation; the run in flight was not recorded. */
  interrupted: boolean;
}

function readReport(outDir: string): ReportDocument | undefined {
  const file = join(outDir, "report.json");
  if (!existsSync(file)) return undefined;
  try {
    const parsed = parseReportDocument(JSON.parse(readFileSync(file, "utf8")));
    return parsed.ok ? parsed.value : undefined;
  } catch {
    return undefined;
  }
}

function judgeInput(
  testCase: EvalCase,
  doc: ReportDocument,
  sources: readonly SourceRecord[],
  outDir: string,
): JudgeInput {
  const chunks = new Map(sources.flatMap((source) => source.chunks.map((chunk) => [chunk.id, chunk.text] as const)));
  const items = [...doc.directFindings, ...doc.findings].map((finding) => ({
    id: `f${finding.number}`,
    text: finding.text,
    passages: finding.citations.flatMap((citation) =>
      citation.chunkIds.map((id) => ({ id, text: chunks.get(id) ?? "" })),
    ),
  }));
  let reportText = "";
  try {
    reportText = readFileSync(join(outDir, "report.md"), "utf8");
  } catch {
    reportText = items.map((item) => item.text).join("\n");
  }
  return {
    question: testCase.question,
    language: doc.language,
    items,
    reference: { answers: testCase.answers, evidence: Object.values(testCase.goldSentences).flat() },
    reportText,
  };
}

async function judgeRun(
  options: HarnessOptions,
  testCase: EvalCase,
  doc: ReportDocument | undefined,
  sources: readonly SourceRecord[],
  outDir: string,
): Promise<JudgeScores> {
  const judge = options.judge;
  if (!judge?.judge) return { scored: false, reason: "no judge configured" };
  if (!doc) return { scored: false, reason: "nothing was published" };
  const input = judgeInput(testCase, doc, sources, outDir);
  const result = await judge.judge(input, {
    timeoutMs: options.budgets.modelCallTimeoutMs,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (!result.ok) return { scored: false, reason: `the judge failed (${result.kind}): ${result.error}` };
  const known = new Set(input.items.map((item) => item.id));
  const support = { supported: 0, partial: 0, unsupported: 0 };
  const seen = new Set<string>();
  for (const item of result.value.items) {
    if (!known.has(item.id) || seen.has(item.id)) continue;
    seen.add(item.id);
    support[item.support] += 1;
  }
  return {
    scored: true,
    support,
    coverage: result.value.coverage,
    decisionValue: result.value.decisionValue,
    language: result.value.language,
    inputTokens: result.usage.inputTokens,
    outputTokens: result.usage.outputTokens,
    costUsd: judge.cost?.(result.usage) ?? null,
  };
}

const safeName = (order: number): string => String(order + 1).padStart(4, "0");

export async function runEvaluation(options: HarnessOptions): Promise<HarnessResult> {
  const cases = new Map(options.cases.map((testCase) => [testCase.id, testCase]));
  const base = {
    store: options.store,
    artifacts: options.artifacts,
    clock: options.clock,
    ...(options.notes ? { notes: options.notes } : {}),
    ...(options.model ? { model: options.model } : {}),
  };
  const clean: Runtime = createRuntime({ ...base, scopes: options.scopes });
  const rows: EvalRunRow[] = [];
  for (const planned of options.plan) {
    if (options.done.has(planned.key)) continue;
    if (options.signal?.aborted) return { rows, interrupted: true };
    const testCase = cases.get(planned.caseId);
    if (!testCase) continue;
    options.onStart?.(planned);
    const outDir = join(options.outDir, "runs", safeName(planned.order));
    // A run an interrupted evaluation left half-done starts again from nothing.
    rmSync(outDir, { recursive: true, force: true });
    const budgets = options.strategyBudgets?.[planned.strategy] ?? options.budgets;
    const request: RunRequest = {
      question: testCase.question,
      language: options.language,
      strategy: planned.strategy as StrategyName,
      model: options.modelSpec,
      scope: { kind: "corpus", root: options.corpus.root, label: options.corpus.label },
      budgets,
      outDir,
      ...(options.investigation !== undefined && planned.strategy === "investigative"
        ? { investigation: options.investigation }
        : {}),
    };
    const fault = planned.fault === "none" ? undefined : parseFault(planned.fault);
    const log: FaultLog = { searchesFailed: 0 };
    const started = performance.now();
    let outcome: RunOutcome | undefined;
    let crash: RunFacts["crash"];
    let error: string | undefined;
    const runOptions = options.signal ? { signal: options.signal } : {};
    try {
      if (fault?.kind === "crash-after-persisted") {
        const crashed = await options.crashRun(request, fault.after);
        if (crashed.runId === undefined) {
          error = `the crashing process started no run: ${crashed.detail}`;
        } else {
          const before = await options.store.listSources(crashed.runId);
          crash = {
            killed: crashed.killed,
            detail: crashed.detail,
            persistedBefore: before.map((source) => source.id),
          };
          const record = await options.store.getRun(crashed.runId);
          if (record?.status === "running") outcome = await clean.resume(crashed.runId, runOptions);
          else {
            // The process ended on its own before the crash point (fewer sources than K).
            outcome = {
              runId: crashed.runId,
              status: record?.status ?? "failed",
              artifactStatus: record?.artifactStatus ?? "",
              timings: runTimings(await options.store.listEvents(crashed.runId)),
            };
          }
        }
      } else if (fault) {
        const runtime = createRuntime({
          ...base,
          ...(options.model ? { model: faultyModel(options.model, fault) } : {}),
          scopes: faultyScopes(options.scopes, fault, log),
        });
        outcome = await runtime.run(request, runOptions);
      } else {
        outcome = await clean.run(request, runOptions);
      }
    } catch (failure) {
      error = describeError(failure);
    }
    const wallMs = performance.now() - started;
    // An interrupted run is not a result: it runs again when the evaluation resumes.
    if (options.signal?.aborted) return { rows, interrupted: true };
    const runId = outcome?.runId ?? null;
    const events = runId === null ? [] : await options.store.listEvents(runId);
    const sources = runId === null ? [] : await options.store.listSources(runId);
    const doc = readReport(outDir);
    const scores = scoreRun({
      testCase,
      strategy: planned.strategy,
      doc,
      events,
      readPaths: sources.map((source) => source.path ?? source.url ?? source.canonicalAnchor),
    });
    const status = outcome?.status ?? "error";
    const checks = fault
      ? faultChecks(fault, {
          status,
          doc,
          events,
          sources,
          wallClockMs: budgets.wallClockMs,
          log,
          ...(crash ? { crash } : {}),
        })
      : [];
    const runError = error ?? outcome?.error;
    const row: EvalRunRow = {
      ...planned,
      runId,
      status,
      artifactStatus: outcome?.artifactStatus ?? "",
      published: doc !== undefined,
      ...(runError === undefined ? {} : { error: runError }),
      ...scores,
      latency: { ...scores.latency, wallMs: Math.round(wallMs) },
      salvaged: fault ? salvaged(doc) : null,
      faultChecks: checks,
      judge: await judgeRun(options, testCase, doc, sources, outDir),
    };
    rows.push(row);
    await options.onRow(row);
  }
  return { rows, interrupted: false };
}
