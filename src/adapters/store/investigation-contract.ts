/**
 * The investigation section of the store contract (seed 000 "Database schema"): every
 * `InvestigationStore` implementation passes it. Called from `runStoreContract`.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_BUDGETS } from "../../core/budgets.js";
import { StoreError } from "../../core/errors.js";
import {
  type Attempt,
  type Challenge,
  type Claim,
  EMPTY_MUTATION,
  type Mutation,
  type Question,
  type QuestionStatus,
  type Transition,
} from "../../core/investigative/types.js";
import { IdConflictError, type InvestigationStore, LedgerIntegrityError } from "../../ports/investigation-store.js";
import type { RunRequest, Store } from "../../ports/store.js";

export interface InvestigationStoreFactory {
  open(): Promise<{ store: Store & InvestigationStore; cleanup: () => Promise<void> }>;
  /** Deletes a run the way the implementation does (absent: the cascade test is skipped). */
  deleteRun?: (store: Store & InvestigationStore, runId: number) => Promise<void>;
}

const AT = "2026-01-15T09:00:00.000Z";

const request: RunRequest = {
  question: "Q?",
  language: "en",
  strategy: "pipeline",
  model: "none",
  scope: { kind: "corpus", root: "/c", label: "c" },
  budgets: { ...DEFAULT_BUDGETS },
  outDir: "",
};

export const sampleQuestion = (id: string, overrides: Partial<Question> = {}): Question => ({
  id,
  parentId: id === "q_001" ? null : "q_001",
  depth: id === "q_001" ? 0 : 1,
  kind: "question",
  question: `Question ${id}?`,
  rationale: "",
  priority: 0.5,
  status: "pending",
  validationCriteria: "",
  targetSources: [],
  answer: "",
  claimIds: [],
  exemption: "",
  claimedBy: null,
  agent: 0,
  reopens: 0,
  createdAt: AT,
  updatedAt: AT,
  ...overrides,
});

export const sampleTransition = (
  questionId: string,
  seq: number,
  toStatus: QuestionStatus,
  overrides: Partial<Transition> = {},
): Transition => ({
  questionId,
  seq,
  fromStatus: seq === 1 ? "" : "pending",
  toStatus,
  trigger: seq === 1 ? "created" : "selected",
  actor: "agent",
  reason: "",
  priority: 0.5,
  attempts: 0,
  causedBy: "",
  stateSeq: 1,
  createdAt: AT,
  ...overrides,
});

const sampleClaim = (id: string, overrides: Partial<Claim> = {}): Claim => ({
  id,
  questionId: "q_001",
  kind: id.startsWith("d_") ? "datapoint" : "claim",
  text: `Claim ${id}`,
  value: "",
  unit: "",
  status: "UNVERIFIED",
  check: "",
  independence: "",
  createdAt: AT,
  updatedAt: AT,
  ...overrides,
});

const sampleAttempt = (questionId: string, seq: number, overrides: Partial<Attempt> = {}): Attempt => ({
  questionId,
  seq,
  query: `query ${seq}`,
  tool: "search",
  outcome: "",
  createdAt: AT,
  ...overrides,
});

/** A mutation that creates new pending questions, each with its creation transition. */
export const createQuestions = (...ids: string[]): Mutation => ({
  ...EMPTY_MUTATION,
  questions: ids.map((id) => sampleQuestion(id)),
  transitions: ids.map((id) => sampleTransition(id, 1, "pending")),
});

const sampleSource = (anchor: string) => ({
  requestedAnchor: anchor,
  canonicalAnchor: anchor,
  title: `Title of ${anchor}`,
  transport: "corpus" as const,
  path: anchor,
  domain: "",
  content: "Text.",
  truncated: false,
  contentType: "text/markdown",
  sha256: "0".repeat(64),
  capturedAt: AT,
  fetchedMs: 1,
  provenance: { queryId: "sq_001", rank: 1, requestedAnchor: anchor },
  chunks: [{ seq: 1, start: 0, end: 5, text: "Text." }],
});

export function runInvestigationContract(name: string, factory: InvestigationStoreFactory): void {
  const withRun = async (test: (store: Store & InvestigationStore, runId: number) => Promise<void>) => {
    const { store, cleanup } = await factory.open();
    try {
      const run = await store.createRun(request, { originAt: AT, worker: "test:1" });
      await store.persistSource(run.id, sampleSource("a.md"), () => 1);
      await store.persistSource(run.id, sampleSource("b.md"), () => 2);
      await test(store, run.id);
    } finally {
      await cleanup();
    }
  };

  describe(`Investigation store contract: ${name}`, () => {
    it("round-trips a mutation and upserts on the next one", () =>
      withRun(async (store, runId) => {
        const first: Mutation = {
          ...createQuestions("q_001", "q_002"),
          dependencies: [{ questionId: "q_001", dependsOnId: "q_002" }],
          attempts: [sampleAttempt("q_002", 1)],
          sources: [
            { id: "s_001", location: "a.md", domain: "corpus:a.md", title: "A", note: "read, nothing relevant" },
          ],
          claims: [
            sampleClaim("c_001", { check: "ask the archive" }),
            sampleClaim("d_001", { value: "3", unit: "kg" }),
          ],
          claimSources: [
            { claimId: "c_001", sourceId: "s_001", stance: "supports", chunkIds: [] },
            { claimId: "c_001", sourceId: "s_002", stance: "contradicts", chunkIds: [] },
          ],
          contradictions: [{ claimId: "c_001", otherClaimId: "d_001", questionId: "", addressed: false }],
          notes: { text: "# Notes\n", reason: "notes_append" },
        };
        expect(await store.applyMutation(runId, first, { stateSeq: 1 })).toEqual({ notesSeq: 1 });
        const loaded = await store.loadInvestigation(runId);
        expect(loaded.questions).toEqual(first.questions);
        expect(loaded.dependencies).toEqual(first.dependencies);
        expect(loaded.attempts).toEqual(first.attempts);
        expect(loaded.transitions).toEqual(first.transitions);
        expect(loaded.claims).toEqual(first.claims);
        expect(loaded.claimSources).toEqual(first.claimSources);
        expect(loaded.contradictions).toEqual(first.contradictions);
        expect(loaded.sources).toEqual([
          {
            id: "s_001",
            location: "a.md",
            domain: "corpus:a.md",
            title: "Title of a.md",
            note: "read, nothing relevant",
          },
          { id: "s_002", location: "b.md", domain: "corpus:b.md", title: "Title of b.md", note: "" },
        ]);
        expect(loaded.notesVersions).toBe(1);
        expect(loaded.latestNotes).toEqual({ seq: 1, text: "# Notes\n", reason: "notes_append" });

        const selected = sampleQuestion("q_002", { status: "in_progress", claimIds: ["c_001"], updatedAt: "later" });
        const second: Mutation = {
          ...EMPTY_MUTATION,
          questions: [selected],
          transitions: [sampleTransition("q_002", 2, "in_progress")],
          claims: [sampleClaim("c_001", { status: "VERIFIED", independence: "different archives" })],
          claimSources: [{ claimId: "c_001", sourceId: "s_002", stance: "supports", chunkIds: [] }],
          contradictions: [{ claimId: "c_001", otherClaimId: "d_001", questionId: "q_002", addressed: true }],
        };
        expect(await store.applyMutation(runId, second, { stateSeq: 2 })).toEqual({});
        const after = await store.loadInvestigation(runId);
        expect(after.questions.map((q) => [q.id, q.status])).toEqual([
          ["q_001", "pending"],
          ["q_002", "in_progress"],
        ]);
        expect(after.questions[1]).toEqual(selected);
        expect(after.claims[0]).toMatchObject({ status: "VERIFIED", independence: "different archives" });
        expect(after.claimSources.map((link) => link.stance)).toEqual(["supports", "supports"]);
        expect(after.contradictions).toEqual(second.contradictions);
        expect(after.transitions).toHaveLength(3);
        expect(after.notesVersions).toBe(1);
      }));

    it("rejects an id that is not the next of its counter and writes nothing", () =>
      withRun(async (store, runId) => {
        await store.applyMutation(
          runId,
          { ...createQuestions("q_001"), claims: [sampleClaim("c_001")] },
          { stateSeq: 1 },
        );
        const before = await store.loadInvestigation(runId);
        const skipping: Mutation = {
          ...createQuestions("q_003"),
          claims: [sampleClaim("c_002")],
          notes: { text: "x", reason: "notes_update" },
        };
        await expect(store.applyMutation(runId, skipping, { stateSeq: 2 })).rejects.toBeInstanceOf(IdConflictError);
        await expect(
          store.applyMutation(
            runId,
            { ...EMPTY_MUTATION, claims: [sampleClaim("c_001"), sampleClaim("c_003")] },
            { stateSeq: 2 },
          ),
        ).rejects.toBeInstanceOf(IdConflictError);
        await expect(
          store.applyMutation(
            runId,
            { ...EMPTY_MUTATION, transitions: [sampleTransition("q_001", 1, "pending")] },
            { stateSeq: 2 },
          ),
        ).rejects.toBeInstanceOf(IdConflictError);
        await expect(
          store.applyMutation(runId, { ...EMPTY_MUTATION, attempts: [sampleAttempt("q_001", 2)] }, { stateSeq: 2 }),
        ).rejects.toBeInstanceOf(IdConflictError);
        const dangling: Mutation = { ...EMPTY_MUTATION, dependencies: [{ questionId: "q_001", dependsOnId: "q_009" }] };
        await expect(store.applyMutation(runId, dangling, { stateSeq: 2 })).rejects.toBeInstanceOf(StoreError);
        expect(await store.loadInvestigation(runId)).toEqual(before);
        // Each prefix has its own counter: the next claim, datapoint and question are accepted together.
        const next: Mutation = {
          ...createQuestions("q_002", "q_003"),
          claims: [sampleClaim("c_002"), sampleClaim("d_001")],
        };
        await store.applyMutation(runId, next, { stateSeq: 2 });
        const ids = (await store.loadInvestigation(runId)).claims.map((claim) => claim.id);
        expect(ids).toEqual(["c_001", "c_002", "d_001"]);
      }));

    it("rejects a mutation whose statuses and transitions disagree", () =>
      withRun(async (store, runId) => {
        await store.applyMutation(runId, createQuestions("q_001"), { stateSeq: 1 });
        const before = await store.loadInvestigation(runId);
        const mismatching: Mutation = {
          ...EMPTY_MUTATION,
          questions: [sampleQuestion("q_001", { status: "resolved" })],
          transitions: [sampleTransition("q_001", 2, "in_progress")],
          notes: { text: "x", reason: "frontier" },
        };
        await expect(store.applyMutation(runId, mismatching, { stateSeq: 2 })).rejects.toBeInstanceOf(
          LedgerIntegrityError,
        );
        const silent: Mutation = { ...EMPTY_MUTATION, questions: [sampleQuestion("q_001", { status: "pruned" })] };
        await expect(store.applyMutation(runId, silent, { stateSeq: 2 })).rejects.toBeInstanceOf(LedgerIntegrityError);
        const untracked: Mutation = { ...EMPTY_MUTATION, questions: [sampleQuestion("q_002")] };
        await expect(store.applyMutation(runId, untracked, { stateSeq: 2 })).rejects.toBeInstanceOf(
          LedgerIntegrityError,
        );
        expect(await store.loadInvestigation(runId)).toEqual(before);
      }));

    it("replaying the transitions rebuilds every question's status", () =>
      withRun(async (store, runId) => {
        const ids = ["q_001", "q_002", "q_003", "q_004"];
        await store.applyMutation(runId, createQuestions(...ids), { stateSeq: 1 });
        const statuses = new Map(ids.map((id) => [id, { status: "pending" as QuestionStatus, seq: 1 }]));
        const cycle: QuestionStatus[] = ["in_progress", "blocked", "pending", "resolved", "pruned"];
        for (let step = 0; step < 12; step++) {
          const id = ids[(step * 3) % ids.length] ?? "q_001";
          const current = statuses.get(id) ?? { status: "pending", seq: 1 };
          const next = cycle[step % cycle.length] ?? "pending";
          const mutation: Mutation = {
            ...EMPTY_MUTATION,
            questions: [sampleQuestion(id, { status: next })],
            transitions: [sampleTransition(id, current.seq + 1, next, { fromStatus: current.status, stateSeq: step })],
          };
          await store.applyMutation(runId, mutation, { stateSeq: step });
          statuses.set(id, { status: next, seq: current.seq + 1 });
        }
        const loaded = await store.loadInvestigation(runId);
        const replayed = new Map<string, QuestionStatus>();
        for (const transition of loaded.transitions) replayed.set(transition.questionId, transition.toStatus);
        expect(Object.fromEntries(replayed)).toEqual(Object.fromEntries(loaded.questions.map((q) => [q.id, q.status])));
        for (const id of ids) {
          const seqs = loaded.transitions.filter((t) => t.questionId === id).map((t) => t.seq);
          expect(seqs).toEqual(seqs.map((_, index) => index + 1));
        }
      }));

    it("numbers notes versions per run", () =>
      withRun(async (store, runId) => {
        const notes = (text: string): Mutation => ({ ...EMPTY_MUTATION, notes: { text, reason: "notes_update" } });
        expect(await store.applyMutation(runId, notes("one"), { stateSeq: 3 })).toEqual({ notesSeq: 1 });
        expect(await store.applyMutation(runId, EMPTY_MUTATION, { stateSeq: 4 })).toEqual({});
        expect(await store.applyMutation(runId, notes("two"), { stateSeq: 5 })).toEqual({ notesSeq: 2 });
        const versions = await store.listNotesVersions(runId);
        expect(versions.map((v) => [v.seq, v.stateSeq, v.reason, v.text])).toEqual([
          [1, 3, "notes_update", "one"],
          [2, 5, "notes_update", "two"],
        ]);
        const other = await store.createRun(request, { originAt: AT, worker: "test:2" });
        expect(await store.applyMutation(other.id, notes("other"), { stateSeq: 1 })).toEqual({ notesSeq: 1 });
        const loaded = await store.loadInvestigation(runId);
        expect(loaded.notesVersions).toBe(2);
        expect(loaded.latestNotes).toEqual({ seq: 2, text: "two", reason: "notes_update" });
      }));

    it("round-trips a challenge with its attempt and sources", () =>
      withRun(async (store, runId) => {
        const open: Challenge = {
          id: "ch_001",
          questionId: "q_001",
          targetType: "claim",
          targetId: "c_001",
          negation: "It was not 1991.",
          strategy: "negation",
          expectedIfFalse: "A dated earlier release.",
          query: "lithium-ion 1985 release",
          attempt: { questionId: "q_001", seq: 1 },
          status: "open",
          outcome: "",
          evidence: "",
          sourceIds: [],
          resultClaimId: null,
          createdAt: AT,
          closedAt: null,
        };
        await store.applyMutation(
          runId,
          {
            ...createQuestions("q_001"),
            attempts: [sampleAttempt("q_001", 1, { tool: "challenge", query: open.query })],
            claims: [sampleClaim("c_001")],
            challenges: [open],
          },
          { stateSeq: 1 },
        );
        expect((await store.loadInvestigation(runId)).challenges).toEqual([open]);
        const closed: Challenge = {
          ...open,
          status: "closed",
          outcome: "refuted",
          evidence: "Sold in 1985.",
          sourceIds: ["s_002", "s_001"],
          resultClaimId: "c_002",
          closedAt: "2026-01-15T09:05:00.000Z",
        };
        await store.applyMutation(
          runId,
          { ...EMPTY_MUTATION, claims: [sampleClaim("c_002")], challenges: [closed] },
          { stateSeq: 2 },
        );
        expect((await store.loadInvestigation(runId)).challenges).toEqual([closed]);
        const unknownSource = { ...EMPTY_MUTATION, challenges: [{ ...closed, sourceIds: ["s_009"] }] };
        await expect(store.applyMutation(runId, unknownSource, { stateSeq: 3 })).rejects.toBeInstanceOf(
          LedgerIntegrityError,
        );
        const unknownAttempt = {
          ...EMPTY_MUTATION,
          challenges: [{ ...closed, attempt: { questionId: "q_001", seq: 7 } }],
        };
        await expect(store.applyMutation(runId, unknownAttempt, { stateSeq: 3 })).rejects.toBeInstanceOf(
          LedgerIntegrityError,
        );
        const notHost = {
          ...EMPTY_MUTATION,
          sources: [{ id: "s_009", location: "x", domain: "x", title: "", note: "n" }],
        };
        await expect(store.applyMutation(runId, notHost, { stateSeq: 3 })).rejects.toBeInstanceOf(LedgerIntegrityError);
        expect((await store.loadInvestigation(runId)).challenges).toEqual([closed]);
      }));

    it("stores the passages of a claim-source link and refuses a passage the source does not have", () =>
      withRun(async (store, runId) => {
        const link = { claimId: "c_001", sourceId: "s_001", stance: "supports" as const, chunkIds: ["s_001.p01"] };
        await store.applyMutation(
          runId,
          {
            ...createQuestions("q_001"),
            claims: [sampleClaim("c_001")],
            claimSources: [link, { claimId: "c_001", sourceId: "s_002", stance: "contradicts", chunkIds: [] }],
          },
          { stateSeq: 1 },
        );
        const loaded = await store.loadInvestigation(runId);
        expect(loaded.claimSources).toEqual([
          link,
          { claimId: "c_001", sourceId: "s_002", stance: "contradicts", chunkIds: [] },
        ]);
        // A link carries its whole passage list: a later write replaces it.
        const updated = { ...link, chunkIds: [] };
        await store.applyMutation(runId, { ...EMPTY_MUTATION, claimSources: [updated] }, { stateSeq: 2 });
        expect((await store.loadInvestigation(runId)).claimSources[0]).toEqual(updated);
        for (const chunkIds of [["s_002.p01"], ["s_001.p02"], ["s_001.p1"], ["s_001"]]) {
          const foreign = {
            ...EMPTY_MUTATION,
            claims: [sampleClaim("c_002")],
            claimSources: [{ ...link, claimId: "c_002", chunkIds }],
          };
          await expect(store.applyMutation(runId, foreign, { stateSeq: 3 })).rejects.toBeInstanceOf(
            LedgerIntegrityError,
          );
        }
        const after = await store.loadInvestigation(runId);
        expect(after.claims.map((claim) => claim.id)).toEqual(["c_001"]);
        expect(after.claimSources).toHaveLength(2);
      }));

    it.skipIf(!factory.deleteRun)("deletes the investigation with its run", () =>
      withRun(async (store, runId) => {
        await store.applyMutation(
          runId,
          { ...createQuestions("q_001"), claims: [sampleClaim("c_001")], notes: { text: "n", reason: "notes_append" } },
          { stateSeq: 1 },
        );
        await factory.deleteRun?.(store, runId);
        const loaded = await store.loadInvestigation(runId);
        expect([loaded.questions, loaded.transitions, loaded.claims, loaded.sources]).toEqual([[], [], [], []]);
        expect(loaded.notesVersions).toBe(0);
      }),
    );
  });
}
