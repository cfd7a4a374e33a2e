/**
 * The `assay` command line: one table of the command groups, each registered by its module in
 * commands/ (options only); a command's action imports what it runs when it runs, so
 * `assay --help` or `assay runs list` never load the TUI, the server, MCP, a model SDK or a DOM.
 */
import { Command } from "commander";
import { AssayError, UserError } from "../../core/errors.js";
import { version } from "../../version.js";
import { registerCheckCommand } from "./commands/check.js";
import { registerEvalCommand } from "./commands/evaluation.js";
import { registerMcpCommand } from "./commands/mcp.js";
import { registerQueueCommands } from "./commands/queue.js";
import { registerResearchCommands } from "./commands/research.js";
import { registerRunsCommands } from "./commands/runs.js";
import { registerServerCommands } from "./commands/server.js";
import { registerTuiCommand } from "./commands/tui.js";
import { EXIT } from "./exit-codes.js";

export { EXIT } from "./exit-codes.js";

export function buildProgram(): Command {
  const program = new Command()
    .name("assay")
    .description("Evidence-first deep research: every sentence of the report traces to a persisted source.")
    .version(version)
    .showHelpAfterError("(run assay help for usage)")
    // Set before the subcommands are added so that they inherit it.
    .exitOverride();
  // In the order `assay --help` lists them.
  registerResearchCommands(program); // run, resume, providers
  registerQueueCommands(program); // worker, queue list | retry | purge-dead
  registerRunsCommands(program); // health, search, runs list | show | export
  registerEvalCommand(program); // eval
  registerCheckCommand(program); // check
  registerMcpCommand(program); // mcp
  registerServerCommands(program); // serve, tokens create | list | revoke
  registerTuiCommand(program); // tui
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
