/**
 * The HTTP API's request and response shapes (zod), and its routes as OpenAPI route
 * definitions: the handlers validate with these schemas and `GET /api/openapi.json` is
 * generated from these definitions.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { searchProviderIds } from "../../adapters/search/search-specs.js";
import { DEFAULT_BUDGETS } from "../../core/budgets.js";
import { STRATEGY_NAMES } from "../../ports/store.js";

/** Web search providers a remote user may name (the server's own settings give their URLs and keys), or `auto`. */
export const WEB_PROVIDERS = ["auto", ...searchProviderIds] as const;

const budgetShape = {
  ...(Object.fromEntries(
    Object.keys(DEFAULT_BUDGETS).map((name) => [name, z.number().int().nonnegative().optional()]),
  ) as Record<keyof typeof DEFAULT_BUDGETS, z.ZodOptional<z.ZodNumber>>),
  maxCostUsd: z.number().positive().optional().openapi({ description: "Model spend limit of the run, in USD" }),
};

export const CreateRunBody = z
  .strictObject({
    question: z
      .string()
      .trim()
      .min(1, "the question is empty")
      .max(4000, "the question is longer than 4000 characters"),
    scope: z.discriminatedUnion(
      "kind",
      [
        z.strictObject({
          kind: z.literal("corpus"),
          path: z.string().min(1).openapi({
            description: "A folder under one of the server's corpus roots (absolute, or relative to the first)",
          }),
        }),
        z.strictObject({ kind: z.literal("web"), provider: z.enum(WEB_PROVIDERS).optional() }),
        z.strictObject({
          kind: z.literal("hybrid"),
          path: z.string().min(1).openapi({
            description: "A folder under one of the server's corpus roots, researched together with the web",
          }),
          provider: z.enum(WEB_PROVIDERS).optional(),
        }),
        z
          .strictObject({ kind: z.literal("library") })
          .openapi({ description: "Your library: the sources your earlier runs read (no fetch)" }),
      ],
      {
        error:
          'expected {"kind": "corpus", "path": "…"}, {"kind": "web", "provider": "auto" (optional)}, {"kind": "hybrid", "path": "…", "provider": … (optional)} or {"kind": "library"}',
      },
    ),
    strategy: z.enum(STRATEGY_NAMES).default("pipeline"),
    model: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .optional()
      .openapi({ description: "offline, none or provider:model-name (default: the server's)" }),
    language: z
      .string()
      .regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$/, "expected a language code such as en or pt-BR")
      .default("en"),
    budgets: z.strictObject(budgetShape).optional().openapi({ description: "Budgets to set (docs/configuration.md)" }),
    investigation: z
      .record(z.string().regex(/^[a-z_]+$/, "expected a knob name such as max_depth"), z.number())
      .optional()
      .openapi({ description: 'Investigative knobs (strategy investigative only), e.g. {"max_depth": 2}' }),
  })
  .openapi("CreateRun");
export type CreateRunBody = z.infer<typeof CreateRunBody>;

export const RunView = z
  .object({
    id: z.number().int(),
    status: z.enum(["queued", "running", "interrupted", "finished", "failed"]),
    artifactStatus: z.string(),
    question: z.string(),
    strategy: z.string(),
    model: z.string(),
    language: z.string(),
    scope: z.object({ kind: z.enum(["corpus", "web", "hybrid", "library"]), label: z.string() }),
    budgets: z.record(z.string(), z.number()),
    error: z.string(),
    cancelRequestedAt: z.string().openapi({ description: "When a cancel was requested ('' when none was)" }),
    lineage: z
      .object({ parentId: z.number().int(), relation: z.enum(["follow-up", "revision"]), instruction: z.string() })
      .nullable()
      .openapi({
        description: "The run this one continues (a follow-up or a revision of its report); null for a new research",
      }),
    createdAt: z.string(),
    finishedAt: z.string(),
    links: z.object({
      self: z.string(),
      events: z.string(),
      reportJson: z.string(),
      reportMarkdown: z.string(),
      reportHtml: z.string(),
      reportPdf: z.string(),
      reportDocx: z.string(),
      followUps: z.string(),
      revisions: z.string(),
      diff: z.string(),
    }),
  })
  .openapi("Run");
export type RunView = z.infer<typeof RunView>;

export const ErrorView = z
  .object({
    error: z.object({
      code: z.string(),
      message: z.string(),
      field: z.string().optional().openapi({ description: "The request field that was wrong" }),
    }),
  })
  .openapi("Error");

export const RunIdParams = z.object({
  id: z.coerce
    .number()
    .int()
    .positive()
    .openapi({ param: { name: "id", in: "path" }, example: 1 }),
});

const UsageFigures = z.object({
  generations: z.number().int(),
  inputTokens: z.number().int(),
  outputTokens: z.number().int(),
  costUsd: z.number().nullable().openapi({ description: "null when a model call's price is not known" }),
  knownCostUsd: z.number().openapi({ description: "The part of the spend whose price is known" }),
  unpriced: z.number().int().openapi({ description: "Model calls of unknown price" }),
});

export const UsageView = z
  .object({
    user: z.string(),
    today: UsageFigures.extend({ since: z.string().openapi({ description: "00:00 UTC today" }) }),
    total: UsageFigures,
    limits: z.object({ costUsdPerRun: z.number().optional(), costUsdPerDay: z.number().optional() }),
  })
  .openapi("Usage");
export type UsageView = z.infer<typeof UsageView>;

const childText = (what: string) =>
  z.string().trim().min(1, `the ${what} is empty`).max(4000, `the ${what} is longer than 4000 characters`);
const childModel = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .optional()
  .openapi({ description: "offline, none or provider:model-name (default: the run's)" });

export const FollowUpBody = z.strictObject({ question: childText("question"), model: childModel }).openapi("FollowUp");
export type FollowUpBody = z.infer<typeof FollowUpBody>;

export const RevisionBody = z
  .strictObject({ instruction: childText("instruction"), model: childModel })
  .openapi("Revision");
export type RevisionBody = z.infer<typeof RevisionBody>;

const version = z.coerce.number().int().positive();
export const DiffQuery = z.object({
  from: version.optional().openapi({ description: "The older version (default: the one before `to`)" }),
  to: version.optional().openapi({ description: "The newer version (default: the run's own)" }),
});

export const LibraryQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(50),
});

export const LibrarySearchQuery = z.object({
  q: z.string().trim().min(1, "give words to search for").max(1000),
  limit: z.coerce.number().int().min(1).max(100).default(10),
});

export const LibraryIdParams = z.object({
  id: z.coerce
    .number()
    .int()
    .positive()
    .openapi({ param: { name: "id", in: "path" }, example: 1 }),
});

export const ListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export const ExportQuery = z.object({
  format: z.enum(["json", "atif"]).default("json"),
});

export const EventsHeaders = z.object({
  "last-event-id": z
    .string()
    .regex(/^\d+$/, "expected the seq of the last event received")
    .optional()
    .openapi({ description: "Replay from the event after this seq" }),
});

const json = (schema: z.ZodType, description: string) => ({
  content: { "application/json": { schema } },
  description,
});
const failures = {
  400: json(ErrorView, "The request is invalid; `field` names what was wrong"),
  401: json(ErrorView, "No valid API token (Authorization: Bearer assay_…)"),
  404: json(ErrorView, "No such run of yours"),
  429: json(ErrorView, "Rate limit or concurrent-run limit reached; see Retry-After"),
};
const bearer = [{ bearer: [] }];
const runPath = "/api/runs/{id}";

export const routes = [
  createRoute({
    method: "post",
    path: "/api/runs",
    summary: "Create a run: driven by this server (SQLite) or queued for workers (PostgreSQL with --queue)",
    security: bearer,
    request: { body: { content: { "application/json": { schema: CreateRunBody } }, required: true } },
    responses: {
      201: json(RunView, "The run was created"),
      ...failures,
      403: json(
        ErrorView,
        "A model the operator does not offer, a budget over its ceiling, or a day's cost limit spent (code daily_cost_over_limit); `field` names it",
      ),
      413: json(ErrorView, "The body is too large"),
    },
  }),
  createRoute({
    method: "get",
    path: "/api/runs",
    summary: "Your runs, newest first",
    security: bearer,
    request: { query: ListQuery },
    responses: { 200: json(z.object({ runs: z.array(RunView) }), "Your runs"), ...failures },
  }),
  createRoute({
    method: "get",
    path: "/api/usage",
    summary: "Your model spend: today (since 00:00 UTC) and in all, with this server's cost limits",
    security: bearer,
    responses: { 200: json(UsageView, "Your usage"), ...failures },
  }),
  createRoute({
    method: "get",
    path: runPath,
    summary: "One run",
    security: bearer,
    request: { params: RunIdParams },
    responses: { 200: json(RunView, "The run"), ...failures },
  }),
  createRoute({
    method: "get",
    path: `${runPath}/events`,
    summary:
      "The run's events as Server-Sent Events: stored ones from Last-Event-ID, then live ones until the run ends",
    security: bearer,
    request: { params: RunIdParams, headers: EventsHeaders },
    responses: {
      200: {
        content: { "text/event-stream": { schema: z.string() } },
        description: "One SSE message per event (id: seq, event: type, data: the event as JSON), then `end`",
      },
      ...failures,
    },
  }),
  ...(
    [
      ["json", "application/json"],
      ["md", "text/markdown"],
      ["html", "text/html"],
      ["pdf", "application/pdf"],
      ["docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"],
    ] as const
  ).map(([extension, type]) =>
    createRoute({
      method: "get",
      path: `${runPath}/report.${extension}`,
      summary: `The run's current report (${extension})`,
      security: bearer,
      request: { params: RunIdParams },
      responses: {
        200: { content: { [type]: { schema: z.string() } }, description: "The current published version" },
        ...failures,
      },
    }),
  ),
  ...(
    [
      [
        "follow-ups",
        FollowUpBody,
        "Ask a follow-up: a new run that starts with this run's sources (not fetched again) and says what it adds to its report",
      ],
      [
        "revisions",
        RevisionBody,
        "Revise the report: a new run publishes the next version of the newest version of this run's report, as the instruction asks",
      ],
    ] as const
  ).map(([path, schema, summary]) =>
    createRoute({
      method: "post",
      path: `${runPath}/${path}`,
      summary,
      security: bearer,
      request: { params: RunIdParams, body: { content: { "application/json": { schema } }, required: true } },
      responses: {
        201: json(RunView, "The new run"),
        ...failures,
        403: json(ErrorView, "A model the operator does not offer, or a cost limit spent"),
        409: json(ErrorView, "The run cannot be continued yet (still running, or no report)"),
      },
    }),
  ),
  createRoute({
    method: "get",
    path: `${runPath}/diff`,
    summary:
      "What changed between two versions of the run's report (findings, citations, gaps, sources), or between a follow-up's report and its parent's",
    security: bearer,
    request: { params: RunIdParams, query: DiffQuery },
    responses: {
      200: json(z.record(z.string(), z.unknown()), "from, to and the structural diff"),
      ...failures,
    },
  }),
  createRoute({
    method: "get",
    path: "/api/library",
    summary: "Your library: every source your runs read, each kept once, newest first",
    security: bearer,
    request: { query: LibraryQuery },
    responses: {
      200: json(z.object({ entries: z.array(z.record(z.string(), z.unknown())) }), "Your library"),
      ...failures,
    },
  }),
  createRoute({
    method: "get",
    path: "/api/library/search",
    summary: "Search your library as a library run would",
    security: bearer,
    request: { query: LibrarySearchQuery },
    responses: {
      200: json(z.object({ hits: z.array(z.record(z.string(), z.unknown())) }), "Ranked hits"),
      ...failures,
    },
  }),
  createRoute({
    method: "delete",
    path: "/api/library/{id}",
    summary: "Forget a library entry (the runs that cite it keep their copy)",
    security: bearer,
    request: { params: LibraryIdParams },
    responses: { 204: { description: "Forgotten" }, ...failures },
  }),
  createRoute({
    method: "post",
    path: `${runPath}/cancel`,
    summary:
      "Cancel a run: acquisition stops (at once here, or at the next heartbeat of the worker driving it) and the report is published from what is persisted",
    security: bearer,
    request: { params: RunIdParams },
    responses: {
      202: json(RunView, "Cancelling"),
      ...failures,
      409: json(ErrorView, "The run has ended, or is interrupted (nothing drives it)"),
    },
  }),
  createRoute({
    method: "post",
    path: `${runPath}/resume`,
    summary: "Continue an interrupted run in this server",
    security: bearer,
    request: { params: RunIdParams },
    responses: {
      202: json(RunView, "Resuming"),
      ...failures,
      409: json(ErrorView, "The run is not interrupted"),
    },
  }),
  createRoute({
    method: "get",
    path: `${runPath}/export`,
    summary: "The run's investigation as JSON (as `assay runs export`), or its trajectory (format=atif)",
    security: bearer,
    request: { params: RunIdParams, query: ExportQuery },
    responses: { 200: json(z.record(z.string(), z.unknown()), "The export"), ...failures },
  }),
];
