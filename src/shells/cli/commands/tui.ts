/** `assay tui`: the terminal UI (Ink loads only when it starts). */
import { fileURLToPath } from "node:url";
import type { Command } from "commander";
import type { TuiOptions } from "../../tui/tui-command.js";
import { dbOption, positiveInteger, repeatable } from "../options.js";
import { dataPaths } from "../paths.js";

/** This program's executable, which `assay tui` starts (detached) to drive the researches it starts. */
const BIN_PATH = fileURLToPath(new URL("../../../../bin/assay.js", import.meta.url));

export function registerTuiCommand(program: Command): void {
  program
    .command("tui")
    .description("the terminal UI: runs, a run live, its report and sources, new researches (see docs/tui.md)")
    .addOption(dbOption())
    .option("--corpus-root <dir>", "a folder whose subfolders new researches may read (repeatable)", repeatable)
    .option("--run <id>", "open this run's live view", positiveInteger)
    .option("--model <spec>", "the model of new researches: offline (default), none or provider:model-name")
    .option("--config <file>", "settings file (default: $ASSAY_HOME/config.json when it exists)")
    .option("--no-config", "read no settings file")
    .action(async (options: TuiOptions) => {
      const { tuiCommand } = await import("../../tui/tui-command.js");
      process.exitCode = await tuiCommand(dataPaths(process.env), options, process.env, BIN_PATH);
    });
}
