/** `assay check`: the claims of a draft checked against the sources they cite. */
import type { Command } from "commander";

export interface CheckOptions {
  corpus?: string;
  web?: boolean;
  allowHost?: string[];
  out?: string;
  json?: boolean;
  quiet?: boolean;
}

export function registerCheckCommand(program: Command): void {
  program
    .command("check")
    .description(
      "check the claims of a draft against the sources they cite: each supported, contradicted, partly supported or not found, with the sentences that decide (exit status 1 when one is contradicted or not found)",
    )
    .argument(
      "<file>",
      'a Markdown or text draft whose sentences cite sources ([1] with a reference list, or links), or JSON Lines of {"id", "claim", "sources": [{"text"} | {"path"} | {"url"}]} (.jsonl)',
    )
    .option("--corpus <dir>", "folder the cited paths are in (default: the draft's folder)")
    .option("--web", "read cited URLs from the web (private addresses refused)")
    .option(
      "--allow-host <host>",
      "with --web: a host, IP or CIDR the fetcher may reach although it is private (repeatable)",
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option("--out <dir>", "write check.md, check.html and check.json in this folder")
    .option("--json", "print one JSON object per claim on stdout (id, verdict, reason, quotes)")
    .option("--quiet", "print nothing but the verdicts")
    .action(async (file: string, options: CheckOptions) => {
      process.exitCode = await (await import("../check-command.js")).runCheck(file, options);
    });
}
