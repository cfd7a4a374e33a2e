/**
 * The HTTP API (`assay serve`): runs owned by the user of the caller's API token, created,
 * listed, followed live (Server-Sent Events), read (reports), cancelled, resumed and exported.
 * Built from injected dependencies, so that tests call it in-process with `app.request()`.
 */
import { createHash } from "node:crypto";
import { OpenAPIHono } from "@hono/zod-openapi";
import type { Context, Next } from "hono";
import { bodyLimit } from "hono/body-limit";
import { cors } from "hono/cors";
import { secureHeaders } from "hono/secure-headers";
import { streamSSE } from "hono/streaming";
import type { z } from "zod";
import { UserError } from "../../core/errors.js";
import { atifTrajectory } from "../../core/investigative/atif.js";
import type { ArtifactStore } from "../../ports/artifact-store.js";
import { isQueued, type RunRecord, type Store } from "../../ports/store.js";
import type { Runtime } from "../../runtime/runtime.js";
import type { ConfigFile } from "../cli/config-file.js";
import { displayStatus } from "../cli/run-state.js";
import { investigationDocument } from "../cli/runs-commands.js";
import { errorBody, errorResponse, HttpError, runNotFound } from "./errors.js";
import { RateLimiter, type RateLimitSettings } from "./rate-limit.js";
import { requestFromBody } from "./run-body.js";
import { RunDrives } from "./run-drives.js";
import { CreateRunBody, EventsHeaders, ExportQuery, ListQuery, RunIdParams, type RunView, routes } from "./schemas.js";
import { touchDue, verifyToken } from "./tokens.js";

export interface HttpLimits {
  /** Requests a minute per user (token bucket; bursts up to the same number). */
  requestsPerMinute: number;
  /** Runs a user may have queued or running at once. */
  concurrentRuns: number;
  /** Largest accepted request body, in bytes. */
  maxBodyBytes: number;
}

export const DEFAULT_LIMITS: HttpLimits = { requestsPerMinute: 120, concurrentRuns: 2, maxBodyBytes: 64 * 1024 };

export interface HttpAppOptions {
  store: Store;
  artifacts: ArtifactStore;
  /** The runtime that drives runs of a model spec (throws UserError for a spec it cannot build). */
  runtimeFor(model: string): Runtime;
  /** The model spec of a run whose body names none. */
  defaultModel: string;
  /** Real paths of the folders a corpus run may read (a run's folder must be one of them or inside one). */
  corpusRoots: readonly string[];
  /** The settings file, as `assay run` reads it. */
  configFile?: ConfigFile;
  /** The server's web search spec (`searxng:http://…`), used when a web run names its provider or none. */
  search?: string;
  /** With a job queue: runs are recorded queued and sent to it; workers drive them. */
  enqueue?: (runId: number) => Promise<void>;
  /** Origins allowed to call the API from a browser; none by default (no CORS headers). */
  corsOrigins?: readonly string[];
  limits?: Partial<HttpLimits>;
  rateLimit?: Partial<RateLimitSettings>;
  /** Milliseconds since the epoch (rate limits, token use); injectable for tests. */
  now?: () => number;
  /** How often the event stream polls the store. */
  pollMs?: number;
  /** How often a run this server drives is checked for a cancel requested by another server (default 2000 ms). */
  cancelPollMs?: number;
  log?: (line: string) => void;
}

type Env = { Variables: { userId: string } };

const terminal = (run: RunRecord): boolean => run.status !== "running";

/** The strictest policy that renders a report: no script, no fetch, only its own inline style (by hash). */
export function reportCsp(html: string): string {
  const hashes = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map(
    (match) =>
      `'sha256-${createHash("sha256")
        .update(match[1] ?? "", "utf8")
        .digest("base64")}'`,
  );
  return [
    "default-src 'none'",
    `style-src ${hashes.length > 0 ? hashes.join(" ") : "'none'"}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

function parsed<T extends z.ZodType>(schema: T, value: unknown, where: string): z.infer<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues;
  const first = issues[0];
  const path = (issue: (typeof issues)[number]) =>
    [where, ...issue.path.map(String), ...(issue.code === "unrecognized_keys" ? issue.keys.slice(0, 1) : [])]
      .filter((part) => part !== "")
      .join(".");
  throw new HttpError(
    400,
    "invalid_request",
    issues.map((issue) => `${path(issue) || where || "body"}: ${issue.message}`).join("; "),
    first ? { field: path(first) || where || "body" } : {},
  );
}

export function createHttpApp(options: HttpAppOptions): { app: OpenAPIHono<Env>; drives: RunDrives } {
  const { store } = options;
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const now = options.now ?? Date.now;
  const log = options.log ?? (() => {});
  const drives = new RunDrives(log);
  const limiter = new RateLimiter(
    {
      perMinute: options.rateLimit?.perMinute ?? limits.requestsPerMinute,
      ...(options.rateLimit?.burst === undefined ? {} : { burst: options.rateLimit.burst }),
    },
    now,
  );
  const pollMs = options.pollMs ?? 250;
  /**
   * For a run this server drives: every `cancelPollMs`, whether another server requested its
   * cancel; every 30 s, a heartbeat, by which servers on other hosts tell it from an interrupted run.
   */
  const watch = (runId: number) => {
    let beatAt = Number.NEGATIVE_INFINITY;
    return {
      everyMs: options.cancelPollMs ?? 2000,
      cancelRequested: async () => {
        if (now() - beatAt >= 30_000) {
          beatAt = now();
          await store.updateRun(runId, { heartbeatAt: new Date(beatAt).toISOString() });
        }
        return ((await store.getRun(runId))?.cancelRequestedAt ?? "") !== "";
      },
    };
  };
  /** Per user, the tail of the chain of creations waiting for their turn. */
  const userLocks = new Map<string, Promise<void>>();
  const lockUser = async (userId: string): Promise<() => void> => {
    const previous = userLocks.get(userId) ?? Promise.resolve();
    let release: () => void = () => {};
    const mine = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = previous.then(() => mine);
    userLocks.set(userId, tail);
    await previous;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      release();
      if (userLocks.get(userId) === tail) userLocks.delete(userId);
    };
  };

  const app = new OpenAPIHono<Env>();
  app.openAPIRegistry.registerComponent("securitySchemes", "bearer", {
    type: "http",
    scheme: "bearer",
    description: "An API token from `assay tokens create`",
  });
  for (const route of routes) app.openAPIRegistry.registerPath(route);

  app.use(
    "*",
    secureHeaders({
      contentSecurityPolicy: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
      xFrameOptions: "DENY",
      referrerPolicy: "no-referrer",
      overwrite: false,
    }),
  );
  if (options.corsOrigins && options.corsOrigins.length > 0) {
    app.use(
      "/api/*",
      cors({
        origin: [...options.corsOrigins],
        allowMethods: ["GET", "POST"],
        allowHeaders: ["Authorization", "Content-Type", "Last-Event-ID"],
        maxAge: 600,
      }),
    );
  }
  app.use("*", async (c, next) => {
    await next();
    if (!c.res.headers.has("Cache-Control")) c.header("Cache-Control", "no-store");
  });
  app.onError((error, c) => {
    if (error instanceof HttpError) return errorResponse(c, error);
    if (error instanceof UserError) return c.json(errorBody("invalid_request", error.message), 400);
    log(
      `internal error on ${c.req.method} ${c.req.path}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    return c.json(errorBody("internal", "internal error; the server's log has the details"), 500);
  });
  app.notFound((c) =>
    c.json(
      errorBody("not_found", `no such endpoint: ${c.req.method} ${c.req.path}; GET /api/openapi.json lists them`),
      404,
    ),
  );

  app.doc("/api/openapi.json", {
    openapi: "3.0.0",
    info: {
      title: "Assay HTTP API",
      version: "1",
      description: "Evidence-first research runs, owned by the user of the caller's API token.",
    },
  });

  const authenticate = async (c: Context<Env>, next: Next) => {
    const header = c.req.header("Authorization") ?? "";
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    const challenge = { "WWW-Authenticate": 'Bearer realm="assay"' };
    if (!match?.[1])
      throw new HttpError(
        401,
        "unauthorized",
        "send an API token: Authorization: Bearer assay_… (assay tokens create)",
        {
          headers: challenge,
        },
      );
    const token = await verifyToken(store, match[1]);
    if (!token)
      throw new HttpError(
        401,
        "unauthorized",
        "the API token is unknown or revoked; create one with assay tokens create",
        {
          headers: challenge,
        },
      );
    const decision = limiter.take(token.userId);
    if (!decision.allowed)
      throw new HttpError(
        429,
        "rate_limited",
        `too many requests: at most ${limiter.describe()}; retry after ${decision.retryAfterSeconds} s`,
        { headers: { "Retry-After": String(decision.retryAfterSeconds) } },
      );
    if (touchDue(token, now())) await store.touchApiToken(token.id, new Date(now()).toISOString());
    c.set("userId", token.userId);
    await next();
  };
  app.use("/api/*", async (c, next) => (c.req.path === "/api/openapi.json" ? next() : authenticate(c, next)));
  app.use(
    "/api/*",
    bodyLimit({
      maxSize: limits.maxBodyBytes,
      onError: (c) =>
        c.json(errorBody("body_too_large", `the request body is larger than ${limits.maxBodyBytes} bytes`), 413),
    }),
  );

  const statusOf = (run: RunRecord): RunView["status"] =>
    drives.has(run.id) && run.status === "running" ? "running" : displayStatus(run, now());

  const view = (run: RunRecord): RunView => {
    const self = `/api/runs/${run.id}`;
    return {
      id: run.id,
      status: statusOf(run),
      artifactStatus: run.artifactStatus,
      question: run.request.question,
      strategy: run.request.strategy,
      model: run.request.model,
      language: run.request.language,
      scope: { kind: run.request.scope.kind, label: run.request.scope.label },
      budgets: { ...run.request.budgets },
      error: run.error,
      cancelRequestedAt: run.cancelRequestedAt ?? "",
      createdAt: run.createdAt,
      finishedAt: run.finishedAt,
      links: {
        self,
        events: `${self}/events`,
        reportJson: `${self}/report.json`,
        reportMarkdown: `${self}/report.md`,
        reportHtml: `${self}/report.html`,
      },
    };
  };

  /** The caller's run, or 404 (also for another user's run: the answer does not say it exists). */
  const ownRun = async (c: Context<Env>): Promise<RunRecord> => {
    const { id } = parsed(RunIdParams, { id: c.req.param("id") }, "");
    const run = await store.getRun(id);
    if (!run || (run.userId ?? "local") !== c.get("userId")) throw runNotFound(c.req.param("id") ?? "");
    return run;
  };

  const activeRuns = async (userId: string): Promise<number> => {
    const runs = await store.listRuns({ userId, limit: 1000 });
    const active = runs.filter((run) => {
      const status = statusOf(run);
      return status === "running" || status === "queued";
    });
    return active.length;
  };

  const runtimeFor = (model: string): Runtime => {
    try {
      return options.runtimeFor(model);
    } catch (error) {
      if (error instanceof UserError) throw new HttpError(400, "invalid_request", error.message, { field: "model" });
      throw error;
    }
  };

  app.post("/api/runs", async (c) => {
    const userId = c.get("userId");
    let raw: unknown;
    try {
      raw = await c.req.json();
    } catch {
      throw new HttpError(
        400,
        "invalid_json",
        "the body is not JSON; send Content-Type: application/json and a JSON object",
        {
          field: "body",
        },
      );
    }
    const body = parsed(CreateRunBody, raw, "");
    // One creation of a user at a time in this process: the limit check and the new row go together.
    const release = await lockUser(userId);
    try {
      if ((await activeRuns(userId)) >= limits.concurrentRuns)
        throw new HttpError(
          429,
          "too_many_runs",
          `you have ${limits.concurrentRuns} runs queued or running, the most this server allows; wait for one to finish or cancel one`,
          { headers: { "Retry-After": "30" } },
        );
      const model = body.model ?? options.defaultModel;
      // Built now, so that a spec the server cannot run is refused before the run is recorded.
      const runtime = options.enqueue ? undefined : runtimeFor(model);
      const request = await requestFromBody(body, {
        model,
        corpusRoots: options.corpusRoots,
        file: options.configFile,
        ...(options.search === undefined ? {} : { search: options.search }),
      });
      // Recorded as queued (no worker) with its owner; this server or a worker starts it.
      const run = await store.createRun(request, {
        originAt: new Date(now()).toISOString(),
        worker: "",
        userId,
      });
      release();
      if (options.enqueue) {
        try {
          await options.enqueue(run.id);
        } catch (error) {
          await store.updateRun(run.id, {
            status: "failed",
            error: `the run could not be queued: ${error instanceof Error ? error.message : String(error)}`,
            finishedAt: new Date(now()).toISOString(),
          });
          throw error;
        }
      } else if (runtime) drives.start(run.id, (signal) => runtime.start(run.id, { signal }), watch(run.id));
      c.header("Location", `/api/runs/${run.id}`);
      return c.json(view((await store.getRun(run.id)) ?? run), 201);
    } finally {
      release();
    }
  });

  app.get("/api/runs", async (c) => {
    const query = parsed(ListQuery, c.req.query(), "query");
    const runs = await store.listRuns({ userId: c.get("userId"), limit: query.limit });
    return c.json({ runs: runs.map(view) });
  });

  app.get("/api/runs/:id", async (c) => c.json(view(await ownRun(c))));

  app.get("/api/runs/:id/events", async (c) => {
    const run = await ownRun(c);
    const headers = parsed(EventsHeaders, { "last-event-id": c.req.header("Last-Event-ID") }, "");
    let after = Number(headers["last-event-id"] ?? 0);
    let aborted = false;
    return streamSSE(
      c,
      async (stream) => {
        stream.onAbort(() => {
          aborted = true;
        });
        let endedPolls = 0;
        let status = statusOf(run);
        while (!aborted) {
          const current = await store.getRun(run.id);
          status = current ? statusOf(current) : "failed";
          const ended = !current || terminal(current) || status === "interrupted";
          let finished = false;
          for (const event of await store.listEvents(run.id, { afterSeq: after })) {
            await stream.writeSSE({ id: String(event.seq), event: event.type, data: JSON.stringify(event) });
            after = event.seq;
            if (event.type === "run-finished") finished = true;
          }
          // run-finished is written just after the terminal status (and a requeued run goes on after
          // an earlier one): an ended run stops at it, or after one more poll when it has none.
          if (ended && (finished || ++endedPolls > 1)) break;
          await stream.sleep(pollMs);
        }
        if (!aborted) await stream.writeSSE({ event: "end", data: JSON.stringify({ runId: run.id, status }) });
      },
      async (error) => {
        // A client that went away ends its stream; anything else is logged.
        if (!aborted) log(`the event stream of run ${run.id} failed: ${error.message}`);
      },
    );
  });

  const reportRoute = (extension: "json" | "md" | "html", type: string) =>
    app.get(`/api/runs/:id/report.${extension}`, async (c) => {
      const run = await ownRun(c);
      const current =
        run.artifactStatus === ""
          ? undefined
          : await options.artifacts.current({ runId: run.id, outDir: run.request.outDir });
      if (!current)
        throw new HttpError(
          404,
          "no_report",
          `run ${run.id} has no published report yet; follow /api/runs/${run.id}/events until preliminary-published or final-published`,
        );
      const text =
        extension === "json" ? current.files.json : extension === "md" ? current.files.markdown : current.files.html;
      c.header("Content-Type", `${type}; charset=utf-8`);
      c.header("X-Report-Version", current.version);
      if (extension === "html") c.header("Content-Security-Policy", reportCsp(text));
      return c.body(text, 200);
    });
  reportRoute("json", "application/json");
  reportRoute("md", "text/markdown");
  reportRoute("html", "text/html");

  app.post("/api/runs/:id/cancel", async (c) => {
    const run = await ownRun(c);
    if (terminal(run))
      throw new HttpError(409, "run_ended", `run ${run.id} is ${run.status}; there is nothing to cancel`);
    if (drives.cancel(run.id, "cancelled through the HTTP API")) return c.json(view(run), 202);
    const at = new Date(now()).toISOString();
    if (isQueued(run) && !options.enqueue) {
      // Recorded by a server that stopped before starting it: nothing will start it now.
      await store.updateRun(run.id, {
        status: "failed",
        error: "cancelled before it started",
        finishedAt: at,
        cancelRequestedAt: at,
      });
    } else if (statusOf(run) === "interrupted") {
      throw new HttpError(
        409,
        "run_interrupted",
        `run ${run.id} is interrupted: no process drives it, so there is nothing to cancel; resume it to publish its report`,
      );
    } else if (!run.cancelRequestedAt) {
      // Another process drives it (a worker, another server): it reads the request and cancels the run.
      await store.updateRun(run.id, { cancelRequestedAt: at });
    }
    return c.json(view((await store.getRun(run.id)) ?? run), 202);
  });

  app.post("/api/runs/:id/resume", async (c) => {
    // One at a time per user, so that two resumes of one run cannot both start it.
    const release = await lockUser(c.get("userId"));
    try {
      return await resume(c);
    } finally {
      release();
    }
  });

  const resume = async (c: Context<Env>) => {
    const run = await ownRun(c);
    if (drives.has(run.id)) throw new HttpError(409, "run_active", `run ${run.id} is running in this server`);
    if (terminal(run))
      throw new HttpError(409, "run_ended", `run ${run.id} is ${run.status}; only an interrupted run can be resumed`);
    if (options.enqueue)
      throw new HttpError(
        409,
        "workers_resume",
        `run ${run.id} belongs to the job queue: a worker resumes it when its lease runs out (assay queue retry for a dead-lettered one)`,
      );
    const userId = c.get("userId");
    if ((await activeRuns(userId)) >= limits.concurrentRuns + (statusOf(run) === "queued" ? 1 : 0))
      throw new HttpError(
        429,
        "too_many_runs",
        `you have ${limits.concurrentRuns} runs running; wait for one to finish`,
        {
          headers: { "Retry-After": "30" },
        },
      );
    const runtime = runtimeFor(run.request.model);
    if (isQueued(run)) drives.start(run.id, (signal) => runtime.start(run.id, { signal }), watch(run.id));
    else if (displayStatus(run, now()) === "interrupted")
      drives.start(run.id, (signal) => runtime.resume(run.id, { signal }), watch(run.id));
    else
      throw new HttpError(
        409,
        "run_active",
        `run ${run.id} is still running in another process (${run.worker}); it cannot be resumed twice`,
      );
    return c.json(view((await store.getRun(run.id)) ?? run), 202);
  };

  app.get("/api/runs/:id/export", async (c) => {
    const run = await ownRun(c);
    const query = parsed(ExportQuery, c.req.query(), "query");
    const document =
      query.format === "atif"
        ? atifTrajectory(run, await store.listEvents(run.id))
        : await investigationDocument(store, run);
    return c.json(document as Record<string, unknown>);
  });

  return { app, drives };
}
