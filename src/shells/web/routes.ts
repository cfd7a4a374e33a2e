/**
 * The web UI, served by `assay serve` next to the API: sign-in with an API token (which starts a
 * server-side session whose id the browser keeps in an HttpOnly cookie), the runs list, the new-research form, a run's live progress, its report and,
 * for investigative runs, its investigation. Every operation goes through the same run service
 * as the API, so ownership, limits and validation are the API's.
 */
import { readFileSync } from "node:fs";
import type { Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { csrf } from "hono/csrf";
import { DEFAULT_BUDGETS } from "../../core/budgets.js";
import { UserError } from "../../core/errors.js";
import { REPORT_STYLE } from "../../core/render/html.js";
import { parseReportDocument } from "../../core/report/report-document.js";
import type { ArtifactStore } from "../../ports/artifact-store.js";
import { isInvestigationStore } from "../../ports/investigation-store.js";
import type { ApiTokenRecord, RunRecord, Store } from "../../ports/store.js";
import { HttpError, parsed } from "../http/errors.js";
import type { RunService } from "../http/run-service.js";
import { CreateRunBody } from "../http/schemas.js";
import { compareReports } from "../lineage.js";
import { liveState } from "../live-state.js";
import { bodyFromForm, corpusChoices, formFields } from "./form.js";
import { INVESTIGATION_CSS, investigationSections } from "./investigation-view.js";
import { UI_CSP } from "./layout.js";
import {
  changesPage,
  EMPTY_FORM,
  investigationPage,
  livePanel,
  loginPage,
  messagePage,
  type NewRunChoices,
  newRunPage,
  reportPage,
  runPage,
  runsPage,
  runsTable,
  sourcePage,
} from "./pages.js";
import {
  clearSessionCookie,
  createSession,
  endSession,
  localPath,
  type SessionLifetimes,
  sessionCookie,
  setSessionCookie,
} from "./session.js";

const asset = (name: string): string => readFileSync(new URL(`./assets/${name}`, import.meta.url), "utf8");
const STYLESHEET = `${REPORT_STYLE}\n${asset("app.css")}\n${INVESTIGATION_CSS}`;
const SCRIPT = asset("app.js");
const ICON = asset("icon.svg");

type WebEnv = { Variables: { userId: string } };

export interface WebUiOptions {
  store: Store;
  /** Where reports are published: the changes page compares two of them. */
  artifacts: ArtifactStore;
  runs: RunService;
  /** The valid API token of a secret (undefined when unknown or revoked); counts against its user's rate limit. */
  tokenOf(secret: string): Promise<ApiTokenRecord | undefined>;
  /**
   * The user of a session cookie's id (undefined when unknown, ended or its token revoked); counts
   * against the user's rate limit and records the session's use.
   */
  userOfSession(id: string): Promise<string | undefined>;
  sessions: SessionLifetimes;
  corpusRoots: readonly string[];
  defaultModel: string;
  maxBodyBytes: number;
  now: () => number;
}

/** Paths the web UI answers (everything else is the API's). */
export const isUiPath = (path: string): boolean => !path.startsWith("/api/");

/** An HTML answer for a failure on a UI page: the HttpError's status and message, or 500. */
export function uiErrorResponse(c: Context, error: unknown, log: (line: string) => void): Response {
  c.header("Content-Security-Policy", UI_CSP);
  if (error instanceof HttpError) {
    for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
    const title = error.status === 404 ? "Not found" : error.status === 429 ? "Slow down" : "That did not work";
    return c.html(messagePage({ title, message: error.message }), error.status);
  }
  log(
    `internal error on ${c.req.method} ${c.req.path}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  );
  return c.html(messagePage({ title: "Something went wrong", message: "The server's log has the details." }), 500);
}

export function mountWebUi(app: Hono<WebEnv>, options: WebUiOptions): void {
  const { runs, store } = options;
  const html = (c: Context, body: string, status: 200 | 400 | 401 | 403 | 404 | 409 | 429 = 200) => {
    c.header("Content-Security-Policy", UI_CSP);
    return c.html(body, status);
  };

  app.get("/ui/app.css", (c) => {
    c.header("Cache-Control", "no-cache");
    return c.body(STYLESHEET, 200, { "Content-Type": "text/css; charset=utf-8" });
  });
  app.get("/ui/app.js", (c) => {
    c.header("Cache-Control", "no-cache");
    return c.body(SCRIPT, 200, { "Content-Type": "text/javascript; charset=utf-8" });
  });

  app.get("/ui/icon.svg", (c) => {
    c.header("Cache-Control", "max-age=86400");
    return c.body(ICON, 200, { "Content-Type": "image/svg+xml" });
  });

  // Form posts must come from this server's pages (Sec-Fetch-Site or Origin), and be small.
  app.use("*", async (c, next) => (isUiPath(c.req.path) ? csrf()(c, next) : next()));
  app.use("*", async (c, next) =>
    isUiPath(c.req.path) && c.req.method === "POST"
      ? bodyLimit({
          maxSize: options.maxBodyBytes,
          onError: () => {
            throw new HttpError(413, "body_too_large", "the form is too large");
          },
        })(c, next)
      : next(),
  );

  /** Pages past sign-in: the session's user, else to the sign-in page (or 401 for a fragment script fetches). */
  const signedIn = async (c: Context<WebEnv>, next: () => Promise<void>): Promise<Response | undefined> => {
    const id = sessionCookie(c);
    const userId = id === undefined ? undefined : await options.userOfSession(id);
    if (userId === undefined) {
      // A fragment app.js fetches: it reloads the page, which then goes to the sign-in page.
      if (/\/(live|fragment)$/.test(c.req.path)) return c.body(null, 401);
      if (c.req.method !== "GET")
        return html(c, loginPage({ next: "/", error: "Sign in again: your session has ended." }), 401);
      return c.redirect(`/login?next=${encodeURIComponent(c.req.path)}`, 303);
    }
    c.set("userId", userId);
    await next();
    return undefined;
  };
  for (const path of ["/", "/runs", "/runs/*", "/logout"]) app.use(path, signedIn);

  app.get("/login", (c) => html(c, loginPage({ next: localPath(c.req.query("next")) })));
  app.post("/login", async (c) => {
    const form = await c.req.parseBody();
    const next = localPath(typeof form.next === "string" ? form.next : undefined);
    const secret = typeof form.token === "string" ? form.token.trim() : "";
    const token = secret === "" ? undefined : await options.tokenOf(secret);
    if (token === undefined)
      return html(
        c,
        loginPage({ next, error: "That token is unknown or revoked. Check it, or ask for a new one." }),
        401,
      );
    // A session this browser had before ends: one browser, one session.
    const previous = sessionCookie(c);
    if (previous !== undefined) await endSession(store, previous);
    const { id } = await createSession(store, token, { lifetimes: options.sessions, nowMs: options.now() });
    setSessionCookie(c, id);
    return c.redirect(next, 303);
  });
  app.post("/logout", async (c) => {
    const id = sessionCookie(c);
    if (id !== undefined) await endSession(store, id);
    clearSessionCookie(c);
    return c.redirect("/login", 303);
  });

  const listed = async (userId: string) => (await store.listRuns({ userId, limit: 100 })).map(runs.view);
  app.get("/", async (c) =>
    html(c, runsPage(c.get("userId"), await listed(c.get("userId")), await runs.usage(c.get("userId")))),
  );
  app.get("/runs/fragment", async (c) => html(c, runsTable(await listed(c.get("userId")))));

  const choices = async (): Promise<NewRunChoices> => ({
    corpora: await corpusChoices(options.corpusRoots),
    defaultModel: options.defaultModel,
    models: runs.models,
    defaults: {
      maxSources: DEFAULT_BUDGETS.maxSources,
      maxSearchCalls: DEFAULT_BUDGETS.maxSearchCalls,
      wallClockSeconds: DEFAULT_BUDGETS.wallClockMs / 1000,
    },
  });
  app.get("/runs/new", async (c) => {
    const offered = await choices();
    const form = {
      ...EMPTY_FORM,
      corpus: offered.corpora[0]?.value ?? "",
      scope: offered.corpora.length > 0 ? "corpus" : "web",
    } as const;
    return html(c, newRunPage(c.get("userId"), form, offered));
  });
  app.post("/runs", async (c) => {
    const form = formFields(await c.req.parseBody());
    try {
      const run = await runs.create(c.get("userId"), parsed(CreateRunBody, bodyFromForm(form), ""));
      return c.redirect(`/runs/${run.id}`, 303);
    } catch (error) {
      if (!(error instanceof HttpError) || (error.status !== 400 && error.status !== 403 && error.status !== 429))
        throw error;
      for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
      return html(
        c,
        newRunPage(c.get("userId"), form, await choices(), { message: error.message, field: error.field ?? "" }),
        error.status,
      );
    }
  });

  const ownRun = (c: Context<WebEnv>) => runs.ownRun(c.get("userId"), c.req.param("id") ?? "");
  const live = async (c: Context<WebEnv>) => {
    const run = await ownRun(c);
    return { view: runs.view(run), state: liveState(run, await store.listEvents(run.id), { now: options.now() }) };
  };
  app.get("/runs/:id", async (c) => {
    const { view, state } = await live(c);
    return html(c, runPage(c.get("userId"), view, state));
  });
  app.get("/runs/:id/live", async (c) => {
    const { view, state } = await live(c);
    return html(c, livePanel(view, state));
  });
  /** The run's current report, parsed, or a 404 that says when there will be one. */
  const currentReport = async (run: RunRecord) => {
    const current = await runs.currentReport(run);
    if (!current)
      throw new HttpError(
        404,
        "no_report",
        `run ${run.id} has no published report yet: its progress page shows when it has one`,
      );
    const document = parseReportDocument(JSON.parse(current.files.json));
    if (!document.ok) throw new Error(`the stored report of run ${run.id} does not parse: ${document.error}`);
    return { document: document.value, version: current.version };
  };
  app.get("/runs/:id/report", async (c) => {
    const run = await ownRun(c);
    const { document, version } = await currentReport(run);
    return html(c, reportPage(c.get("userId"), runs.view(run), document, version));
  });
  app.get("/runs/:id/sources/:number", async (c) => {
    const run = await ownRun(c);
    const { document } = await currentReport(run);
    const number = Number(c.req.param("number"));
    const entry = [...document.sources, ...document.reviewedSources].find((source) => source.number === number);
    if (!entry)
      throw new HttpError(404, "not_found", `the report of run ${run.id} lists no source [${c.req.param("number")}]`);
    const stored = (await store.listSources(run.id)).find((source) => source.id === entry.id);
    if (!stored) throw new Error(`source ${entry.id} of run ${run.id} is listed in its report but not stored`);
    return html(c, sourcePage(c.get("userId"), runs.view(run), document, entry, stored.chunks));
  });
  app.get("/runs/:id/investigation", async (c) => {
    const run = await ownRun(c);
    if (run.request.strategy !== "investigative" || !isInvestigationStore(store))
      throw new HttpError(
        404,
        "not_found",
        `run ${run.id} is not an investigative run: it has no investigation to show`,
      );
    const [investigation, notes] = await Promise.all([
      store.loadInvestigation(run.id),
      store.listNotesVersions(run.id),
    ]);
    const sections = investigationSections({
      investigation,
      notes,
      ...(run.finishedAt ? { finishedAt: run.finishedAt } : {}),
    });
    return html(c, investigationPage(c.get("userId"), runs.view(run), sections));
  });
  for (const [path, relation, field] of [
    ["follow-ups", "follow-up", "question"],
    ["revisions", "revision", "instruction"],
  ] as const)
    app.post(`/runs/:id/${path}`, async (c) => {
      const form = await c.req.parseBody();
      const text = typeof form[field] === "string" ? form[field] : "";
      try {
        const run = await runs.continueRun(c.get("userId"), c.req.param("id") ?? "", relation, { text });
        return c.redirect(`/runs/${run.id}`, 303);
      } catch (error) {
        if (!(error instanceof HttpError) || ![400, 403, 409, 429].includes(error.status)) throw error;
        // The report again, the error beside the form it is about.
        const run = await ownRun(c);
        const { document, version } = await currentReport(run);
        for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
        return html(
          c,
          reportPage(c.get("userId"), runs.view(run), document, version, { form: relation, message: error.message }),
          error.status as 400 | 403 | 409 | 429,
        );
      }
    });
  app.get("/runs/:id/changes", async (c) => {
    const run = await ownRun(c);
    let comparison: Awaited<ReturnType<typeof compareReports>>;
    try {
      comparison = await compareReports(store, options.artifacts, run);
    } catch (error) {
      if (error instanceof UserError) throw new HttpError(404, "not_found", error.message);
      throw error;
    }
    return html(c, changesPage(c.get("userId"), runs.view(run), comparison));
  });
  app.post("/runs/:id/cancel", async (c) => {
    const run = await runs.cancel(await ownRun(c));
    return c.redirect(`/runs/${run.id}`, 303);
  });
  app.post("/runs/:id/resume", async (c) => {
    const run = await runs.resume(c.get("userId"), c.req.param("id") ?? "");
    return c.redirect(`/runs/${run.id}`, 303);
  });
}
