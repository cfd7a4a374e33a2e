/** `assay run`, `assay resume` and `assay providers`. */
import { type Command, Option } from "commander";
import { STRATEGY_NAMES } from "../../../ports/store.js";
import type { ChildOptions } from "../lineage-commands.js";
import {
  budgetAssignment,
  DEFAULT_RETRY_POLICY,
  dbOption,
  faultOption,
  nonNegativeInteger,
  positiveInteger,
  positiveNumber,
  repeatable,
} from "../options.js";
import type { RunOptions } from "../run-command.js";
import type { CommonOptions } from "../run-request.js";

export function registerResearchCommands(program: Command): void {
  program
    .command("run")
    .description("research a question and publish a report")
    .argument("<question>", "the research question")
    .option(
      "--corpus <dir>",
      "folder of documents to research (text, Markdown, HTML, PDF, Office, CSV, EPUB, notebooks, mail)",
    )
    .option("--web", "research the web (with --corpus: the folder and the web in one run)")
    .option("--library", "research your library: the sources your earlier runs read (no fetch)")
    .option(
      "--search <providers>",
      "with --web: auto (default: SearXNG if one answers, else DuckDuckGo and Wikipedia), or one or more of searxng[:URL], duckduckgo, wikipedia, arxiv, openalex, pubmed, tavily, brave, serper, comma-separated",
    )
    .option(
      "--allow-host <host>",
      "with --web: a host, IP or CIDR the fetcher may reach although it is private (repeatable)",
      repeatable,
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
      repeatable,
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
    .action(async (question: string, options: RunOptions) => {
      process.exitCode = await (await import("../run-command.js")).runCommand(question, options);
    });

  for (const [name, relation, argument, description] of [
    [
      "ask",
      "follow-up",
      "<question>",
      "ask a follow-up of a run: a new run that starts with that run's sources (not fetched again) and says what it adds",
    ],
    [
      "revise",
      "revision",
      "<instruction>",
      'publish a new version of a run\'s report as asked ("add the 2024 figures", "drop the part on recycling"); assay runs diff shows what changed',
    ],
  ] as const)
    program
      .command(name)
      .description(description)
      .argument("<run>", "the run to continue", positiveInteger)
      .argument(argument, relation === "follow-up" ? "the follow-up question" : "what to change")
      .addOption(dbOption())
      .option("--model <spec>", "offline, none, or provider:model-name (default: the run's model)")
      .option("--max-sources <n>", "at most this many new sources (the run's own are free)", positiveInteger)
      .option("--out <dir>", "publish the report in this folder (default: the runs folder)")
      .option("--json", "print a one-line JSON summary on stdout")
      .option("--quiet", "no progress on stderr")
      .addOption(faultOption())
      .action(async (runId: number, text: string, options: ChildOptions) => {
        const { continueCommand } = await import("../lineage-commands.js");
        process.exitCode = await continueCommand(relation, runId, text, options);
      });

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
      process.exitCode = await (await import("../run-command.js")).resumeCommand(runId, options);
    });

  program
    .command("providers")
    .description("which web search providers this machine can use, and what --search auto picks now")
    .option("--searxng <url>", "the SearXNG instance to ask (default http://localhost:8080)")
    .option("--json", "print the statuses as JSON")
    .action(async (options: { searxng?: string; json?: boolean }) => {
      process.exitCode = await (await import("../providers-command.js")).providersCommand(process.env, options);
    });
}
