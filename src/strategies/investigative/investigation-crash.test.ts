import { randomBytes } from "node:crypto";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { FileNotes } from "../../adapters/notes/file-notes.js";
import { openSqliteStore, type SqliteStore } from "../../adapters/store/sqlite/sqlite-store.js";
import { sampleRequest, sampleSource } from "../../adapters/store/store-contract.js";
import { DEFAULT_INVESTIGATION_CONFIG, type InvestigationConfig } from "../../core/investigative/types.js";
import { killLeftovers, runAndKill } from "../../testing/kill-child.js";
import { tempDir } from "../../testing/temp-dir.js";
import { InvestigationTools } from "./investigation-tools.js";

const built = (path: string): string => fileURLToPath(new URL(`../../../dist/${path}`, import.meta.url));
const BUILT = {
  store: built("adapters/store/sqlite/sqlite-store.js"),
  notes: built("adapters/notes/file-notes.js"),
  tools: built("strategies/investigative/investigation-tools.js"),
};
const href = (path: string): string => JSON.stringify(pathToFileURL(path).href);

/** Enough attempts and questions that the loop never runs out of allowed calls. */
const CONFIG: InvestigationConfig = { ...DEFAULT_INVESTIGATION_CONFIG, maxAttempts: 100_000, maxQuestions: 100_000 };

/** The child: opens the tools, then calls them until killed; any thrown error ends it early. */
const CHILD_SCRIPT = `
import { randomBytes } from "node:crypto";
import { openSqliteStore } from ${href(BUILT.store)};
import { FileNotes } from ${href(BUILT.notes)};
import { InvestigationTools } from ${href(BUILT.tools)};
const [file, notesDir, runIdText, configText] = process.argv.slice(2);
const store = openSqliteStore({ file });
const tools = await InvestigationTools.open({
  store,
  notes: new FileNotes({ directory: notesDir }),
  runId: Number(runIdText),
  config: JSON.parse(configText),
  now: () => new Date().toISOString(),
  randomBytes,
});
const tag = process.pid;
for (let n = 1; ; n++) {
  if (n % 3 === 1) {
    await tools.call("add_question", {
      parent_id: "q_001", question: "Sub-question " + tag + "-" + n + "?", rationale: "part of the objective",
      priority: (n % 10) / 10, validation_criteria: "a dated source", target_sources: [],
    });
  }
  await tools.call("frontier_next", {});
  const current = (await tools.load()).frontier.questions.find((q) => q.status === "in_progress");
  if (current) {
    if (n % 4 === 0) {
      await tools.call("notes_append", { section: "unverified",
        entries: [{ text: "Finding " + tag + "-" + n + ".", source_ids: ["s_00" + (1 + (n % 3))] }] });
    } else {
      await tools.call("notes_scratch", { text: "Working on " + current.id + " (step " + tag + "-" + n + ")." });
    }
    await tools.call("set_priority", { id: current.id, priority: ((n * 7) % 10) / 10 + 0.05, why: "re-ranked" });
    await tools.call("retry_question", { id: current.id, new_query: "query " + tag + "-" + n, why: "inconclusive" });
  }
  if (n === 1) process.stdout.write("ready\\n");
}
`;

afterEach(killLeftovers);

/** Statuses equal their latest transitions; transition, attempt and notes seqs have no gaps. */
async function expectWhole(store: SqliteStore, runId: number): Promise<{ transitions: number; versions: string[] }> {
  const loaded = await store.loadInvestigation(runId);
  for (const question of loaded.questions) {
    const transitions = loaded.transitions.filter((transition) => transition.questionId === question.id);
    expect(
      transitions.map((transition) => transition.seq),
      question.id,
    ).toEqual(transitions.map((_, index) => index + 1));
    expect(transitions.at(-1)?.toStatus, question.id).toBe(question.status);
    const attempts = loaded.attempts.filter((attempt) => attempt.questionId === question.id);
    expect(
      attempts.map((attempt) => attempt.seq),
      question.id,
    ).toEqual(attempts.map((_, index) => index + 1));
  }
  expect(loaded.questions.filter((question) => question.status === "in_progress").length).toBeLessThanOrEqual(1);
  const versions = await store.listNotesVersions(runId);
  expect(versions.map((version) => version.seq)).toEqual(versions.map((_, index) => index + 1));
  expect(loaded.latestNotes?.seq).toBe(versions.length);
  return { transitions: loaded.transitions.length, versions: versions.map((version) => version.text) };
}

describe("investigative tool calls under SIGKILL", () => {
  beforeAll(() => {
    const missing = Object.values(BUILT).filter((path) => !existsSync(path));
    if (missing.length > 0) {
      throw new Error(`${missing.join(", ")} missing: run \`npm run build\` first (the child runs the built modules)`);
    }
  });

  it("leaves the store whole after each kill, and opening again repairs the working copy", async () => {
    const dir = tempDir();
    try {
      const script = join(dir.path, "tool-loop.mjs");
      writeFileSync(script, CHILD_SCRIPT);
      const file = join(dir.path, "assay.db");
      const notesDir = join(dir.path, "notes");
      const setup = openSqliteStore({ file });
      const run = await setup.createRun(sampleRequest(), { originAt: "2026-01-15T09:00:00.000Z", worker: "test:1" });
      for (const anchor of ["a.md", "b.md", "c.md"]) await setup.persistSource(run.id, sampleSource(anchor), () => 1);
      await setup.close();
      const notes = new FileNotes({ directory: notesDir });
      const args = [script, file, notesDir, String(run.id), JSON.stringify(CONFIG)];

      let previous = 0;
      for (let round = 0; round < 5; round++) {
        const killed = await runAndKill(args, 20 + Math.floor(Math.random() * 200));
        // A tool call that threw (a leaked IdConflictError, an integrity error) ends the child early.
        expect(killed.end, `the child ended by itself: ${killed.stderr}`).toBe("SIGKILL");
        const store = openSqliteStore({ file });
        try {
          const killed = await expectWhole(store, run.id);
          expect(killed.transitions).toBeGreaterThan(previous);
          const notesId = (await store.getRun(run.id))?.notesId ?? "";
          const name = `notes_local_${run.id}_${notesId}.md`;
          const onDisk = await notes.read(name);
          // The file follows its version's commit: a kill in between leaves the version before.
          expect(killed.versions.slice(-2)).toContain(onDisk);

          const tools = await InvestigationTools.open({
            store,
            notes,
            runId: run.id,
            config: CONFIG,
            now: () => new Date().toISOString(),
            randomBytes,
          });
          expect(tools.notesFile).toBe(name);
          const repaired = await store.listNotesVersions(run.id);
          const latest = killed.versions.at(-1);
          if (onDisk === latest) {
            expect(repaired).toHaveLength(killed.versions.length);
          } else {
            expect(repaired).toHaveLength(killed.versions.length + 1);
            expect(repaired.at(-1)).toMatchObject({ reason: "restore", text: latest });
          }
          expect(await notes.read(name)).toBe(latest);

          // Further calls work on the repaired state.
          const added = await tools.call("add_question", {
            parent_id: "q_001",
            question: `A question added by the parent after kill ${round}?`,
            rationale: "after the crash",
            priority: 0.5,
            validation_criteria: "any source",
            target_sources: [],
          });
          expect(added, added.text).toMatchObject({ ok: true });
          const current = (await tools.load()).frontier.questions.find((question) => question.status === "in_progress");
          const moved = current
            ? await tools.call("retry_question", { id: current.id, new_query: `after kill ${round}`, why: "restart" })
            : await tools.call("frontier_next", {});
          expect(moved, moved.text).toMatchObject({ ok: true });
          const scratched = await tools.call("notes_scratch", { text: `Resumed after kill ${round}.` });
          expect(scratched, scratched.text).toMatchObject({ ok: true });
          const after = await expectWhole(store, run.id);
          expect(after.versions.at(-1)).toContain(`Resumed after kill ${round}.`);
          expect(await notes.read(name)).toBe(after.versions.at(-1));
          previous = after.transitions;
          expect(store.db.pragma("integrity_check", { simple: true })).toBe("ok");
        } finally {
          await store.close();
        }
      }
    } finally {
      dir.cleanup();
    }
  }, 30_000);
});
