/**
 * `assay eval`: the evaluation harness as a command. Wires the real adapters (SQLite store
 * in the output folder, the shared corpus index, the chosen model and judge), runs the
 * plan with a progress bar, writes one JSON line per run as it finishes, and the summary in
 * JSON, Markdown and HTML. `--resume` continues an interrupted evaluation without redoing
 * finished runs; a changed configuration is refused. The config file and `--set` give every
 * strategy the same investigative knobs (only the investigative one uses them).
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import {
  appendFileSync,
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { FilesystemArtifactStore } from "../../adapters/artifacts/filesystem/filesystem-artifact-store.js";
import { systemClock } from "../../adapters/clock/system-clock.js";
import { resolveCorpusRoot } from "../../adapters/corpus/corpus-paths.js";
import { corpusScopeOpener } from "../../adapters/corpus/corpus-scope.js";
import { FileNotes } from "../../adapters/notes/file-notes.js";
import { openSqliteStore } from "../../adapters/store/sqlite/sqlite-store.js";
import { type Budgets, resolveBudgets } from "../../core/budgets.js";
import { UserError } from "../../core/errors.js";
import type { InvestigationConfig } from "../../core/investigative/types.js";
import { loadCases } from "../../eval/cases.js";
import type { EvalRunRow, EvalSummary, VerdictThresholds } from "../../eval/eval-types.js";
import { parseFaultList } from "../../eval/faults.js";
import { type CrashOutcome, faultCasesOf, planRuns, runEvaluation } from "../../eval/harness.js";
import { DEFAULT_THRESHOLDS, summarize } from "../../eval/summarize.js";
import { renderSummaryHtml } from "../../eval/summary-html.js";
import { renderSummaryMarkdown } from "../../eval/summary-markdown.js";
import type { Model } from "../../ports/model.js";
import { type RunRequest, STRATEGY_NAMES } from "../../ports/store.js";
import { differingBudgets, INVESTIGATIVE_STRATEGY, readConfigFile, resolveRunSettings } from "./config-file.js";
import { EvalProgress } from "./eval-progress.js";
import { resolveModel } from "./model-choice.js";
import type { DataPaths } from "./paths.js";

const BIN = fileURLToPath(new URL("../../../bin/assay.js", import.meta.url));

export interface EvalCommandOptions {
  corpus: string;
  strategies: string;
  baseline?: string;
  repeat: number;
  model?: string;
  judge?: string;
  faults: string;
  faultCases: number;
  budget?: Partial<Budgets>;
  /** `--set name=value` as typed. */
  set?: string[];
  /** `--config <file>`, or false for `--no-config`. */
  config?: string | false;
  threshold?: Partial<VerdictThresholds>;
  language: string;
  out?: string;
  resume?: boolean;
  quiet?: boolean;
}

/** What must not change between an evaluation and its `--resume`. */
interface Manifest {
  version: 1;
  casesFile: string;
  casesSha256: string;
  corpus: string;
  strategies: string[];
  baseline: string;
  repeat: number;
  faults: string[];
  faultCases: number;
  model: string;
  judge: string | null;
  language: string;
  budgets: Budgets;
  /**
   * The budgets a strategy runs under where they differ from `budgets` (an investigative run's
   * turn budget is its max_iterations); informative: derived from `budgets` and `investigation`.
   */
  strategyBudgets: Record<string, Partial<Budgets>>;
  /** The investigative knobs the user set (config file, then `--set`); {} when none. */
  investigation: Partial<InvestigationConfig>;
  /** The config file read, if any (informative: its values are in `budgets` and `investigation`). */
  configFile: string | null;
  thresholds: VerdictThresholds;
  startedAt: string;
  command: string;
}

const SAME_FIELDS: (keyof Manifest)[] = [
  "casesSha256",
  "corpus",
  "strategies",
  "baseline",
  "repeat",
  "faults",
  "faultCases",
  "model",
  "judge",
  "language",
  "budgets",
  "investigation",
  "thresholds",
];

/** `--strategies`: the distinct known strategy names, in order. Throws UserError naming the known ones. */
export function strategiesOf(list: string): string[] {
  const names = [
    ...new Set(
      list
        .split(",")
        .map((name) => name.trim())
        .filter((name) => name !== ""),
    ),
  ];
  if (names.length === 0) throw new UserError("--strategies is empty; e.g. --strategies simple,pipeline");
  for (const name of names) {
    if (!(STRATEGY_NAMES as readonly string[]).includes(name))
      throw new UserError(`unknown strategy "${name}" (known: ${STRATEGY_NAMES.join(", ")})`);
  }
  return names;
}

function readRows(file: string): EvalRunRow[] {
  if (!existsSync(file)) return [];
  const rows: EvalRunRow[] = [];
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    try {
      rows.push(JSON.parse(line) as EvalRunRow);
    } catch {
      // A line cut by a crash mid-write: that run is done again.
    }
  }
  return rows;
}

/** Appends one line and forces it to disk: a finished run is never lost or done twice. */
function appendLine(file: string, line: string): void {
  appendFileSync(file, `${line}\n`);
  const fd = openSync(file, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Runs `request` through the real CLI in a child process killed after `after` persisted sources. */
export function crashRunner(database: string, environment: NodeJS.ProcessEnv) {
  return (request: RunRequest, after: number): Promise<CrashOutcome> =>
    new Promise((done) => {
      if (request.scope.kind !== "corpus") {
        done({ killed: false, detail: "crash faults need a corpus scope", runId: undefined });
        return;
      }
      // An investigative run whose max_iterations was set took its turn budget from it: the
      // child derives the same, and refuses maxTurns given beside max_iterations.
      const derivedTurns =
        request.strategy === INVESTIGATIVE_STRATEGY && request.investigation?.maxIterations !== undefined;
      const budgetFlags = Object.entries(request.budgets)
        .filter(([name]) => !(derivedTurns && name === "maxTurns"))
        .flatMap(([name, value]) => ["--budget", `${name}=${value}`]);
      // The request carries every setting; the child reads no config file of its own.
      const knobFlags = Object.entries(request.investigation ?? {}).flatMap(([name, value]) => [
        "--set",
        `${name}=${value}`,
      ]);
      const child = spawn(
        process.execPath,
        [
          BIN,
          "run",
          request.question,
          "--corpus",
          request.scope.root,
          "--db",
          database,
          "--out",
          request.outDir,
          "--strategy",
          request.strategy,
          "--model",
          request.model,
          "--language",
          request.language,
          ...budgetFlags,
          ...knobFlags,
          "--no-config",
          "--json",
          "--quiet",
          "--fault",
          `crash-after-persisted:${after}`,
        ],
        { env: environment, stdio: ["ignore", "ignore", "pipe"] },
      );
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => {
        stderr = (stderr + chunk.toString()).slice(-2_000);
      });
      child.on("close", (code, signal) => {
        const store = openSqliteStore({ file: database });
        void store
          .listRuns({ limit: 20 })
          .then((runs) => runs.find((run) => run.request.outDir === request.outDir)?.id)
          .finally(() => store.close())
          .then((runId) =>
            done({
              killed: signal === "SIGKILL",
              detail: signal
                ? `the process was killed by ${signal}`
                : `the process exited with code ${code}${stderr ? `: ${stderr.trim().split("\n").at(-1)}` : ""}`,
              runId,
            }),
          );
      });
    });
}

function writeSummary(out: string, summary: EvalSummary): void {
  writeFileSync(join(out, "summary.json"), `${JSON.stringify(summary, null, 2)}\n`);
  writeFileSync(join(out, "summary.md"), renderSummaryMarkdown(summary));
  writeFileSync(join(out, "summary.html"), renderSummaryHtml(summary));
}

function judgeModel(spec: string | undefined, environment: NodeJS.ProcessEnv): Model | undefined {
  if (spec === undefined) return undefined;
  const model = resolveModel(spec, environment);
  if (!model?.judge || model.kind !== "generative")
    throw new UserError(`--judge ${spec} cannot judge: give a generative model (provider:model-name)`);
  return model;
}

export async function evalCommand(
  casesFile: string,
  options: EvalCommandOptions,
  context: {
    paths: DataPaths;
    environment: NodeJS.ProcessEnv;
    argv: readonly string[];
    stderr: NodeJS.WriteStream;
    stdout: NodeJS.WriteStream;
  },
): Promise<number> {
  const casesPath = resolve(casesFile);
  const cases = await loadCases(casesPath);
  const root = await resolveCorpusRoot(options.corpus);
  const strategies = strategiesOf(options.strategies);
  const baseline = options.baseline ?? strategies[0] ?? "simple";
  if (!strategies.includes(baseline)) throw new UserError(`the baseline "${baseline}" is not among --strategies`);
  if (!Number.isInteger(options.repeat) || options.repeat < 1 || options.repeat > 20)
    throw new UserError("--repeat must be a whole number from 1 to 20");
  const faults = parseFaultList(options.faults);
  const file = readConfigFile({ explicit: options.config, home: context.paths.home });
  const settings = resolveRunSettings({ strategies, file, budgets: options.budget, assignments: options.set });
  if (!settings.ok) throw new UserError(settings.error);
  const budgets = resolveBudgets(settings.value.budgets);
  if (!budgets.ok) throw new UserError(budgets.error);
  const differing = differingBudgets(strategies, budgets.value, settings.value);
  if (!differing.ok) throw new UserError(differing.error);
  const investigation = settings.value.investigation ?? {};
  const thresholds = { ...DEFAULT_THRESHOLDS, ...options.threshold };
  const modelSpec = options.model?.trim() || "offline";
  const model = resolveModel(modelSpec, context.environment);
  const judge = judgeModel(options.judge, context.environment);

  const out = resolve(options.out ?? join(context.paths.home, "evals", new Date().toISOString().replace(/[:.]/g, "-")));
  const manifestFile = join(out, "manifest.json");
  const rowsFile = join(out, "runs.jsonl");
  const manifest: Manifest = {
    version: 1,
    casesFile: casesPath,
    casesSha256: createHash("sha256").update(readFileSync(casesPath)).digest("hex"),
    corpus: root,
    strategies,
    baseline,
    repeat: options.repeat,
    faults,
    faultCases: faultCasesOf(cases, options.faultCases).length,
    model: modelSpec,
    judge: options.judge ?? null,
    language: options.language,
    budgets: budgets.value,
    strategyBudgets: differing.value.changed,
    investigation,
    configFile: file?.file ?? null,
    thresholds,
    startedAt: new Date().toISOString(),
    command: ["assay", ...context.argv].join(" "),
  };
  let previous: EvalRunRow[] = [];
  if (options.resume) {
    if (!existsSync(manifestFile)) throw new UserError(`${out} holds no evaluation to resume (no manifest.json)`);
    // A manifest written before the knobs (or the per-strategy budgets) existed had none.
    const stored = JSON.parse(readFileSync(manifestFile, "utf8")) as Omit<
      Manifest,
      "investigation" | "strategyBudgets"
    > &
      Partial<Manifest>;
    const earlier: Manifest = {
      ...stored,
      investigation: stored.investigation ?? {},
      strategyBudgets: stored.strategyBudgets ?? {},
    };
    const changed = SAME_FIELDS.filter((field) => JSON.stringify(earlier[field]) !== JSON.stringify(manifest[field]));
    if (changed.length > 0)
      throw new UserError(
        `the evaluation in ${out} was started with a different ${changed.join(", ")}; start a new one with another --out`,
      );
    manifest.startedAt = earlier.startedAt;
    manifest.command = earlier.command;
    previous = readRows(rowsFile);
  } else {
    if (existsSync(rowsFile) || existsSync(manifestFile))
      throw new UserError(`${out} already holds an evaluation; continue it with --resume or choose another --out`);
    mkdirSync(out, { recursive: true });
    writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
  }

  const plan = planRuns(cases, strategies, options.repeat, faults, manifest.faultCases);
  const planned = new Set(plan.map((run) => run.key));
  const done = new Set(previous.filter((row) => planned.has(row.key)).map((row) => row.key));
  const database = join(out, "assay.db");
  const store = openSqliteStore({ file: database });
  const progress = options.quiet ? undefined : new EvalProgress(context.stderr, plan.length, done.size);
  const controller = new AbortController();
  let interruptions = 0;
  const onSignal = (): void => {
    interruptions += 1;
    if (interruptions > 1) process.exit(130);
    context.stderr.write("\nInterrupted: stopping after the run in flight is cancelled (Ctrl-C again to quit now).\n");
    controller.abort(new Error("interrupted"));
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  const started = performance.now();
  let result: Awaited<ReturnType<typeof runEvaluation>>;
  try {
    result = await runEvaluation({
      cases,
      plan,
      done,
      budgets: budgets.value,
      strategyBudgets: differing.value.full,
      ...(settings.value.investigation === undefined ? {} : { investigation: settings.value.investigation }),
      language: options.language,
      modelSpec,
      corpus: { root, label: options.corpus },
      outDir: out,
      store,
      artifacts: new FilesystemArtifactStore(),
      clock: systemClock,
      scopes: corpusScopeOpener({ indexDir: context.paths.indexDir }),
      // The directory a crashed run's child process (`assay run`, same environment) writes to.
      notes: new FileNotes({ directory: context.paths.notesDir }),
      ...(model ? { model } : {}),
      ...(judge ? { judge } : {}),
      crashRun: crashRunner(database, context.environment),
      onStart: (run) => progress?.start(run),
      onRow: (row) => {
        appendLine(rowsFile, JSON.stringify(row));
        progress?.finish(row);
      },
      signal: controller.signal,
    });
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    progress?.end();
    await store.close();
  }
  const rows = [...previous.filter((row) => planned.has(row.key)), ...result.rows].sort((a, b) => a.order - b.order);
  const summary = summarize(rows, {
    title: `Evaluation of ${strategies.join(", ")} on ${cases.length} cases${result.interrupted ? " (interrupted: incomplete)" : ""}`,
    createdAt: new Date().toISOString(),
    command: manifest.command,
    casesFile: casesPath,
    corpus: root,
    cases: cases.length,
    repeat: options.repeat,
    strategies,
    baseline,
    faults,
    model: modelSpec,
    judge: options.judge ?? null,
    budgets: budgets.value,
    strategyBudgets: differing.value.changed,
    elapsedMs: Math.round(performance.now() - started),
    thresholds,
  });
  writeSummary(out, summary);
  context.stdout.write(
    `${[
      `${rows.length} of ${plan.length} runs recorded${result.interrupted ? " (interrupted)" : ""}.`,
      `  ${join(out, "runs.jsonl")}`,
      `  ${join(out, "summary.md")}`,
      `  ${join(out, "summary.html")}`,
      ...summary.verdicts.map(
        (verdict) => `${verdict.candidate} against ${verdict.baseline}: ${verdict.wins ? "wins" : "does not win"}`,
      ),
    ].join("\n")}\n`,
  );
  if (result.interrupted) {
    context.stderr.write(
      `Continue with: assay eval ${casesFile} --corpus ${options.corpus} --out ${out} --resume (and the same options)\n`,
    );
    return 130;
  }
  return 0;
}
