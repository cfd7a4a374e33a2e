/**
 * Assay as an MCP server: a `research` tool that runs a research through the runtime and
 * reports progress, `ask_follow_up` and `revise_report` that continue a run the same way,
 * `diff_report`, `get_report`, `list_runs` and `search_library`, and the published reports as
 * resources, all for one user (`McpServices.user`): another user's run does not exist for the
 * client, and another user's library is not searched. Transport-free: `mcp-command.ts`
 * connects it to stdio or streamable HTTP.
 */
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  type CallToolResult,
  McpError,
  type ReadResourceResult,
  type ServerNotification,
  type ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { libraryEntryLocation, libraryIndex } from "../../adapters/library/library-scope.js";
import type { Budgets } from "../../core/budgets.js";
import { UserError } from "../../core/errors.js";
import type { ArtifactFiles, ArtifactStore } from "../../ports/artifact-store.js";
import type { Model } from "../../ports/model.js";
import {
  type EvidenceScope,
  isQueued,
  ownerOf,
  type RunEvent,
  type RunRecord,
  type RunRelation,
  type RunRequest,
  STRATEGY_NAMES,
  type Store,
} from "../../ports/store.js";
import type { RunOptions, RunOutcome, Runtime } from "../../runtime/runtime.js";
import { version } from "../../version.js";
import type { ConfigFile } from "../cli/config-file.js";
import { modelSpec, resolveModel } from "../cli/model-choice.js";
import { buildRequest, type RunCommandOptions } from "../cli/run-request.js";
import { displayStatus } from "../cli/run-state.js";
import { describeEvent } from "../event-lines.js";
import { childRequest, compareReports, diffLines, newestVersion } from "../lineage.js";
import { checkModel, type RunPolicy, underPolicy } from "../run-policy.js";
import { spendOf } from "../user-spend.js";
import { allowedCorpus } from "./corpus-roots.js";

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** Research runs in progress in this process: stopped (and published) when the server shuts down. */
export class ActiveResearch {
  readonly #controller = new AbortController();
  readonly #running = new Set<Promise<unknown>>();

  /** Aborted when the server shuts down. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  track<T>(work: Promise<T>): Promise<T> {
    this.#running.add(work);
    const forget = (): void => {
      this.#running.delete(work);
    };
    work.then(forget, forget);
    return work;
  }

  /** Cancels every run in progress and waits for their publications. */
  async stop(): Promise<void> {
    this.#controller.abort(new Error("the MCP server is shutting down"));
    await Promise.allSettled([...this.#running]);
  }
}

export interface McpServices {
  /** The one user the server acts as: it lists, reads and creates only this user's runs. */
  user: string;
  store: Store;
  artifacts: ArtifactStore;
  /** The runtime of one research, with its model (undefined: `none`). */
  runtimeFor: (model: Model | undefined) => Runtime;
  environment: Record<string, string | undefined>;
  /** Real absolute paths of the folders a client may research (see corpus-roots.ts). */
  corpusRoots: readonly string[];
  /** The server's `--model` (else ASSAY_MODEL, else offline) and `--search`, and its settings file. */
  defaults: { model?: string; search?: string; config: ConfigFile | undefined };
  /** The operator's policy: the models the user may pick, budget ceilings per run, cost per day (default: the server's model only). */
  policy?: RunPolicy;
  research: ActiveResearch;
  /** A line for the server's log (stderr: stdout is the protocol in stdio mode). */
  log: (line: string) => void;
}

export const REPORT_FORMATS = ["markdown", "json", "html"] as const;
type ReportFormat = (typeof REPORT_FORMATS)[number];

const EXTENSIONS = { markdown: "md", json: "json", html: "html" } as const;
const MIME_TYPES = { markdown: "text/markdown", json: "application/json", html: "text/html" } as const;

/** `assay://runs/<id>/report.md` (or `.json`, `.html`). */
export function reportUri(runId: number, format: ReportFormat = "markdown"): string {
  return `assay://runs/${runId}/report.${EXTENSIONS[format]}`;
}

/**
 * Progress notifications for the request's progress token: one step per persisted source and a
 * last one for the report (`total` = max sources + 1). Between two sources each notification
 * moves halfway to the next whole step, so `progress` strictly increases as the protocol
 * requires. Notifications are sent in order; `flush` waits for them (before the result).
 * Sources are counted by their `source-persisted` events, the run's own reads, as the budget
 * counts them: a follow-up's `persisted` also counts the parent's sources it found again.
 */
export function progressReporter(
  extra: Pick<Extra, "_meta" | "sendNotification">,
  maxSources: number,
): { listener: (event: RunEvent) => void; flush: () => Promise<void> } | undefined {
  const token = extra._meta?.progressToken;
  if (token === undefined) return undefined;
  const total = maxSources + 1;
  let sources = 0;
  let last: number | undefined;
  let chain: Promise<void> = Promise.resolve();
  const next = (event: RunEvent): number | undefined => {
    if (event.type === "run-finished") return last === undefined || total > last ? total : undefined;
    if (last === undefined || sources > last) return sources;
    const value = last + (Math.floor(last) + 1 - last) / 2;
    return value > last && value < total ? value : undefined;
  };
  return {
    listener: (event) => {
      if (event.type === "source-persisted") sources += 1;
      const line = describeEvent(event);
      if (line === undefined) return;
      const progress = next(event);
      if (progress === undefined) return;
      last = progress;
      const message = `${line} (${sources}/${maxSources} sources)`;
      chain = chain
        .then(() =>
          extra.sendNotification({
            method: "notifications/progress",
            params: { progressToken: token, progress, total, message },
          }),
        )
        .catch(() => undefined);
    },
    flush: () => chain,
  };
}

const researchInput = {
  question: z.string().describe("The research question (at most 4000 characters)."),
  corpus: z
    .string()
    .optional()
    .describe(
      "A folder of documents to research (text, Markdown, HTML, PDF, Office, CSV, EPUB, notebooks, mail), inside the server's corpus roots.",
    ),
  web: z
    .boolean()
    .optional()
    .describe("Research the web: instead of a folder, or together with the folder given as corpus."),
  strategy: z.enum(STRATEGY_NAMES).optional().describe("How the research is driven (default: pipeline)."),
  model: z
    .string()
    .optional()
    .describe("offline (the embedded extractive engine), none, or provider:model-name (default: the server's)."),
  max_sources: z.number().int().positive().optional().describe("At most this many persisted sources (default 8)."),
  timeout_seconds: z.number().positive().optional().describe("Wall-clock limit of the run (default 300)."),
  language: z.string().optional().describe('Report language code (default "en").'),
};

type ResearchArgs = {
  question: string;
  corpus?: string | undefined;
  web?: boolean | undefined;
  strategy?: (typeof STRATEGY_NAMES)[number] | undefined;
  model?: string | undefined;
  max_sources?: number | undefined;
  timeout_seconds?: number | undefined;
  language?: string | undefined;
};

const runIdInput = z.number().int().positive().describe("The run id (research returns it; list_runs lists them).");

/** What a follow-up or a revision may set besides its text: the rest is the run's it continues. */
const continuationInput = {
  model: z
    .string()
    .optional()
    .describe("offline (the embedded extractive engine), none, or provider:model-name (default: the run's model)."),
  max_sources: z
    .number()
    .int()
    .positive()
    .optional()
    .describe("At most this many new sources (the run's own are free; default: the run's budget)."),
  timeout_seconds: z.number().positive().optional().describe("Wall-clock limit of the run (default: the run's)."),
};

type ContinuationArgs = {
  run_id: number;
  model?: string | undefined;
  max_sources?: number | undefined;
  timeout_seconds?: number | undefined;
};

/** Which run a follow-up or a revision continues: `parentId`, the newest version of the report of `askedId` for a revision. */
type Continuation = { relation: RunRelation; parentId: number; askedId: number };

/**
 * The shared lineage code words some errors for the command line (`--from 3: …`,
 * `assay revise 1 "…"`); a client of this server knows the arguments and the tools instead.
 */
function toolWording(error: unknown): unknown {
  if (!(error instanceof UserError)) return error;
  const message = error.message
    .replace(/^--(from|to) /, "$1 ")
    .replace(/ \(assay revise \d+ "…"\)$/, " with revise_report");
  return message === error.message ? error : new UserError(message);
}

function errorResult(message: string): CallToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
}

export function buildMcpServer(services: McpServices): McpServer {
  const { store, artifacts } = services;
  const roots = services.corpusRoots.length > 0 ? services.corpusRoots.join(", ") : "none";
  const server = new McpServer(
    { name: "assay", version },
    {
      instructions:
        "Assay researches a question over a folder of documents or the web and publishes a report in which every finding cites a passage of a persisted source. " +
        "Call research (it can take minutes; it reports progress). Then ask_follow_up asks a further question from a run's sources, revise_report publishes a new version of its report as instructed, diff_report says what changed, and search_library searches every source your runs have read. " +
        `Corpus folders this server may read: ${roots}.`,
    },
  );

  /** A user's mistake becomes its message; anything else is logged and reported briefly. */
  const failure = (error: unknown): CallToolResult => {
    if (error instanceof UserError) return errorResult(error.message);
    services.log(
      `assay mcp: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    return errorResult(`internal error: ${error instanceof Error ? error.message : String(error)}`);
  };

  /** The user's run, or undefined: another user's run is answered as one that does not exist. */
  const ownRun = async (runId: number): Promise<RunRecord | undefined> => {
    const run = await store.getRun(runId);
    return run && ownerOf(run) === services.user ? run : undefined;
  };

  const runOf = async (runId: number): Promise<RunRecord> => {
    const run = await ownRun(runId);
    if (!run) throw new UserError(`there is no run ${runId}; list_runs lists the runs`);
    return run;
  };

  /** The user's runs, most recent first (the store's own filter, as the HTTP API lists them). */
  const ownRuns = (limit: number): Promise<RunRecord[]> => store.listRuns({ userId: services.user, limit });

  /**
   * Records the run as the user's (queued: no worker yet), then starts it in this process, as
   * the HTTP API does. A run that could not start (its scope did not open) is failed, not left queued.
   */
  const startOwnRun = async (
    model: Model | undefined,
    request: RunRequest,
    options: RunOptions,
  ): Promise<RunOutcome> => {
    const runtime = services.runtimeFor(model);
    const run = await store.createRun(request, {
      originAt: new Date().toISOString(),
      worker: "",
      userId: services.user,
    });
    try {
      return await runtime.start(run.id, options);
    } catch (error) {
      const now = await store.getRun(run.id);
      if (now && isQueued(now))
        await store.updateRun(run.id, {
          status: "failed",
          error: `the run could not start: ${error instanceof Error ? error.message : String(error)}`,
          finishedAt: new Date().toISOString(),
        });
      throw error;
    }
  };

  /** The operator's policy; without one, the server's model only. */
  const policyOf = (): RunPolicy =>
    services.policy ?? { models: [modelSpec(services.defaults.model, services.environment)], ceilings: {} };

  /**
   * `request` under the policy (`asked`: the budgets the call set), with the user's spend of
   * the day and what their runs in progress hold when the policy limits the cost per day.
   */
  const governed = async (request: RunRequest, asked: Partial<Budgets>, policy: RunPolicy): Promise<RunRequest> => {
    const active = (await ownRuns(1000)).filter((run) => displayStatus(run) === "running");
    const spend =
      policy.maxCostUsdPerDay === undefined ? undefined : await spendOf(store, services.user, active, Date.now());
    return underPolicy(request, asked, policy, spend);
  };

  /**
   * A run continued here opens its parent's scope again: a folder only inside the server's
   * corpus roots, as for `research` (the run may have been made by another shell).
   */
  const checkScope = async (scope: EvidenceScope): Promise<void> => {
    const root = scope.kind === "corpus" ? scope.root : scope.kind === "hybrid" ? scope.corpus.root : undefined;
    if (root !== undefined) await allowedCorpus(root, services.corpusRoots);
  };

  /** Starts `request` as the user's run in this process, with progress and cancellation, and returns its report. */
  const runAndReport = async (
    request: RunRequest,
    extra: Extra,
    continuation?: Continuation,
  ): Promise<CallToolResult> => {
    const model = resolveModel(request.model, services.environment);
    const progress = progressReporter(extra, request.budgets.maxSources);
    const signal = AbortSignal.any([extra.signal, services.research.signal]);
    const outcome = await services.research.track(
      startOwnRun(model, request, { listeners: progress ? [progress.listener] : [], signal }),
    );
    await progress?.flush();
    return researchResult(outcome, continuation);
  };

  const currentFiles = async (run: RunRecord): Promise<{ version: string; files: ArtifactFiles } | undefined> =>
    artifacts.current({ runId: run.id, outDir: run.request.outDir });

  const researchResult = async (outcome: RunOutcome, continuation?: Continuation): Promise<CallToolResult> => {
    const run = await runOf(outcome.runId);
    const current = await currentFiles(run);
    const origin =
      continuation === undefined
        ? []
        : continuation.relation === "follow-up"
          ? [`A follow-up of run ${continuation.parentId}.`]
          : [
              `A new version of the report of run ${continuation.parentId}${continuation.parentId === continuation.askedId ? "" : ` (the newest version of run ${continuation.askedId}'s report)`}.`,
            ];
    const summary = [
      `Run ${outcome.runId} ${outcome.status}: ${outcome.artifactStatus || "nothing"} published.`,
      ...origin,
      ...(outcome.error === undefined ? [] : [outcome.error]),
      ...(outcome.failure === undefined ? [] : [`The run failed: ${outcome.failure}`]),
      ...(current === undefined
        ? []
        : [`Report: ${reportUri(run.id)} (also ${reportUri(run.id, "json")}; get_report for HTML).`]),
    ].join("\n");
    if (current === undefined) return errorResult(summary);
    return {
      content: [
        { type: "text", text: current.files.markdown },
        {
          type: "resource_link",
          uri: reportUri(run.id),
          name: `run-${run.id}-report.md`,
          title: `Report of run ${run.id}`,
          mimeType: MIME_TYPES.markdown,
        },
        { type: "text", text: summary },
      ],
      structuredContent: {
        runId: outcome.runId,
        status: outcome.status,
        artifactStatus: outcome.artifactStatus,
        report: reportUri(run.id),
        reportJson: reportUri(run.id, "json"),
        ...(continuation === undefined ? {} : { relation: continuation.relation, parentRunId: continuation.parentId }),
        ...(outcome.error === undefined ? {} : { error: outcome.error }),
        ...(outcome.failure === undefined ? {} : { failure: outcome.failure }),
      },
      ...(outcome.error === undefined ? {} : { isError: true }),
    };
  };

  const research = async (args: ResearchArgs, extra: Extra): Promise<CallToolResult> => {
    try {
      // Both: the folder and the web in one run.
      if (args.web !== true && args.corpus === undefined)
        throw new UserError("give an evidence scope: corpus (a folder) or web: true");
      const corpus = args.corpus === undefined ? undefined : await allowedCorpus(args.corpus, services.corpusRoots);
      const spec = modelSpec(args.model ?? services.defaults.model, services.environment);
      const policy = policyOf();
      checkModel(spec, policy);
      const options: RunCommandOptions = {
        strategy: args.strategy ?? "pipeline",
        language: args.language ?? "en",
        ...(corpus === undefined ? {} : { corpus }),
        ...(args.web === true ? { web: true } : {}),
        ...(args.web === true && services.defaults.search !== undefined ? { search: services.defaults.search } : {}),
        ...(args.max_sources === undefined ? {} : { maxSources: args.max_sources }),
        ...(args.timeout_seconds === undefined ? {} : { timeout: args.timeout_seconds }),
      };
      const asked: Partial<Budgets> = {
        ...(args.max_sources === undefined ? {} : { maxSources: args.max_sources }),
        ...(args.timeout_seconds === undefined ? {} : { wallClockMs: Math.round(args.timeout_seconds * 1000) }),
      };
      const request = await governed(
        await buildRequest(args.question, options, { model: spec, file: services.defaults.config }),
        asked,
        policy,
      );
      return await runAndReport(request, extra);
    } catch (error) {
      return failure(error);
    }
  };

  /**
   * A follow-up (`text`: its question) or a revision (`text`: the instruction; it revises the
   * newest version of the report) of the user's run, run here as `research` runs: the child
   * starts with the parent's persisted sources, under the same policy.
   */
  const continueRun = async (
    relation: RunRelation,
    text: string,
    args: ContinuationArgs,
    extra: Extra,
  ): Promise<CallToolResult> => {
    try {
      const asked = await runOf(args.run_id);
      const parent = relation === "revision" ? await newestVersion(store, asked) : asked;
      await checkScope(parent.request.scope);
      const policy = policyOf();
      const budgets: Partial<Budgets> = {
        ...(args.max_sources === undefined ? {} : { maxSources: args.max_sources }),
        ...(args.timeout_seconds === undefined ? {} : { wallClockMs: Math.round(args.timeout_seconds * 1000) }),
      };
      const request = await governed(
        childRequest(parent, relation, text, {
          ...(args.model === undefined ? {} : { model: modelSpec(args.model, services.environment) }),
          budgets,
        }),
        budgets,
        policy,
      );
      return await runAndReport(request, extra, { relation, parentId: parent.id, askedId: asked.id });
    } catch (error) {
      return failure(toolWording(error));
    }
  };

  server.registerTool(
    "research",
    {
      title: "Research a question",
      description:
        "Researches a question over a folder of documents (corpus) or the web, and returns the published Markdown report, in which every finding cites a passage of a source Assay read and kept. Takes from seconds to minutes; sends progress notifications when the request has a progress token, and a cancelled request stops reading and publishes what was read.",
      inputSchema: researchInput,
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
    },
    research,
  );

  server.registerTool(
    "ask_follow_up",
    {
      title: "Ask a follow-up question",
      description:
        "Asks a further question from one of your finished runs: a new run that starts with that run's sources (not read again), reads new ones within its budget, and returns its published Markdown report, which says what it adds to the first one. Same scope, strategy and language as the run; progress and cancellation as for research.",
      inputSchema: {
        run_id: runIdInput,
        question: z.string().describe("The follow-up question (at most 4000 characters)."),
        ...continuationInput,
      },
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
    },
    async ({ question, ...args }, extra) => continueRun("follow-up", question, args, extra),
  );

  server.registerTool(
    "revise_report",
    {
      title: "Revise a report",
      description:
        'Publishes a new version of a run\'s report as instructed ("add the 2024 figures", "drop the part on recycling"), from the sources already read: a new run, returned as research returns one. A revision always revises the newest version of the report; diff_report then says what changed.',
      inputSchema: {
        run_id: runIdInput,
        instruction: z.string().describe("What to change in the report (at most 4000 characters)."),
        ...continuationInput,
      },
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    },
    async ({ instruction, ...args }, extra) => continueRun("revision", instruction, args, extra),
  );

  server.registerTool(
    "diff_report",
    {
      title: "Compare versions of a report",
      description:
        "What changed between two versions of a report (by default the run's version and the one before it), or between a follow-up's report and its parent's: findings and recommendations added, removed and changed, gaps, sources cited newly or no longer. As text, and as structuredContent (from, to, diff).",
      inputSchema: {
        run_id: runIdInput,
        from: z.number().int().positive().optional().describe("The older version's number (1: the first report)."),
        to: z
          .number()
          .int()
          .positive()
          .optional()
          .describe("The newer version's number (default: the one after from)."),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ run_id, from, to }) => {
      try {
        const run = await runOf(run_id);
        const comparison = await compareReports(store, artifacts, run, {
          ...(from === undefined ? {} : { from }),
          ...(to === undefined ? {} : { to }),
        });
        return {
          content: [{ type: "text", text: diffLines(comparison).join("\n") }],
          structuredContent: { ...comparison },
        };
      } catch (error) {
        return failure(toolWording(error));
      }
    },
  );

  server.registerTool(
    "search_library",
    {
      title: "Search your library",
      description:
        "Searches your library, every source your runs have read (each kept once), as a library research would, ranked: entry id, title, where it came from, when it was read, which runs read it, and a snippet. Reads nothing anew.",
      inputSchema: {
        query: z.string().describe("Words to search for."),
        limit: z.number().int().positive().max(100).optional().describe("How many hits (default 10, at most 100)."),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ query, limit }) => {
      try {
        if (query.trim() === "") throw new UserError("give words to search the library for");
        const index = await libraryIndex(store, services.user);
        let found: ReturnType<typeof index.search>;
        try {
          found = index.search(query, limit ?? 10);
        } finally {
          index.close();
        }
        const ids = found.map((hit) => Number(hit.anchor.replace(/^library:/, "")));
        const entries = new Map((await store.readLibrary(services.user, ids)).map((entry) => [entry.id, entry]));
        const hits = found.flatMap((hit, at) => {
          const entry = entries.get(ids[at] ?? 0);
          // Forgotten between the search and the read.
          if (!entry) return [];
          return [
            {
              id: entry.id,
              title: hit.title,
              location: libraryEntryLocation(entry),
              capturedAt: entry.capturedAt,
              firstRunId: entry.firstRunId,
              lastRunId: entry.lastRunId,
              rank: hit.rank,
              snippet: hit.snippet,
            },
          ];
        });
        return {
          content: [{ type: "text", text: JSON.stringify(hits, null, 2) }],
          structuredContent: { hits },
        };
      } catch (error) {
        return failure(error);
      }
    },
  );

  server.registerTool(
    "get_report",
    {
      title: "Get a report",
      description: "The current published report of a run, as Markdown (default), JSON or HTML.",
      inputSchema: {
        run_id: z.number().int().positive().describe("The run id (research returns it; list_runs lists them)."),
        format: z.enum(REPORT_FORMATS).optional().describe("markdown (default), json or html."),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ run_id, format }) => {
      try {
        const run = await runOf(run_id);
        const current = await currentFiles(run);
        if (current === undefined)
          throw new UserError(`run ${run_id} has no published report (it is ${displayStatus(run)})`);
        return { content: [{ type: "text", text: current.files[format ?? "markdown"] }] };
      } catch (error) {
        return failure(error);
      }
    },
  );

  server.registerTool(
    "list_runs",
    {
      title: "List runs",
      description: "Your recent runs, most recent first: id, status, what was published, question, scope, report URI.",
      inputSchema: {
        limit: z.number().int().positive().max(200).optional().describe("How many (default 20, at most 200)."),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ limit }) => {
      try {
        const runs = (await ownRuns(limit ?? 20)).map((run) => ({
          id: run.id,
          status: displayStatus(run),
          artifactStatus: run.artifactStatus,
          question: run.request.question,
          strategy: run.request.strategy,
          scope: run.request.scope.label,
          createdAt: run.createdAt,
          finishedAt: run.finishedAt,
          ...(hasReport(run) ? { report: reportUri(run.id) } : {}),
        }));
        return {
          content: [{ type: "text", text: JSON.stringify(runs, null, 2) }],
          structuredContent: { runs },
        };
      } catch (error) {
        return failure(error);
      }
    },
  );

  for (const format of ["markdown", "json"] as const) {
    const extension = EXTENSIONS[format];
    server.registerResource(
      `report-${extension}`,
      new ResourceTemplate(`assay://runs/{runId}/report.${extension}`, {
        list: async () => ({
          resources: (await ownRuns(200)).filter(hasReport).map((run) => ({
            uri: reportUri(run.id, format),
            name: `run-${run.id}-report.${extension}`,
            title: `Run ${run.id}: ${run.request.question.slice(0, 120)}`,
            mimeType: MIME_TYPES[format],
          })),
        }),
      }),
      {
        title: `Published reports (${format})`,
        description: `The current published report of a run, as ${format === "markdown" ? "Markdown" : "JSON (a ReportDocument)"}.`,
        mimeType: MIME_TYPES[format],
      },
      async (uri, variables): Promise<ReadResourceResult> => {
        const raw = variables.runId;
        const text = Array.isArray(raw) ? raw[0] : raw;
        const runId = /^[1-9]\d{0,15}$/.test(text ?? "") ? Number(text) : undefined;
        const run = runId === undefined ? undefined : await ownRun(runId);
        if (!run) throw new McpError(-32002, `Resource not found: there is no run ${text ?? ""}`);
        const current = await currentFiles(run);
        if (current === undefined)
          throw new McpError(-32002, `Resource not found: run ${run.id} has no published report`);
        return { contents: [{ uri: uri.href, mimeType: MIME_TYPES[format], text: current.files[format] }] };
      },
    );
  }

  return server;
}

/** A run whose report a reader can fetch: something was published and the last publication did not fail. */
function hasReport(run: RunRecord): boolean {
  return run.artifactStatus !== "" && run.artifactStatus !== "publication-failed";
}
