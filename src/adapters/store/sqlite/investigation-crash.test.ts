import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { killLeftovers, runAndKill } from "../../../testing/kill-child.js";
import { tempDir } from "../../../testing/temp-dir.js";
import { createQuestions } from "../investigation-contract.js";
import { sampleRequest } from "../store-contract.js";
import { openSqliteStore } from "./sqlite-store.js";

const BUILT_STORE = fileURLToPath(new URL("../../../../dist/adapters/store/sqlite/sqlite-store.js", import.meta.url));
const BUILT_WRITER = fileURLToPath(
  new URL("../../../../dist/adapters/store/sqlite/sqlite-investigation.js", import.meta.url),
);

/** The child: reloads the investigation, then cycles question statuses until killed. */
const CHILD_SCRIPT = `
import { openSqliteStore } from ${JSON.stringify(pathToFileURL(BUILT_STORE).href)};
const [file, runIdText] = process.argv.slice(2);
const runId = Number(runIdText);
const store = openSqliteStore({ file });
const loaded = await store.loadInvestigation(runId);
const questions = new Map(loaded.questions.map((q) => [q.id, q]));
const seqs = new Map();
for (const t of loaded.transitions) seqs.set(t.questionId, t.seq);
const cycle = ["in_progress", "blocked", "pending", "resolved", "pending"];
let notes = loaded.notesVersions;
for (let step = 0; ; step++) {
  const ids = [...questions.keys()];
  const id = ids[step % ids.length];
  const question = questions.get(id);
  const next = cycle[(seqs.get(id) ?? 0) % cycle.length];
  const seq = (seqs.get(id) ?? 0) + 1;
  const at = new Date().toISOString();
  const updated = { ...question, status: next, updatedAt: at };
  await store.applyMutation(runId, {
    questions: [updated], dependencies: [], attempts: [], sources: [], claims: [], claimSources: [],
    contradictions: [], challenges: [],
    transitions: [{ questionId: id, seq, fromStatus: question.status, toStatus: next, trigger: "selected",
      actor: "code", reason: "crash test", priority: question.priority, attempts: 0, causedBy: "",
      stateSeq: step, createdAt: at }],
    notes: { text: "notes " + (notes + 1) + " " + "x".repeat(2000), reason: "frontier" },
  }, { stateSeq: step });
  notes += 1;
  questions.set(id, updated);
  seqs.set(id, seq);
  if (step === 0) process.stdout.write("ready\\n");
}
`;

afterEach(killLeftovers);

describe("investigation writes under SIGKILL", () => {
  beforeAll(() => {
    if (!existsSync(BUILT_STORE) || !existsSync(BUILT_WRITER)) {
      throw new Error(`${BUILT_STORE} is missing: run \`npm run build\` first`);
    }
  });

  it("leaves statuses, transitions and notes versions consistent after each kill", async () => {
    const dir = tempDir();
    try {
      const script = join(dir.path, "writer.mjs");
      writeFileSync(script, CHILD_SCRIPT);
      const file = join(dir.path, "assay.db");
      const setup = openSqliteStore({ file });
      const run = await setup.createRun(sampleRequest(), { originAt: "2026-01-15T09:00:00.000Z", worker: "test:1" });
      await setup.applyMutation(run.id, createQuestions("q_001", "q_002", "q_003"), { stateSeq: 0 });
      await setup.close();

      let previous = 0;
      for (let round = 0; round < 4; round++) {
        const killed = await runAndKill([script, file, String(run.id)], 20 + Math.floor(Math.random() * 150));
        expect(killed.end, killed.stderr).toBe("SIGKILL");
        const store = openSqliteStore({ file });
        try {
          const loaded = await store.loadInvestigation(run.id);
          const latest = new Map<string, string>();
          for (const transition of loaded.transitions) latest.set(transition.questionId, transition.toStatus);
          expect(Object.fromEntries(latest)).toEqual(Object.fromEntries(loaded.questions.map((q) => [q.id, q.status])));
          for (const question of loaded.questions) {
            const seqs = loaded.transitions.filter((t) => t.questionId === question.id).map((t) => t.seq);
            expect(seqs).toEqual(seqs.map((_, index) => index + 1));
          }
          const versions = await store.listNotesVersions(run.id);
          expect(versions.map((version) => version.seq)).toEqual(versions.map((_, index) => index + 1));
          // Every mutation wrote one transition and one notes version, together or not at all.
          expect(loaded.transitions.length - 3).toBe(versions.length);
          expect(versions.length).toBeGreaterThan(previous);
          previous = versions.length;
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
