/**
 * `assay mcp`: the MCP server on stdio (the default; stdout is the protocol, logs go to stderr)
 * or on streamable HTTP at `/mcp` (`--http PORT`, bound to 127.0.0.1 unless `--host` says otherwise),
 * acting as one user (`--user`, `--token-file` or `ASSAY_TOKEN`; see mcp-user.ts).
 */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { parseSearchPlan } from "../../adapters/search/search-specs.js";
import { UserError } from "../../core/errors.js";
import { readConfigFile } from "../cli/config-file.js";
import { modelSpec, resolveModel } from "../cli/model-choice.js";
import { dataPaths } from "../cli/paths.js";
import { type PolicyFlags, serverPolicy } from "../cli/policy-options.js";
import { artifactStoreFor, openStore } from "../cli/stores.js";
import { buildRuntime } from "../cli/wiring.js";
import { resolveCorpusRoots } from "./corpus-roots.js";
import { isLoopback, listenMcpHttp, type McpHttpOptions } from "./mcp-http.js";
import { ActiveResearch, buildMcpServer, type McpServices } from "./mcp-server.js";
import { resolveUser, userSource } from "./mcp-user.js";

export interface McpCommandOptions extends PolicyFlags {
  db?: string;
  http?: number;
  host: string;
  /** `--user <name>`: the user the server acts as. */
  user?: string;
  /** `--token-file <path>`: a file holding an API token whose user the server acts as. */
  tokenFile?: string;
  /** false for `--no-auth` (`--http` on a loopback address only). */
  auth: boolean;
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

export async function mcpCommand(options: McpCommandOptions, context: McpCommandContext): Promise<number> {
  const { environment } = context;
  const log = (line: string): void => {
    context.stderr.write(`${line}\n`);
  };
  const paths = dataPaths(environment);
  if (!options.auth) {
    if (options.http === undefined) throw new UserError("--no-auth applies only to --http");
    if (!isLoopback(options.host))
      throw new UserError(
        `--no-auth is refused on ${options.host}: only a loopback address (127.0.0.1, ::1, localhost) may serve without API tokens`,
      );
  }
  const source = await userSource(options, environment);
  const corpusRoots = await resolveCorpusRoots(options.corpusRoot ?? [], context.cwd);
  const config = readConfigFile({ explicit: options.config, home: paths.home });
  // A server model that cannot be built (a missing key) is refused now, not at the first call.
  if (options.model !== undefined) resolveModel(modelSpec(options.model, environment), environment);
  const policy = serverPolicy(modelSpec(options.model, environment), config, options, environment);
  if (options.search !== undefined) {
    const plan = parseSearchPlan(options.search);
    if (!plan.ok) throw new UserError(`--search: ${plan.error}`);
  }
  const store = await openStore(paths, options.db);
  let user: string;
  try {
    user = await resolveUser(store, source, new Date());
  } catch (error) {
    await store.close();
    throw error;
  }
  const services: McpServices = {
    user,
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
    policy,
    research: new ActiveResearch(),
    log,
  };
  if (corpusRoots.length === 0)
    log(
      "assay mcp: no corpus folder is allowed (the working directory is the file system root): add --corpus-root DIR",
    );
  try {
    if (options.http === undefined) await serveStdio(services);
    else await serveHttp(services, { port: options.http, host: options.host, auth: options.auth });
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
  services.log(
    `assay mcp: serving on stdio as user ${services.user} (corpus roots: ${services.corpusRoots.join(", ") || "none"})`,
  );
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

async function serveHttp(services: McpServices, options: McpHttpOptions): Promise<void> {
  const server = await listenMcpHttp(services, options);
  services.log(
    `assay mcp: listening on ${server.url} as user ${services.user}${options.auth ? "" : " without authentication (--no-auth)"} (corpus roots: ${services.corpusRoots.join(", ") || "none"})`,
  );
  if (!isLoopback(options.host))
    services.log(
      "assay mcp: warning: plain HTTP beyond this machine: API tokens and reports travel unencrypted; put a TLS proxy in front",
    );
  await shutdownSignal();
  await services.research.stop();
  await server.close();
}
