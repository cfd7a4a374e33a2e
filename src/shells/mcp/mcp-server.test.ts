import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { ServerNotification } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { FilesystemArtifactStore } from "../../adapters/artifacts/filesystem/filesystem-artifact-store.js";
import { systemClock } from "../../adapters/clock/system-clock.js";
import { openSqliteStore } from "../../adapters/store/sqlite/sqlite-store.js";
import { DEFAULT_BUDGETS } from "../../core/budgets.js";
import type { RunEvent } from "../../ports/store.js";
import { createRuntime } from "../../runtime/runtime.js";
import type { Strategy } from "../../strategies/strategy.js";
import { fakeScopeOpener, syntheticDocuments } from "../../testing/fake-scope.js";
import { tempDir } from "../../testing/temp-dir.js";
import { ActiveResearch, buildMcpServer, type McpServices, progressReporter } from "./mcp-server.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A pipeline that waits until the run is cancelled: the test decides when the research stops. */
function waitingStrategy(): { strategy: Strategy; started: Promise<void> } {
  let markStarted = (): void => undefined;
  const started = new Promise<void>((resolve) => {
    markStarted = resolve;
  });
  return {
    started,
    strategy: {
      name: "pipeline",
      async run(host) {
        await host.stage("acquisition");
        markStarted();
        if (!host.signal.aborted)
          await new Promise<void>((resolve) => host.signal.addEventListener("abort", () => resolve(), { once: true }));
        return {};
      },
    },
  };
}

async function harness(policy?: McpServices["policy"]) {
  const dir = tempDir("assay-mcp-server-");
  const store = openSqliteStore({ file: join(dir.path, "assay.db") });
  const { strategy, started } = waitingStrategy();
  const services: McpServices = {
    user: "alice",
    store,
    artifacts: new FilesystemArtifactStore(),
    runtimeFor: () =>
      createRuntime({
        store,
        artifacts: new FilesystemArtifactStore(),
        clock: systemClock,
        scopes: fakeScopeOpener({ documents: syntheticDocuments(2) }),
        strategies: { pipeline: strategy },
        defaultOutDir: (runId) => join(dir.path, "runs", String(runId)),
      }),
    environment: {},
    corpusRoots: [dir.path],
    defaults: { config: undefined },
    ...(policy === undefined ? {} : { policy }),
    research: new ActiveResearch(),
    log: () => undefined,
  };
  const server = buildMcpServer(services);
  const client = new Client({ name: "test", version: "0" });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  cleanups.push(async () => {
    await client.close();
    await services.research.stop();
    await store.close();
    dir.cleanup();
  });
  return { services, client, store, started, corpus: dir.path };
}

describe("the research tool", () => {
  it("cancels the run when the client cancels the request; the Host still publishes", async () => {
    const { services, client, store, started, corpus } = await harness();
    const controller = new AbortController();
    const call = client.callTool({ name: "research", arguments: { question: "What is it?", corpus } }, undefined, {
      signal: controller.signal,
    });
    await started;
    controller.abort(new Error("the user stopped it"));
    await expect(call).rejects.toThrow();
    await services.research.stop();
    const [run] = await store.listRuns();
    expect(run).toMatchObject({ id: 1, status: "finished", artifactStatus: "no-evidence" });
    const types = (await store.listEvents(1)).map((event) => event.type);
    expect(types).toContain("run-cancelled");
    expect(types.at(-1)).toBe("run-finished");
  });

  it("stops runs in progress when the server shuts down, and returns their report", async () => {
    const { services, client, started, corpus } = await harness();
    const call = client.callTool({ name: "research", arguments: { question: "What is it?", corpus } });
    await started;
    await services.research.stop();
    const result = (await call) as { content: { type: string; text?: string }[]; isError?: boolean };
    expect(result.isError).toBeFalsy();
    expect(result.content[0]?.text).toContain("# What is it?");
  });

  it("refuses a model the operator does not offer, and one offered whose key is missing, recording no run", async () => {
    const ask = async (client: Client, corpus: string) =>
      (await client.callTool({
        name: "research",
        arguments: { question: "What is it?", corpus, model: "openai:gpt-4o-mini" },
      })) as { content: { text?: string }[]; isError?: boolean };
    const closed = await harness();
    const refused = await ask(closed.client, closed.corpus);
    expect(refused.isError).toBe(true);
    expect(refused.content[0]?.text).toBe(
      "the model openai:gpt-4o-mini is not offered by this server; pick one of: offline",
    );
    const open = await harness({ models: ["offline", "openai:gpt-4o-mini"], ceilings: {} });
    const keyless = await ask(open.client, open.corpus);
    expect(keyless.isError).toBe(true);
    expect(keyless.content[0]?.text).toMatch(/OPENAI_API_KEY/);
    expect(await open.store.listRuns()).toEqual([]);
  });
});

describe("the research tool under the operator's cost and budget ceilings", () => {
  type Result = { content: { text?: string }[]; isError?: boolean };
  const ask = async (client: Client, args: Record<string, unknown>) =>
    (await client.callTool({ name: "research", arguments: { question: "What is it?", ...args } })) as Result;

  it("refuses a budget over its ceiling, naming it, and recording no run", async () => {
    const h = await harness({ models: ["offline"], ceilings: { maxSources: 4, wallClockMs: 60_000 } });
    const sources = await ask(h.client, { corpus: h.corpus, max_sources: 5 });
    expect(sources.isError).toBe(true);
    expect(sources.content[0]?.text).toBe("budgets.maxSources 5 is over this server's limit of 4 per run");
    const time = await ask(h.client, { corpus: h.corpus, timeout_seconds: 120 });
    expect(time.content[0]?.text).toBe("budgets.wallClockMs 120000 is over this server's limit of 60000 per run");
    expect(await h.store.listRuns()).toEqual([]);
  });

  it("holds the user's spend of the day under the daily ceiling: a spent day is refused, and the run's cost budget is what is left", async () => {
    const h = await harness({ models: ["offline"], ceilings: {}, maxCostUsdPerDay: 1 });
    const now = new Date().toISOString();
    const earlier = await h.store.createRun(
      {
        question: "earlier",
        language: "en",
        strategy: "pipeline",
        model: "offline",
        scope: { kind: "corpus", root: h.corpus, label: "docs" },
        budgets: { ...DEFAULT_BUDGETS },
        outDir: "",
      },
      { originAt: now, worker: "old:1", userId: "alice" },
    );
    await h.store.updateRun(earlier.id, { status: "finished", finishedAt: now });
    const spend = (costUsd: number) =>
      h.store.appendEvent(earlier.id, {
        type: "generation-finished",
        offsetMs: 1,
        at: now,
        data: {
          purpose: "synthesis",
          model: "openai:gpt-4o-mini",
          usage: { inputTokens: 1, outputTokens: 1, costUsd },
        },
      });
    await spend(0.75);
    const call = ask(h.client, { corpus: h.corpus });
    await h.started;
    const run = (await h.store.listRuns()).find((listed) => listed.id !== earlier.id);
    expect(run?.request.budgets.maxCostUsd).toBeCloseTo(0.25);
    await h.services.research.stop();
    expect((await call).isError).toBeFalsy();

    await spend(0.25);
    const refused = await ask(h.client, { corpus: h.corpus });
    expect(refused.isError).toBe(true);
    expect(refused.content[0]?.text).toMatch(
      /^you have spent \$1\.00 today, all of this server's limit of \$1\.00 a day/,
    );
    expect(await h.store.listRuns()).toHaveLength(2);
  });
});

describe("progressReporter", () => {
  const event = (type: string, data: Record<string, unknown> = {}): RunEvent =>
    ({ seq: 0, type, offsetMs: 0, at: "", data }) as unknown as RunEvent;

  it("sends nothing without a progress token", () => {
    expect(progressReporter({ sendNotification: async () => undefined }, 4)).toBeUndefined();
  });

  it("counts persisted sources, always increases and ends at the total", async () => {
    const sent: ServerNotification[] = [];
    const reporter = progressReporter(
      { _meta: { progressToken: "t" }, sendNotification: async (notification) => void sent.push(notification) },
      2,
    );
    const events = [
      event("run-started"),
      event("stage-changed", { stage: "bootstrap" }),
      event("search-finished", { hits: 3 }),
      event("source-persisted", { persisted: 1, title: "A" }),
      event("source-merged"),
      event("source-persisted", { persisted: 2, title: "B" }),
      ...Array.from({ length: 80 }, () => event("search-finished", { hits: 1 })),
      event("final-published", { status: "synthesized" }),
      event("run-finished", { status: "finished" }),
    ];
    for (const item of events) reporter?.listener(item);
    await reporter?.flush();
    const values = sent.map((notification) => (notification.params as { progress: number }).progress);
    expect(values.slice(0, 4)).toEqual([0, 0.5, 0.75, 1]);
    for (let i = 1; i < values.length; i++) expect(values[i]).toBeGreaterThan(values[i - 1] ?? 0);
    expect(values.every((value) => value <= 3)).toBe(true);
    expect(sent.at(-1)?.params).toMatchObject({
      progress: 3,
      total: 3,
      message: "run finished: finished (2/2 sources)",
    });
  });
});
