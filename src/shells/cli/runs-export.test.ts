/**
 * `assay runs show` and `assay runs export` on a run with an investigation: the store and
 * the investigative tools prepare it in a temp database, the built CLI reads it back.
 */
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { FileNotes } from "../../adapters/notes/file-notes.js";
import { openSqliteStore } from "../../adapters/store/sqlite/sqlite-store.js";
import { sampleRequest, sampleSource } from "../../adapters/store/store-contract.js";
import {
  PHASE_EVENT,
  type PhaseEventData,
  STATE_EVENT,
  TURN_EVENT,
  type TurnEventData,
} from "../../core/investigative/turn-events.js";
import { EMPTY_MUTATION } from "../../core/investigative/types.js";
import { InvestigationTools } from "../../strategies/investigative/investigation-tools.js";
import { BIN, runCli } from "../../testing/cli.js";
import { tempDir } from "../../testing/temp-dir.js";
import { version } from "../../version.js";
import { showRun } from "./runs-commands.js";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

beforeAll(() => {
  if (!existsSync(BIN) || !existsSync(join(BIN, "../../dist/shells/cli/main.js"))) {
    throw new Error("the CLI is not built: run `npm run build` (npm test does it)");
  }
});

const child = (question: string, priority: number) => ({
  parent_id: "q_001",
  question,
  rationale: "part of the objective",
  priority,
  validation_criteria: "a dated primary source",
  target_sources: ["company history"],
});

/** Runs one tool call and fails the test with the refusal when it is refused. */
async function call(tools: InvestigationTools, name: string, args: unknown): Promise<string> {
  const reply = await tools.call(name, args);
  if (!reply.ok) throw new Error(`${name}: ${reply.text}`);
  return reply.text;
}

/** A run with two sources, four questions (one resolved, one pruned), a claim and a survived challenge. */
async function investigatedRun(): Promise<{ home: string; db: string; runId: number }> {
  const dir = tempDir("assay-runs-export-");
  cleanups.push(dir.cleanup);
  const db = join(dir.path, "assay.db");
  const store = openSqliteStore({ file: db });
  try {
    const run = await store.createRun(sampleRequest(), { originAt: "2026-01-15T09:00:00.000Z", worker: "test:1" });
    for (const anchor of ["history/sony-1991.md", "history/goodenough.md"]) {
      await store.persistSource(run.id, sampleSource(anchor), () => 1);
    }
    let tick = 0;
    const now = () => new Date(Date.UTC(2026, 0, 15, 9, 0, tick++)).toISOString();
    const tools = await InvestigationTools.open({
      store,
      notes: new FileNotes({ directory: join(dir.path, "notes") }),
      runId: run.id,
      now,
      randomBytes,
    });
    await call(tools, "add_question", child("Who sold it first?", 0.9));
    await call(tools, "add_question", child("Which cell chemistry was used?", 0.3));
    await call(tools, "frontier_next", {});
    await call(tools, "notes_append", {
      section: "unverified",
      entries: [{ text: "Sony sold the first cells in 1991.", source_ids: ["s_001"] }],
    });
    const registered = await call(tools, "challenge", {
      target_type: "claim",
      target_id: "c_001",
      negation: "another company sold cells before Sony",
      strategy: "discrepancy",
      expected_if_false: "an earlier dated product",
      query: "lithium-ion cell sold before 1991",
    });
    const challengeId = /ch_\d+/.exec(registered)?.[0] ?? "";
    // No search loop yet: the test records the attempt that ran the challenge's query.
    const loaded = await store.loadInvestigation(run.id);
    const challenge = loaded.challenges.find((row) => row.id === challengeId);
    if (!challenge) throw new Error(registered);
    await store.applyMutation(
      run.id,
      {
        ...EMPTY_MUTATION,
        attempts: [
          { questionId: "q_002", seq: 1, query: challenge.query, tool: "challenge", outcome: "", createdAt: now() },
        ],
        challenges: [{ ...challenge, attempt: { questionId: "q_002", seq: 1 } }],
      },
      { stateSeq: 0 },
    );
    await call(tools, "record_challenge_result", {
      challenge_id: challengeId,
      outcome: "survived",
      evidence: "nothing earlier found",
      source_ids: ["s_002"],
    });
    await call(tools, "resolve_question", {
      id: "q_002",
      answer: "Sony, in 1991",
      claim_ids: ["c_001"],
      reason: "a single dated fact",
    });
    await call(tools, "prune_branch", { id: "q_003", reason: "chemistry does not alter the date" });
    return { home: dir.path, db, runId: run.id };
  } finally {
    await store.close();
  }
}

describe("assay runs show on an investigation", () => {
  it("prints the frontier tree, the transitions, the challenges and the claims", async () => {
    const { home, db, runId } = await investigatedRun();
    const show = await runCli(["runs", "show", String(runId), "--db", db], { home });
    expect(show.code, show.stderr).toBe(0);
    const text = show.stdout;
    expect(text).toContain("Frontier (3 questions):");
    expect(text).toContain("\n  [q_001] pending  P 1.00  When was the lithium-ion battery commercialised?\n");
    expect(text).toContain("\n    [q_002] resolved  P 0.90  Who sold it first?  — answer: Sony, in 1991\n");
    expect(text).toMatch(/\n {4}\[q_003\] pruned {2}P 0\.30 {2}Which cell chemistry was used\? {2}— pruned by agent/);
    expect(text).toContain("  pruned by the agent: q_003; by code: none");
    expect(text).toMatch(/Transitions \(\d+\):\n {2}09:00:\d\d {2}q_001 {2}\(new\) → pending {2}created/);
    expect(text).toMatch(/q_002 {2}pending → in_progress {2}selected/);
    expect(text).toContain("Challenges (1):\n  outcomes: survived 1\n  discrepancy        survived 1\n");
    expect(text).toContain("  per target: claim c_001 1");
    expect(text).toContain("  suspect: no");
    expect(text).toContain(
      "Claims (1):\n  [c_001] UNVERIFIED  Sony sold the first cells in 1991.  src: s_001  (q_002)",
    );
    expect(text.indexOf("Sources (2):")).toBeLessThan(text.indexOf("Frontier"));
    expect(text.indexOf("Claims (1)")).toBeLessThan(text.indexOf("Events:"));

    const json = JSON.parse((await runCli(["runs", "show", String(runId), "--db", db, "--json"], { home })).stdout) as {
      investigation: {
        frontier: { tree: string[]; questions: { id: string }[] };
        transitions: unknown[];
        stats: { challenges: { suspect: boolean; total: number } };
        claims: { id: string }[];
      } | null;
    };
    expect(json.investigation?.frontier.questions.map((question) => question.id)).toEqual(["q_001", "q_002", "q_003"]);
    expect(json.investigation?.frontier.tree[1]).toContain("[q_002] resolved");
    expect(json.investigation?.stats.challenges).toMatchObject({ suspect: false, total: 1 });
    expect(json.investigation?.claims.map((claim) => claim.id)).toEqual(["c_001"]);
  });

  it("prints the last 40 transitions and says how many were left out", async () => {
    const { home, db, runId } = await investigatedRun();
    const store = openSqliteStore({ file: db });
    try {
      const tools = await InvestigationTools.open({
        store,
        notes: new FileNotes({ directory: join(home, "notes") }),
        runId,
        now: () => "2026-01-15T10:00:00.000Z",
        randomBytes,
      });
      for (let index = 0; index < 40; index++) {
        await call(tools, "set_priority", { id: "q_001", priority: index % 2 === 0 ? 0.9 : 1, why: `step ${index}` });
      }
      const total = (await store.loadInvestigation(runId)).transitions.length;
      const out = new PassThrough();
      let text = "";
      out.on("data", (chunk: Buffer) => {
        text += chunk.toString();
      });
      await showRun(store, runId, { json: false }, out);
      expect(text).toContain(
        `Transitions (${total}):\n  (${total - 40} earlier left out; assay runs export ${runId} has them all)\n`,
      );
      const section = text.slice(text.indexOf("Transitions ("), text.indexOf("Challenges ("));
      expect(section.split("\n").filter((line) => /^ {2}\d\d:\d\d:\d\d {2}/.test(line))).toHaveLength(40);
      expect(section).toContain("reprioritized  (agent)  step 39");
      expect(section).not.toContain("created");
    } finally {
      await store.close();
    }
  });

  it("prints no investigation sections for a run without one", async () => {
    const dir = tempDir("assay-runs-export-");
    cleanups.push(dir.cleanup);
    const db = join(dir.path, "assay.db");
    const store = openSqliteStore({ file: db });
    await store.createRun(sampleRequest(), { originAt: "2026-01-15T09:00:00.000Z", worker: "test:1" });
    await store.close();
    const show = await runCli(["runs", "show", "1", "--db", db], { home: dir.path });
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).not.toContain("Frontier");
    const json = JSON.parse((await runCli(["runs", "show", "1", "--db", db, "--json"], { home: dir.path })).stdout);
    expect(json.investigation).toBeNull();
  });
});

describe("assay runs export", () => {
  it("writes the whole investigation as JSON to stdout or, atomically, to --out", async () => {
    const { home, db, runId } = await investigatedRun();
    const printed = await runCli(["runs", "export", String(runId), "--db", db], { home });
    expect(printed.code, printed.stderr).toBe(0);
    const exported = JSON.parse(printed.stdout) as {
      format: string;
      schemaVersion: number;
      run: { id: number; request: { question: string } };
      frontier: { questions: { id: string; status: string }[]; tree: string[] };
      transitions: { questionId: string; trigger: string }[];
      attempts: unknown[];
      claims: unknown[];
      claimSources: unknown[];
      challenges: { id: string; outcome: string; sources: { id: string; location: string }[] }[];
      notesVersions: number;
      stats: { frontier: { pruned: { agent: string[] } } };
      events: unknown[];
    };
    expect(exported).toMatchObject({ format: "assay-investigation", schemaVersion: 1, run: { id: runId } });
    expect(exported.frontier.questions.map((question) => [question.id, question.status])).toEqual([
      ["q_001", "pending"],
      ["q_002", "resolved"],
      ["q_003", "pruned"],
    ]);
    expect(exported.frontier.tree).toHaveLength(3);
    expect(exported.transitions.map((transition) => transition.trigger)).toContain("pruned_scope");
    expect(exported.attempts).toHaveLength(1);
    expect(exported.claims).toHaveLength(1);
    expect(exported.claimSources).toHaveLength(1);
    expect(exported.challenges).toMatchObject([
      { outcome: "survived", sources: [{ id: "s_002", location: "history/goodenough.md" }] },
    ]);
    expect(exported.notesVersions).toBeGreaterThan(1);
    expect(exported.stats.frontier.pruned.agent).toEqual(["q_003"]);

    const file = join(home, "export.json");
    const written = await runCli(["runs", "export", String(runId), "--db", db, "--out", file], { home });
    expect(written.code, written.stderr).toBe(0);
    expect(written.stdout).toContain(`Exported run ${runId} to ${join(home, "export.json")}`);
    expect(JSON.parse(readFileSync(join(home, "export.json"), "utf8"))).toEqual(exported);
    // The temporary file was renamed away.
    expect(readdirSync(home).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });

  it("writes the trajectory as ATIF with --format atif, to stdout or to --out", async () => {
    const { home, db, runId } = await investigatedRun();
    const store = openSqliteStore({ file: db });
    try {
      const at = (second: number) => ({
        offsetMs: second * 1000,
        at: `2026-01-15T09:01:${String(second).padStart(2, "0")}.000Z`,
      });
      const turn = (data: Partial<TurnEventData>): TurnEventData => ({
        turn: 1,
        phase: "exploration",
        mode: "normal",
        questionId: "q_002",
        toolChoice: "auto",
        offered: ["search", "fetch_page"],
        text: "",
        calls: [],
        usage: { inputTokens: 1200, outputTokens: 80, costUsd: 0.0015 },
        prompt: { chars: 4800, tokens: 1200 },
        commits: [],
        model: "gpt-test",
        ...data,
      });
      const append = (type: string, second: number, data: object) =>
        store.appendEvent(runId, { type, ...at(second), data: { ...data } });
      await append(PHASE_EVENT, 1, { phase: "exploration" } satisfies PhaseEventData);
      await append(STATE_EVENT, 2, { state: "selecting", turn: 1, questionId: "q_002", detail: "top priority" });
      await append(
        TURN_EVENT,
        3,
        turn({
          text: "Searching for the first seller.",
          calls: [
            {
              id: "call_1",
              name: "search",
              args: { query: "first lithium-ion cell" },
              ok: true,
              text: "h1 Sony",
              chars: 7,
            },
            { id: "call_2", name: "fetch_page", args: { hit: "h9" }, ok: false, text: "refused: no hit h9", chars: 18 },
          ],
        }),
      );
      await append(TURN_EVENT, 4, turn({ turn: 2, failed: "timeout", usage: { inputTokens: 0, outputTokens: 0 } }));
      await append(PHASE_EVENT, 5, { phase: "finished", stopReason: "finalized" } satisfies PhaseEventData);
    } finally {
      await store.close();
    }

    const printed = await runCli(["runs", "export", String(runId), "--db", db, "--format", "atif"], { home });
    expect(printed.code, printed.stderr).toBe(0);
    const trajectory = JSON.parse(printed.stdout) as {
      schema_version: string;
      session_id: string;
      agent: { name: string; version: string; model_name: string };
      steps: {
        step_id: number;
        source: string;
        message: string;
        tool_calls?: { tool_call_id: string; function_name: string; arguments: unknown }[];
        observation?: { results: { source_call_id: string; content: string; extra: { ok: boolean } }[] };
        metrics?: { prompt_tokens: number; completion_tokens: number; cost_usd?: number };
      }[];
      final_metrics: { total_prompt_tokens: number; total_completion_tokens: number; total_cost_usd?: number };
    };
    expect(trajectory).toMatchObject({
      schema_version: "ATIF-v1.7",
      session_id: `assay-run-${runId}`,
      agent: { name: "assay", version, model_name: "offline" },
    });
    expect(trajectory.steps.map((step) => [step.step_id, step.source])).toEqual([
      [1, "user"],
      [2, "system"],
      [3, "system"],
      [4, "agent"],
      [5, "agent"],
      [6, "system"],
    ]);
    expect(trajectory.steps[0]?.message).toBe("When was the lithium-ion battery commercialised?");
    expect(trajectory.steps[3]).toMatchObject({
      message: "Searching for the first seller.",
      tool_calls: [
        { tool_call_id: "call_1", function_name: "search", arguments: { query: "first lithium-ion cell" } },
        { tool_call_id: "call_2", function_name: "fetch_page", arguments: { hit: "h9" } },
      ],
      observation: {
        results: [
          { source_call_id: "call_1", content: "h1 Sony", extra: { ok: true } },
          { source_call_id: "call_2", content: "refused: no hit h9", extra: { ok: false } },
        ],
      },
      metrics: { prompt_tokens: 1200, completion_tokens: 80, cost_usd: 0.0015 },
    });
    // The failed turn's cost is unknown, so the total cost is too.
    expect(trajectory.final_metrics).toMatchObject({ total_prompt_tokens: 1200, total_completion_tokens: 80 });
    expect(trajectory.final_metrics).not.toHaveProperty("total_cost_usd");

    const file = join(home, "trajectory.json");
    const written = await runCli(["runs", "export", String(runId), "--db", db, "--format", "atif", "--out", file], {
      home,
    });
    expect(written.code, written.stderr).toBe(0);
    expect(written.stdout).toContain(`Exported run ${runId} to ${file}`);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual(trajectory);
  });

  it("refuses an unknown format and an unknown run", async () => {
    const { home, db, runId } = await investigatedRun();
    const other = await runCli(["runs", "export", String(runId), "--db", db, "--format", "yaml"], { home });
    expect(other.code).toBe(2);
    expect(other.stderr).toContain("known formats: json, atif");
    const json = await runCli(["runs", "export", String(runId), "--db", db, "--format", "json"], { home });
    expect(json.code, json.stderr).toBe(0);
    const unknown = await runCli(["runs", "export", "42", "--db", db, "--format", "atif"], { home });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("there is no run 42");
  });
});
