/**
 * Sub-agents in four real processes claim questions of one run's frontier on PostgreSQL at
 * once (seed 000 "Parallelism and sub-agents": a claim is a conditional update), each looping
 * "claim with frontier_next, then prune it" until nothing is left: every question is claimed
 * exactly once, by one sub-agent, and the transitions show no claim of a question in progress.
 * The children run the built modules (`npm run build` first, as npm test does).
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { FileNotes } from "../../adapters/notes/file-notes.js";
import { openPostgresStore } from "../../adapters/store/postgres/postgres-store.js";
import { sampleRequest } from "../../adapters/store/store-contract.js";
import { DEFAULT_INVESTIGATION_CONFIG } from "../../core/investigative/types.js";
import { REPO_ROOT } from "../../testing/cli.js";
import { claimProblems } from "../../testing/frontier-checks.js";
import { noticeMissingPostgres, POSTGRES_AVAILABLE } from "../../testing/postgres.js";
import { useTestPostgres } from "../../testing/postgres-suite.js";
import { tempDir } from "../../testing/temp-dir.js";
import { InvestigationTools } from "./investigation-tools.js";

noticeMissingPostgres("the cross-process claim test");

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

const PROCESSES = 4;
const QUESTIONS = 24;

/** One sub-agent: claims and prunes until no question is actionable; prints what it claimed. */
const CHILD = `
const [url, runId, agent, notesDir, dist] = process.argv.slice(2);
const load = (path) => import(new URL(path, dist).href);
const { openPostgresStore } = await load("adapters/store/postgres/postgres-store.js");
const { InvestigationTools } = await load("strategies/investigative/investigation-tools.js");
const { FileNotes } = await load("adapters/notes/file-notes.js");
const { DEFAULT_INVESTIGATION_CONFIG } = await load("core/investigative/types.js");
const { randomBytes } = await import("node:crypto");
const store = await openPostgresStore({ url });
const claimed = [];
try {
  const tools = (await InvestigationTools.open({
    store, notes: new FileNotes({ directory: notesDir }), runId: Number(runId),
    config: { ...DEFAULT_INVESTIGATION_CONFIG, maxParallel: ${PROCESSES} },
    now: () => new Date().toISOString(), randomBytes,
  })).forAgent(Number(agent));
  for (;;) {
    const next = await tools.call("frontier_next", {});
    if (!next.ok && next.rule === "nothing-actionable") break;
    if (!next.ok && next.rule === "max-parallel") continue;
    if (!next.ok) throw new Error(next.text);
    const id = /\\[(q_\\d+)\\] in_progress/.exec(next.text)[1];
    claimed.push(id);
    const pruned = await tools.call("prune_branch", { id, reason: "done by sub-agent " + agent });
    if (!pruned.ok) throw new Error(pruned.text);
  }
} finally {
  await store.close();
}
process.stdout.write(JSON.stringify(claimed));
`;

function child(script: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const process_ = spawn(process.execPath, [script, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    process_.stdout.on("data", (chunk) => {
      stdout += String(chunk);
    });
    process_.stderr.on("data", (chunk) => {
      stderr += String(chunk);
    });
    process_.on("error", reject);
    process_.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe.runIf(POSTGRES_AVAILABLE)("claims across processes on PostgreSQL", () => {
  const server = useTestPostgres();

  it(`${PROCESSES} processes claim ${QUESTIONS} questions: each exactly once`, async () => {
    const url = await server.createDatabase();
    const dir = tempDir("assay-claims-");
    cleanups.push(dir.cleanup);
    const store = await openPostgresStore({ url });
    try {
      const run = await store.createRun(sampleRequest({ question: "What changed, and why?" }), {
        originAt: new Date().toISOString(),
        worker: "test:1",
      });
      const tools = await InvestigationTools.open({
        store,
        notes: new FileNotes({ directory: join(dir.path, "notes-0") }),
        runId: run.id,
        config: { ...DEFAULT_INVESTIGATION_CONFIG, maxParallel: PROCESSES, maxQuestions: 100 },
        now: () => new Date().toISOString(),
        randomBytes,
      });
      for (let n = 0; n < QUESTIONS; n++) {
        const added = await tools.call("add_question", {
          parent_id: "q_001",
          question: `Which part ${n + 1} changed?`,
          rationale: "a facet of the objective",
          priority: 0.5 + (n % 5) / 10,
          validation_criteria: "a dated source",
          target_sources: [],
        });
        expect(added.ok, added.text).toBe(true);
      }

      const script = join(dir.path, "sub-agent.mjs");
      writeFileSync(script, CHILD);
      const dist = pathToFileURL(join(REPO_ROOT, "dist/")).href;
      const results = await Promise.all(
        Array.from({ length: PROCESSES }, (_, index) =>
          child(script, [url, String(run.id), String(index + 1), join(dir.path, `notes-${index + 1}`), dist]),
        ),
      );
      for (const result of results) expect(result.code, result.stderr).toBe(0);
      const claimed = results.map((result) => JSON.parse(result.stdout) as string[]);
      const all = claimed.flat();
      expect(all.sort()).toEqual(Array.from({ length: QUESTIONS }, (_, n) => `q_${String(n + 2).padStart(3, "0")}`));
      // More than one process got work: the claims really raced.
      expect(claimed.filter((list) => list.length > 0).length).toBeGreaterThan(1);

      const investigation = await store.loadInvestigation(run.id);
      expect(claimProblems(investigation.transitions)).toEqual([]);
      const claims = investigation.transitions.filter((transition) => transition.toStatus === "in_progress");
      expect(claims).toHaveLength(QUESTIONS);
      expect(investigation.questions.filter((question) => question.status === "pruned")).toHaveLength(QUESTIONS);
    } finally {
      await store.close();
    }
  }, 120_000);
});
