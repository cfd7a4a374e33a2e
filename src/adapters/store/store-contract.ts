/**
 * The contract every Store implementation passes. Run it from a test file with a factory
 * that opens a fresh, empty store.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_BUDGETS } from "../../core/budgets.js";
import type { NewSource, RunRequest } from "../../ports/store.js";
import { type InvestigationStoreFactory, runInvestigationContract } from "./investigation-contract.js";
import { runLeaseContract } from "./lease-contract.js";

/** Opens a fresh, empty store; `deleteRun`, when the implementation can delete runs, enables the cascade test. */
export type StoreFactory = InvestigationStoreFactory;

export const sampleRequest = (overrides: Partial<RunRequest> = {}): RunRequest => ({
  question: "When was the lithium-ion battery commercialised?",
  language: "en",
  strategy: "pipeline",
  model: "offline",
  scope: { kind: "corpus", root: "/data/corpus", label: "corpus" },
  budgets: { ...DEFAULT_BUDGETS },
  outDir: "/tmp/out",
  ...overrides,
});

export const sampleSource = (anchor: string, overrides: Partial<NewSource> = {}): NewSource => ({
  requestedAnchor: anchor,
  canonicalAnchor: anchor,
  title: `Title of ${anchor}`,
  transport: "corpus",
  path: anchor,
  domain: "",
  content: "First paragraph.\n\nSecond paragraph.",
  truncated: false,
  contentType: "text/markdown",
  sha256: "0".repeat(64),
  capturedAt: "2026-01-15T09:00:00.000Z",
  fetchedMs: 12.5,
  provenance: { queryId: "sq_001", rank: 1, requestedAnchor: anchor },
  chunks: [
    { seq: 1, start: 0, end: 16, text: "First paragraph." },
    { seq: 2, start: 18, end: 35, text: "Second paragraph." },
  ],
  ...overrides,
});

export function runStoreContract(name: string, factory: StoreFactory): void {
  const withStore = async (test: (store: Awaited<ReturnType<StoreFactory["open"]>>["store"]) => Promise<void>) => {
    const { store, cleanup } = await factory.open();
    try {
      await test(store);
    } finally {
      await cleanup();
    }
  };
  const origin = { originAt: "2026-01-15T09:00:00.000Z", worker: "test:1" };

  describe(`Store contract: ${name}`, () => {
    it("round-trips a run request and patches it", () =>
      withStore(async (store) => {
        const run = await store.createRun(sampleRequest(), origin);
        expect(run.id).toBeGreaterThan(0);
        expect(run.status).toBe("running");
        expect(run.artifactStatus).toBe("");
        const read = await store.getRun(run.id);
        expect(read?.request).toEqual(sampleRequest());
        expect(read?.originAt).toBe(origin.originAt);
        await store.updateRun(run.id, {
          status: "finished",
          artifactStatus: "source-backed",
          finishedAt: "2026-01-15T09:01:00.000Z",
        });
        const done = await store.getRun(run.id);
        expect(done).toMatchObject({
          status: "finished",
          artifactStatus: "source-backed",
          finishedAt: "2026-01-15T09:01:00.000Z",
        });
        expect(done?.request).toEqual(sampleRequest());
        expect(await store.getRun(run.id + 1000)).toBeUndefined();
      }));

    it("round-trips the investigative knobs the user set, and only those", () =>
      withStore(async (store) => {
        const investigation = { maxDepth: 2, gatePriority: 0.75, maxTotalTokens: 200_000, maxCostUsd: 1.5 };
        const run = await store.createRun(sampleRequest({ investigation }), origin);
        expect(run.request.investigation).toEqual(investigation);
        expect((await store.getRun(run.id))?.request).toEqual(sampleRequest({ investigation }));
        const none = await store.createRun(sampleRequest(), origin);
        expect(Object.hasOwn((await store.getRun(none.id))?.request ?? {}, "investigation")).toBe(false);
        const empty = await store.createRun(sampleRequest({ investigation: {} }), origin);
        expect((await store.getRun(empty.id))?.request.investigation).toEqual({});
        const listed = await store.listRuns({ limit: 3 });
        expect(listed.find((item) => item.id === run.id)?.request.investigation).toEqual(investigation);
      }));

    it("keeps the investigative run columns", () =>
      withStore(async (store) => {
        const run = await store.createRun(sampleRequest(), origin);
        expect(run).toMatchObject({ notesId: "", phase: "", stopReason: "", userId: "local" });
        await store.updateRun(run.id, { notesId: "n_4f2a", phase: "synthesis", stopReason: "breaker:tokens" });
        expect(await store.getRun(run.id)).toMatchObject({
          notesId: "n_4f2a",
          phase: "synthesis",
          stopReason: "breaker:tokens",
          status: "running",
        });
        const owned = await store.createRun(sampleRequest(), { ...origin, userId: "u_7" });
        expect(owned.userId).toBe("u_7");
      }));

    it("records the worker and clock origin of a queued run when a worker starts it", () =>
      withStore(async (store) => {
        const run = await store.createRun(sampleRequest(), { ...origin, worker: "" });
        expect(run).toMatchObject({ status: "running", worker: "" });
        await store.updateRun(run.id, { worker: "host-b:42", originAt: "2026-01-15T09:05:00.000Z" });
        expect(await store.getRun(run.id)).toMatchObject({ worker: "host-b:42", originAt: "2026-01-15T09:05:00.000Z" });
      }));

    it("lists runs newest first, within the limit", () =>
      withStore(async (store) => {
        const ids: number[] = [];
        for (let index = 0; index < 3; index++)
          ids.push((await store.createRun(sampleRequest({ question: `q${index}` }), origin)).id);
        const runs = await store.listRuns({ limit: 2 });
        expect(runs.map((run) => run.id)).toEqual([ids[2], ids[1]]);
      }));

    it("lists one user's runs only when asked", () =>
      withStore(async (store) => {
        const a = await store.createRun(sampleRequest(), { ...origin, userId: "alice" });
        const b = await store.createRun(sampleRequest(), { ...origin, userId: "bob" });
        const a2 = await store.createRun(sampleRequest(), { ...origin, userId: "alice" });
        expect((await store.listRuns({ userId: "alice" })).map((run) => run.id)).toEqual([a2.id, a.id]);
        expect((await store.listRuns({ userId: "bob", limit: 5 })).map((run) => run.id)).toEqual([b.id]);
        expect((await store.listRuns({ userId: "carol" })).length).toBe(0);
        expect((await store.listRuns({ limit: 10 })).length).toBe(3);
      }));

    it("sums one user's model usage over all their runs, since a time when asked", () =>
      withStore(async (store) => {
        const a = await store.createRun(sampleRequest(), { ...origin, userId: "alice" });
        const a2 = await store.createRun(sampleRequest(), { ...origin, userId: "alice" });
        const b = await store.createRun(sampleRequest(), { ...origin, userId: "bob" });
        const generation = (at: string, usage: Record<string, unknown>, type = "generation-finished") => ({
          type,
          offsetMs: 1,
          at,
          data: { purpose: "synthesis", model: "m", usage },
        });
        await store.appendEvent(
          a.id,
          generation("2026-01-14T23:59:59.000Z", { inputTokens: 10, outputTokens: 5, costUsd: 0.5 }),
        );
        await store.appendEvent(
          a.id,
          generation("2026-01-15T00:00:00.000Z", { inputTokens: 20, outputTokens: 5, costUsd: 0.25 }),
        );
        await store.appendEvent(
          a2.id,
          generation(
            "2026-01-15T10:00:00.000Z",
            { inputTokens: 1, outputTokens: 0, costUsd: 0.125 },
            "generation-failed",
          ),
        );
        // Not a generation: its usage is not counted again.
        await store.appendEvent(
          a2.id,
          generation("2026-01-15T10:00:01.000Z", { inputTokens: 1, outputTokens: 1, costUsd: 9 }, "investigative-turn"),
        );
        await store.appendEvent(b.id, generation("2026-01-15T11:00:00.000Z", { inputTokens: 7, outputTokens: 7 }));
        expect(await store.userUsage("alice")).toEqual({
          generations: 3,
          inputTokens: 31,
          outputTokens: 10,
          costUsd: 0.875,
          knownCostUsd: 0.875,
          unpriced: 0,
        });
        expect(await store.userUsage("alice", { since: "2026-01-15T00:00:00.000Z" })).toMatchObject({
          generations: 2,
          costUsd: 0.375,
        });
        expect(await store.userUsage("bob")).toMatchObject({ generations: 1, costUsd: null, unpriced: 1 });
        expect(await store.userUsage("carol")).toMatchObject({ generations: 0, costUsd: 0 });
      }));

    it("keeps API tokens by hash: find, list, touch, revoke once", () =>
      withStore(async (store) => {
        const hash = (digit: string) => digit.repeat(64);
        const created = await store.createApiToken({
          userId: "alice",
          name: "laptop",
          hash: hash("a"),
          createdAt: "2026-01-15T09:00:00.000Z",
        });
        expect(created).toMatchObject({
          userId: "alice",
          name: "laptop",
          hash: hash("a"),
          lastUsedAt: "",
          revokedAt: "",
        });
        const other = await store.createApiToken({
          userId: "bob",
          name: "",
          hash: hash("b"),
          createdAt: "2026-01-15T09:01:00.000Z",
        });
        await expect(
          store.createApiToken({ userId: "carol", name: "", hash: hash("a"), createdAt: "2026-01-15T09:02:00.000Z" }),
        ).rejects.toThrow();
        expect(await store.findApiToken(hash("a"))).toEqual(created);
        expect(await store.findApiToken(hash("c"))).toBeUndefined();
        expect((await store.listApiTokens()).map((token) => token.id)).toEqual([other.id, created.id]);
        expect((await store.listApiTokens({ userId: "bob" })).map((token) => token.id)).toEqual([other.id]);
        await store.touchApiToken(created.id, "2026-01-15T10:00:00.000Z");
        expect((await store.findApiToken(hash("a")))?.lastUsedAt).toBe("2026-01-15T10:00:00.000Z");
        expect(await store.revokeApiToken(created.id, "2026-01-15T11:00:00.000Z")).toBe(true);
        expect(await store.revokeApiToken(created.id, "2026-01-15T12:00:00.000Z")).toBe(false);
        expect(await store.revokeApiToken(created.id + 1000, "2026-01-15T12:00:00.000Z")).toBe(false);
        expect((await store.findApiToken(hash("a")))?.revokedAt).toBe("2026-01-15T11:00:00.000Z");
      }));

    it("keeps web sessions by hash: find, touch, delete, prune; revoking their token ends them", () =>
      withStore(async (store) => {
        const hash = (digit: string) => digit.repeat(64);
        const alice = await store.createApiToken({
          userId: "alice",
          name: "",
          hash: hash("a"),
          createdAt: "2026-01-15T09:00:00.000Z",
        });
        const bob = await store.createApiToken({
          userId: "bob",
          name: "",
          hash: hash("b"),
          createdAt: "2026-01-15T09:00:00.000Z",
        });
        const session = (digit: string, tokenId: number, expiresAt: string) => ({
          hash: hash(digit),
          userId: tokenId === alice.id ? "alice" : "bob",
          tokenId,
          createdAt: "2026-01-15T10:00:00.000Z",
          expiresAt,
          idleTimeoutMs: 7_200_000,
        });
        const first = await store.createWebSession(session("1", alice.id, "2026-01-15T22:00:00.000Z"));
        expect(first).toEqual({
          ...session("1", alice.id, "2026-01-15T22:00:00.000Z"),
          id: first.id,
          lastUsedAt: "2026-01-15T10:00:00.000Z",
        });
        expect(typeof first.id).toBe("number");
        const second = await store.createWebSession(session("2", alice.id, "2026-01-15T11:00:00.000Z"));
        const bobs = await store.createWebSession(session("3", bob.id, "2026-01-15T22:00:00.000Z"));
        await expect(store.createWebSession(session("1", bob.id, "2026-01-15T22:00:00.000Z"))).rejects.toThrow();
        expect(await store.findWebSession(hash("1"))).toEqual(first);
        expect(await store.findWebSession(hash("9"))).toBeUndefined();

        await store.touchWebSession(first.id, "2026-01-15T10:30:00.000Z");
        expect((await store.findWebSession(hash("1")))?.lastUsedAt).toBe("2026-01-15T10:30:00.000Z");

        // Pruning deletes the sessions past their absolute expiry only.
        expect(await store.pruneWebSessions("2026-01-15T11:00:00.000Z")).toBe(1);
        expect(await store.findWebSession(hash("2"))).toBeUndefined();
        expect((await store.findWebSession(hash("1")))?.id).toBe(first.id);
        expect(second.id).not.toBe(first.id);

        // Sign-out deletes one session, once.
        expect(await store.deleteWebSession(hash("1"))).toBe(true);
        expect(await store.deleteWebSession(hash("1"))).toBe(false);
        expect(await store.findWebSession(hash("1"))).toBeUndefined();

        // Revoking a token ends its sessions at once, and only its.
        const again = await store.createWebSession(session("4", alice.id, "2026-01-15T22:00:00.000Z"));
        expect((await store.findWebSession(hash("4")))?.id).toBe(again.id);
        expect(await store.revokeApiToken(alice.id, "2026-01-15T12:00:00.000Z")).toBe(true);
        expect(await store.findWebSession(hash("4"))).toBeUndefined();
        expect(await store.deleteWebSession(hash("4"))).toBe(false);
        expect(await store.findWebSession(hash("3"))).toEqual(bobs);
        // A session of a revoked token (one an older assay left, say) is never found.
        await store.createWebSession(session("5", alice.id, "2026-01-15T22:00:00.000Z"));
        expect(await store.findWebSession(hash("5"))).toBeUndefined();
      }));

    it("appends events with per-run sequence numbers", () =>
      withStore(async (store) => {
        const a = await store.createRun(sampleRequest(), origin);
        const b = await store.createRun(sampleRequest(), origin);
        const event = { at: origin.originAt, data: { n: 1 } };
        expect((await store.appendEvent(a.id, { ...event, type: "run-started", offsetMs: 0 })).seq).toBe(1);
        expect((await store.appendEvent(a.id, { ...event, type: "search-finished", offsetMs: 5.5 })).seq).toBe(2);
        expect((await store.appendEvent(b.id, { ...event, type: "run-started", offsetMs: 1 })).seq).toBe(1);
        const events = await store.listEvents(a.id);
        expect(events.map((item) => [item.seq, item.type, item.offsetMs])).toEqual([
          [1, "run-started", 0],
          [2, "search-finished", 5.5],
        ]);
        expect(events[0]?.data).toEqual({ n: 1 });
        expect((await store.listEvents(a.id, { afterSeq: 1 })).map((item) => item.seq)).toEqual([2]);
        expect(await store.listEvents(a.id, { afterSeq: 2 })).toEqual([]);
      }));

    it("assigns search-call ids from the run's counter and keeps hits as metadata", () =>
      withStore(async (store) => {
        const run = await store.createRun(sampleRequest(), origin);
        const hit = { anchor: "a.md", title: "A", snippet: "…", rank: 1, score: 2.5 };
        const call = { origin: "bootstrap" as const, status: "ok" as const, error: "", startedMs: 1, finishedMs: 2 };
        const first = await store.recordSearchCall(run.id, {
          ...call,
          query: { kind: "text", text: "q" },
          hits: [hit],
        });
        const second = await store.recordSearchCall(run.id, {
          ...call,
          status: "failed",
          error: "boom",
          query: { kind: "pattern", pattern: "li.*ion", pathPrefix: "history" },
          hits: [],
        });
        expect([first.id, second.id]).toEqual(["sq_001", "sq_002"]);
        const calls = await store.listSearchCalls(run.id);
        expect(calls).toHaveLength(2);
        expect(calls[0]?.hits).toEqual([hit]);
        expect(calls[1]).toMatchObject({
          status: "failed",
          error: "boom",
          query: { kind: "pattern", pathPrefix: "history" },
        });
      }));

    it("persists a source with chunks and provenance, ids from the run's counter", () =>
      withStore(async (store) => {
        const run = await store.createRun(sampleRequest(), origin);
        const other = await store.createRun(sampleRequest(), origin);
        const first = await store.persistSource(run.id, sampleSource("a.md"), () => 40);
        const second = await store.persistSource(run.id, sampleSource("b.md"), () => 41);
        const elsewhere = await store.persistSource(other.id, sampleSource("a.md"), () => 42);
        expect([first.source.id, second.source.id, elsewhere.source.id]).toEqual(["s_001", "s_002", "s_001"]);
        expect(first.duplicate).toBe(false);
        expect(first.source.persistedMs).toBe(40);
        expect(first.source.fetchedMs).toBe(12.5);
        expect(first.source.chunks.map((chunk) => chunk.id)).toEqual(["s_001.p01", "s_001.p02"]);
        expect(first.source.chunks[1]).toMatchObject({
          start: 18,
          end: 35,
          text: "Second paragraph.",
          sourceId: "s_001",
        });
        const listed = await store.listSources(run.id);
        expect(listed.map((source) => source.id)).toEqual(["s_001", "s_002"]);
        expect(listed[0]).toMatchObject({
          title: "Title of a.md",
          path: "a.md",
          truncated: false,
          contentType: "text/markdown",
        });
        expect(listed[0]?.content).toBe("First paragraph.\n\nSecond paragraph.");
      }));

    it("creates a follow-up with its parent's sources and passages carried over, same ids, in one step", () =>
      withStore(async (store) => {
        const parent = await store.createRun(sampleRequest(), origin);
        await store.persistSource(parent.id, sampleSource("a.md"), () => 40);
        await store.persistSource(parent.id, sampleSource("b.md"), () => 41);
        const lineage = { parentId: parent.id, relation: "follow-up" as const, instruction: "" };
        const child = await store.createRun(sampleRequest({ question: "And b?", lineage }), origin);
        expect(child.request.lineage).toEqual(lineage);
        const carried = await store.listSources(child.id);
        expect(carried.map((source) => [source.id, source.reused, source.provenance.length])).toEqual([
          ["s_001", "parent", 0],
          ["s_002", "parent", 0],
        ]);
        expect(carried[1]?.chunks.map((chunk) => chunk.id)).toEqual(["s_002.p01", "s_002.p02"]);
        // New sources continue the counter.
        const next = await store.persistSource(child.id, sampleSource("c.md"), () => 42);
        expect(next.source.id).toBe("s_003");
        expect((await store.listChildRuns(parent.id)).map((run) => run.id)).toEqual([child.id]);
        // A revision keeps its instruction; another user's run cannot be continued.
        const revision = await store.createRun(
          sampleRequest({ lineage: { parentId: parent.id, relation: "revision", instruction: "drop b" } }),
          origin,
        );
        expect(revision.request.lineage?.instruction).toBe("drop b");
        await expect(store.createRun(sampleRequest({ lineage }), { ...origin, userId: "mallory" })).rejects.toThrow(
          /there is no run/,
        );
        await expect(
          store.createRun(sampleRequest({ lineage: { ...lineage, parentId: 9_999 } }), origin),
        ).rejects.toThrow(/there is no run 9999/);
      }));

    it("keeps every source a user's runs read once in that user's library, and forgets one on request", () =>
      withStore(async (store) => {
        const first = await store.createRun(sampleRequest(), origin);
        const second = await store.createRun(sampleRequest(), origin);
        const { path: _path, ...pageFields } = sampleSource("https://example.org/page");
        const web: NewSource = {
          ...pageFields,
          transport: "http",
          url: "https://example.org/page",
          domain: "example.org",
        };
        await store.persistSource(first.id, sampleSource("a.md"), () => 1);
        await store.persistSource(first.id, web, () => 2);
        // The same page reached by another run, read again later: one entry, the newer copy.
        await store.persistSource(
          second.id,
          { ...web, capturedAt: "2026-02-01T00:00:00.000Z", content: "Newer." },
          () => 3,
        );
        // The same corpus path with other content is another entry.
        await store.persistSource(second.id, sampleSource("a.md", { sha256: "1".repeat(64) }), () => 4);
        // A copy read from the library is not added again.
        await store.persistSource(second.id, sampleSource("b.md", { reused: "library" }), () => 5);
        const other = await store.createRun(sampleRequest(), { ...origin, userId: "mallory" });
        await store.persistSource(other.id, sampleSource("m.md"), () => 6);

        const entries = await store.listLibrary("local");
        expect(entries.map((entry) => entry.canonicalAnchor).sort()).toEqual([
          "a.md",
          "a.md",
          "https://example.org/page",
        ]);
        const page = entries.find((entry) => entry.url === "https://example.org/page");
        expect(page).toMatchObject({
          firstRunId: first.id,
          lastRunId: second.id,
          chars: 6,
          capturedAt: "2026-02-01T00:00:00.000Z",
        });
        const corpus = entries.filter((entry) => entry.transport === "corpus");
        expect(
          corpus.every(
            (entry) => entry.corpusRoot === "/data/corpus" && entry.identity.startsWith("/data/corpus/a.md#sha256:"),
          ),
        ).toBe(true);
        const [read] = await store.readLibrary("local", [page?.id ?? 0]);
        expect(read?.content).toBe("Newer.");
        // Another user's library is invisible, by listing and by id.
        expect((await store.listLibrary("mallory")).map((entry) => entry.canonicalAnchor)).toEqual(["m.md"]);
        expect(await store.readLibrary("mallory", [page?.id ?? 0])).toEqual([]);
        expect(await store.forgetLibraryEntry("mallory", page?.id ?? 0)).toBe(false);
        // Forgetting removes the entry, not the runs' sources.
        expect(await store.forgetLibraryEntry("local", page?.id ?? 0)).toBe(true);
        expect((await store.listLibrary("local")).length).toBe(2);
        expect((await store.listSources(first.id)).map((source) => source.canonicalAnchor)).toContain(
          "https://example.org/page",
        );
      }));

    it("keeps each passage's location in its document, and none where the document gives none", () =>
      withStore(async (store) => {
        const run = await store.createRun(sampleRequest(), origin);
        const deck = sampleSource("deck.pptx", {
          chunks: [
            { seq: 1, start: 0, end: 16, text: "First paragraph.", location: "slide 1" },
            { seq: 2, start: 18, end: 35, text: "Second paragraph.", location: "sheet Prices, rows 2–9" },
          ],
        });
        const persisted = await store.persistSource(run.id, deck, () => 40);
        expect(persisted.source.chunks.map((chunk) => chunk.location)).toEqual(["slide 1", "sheet Prices, rows 2–9"]);
        await store.persistSource(run.id, sampleSource("plain.md"), () => 41);
        const listed = await store.listSources(run.id);
        expect(listed[0]?.chunks.map((chunk) => chunk.location)).toEqual(["slide 1", "sheet Prices, rows 2–9"]);
        expect(listed[1]?.chunks.every((chunk) => chunk.location === undefined)).toBe(true);
      }));

    it("merges a duplicate canonical anchor into the existing source", () =>
      withStore(async (store) => {
        const run = await store.createRun(sampleRequest(), origin);
        await store.persistSource(run.id, sampleSource("a.md"), () => 1);
        const again = await store.persistSource(
          run.id,
          sampleSource("a.md", {
            requestedAnchor: "./a.md",
            provenance: { queryId: "sq_002", rank: 3, requestedAnchor: "./a.md" },
          }),
          () => 2,
        );
        expect(again.duplicate).toBe(true);
        expect(again.source.id).toBe("s_001");
        expect(again.source.provenance).toEqual([
          { queryId: "sq_001", rank: 1, requestedAnchor: "a.md" },
          { queryId: "sq_002", rank: 3, requestedAnchor: "./a.md" },
        ]);
        const sources = await store.listSources(run.id);
        expect(sources).toHaveLength(1);
        expect(sources[0]?.chunks).toHaveLength(2);
        const next = await store.persistSource(run.id, sampleSource("b.md"), () => 3);
        expect(next.source.id).toBe("s_002");
      }));

    it("records internal diagnostics per run", () =>
      withStore(async (store) => {
        const run = await store.createRun(sampleRequest(), origin);
        await store.addDiagnostic(run.id, {
          stage: "fetch",
          code: "fetch-failed",
          message: "EACCES",
          offsetMs: 3,
          data: { anchor: "x.md" },
        });
        const diagnostics = await store.listDiagnostics(run.id);
        expect(diagnostics).toHaveLength(1);
        expect(diagnostics[0]).toMatchObject({
          stage: "fetch",
          code: "fetch-failed",
          message: "EACCES",
          data: { anchor: "x.md" },
        });
      }));
  });

  runInvestigationContract(name, factory);
  runLeaseContract(name, factory);
}
