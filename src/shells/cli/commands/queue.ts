/** `assay worker` and `assay queue list | retry | purge-dead` (PostgreSQL only). */
import { type Command, Option } from "commander";
import {
  DEFAULT_RETRY_POLICY,
  dbOption,
  faultOption,
  nonNegativeInteger,
  positiveInteger,
  positiveNumber,
} from "../options.js";
import { dataPaths } from "../paths.js";
import type { RetryOptions, WorkerCommandOptions } from "../queue-commands.js";
import type { CommonOptions } from "../run-request.js";

const queueCommands = () => import("../queue-commands.js");

export function registerQueueCommands(program: Command): void {
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
      process.exitCode = await (await queueCommands()).runWorker(dataPaths(process.env), options, process.env);
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
      process.exitCode = await (await queueCommands()).listQueue(dataPaths(process.env), options, process.stdout);
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
      process.exitCode = await (await queueCommands()).retryQueuedRun(
        dataPaths(process.env),
        runId,
        options,
        process.stdout,
      );
    });
  queue
    .command("purge-dead")
    .description("remove dead-lettered jobs (of one run, or all); their runs stay failed")
    .argument("[run]", "only this run's", positiveInteger)
    .addOption(dbOption().makeOptionMandatory())
    .option("--json", "print a one-line JSON summary")
    .action(async (runId: number | undefined, options: CommonOptions) => {
      process.exitCode = await (await queueCommands()).purgeDeadLetters(
        dataPaths(process.env),
        { ...options, ...(runId === undefined ? {} : { run: runId }) },
        process.stdout,
      );
    });
}
