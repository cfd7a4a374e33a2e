/**
 * `assay serve`: the HTTP API on a port (127.0.0.1 by default). With SQLite (or PostgreSQL
 * without --queue) this process drives the runs it creates; with PostgreSQL and --queue it
 * records them queued and `assay worker` processes run them.
 */

import { realpath } from "node:fs/promises";
import { type ServerType, serve } from "@hono/node-server";
import { openPgBossQueue, type PgBossQueue } from "../../adapters/queue/pg-boss/pg-boss-queue.js";
import { isPostgresUrl } from "../../adapters/store/postgres/postgres-url.js";
import { UserError } from "../../core/errors.js";
import { readConfigFile } from "../cli/config-file.js";
import { modelSpec, resolveModel } from "../cli/model-choice.js";
import { DEFAULT_RETRY_POLICY } from "../cli/options.js";
import type { DataPaths } from "../cli/paths.js";
import { type PolicyFlags, serverPolicy } from "../cli/policy-options.js";
import { artifactStoreFor, openStore } from "../cli/stores.js";
import { buildRuntime } from "../cli/wiring.js";
import { createHttpApp } from "./app.js";
import { DEFAULT_LIMITS } from "./limits.js";

export interface ServeOptions extends PolicyFlags {
  port: number;
  host: string;
  db?: string;
  corpusRoot?: string[];
  cors?: string[];
  queue?: boolean;
  model?: string;
  /** Minutes without a request after which a web UI sign-in ends (`--session-idle`). */
  sessionIdle?: number;
  /** Hours after sign-in at which a web UI sign-in ends (`--session-max`). */
  sessionMax?: number;
  search?: string;
  rateLimit?: number;
  maxRuns?: number;
  maxBody?: number;
  config?: string | false;
  quiet?: boolean;
}

const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);

/** Serves until SIGINT or SIGTERM; then cancels the runs it drives, lets them publish and exits. */
export async function serveCommand(
  paths: DataPaths,
  options: ServeOptions,
  environment: Record<string, string | undefined>,
): Promise<number> {
  const log = (line: string) => {
    if (!options.quiet) process.stderr.write(`assay serve: ${line}\n`);
  };
  if (options.queue && !(options.db && isPostgresUrl(options.db)))
    throw new UserError("--queue needs a PostgreSQL database: --db postgres://…");
  const corpusRoots: string[] = [];
  for (const root of options.corpusRoot ?? []) {
    try {
      corpusRoots.push(await realpath(root));
    } catch {
      throw new UserError(`--corpus-root ${root} does not exist or cannot be read`);
    }
  }
  const defaultModel = modelSpec(options.model, environment);
  const configFile = readConfigFile({ explicit: options.config, home: paths.home });
  const policy = serverPolicy(defaultModel, configFile, options, environment);
  if (
    options.sessionIdle !== undefined &&
    options.sessionMax !== undefined &&
    options.sessionIdle > options.sessionMax * 60
  )
    throw new UserError("--session-idle is longer than --session-max: a sign-in would always end at --session-max");
  const store = await openStore(paths, options.db);
  let queue: PgBossQueue | undefined;
  try {
    if (options.queue && options.db) queue = await openPgBossQueue({ url: options.db });
  } catch (error) {
    await store.close();
    throw error;
  }
  const openQueue = queue;
  const { app, drives } = createHttpApp({
    store,
    artifacts: artifactStoreFor(store),
    runtimeFor: (model) => buildRuntime(paths, store, resolveModel(model, environment), environment),
    defaultModel,
    policy,
    sessions: {
      ...(options.sessionIdle === undefined ? {} : { idleMs: options.sessionIdle * 60_000 }),
      ...(options.sessionMax === undefined ? {} : { absoluteMs: options.sessionMax * 3_600_000 }),
    },
    corpusRoots,
    ...(configFile === undefined ? {} : { configFile }),
    ...(options.search === undefined ? {} : { search: options.search }),
    ...(openQueue
      ? {
          enqueue: async (runId: number) => {
            await openQueue.enqueue(runId, DEFAULT_RETRY_POLICY);
          },
        }
      : {}),
    ...(options.cors === undefined ? {} : { corsOrigins: options.cors }),
    limits: {
      requestsPerMinute: options.rateLimit ?? DEFAULT_LIMITS.requestsPerMinute,
      concurrentRuns: options.maxRuns ?? DEFAULT_LIMITS.concurrentRuns,
      maxBodyBytes: options.maxBody ?? DEFAULT_LIMITS.maxBodyBytes,
    },
    log,
  });
  if (!LOOPBACK.has(options.host))
    log(`listening on ${options.host}, not only on this machine: put a TLS proxy in front (tokens travel in headers)`);
  const server = await new Promise<ServerType>((resolve, reject) => {
    const started = serve({ fetch: app.fetch, port: options.port, hostname: options.host }, (info) => {
      const host = info.family === "IPv6" ? `[${info.address}]` : info.address;
      process.stdout.write(
        `Listening on http://${host}:${info.port} (web UI: /, API description: /api/openapi.json)\n`,
      );
      resolve(started);
    });
    started.once("error", reject);
  }).catch(async (error: unknown) => {
    await openQueue?.close();
    await store.close();
    throw new UserError(
      `cannot listen on ${options.host}:${options.port}: ${error instanceof Error ? error.message : String(error)}`,
    );
  });
  if (corpusRoots.length === 0) log("no --corpus-root: corpus runs are refused (web runs only)");
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      log("stopping: the runs in progress publish what they have");
      resolve();
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  await drives.shutdown();
  // Event streams of runs that ended have closed; those of other processes' runs are cut.
  if ("closeAllConnections" in server) server.closeAllConnections();
  await closed;
  await openQueue?.close();
  await store.close();
  return 0;
}
