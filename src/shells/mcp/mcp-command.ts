/**
 * `assay mcp`: the MCP server on stdio (the default; stdout is the protocol, logs go to stderr)
 * or on streamable HTTP at `/mcp` (`--http PORT`, bound to 127.0.0.1 unless `--host` says otherwise).
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { isIP } from "node:net";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { type Command, InvalidArgumentError, type Option } from "commander";
import { parseSearchSpec } from "../../adapters/search/search-registry.js";
import { UserError } from "../../core/errors.js";
import { collectAssignment, readConfigFile } from "../cli/config-file.js";
import { modelSpec, resolveModel } from "../cli/model-choice.js";
import { dataPaths } from "../cli/paths.js";
import { artifactStoreFor, buildRuntime, openStore } from "../cli/wiring.js";
import { resolveCorpusRoots } from "./corpus-roots.js";
import { ActiveResearch, buildMcpServer, type McpServices } from "./mcp-server.js";

export interface McpCommandOptions {
  db?: string;
  http?: number;
  host: string;
  corpusRoot?: string[];
  model?: string;
  search?: string;
  /** `--config <file>`, or false for `--no-config`. */
  config?: string | false;
}

export interface McpCommandContext {
  environment: Record<string, string | undefined>;
  cwd: string;
  stderr: NodeJS.WritableStream;
}

/** `--http <port>`: 0 to 65535 (0: any free port, printed on stderr). */
export function portNumber(value: string): number {
  const parsed = Number(value);
  if (!/^\d+$/.test(value) || parsed > 65_535) throw new InvalidArgumentError("expected a port from 0 to 65535");
  return parsed;
}

/** Adds `assay mcp` to the program. */
export function registerMcpCommand(program: Command, dbOption: () => Option): void {
  program
    .command("mcp")
    .description("serve Assay to MCP clients: research, get_report, list_runs, reports as resources (see docs/mcp.md)")
    .addOption(dbOption())
    .option(
      "--http <port>",
      "serve streamable HTTP at http://HOST:PORT/mcp instead of stdio (0: any free port)",
      portNumber,
    )
    .option("--host <host>", "with --http: the address to listen on", "127.0.0.1")
    .option(
      "--corpus-root <dir>",
      "a folder clients may research, with everything under it (repeatable; default: the working directory)",
      collectAssignment,
    )
    .option("--model <spec>", "the model of a research that names none: offline (default), none, provider:model-name")
    .option("--search <provider[:url]>", "the search provider of web research: searxng[:URL] (default), tavily, ...")
    .option("--config <file>", "settings file (default: $ASSAY_HOME/config.json when it exists)")
    .option("--no-config", "read no settings file")
    .action(async (options: McpCommandOptions) => {
      process.exitCode = await mcpCommand(options, {
        environment: process.env,
        cwd: process.cwd(),
        stderr: process.stderr,
      });
    });
}

export async function mcpCommand(options: McpCommandOptions, context: McpCommandContext): Promise<number> {
  const { environment } = context;
  const log = (line: string): void => {
    context.stderr.write(`${line}\n`);
  };
  const paths = dataPaths(environment);
  const corpusRoots = await resolveCorpusRoots(options.corpusRoot ?? [], context.cwd);
  const config = readConfigFile({ explicit: options.config, home: paths.home });
  // A server model that cannot be built (a missing key) is refused now, not at the first call.
  if (options.model !== undefined) resolveModel(modelSpec(options.model, environment), environment);
  if (options.search !== undefined) {
    const spec = parseSearchSpec(options.search);
    if (!spec.ok) throw new UserError(`--search: ${spec.error}`);
  }
  const store = await openStore(paths, options.db);
  const services: McpServices = {
    store,
    artifacts: artifactStoreFor(store),
    runtimeFor: (model) => buildRuntime(paths, store, model, environment),
    environment,
    corpusRoots,
    defaults: {
      ...(options.model === undefined ? {} : { model: options.model }),
      ...(options.search === undefined ? {} : { search: options.search }),
      config,
    },
    research: new ActiveResearch(),
    log,
  };
  if (corpusRoots.length === 0)
    log(
      "assay mcp: no corpus folder is allowed (the working directory is the file system root): add --corpus-root DIR",
    );
  try {
    if (options.http === undefined) await serveStdio(services);
    else await serveHttp(services, options.http, options.host);
  } finally {
    await services.research.stop();
    await store.close();
  }
  return 0;
}

/** Resolves on the first of SIGINT, SIGTERM or `extra` (the client went away). */
function shutdownSignal(extra?: (done: () => void) => () => void): Promise<void> {
  return new Promise((resolve) => {
    let undo = (): void => undefined;
    const done = (): void => {
      process.off("SIGINT", done);
      process.off("SIGTERM", done);
      undo();
      resolve();
    };
    process.on("SIGINT", done);
    process.on("SIGTERM", done);
    if (extra) undo = extra(done);
  });
}

async function serveStdio(services: McpServices): Promise<void> {
  // stdout carries the protocol: anything a library prints there would corrupt it.
  const toStderr = (...args: unknown[]): void => console.error(...args);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  const server = buildMcpServer(services);
  const transport = new StdioServerTransport();
  await server.connect(transport);
  services.log(`assay mcp: serving on stdio (corpus roots: ${services.corpusRoots.join(", ") || "none"})`);
  await shutdownSignal((done) => {
    process.stdin.once("end", done);
    process.stdin.once("close", done);
    return () => {
      process.stdin.off("end", done);
      process.stdin.off("close", done);
    };
  });
  // Runs in progress are cancelled and publish what they read before the server goes.
  await services.research.stop();
  await server.close();
  process.stdin.destroy();
}

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

function isLoopback(host: string): boolean {
  return LOOPBACK_NAMES.has(host) || (isIP(host) === 4 && host.startsWith("127."));
}

/** On a loopback address, a Host header that names another host is a DNS-rebinding attempt. */
function hostAllowed(request: IncomingMessage): boolean {
  const header = request.headers.host;
  if (header === undefined) return false;
  try {
    const name = new URL(`http://${header}`).hostname;
    if (!isLoopback(name)) return false;
  } catch {
    return false;
  }
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  try {
    return isLoopback(new URL(origin).hostname);
  } catch {
    return false;
  }
}

function refuse(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
}

async function serveHttp(services: McpServices, port: number, host: string): Promise<void> {
  type Session = { transport: StreamableHTTPServerTransport; close: () => Promise<void> };
  const sessions = new Map<string, Session>();
  const loopback = isLoopback(host);

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const path = new URL(request.url ?? "/", "http://localhost").pathname;
    if (path !== "/mcp") return refuse(response, 404, "not found: the MCP endpoint is /mcp");
    if (loopback && !hostAllowed(request)) return refuse(response, 403, "forbidden: Host or Origin is not local");
    const id = request.headers["mcp-session-id"];
    if (typeof id === "string") {
      const session = sessions.get(id);
      if (!session) return refuse(response, 404, "unknown or expired session: initialize again");
      return session.transport.handleRequest(request, response);
    }
    if (request.method !== "POST") return refuse(response, 400, "no session: send an initialize request first");
    const server = buildMcpServer(services);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => {
        sessions.set(sessionId, { transport, close: () => server.close() });
      },
      onsessionclosed: (sessionId) => {
        sessions.delete(sessionId);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(request, response);
    // Not an initialize request: the transport refused it and no session was made.
    if (transport.sessionId === undefined) await server.close();
  };

  const http = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      services.log(`assay mcp: ${error instanceof Error ? error.message : String(error)}`);
      if (!response.headersSent) refuse(response, 500, "internal error");
      else response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(port, host, () => {
      http.off("error", reject);
      resolve();
    });
  });
  const address = http.address();
  const bound = typeof address === "object" && address !== null ? address.port : port;
  const shown = host.includes(":") ? `[${host}]` : host;
  services.log(
    `assay mcp: listening on http://${shown}:${bound}/mcp (corpus roots: ${services.corpusRoots.join(", ") || "none"})`,
  );
  if (!loopback)
    services.log(
      "assay mcp: warning: listening beyond this machine without authentication; anyone who reaches it can run research and read reports",
    );
  await shutdownSignal();
  await services.research.stop();
  for (const session of sessions.values()) await session.close().catch(() => undefined);
  sessions.clear();
  await new Promise<void>((resolve) => {
    http.close(() => resolve());
    http.closeAllConnections();
  });
}
