/** `assay mcp`: Assay served to MCP clients (the SDK loads only when it starts). */
import type { Command } from "commander";
import type { McpCommandOptions } from "../../mcp/mcp-command.js";
import { addPolicyOptions, dbOption, portNumber, repeatable } from "../options.js";

/** Adds `assay mcp` to the program. */
export function registerMcpCommand(program: Command): void {
  const mcp = program
    .command("mcp")
    .description("serve Assay to MCP clients: research, get_report, list_runs, reports as resources (see docs/mcp.md)")
    .addOption(dbOption())
    .option(
      "--http <port>",
      "serve streamable HTTP at http://HOST:PORT/mcp instead of stdio (0: any free port)",
      portNumber,
    )
    .option("--host <host>", "with --http: the address to listen on", "127.0.0.1")
    .option("--user <name>", "the user the server acts as: it lists, reads and creates only this user's runs")
    .option(
      "--token-file <path>",
      "a file holding an API token (assay tokens create); its user is the user the server acts as (else $ASSAY_TOKEN)",
    )
    .option("--no-auth", "with --http on a loopback address: accept requests without an API token")
    .option(
      "--corpus-root <dir>",
      "a folder clients may research, with everything under it (repeatable; default: the working directory)",
      repeatable,
    )
    .option("--model <spec>", "the model of a research that names none: offline (default), none, provider:model-name")
    .option(
      "--search <providers>",
      "the search of web research: auto (default), or providers as for assay run --search",
    )
    .option("--config <file>", "settings file (default: $ASSAY_HOME/config.json when it exists)")
    .option("--no-config", "read no settings file");
  addPolicyOptions(mcp).action(async (options: McpCommandOptions) => {
    const { mcpCommand } = await import("../../mcp/mcp-command.js");
    process.exitCode = await mcpCommand(options, {
      environment: process.env,
      cwd: process.cwd(),
      stderr: process.stderr,
    });
  });
}
