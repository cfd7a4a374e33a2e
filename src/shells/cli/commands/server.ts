/** Registers `assay serve` and `assay tokens create | list | revoke` on the CLI program. */
import { type Command, Option } from "commander";
import { DEFAULT_LIMITS } from "../../http/limits.js";
import type { ServeOptions } from "../../http/serve-command.js";
import { addPolicyOptions, dbOption, portNumber, positiveInteger, repeatable } from "../options.js";
import { dataPaths } from "../paths.js";
import { inStore } from "./in-store.js";

const tokensCommand = () => import("../tokens-command.js");

export function registerServerCommands(program: Command): void {
  const serve = program
    .command("serve")
    .description(
      "serve the web UI and the HTTP API (runs, live events, reports) to holders of API tokens (docs/web-ui.md, docs/http-api.md)",
    )
    .addOption(new Option("--port <n>", "port (0: any free one)").argParser(portNumber).default(8080))
    .option("--host <address>", "address to listen on", "127.0.0.1")
    .addOption(dbOption())
    .option(
      "--corpus-root <dir>",
      "a folder whose subfolders corpus runs may read (repeatable; none: web runs only)",
      repeatable,
    )
    .option("--cors <origin>", "a browser origin allowed to call the API (repeatable; default none)", repeatable)
    .option("--queue", "with a PostgreSQL --db: queue created runs for `assay worker` instead of running them here")
    .option("--model <spec>", "the model of runs that name none: offline (default), none or provider:model-name")
    .option("--search <providers>", "web search of web runs: auto (default), or providers as for assay run --search")
    .option(
      "--session-idle <minutes>",
      "a web UI sign-in ends after this many minutes without a request (default 120)",
      positiveInteger,
    )
    .option(
      "--session-max <hours>",
      "a web UI sign-in ends this many hours after it began (default 12)",
      positiveInteger,
    )
    .option(
      "--rate-limit <n>",
      `requests a minute per user (default ${DEFAULT_LIMITS.requestsPerMinute})`,
      positiveInteger,
    )
    .option(
      "--max-runs <n>",
      `runs a user may have queued or running (default ${DEFAULT_LIMITS.concurrentRuns})`,
      positiveInteger,
    )
    .option("--max-body <bytes>", `largest request body (default ${DEFAULT_LIMITS.maxBodyBytes})`, positiveInteger)
    .option("--config <file>", "settings file (default: $ASSAY_HOME/config.json when it exists)")
    .option("--no-config", "read no settings file")
    .option("--quiet", "no log on stderr");
  addPolicyOptions(serve).action(async (options: ServeOptions) => {
    const { serveCommand } = await import("../../http/serve-command.js");
    process.exitCode = await serveCommand(dataPaths(process.env), options, process.env);
  });

  const tokens = program.command("tokens").description("API tokens of the HTTP API (stored hashed)");
  tokens
    .command("create")
    .description("create a token for a user and print it (only this once)")
    .requiredOption("--user <name>", "the user the token acts as (owns the runs it creates)")
    .option("--name <label>", "a label, e.g. the machine it is for")
    .addOption(dbOption())
    .option("--json", "print JSON")
    .action(async (options: { user: string; name?: string; db?: string; json?: boolean }) => {
      const { createTokenCommand } = await tokensCommand();
      await inStore(options.db, (store) => createTokenCommand(store, options, process.stdout));
    });
  tokens
    .command("list")
    .description("list tokens (never their secrets)")
    .option("--user <name>", "only this user's")
    .addOption(dbOption())
    .option("--json", "print JSON")
    .action(async (options: { user?: string; db?: string; json?: boolean }) => {
      const { listTokensCommand } = await tokensCommand();
      await inStore(options.db, (store) => listTokensCommand(store, options, process.stdout));
    });
  tokens
    .command("revoke")
    .description("revoke a token: it authenticates nothing from now on")
    .argument("<id>", "token id (assay tokens list)", positiveInteger)
    .addOption(dbOption())
    .action(async (id: number, options: { db?: string }) => {
      const { revokeTokenCommand } = await tokensCommand();
      await inStore(options.db, (store) => revokeTokenCommand(store, id, process.stdout));
    });
}
