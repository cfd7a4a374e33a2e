import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterEach, describe, expect, it } from "vitest";
import { FilesystemArtifactStore } from "../../adapters/artifacts/filesystem/filesystem-artifact-store.js";
import { systemClock } from "../../adapters/clock/system-clock.js";
import { openSqliteStore } from "../../adapters/store/sqlite/sqlite-store.js";
import { UserError } from "../../core/errors.js";
import type { Store } from "../../ports/store.js";
import { createRuntime } from "../../runtime/runtime.js";
import { fakeScopeOpener, syntheticDocuments } from "../../testing/fake-scope.js";
import { tempDir } from "../../testing/temp-dir.js";
import { createToken } from "../http/tokens.js";
import { type McpCommandOptions, mcpCommand } from "./mcp-command.js";
import { listenMcpHttp } from "./mcp-http.js";
import { ActiveResearch, buildMcpServer, type McpServices } from "./mcp-server.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

type ToolResult = {
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};

const firstText = (result: unknown): string | undefined => (result as ToolResult).content[0]?.text;

/** A store in a temporary folder, and the services of a server acting as `user` over it. */
function world() {
  const dir = tempDir("assay-mcp-users-");
  const store = openSqliteStore({ file: join(dir.path, "assay.db") });
  const artifacts = new FilesystemArtifactStore();
  const researches: ActiveResearch[] = [];
  cleanups.push(async () => {
    for (const research of researches) await research.stop();
    await store.close();
    dir.cleanup();
  });
  const servicesFor = (user: string): McpServices => {
    const research = new ActiveResearch();
    researches.push(research);
    return {
      user,
      store,
      artifacts,
      runtimeFor: () =>
        createRuntime({
          store,
          artifacts,
          clock: systemClock,
          scopes: fakeScopeOpener({ documents: syntheticDocuments(2) }),
          // Publishes at once (no evidence): a run with a report, in milliseconds.
          strategies: { pipeline: { name: "pipeline", run: async () => ({}) } },
          defaultOutDir: (runId) => join(dir.path, "runs", String(runId)),
        }),
      environment: {},
      corpusRoots: [dir.path],
      defaults: { config: undefined },
      research,
      log: () => undefined,
    };
  };
  return { dir: dir.path, store, servicesFor };
}

async function connectInMemory(services: McpServices): Promise<Client> {
  const client = new Client({ name: "test", version: "0" });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await buildMcpServer(services).connect(serverSide);
  await client.connect(clientSide);
  cleanups.push(() => client.close());
  return client;
}

async function research(client: Client, corpus: string, question: string): Promise<number> {
  const result = (await client.callTool({ name: "research", arguments: { question, corpus } })) as ToolResult;
  expect(result.isError, JSON.stringify(result)).toBeFalsy();
  return Number(result.structuredContent?.runId);
}

const listedIds = async (client: Client): Promise<number[]> => {
  const result = (await client.callTool({ name: "list_runs", arguments: {} })) as ToolResult;
  return (result.structuredContent?.runs as { id: number }[]).map((run) => run.id);
};

describe("an MCP server acts as one user", () => {
  it("creates runs as its user, and lists and reads only that user's runs", async () => {
    const { dir, store, servicesFor } = world();
    const alice = await connectInMemory(servicesFor("alice"));
    const bob = await connectInMemory(servicesFor("bob"));

    const bobsRun = await research(bob, dir, "What does Bob ask?");
    const alicesRun = await research(alice, dir, "What does Alice ask?");
    expect((await store.getRun(bobsRun))?.userId).toBe("bob");
    expect((await store.getRun(alicesRun))?.userId).toBe("alice");
    // A run recorded directly in the store for a third user (as `assay serve` would).
    const request = (await store.getRun(alicesRun))?.request;
    if (!request) throw new Error("alice's run is missing");
    const carols = await store.createRun(request, { originAt: new Date().toISOString(), worker: "", userId: "carol" });

    expect(await listedIds(alice)).toEqual([alicesRun]);
    expect(await listedIds(bob)).toEqual([bobsRun]);

    // Another user's run reads exactly as a run that does not exist.
    for (const id of [bobsRun, carols.id, 999]) {
      const report = (await alice.callTool({ name: "get_report", arguments: { run_id: id } })) as ToolResult;
      expect(report.isError).toBe(true);
      expect(firstText(report)).toBe(`there is no run ${id}; list_runs lists the runs`);
      await expect(alice.readResource({ uri: `assay://runs/${id}/report.md` })).rejects.toThrow(
        `Resource not found: there is no run ${id}`,
      );
    }

    const { resources } = await alice.listResources();
    expect(resources.map((resource) => resource.uri).sort()).toEqual([
      `assay://runs/${alicesRun}/report.json`,
      `assay://runs/${alicesRun}/report.md`,
    ]);
    // Bob reads his own report.
    const read = await bob.readResource({ uri: `assay://runs/${bobsRun}/report.md` });
    expect(read.contents[0]).toMatchObject({ text: expect.stringContaining("What does Bob ask?") });
    const own = (await alice.callTool({ name: "get_report", arguments: { run_id: alicesRun } })) as ToolResult;
    expect(own.isError).toBeFalsy();
    expect(firstText(own)).toContain("What does Alice ask?");
  });
});

async function listening(services: McpServices, auth = true) {
  const server = await listenMcpHttp(services, { port: 0, host: "127.0.0.1", auth });
  cleanups.push(() => server.close());
  return server.url;
}

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
};

/** A raw initialize POST with these extra headers. */
function post(url: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(INITIALIZE),
  });
}

async function connectHttp(url: string, token?: string): Promise<Client> {
  const client = new Client({ name: "test", version: "0" });
  const transport = new StreamableHTTPClientTransport(
    new URL(url),
    token === undefined ? {} : { requestInit: { headers: { Authorization: `Bearer ${token}` } } },
  );
  await client.connect(transport);
  cleanups.push(() => client.close());
  return client;
}

async function tokens(store: Store) {
  const alice = (await createToken(store, "alice", "", new Date())).secret;
  const bob = (await createToken(store, "bob", "", new Date())).secret;
  const revoked = await createToken(store, "alice", "old", new Date());
  await store.revokeApiToken(revoked.token.id, new Date().toISOString());
  return { alice, bob, revoked: revoked.secret };
}

describe("assay mcp --http authentication", () => {
  it("refuses a request without a token, or with an unknown, revoked or other user's token, with 401", async () => {
    const { store, servicesFor } = world();
    const secrets = await tokens(store);
    const url = await listening(servicesFor("alice"));

    const none = await post(url);
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toBe('Bearer realm="assay"');
    expect(((await none.json()) as { error: { message: string } }).error.message).toContain("Authorization: Bearer");
    for (const secret of ["assay_not-a-real-token", "garbage", secrets.revoked, secrets.bob]) {
      const response = await post(url, { authorization: `Bearer ${secret}` });
      expect(response.status, secret).toBe(401);
      await response.body?.cancel();
    }
    // The SDK client fails to connect too.
    await expect(connectHttp(url)).rejects.toMatchObject({ code: 401 });
    await expect(connectHttp(url, "assay_wrong")).rejects.toMatchObject({ code: 401 });
  });

  it("serves a client with the user's token, and needs the token on every request of its session", async () => {
    const { dir, store, servicesFor } = world();
    const secrets = await tokens(store);
    const bob = await connectInMemory(servicesFor("bob"));
    const bobsRun = await research(bob, dir, "What does Bob ask?");
    const url = await listening(servicesFor("alice"));

    const client = await connectHttp(url, secrets.alice);
    const alicesRun = await research(client, dir, "What does Alice ask?");
    expect(await listedIds(client)).toEqual([alicesRun]);
    const other = (await client.callTool({ name: "get_report", arguments: { run_id: bobsRun } })) as ToolResult;
    expect(firstText(other)).toBe(`there is no run ${bobsRun}; list_runs lists the runs`);
    expect((await store.listApiTokens({ userId: "alice" })).some((token) => token.lastUsedAt !== "")).toBe(true);

    // The session's id without the token is refused.
    const initialized = await post(url, { authorization: `Bearer ${secrets.alice}` });
    const session = initialized.headers.get("mcp-session-id") ?? "";
    await initialized.body?.cancel();
    expect(session).not.toBe("");
    const hijack = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": session,
        "mcp-protocol-version": "2025-06-18",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
    });
    expect(hijack.status).toBe(401);
  });

  it("serves without a token with auth off (--no-auth, loopback)", async () => {
    const { servicesFor } = world();
    const client = await connectHttp(await listening(servicesFor("alice"), false));
    expect(await listedIds(client)).toEqual([]);
  });
});

describe("assay mcp start-up", () => {
  /** `mcpCommand`'s refusal (it never serves here: every case fails before listening). */
  async function refusal(options: Partial<McpCommandOptions>, environment: Record<string, string> = {}) {
    const home = tempDir("assay-mcp-start-");
    cleanups.push(() => home.cleanup());
    const run = mcpCommand(
      { host: "127.0.0.1", auth: true, config: false, ...options },
      { environment: { ASSAY_HOME: home.path, ...environment }, cwd: home.path, stderr: process.stderr },
    );
    const error = await run.then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(UserError);
    return (error as UserError).message;
  }

  it("refuses to start without a user or a token, and says what to pass", async () => {
    const message = await refusal({});
    expect(message).toContain("--user NAME");
    expect(message).toContain("--token-file FILE");
    expect(message).toContain("ASSAY_TOKEN");
  });

  it("refuses --no-auth on an address beyond this machine, and without --http", async () => {
    expect(await refusal({ user: "alice", http: 0, host: "0.0.0.0", auth: false })).toMatch(
      /--no-auth is refused on 0\.0\.0\.0: only a loopback address/,
    );
    expect(await refusal({ user: "alice", auth: false })).toBe("--no-auth applies only to --http");
  });

  it("refuses a bad user name, an unknown token, a missing token file, and --user with --token-file", async () => {
    expect(await refusal({ user: "not a name" })).toContain('--user "not a name": expected');
    expect(await refusal({}, { ASSAY_TOKEN: "assay_unknown" })).toContain("the API token of ASSAY_TOKEN is unknown");
    expect(await refusal({ tokenFile: "/nonexistent/token" })).toContain("--token-file /nonexistent/token does not");
    expect(await refusal({ user: "alice", tokenFile: "/nonexistent/token" })).toBe(
      "give one of --user and --token-file, not both",
    );
  });
});
