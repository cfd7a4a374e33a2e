/**
 * Crash safety of the investigative writes: a child process applies mutations in a loop
 * (each a status change, its transition and a notes version) and is killed with SIGKILL at a
 * random moment. Every committed mutation is whole: statuses equal the latest transitions,
 * and transition and notes seqs have no gaps. The child runs the built store
 * (`npm run build` first), since plain Node cannot import TypeScript.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
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

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
});

/** Starts the child, waits until it committed once, lets it run `ms` more, then SIGKILLs it. */
async function runAndKill(script: string, file: string, runId: number, ms: number): Promise<void> {
  const child = spawn(process.execPath, [script, file, String(runId)], { stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let stderr = "";
  child.stderr?.on("data", (chunk) => {
    stderr += String(chunk);
  });
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.on("exit", (code, signal) => resolve(signal ?? code)),
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on("data", (chunk) => {
      if (String(chunk).includes("ready")) resolve();
    });
    child.on("exit", () => reject(new Error(`the writer exited before its first write: ${stderr}`)));
  });
  await new Promise((resolve) => setTimeout(resolve, ms));
  child.kill("SIGKILL");
  expect(await exited).toBe("SIGKILL");
}

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
        await runAndKill(script, file, run.id, 20 + Math.floor(Math.random() * 150));
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
