/**
 * @module The `assay` command line.
 *
 * Exit codes: 0 published; 1 failed (the report could not be published, or an internal
 * error); 2 usage or configuration error; 130 interrupted by Ctrl-C (after publishing).
 */
import { resolve } from "node:path";
import { Command, InvalidArgumentError, Option } from "commander";
import { resolveCorpusRoot } from "../../adapters/corpus/corpus-paths.js";
import { parseSearchSpec, searchKeyVariable } from "../../adapters/search/search-registry.js";
import { type Budgets, DEFAULT_BUDGETS, resolveBudgets } from "../../core/budgets.js";
import { AssayError, UserError } from "../../core/errors.js";
import {
  type EvidenceScope,
  type RunEvent,
  type RunRequest,
  STRATEGY_NAMES,
  type Store,
  type StrategyName,
} from "../../ports/store.js";
import type { RunOutcome } from "../../runtime/runtime.js";
import { version } from "../../version.js";
import { type ConfigFile, collectAssignment, readConfigFile, resolveRunSettings } from "./config-file.js";
import { type EvalCommandOptions, evalCommand, thresholdAssignment } from "./eval-command.js";
import { modelSpec, resolveModel } from "./model-choice.js";
import { dataPaths } from "./paths.js";
import { progressListener } from "./progress.js";
import { displayStatus, isWorkerAlive } from "./run-state.js";
import { EXPORT_FORMATS, type ExportFormat, exportRun, listRuns, showRun } from "./runs-commands.js";
import { type SearchCommandOptions, searchCorpus } from "./search-command.js";
import { buildRuntime, openStore } from "./wiring.js";

export const EXIT = { ok: 0, failed: 1, usage: 2, interrupted: 130 } as const;

function positiveInteger(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed <= 0) throw new InvalidArgumentError("expected a positive whole number");
  return parsed;
}

/** `--format` of `runs export`: only `json` until the investigative loop brings `atif`. */
function exportFormat(value: string): ExportFormat {
  const format = EXPORT_FORMATS.find((known) => known === value);
  if (format) return format;
  throw new InvalidArgumentError("only json is supported for now (atif comes with the investigative loop)");
}

function positiveNumber(value: string): number {
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed <= 0) throw new InvalidArgumentError("expected a positive number");
  return parsed;
}

/** A deterministic crash: SIGKILL right after the K-th persisted source, or after the first event of a type. */
type Fault = { afterPersisted: number } | { afterEvent: string };

/** `crash-after-persisted:K` or `crash-after:<event-type>`. */
function parseFault(value: string): Fault {
  const persisted = /^crash-after-persisted:(\d+)$/.exec(value);
  if (persisted) return { afterPersisted: Number(persisted[1]) };
  const event = /^crash-after:([a-z]+(?:-[a-z]+)+)$/.exec(value);
  if (event?.[1]) return { afterEvent: event[1] };
  throw new InvalidArgumentError("known faults: crash-after-persisted:K, crash-after:<event-type>");
}

/** `name=value` for one budget (`maxSearchCalls=10`); accumulates over repeated flags. */
function budgetAssignment(value: string, previous: Partial<Budgets> | undefined): Partial<Budgets> {
  const match = /^([A-Za-z]+)=(\d+)$/.exec(value.trim());
  const name = match?.[1];
  if (!match || name === undefined) throw new InvalidArgumentError("expected name=value, e.g. maxSearchCalls=10");
  if (!Object.hasOwn(DEFAULT_BUDGETS, name)) {
    throw new InvalidArgumentError(`unknown budget "${name}" (known: ${Object.keys(DEFAULT_BUDGETS).join(", ")})`);
  }
  return { ...previous, [name]: Number(match[2]) };
}

interface CommonOptions {
  db?: string;
  json?: boolean;
  quiet?: boolean;
  fault?: Fault;
}

interface RunCommandOptions extends CommonOptions {
  corpus?: string;
  web?: boolean;
  search?: string;
  allowHost?: string[];
  model?: string;
  out?: string;
  maxSources?: number;
  timeout?: number;
  budget?: Partial<Budgets>;
  /** `--set name=value` as typed. */
  set?: string[];
  /** `--config <file>`, or false for `--no-config`. */
  config?: string | false;
  strategy: StrategyName;
  language: string;
}

/** The evidence scope: a corpus folder, or the web through a search provider. */
async function scopeOf(options: RunCommandOptions): Promise<EvidenceScope> {
  if (options.web && options.corpus !== undefined)
    throw new UserError("choose one evidence scope: --corpus DIR or --web");
  if (!options.web) {
    if (options.corpus === undefined)
      throw new UserError("give an evidence scope: --corpus DIR, or --web with --search");
    if (options.search !== undefined || options.allowHost !== undefined) {
      throw new UserError("--search and --allow-host apply to --web runs only");
    }
    const root = await resolveCorpusRoot(options.corpus);
    return { kind: "corpus", root, label: options.corpus };
  }
  const spec = parseSearchSpec(options.search ?? "searxng");
  if (!spec.ok) throw new UserError(`--search: ${spec.error}`);
  const variable = searchKeyVariable(spec.value.provider);
  if (variable !== undefined && !process.env[variable]) {
    throw new UserError(`--search ${spec.value.provider} needs the ${variable} environment variable`);
  }
  const names: Record<string, string> = {
    searxng: "SearXNG",
    tavily: "Tavily",
    brave: "Brave Search",
    serper: "Serper",
  };
  return {
    kind: "web",
    search: { provider: spec.value.provider, ...(spec.value.baseUrl ? { baseUrl: spec.value.baseUrl } : {}) },
    allowHosts: options.allowHost ?? [],
    label: `the web, searched with ${names[spec.value.provider] ?? spec.value.provider}`,
  };
}

async function buildRequest(
  question: string,
  options: RunCommandOptions,
  context: { model: string; file: ConfigFile | undefined },
): Promise<RunRequest> {
  const trimmed = question.trim();
  if (trimmed.length === 0) throw new UserError("the question is empty");
  if (trimmed.length > 4_000) throw new UserError("the question is longer than 4000 characters");
  const scope = await scopeOf(options);
  const wallClockMs = options.timeout === undefined ? undefined : Math.round(options.timeout * 1000);
  if (options.budget?.maxSources !== undefined && options.maxSources !== undefined)
    throw new UserError("give the source limit once: --max-sources or --budget maxSources=N");
  if (options.budget?.wallClockMs !== undefined && wallClockMs !== undefined)
    throw new UserError("give the wall clock once: --timeout or --budget wallClockMs=N");
  const settings = resolveRunSettings({
    strategies: [options.strategy],
    file: context.file,
    budgets: options.budget,
    assignments: options.set,
  });
  if (!settings.ok) throw new UserError(settings.error);
  const budgets = resolveBudgets({
    ...settings.value.budgets,
    ...(options.maxSources === undefined ? {} : { maxSources: options.maxSources }),
    ...(wallClockMs === undefined
      ? {}
      : {
          wallClockMs,
          publishReserveMs:
            options.budget?.publishReserveMs ?? Math.min(10_000, Math.max(100, Math.floor(wallClockMs * 0.2))),
        }),
  });
  if (!budgets.ok) throw new UserError(budgets.error);
  return {
    question: trimmed,
    language: options.language,
    strategy: options.strategy,
    model: context.model,
    scope,
    budgets: budgets.value,
    outDir: options.out ? resolve(options.out) : "",
    ...(settings.value.investigation === undefined ? {} : { investigation: settings.value.investigation }),
  };
}

function faultListener(fault: Fault | undefined): ((event: RunEvent) => void)[] {
  if (fault === undefined) return [];
  let persisted = 0;
  return [
    (event) => {
      const hit =
        "afterPersisted" in fault
          ? event.type === "source-persisted" && ++persisted >= fault.afterPersisted
          : event.type === fault.afterEvent;
      if (hit) process.kill(process.pid, "SIGKILL");
    },
  ];
}

function report(outcome: RunOutcome, options: CommonOptions): void {
  if (options.json) {
    process.stdout.write(
      `${JSON.stringify({
        runId: outcome.runId,
        status: outcome.status,
        artifactStatus: outcome.artifactStatus,
        artifacts: outcome.paths ?? null,
        timings: outcome.timings,
      })}\n`,
    );
    return;
  }
  const lines = [`Run ${outcome.runId} ${outcome.status}: ${outcome.artifactStatus || "nothing"} published.`];
  if (outcome.paths) {
    lines.push(`  ${outcome.paths.markdown}`, `  ${outcome.paths.html}`, `  ${outcome.paths.json}`);
  }
  const t = outcome.timings;
  if (t.firstSourcePersistedMs !== undefined)
    lines.push(`First source persisted at ${Math.round(t.firstSourcePersistedMs)} ms.`);
  if (t.terminalMs !== undefined) lines.push(`Finished at ${Math.round(t.terminalMs)} ms.`);
  process.stdout.write(`${lines.join("\n")}\n`);
}

/** Runs `work` with Ctrl-C turned into a cancel signal: acquisition stops, the Host publishes. */
async function withInterrupt(
  work: (signal: AbortSignal) => Promise<RunOutcome>,
): Promise<{ outcome: RunOutcome; interrupted: boolean }> {
  const controller = new AbortController();
  let interrupted = false;
  const onSignal = (): void => {
    if (interrupted) process.exit(EXIT.interrupted);
    interrupted = true;
    process.stderr.write("\nInterrupted: publishing what is persisted (Ctrl-C again to quit now).\n");
    controller.abort(new Error("interrupted"));
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  try {
    return { outcome: await work(controller.signal), interrupted };
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}

async function execute(
  store: Store,
  options: CommonOptions,
  maxSources: number,
  start: (listeners: ((event: RunEvent) => void)[], signal: AbortSignal) => Promise<RunOutcome>,
): Promise<number> {
  const progress = options.quiet ? undefined : progressListener({ stream: process.stderr, maxSources });
  try {
    const { outcome, interrupted } = await withInterrupt((signal) =>
      start([...(progress ? [progress.listener] : []), ...faultListener(options.fault)], signal),
    );
    progress?.end();
    report(outcome, options);
    if (outcome.error !== undefined) {
      process.stderr.write(`assay: ${outcome.error}\n`);
      return EXIT.usage;
    }
    if (interrupted) return EXIT.interrupted;
    return outcome.status === "finished" ? EXIT.ok : EXIT.failed;
  } finally {
    progress?.end();
    await store.close();
  }
}

export function buildProgram(): Command {
  const program = new Command()
    .name("assay")
    .description("Evidence-first deep research: every sentence of the report traces to a persisted source.")
    .version(version)
    .showHelpAfterError("(run assay help for usage)")
    // Set before the subcommands are added so that they inherit it.
    .exitOverride();

  const dbOption = () => new Option("--db <file>", "SQLite database file (default: $ASSAY_HOME/assay.db)");
  const faultOption = () =>
    new Option("--fault <fault>", "inject a deterministic fault (crash-after-persisted:K, crash-after:<event-type>)")
      .argParser(parseFault)
      .hideHelp();

  program
    .command("run")
    .description("research a question and publish a report")
    .argument("<question>", "the research question")
    .option("--corpus <dir>", "folder of documents to research (Markdown, text, HTML, PDF)")
    .option("--web", "research the web instead of a folder")
    .option("--search <provider[:url]>", "with --web: searxng[:URL] (default), tavily, brave or serper")
    .option(
      "--allow-host <host>",
      "with --web: a host, IP or CIDR the fetcher may reach although it is private (repeatable)",
      (value: string, previous: string[] | undefined) => [...(previous ?? []), value],
    )
    .option("--out <dir>", "publish report.json, report.md and report.html in this folder")
    .addOption(dbOption())
    .option("--max-sources <n>", "at most this many persisted sources", positiveInteger)
    .option("--timeout <seconds>", "wall-clock limit for the whole run", positiveNumber)
    .option("--language <code>", "report language", "en")
    .addOption(
      new Option("--strategy <name>", "how the research is driven").choices(STRATEGY_NAMES).default("pipeline"),
    )
    .option(
      "--budget <name=value>",
      "set one budget, e.g. maxSearchCalls=10 (repeatable; see docs/configuration.md)",
      budgetAssignment,
    )
    .option(
      "--set <name=value>",
      "set one investigative knob, e.g. max_depth=2 (repeatable; --strategy investigative only)",
      collectAssignment,
    )
    .option("--config <file>", "settings file (default: $ASSAY_HOME/config.json when it exists)")
    .option("--no-config", "read no settings file")
    .option("--model <spec>", "offline (default: the embedded extractive engine), none, or provider:model-name")
    .option("--json", "print a one-line JSON summary on stdout")
    .option("--quiet", "no progress on stderr")
    .addOption(faultOption())
    .action(async (question: string, options: RunCommandOptions) => {
      const paths = dataPaths(process.env);
      const spec = modelSpec(options.model, process.env);
      const model = resolveModel(spec, process.env);
      const file = readConfigFile({ explicit: options.config, home: paths.home });
      const request = await buildRequest(question, options, { model: spec, file });
      const store = openStore(paths, options.db);
      const runtime = buildRuntime(paths, store, model, process.env);
      process.exitCode = await execute(store, options, request.budgets.maxSources, (listeners, signal) =>
        runtime.run(request, { listeners, signal }),
      );
    });

  program
    .command("resume")
    .description("continue an interrupted run from its persisted state and publish its report")
    .argument("<run>", "run id", positiveInteger)
    .addOption(dbOption())
    .option("--json", "print a one-line JSON summary on stdout")
    .option("--quiet", "no progress on stderr")
    .addOption(faultOption())
    .action(async (runId: number, options: CommonOptions) => {
      const paths = dataPaths(process.env);
      const store = openStore(paths, options.db);
      const run = await store.getRun(runId);
      if (!run) {
        await store.close();
        throw new UserError(`there is no run ${runId}; see assay runs list`);
      }
      if (run.status === "running" && isWorkerAlive(run.worker) === true) {
        await store.close();
        throw new UserError(`run ${runId} is still running (process ${run.worker}); it cannot be resumed twice`);
      }
      if (displayStatus(run) !== "interrupted" && run.status !== "running") {
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
      const runtime = buildRuntime(paths, store, model, process.env);
      process.exitCode = await execute(store, options, run.request.budgets.maxSources, (listeners, signal) =>
        runtime.resume(runId, { listeners, signal }),
      );
    });

  program
    .command("eval")
    .description("evaluate strategies side by side on cases with gold evidence (see docs/eval.md)")
    .argument("<cases>", "cases file: one JSON object per line (id, question, answers, gold, ...)")
    .requiredOption("--corpus <dir>", "folder of the documents the cases refer to")
    .option("--strategies <list>", "comma-separated strategies to compare", "simple,pipeline")
    .option("--baseline <name>", "the strategy every other one is compared with (default: the first)")
    .option("--repeat <n>", "runs of every case and strategy, in rotated order", positiveInteger, 3)
    .option("--model <spec>", "the model every strategy uses: offline (default), none, or provider:model-name")
    .option("--judge <spec>", "a generative model that scores claim support, coverage, decision value and language")
    .option(
      "--faults <list>",
      "deterministic faults to run: planner-failure, synthesis-failure, model-timeout, search-failure[:N], fetch-failure:N, crash-after-persisted:K, or all",
      "none",
    )
    .option("--fault-cases <n>", "how many cases (from the top of the file) each fault runs on", positiveInteger, 3)
    .option("--budget <name=value>", "one budget, equal for every strategy (repeatable)", budgetAssignment)
    .option("--set <name=value>", "one investigative knob, equal for every strategy (repeatable)", collectAssignment)
    .option("--config <file>", "settings file (default: $ASSAY_HOME/config.json when it exists)")
    .option("--no-config", "read no settings file")
    .option("--threshold <name=value>", "one verdict threshold (repeatable; see docs/eval.md)", thresholdAssignment)
    .option("--language <code>", "report language", "en")
    .option(
      "--out <dir>",
      "folder for runs.jsonl, summary.{md,html,json} and the runs (default: $ASSAY_HOME/evals/<time>)",
    )
    .option("--resume", "continue the interrupted evaluation in --out without redoing finished runs")
    .option("--quiet", "no progress on stderr")
    .action(async (cases: string, options: EvalCommandOptions) => {
      process.exitCode = await evalCommand(cases, options, {
        paths: dataPaths(process.env),
        environment: process.env,
        argv: process.argv.slice(2),
        stderr: process.stderr,
        stdout: process.stdout,
      });
    });

  program
    .command("search")
    .description("search a corpus as a run would (full text, or a linear-time --pattern)")
    .argument("[terms]", "words to search for")
    .requiredOption("--corpus <dir>", "folder of documents")
    .option("--pattern <regex>", "regular expression (RE2 syntax: no backreferences or lookaround)")
    .option("--under <path>", "with --pattern: only documents under this corpus-relative folder")
    .option("--limit <n>", "how many hits", positiveInteger, 10)
    .option("--json", "print JSON")
    .action(async (terms: string | undefined, options: SearchCommandOptions) => {
      await searchCorpus(dataPaths(process.env), terms, options, process.stdout);
    });

  const runs = program.command("runs").description("list and inspect runs");
  runs
    .command("list")
    .description("list recent runs")
    .addOption(dbOption())
    .option("--json", "print JSON")
    .option("--limit <n>", "how many", positiveInteger, 50)
    .action(async (options: CommonOptions & { limit: number }) => {
      const store = openStore(dataPaths(process.env), options.db);
      try {
        await listRuns(store, { json: options.json === true, limit: options.limit }, process.stdout);
      } finally {
        await store.close();
      }
    });
  runs
    .command("show")
    .description("show one run: request, timings, searches, sources, diagnostics")
    .argument("<run>", "run id", positiveInteger)
    .addOption(dbOption())
    .option("--json", "print JSON (with the event log)")
    .action(async (runId: number, options: CommonOptions) => {
      const store = openStore(dataPaths(process.env), options.db);
      try {
        await showRun(store, runId, { json: options.json === true }, process.stdout);
      } finally {
        await store.close();
      }
    });
  runs
    .command("export")
    .description("export a run's investigation (frontier, transitions, ledger, challenges, stats, events) as JSON")
    .argument("<run>", "run id", positiveInteger)
    .addOption(dbOption())
    .option("--out <file>", "write to this file (atomically) instead of stdout")
    .option("--format <format>", "export format: json (atif comes later)", exportFormat, "json")
    .action(async (runId: number, options: CommonOptions & { out?: string; format: ExportFormat }) => {
      const store = openStore(dataPaths(process.env), options.db);
      try {
        const target = options.out === undefined ? {} : { out: options.out };
        await exportRun(store, runId, { ...target, format: options.format }, process.stdout);
      } finally {
        await store.close();
      }
    });
  return program;
}

/** The AI SDK logs provider warnings to stdout by default; they belong on stderr, once per kind. */
function routeModelWarnings(): void {
  const seen = new Set<string>();
  (globalThis as { AI_SDK_LOG_WARNINGS?: unknown }).AI_SDK_LOG_WARNINGS = (options: { warnings: unknown[] }) => {
    for (const warning of options.warnings) {
      const line = JSON.stringify(warning).slice(0, 300);
      if (seen.has(line)) continue;
      seen.add(line);
      process.stderr.write(`assay: model warning: ${line}\n`);
    }
  };
}

export async function main(argv: readonly string[]): Promise<void> {
  routeModelWarnings();
  const program = buildProgram();
  try {
    await program.parseAsync([...argv]);
  } catch (error) {
    if (error instanceof Error && "exitCode" in error && typeof error.exitCode === "number" && "code" in error) {
      // commander already printed help or the usage error.
      process.exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.usage;
      return;
    }
    if (error instanceof UserError) {
      process.stderr.write(`assay: ${error.message}\n`);
      process.exitCode = EXIT.usage;
      return;
    }
    const message =
      error instanceof AssayError
        ? error.message
        : error instanceof Error
          ? (error.stack ?? error.message)
          : String(error);
    process.stderr.write(`assay: internal error: ${message}\n`);
    process.exitCode = EXIT.failed;
  }
}
