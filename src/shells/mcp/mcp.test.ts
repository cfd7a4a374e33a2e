import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Progress } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, EXAMPLE_CORPUS, REPO_ROOT, runCli } from "../../testing/cli.js";
import { tempDir } from "../../testing/temp-dir.js";

const QUESTION = "Who built the first cell with a carbon anode and a lithium cobalt oxide cathode";

beforeAll(() => {
  if (!existsSync(join(BIN, "../../dist/shells/mcp/mcp-command.js"))) {
    throw new Error("the CLI is not built: run `npm run build` (npm test does it)");
  }
});

type ToolResult = {
  content: { type: string; text?: string; uri?: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};

const texts = (result: ToolResult): string[] =>
  result.content.flatMap((item) => (item.type === "text" && item.text !== undefined ? [item.text] : []));

function environment(home: string): Record<string, string> {
  return { PATH: process.env.PATH ?? "", HOME: home, ASSAY_HOME: home, NO_COLOR: "1" };
}

function expectIncreasing(progress: Progress[]): void {
  expect(progress.length).toBeGreaterThan(1);
  for (let i = 1; i < progress.length; i++)
    expect(progress[i]?.progress ?? 0).toBeGreaterThan(progress[i - 1]?.progress ?? 0);
}

describe("assay mcp over stdio", () => {
  const home = tempDir("assay-mcp-");
  const client = new Client({ name: "assay-test", version: "0.0.0" });
  let stderr = "";

  beforeAll(async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, "mcp", "--user", "alice", "--corpus-root", EXAMPLE_CORPUS],
      env: environment(home.path),
      cwd: REPO_ROOT,
      stderr: "pipe",
    });
    transport.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    await client.connect(transport);
  });

  afterAll(async () => {
    await client.close();
    home.cleanup();
  });

  it("lists its tools", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      "ask_follow_up",
      "diff_report",
      "get_report",
      "list_runs",
      "research",
      "revise_report",
      "search_library",
    ]);
    const research = tools.find((tool) => tool.name === "research");
    expect(Object.keys(research?.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(["question", "corpus", "web", "strategy", "model", "max_sources", "timeout_seconds"]),
    );
  });

  it("researches with progress, then serves the report as a tool result and a resource", async () => {
    const progress: Progress[] = [];
    const result = (await client.callTool(
      { name: "research", arguments: { question: QUESTION, corpus: EXAMPLE_CORPUS, model: "offline", max_sources: 5 } },
      undefined,
      { onprogress: (update) => progress.push(update) },
    )) as ToolResult;
    expect(result.isError, JSON.stringify(result) + stderr).toBeFalsy();
    expectIncreasing(progress);
    expect(progress.every((update) => update.total === 6 && typeof update.message === "string")).toBe(true);
    expect(progress.some((update) => update.message?.startsWith("source persisted:"))).toBe(true);
    // The server sends "run finished" (6 of 6) before its result. The SDK's client hands a
    // notification to its handler a microtask late but a response at once, and drops the request's
    // progress handler with it: when the last notification and the result arrive in one read (a
    // loaded machine), those notifications are lost on the client's side (more than one when the
    // machine is loaded enough). So the last one seen is "run finished", or one of those just
    // before it, from the publication stage on.
    const last = progress.at(-1);
    if (last?.progress === 6) expect(last.message).toContain("run finished");
    else expect(last?.message).toMatch(/^(stage: publication|report published)/);
    expect(last?.progress).toBeGreaterThan(5);

    const [markdown] = texts(result);
    expect(markdown?.split("\n")[0]).toMatch(/^# Who built the first cell/);
    expect(markdown).toContain("## Sources");
    expect(result.structuredContent).toMatchObject({
      runId: 1,
      status: "finished",
      artifactStatus: "synthesized",
      report: "assay://runs/1/report.md",
    });
    expect(result.content.find((item) => item.type === "resource_link")?.uri).toBe("assay://runs/1/report.md");

    const report = (await client.callTool({ name: "get_report", arguments: { run_id: 1 } })) as ToolResult;
    expect(texts(report)[0]).toBe(markdown);
    const json = (await client.callTool({
      name: "get_report",
      arguments: { run_id: 1, format: "json" },
    })) as ToolResult;
    expect(JSON.parse(texts(json)[0] ?? "")).toMatchObject({ question: QUESTION });

    const runs = (await client.callTool({ name: "list_runs", arguments: {} })) as ToolResult;
    expect(runs.structuredContent?.runs).toEqual([
      expect.objectContaining({ id: 1, status: "finished", question: QUESTION, report: "assay://runs/1/report.md" }),
    ]);

    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri).sort()).toEqual([
      "assay://runs/1/report.json",
      "assay://runs/1/report.md",
    ]);
    const read = await client.readResource({ uri: "assay://runs/1/report.md" });
    expect(read.contents[0]).toMatchObject({
      uri: "assay://runs/1/report.md",
      mimeType: "text/markdown",
      text: markdown,
    });
  });

  it("refuses a corpus outside its roots, unknown runs and unknown strategies", async () => {
    const outside = (await client.callTool({
      name: "research",
      arguments: { question: QUESTION, corpus: home.path },
    })) as ToolResult;
    expect(outside.isError).toBe(true);
    expect(texts(outside)[0]).toContain("is outside the folders this server may read");
    const upward = (await client.callTool({
      name: "research",
      arguments: { question: QUESTION, corpus: "../.." },
    })) as ToolResult;
    expect(upward.isError).toBe(true);
    expect(texts(upward)[0]).toContain("is outside the folders this server may read");

    const none = (await client.callTool({ name: "research", arguments: { question: QUESTION } })) as ToolResult;
    expect(texts(none)[0]).toContain("give an evidence scope");

    const strategy = (await client.callTool({
      name: "research",
      arguments: { question: QUESTION, corpus: EXAMPLE_CORPUS, strategy: "magic" },
    })) as ToolResult;
    expect(strategy.isError).toBe(true);
    expect(texts(strategy)[0]).toContain("strategy");

    const unknown = (await client.callTool({ name: "get_report", arguments: { run_id: 999 } })) as ToolResult;
    expect(unknown.isError).toBe(true);
    expect(texts(unknown)[0]).toContain("there is no run 999");
    await expect(client.readResource({ uri: "assay://runs/999/report.md" })).rejects.toThrow(/no run 999/);
  });
});

describe("assay mcp --http", () => {
  const home = tempDir("assay-mcp-http-");
  let child: ChildProcess | undefined;

  afterAll(() => {
    if (child?.exitCode === null) child.kill("SIGKILL");
    home.cleanup();
  });

  it("serves streamable HTTP on a local port to the holder of a token, with progress, and stops on SIGTERM", async () => {
    const created = await runCli(["tokens", "create", "--user", "alice", "--json"], { home: home.path });
    expect(created.code, created.stderr).toBe(0);
    const secret = (JSON.parse(created.stdout) as { token: string }).token;
    const tokenFile = join(home.path, "token");
    writeFileSync(tokenFile, `${secret}\n`);
    const server = spawn(
      process.execPath,
      [BIN, "mcp", "--http", "0", "--token-file", tokenFile, "--corpus-root", EXAMPLE_CORPUS],
      { cwd: REPO_ROOT, env: environment(home.path), stdio: ["ignore", "pipe", "pipe"] },
    );
    child = server;
    let stderr = "";
    const url = await new Promise<string>((resolve, reject) => {
      server.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
        const match = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr);
        if (match?.[1]) resolve(match[1]);
      });
      server.on("exit", () => reject(new Error(`the server exited: ${stderr}`)));
    });

    // A Host header that is not local is refused (DNS rebinding).
    const rebound = await new Promise<number | undefined>((resolve, reject) => {
      const request = httpRequest(url, { method: "POST", headers: { host: "evil.example:80" } }, (response) => {
        response.resume();
        resolve(response.statusCode);
      });
      request.on("error", reject);
      request.end("{}");
    });
    expect(rebound).toBe(403);
    expect(stderr).toContain("as user alice");

    // Without a token: 401.
    const anonymous = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(anonymous.status).toBe(401);

    const client = new Client({ name: "assay-test", version: "0.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { Authorization: `Bearer ${secret}` } },
      }),
    );
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain("research");
    const progress: Progress[] = [];
    const result = (await client.callTool(
      { name: "research", arguments: { question: QUESTION, corpus: ".", max_sources: 3 } },
      undefined,
      { onprogress: (update) => progress.push(update) },
    )) as ToolResult;
    expect(result.isError, JSON.stringify(result) + stderr).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ runId: 1, status: "finished" });
    expectIncreasing(progress);
    await client.close();

    const exited = new Promise<number | null>((resolve) => server.on("exit", (code) => resolve(code)));
    server.kill("SIGTERM");
    expect(await exited).toBe(0);
  });
});

describe("assay mcp start-up", () => {
  const home = tempDir("assay-mcp-start-");
  afterAll(() => home.cleanup());

  it("refuses to start without a user or a token (exit code 2), saying what to pass", async () => {
    const result = await runCli(["mcp"], { home: home.path });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("pass --user NAME, or an API token with --token-file FILE or ASSAY_TOKEN");
  });

  it("refuses --no-auth on an address beyond this machine (exit code 2)", async () => {
    const result = await runCli(["mcp", "--user", "alice", "--http", "0", "--host", "0.0.0.0", "--no-auth"], {
      home: home.path,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--no-auth is refused on 0.0.0.0");
  });
});
