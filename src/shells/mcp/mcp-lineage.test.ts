/**
 * Research in rounds through the MCP server, in process over the in-memory transport, on the
 * example corpus with the offline engine: ask_follow_up, revise_report, diff_report and
 * search_library, and that none of them reaches another user's runs or library.
 */
import { realpathSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { Progress } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FilesystemArtifactStore } from "../../adapters/artifacts/filesystem/filesystem-artifact-store.js";
import { openSqliteStore } from "../../adapters/store/sqlite/sqlite-store.js";
import type { ReportDocument } from "../../core/report/report-document.js";
import type { Store } from "../../ports/store.js";
import { EXAMPLE_CORPUS, withExampleIndex } from "../../testing/cli.js";
import { tempDir } from "../../testing/temp-dir.js";
import { dataPaths } from "../cli/paths.js";
import { buildRuntime } from "../cli/wiring.js";
import { ActiveResearch, buildMcpServer, type McpServices } from "./mcp-server.js";

const QUESTION = "Why is cobalt a supply concern for lithium-ion batteries?";

type ToolResult = {
  content: { type: string; text?: string; uri?: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};

const firstText = (result: ToolResult): string => result.content[0]?.text ?? "";
const texts = (doc: ReportDocument): string[] => [...doc.directFindings, ...doc.findings].map((item) => item.text);

interface Comparison {
  from: { run: number; version?: number };
  to: { run: number; version?: number };
  diff: { findings: { added: { text: string }[]; removed: { text: string }[] } };
}

describe("research in rounds over MCP", () => {
  const home = tempDir("assay-mcp-lineage-");
  const corpus = realpathSync(EXAMPLE_CORPUS);
  let store: Store;
  const stops: (() => Promise<void>)[] = [];

  /** A client of a server acting as `user` over the shared store (the example corpus its only root by default). */
  async function connect(user: string, corpusRoots: readonly string[] = [corpus]): Promise<Client> {
    const paths = dataPaths({ ASSAY_HOME: home.path });
    const services: McpServices = {
      user,
      store,
      artifacts: new FilesystemArtifactStore(),
      runtimeFor: (model) => buildRuntime(paths, store, model, {}),
      environment: {},
      corpusRoots,
      defaults: { config: undefined },
      research: new ActiveResearch(),
      log: () => undefined,
    };
    const client = new Client({ name: "test", version: "0" });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await buildMcpServer(services).connect(serverSide);
    await client.connect(clientSide);
    stops.push(async () => {
      await client.close();
      await services.research.stop();
    });
    return client;
  }

  const call = async (client: Client, name: string, args: Record<string, unknown>): Promise<ToolResult> =>
    (await client.callTool({ name, arguments: args }, undefined, { timeout: 90_000 })) as ToolResult;

  /** A call that must succeed. */
  const ok = async (client: Client, name: string, args: Record<string, unknown>): Promise<ToolResult> => {
    const result = await call(client, name, args);
    expect(result.isError, `${name}: ${JSON.stringify(result.content)}`).toBeFalsy();
    return result;
  };

  const report = async (client: Client, runId: number): Promise<ReportDocument> =>
    JSON.parse(firstText(await ok(client, "get_report", { run_id: runId, format: "json" }))) as ReportDocument;

  let alice: Client;
  let bob: Client;

  beforeAll(async () => {
    withExampleIndex(home.path);
    store = openSqliteStore({ file: join(home.path, "assay.db") });
    alice = await connect("alice");
    bob = await connect("bob");
    const first = await ok(alice, "research", { question: QUESTION, corpus });
    expect(first.structuredContent).toMatchObject({ runId: 1, status: "finished", artifactStatus: "synthesized" });
  }, 120_000);

  afterAll(async () => {
    for (const stop of stops.reverse()) await stop();
    await store?.close();
    home.cleanup();
  });

  it("lists the new tools", async () => {
    const { tools } = await alice.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      "ask_follow_up",
      "diff_report",
      "get_report",
      "list_runs",
      "research",
      "revise_report",
      "search_library",
    ]);
    const ask = tools.find((tool) => tool.name === "ask_follow_up");
    expect(Object.keys(ask?.inputSchema.properties ?? {}).sort()).toEqual(
      ["max_sources", "model", "question", "run_id", "timeout_seconds"].sort(),
    );
    expect(ask?.inputSchema.required?.sort()).toEqual(["question", "run_id"]);
  });

  it("ask_follow_up publishes a child report that starts from the run's sources, not fetched again", async () => {
    const parent = await report(alice, 1);
    const progress: Progress[] = [];
    const result = (await alice.callTool(
      { name: "ask_follow_up", arguments: { run_id: 1, question: "and what about sodium-ion?" } },
      undefined,
      { onprogress: (update) => progress.push(update), timeout: 90_000 },
    )) as ToolResult;
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    // One step per new source (the parent's, found again, are not counted), never beyond the total.
    expect(progress.some((update) => update.message?.startsWith("source persisted:"))).toBe(true);
    for (const [at, update] of progress.entries()) {
      expect(update.total).toBe(9);
      expect(update.progress).toBeLessThanOrEqual(9);
      if (at > 0) expect(update.progress).toBeGreaterThan(progress[at - 1]?.progress ?? 0);
    }
    expect(result.structuredContent).toMatchObject({
      runId: 2,
      status: "finished",
      relation: "follow-up",
      parentRunId: 1,
      report: "assay://runs/2/report.md",
    });
    const markdown = firstText(result);
    expect(markdown).toContain("## What this adds to run 1's report");
    expect(result.content.at(-1)?.text).toContain("A follow-up of run 1.");

    const child = await report(alice, 2);
    expect(child.question).toBe("and what about sodium-ion?");
    expect(child.lineage).toMatchObject({ relation: "follow-up", parentRun: 1, parentQuestion: QUESTION });
    expect(child.lineage?.sourcesFromParent).toBeGreaterThan(0);

    const events = await store.listEvents(2);
    const parentSources = [...parent.sources, ...parent.reviewedSources];
    expect(events.find((event) => event.type === "sources-carried")?.data).toEqual({
      from: 1,
      sources: parentSources.length,
    });
    const parentPaths = new Set(parentSources.map((source) => source.path));
    const fetched = events.filter((event) => event.type === "source-fetched").map((event) => event.data.anchor);
    expect(fetched.filter((anchor) => parentPaths.has(anchor as string))).toEqual([]);
    expect(events.some((event) => event.type === "source-reused")).toBe(true);
    expect((await store.getRun(2))?.userId).toBe("alice");
  }, 120_000);

  it("revise_report publishes a new version, diff_report names what it removed and added, and a second revision revises the newest", async () => {
    const parent = await report(alice, 1);
    const nobel = texts(parent).filter((text) => /nobel/i.test(text));
    expect(nobel.length).toBeGreaterThan(0);
    const revised = await ok(alice, "revise_report", { run_id: 1, instruction: "drop the part on the Nobel prize" });
    const runId = Number(revised.structuredContent?.runId);
    expect(revised.structuredContent).toMatchObject({ status: "finished", relation: "revision", parentRunId: 1 });
    const version = await report(alice, runId);
    expect(version.lineage).toMatchObject({ relation: "revision", version: 2, parentRun: 1 });
    expect(texts(version).filter((text) => /nobel/i.test(text))).toEqual([]);

    const diff = await ok(alice, "diff_report", { run_id: runId });
    const comparison = diff.structuredContent as unknown as Comparison;
    expect(comparison.from).toMatchObject({ run: 1, version: 1 });
    expect(comparison.to).toMatchObject({ run: runId, version: 2 });
    const after = new Set(texts(version));
    const before = new Set(texts(parent));
    expect(comparison.diff.findings.removed.map((item) => item.text).sort()).toEqual(
      texts(parent)
        .filter((text) => !after.has(text))
        .sort(),
    );
    expect(comparison.diff.findings.added.map((item) => item.text).sort()).toEqual(
      texts(version)
        .filter((text) => !before.has(text))
        .sort(),
    );
    for (const text of nobel) expect(comparison.diff.findings.removed.map((item) => item.text)).toContain(text);
    expect(firstText(diff).split("\n")[0]).toBe(`From version 1 (run 1) to version 2 (run ${runId}):`);
    expect(firstText(diff)).toContain(`Findings removed (${comparison.diff.findings.removed.length}):`);

    // The versions can be named from any run of the chain.
    const named = await ok(alice, "diff_report", { run_id: 1, from: 1, to: 2 });
    expect(named.structuredContent).toEqual(diff.structuredContent);
    const beyond = await call(alice, "diff_report", { run_id: 1, from: 1, to: 9 });
    expect(beyond.isError).toBe(true);
    expect(firstText(beyond)).toBe("to 9: the report has versions 1 to 2");
    // A follow-up is compared with its parent.
    const followUp = await ok(alice, "diff_report", { run_id: 2 });
    expect(followUp.structuredContent).toMatchObject({ from: { run: 1 }, to: { run: 2 } });

    // Revising the first report again revises its newest version.
    const again = await ok(alice, "revise_report", { run_id: 1, instruction: "add sodium-ion cells" });
    expect(again.structuredContent).toMatchObject({ relation: "revision", parentRunId: runId });
    expect(again.content.at(-1)?.text).toContain(
      `A new version of the report of run ${runId} (the newest version of run 1's report).`,
    );
    expect((await report(alice, Number(again.structuredContent?.runId))).lineage).toMatchObject({
      version: 3,
      parentRun: runId,
    });
  }, 180_000);

  it("search_library finds a document an earlier run read, without reading anything", async () => {
    const runs = (await store.listRuns()).length;
    const result = await ok(alice, "search_library", { query: "cobalt mining", limit: 5 });
    const hits = result.structuredContent?.hits as {
      id: number;
      title: string;
      location: string;
      firstRunId: number;
      rank: number;
    }[];
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.length).toBeLessThanOrEqual(5);
    const cobalt = hits.find((hit) => hit.location.endsWith("industry/cobalt-supply-drc.md"));
    expect(cobalt).toMatchObject({ firstRunId: 1 });
    expect(hits.map((hit) => hit.rank)).toEqual(hits.map((_, at) => at + 1));
    expect(JSON.parse(firstText(result))).toEqual(hits);
    expect((await store.listRuns()).length).toBe(runs);

    const empty = await call(alice, "search_library", { query: "  " });
    expect(empty.isError).toBe(true);
    expect(firstText(empty)).toBe("give words to search the library for");
  });

  it("refuses what cannot be continued: an empty question, a report with one version to diff, a folder outside the roots", async () => {
    const blank = await call(alice, "ask_follow_up", { run_id: 1, question: " " });
    expect(blank.isError).toBe(true);
    expect(firstText(blank)).toBe("the follow-up question is empty");
    const one = await call(alice, "diff_report", { run_id: 2, to: 2 });
    expect(one.isError).toBe(true);
    expect(firstText(one)).toBe("run 2's report has one version; revise it first with revise_report");

    const elsewhere = tempDir("assay-mcp-lineage-root-");
    try {
      const narrow = await connect("alice", [realpathSync(elsewhere.path)]);
      const runs = (await store.listRuns()).length;
      for (const [name, args] of [
        ["ask_follow_up", { run_id: 1, question: "and sodium?" }],
        ["revise_report", { run_id: 1, instruction: "shorter" }],
      ] as const) {
        const refused = await call(narrow, name, args);
        expect(refused.isError, name).toBe(true);
        expect(firstText(refused)).toContain("is outside the folders this server may read");
      }
      expect((await store.listRuns()).length).toBe(runs);
    } finally {
      elsewhere.cleanup();
    }
  });

  it("another user's run is answered as one that does not exist, and another user's library is not searched", async () => {
    const runs = (await store.listRuns()).length;
    for (const id of [1, 2, 999]) {
      for (const [name, args] of [
        ["ask_follow_up", { run_id: id, question: "and sodium?" }],
        ["revise_report", { run_id: id, instruction: "shorter" }],
        ["diff_report", { run_id: id }],
      ] as const) {
        const refused = await call(bob, name, args);
        expect(refused.isError, `${name} ${id}`).toBe(true);
        expect(firstText(refused)).toBe(`there is no run ${id}; list_runs lists the runs`);
      }
    }
    expect((await store.listRuns()).length).toBe(runs);
    expect(await store.listRuns({ userId: "bob" })).toEqual([]);

    const search = await ok(bob, "search_library", { query: "cobalt mining" });
    expect(search.structuredContent).toEqual({ hits: [] });
    expect((await store.listLibrary("alice")).length).toBeGreaterThan(0);
  });
});
