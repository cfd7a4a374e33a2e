/**
 * Start-up of the binary, as a user meets it: the wall time of `assay --help`, `assay runs list`
 * and a research on the example corpus with a warm index, each a fresh process, against a bare
 * `node -e 0` measured in the same passes; and for the research, the wall time beyond the run's
 * own clock (its terminal offset from `--json`): loading, opening the store, exiting.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { fixed, median, printFigures } from "./figures.js";

const BIN = fileURLToPath(new URL("../../bin/assay.js", import.meta.url));
const CORPUS = fileURLToPath(new URL("../../examples/corpus", import.meta.url));
const QUESTION = "How did lithium-ion battery costs change between 1991 and 2020, and why?";

interface Timed {
  ms: number;
  stdout: string;
  ok: boolean;
  stderr: string;
}

function timed(args: readonly string[], home: string): Timed {
  const started = performance.now();
  const result = spawnSync(process.execPath, args, {
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "", HOME: home, ASSAY_HOME: home, NO_COLOR: "1" },
    timeout: 120_000,
  });
  return {
    ms: performance.now() - started,
    stdout: result.stdout ?? "",
    stderr: result.stderr ?? "",
    ok: result.status === 0,
  };
}

export async function startUpBench(tempRoot: string, passes: number): Promise<void> {
  console.log("\nStart-up: fresh processes of the binary against a bare node -e 0");
  const home = mkdtempSync(join(tempRoot, "start-up-"));
  const research = [BIN, "run", QUESTION, "--corpus", CORPUS, "--json"];
  // Warm-up: builds the corpus index and the store; the measured runs find both.
  const warm = timed(research, home);
  if (!warm.ok) {
    console.log(`  skipped: the warm-up research failed: ${warm.stderr.trim().split("\n").at(-1) ?? ""}`);
    return;
  }
  const bare: number[] = [];
  const help: number[] = [];
  const list: number[] = [];
  const run: number[] = [];
  const beyond: number[] = [];
  for (let pass = 0; pass < passes; pass++) {
    bare.push(timed(["-e", "0"], home).ms);
    help.push(timed([BIN, "--help"], home).ms);
    list.push(timed([BIN, "runs", "list"], home).ms);
    const one = timed(research, home);
    const summary = JSON.parse(one.stdout.trim().split("\n").at(-1) ?? "{}") as { timings?: { terminalMs?: number } };
    run.push(one.ms);
    beyond.push(one.ms - (summary.timings?.terminalMs ?? Number.NaN));
  }
  const ratio = (values: readonly number[]): number[] =>
    values.map((value, index) => value / (bare[index] ?? Number.NaN));
  printFigures(String(passes), [
    ["S", "node -e 0", bare, "ms"],
    ["S1", "assay --help", help, "ms"],
    ["S2", "  ratio to node -e 0", ratio(help), "x"],
    ["S3", "assay runs list", list, "ms"],
    ["S4", "  ratio to node -e 0", ratio(list), "x"],
    ["S5", "assay run on examples/corpus, warm index", run, "ms"],
    ["S6", "  of it beyond the run's own clock (wall - terminal offset)", beyond, "ms"],
  ]);
  console.log(
    `  medians: --help ${fixed(median(ratio(help)), 1)}x and runs list ${fixed(median(ratio(list)), 1)}x node -e 0; ` +
      `a research spends ${fixed(median(beyond), 0)} ms outside its own clock.`,
  );
  console.log(`
  S-S6  wall time of spawnSync(node, args), one fresh process each, interleaved per pass so that
        machine load touches all alike; a fresh ASSAY_HOME whose store holds the warm-up run.
        S6: S5 minus the run's terminal offset (timings.terminalMs of --json): loading the
        modules, opening the store and the index, and exiting.`);
}
