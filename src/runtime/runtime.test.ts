import { readFileSync } from "node:fs";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { UserError } from "../core/errors.js";
import { FakeClock } from "../testing/fake-clock.js";
import { syntheticDocuments } from "../testing/fake-scope.js";
import { publishedReport } from "../testing/read-report.js";
import { type RuntimeFixture, runtimeFixture } from "../testing/runtime-fixture.js";

const fixtures: RuntimeFixture[] = [];
afterEach(async () => {
  for (const fixture of fixtures.splice(0)) await fixture.cleanup();
});
const make = (...args: Parameters<typeof runtimeFixture>): RuntimeFixture => {
  const fixture = runtimeFixture(...args);
  fixtures.push(fixture);
  return fixture;
};

const QUESTION = "lithium battery cathode energy";

function readJsonReport(outDir: string) {
  return publishedReport(join(outDir, "report.json"));
}

describe("a pipeline run", () => {
  it("makes each source durable before it is visible", async () => {
    const fixture = make({ documents: syntheticDocuments(10) });
    const observer = new BetterSqlite3(fixture.dbFile, { readonly: true });
    const seen: string[] = [];
    try {
      const outcome = await fixture.runtime.run(fixture.request(QUESTION, { maxSources: 6 }), {
        listeners: [
          (event) => {
            if (event.type !== "source-persisted") return;
            // Another connection sees the committed row and its chunks at the moment the source is announced.
            const row = observer
              .prepare("SELECT COUNT(*) AS chunks FROM chunks WHERE run_id = ? AND source_id = ?")
              .get(event.runId, event.data.sourceId) as { chunks: number };
            expect(row.chunks).toBeGreaterThan(0);
            seen.push(String(event.data.sourceId));
          },
        ],
      });
      expect(outcome.status).toBe("finished");
      expect(seen).toEqual(["s_001", "s_002", "s_003", "s_004", "s_005", "s_006"]);
    } finally {
      observer.close();
    }
  });

  it("publishes a preliminary report after the bootstrap reserve, then the final one", async () => {
    const fixture = make({ documents: syntheticDocuments(12) });
    const published: { type: string; sources: unknown }[] = [];
    const outcome = await fixture.runtime.run(fixture.request(QUESTION, { maxSources: 8, bootstrapSources: 2 }), {
      listeners: [
        (event) =>
          event.type.endsWith("-published") && published.push({ type: event.type, sources: event.data.sources }),
      ],
    });
    expect(published[0]).toEqual({ type: "preliminary-published", sources: 2 });
    expect(published.at(-1)?.type).toBe("final-published");
    expect(outcome.artifactStatus).toBe("source-backed");
    const doc = readJsonReport(fixture.outDir);
    expect(doc.preliminary).toBe(false);
    expect(doc.sources.length + doc.reviewedSources.length).toBe(8);
    expect(doc.acquisitionBoundaries).toContain("Reading stopped at the source limit of 8.");
    expect(await fixture.store.listSources(outcome.runId)).toHaveLength(8);
  });

  it("takes first-source and terminal offsets from the run origin and the durable events", async () => {
    const clock = new FakeClock();
    const fixture = make({ documents: syntheticDocuments(4), searchLatencyMs: 100, fetchLatencyMs: 50, clock }, clock);
    const outcome = await fixture.runtime.run(fixture.request(QUESTION, { maxSources: 3, bootstrapSources: 1 }));
    const events = await fixture.store.listEvents(outcome.runId);
    expect(events[0]).toMatchObject({ type: "run-started", offsetMs: 0 });
    // Only the injected latencies move the fake clock: search 100, then one fetch of 50.
    expect(outcome.timings.firstSourceFetchedMs).toBe(150);
    expect(outcome.timings.firstSourcePersistedMs).toBe(150);
    expect(outcome.timings.terminalMs).toBe(100 + 3 * 50);
    expect(outcome.timings.terminalMs).toBe(events.at(-1)?.offsetMs);
    expect(events.at(-1)?.type).toBe("run-finished");
    const sources = await fixture.store.listSources(outcome.runId);
    // The bootstrap fetch completes alone; the next two run concurrently on the shared fake clock:
    // the second starts (and moves the clock) while the first is being persisted.
    expect(sources.map((source) => [source.fetchedMs, source.persistedMs])).toEqual([
      [150, 150],
      [200, 250],
      [250, 250],
    ]);
    const offsets = events.map((event) => event.offsetMs);
    expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
  });

  it("records fetch failures as diagnostics without losing siblings", async () => {
    const documents = syntheticDocuments(6);
    const failing = [documents[0]?.path ?? "", documents[3]?.path ?? ""];
    const fixture = make({ documents, failing });
    const outcome = await fixture.runtime.run(fixture.request(QUESTION, { maxSources: 4 }));
    const sources = await fixture.store.listSources(outcome.runId);
    expect(sources.map((source) => source.path)).not.toContain(failing[0]);
    expect(sources).toHaveLength(4);
    const diagnostics = await fixture.store.listDiagnostics(outcome.runId);
    expect(diagnostics.filter((item) => item.code === "fetch-failed")).toHaveLength(2);
    const doc = readJsonReport(fixture.outDir);
    expect(doc.acquisitionBoundaries).toContain("2 of 6 documents could not be read.");
    expect(JSON.stringify(doc)).not.toContain("fake fetch");
  });

  it("publishes an honest no-evidence report when the search fails", async () => {
    const fixture = make({ documents: syntheticDocuments(3), searchFails: true });
    const outcome = await fixture.runtime.run(fixture.request(QUESTION));
    expect(outcome).toMatchObject({ status: "finished", artifactStatus: "no-evidence" });
    const doc = readJsonReport(fixture.outDir);
    expect(doc.attemptedQueries).toEqual([`“${QUESTION}”`]);
    expect(doc.acquisitionBoundaries).toEqual(["1 of 1 search could not be completed."]);
    expect(doc.notice).toBe("No evidence: the searches could not be completed, so this report has no findings.");
    const markdown = readFileSync(join(fixture.outDir, "report.md"), "utf8");
    expect(markdown).toContain("No evidence");
    expect(markdown).not.toMatch(/fake search is down|Error/);
  });

  it("a misconfigured search provider fails the run with its message, after publishing", async () => {
    const fixture = make({
      documents: syntheticDocuments(3),
      searchError: new UserError("the key is wrong: set FAKE_KEY"),
    });
    const outcome = await fixture.runtime.run(fixture.request(QUESTION));
    expect(outcome).toMatchObject({
      status: "failed",
      artifactStatus: "no-evidence",
      error: "the key is wrong: set FAKE_KEY",
    });
    expect((await fixture.store.getRun(outcome.runId))?.error).toBe("the key is wrong: set FAKE_KEY");
    expect(readJsonReport(fixture.outDir).status).toBe("no-evidence");
  });

  it("a failed source write is excluded while the run goes on and publishes", async () => {
    const fixture = make({ documents: syntheticDocuments(6) });
    fixture.store.db.exec(`CREATE TRIGGER fail_second BEFORE INSERT ON chunks WHEN NEW.source_id = 's_002'
      BEGIN SELECT RAISE(ABORT, 'disk full (simulated)'); END;`);
    const outcome = await fixture.runtime.run(fixture.request(QUESTION, { maxSources: 3, bootstrapSources: 1 }));
    expect(outcome.status).toBe("finished");
    const diagnostics = await fixture.store.listDiagnostics(outcome.runId);
    expect(diagnostics.some((item) => item.code === "persist-failed" && /disk full/.test(item.message))).toBe(true);
    const sources = await fixture.store.listSources(outcome.runId);
    expect(sources[0]?.id).toBe("s_001");
    expect(
      readJsonReport(fixture.outDir).sources.every((entry) => sources.some((source) => source.id === entry.id)),
    ).toBe(true);
  });

  it("stops acquisition at the deadline and publishes from persisted sources", async () => {
    const fixture = make({ documents: syntheticDocuments(20), fetchLatencyMs: 400 });
    const outcome = await fixture.runtime.run(
      fixture.request(QUESTION, { wallClockMs: 1_500, publishReserveMs: 600, maxSources: 20, maxFetchAttempts: 40 }),
    );
    expect(outcome.status).toBe("finished");
    const events = await fixture.store.listEvents(outcome.runId);
    expect(events.some((event) => event.type === "deadline-reached")).toBe(true);
    const persisted = await fixture.store.listSources(outcome.runId);
    expect(persisted.length).toBeGreaterThan(0);
    expect(persisted.length).toBeLessThan(20);
    const doc = readJsonReport(fixture.outDir);
    expect(doc.acquisitionBoundaries).toContain("The time limit was reached before all planned reading was done.");
    expect(doc.sources.length + doc.reviewedSources.length).toBe(persisted.length);
  });

  it("records a cancel and publishes what was persisted, saying it was stopped", async () => {
    const fixture = make({ documents: syntheticDocuments(12), fetchLatencyMs: 150 });
    const controller = new AbortController();
    const outcome = await fixture.runtime.run(fixture.request(QUESTION, { maxSources: 12, maxFetchAttempts: 24 }), {
      signal: controller.signal,
      listeners: [(event) => event.type === "preliminary-published" && controller.abort(new Error("user"))],
    });
    expect(outcome.status).toBe("finished");
    const events = await fixture.store.listEvents(outcome.runId);
    expect(events.filter((event) => event.type === "run-cancelled")).toHaveLength(1);
    const persisted = await fixture.store.listSources(outcome.runId);
    expect(persisted.length).toBeLessThan(12);
    const doc = readJsonReport(fixture.outDir);
    expect(doc.acquisitionBoundaries).toContain(
      "The research was stopped by the user before all planned reading was done.",
    );
    expect(doc.sources.length + doc.reviewedSources.length).toBe(persisted.length);
  });

  it("says no search ran when the run is cancelled before it starts", async () => {
    const fixture = make({ documents: syntheticDocuments(3) });
    const outcome = await fixture.runtime.run(fixture.request(QUESTION), {
      signal: AbortSignal.abort(new Error("user")),
    });
    expect(outcome.artifactStatus).toBe("no-evidence");
    const doc = readJsonReport(fixture.outDir);
    expect(doc.notice).toBe("No evidence: the research stopped before any search ran, so this report has no findings.");
    expect(doc.attemptedQueries).toEqual([]);
  });

  it("a handed-back run (a lost lease) stops, publishes nothing and stays running; a resume finishes it", async () => {
    const fixture = make({ documents: syntheticDocuments(6) });
    const handBack = new AbortController();
    let persisted = 0;
    const outcome = await fixture.runtime.run(fixture.request(QUESTION, { maxSources: 4 }), {
      handBack: handBack.signal,
      listeners: [
        (event) => {
          if (event.type === "source-persisted" && ++persisted === 2) handBack.abort(new Error("the lease was lost"));
        },
      ],
    });
    expect(outcome.status).toBe("running");
    expect(outcome.paths).toBeUndefined();
    const run = await fixture.store.getRun(outcome.runId);
    expect(run).toMatchObject({ status: "running", artifactStatus: "" });
    const events = await fixture.store.listEvents(outcome.runId);
    expect(events.map((event) => event.type)).not.toContain("final-published");
    expect(events.at(-1)?.type).toBe("run-handed-back");
    expect(String(events.at(-1)?.data.reason)).toContain("the lease was lost");
    const resumed = await fixture.withModel().resume(outcome.runId);
    expect(resumed.status).toBe("finished");
    expect(await fixture.store.listSources(outcome.runId)).toHaveLength(4);
  });

  it("on resume, announces a source committed just before a kill whose event was never written", async () => {
    const fixture = make({ documents: syntheticDocuments(6) });
    const crashed = await fixture.runtime.run(fixture.request(QUESTION, { maxSources: 4 }));
    // As after a SIGKILL between a source's commit and its event: the run is running, s_003 unannounced.
    await fixture.store.updateRun(crashed.runId, { status: "running" });
    const db = new BetterSqlite3(fixture.dbFile);
    try {
      db.prepare(
        "DELETE FROM run_events WHERE run_id = ? AND type = 'source-persisted' AND json_extract(data, '$.sourceId') = 's_003'",
      ).run(crashed.runId);
    } finally {
      db.close();
    }
    await fixture.withModel().resume(crashed.runId);
    const events = await fixture.store.listEvents(crashed.runId);
    const announced = events.filter((event) => event.type === "source-persisted");
    expect(announced.map((event) => event.data.sourceId).sort()).toEqual(["s_001", "s_002", "s_003", "s_004"]);
    const recovered = announced.filter((event) => event.data.recovered === true);
    expect(recovered.map((event) => event.data.sourceId)).toEqual(["s_003"]);
    const resumedAt = events.findIndex((event) => event.type === "run-resumed");
    expect(events.indexOf(recovered[0] as (typeof events)[number])).toBeLessThan(resumedAt);
  });

  it("merges a duplicate anchor into one source and spends no extra slot", async () => {
    const fixture = make({ documents: syntheticDocuments(3) });
    const outcome = await fixture.runtime.run(fixture.request(QUESTION, { maxSources: 3 }));
    const { acquire } = await import("../host/acquisition.js");
    const { RunHost } = await import("../host/run-host.js");
    const run = await fixture.store.getRun(outcome.runId);
    if (!run) throw new Error("run missing");
    const opened = await fixture.scope.open(run.request.scope);
    const host = await RunHost.open({
      run,
      store: fixture.store,
      clock: { monotonicMs: () => 0, wallMs: () => Date.now() },
      search: opened.search,
      fetcher: opened.fetcher,
      artifacts: {
        publish: async () => Promise.reject(new Error("not used")),
        current: async () => Promise.reject(new Error("not used")),
      },
    });
    const before = fixture.scope.fetcher.fetched.length;
    const again = await acquire(host, { anchor: "doc-001.md", queryId: "sq_009", rank: 4 });
    host.dispose();
    expect(again.kind).toBe("duplicate");
    expect(fixture.scope.fetcher.fetched.length).toBe(before);
    const sources = await fixture.store.listSources(outcome.runId);
    expect(sources).toHaveLength(3);
    expect(sources.find((source) => source.path === "doc-001.md")?.provenance.map((item) => item.queryId)).toEqual([
      "sq_001",
      "sq_009",
    ]);
  });
});
