/** `assay eval`: strategies side by side on cases with gold evidence. */
import type { Command } from "commander";
import type { EvalCommandOptions } from "../eval-command.js";
import { budgetAssignment, positiveInteger, repeatable, thresholdAssignment } from "../options.js";
import { dataPaths } from "../paths.js";

export function registerEvalCommand(program: Command): void {
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
    .option("--set <name=value>", "one investigative knob, equal for every strategy (repeatable)", repeatable)
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
      const { evalCommand } = await import("../eval-command.js");
      process.exitCode = await evalCommand(cases, options, {
        paths: dataPaths(process.env),
        environment: process.env,
        argv: process.argv.slice(2),
        stderr: process.stderr,
        stdout: process.stdout,
      });
    });
}
