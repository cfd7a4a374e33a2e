/**
 * The investigative strategy survives a killed process: `assay run --strategy investigative`
 * with the offline engine is SIGKILLed after a few persisted sources, `assay resume` continues
 * it from the event log and the inv_* tables, and the run ends as an uninterrupted one would:
 * turns numbered on, no source read twice, the notes file in step with its latest version.
 * Needs `npm run build` first (npm test does it).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openSqliteStore } from "../../adapters/store/sqlite/sqlite-store.js";
import { TURN_EVENT, type TurnEventData } from "../../core/investigative/turn-events.js";
import { EXAMPLE_CORPUS, runCli } from "../../testing/cli.js";
import { tempDir } from "../../testing/temp-dir.js";

const QUESTION = "When did lithium-ion batteries become commercial and who sold them first?";
const homes: { cleanup(): void }[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) home.cleanup();
});

describe("an investigative run killed mid-exploration", () => {
  it("resumes from its persisted state and finishes with every turn and source recorded once", async () => {
    const home = tempDir();
    homes.push(home);
    const out = join(home.path, "out");
    const args = ["run", QUESTION, "--corpus", EXAMPLE_CORPUS, "--strategy", "investigative", "--out", out, "--quiet"];
    const killed = await runCli([...args, "--fault", "crash-after-persisted:4"], {
      home: home.path,
      timeoutMs: 120_000,
    });
    expect(killed.signal).toBe("SIGKILL");

    const before = openSqliteStore({ file: join(home.path, "assay.db") });
    const run = await before.getRun(1);
    expect(run?.status).toBe("running");
    const turnsBefore = (await before.listEvents(1)).filter((event) => event.type === TURN_EVENT).length;
    expect(turnsBefore).toBeGreaterThan(0);
    await before.close();

    const resumed = await runCli(["resume", "1", "--quiet"], { home: home.path, timeoutMs: 120_000 });
    expect(resumed.code, resumed.stderr).toBe(0);

    const store = openSqliteStore({ file: join(home.path, "assay.db") });
    try {
      const finished = await store.getRun(1);
      expect(finished?.status).toBe("finished");
      expect(finished?.artifactStatus).toBe("synthesized");
      expect(finished?.stopReason).not.toBe("");
      const events = await store.listEvents(1);
      const turns = events
        .filter((event) => event.type === TURN_EVENT)
        .map((event) => (event.data as unknown as TurnEventData).turn);
      expect(turns.length).toBeGreaterThan(turnsBefore);
      // Numbered on from where the killed process stopped: 1, 2, … with no turn twice.
      expect(turns).toEqual(turns.map((_, index) => index + 1));
      expect(events.some((event) => event.type === "run-resumed")).toBe(true);
      const sources = await store.listSources(1);
      expect(new Set(sources.map((source) => source.canonicalAnchor)).size).toBe(sources.length);
      // The notes working copy is the latest version.
      const versions = await store.listNotesVersions(1);
      const notesFile = readdirSync(join(home.path, "notes")).find((name) => name.endsWith(".md")) ?? "";
      expect(readFileSync(join(home.path, "notes", notesFile), "utf8")).toBe(versions.at(-1)?.text);
      const report = readFileSync(join(out, "report.md"), "utf8");
      expect(report).toContain("offline engine following fixed investigative rules");
    } finally {
      await store.close();
    }
  }, 240_000);
});
