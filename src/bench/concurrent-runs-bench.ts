/**
 * Many runs in one process: a child (concurrent-runs-child.ts) runs one research alone and then
 * 50 at once through one runtime, one real SQLite store (WAL, synchronous=FULL) and fake search
 * and fetch of 200 ms each on real timers. Printed: the wall time of the 50 against the one,
 * the child's peak RSS, and the event-loop delay while the 50 ran. A child per pass, so that
 * its peak RSS is its own.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ConcurrentRunsSample } from "./concurrent-runs-child.js";
import { fixed, median, printFigures } from "./figures.js";

const CHILD = fileURLToPath(new URL("./concurrent-runs-child.js", import.meta.url));
const COUNT = 50;
const LATENCY_MS = 200;
const SOURCES = 8;

export async function concurrentRunsBench(tempRoot: string, passes: number): Promise<void> {
  console.log(`\nMany runs in one process: ${COUNT} pipeline runs at once against one alone`);
  const samples: ConcurrentRunsSample[] = [];
  for (let pass = 0; pass < passes; pass++) {
    const folder = mkdtempSync(join(tempRoot, "concurrent-"));
    const child = spawnSync(process.execPath, [CHILD, folder, String(COUNT), String(LATENCY_MS), String(SOURCES)], {
      encoding: "utf8",
      timeout: 300_000,
    });
    const line = child.stdout?.trim().split("\n").at(-1) ?? "";
    if (child.status !== 0 || !line.startsWith("{")) {
      console.log(
        `  skipped: the child failed (${child.status ?? child.signal}): ${child.stderr?.trim().split("\n").at(-1) ?? ""}`,
      );
      return;
    }
    samples.push(JSON.parse(line) as ConcurrentRunsSample);
  }
  const pick = (get: (sample: ConcurrentRunsSample) => number): number[] => samples.map(get);
  printFigures(String(COUNT), [
    ["R", "one run alone: wall time", pick((s) => s.oneMs), "ms"],
    ["R1", `${COUNT} runs at once: wall time until the last ends`, pick((s) => s.allMs), "ms"],
    ["R2", "  ratio R1 / R", pick((s) => s.allMs / s.oneMs), "x"],
    ["R7", "  CPU time of the process per run meanwhile (user + system)", pick((s) => s.cpuMs / s.count), "ms"],
    ["R3", "  event-loop delay p50 meanwhile", pick((s) => s.delayP50), "ms"],
    ["R4", "  event-loop delay p99 meanwhile", pick((s) => s.delayP99), "ms"],
    ["R5", "  event-loop delay max meanwhile", pick((s) => s.delayMax), "ms"],
    ["R6", "peak RSS of the process (maxRSS)", pick((s) => s.peakRssMb), "MB"],
    ["", "  RSS before the first run", pick((s) => s.baseRssMb), "MB"],
  ]);
  const unfinished = samples.filter((s) => s.finished !== s.count).length;
  console.log(
    `  ${unfinished === 0 ? `every pass: all ${COUNT} runs finished` : `${unfinished} pass(es) had runs that did not finish!`}; ` +
      `ratio median ${fixed(median(pick((s) => s.allMs / s.oneMs)))}x.`,
  );
  console.log(`
  R/R1  ${SOURCES} sources per run; search and each fetch wait ${LATENCY_MS} ms on real timers; each run
        appends its events, takes, renews and releases its lease and persists its sources in the
        shared store (group commit: the writes of one event-loop turn, by every run, share one
        fsynced commit) and publishes twice. What the ${COUNT} runs cannot overlap is this thread's
        synchronous work: commits, report builds, publication; R7 is all of the process's CPU
        (the file system's threads too) over the ${COUNT}. One child process per pass, after one
        warm-up run. The fake providers answer every run at the same instant, so the runs move
        in lock-step and share the thread turn by turn: each phase ends for all of them when the
        last one's work in it is done, and R1 - R is about the thread's busy time on the path.
        Serving the runs one after another instead (a run keeps the thread from each answer to
        its next wait) was tried and is slower: each run's writes then commit alone.`);
}
