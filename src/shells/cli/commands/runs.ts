/** `assay runs list | show | export`, `assay search` and `assay health`: reading what is stored. */
import type { Command } from "commander";
import { dbOption, type ExportFormat, exportFormat, positiveInteger } from "../options.js";
import { dataPaths } from "../paths.js";
import type { CommonOptions } from "../run-request.js";
import type { SearchCommandOptions } from "../search-command.js";
import { inStore } from "./in-store.js";

const runsCommands = () => import("../runs-commands.js");

export function registerRunsCommands(program: Command): void {
  const library = program
    .command("library")
    .description("the sources your runs have read, each kept once: list, search, forget");
  library
    .command("list")
    .description("list the library, newest first")
    .addOption(dbOption())
    .option("--limit <n>", "how many", positiveInteger, 50)
    .option("--json", "print JSON")
    .action(async (options: CommonOptions & { limit: number }) => {
      const { listLibrary } = await import("../library-command.js");
      await inStore(options.db, (store) => listLibrary(store, options, process.stdout));
    });
  library
    .command("search")
    .description("search the library as a --library run would")
    .argument("<terms>", "words to search for")
    .addOption(dbOption())
    .option("--limit <n>", "how many hits", positiveInteger, 10)
    .option("--json", "print JSON")
    .action(async (terms: string, options: CommonOptions & { limit: number }) => {
      const { searchLibrary } = await import("../library-command.js");
      await inStore(options.db, (store) => searchLibrary(store, terms, options, process.stdout));
    });
  library
    .command("forget")
    .description("remove a source from the library (the runs that cite it keep their copy)")
    .argument("<entry>", "library entry id (assay library list)", positiveInteger)
    .addOption(dbOption())
    .action(async (id: number, options: CommonOptions) => {
      const { forgetLibraryEntry } = await import("../library-command.js");
      await inStore(options.db, async (store) => {
        await forgetLibraryEntry(store, id, process.stdout);
      });
    });

  program
    .command("health")
    .description("check that the database (and with PostgreSQL the job queue and workers) is usable; exit 1 if not")
    .addOption(dbOption())
    .option("--json", "print JSON")
    .action(async (options: CommonOptions) => {
      const { healthCommand } = await import("../health-command.js");
      process.exitCode = await healthCommand(dataPaths(process.env), options, process.stdout);
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
      const { searchCorpus } = await import("../search-command.js");
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
      const { listRuns } = await import("../runs-list.js");
      await inStore(options.db, (store) =>
        listRuns(store, { json: options.json === true, limit: options.limit }, process.stdout),
      );
    });
  runs
    .command("diff")
    .description(
      "what changed between two versions of a run's report (findings, citations, gaps, sources), or a follow-up and its parent",
    )
    .argument("<run>", "run id", positiveInteger)
    .option("--from <version>", "the older version (default: the one before --to)", positiveInteger)
    .option("--to <version>", "the newer version (default: the run's own)", positiveInteger)
    .addOption(dbOption())
    .option("--json", "print JSON")
    .action(async (runId: number, options: CommonOptions & { from?: number; to?: number }) => {
      const { diffCommand } = await import("../lineage-commands.js");
      await inStore(options.db, (store) => diffCommand(store, runId, options, process.stdout));
    });
  runs
    .command("show")
    .description("show one run: request, timings, searches, sources, diagnostics")
    .argument("<run>", "run id", positiveInteger)
    .addOption(dbOption())
    .option("--json", "print JSON (with the event log)")
    .action(async (runId: number, options: CommonOptions) => {
      const { showRun } = await runsCommands();
      await inStore(options.db, (store) => showRun(store, runId, { json: options.json === true }, process.stdout));
    });
  runs
    .command("export")
    .description(
      "export a run's investigation (frontier, transitions, ledger, challenges, stats, events) as JSON, or its report as PDF or Word",
    )
    .argument("<run>", "run id", positiveInteger)
    .addOption(dbOption())
    .option("--out <file>", "write to this file (atomically) instead of stdout")
    .option(
      "--format <format>",
      "export format: json (the investigation), atif (the trajectory, Agent Trajectory Interchange Format v1.7), or the report as pdf or docx (written beside the report unless --out is given)",
      exportFormat,
      "json",
    )
    .option(
      "--artifacts <dir>",
      "instead: write the run's current report (json, md, html) into this folder, atomically",
    )
    .action(
      async (runId: number, options: CommonOptions & { out?: string; format: ExportFormat; artifacts?: string }) => {
        const { exportArtifacts, exportRun } = await runsCommands();
        await inStore(options.db, async (store) => {
          const target = options.out === undefined ? {} : { out: options.out };
          if (options.artifacts !== undefined) await exportArtifacts(store, runId, options.artifacts, process.stdout);
          else await exportRun(store, runId, { ...target, format: options.format }, process.stdout);
        });
      },
    );
}
