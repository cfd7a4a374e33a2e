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
import { HTTPException } from "hono/http-exception";
import { secureHeaders } from "hono/secure-headers";
import { streamSSE } from "hono/streaming";
import { libraryIndex } from "../../adapters/library/library-scope.js";
import { REPORT_FILE_FORMATS, renderReportFile } from "../../adapters/render/report-files.js";
import { UserError } from "../../core/errors.js";
import { atifTrajectory } from "../../core/investigative/atif.js";
import { parseReportDocument } from "../../core/report/report-document.js";
import type { RunRecord } from "../../ports/store.js";
import { investigationDocument } from "../cli/runs-commands.js";
import { compareReports } from "../lineage.js";
import { isUiPath, mountWebUi, uiErrorResponse } from "../web/routes.js";
import { DEFAULT_SESSION_LIFETIMES, type SessionLifetimes, sessionCookie, verifySession } from "../web/session.js";
import { errorBody, errorResponse, HttpError, parsed } from "./errors.js";
import { DEFAULT_LIMITS, type HttpLimits } from "./limits.js";
import { RateLimiter, type RateLimitSettings } from "./rate-limit.js";
import type { RunDrives } from "./run-drives.js";
import { createRunService, type RunServiceOptions } from "./run-service.js";
import {
  CreateRunBody,
  DiffQuery,
  EventsHeaders,
  ExportQuery,
  FollowUpBody,
  LibraryIdParams,
  LibraryQuery,
  LibrarySearchQuery,
  ListQuery,
  RevisionBody,
  routes,
} from "./schemas.js";
import { touchDue, verifyToken } from "./tokens.js";

/** The run service's dependencies (store, runtimes, roots, queue, …) and the server's own settings. */
export interface HttpAppOptions extends Omit<RunServiceOptions, "concurrentRuns" | "now" | "log"> {
  /** Origins allowed to call the API from a browser; none by default (no CORS headers). */
  corsOrigins?: readonly string[];
  limits?: Partial<HttpLimits>;
  rateLimit?: Partial<RateLimitSettings>;
  /** How long a web UI session lasts: 12 h from sign-in, 2 h without a request, by default. */
  sessions?: Partial<SessionLifetimes>;
  /** Milliseconds since the epoch (rate limits, token and session use, session expiry); injectable for tests. */
  now?: () => number;
  /** How often the event stream polls the store. */
  pollMs?: number;
  log?: (line: string) => void;
}

export type Env = { Variables: { userId: string } };

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

export function createHttpApp(options: HttpAppOptions): { app: OpenAPIHono<Env>; drives: RunDrives } {
  const { store } = options;
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const sessions = { ...DEFAULT_SESSION_LIFETIMES, ...options.sessions };
  const now = options.now ?? Date.now;
  const log = options.log ?? (() => {});
  const limiter = new RateLimiter(
    {
      perMinute: options.rateLimit?.perMinute ?? limits.requestsPerMinute,
      ...(options.rateLimit?.burst === undefined ? {} : { burst: options.rateLimit.burst }),
    },
    now,
  );
  const pollMs = options.pollMs ?? 250;
  const {
    corsOrigins: _cors,
    limits: _limits,
    rateLimit: _rate,
    pollMs: _poll,
    sessions: _sessions,
    ...serviceOptions
  } = options;
  const runs = createRunService({ ...serviceOptions, concurrentRuns: limits.concurrentRuns, now, log });
  const { drives, statusOf, view } = runs;

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
        allowMethods: ["GET", "POST", "DELETE"],
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
    if (error instanceof HTTPException) return error.getResponse();
    if (isUiPath(c.req.path)) return uiErrorResponse(c, error, log);
    if (error instanceof HttpError) return errorResponse(c, error);
    if (error instanceof UserError) return c.json(errorBody("invalid_request", error.message), 400);
    log(
      `internal error on ${c.req.method} ${c.req.path}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    return c.json(errorBody("internal", "internal error; the server's log has the details"), 500);
  });
  app.notFound((c) =>
    isUiPath(c.req.path)
      ? uiErrorResponse(c, new HttpError(404, "not_found", `there is no page ${c.req.path}`), log)
      : c.json(
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

  /**
   * The caller's user: from `Authorization: Bearer …`, or, for a GET from the web UI (the live
   * page's EventSource cannot send headers), from its session cookie. A POST needs the header:
   * the UI's own forms post to its routes, which check the request's origin.
   */
  const authenticate = async (c: Context<Env>, next: Next) => {
    const header = c.req.header("Authorization") ?? "";
    const secret = /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
    const session = secret === undefined && c.req.method === "GET" ? sessionCookie(c) : undefined;
    const challenge = { "WWW-Authenticate": 'Bearer realm="assay"' };
    if (!secret && !session)
      throw new HttpError(
        401,
        "unauthorized",
        "send an API token: Authorization: Bearer assay_… (assay tokens create)",
        {
          headers: challenge,
        },
      );
    const userId = secret ? (await tokenOf(secret))?.userId : await userOfSession(session ?? "");
    if (!userId)
      throw new HttpError(
        401,
        "unauthorized",
        secret
          ? "the API token is unknown or revoked; create one with assay tokens create"
          : "the web UI session has ended; sign in again, or send Authorization: Bearer assay_…",
        {
          headers: challenge,
        },
      );
    c.set("userId", userId);
    await next();
  };
  /** Spends one request of the user's rate limit; 429 when none is left. */
  const admit = (userId: string): void => {
    const decision = limiter.take(userId);
    if (!decision.allowed)
      throw new HttpError(
        429,
        "rate_limited",
        `too many requests: at most ${limiter.describe()}; retry after ${decision.retryAfterSeconds} s`,
        { headers: { "Retry-After": String(decision.retryAfterSeconds) } },
      );
  };
  /** The valid token of a secret (undefined when unknown or revoked); spends one request of its user's rate limit. */
  const tokenOf = async (secret: string) => {
    const token = await verifyToken(store, secret);
    if (!token) return undefined;
    admit(token.userId);
    if (touchDue(token, now())) await store.touchApiToken(token.id, new Date(now()).toISOString());
    return token;
  };
  /** The user of a web UI session (undefined when unknown or ended); spends one request of the user's rate limit. */
  const userOfSession = async (id: string): Promise<string | undefined> => {
    const session = await verifySession(store, id, now());
    if (!session) return undefined;
    admit(session.userId);
    if (touchDue(session, now())) await store.touchWebSession(session.id, new Date(now()).toISOString());
    return session.userId;
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

  /** The request's JSON body, or a 400 that says how to send one. */
  const jsonBody = async (c: Context<Env>): Promise<unknown> => {
    try {
      return await c.req.json();
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
  };
  const created = (c: Context<Env>, run: RunRecord) => {
    c.header("Location", `/api/runs/${run.id}`);
    return c.json(view(run), 201);
  };

  app.post("/api/runs", async (c) =>
    created(c, await runs.create(c.get("userId"), parsed(CreateRunBody, await jsonBody(c), ""))),
  );

  // A follow-up (its question) and a revision (its instruction) of the caller's run.
  app.post("/api/runs/:id/follow-ups", async (c) => {
    const body = parsed(FollowUpBody, await jsonBody(c), "");
    const id = c.req.param("id") ?? "";
    return created(
      c,
      await runs.continueRun(c.get("userId"), id, "follow-up", { text: body.question, model: body.model }),
    );
  });
  app.post("/api/runs/:id/revisions", async (c) => {
    const body = parsed(RevisionBody, await jsonBody(c), "");
    const id = c.req.param("id") ?? "";
    return created(
      c,
      await runs.continueRun(c.get("userId"), id, "revision", { text: body.instruction, model: body.model }),
    );
  });

  app.get("/api/runs/:id/diff", async (c) => {
    const run = await ownRun(c);
    const query = parsed(DiffQuery, c.req.query(), "query");
    try {
      return c.json(
        await compareReports(store, options.artifacts, run, {
          ...(query.from === undefined ? {} : { from: query.from }),
          ...(query.to === undefined ? {} : { to: query.to }),
        }),
      );
    } catch (error) {
      if (error instanceof UserError) throw new HttpError(409, "nothing_to_compare", error.message);
      throw error;
    }
  });

  app.get("/api/library", async (c) => {
    const query = parsed(LibraryQuery, c.req.query(), "query");
    return c.json({ entries: await store.listLibrary(c.get("userId"), { limit: query.limit }) });
  });

  app.get("/api/library/search", async (c) => {
    const query = parsed(LibrarySearchQuery, c.req.query(), "query");
    const index = await libraryIndex(store, c.get("userId"));
    try {
      return c.json({ hits: index.search(query.q, query.limit) });
    } finally {
      index.close();
    }
  });

  app.delete("/api/library/:id", async (c) => {
    const params = parsed(LibraryIdParams, { id: c.req.param("id") }, "");
    if (!(await store.forgetLibraryEntry(c.get("userId"), params.id)))
      throw new HttpError(404, "not_found", `there is no entry ${c.req.param("id")} in your library`);
    return c.body(null, 204);
  });

  app.get("/api/runs", async (c) => {
    const query = parsed(ListQuery, c.req.query(), "query");
    const listed = await store.listRuns({ userId: c.get("userId"), limit: query.limit });
    return c.json({ runs: listed.map(view) });
  });

  app.get("/api/usage", async (c) => c.json(await runs.usage(c.get("userId"))));

  /** The caller's run named in the path, or 404. */
  const ownRun = (c: Context<Env>): Promise<RunRecord> => runs.ownRun(c.get("userId"), c.req.param("id") ?? "");

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
          const ended = !current || current.status !== "running" || status === "interrupted";
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

  /** The run's current report, or a 404 that says how to learn when there is one. */
  const publishedReport = async (run: RunRecord) => {
    const current = await runs.currentReport(run);
    if (!current)
      throw new HttpError(
        404,
        "no_report",
        `run ${run.id} has no published report yet; follow /api/runs/${run.id}/events until preliminary-published or final-published`,
      );
    return current;
  };
  const reportRoute = (extension: "json" | "md" | "html", type: string) =>
    app.get(`/api/runs/:id/report.${extension}`, async (c) => {
      const run = await ownRun(c);
      const current = await publishedReport(run);
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
  // The PDF and Word projections, rendered from the current report on request.
  for (const format of ["pdf", "docx"] as const)
    app.get(`/api/runs/:id/report.${format}`, async (c) => {
      const run = await ownRun(c);
      const current = await publishedReport(run);
      const parsed = parseReportDocument(JSON.parse(current.files.json));
      if (!parsed.ok) throw new Error(`the stored report of run ${run.id} does not parse: ${parsed.error}`);
      const bytes = await renderReportFile(parsed.value, format);
      c.header("Content-Type", REPORT_FILE_FORMATS[format].contentType);
      c.header("Content-Disposition", `attachment; filename="assay-run-${run.id}.${format}"`);
      c.header("X-Report-Version", current.version);
      return c.body(new Uint8Array(bytes), 200);
    });

  app.post("/api/runs/:id/cancel", async (c) => c.json(view(await runs.cancel(await ownRun(c))), 202));

  app.post("/api/runs/:id/resume", async (c) =>
    c.json(view(await runs.resume(c.get("userId"), c.req.param("id") ?? "")), 202),
  );

  app.get("/api/runs/:id/export", async (c) => {
    const run = await ownRun(c);
    const query = parsed(ExportQuery, c.req.query(), "query");
    const document =
      query.format === "atif"
        ? atifTrajectory(run, await store.listEvents(run.id))
        : await investigationDocument(store, run);
    return c.json(document as Record<string, unknown>);
  });

  mountWebUi(app, {
    store,
    artifacts: options.artifacts,
    runs,
    tokenOf,
    userOfSession,
    sessions,
    corpusRoots: options.corpusRoots,
    defaultModel: options.defaultModel,
    maxBodyBytes: limits.maxBodyBytes,
    now,
  });

  return { app, drives };
}
