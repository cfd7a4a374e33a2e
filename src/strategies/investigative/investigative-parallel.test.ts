/**
 * Sub-agents (seed 000 "Parallelism and sub-agents") with the offline engine and the built
 * CLI on SQLite: `max_parallel = 3` explores with three loops over one frontier, notes and
 * ledger; each question is claimed by one sub-agent at a time; notes appends land one version
 * each; a run killed mid-exploration resumes each sub-agent's loop from the event log.
 * (Across processes on PostgreSQL: src/shells/cli/worker-fleet.test.ts and
 * investigation-tools.test.ts's stale-claim test.) Needs `npm run build` first.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openSqliteStore } from "../../adapters/store/sqlite/sqlite-store.js";
import { TURN_EVENT, type TurnEventData } from "../../core/investigative/turn-events.js";
import type { RunEvent } from "../../ports/store.js";
import { EXAMPLE_CORPUS, runCli } from "../../testing/cli.js";
import { claimProblems, mostInProgress } from "../../testing/frontier-checks.js";
import { tempDir } from "../../testing/temp-dir.js";

const QUESTION = "How did lithium-ion battery cathodes and costs change from 1980 to 2020?";
const homes: { cleanup(): void }[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) home.cleanup();
});

/** Each sub-agent's turn numbers, in event order. */
function turnsByAgent(events: readonly RunEvent[]): Map<number, number[]> {
  const byAgent = new Map<number, number[]>();
  for (const event of events) {
    if (event.type !== TURN_EVENT) continue;
    const data = event.data as unknown as TurnEventData;
    const agent = data.agent ?? 1;
    byAgent.set(agent, [...(byAgent.get(agent) ?? []), data.turn]);
  }
  return byAgent;
}

async function expectSound(home: string): Promise<RunEvent[]> {
  const store = openSqliteStore({ file: join(home, "assay.db") });
  try {
    const run = await store.getRun(1);
    expect(run).toMatchObject({ status: "finished", artifactStatus: "synthesized" });
    const investigation = await store.loadInvestigation(1);
    expect(claimProblems(investigation.transitions)).toEqual([]);
    // The sub-agents worked at once: several questions were in progress together.
    expect(mostInProgress(investigation.transitions)).toBeGreaterThanOrEqual(2);
    const events = await store.listEvents(1);
    const byAgent = turnsByAgent(events);
    expect([...byAgent.keys()].sort()).toEqual([1, 2, 3]);
    // Each sub-agent's turns are numbered 1, 2, … with none twice, a resumed run included.
    for (const turns of byAgent.values()) expect(turns).toEqual(turns.map((_, index) => index + 1));
    // Appends were serialized: versions contiguous, the working copy the latest one.
    const versions = await store.listNotesVersions(1);
    expect(versions.map((version) => version.seq)).toEqual(versions.map((_, index) => index + 1));
    const notesFile = readdirSync(join(home, "notes")).find((name) => name.endsWith(".md")) ?? "";
    expect(readFileSync(join(home, "notes", notesFile), "utf8")).toBe(versions.at(-1)?.text);
    const sources = await store.listSources(1);
    expect(new Set(sources.map((source) => source.canonicalAnchor)).size).toBe(sources.length);
    return events;
  } finally {
    await store.close();
  }
}

describe("an investigative run with three sub-agents", () => {
  it("explores with three loops over one frontier, never claiming a question twice", async () => {
    const home = tempDir();
    homes.push(home);
    const result = await runCli(
      [
        "run",
        QUESTION,
        "--corpus",
        EXAMPLE_CORPUS,
        "--strategy",
        "investigative",
        "--set",
        "max_parallel=3",
        "--quiet",
      ],
      { home: home.path, timeoutMs: 120_000 },
    );
    expect(result.code, result.stderr).toBe(0);
    const events = await expectSound(home.path);
    const states = events.filter((event) => event.type === "research-state");
    expect(states.some((event) => event.data.agent === 2)).toBe(true);
    const shown = await runCli(["runs", "show", "1"], { home: home.path });
    expect(shown.stdout).toContain("selected by sub-agent 2");
  }, 120_000);

  it("killed mid-exploration, resumes every sub-agent's loop and finishes", async () => {
    const home = tempDir();
    homes.push(home);
    const args = ["run", QUESTION, "--corpus", EXAMPLE_CORPUS, "--strategy", "investigative", "--quiet"];
    const killed = await runCli([...args, "--set", "max_parallel=3", "--fault", "crash-after-persisted:5"], {
      home: home.path,
      timeoutMs: 120_000,
    });
    expect(killed.signal).toBe("SIGKILL");
    const resumed = await runCli(["resume", "1", "--quiet"], { home: home.path, timeoutMs: 120_000 });
    expect(resumed.code, resumed.stderr).toBe(0);
    const events = await expectSound(home.path);
    expect(events.filter((event) => event.type === "run-resumed")).toHaveLength(1);
  }, 240_000);
});
