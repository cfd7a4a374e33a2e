/**
 * The terminal UI in Ink's test renderer (ink-testing-library), driven by keystrokes, over a
 * real SQLite store and runtime with the offline engine on the example corpus.
 */
import { join } from "node:path";
import { render } from "ink-testing-library";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openSqliteStore, type SqliteStore } from "../../adapters/store/sqlite/sqlite-store.js";
import { UserError } from "../../core/errors.js";
import type { RunRequest, StrategyName } from "../../ports/store.js";
import type { Runtime } from "../../runtime/runtime.js";
import { EXAMPLE_CORPUS } from "../../testing/cli.js";
import { noticeMissingPostgres, POSTGRES_AVAILABLE } from "../../testing/postgres.js";
import { useTestPostgres } from "../../testing/postgres-suite.js";
import { tempDir } from "../../testing/temp-dir.js";
import { until } from "../../testing/until.js";
import { resolveModel } from "../cli/model-choice.js";
import { dataPaths } from "../cli/paths.js";
import { buildRequest } from "../cli/run-request.js";
import { artifactStoreFor, openStore } from "../cli/stores.js";
import { buildRuntime } from "../cli/wiring.js";
import { childRequest, compareReports } from "../lineage.js";
import { App } from "./app.js";
import { type NewResearch, storeData, type TuiData } from "./tui-data.js";

noticeMissingPostgres("the terminal UI over PostgreSQL");

const KEY = { enter: "\r", tab: "\t", escape: "\u001b", right: "\u001b[C", down: "\u001b[B" } as const;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface World {
  store: SqliteStore;
  runtime: Runtime;
  data: TuiData;
  started: NewResearch[];
  /** The requests of the follow-ups the interface started (recorded queued, not run). */
  launched: RunRequest[];
  record(question: string, strategy: StrategyName): Promise<number>;
}

/** A store, a runtime and the interface's data; cleaned up after the test (or with `registry`, when that runs). */
function world(start?: (research: NewResearch) => Promise<number>, registry = cleanups): World {
  const dir = tempDir("assay-tui-");
  const paths = dataPaths({ ASSAY_HOME: dir.path });
  const store = openSqliteStore({ file: join(dir.path, "assay.db") });
  const runtime = buildRuntime(paths, store, resolveModel("offline", {}), {});
  const started: NewResearch[] = [];
  const launched: RunRequest[] = [];
  registry.push(async () => {
    await store.close();
    dir.cleanup();
  });
  const record = async (question: string, strategy: StrategyName) => {
    const request = await buildRequest(
      question,
      { corpus: EXAMPLE_CORPUS, strategy, language: "en" },
      {
        model: "offline",
        file: undefined,
      },
    );
    return (await runtime.createQueued(request)).id;
  };
  const data = storeData(store, artifactStoreFor(store), {
    corpora: [
      { value: EXAMPLE_CORPUS, label: "examples/corpus" },
      { value: join(EXAMPLE_CORPUS, "history"), label: "examples/corpus/history" },
    ],
    start:
      start ??
      (async (research) => {
        started.push(research);
        return record(research.question, research.strategy);
      }),
    async launch(request) {
      launched.push(request);
      return (await runtime.createQueued(request)).id;
    },
  });
  return { store, runtime, data, started, launched, record };
}

/** Renders the app; `frame()` is the last frame, `type()` sends keys one write at a time, letting Ink render between. */
function mount(data: TuiData, props: Partial<Parameters<typeof App>[0]> = {}) {
  const quits: string[] = [];
  const app = render(<App data={data} color={false} onQuit={(how) => quits.push(how)} {...props} />);
  cleanups.push(() => app.unmount());
  const frame = () => app.lastFrame() ?? "";
  const type = async (...keys: string[]) => {
    for (const key of keys) {
      app.stdin.write(key);
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
  };
  const shows = (text: string, timeoutMs = 10_000) =>
    until(
      () => frame().includes(text),
      timeoutMs,
      () => `"${text}" on screen; the last frame was: ${JSON.stringify(frame())}`,
    );
  return { app, frame, type, shows, quits };
}

describe("terminal UI", () => {
  it("opens a run from the list, follows it live to its published report, and opens a source", async () => {
    const w = world();
    const id = await w.record("When did lithium-ion batteries become commercial?", "pipeline");
    const ui = mount(w.data);
    await ui.shows("Assay · runs (1)");
    expect(ui.frame()).toContain("queued");
    expect(ui.frame()).toContain("When did lithium-ion batteries become commercial?");

    await ui.type(KEY.enter);
    await ui.shows(`Run ${id} ·`);
    const done = w.runtime.start(id);
    await ui.shows("Report published", 30_000);
    await done;
    // It was followed live: earlier frames showed the run going on with sources arriving.
    expect(ui.app.frames.some((frame) => frame.includes("· running ·"))).toBe(true);
    const final = ui.frame();
    expect(final).toMatch(/Searches\s+[█░]+ \d+\/\d+/);
    expect(final).toMatch(/Sources \([1-9]\d*\)/);
    expect(final).toContain("Stages: ");

    // Enter is sent once the view offers it (its footer); the view acts on the state it drew.
    await ui.shows("Enter report · Esc back");
    await ui.type(KEY.enter);
    await ui.shows("# When did lithium-ion batteries become commercial?");
    expect(ui.frame()).toContain("Sources (");
    await ui.type(" ");
    await ui.type("g");
    await ui.shows("# When did lithium-ion batteries become commercial?");

    await ui.type(KEY.tab);
    await ui.shows("Enter open the source");
    const ledger = ui.frame();
    expect(ledger).toMatch(/›\[1\] /);
    await ui.type(KEY.down, KEY.enter);
    // A cited source opens at the first passage its report quotes, marked.
    await ui.shows(" · quoted in the report] ");
    expect(ui.frame()).toMatch(/^\[2\] /m);
    // The passage, where it stands in the page (the heading above it, when it has one), and that the report quotes it.
    // (Which source is [2] follows the report's answer block: the sources of the answering findings come first.)
    expect(ui.frame().split("\n")[2]).toMatch(/^\[passage \d+(?:, [^·\]]+)? · quoted in the report\] /);

    await ui.type(KEY.escape);
    await ui.shows("Enter open the source");
    await ui.type(KEY.escape);
    await ui.shows("Enter to read");
    await ui.type(KEY.escape);
    await ui.shows("Assay · runs (1)");
    await ui.type("q");
    expect(ui.quits).toEqual(["quit"]);
  }, 60_000);

  it("shows an investigative run's frontier tree and claim counts as they change", async () => {
    const w = world();
    const id = await w.record(
      "When did lithium-ion batteries become commercial and who sold them first?",
      "investigative",
    );
    const ui = mount(w.data, { initial: { name: "run", runId: id } });
    await ui.shows(`Run ${id} ·`);
    const done = w.runtime.start(id);
    await ui.shows("Report published", 60_000);
    await done;
    const frame = ui.frame();
    expect(frame).toMatch(/Frontier \([1-9]\d*\) · claims: .*(VERIFIED|UNVERIFIED) \d+/);
    expect(frame).toMatch(/✓ resolved\s+\S/);
    expect(frame).toMatch(/Turns\s+[█░]+ \d+\/\d+/);
    // The tree changed while it ran: some earlier frame had a question in progress.
    expect(ui.app.frames.some((earlier) => /▶ in_progress/.test(earlier))).toBe(true);
    expect(frame.split("\n").length).toBeLessThanOrEqual(24);
  }, 90_000);

  it("starts a research from the form with the chosen folder and strategy", async () => {
    const w = world();
    const ui = mount(w.data);
    await ui.shows("No runs yet");
    await ui.type("n");
    await ui.shows("New research");
    await ui.type(KEY.tab, KEY.tab, KEY.enter);
    await ui.shows("Type a question first.");
    await ui.type(..."Who sold the first lithium-ion battery?");
    await ui.type(KEY.tab, KEY.right, KEY.tab, KEY.right, KEY.right);
    await ui.shows("◀ investigative ▶");
    expect(ui.frame()).toContain("◀ examples/corpus/history ▶");
    await ui.type(KEY.enter);
    await ui.shows("Run 1 ·");
    expect(w.started).toEqual([
      {
        question: "Who sold the first lithium-ion battery?",
        corpus: join(EXAMPLE_CORPUS, "history"),
        label: "examples/corpus/history",
        strategy: "investigative",
      },
    ]);
  });

  it("says why a research could not start, and keeps the form", async () => {
    const w = world(() => Promise.reject(new UserError("the corpus folder is empty")));
    const ui = mount(w.data, { initial: { name: "new" } });
    await ui.type(..."Anything?", KEY.tab, KEY.tab, KEY.enter);
    await ui.shows("the corpus folder is empty");
    expect(ui.frame()).toContain("Anything?");
  });

  it("never passes escape sequences from source titles or questions to the terminal", async () => {
    const w = world();
    const id = await w.record("Plain question?", "pipeline");
    await w.store.appendEvent(id, {
      type: "source-persisted",
      offsetMs: 10,
      at: new Date().toISOString(),
      data: {
        sourceId: "s_001",
        anchor: "a.md",
        title: "\u001b]0;pwned\u0007Evil\u001b[2J title\u001b[31m",
        persisted: 1,
      },
    });
    const ui = mount(w.data, { initial: { name: "run", runId: id } });
    await ui.shows("Evil title");
    expect(ui.frame()).not.toContain("\u001b]");
    expect(ui.frame()).not.toContain("[2J");
    expect(ui.frame()).not.toContain("\u001b[31m");
  });

  it("quits on Ctrl-C, telling the caller it was an interrupt", async () => {
    const w = world();
    const ui = mount(w.data);
    await ui.shows("Assay · runs");
    await ui.type("\u0003");
    expect(ui.quits).toEqual(["interrupt"]);
  });
});

describe("research in rounds in the terminal UI", () => {
  const QUESTION = "Why is cobalt a supply concern for lithium-ion batteries?";
  const suite: (() => Promise<void> | void)[] = [];
  let w: World;
  /** A finished run; a finished revision of it; a follow-up of it and a new research, both recorded but never started. */
  const ids = { parent: 0, revision: 0, queuedFollowUp: 0, queued: 0 };

  beforeAll(async () => {
    w = world(undefined, suite);
    ids.parent = await w.record(QUESTION, "pipeline");
    await w.runtime.start(ids.parent);
    const parent = await w.store.getRun(ids.parent);
    if (!parent) throw new Error("the parent run is missing");
    ids.revision = (await w.runtime.run(childRequest(parent, "revision", "drop the part on the Nobel prize"))).runId;
    ids.queuedFollowUp = (
      await w.runtime.createQueued(childRequest(parent, "follow-up", "what replaced cobalt in cathodes?"))
    ).id;
    ids.queued = await w.record("When did lithium-ion batteries become commercial?", "pipeline");
  }, 60_000);
  afterAll(async () => {
    for (const cleanup of suite.splice(0).reverse()) await cleanup();
  });

  it("asks a follow-up from the report reader (Esc cancels), follows the new run live and opens its report, then shows what it adds", async () => {
    const ui = mount(w.data, { initial: { name: "report", runId: ids.parent } });
    await ui.shows(`# ${QUESTION}`);
    await ui.shows("f ask · r revise · d diff");
    await ui.type("f");
    await ui.shows(`Follow-up of run ${ids.parent}:`);
    // Keys are text in the prompt: q does not quit, Esc closes it and nothing starts.
    await ui.type(..."quite");
    await ui.shows(`Follow-up of run ${ids.parent}: quite`);
    await ui.type(KEY.escape);
    await ui.shows("f ask · r revise · d diff");
    expect(ui.frame()).not.toContain("Follow-up of run");
    expect(ui.quits).toEqual([]);
    expect(w.launched).toEqual([]);

    await ui.type("f");
    await ui.shows("Esc cancel");
    await ui.type(KEY.enter);
    await ui.shows("Type a question first.");
    await ui.type(..."and what about sodium-ion?");
    await ui.shows("and what about sodium-ion?");
    await ui.type(KEY.enter);
    await ui.shows("↳ ");
    expect(w.launched).toHaveLength(1);
    const [request] = w.launched;
    expect(request?.question).toBe("and what about sodium-ion?");
    expect(request?.lineage).toEqual({ parentId: ids.parent, relation: "follow-up", instruction: "" });
    const child = Number(/^Run (\d+) ·/m.exec(ui.frame())?.[1]);
    expect(ui.frame()).toContain(`↳ ${ids.parent} and what about sodium-ion?`);
    expect((await w.store.getRun(child))?.request.lineage?.parentId).toBe(ids.parent);

    // Followed live like any run; once it has finished, its report opens by itself.
    const done = w.runtime.start(child);
    await ui.shows(`What this adds to run ${ids.parent}'s report`, 30_000);
    await done;
    // Seen before it ended: the view was on screen before the run was started.
    expect(ui.app.frames.some((frame) => new RegExp(`Run ${child} · (queued|running) ·`).test(frame))).toBe(true);
    expect(ui.frame()).toContain(" Report ");

    await ui.type("d");
    await ui.shows(`Changes · run ${child}`);
    await ui.shows(`From run ${ids.parent} to run ${child}:`);
    expect(ui.frame()).toMatch(/^Findings added \([1-9]\d*\):$/m);
    expect(ui.frame()).toMatch(/^ {2}\+ \d+\. \S/m);
    await ui.type(KEY.escape);
    await ui.shows("f ask · r revise · d diff");
  }, 60_000);

  it("shows the findings a revision removed, scrollable", async () => {
    const parent = await w.store.getRun(ids.parent);
    const revision = await w.store.getRun(ids.revision);
    if (!parent || !revision) throw new Error("the runs are missing");
    const { diff } = await compareReports(w.store, artifactStoreFor(w.store), revision);
    expect(diff.findings.removed.length).toBeGreaterThan(0);
    const ui = mount(w.data, { initial: { name: "report", runId: ids.revision } });
    await ui.shows("f ask · r revise · d diff");
    await ui.type("d");
    await ui.shows(`From version 1 (run ${ids.parent}) to version 2 (run ${ids.revision}):`);
    const frame = ui.frame();
    expect(frame).toContain(`Findings removed (${diff.findings.removed.length}):`);
    const first = diff.findings.removed[0];
    expect(frame).toContain(`  - ${first?.number}. ${first?.text.slice(0, 20)}`);
    expect(frame).toMatch(/^\d+\/\d+ · ↑↓ PgUp PgDn g G scroll · Esc back to the report · q quit$/m);
    const total = Number(/^\d+\/(\d+) · /m.exec(frame)?.[1]);
    if (total > 21) {
      await ui.type("G");
      await ui.shows(`${total}/${total} · `);
      expect(ui.frame()).toMatch(/^\d+ findings? unchanged\.$/m);
    }
    await ui.type(KEY.escape);
    await ui.shows("f ask · r revise · d diff");
  }, 30_000);

  it("says a first report never revised has nothing to compare, and a run still going cannot be followed up or revised", async () => {
    const ui = mount(w.data, { initial: { name: "report", runId: ids.queued } });
    await ui.shows("No report is published yet.");
    await ui.type("f");
    await ui.shows(`Cannot ask a follow-up: run ${ids.queued} is still running; ask or revise once it has finished.`);
    expect(ui.frame()).not.toContain("Follow-up of run");
    await ui.type("r");
    await ui.shows(`Cannot revise: run ${ids.queued} is still running; ask or revise once it has finished.`);
    expect(ui.frame()).not.toContain("Revise ");
    await ui.type("d");
    await ui.shows(`Nothing to compare: run ${ids.queued} is not a follow-up or a revision`);
    await ui.type(KEY.escape);
    await ui.shows("No report is published yet.");
    // Only the interface's user's runs can be followed up.
    await expect(w.data.followUp(9999, "anything?")).rejects.toThrow(/there is no run 9999/);
    await expect(w.data.revise(9999, "drop anything")).rejects.toThrow(/there is no run 9999/);
  });

  it("marks the runs that continue another in the runs list", async () => {
    const ui = mount(w.data);
    await ui.shows(`↳ ${ids.parent} revised: drop the part on the Nobel prize`);
    expect(ui.frame()).toContain(`↳ ${ids.parent} what replaced cobalt in cathodes?`);
    const row = ui
      .frame()
      .split("\n")
      .find((line) => line.startsWith(` ${String(ids.parent).padStart(4)}  `));
    expect(row).toContain(QUESTION);
    expect(row).not.toContain("↳");
  });

  // These two record and run revisions of their own: the tests above do not see them.
  it("revises a report from the reader (Esc cancels, an empty instruction is refused), follows the revision live and opens its report", async () => {
    const first = await w.record(QUESTION, "pipeline");
    await w.runtime.start(first);
    const before = w.launched.length;
    const ui = mount(w.data, { initial: { name: "report", runId: first } });
    await ui.shows(`# ${QUESTION}`);
    await ui.shows("f ask · r revise · d diff");
    await ui.type("r");
    await ui.shows(`Revise run ${first}'s report:`);
    // Keys are text in the prompt: q does not quit, Esc closes it and nothing starts.
    await ui.type(..."quite");
    await ui.shows(`Revise run ${first}'s report: quite`);
    await ui.type(KEY.escape);
    await ui.shows("f ask · r revise · d diff");
    expect(ui.frame()).not.toContain("Revise run");
    expect(ui.quits).toEqual([]);
    expect(w.launched).toHaveLength(before);

    await ui.type("r");
    await ui.shows("Enter start the revision · Esc cancel");
    await ui.type(KEY.enter);
    await ui.shows("Type an instruction first.");
    expect(w.launched).toHaveLength(before);
    await ui.type(..."drop the part on the Nobel prize");
    await ui.shows(`Revise run ${first}'s report: drop the part on the Nobel prize`);
    await ui.type(KEY.enter);
    await ui.shows(`↳ ${first} revised: drop the part on the Nobel prize`);
    expect(w.launched).toHaveLength(before + 1);
    const request = w.launched.at(-1);
    expect(request?.lineage).toEqual({
      parentId: first,
      relation: "revision",
      instruction: "drop the part on the Nobel prize",
    });
    expect(request?.question).toBe(QUESTION);
    const child = Number(/^Run (\d+) ·/m.exec(ui.frame())?.[1]);
    expect((await w.store.getRun(child))?.request.lineage?.relation).toBe("revision");

    // Followed live like any run; once it has finished, its report opens by itself.
    const done = w.runtime.start(child);
    await ui.shows("Changes from version 1", 30_000);
    await done;
    expect(ui.app.frames.some((frame) => new RegExp(`Run ${child} · (queued|running) ·`).test(frame))).toBe(true);
    expect(ui.frame()).toContain(" Report ");
    await ui.type("d");
    await ui.shows(`From version 1 (run ${first}) to version 2 (run ${child}):`);
  }, 60_000);

  it("revises the newest version of a report revised already, and refuses to revise while a revision is being written", async () => {
    const ui = mount(w.data, { initial: { name: "report", runId: ids.parent } });
    await ui.shows("f ask · r revise · d diff");
    await ui.type("r");
    await ui.shows(`Revise the newest version (run ${ids.revision}):`);
    await ui.type(..."drop the part on recycling", KEY.enter);
    await ui.shows(`↳ ${ids.revision} revised: drop the part on recycling`);
    expect(w.launched.at(-1)?.lineage).toEqual({
      parentId: ids.revision,
      relation: "revision",
      instruction: "drop the part on recycling",
    });
    const third = Number(/^Run (\d+) ·/m.exec(ui.frame())?.[1]);

    // Recorded and not started yet, the revision is still being written: no version can be revised.
    const other = mount(w.data, { initial: { name: "report", runId: ids.parent } });
    await other.shows("f ask · r revise · d diff");
    await other.type("r");
    await other.shows(`Cannot revise: a revision of run ${ids.revision} is still being written (run ${third})`);
    expect(other.frame()).not.toContain("Revise the newest");
    await expect(w.data.revise(ids.revision, "drop anything")).rejects.toThrow(/is still being written/);

    const done = w.runtime.start(third);
    await ui.shows("Changes from version 2", 30_000);
    await done;
    await ui.type("d");
    await ui.shows(`From version 2 (run ${ids.revision}) to version 3 (run ${third}):`);
  }, 60_000);
});

describe.runIf(POSTGRES_AVAILABLE)("terminal UI over PostgreSQL", () => {
  const postgres = useTestPostgres();

  it("follows a run that another process drives through the shared database, and reads its report there", async () => {
    const url = await postgres.createDatabase();
    const dir = tempDir("assay-tui-pg-");
    const paths = dataPaths({ ASSAY_HOME: dir.path });
    // Two connections, as two processes would have: the worker's and the interface's.
    const workerStore = await openStore(paths, url);
    const tuiStore = await openStore(paths, url);
    cleanups.push(async () => {
      await tuiStore.close();
      await workerStore.close();
      dir.cleanup();
    });
    const worker = buildRuntime(paths, workerStore, resolveModel("offline", {}), {});
    const request = await buildRequest(
      "When did lithium-ion batteries become commercial?",
      { corpus: EXAMPLE_CORPUS, strategy: "pipeline", language: "en" },
      { model: "offline", file: undefined },
    );
    const id = (await worker.createQueued(request)).id;
    const data = storeData(tuiStore, artifactStoreFor(tuiStore), {
      corpora: [],
      start: () => Promise.reject(new Error("not here")),
      launch: () => Promise.reject(new Error("not here")),
    });
    const ui = mount(data, { initial: { name: "run", runId: id } });
    await ui.shows(`Run ${id} · queued`);
    const done = worker.start(id);
    await ui.shows("Report published", 30_000);
    await done;
    expect(ui.app.frames.some((frame) => frame.includes("· running ·"))).toBe(true);
    await ui.type(KEY.enter);
    await ui.shows("# When did lithium-ion batteries become commercial?");
  }, 90_000);
});
