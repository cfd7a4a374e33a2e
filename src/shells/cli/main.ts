import { fileURLToPath } from "node:url";
import { Command, Option } from "commander";
import { AssayError, UserError } from "../../core/errors.js";
import { isQueued, STRATEGY_NAMES } from "../../ports/store.js";
import { version } from "../../version.js";
import { registerMcpCommand } from "../mcp/mcp-command.js";
import { interactive, runWithTui, type TuiOptions, tuiCommand } from "../tui/tui-command.js";
import { collectAssignment, readConfigFile } from "./config-file.js";
import { type EvalCommandOptions, evalCommand, thresholdAssignment } from "./eval-command.js";
import { healthCommand } from "./health-command.js";
import { registerHttpCommands } from "./http-commands.js";
import { modelSpec, resolveModel } from "./model-choice.js";
import { dataPaths } from "./paths.js";
import {
  DEFAULT_RETRY_POLICY,
  type EnqueueOptions,
  enqueueRun,
  listQueue,
  nonNegativeInteger,
  purgeDeadLetters,
  type RetryOptions,
  retryQueuedRun,
  runWorker,
  type WorkerCommandOptions,
} from "./queue-commands.js";
import { EXIT, execute } from "./run-execution.js";
import {
  budgetAssignment,
  buildRequest,
  type CommonOptions,
  exportFormat,
  parseFault,
  positiveInteger,
  positiveNumber,
  type RunCommandOptions,
} from "./run-request.js";
import { type ExportFormat, exportArtifacts, exportRun, listRuns, showRun } from "./runs-commands.js";
import { type SearchCommandOptions, searchCorpus } from "./search-command.js";
import { buildRuntime, openStore, withStore } from "./wiring.js";

/** This program's executable, which `assay tui` starts (detached) to drive the researches it starts. */
const BIN_PATH = fileURLToPath(new URL("../../../bin/assay.js", import.meta.url));

export { EXIT } from "./run-execution.js";

export function buildProgram(): Command {
  const program = new Command()
    .name("assay")
    .description("Evidence-first deep research: every sentence of the report traces to a persisted source.")
    .version(version)
    .showHelpAfterError("(run assay help for usage)")
    // Set before the subcommands are added so that they inherit it.
    .exitOverride();

  const dbOption = () =>
    new Option("--db <file|url>", "SQLite database file, or postgres://… URL (default: $ASSAY_HOME/assay.db)");
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
    .option("--tui", "on an interactive terminal, follow the run in the terminal UI, then read its report")
    .option("--queue", "with a PostgreSQL --db: queue the run for `assay worker` and print its id")
    .option(
      "--retries <n>",
      `with --queue: attempts after the first (default ${DEFAULT_RETRY_POLICY.retries})`,
      nonNegativeInteger,
    )
    .option(
      "--retry-delay <seconds>",
      `with --queue: delay before the first retry, doubled for each later one (default ${DEFAULT_RETRY_POLICY.retryDelaySeconds})`,
      positiveInteger,
    )
    .option(
      "--lease <seconds>",
      `with --queue: how long a worker that stops heartbeating keeps the run (default ${DEFAULT_RETRY_POLICY.leaseSeconds})`,
      positiveInteger,
    )
    .addOption(faultOption())
    .action(
      async (question: string, options: RunCommandOptions & EnqueueOptions & { queue?: boolean; tui?: boolean }) => {
        const paths = dataPaths(process.env);
        const spec = modelSpec(options.model, process.env);
        // A queued run's worker builds the model from the spec, with its own environment's keys.
        const model = options.queue ? undefined : resolveModel(spec, process.env);
        const file = readConfigFile({ explicit: options.config, home: paths.home });
        const request = await buildRequest(question, options, { model: spec, file });
        if (options.queue) {
          process.exitCode = await enqueueRun(paths, request, options);
          return;
        }
        const store = await openStore(paths, options.db);
        const runtime = buildRuntime(paths, store, model, process.env);
        if (options.tui && interactive()) {
          process.exitCode = await runWithTui(store, runtime, request, options, process.env);
          return;
        }
        process.exitCode = await execute(store, options, request.budgets.maxSources, (listeners, signal) =>
          runtime.run(request, { listeners, signal }),
        );
      },
    );

  program
    .command("resume")
    .description(
      "continue an interrupted run from its persisted state (or start a recorded one) and publish its report",
    )
    .argument("<run>", "run id", positiveInteger)
    .addOption(dbOption())
    .option("--json", "print a one-line JSON summary on stdout")
    .option("--quiet", "no progress on stderr")
    .addOption(faultOption())
    .action(async (runId: number, options: CommonOptions) => {
      const paths = dataPaths(process.env);
      const store = await openStore(paths, options.db);
      const run = await store.getRun(runId);
      if (!run) {
        await store.close();
        throw new UserError(`there is no run ${runId}; see assay runs list`);
      }
      if (run.status !== "running") {
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
      // A run recorded but never started (by `assay tui`, or a server that stopped) starts from the beginning.
      const queued = isQueued(run);
      // The run's lease decides who drives it: the runtime refuses a run another process holds.
      process.exitCode = await execute(store, options, run.request.budgets.maxSources, (listeners, signal) =>
        queued ? runtime.start(runId, { listeners, signal }) : runtime.resume(runId, { listeners, signal }),
      );
    });

  program
    .command("worker")
    .description("take queued runs from a PostgreSQL database and run them until SIGTERM or SIGINT")
    .addOption(dbOption().makeOptionMandatory())
    .option("--concurrency <n>", "runs at once", positiveInteger, 1)
    .addOption(
      new Option("--poll <seconds>", "wait between polls of an empty queue").argParser(positiveNumber).default(2),
    )
    .addOption(
      new Option("--maintenance-interval <seconds>", "how often lease expiry and retries are applied")
        .argParser(positiveInteger)
        .default(5)
        .hideHelp(),
    )
    .option("--quiet", "no log on stderr")
    .addOption(faultOption())
    .action(async (options: WorkerCommandOptions) => {
      process.exitCode = await runWorker(dataPaths(process.env), options, process.env);
    });

  const queue = program
    .command("queue")
    .description("inspect the job queue of a PostgreSQL database and deal with dead-lettered runs");
  queue
    .command("list")
    .description("jobs waiting, running, retrying and dead-lettered, with their runs")
    .addOption(dbOption().makeOptionMandatory())
    .option("--json", "print JSON")
    .action(async (options: CommonOptions) => {
      process.exitCode = await listQueue(dataPaths(process.env), options, process.stdout);
    });
  queue
    .command("retry")
    .description("queue a failed or dead-lettered run again; a worker resumes it from its persisted state")
    .argument("<run>", "run id", positiveInteger)
    .addOption(dbOption().makeOptionMandatory())
    .option("--retries <n>", `attempts after the first (default ${DEFAULT_RETRY_POLICY.retries})`, nonNegativeInteger)
    .option(
      "--retry-delay <seconds>",
      `delay before the first retry (default ${DEFAULT_RETRY_POLICY.retryDelaySeconds})`,
      positiveInteger,
    )
    .option("--lease <seconds>", "the job's lease (default: the dead-lettered job's, else 60)", positiveInteger)
    .option("--json", "print a one-line JSON summary")
    .action(async (runId: number, options: RetryOptions) => {
      process.exitCode = await retryQueuedRun(dataPaths(process.env), runId, options, process.stdout);
    });
  queue
    .command("purge-dead")
    .description("remove dead-lettered jobs (of one run, or all); their runs stay failed")
    .argument("[run]", "only this run's", positiveInteger)
    .addOption(dbOption().makeOptionMandatory())
    .option("--json", "print a one-line JSON summary")
    .action(async (runId: number | undefined, options: CommonOptions) => {
      process.exitCode = await purgeDeadLetters(
        dataPaths(process.env),
        { ...options, ...(runId === undefined ? {} : { run: runId }) },
        process.stdout,
      );
    });

  program
    .command("health")
    .description("check that the database (and with PostgreSQL the job queue and workers) is usable; exit 1 if not")
    .addOption(dbOption())
    .option("--json", "print JSON")
    .action(async (options: CommonOptions) => {
      process.exitCode = await healthCommand(dataPaths(process.env), options, process.stdout);
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
      await withStore(dataPaths(process.env), options.db, async (store) => {
        await listRuns(store, { json: options.json === true, limit: options.limit }, process.stdout);
      });
    });
  runs
    .command("show")
    .description("show one run: request, timings, searches, sources, diagnostics")
    .argument("<run>", "run id", positiveInteger)
    .addOption(dbOption())
    .option("--json", "print JSON (with the event log)")
    .action(async (runId: number, options: CommonOptions) => {
      await withStore(dataPaths(process.env), options.db, async (store) => {
        await showRun(store, runId, { json: options.json === true }, process.stdout);
      });
    });
  runs
    .command("export")
    .description("export a run's investigation (frontier, transitions, ledger, challenges, stats, events) as JSON")
    .argument("<run>", "run id", positiveInteger)
    .addOption(dbOption())
    .option("--out <file>", "write to this file (atomically) instead of stdout")
    .option(
      "--format <format>",
      "export format: json (the investigation) or atif (the trajectory, Agent Trajectory Interchange Format v1.7)",
      exportFormat,
      "json",
    )
    .option(
      "--artifacts <dir>",
      "instead: write the run's current report (json, md, html) into this folder, atomically",
    )
    .action(
      async (runId: number, options: CommonOptions & { out?: string; format: ExportFormat; artifacts?: string }) => {
        await withStore(dataPaths(process.env), options.db, async (store) => {
          const target = options.out === undefined ? {} : { out: options.out };
          if (options.artifacts !== undefined) await exportArtifacts(store, runId, options.artifacts, process.stdout);
          else await exportRun(store, runId, { ...target, format: options.format }, process.stdout);
        });
      },
    );
  registerMcpCommand(program, dbOption);
  registerHttpCommands(program, dbOption);
  program
    .command("tui")
    .description("the terminal UI: runs, a run live, its report and sources, new researches (see docs/tui.md)")
    .addOption(dbOption())
    .option(
      "--corpus-root <dir>",
      "a folder whose subfolders new researches may read (repeatable)",
      (value: string, previous: string[] | undefined) => [...(previous ?? []), value],
    )
    .option("--run <id>", "open this run's live view", positiveInteger)
    .option("--model <spec>", "the model of new researches: offline (default), none or provider:model-name")
    .option("--config <file>", "settings file (default: $ASSAY_HOME/config.json when it exists)")
    .option("--no-config", "read no settings file")
    .action(async (options: TuiOptions) => {
      process.exitCode = await tuiCommand(dataPaths(process.env), options, process.env, BIN_PATH);
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
  // `assay runs list | head`: the reader went away; stop quietly instead of crashing on EPIPE.
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(EXIT.ok);
    throw error;
  });
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
