/**
 * The effect layer of the investigative tools against a real SQLite file and a real notes
 * directory: every call is loaded, decided, written in one transaction and followed by the
 * notes working copy; refused calls write nothing; a missing or stale working copy is
 * restored from the latest version; two writers on one run meet at the id counters.
 */
import { randomBytes } from "node:crypto";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileNotes } from "../../adapters/notes/file-notes.js";
import { openSqliteStore, type SqliteStore } from "../../adapters/store/sqlite/sqlite-store.js";
import { sampleRequest, sampleSource } from "../../adapters/store/store-contract.js";
import { DEFAULT_INVESTIGATION_CONFIG, type InvestigationConfig } from "../../core/investigative/types.js";
import { IdConflictError, type StoredInvestigation } from "../../ports/investigation-store.js";
import { tempDir } from "../../testing/temp-dir.js";
import { InvestigationTools, TOOL_DEFINITIONS, type ToolReply } from "./investigation-tools.js";

const OBJECTIVE = "When was the lithium-ion battery commercialised?";

interface Fixture {
  file: string;
  notesDir: string;
  store: SqliteStore;
  notes: FileNotes;
  runId: number;
  /** The state seq the next write belongs to. */
  stateSeq: { value: number };
  open(options?: { store?: SqliteStore; config?: InvestigationConfig }): Promise<InvestigationTools>;
  cleanup(): Promise<void>;
}

/** A run with three persisted corpus sources (s_001…s_003), over a fresh SQLite file. */
async function fixture(): Promise<Fixture> {
  const dir = tempDir();
  const file = join(dir.path, "assay.db");
  const notesDir = join(dir.path, "notes");
  const store = openSqliteStore({ file });
  const run = await store.createRun(sampleRequest({ question: OBJECTIVE }), {
    originAt: "2026-01-15T09:00:00.000Z",
    worker: "test:1",
  });
  for (const anchor of ["history/sony-1991.md", "history/goodenough.md", "history/nobel-2019.md"]) {
    await store.persistSource(run.id, sampleSource(anchor), () => 1);
  }
  const notes = new FileNotes({ directory: notesDir });
  const stateSeq = { value: 0 };
  let tick = 0;
  const now = () => new Date(Date.UTC(2026, 0, 15, 9, 0, tick++)).toISOString();
  return {
    file,
    notesDir,
    store,
    notes,
    runId: run.id,
    stateSeq,
    open: (options = {}) =>
      InvestigationTools.open({
        store: options.store ?? store,
        notes,
        runId: run.id,
        ...(options.config ? { config: options.config } : {}),
        now,
        stateSeq: () => stateSeq.value,
        randomBytes,
      }),
    async cleanup() {
      await store.close();
      dir.cleanup();
    },
  };
}

/** Statuses equal their latest transitions, transition and notes seqs are contiguous, the file is the latest version. */
async function expectConsistent(f: Fixture, tools: InvestigationTools): Promise<StoredInvestigation> {
  const loaded = await f.store.loadInvestigation(f.runId);
  for (const question of loaded.questions) {
    const transitions = loaded.transitions.filter((transition) => transition.questionId === question.id);
    expect(
      transitions.map((transition) => transition.seq),
      question.id,
    ).toEqual(transitions.map((_, index) => index + 1));
    expect(transitions.at(-1)?.toStatus, question.id).toBe(question.status);
  }
  const versions = await f.store.listNotesVersions(f.runId);
  expect(versions.map((version) => version.seq)).toEqual(versions.map((_, index) => index + 1));
  expect(loaded.notesVersions).toBe(versions.length);
  expect(loaded.latestNotes?.seq).toBe(versions.length);
  expect(await f.notes.read(tools.notesFile)).toBe(versions.at(-1)?.text);
  return loaded;
}

type Expectation =
  | { ok: true; transitions: number; version?: "notes_append" | "notes_update" | "notes_scratch" | "frontier" }
  | { ok: false; rule: string };

/** Runs one call and checks what it wrote against `expected`, then the invariants. */
async function step(
  f: Fixture,
  tools: InvestigationTools,
  name: string,
  args: unknown,
  expected: Expectation,
): Promise<ToolReply> {
  const before = await f.store.loadInvestigation(f.runId);
  const versionsBefore = await f.store.listNotesVersions(f.runId);
  const fileBefore = await f.notes.read(tools.notesFile);
  f.stateSeq.value += 1;
  const reply = await tools.call(name, args);
  const label = `${name} ${JSON.stringify(args)} -> ${reply.text}`;
  expect(reply.ok, label).toBe(expected.ok);
  const after = await expectConsistent(f, tools);
  const versions = await f.store.listNotesVersions(f.runId);
  if (!expected.ok) {
    expect(reply.ok ? "" : reply.rule, label).toBe(expected.rule);
    expect(reply.text, label).toContain(`Refused (${expected.rule})`);
    // A refused call writes nothing at all: not a row, not a version, not the file.
    expect(after, label).toEqual(before);
    expect(versions, label).toEqual(versionsBefore);
    expect(await f.notes.read(tools.notesFile), label).toBe(fileBefore);
    return reply;
  }
  expect(after.transitions.length - before.transitions.length, label).toBe(expected.transitions);
  expect(after.transitions.slice(0, before.transitions.length), label).toEqual(before.transitions);
  if (expected.version === undefined) {
    expect(versions, label).toEqual(versionsBefore);
    expect(await f.notes.read(tools.notesFile), label).toBe(fileBefore);
  } else {
    expect(versions.length, label).toBe(versionsBefore.length + 1);
    expect(versions.slice(0, -1), label).toEqual(versionsBefore);
    expect(versions.at(-1), label).toMatchObject({ reason: expected.version, stateSeq: f.stateSeq.value });
    expect(versions.at(-1)?.text, label).not.toBe(fileBefore);
  }
  return reply;
}

/**
 * `store` whose writes (`applyMutation`) wait until `release()`: a writer in another process
 * that decided before a concurrent write committed. Records the errors its writes met.
 */
function heldWrites(store: SqliteStore): { store: SqliteStore; release: () => void; conflicts: unknown[] } {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const conflicts: unknown[] = [];
  const held = new Proxy(store, {
    get(target, property, receiver) {
      if (property !== "applyMutation") {
        const value: unknown = Reflect.get(target, property, receiver);
        return typeof value === "function" ? value.bind(target) : value;
      }
      return async (...args: Parameters<SqliteStore["applyMutation"]>) => {
        await released;
        try {
          return await target.applyMutation(...args);
        } catch (error) {
          conflicts.push(error);
          throw error;
        }
      };
    },
  });
  return { store: held, release: () => release(), conflicts };
}

const child = (question: string, priority: number) => ({
  parent_id: "q_001",
  question,
  rationale: "part of the objective",
  priority,
  validation_criteria: "a dated primary source",
  target_sources: ["company history"],
});

const statusOf = async (f: Fixture, id: string) =>
  (await f.store.loadInvestigation(f.runId)).questions.find((question) => question.id === id)?.status;

describe("InvestigationTools", () => {
  let f: Fixture;
  beforeEach(async () => {
    f = await fixture();
  });
  afterEach(async () => {
    await f.cleanup();
  });

  describe("open", () => {
    it("gives the run a notes id, the root question and the first notes version", async () => {
      const tools = await f.open();
      const run = await f.store.getRun(f.runId);
      expect(run?.notesId).toMatch(/^[0-9a-f]{32}$/);
      expect(tools.notesFile).toBe(`notes_local_${f.runId}_${run?.notesId}.md`);

      const loaded = await expectConsistent(f, tools);
      expect(loaded.questions).toHaveLength(1);
      expect(loaded.questions[0]).toMatchObject({
        id: "q_001",
        parentId: null,
        depth: 0,
        question: OBJECTIVE,
        status: "pending",
        priority: 1,
      });
      expect(loaded.transitions).toEqual([
        expect.objectContaining({
          questionId: "q_001",
          seq: 1,
          fromStatus: "",
          toStatus: "pending",
          trigger: "created",
        }),
      ]);
      const versions = await f.store.listNotesVersions(f.runId);
      expect(versions).toHaveLength(1);
      expect(versions[0]?.reason).toBe("frontier");
      expect(versions[0]?.text).toContain(`# Notes: ${OBJECTIVE}`);
      // The Host's sources are listed from the start.
      expect(versions[0]?.text).toContain("[s_001]");
      expect(await f.notes.read(tools.notesFile)).toBe(versions[0]?.text);
    });

    it("opening again keeps the notes id, the root and the versions", async () => {
      const first = await f.open();
      const notesId = (await f.store.getRun(f.runId))?.notesId;
      const second = await f.open();
      expect((await f.store.getRun(f.runId))?.notesId).toBe(notesId);
      expect(second.notesFile).toBe(first.notesFile);
      const loaded = await expectConsistent(f, second);
      expect(loaded.questions.map((question) => question.id)).toEqual(["q_001"]);
      expect(loaded.transitions).toHaveLength(1);
      expect(await f.store.listNotesVersions(f.runId)).toHaveLength(1);
    });

    it("fails for a run that does not exist", async () => {
      await expect(
        InvestigationTools.open({
          store: f.store,
          notes: f.notes,
          runId: f.runId + 100,
          now: () => "2026-01-15T09:00:00.000Z",
          randomBytes,
        }),
      ).rejects.toThrow(/no run/);
    });
  });

  it("persists a sequence of calls; refused calls write nothing", async () => {
    const config = { ...DEFAULT_INVESTIGATION_CONFIG, maxAttempts: 2 };
    const tools = await f.open({ config });

    await step(f, tools, "frontier_next", {}, { ok: false, rule: "broad-expansion-first" });
    await step(
      f,
      tools,
      "add_question",
      { ...child("Who sold it first?", 0.9), extra: 1 },
      { ok: false, rule: "arguments" },
    );
    await step(f, tools, "add_question", child("Who sold it first?", 1.5), { ok: false, rule: "arguments" });
    await step(
      f,
      tools,
      "add_question",
      { ...child("x", 0.5), parent_id: "q_404" },
      { ok: false, rule: "unknown-question" },
    );
    await step(f, tools, "no_such_tool", {}, { ok: false, rule: "unknown-tool" });

    const added = await step(f, tools, "add_question", child("Who sold it first?", 0.9), { ok: true, transitions: 1 });
    expect(added.text).toContain("[q_002] pending");
    await step(f, tools, "add_question", child("In which year did sales start?", 0.6), { ok: true, transitions: 1 });
    await step(f, tools, "add_question", child("Which cell chemistry was used?", 0.3), { ok: true, transitions: 1 });
    await step(f, tools, "add_question", child("who sold it first", 0.5), { ok: false, rule: "duplicate-question" });
    await step(f, tools, "declare_atomic", { reason: "one fact" }, { ok: false, rule: "root-has-children" });

    const next = await step(f, tools, "frontier_next", {}, { ok: true, transitions: 1 });
    expect(next.text).toContain("[q_002] in_progress");
    await step(f, tools, "frontier_next", {}, { ok: false, rule: "max-parallel" });

    const appended = await step(
      f,
      tools,
      "notes_append",
      { section: "unverified", entries: [{ text: "Sony sold the first cells in 1991.", source_ids: ["s_001"] }] },
      { ok: true, transitions: 0, version: "notes_append" },
    );
    expect(appended.text).toContain("[c_001] UNVERIFIED");
    expect(await f.notes.read(tools.notesFile)).toContain(
      "- [c_001] UNVERIFIED  Sony sold the first cells in 1991.  src: s_001",
    );
    const claim = (await f.store.loadInvestigation(f.runId)).claims[0];
    expect(claim).toMatchObject({ id: "c_001", questionId: "q_002", status: "UNVERIFIED" });
    await step(
      f,
      tools,
      "notes_append",
      { section: "unverified", entries: [{ text: "Another claim.", source_ids: ["s_999"] }] },
      { ok: false, rule: "unknown-source" },
    );

    await step(
      f,
      tools,
      "retry_question",
      { id: "q_002", new_query: "first commercial lithium-ion cell", why: "only secondary sources" },
      { ok: true, transitions: 1 },
    );
    expect(await statusOf(f, "q_002")).toBe("pending");
    await step(
      f,
      tools,
      "retry_question",
      { id: "q_002", new_query: "First commercial lithium-ion cell!", why: "again" },
      { ok: false, rule: "query-not-distinct" },
    );

    await step(
      f,
      tools,
      "set_priority",
      { id: "q_003", priority: 0.95, why: "the year is the answer" },
      {
        ok: true,
        transitions: 1,
      },
    );
    await step(
      f,
      tools,
      "set_priority",
      { id: "q_003", priority: 0.95, why: "again" },
      {
        ok: false,
        rule: "priority-unchanged",
      },
    );
    const selected = await step(f, tools, "frontier_next", {}, { ok: true, transitions: 1 });
    expect(selected.text).toContain("[q_003] in_progress");

    await step(
      f,
      tools,
      "resolve_question",
      { id: "q_003", answer: "1991", claim_ids: ["c_001"] },
      {
        ok: false,
        rule: "answer-challenge",
      },
    );
    await step(
      f,
      tools,
      "resolve_question",
      { id: "q_003", answer: "1991", claim_ids: ["c_404"], reason: "r" },
      {
        ok: false,
        rule: "unknown-claim",
      },
    );
    await step(
      f,
      tools,
      "resolve_question",
      { id: "q_003", answer: "1991", claim_ids: ["c_001"], reason: "a single dated fact" },
      { ok: true, transitions: 1 },
    );
    expect(await statusOf(f, "q_003")).toBe("resolved");
    await step(
      f,
      tools,
      "resolve_question",
      { id: "q_003", answer: "1991", claim_ids: [], reason: "again" },
      {
        ok: false,
        rule: "invalid-status",
      },
    );

    await step(
      f,
      tools,
      "notes_scratch",
      { text: "Plan: confirm the year with a second source." },
      {
        ok: true,
        transitions: 0,
        version: "notes_scratch",
      },
    );
    await step(f, tools, "reopen_question", { id: "q_003", why: "a source says 1992" }, { ok: true, transitions: 1 });
    expect(await statusOf(f, "q_003")).toBe("pending");
    await step(
      f,
      tools,
      "prune_branch",
      { id: "q_004", reason: "chemistry does not alter the date" },
      {
        ok: true,
        transitions: 1,
      },
    );
    await step(f, tools, "prune_branch", { id: "q_001", reason: "no" }, { ok: false, rule: "root-not-prunable" });

    // The last allowed attempt needs an assumption; with it, the question becomes a gap in the notes.
    const lastTry = { id: "q_002", new_query: "Sony Energytec 1991 press release", why: "nothing primary found" };
    await step(f, tools, "retry_question", lastTry, { ok: false, rule: "assumption-required" });
    await step(
      f,
      tools,
      "retry_question",
      { ...lastTry, assumption: "Sony was first (secondary sources)" },
      {
        ok: true,
        transitions: 1,
        version: "frontier",
      },
    );
    expect(await statusOf(f, "q_002")).toBe("unresolvable");

    const view = await step(f, tools, "frontier_view", {}, { ok: true, transitions: 0 });
    expect(view.text).toContain("[q_004] pruned");
    await step(f, tools, "frontier_view", { id: "q_404" }, { ok: false, rule: "unknown-question" });
    await step(f, tools, "challenges_view", {}, { ok: true, transitions: 0 });

    const notes = await f.notes.read(tools.notesFile);
    expect(notes).toContain("- q_002 unresolvable: Sony was first (secondary sources)");
    // Scratch lives only in the notes: a later write keeps it.
    expect(notes).toContain("## Scratch\nPlan: confirm the year with a second source.\n");
    expect((await f.store.listNotesVersions(f.runId)).map((version) => version.reason)).toEqual([
      "frontier",
      "notes_append",
      "notes_scratch",
      "frontier",
    ]);
    const loaded = await f.store.loadInvestigation(f.runId);
    expect(Object.fromEntries(loaded.questions.map((question) => [question.id, question.status]))).toEqual({
      q_001: "pending",
      q_002: "unresolvable",
      q_003: "pending",
      q_004: "pruned",
    });
    expect(loaded.attempts.map((attempt) => `${attempt.questionId}#${attempt.seq}`)).toEqual(["q_002#1", "q_002#2"]);
  });

  describe("the working copy", () => {
    it("is restored from the latest version when deleted, with one restore row", async () => {
      const tools = await f.open();
      await tools.call("notes_scratch", { text: "kept" });
      const latest = (await f.store.listNotesVersions(f.runId)).at(-1);
      rmSync(join(f.notesDir, tools.notesFile));
      expect(await f.notes.read(tools.notesFile)).toBeUndefined();

      const reopened = await f.open();
      const versions = await f.store.listNotesVersions(f.runId);
      expect(versions).toHaveLength(3);
      expect(versions[2]).toMatchObject({ seq: 3, reason: "restore", text: latest?.text });
      expect(await f.notes.read(reopened.notesFile)).toBe(latest?.text);
      await expectConsistent(f, reopened);

      // Restored and unchanged: nothing more to write.
      expect(await reopened.restoreNotes()).toBe(latest?.text);
      expect(await f.store.listNotesVersions(f.runId)).toHaveLength(3);
    });

    it("is rewritten from the latest version when edited on disk", async () => {
      const tools = await f.open();
      const latest = (await f.store.listNotesVersions(f.runId)).at(-1);
      writeFileSync(join(f.notesDir, tools.notesFile), `${latest?.text}- an edit outside the tools\n`);

      expect(await tools.restoreNotes()).toBe(latest?.text);
      expect(await f.notes.read(tools.notesFile)).toBe(latest?.text);
      const versions = await f.store.listNotesVersions(f.runId);
      expect(versions.map((version) => version.reason)).toEqual(["frontier", "restore"]);
      expect(versions[1]?.text).toBe(latest?.text);
      await expectConsistent(f, tools);
    });
  });

  it("checks passages against the Host's chunk catalog of each call and stores them on the links", async () => {
    const tools = await f.open();
    const append = (entry: Record<string, unknown>) => ({
      section: "unverified",
      entries: [{ text: "Sony sold the first cells in 1991.", ...entry }],
    });
    await step(f, tools, "notes_append", append({ source_ids: ["s_001"], passage_ids: ["s_001.p03"] }), {
      ok: false,
      rule: "passage",
    });
    await step(f, tools, "notes_append", append({ source_ids: ["s_001"], passage_ids: ["s_002.p01"] }), {
      ok: false,
      rule: "passage",
    });
    const appended = await step(
      f,
      tools,
      "notes_append",
      append({ source_ids: ["s_001", "s_002"], passage_ids: ["s_002.p02", "s_001.p01"] }),
      { ok: true, transitions: 0, version: "notes_append" },
    );
    expect(appended.text).toContain("(passages: s_002.p02, s_001.p01)");
    // A source persisted after the tools were opened is in the next call's catalog.
    await f.store.persistSource(f.runId, sampleSource("history/sanyo.md"), () => 2);
    await step(
      f,
      tools,
      "notes_update",
      { id: "c_001", add_source: { source_id: "s_004", stance: "supports", passage_ids: ["s_004.p02"] } },
      { ok: true, transitions: 0, version: "notes_update" },
    );
    expect((await f.store.loadInvestigation(f.runId)).claimSources).toEqual([
      { claimId: "c_001", sourceId: "s_001", stance: "supports", chunkIds: ["s_001.p01"] },
      { claimId: "c_001", sourceId: "s_002", stance: "supports", chunkIds: ["s_002.p02"] },
      { claimId: "c_001", sourceId: "s_004", stance: "supports", chunkIds: ["s_004.p02"] },
    ]);
  });

  it("two writers on one run both add a question: the id conflict is decided again", async () => {
    await f.open();
    const other = openSqliteStore({ file: f.file });
    try {
      // The second handle holds its write until the first writer has committed, so it
      // decided on stale state and must meet the id counter.
      const { store: held, release, conflicts } = heldWrites(other);
      const first = await f.open();
      const second = await f.open({ store: held });
      const slow = second.call("add_question", child("Which company sold it first?", 0.7));
      const fast = await first.call("add_question", child("In which year did sales start?", 0.8));
      release();
      const late = await slow;
      expect(fast).toMatchObject({ ok: true });
      expect(late).toMatchObject({ ok: true });
      expect(fast.text).toContain("[q_002]");
      expect(late.text).toContain("[q_003]");
      expect(conflicts).toHaveLength(1);
      expect(conflicts[0]).toBeInstanceOf(IdConflictError);

      const loaded = await expectConsistent(f, first);
      expect(loaded.questions.map((question) => [question.id, question.question])).toEqual([
        ["q_001", OBJECTIVE],
        ["q_002", "In which year did sales start?"],
        ["q_003", "Which company sold it first?"],
      ]);
    } finally {
      await other.close();
    }
  });

  it("a claim decided on a stale frontier is refused by the store and decided again: no question is claimed twice", async () => {
    const config = { ...DEFAULT_INVESTIGATION_CONFIG, maxParallel: 2 };
    const first = await f.open({ config });
    await first.call("add_question", child("In which year did sales start?", 0.8));
    await first.call("add_question", child("Which company sold it first?", 0.7));
    const other = openSqliteStore({ file: f.file });
    try {
      // Sub-agent 2 (another process, another handle) decides on the frontier before sub-agent 1's claim…
      const { store: held, release, conflicts } = heldWrites(other);
      const second = (await f.open({ store: held, config })).forAgent(2);
      const slow = second.call("frontier_next", {});
      // …and writes after it: both decided on q_002 pending.
      const fast = await first.call("frontier_next", {});
      release();
      const late = await slow;
      expect(fast.text).toContain("[q_002] in_progress");
      expect(late.text).toContain("[q_003] in_progress");
      expect(conflicts).toHaveLength(1);
      expect(conflicts[0]).toBeInstanceOf(IdConflictError);
      const loaded = await expectConsistent(f, first);
      expect(
        loaded.questions.filter((q) => q.status === "in_progress").map((q) => [q.id, q.agent, q.claimedBy]),
      ).toEqual([
        ["q_002", 1, f.runId],
        ["q_003", 2, f.runId],
      ]);
      expect(
        loaded.transitions.filter((transition) => transition.toStatus === "in_progress").map((t) => t.questionId),
      ).toEqual(["q_002", "q_003"]);
    } finally {
      await other.close();
    }
  });

  it("the views of a run's sub-agents serialize their calls: concurrent notes appends all land, in one version each", async () => {
    const config = { ...DEFAULT_INVESTIGATION_CONFIG, maxParallel: 3 };
    const lead = await f.open({ config });
    const views = [lead, lead.forAgent(2), lead.forAgent(3)];
    const replies = await Promise.all(
      views.map((view, index) =>
        view.call("notes_append", {
          section: "unverified",
          entries: [{ text: `Finding ${index + 1} of the sub-agents.`, source_ids: ["s_001"] }],
        }),
      ),
    );
    expect(replies.map((reply) => reply.ok)).toEqual([true, true, true]);
    const loaded = await expectConsistent(f, lead);
    expect(loaded.claims.map((claim) => claim.id)).toEqual(["c_001", "c_002", "c_003"]);
    const notes = await f.notes.read(lead.notesFile);
    for (const n of [1, 2, 3]) expect(notes).toContain(`Finding ${n} of the sub-agents.`);
  });

  it("two writers calling at once both succeed with distinct ids", async () => {
    const other = openSqliteStore({ file: f.file });
    try {
      const first = await f.open();
      const second = await f.open({ store: other });
      const replies = await Promise.all([
        first.call("add_question", child("Which company sold it first?", 0.7)),
        second.call("add_question", child("In which year did sales start?", 0.8)),
      ]);
      expect(replies.map((reply) => reply.ok)).toEqual([true, true]);
      const loaded = await f.store.loadInvestigation(f.runId);
      expect(loaded.questions.map((question) => question.id)).toEqual(["q_001", "q_002", "q_003"]);
      expect(loaded.transitions.map((transition) => `${transition.questionId}#${transition.seq}`)).toEqual([
        "q_001#1",
        "q_002#1",
        "q_003#1",
      ]);
    } finally {
      await other.close();
    }
  });
});

describe("TOOL_DEFINITIONS", () => {
  const SEED_TOOLS = [
    "frontier_next",
    "frontier_view",
    "add_question",
    "retry_question",
    "resolve_question",
    "reopen_question",
    "set_priority",
    "prune_branch",
    "notes_append",
    "notes_update",
    "notes_scratch",
    "challenge",
    "record_challenge_result",
    "challenges_view",
  ];

  it("offers the seed's tools plus declare_atomic, each described", () => {
    expect(TOOL_DEFINITIONS).toHaveLength(15);
    expect(TOOL_DEFINITIONS.map((tool) => tool.name).sort()).toEqual([...SEED_TOOLS, "declare_atomic"].sort());
    for (const tool of TOOL_DEFINITIONS) expect(tool.description.length, tool.name).toBeGreaterThan(20);
  });

  it.each(TOOL_DEFINITIONS.map((tool) => [tool.name, tool] as const))("%s rejects an unknown property", (_, tool) => {
    const parsed = tool.schema.safeParse({ not_a_parameter: true });
    expect(parsed.success).toBe(false);
    expect(JSON.stringify(parsed.error?.issues)).toContain("not_a_parameter");
  });
});
