/**
 * The web UI in-process (no browser): sign-in, its server-side session and cookie (sign-out,
 * token revocation, absolute expiry and idle timeout on the harness's injected clock), pages and
 * fragments, the form's validation, ownership, CSRF refusal and the pages' security headers. The
 * browser tests (web-ui.browser.test.ts) drive the same pages in Chromium.
 */
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_BUDGETS } from "../../core/budgets.js";
import { type Harness, httpHarness } from "../../testing/http-harness.js";
import { revokeTokenCommand } from "../cli/tokens-command.js";
import type { HttpAppOptions } from "../http/app.js";
import { hashToken } from "../http/tokens.js";
import { UI_CSP } from "./layout.js";
import { SESSION_COOKIE } from "./session.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

interface Ui extends Harness {
  page: (path: string, init?: PageInit) => Promise<Response>;
  /** Session ids (the cookie's value) of alice and bob, signed in through the form. */
  sessions: { alice: string; bob: string };
}

async function ui(overrides: Partial<HttpAppOptions> = {}): Promise<Ui> {
  const made = await httpHarness({}, overrides);
  cleanups.push(made.close);
  const alice = await signIn(made, made.alice);
  const bob = await signIn(made, made.bob);
  const sessions = { alice, bob };
  return { ...made, sessions, page: (path, init = {}) => request(made, path, init, alice) };
}

interface PageInit {
  /** The session cookie's value; null for none. Default: alice's session. */
  as?: string | null;
  form?: Record<string, string>;
  /** Sec-Fetch-Site of a post (default same-origin, as a browser sends from the UI's own page). */
  site?: string;
  headers?: Record<string, string>;
}

function request(made: Harness, path: string, init: PageInit, fallback: string | null): Promise<Response> {
  const headers = new Headers(init.headers);
  const cookie = init.as === undefined ? fallback : init.as;
  if (cookie !== null) headers.set("Cookie", `${SESSION_COOKIE}=${cookie}`);
  if (init.form === undefined) return Promise.resolve(made.app.request(path, { headers }));
  headers.set("Content-Type", "application/x-www-form-urlencoded");
  headers.set("Sec-Fetch-Site", init.site ?? "same-origin");
  return Promise.resolve(
    made.app.request(path, { method: "POST", headers, body: new URLSearchParams(init.form).toString() }),
  );
}

/** The value of the session cookie a response sets ('' when it sets none). */
const cookieValue = (response: Response): string =>
  new RegExp(`${SESSION_COOKIE}=([^;]*)`).exec(response.headers.get("set-cookie") ?? "")?.[1] ?? "";

/** Signs in with `token` through the form; the new session's id. */
async function signIn(made: Harness, token: string): Promise<string> {
  const response = await request(made, "/login", { form: { token, next: "/" } }, null);
  expect(response.status).toBe(303);
  const id = cookieValue(response);
  expect(id).not.toBe("");
  return id;
}

/** Whether a session id still signs in: a page, a fragment and an API read, all answered alike. */
async function accepted(made: Ui, id: string): Promise<boolean> {
  const page = await made.page("/", { as: id });
  const fragment = await made.page("/runs/fragment", { as: id });
  const api = await made.page("/api/runs", { as: id });
  if (page.status === 200) {
    expect([fragment.status, api.status]).toEqual([200, 200]);
    return true;
  }
  expect(page.status).toBe(303);
  expect(page.headers.get("location")).toBe("/login?next=%2F");
  expect([fragment.status, api.status]).toEqual([401, 401]);
  return false;
}

const storedSessions = (made: Harness) =>
  made.store.db.prepare("SELECT * FROM web_sessions ORDER BY id").all() as Record<string, unknown>[];

const runForm = (extra: Record<string, string> = {}) => ({
  question: "Who built the first lithium-ion cell with a carbon anode?",
  scope: "corpus",
  corpus: "batteries",
  strategy: "pipeline",
  ...extra,
});

async function finished(made: Harness, id: number): Promise<void> {
  await made.drives.settled(id);
}

describe("web UI: sign-in", () => {
  it("sends a visitor without a session to the sign-in page, and back where they were after it", async () => {
    const made = await ui();
    const first = await made.page("/runs/new", { as: null });
    expect(first.status).toBe(303);
    expect(first.headers.get("location")).toBe("/login?next=%2Fruns%2Fnew");

    const login = await made.page("/login?next=/runs/new", { as: null });
    expect(login.status).toBe(200);
    const html = await login.text();
    expect(html).toContain('name="token"');
    expect(html).toContain('value="/runs/new"');

    const wrong = await made.page("/login", { as: null, form: { token: "assay_nope", next: "/runs/new" } });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain("unknown or revoked");
    expect(wrong.headers.get("set-cookie")).toBeNull();

    const right = await made.page("/login", { as: null, form: { token: made.alice, next: "/runs/new" } });
    expect(right.status).toBe(303);
    expect(right.headers.get("location")).toBe("/runs/new");
    const cookie = right.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).not.toMatch(/Secure/i);
    expect(await accepted(made, cookieValue(right))).toBe(true);
  });

  it("gives the browser a random session id, never the token or its hash, and stores only the id's hash", async () => {
    const made = await ui();
    const response = await made.page("/login", { as: null, form: { token: made.alice, next: "/" } });
    const cookie = response.headers.get("set-cookie") ?? "";
    const id = cookieValue(response);
    expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    for (const secret of [made.alice, hashToken(made.alice)]) expect(cookie).not.toContain(secret);
    expect(new Set([id, made.sessions.alice, made.sessions.bob]).size).toBe(3);

    const rows = storedSessions(made);
    expect(rows).toHaveLength(3);
    const stored = JSON.stringify(rows);
    for (const secret of [made.alice, made.bob, id, made.sessions.alice]) expect(stored).not.toContain(secret);
    const [token] = await made.store.listApiTokens({ userId: "alice" });
    expect(rows.at(-1)).toMatchObject({
      session_sha256: hashToken(id),
      user_id: "alice",
      token_id: token?.id,
      created_at: "2026-03-01T10:00:00.000Z",
      expires_at: "2026-03-01T22:00:00.000Z",
      idle_timeout_ms: 2 * HOUR,
      last_used_at: "2026-03-01T10:00:00.000Z",
    });
    // The token itself is not a session: a cookie holding it (the old form) signs nothing in.
    expect(await accepted(made, made.alice)).toBe(false);
  });

  it("marks the cookie Secure when the page came over HTTPS (directly or through a proxy)", async () => {
    const made = await ui();
    const proxied = await made.page("/login", {
      as: null,
      form: { token: made.alice, next: "/" },
      headers: { "X-Forwarded-Proto": "https" },
    });
    expect(proxied.headers.get("set-cookie")).toMatch(/;\s*Secure/i);
  });

  it("returns only to a path on this server after sign-in", async () => {
    const made = await ui();
    for (const next of ["//evil.example/x", "https://evil.example/", "/\\evil.example", "javascript:alert(1)"]) {
      const response = await made.page("/login", { as: null, form: { token: made.alice, next } });
      expect(response.headers.get("location"), next).toBe("/");
    }
  });

  it("signs out: the session ends on the server, and its old cookie is refused", async () => {
    const made = await ui();
    const response = await made.page("/logout", { form: {} });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/login");
    expect(response.headers.get("set-cookie")).toMatch(new RegExp(`${SESSION_COOKIE}=;.*Max-Age=0`, "i"));
    // A browser that kept the cookie (or anyone who copied it) is signed out too.
    expect(await accepted(made, made.sessions.alice)).toBe(false);
    expect(storedSessions(made).map((row) => row.user_id)).toEqual(["bob"]);
    expect(await accepted(made, made.sessions.bob)).toBe(true);
  });

  it("ends the previous session of a browser that signs in again", async () => {
    const made = await ui();
    const response = await made.page("/login", { form: { token: made.alice, next: "/" } });
    expect(await accepted(made, cookieValue(response))).toBe(true);
    expect(await accepted(made, made.sessions.alice)).toBe(false);
  });

  it("ends every session of a token when it is revoked (assay tokens revoke), at once", async () => {
    const made = await ui();
    const second = await signIn(made, made.alice);
    const [token] = await made.store.listApiTokens({ userId: "alice" });
    await revokeTokenCommand(made.store, token?.id ?? 0, new PassThrough());
    expect(await accepted(made, made.sessions.alice)).toBe(false);
    expect(await accepted(made, second)).toBe(false);
    const post = await made.page("/runs", { form: runForm() });
    expect(post.status).toBe(401);
    expect(await post.text()).toContain("Sign in again");
    expect(storedSessions(made).map((row) => row.user_id)).toEqual(["bob"]);
    expect(await accepted(made, made.sessions.bob)).toBe(true);
    // The revoked token cannot start a new one.
    expect((await made.page("/login", { as: null, form: { token: made.alice, next: "/" } })).status).toBe(401);
  });

  it("ends a session at its absolute expiry, however much it is used", async () => {
    const made = await ui();
    for (let elapsed = 0; elapsed < 12 * HOUR; elapsed += HOUR) {
      made.clock.ms += elapsed === 0 ? 0 : HOUR;
      expect(await accepted(made, made.sessions.alice), `after ${elapsed / HOUR} h`).toBe(true);
    }
    made.clock.ms += HOUR - 1;
    expect(await accepted(made, made.sessions.alice)).toBe(true);
    made.clock.ms += 1;
    expect(await accepted(made, made.sessions.alice)).toBe(false);
    // The ended session is deleted; signing in again starts a new one.
    expect(storedSessions(made).map((row) => row.user_id)).toEqual(["bob"]);
    expect(await accepted(made, await signIn(made, made.alice))).toBe(true);
  });

  it("ends a session unused for its idle timeout; use keeps it alive, written at most once a minute", async () => {
    const made = await ui();
    const lastUsed = () => storedSessions(made).find((row) => row.user_id === "alice")?.last_used_at;
    made.clock.ms += 30_000;
    expect(await accepted(made, made.sessions.alice)).toBe(true);
    expect(lastUsed()).toBe("2026-03-01T10:00:00.000Z");
    made.clock.ms += 30_000;
    expect(await accepted(made, made.sessions.alice)).toBe(true);
    expect(lastUsed()).toBe("2026-03-01T10:01:00.000Z");

    made.clock.ms += 2 * HOUR - 1;
    expect(await accepted(made, made.sessions.alice)).toBe(true);
    expect(lastUsed()).toBe("2026-03-01T12:00:59.999Z");
    made.clock.ms += 2 * HOUR;
    expect(await accepted(made, made.sessions.alice)).toBe(false);
    // Bob's session, unused as long, ended too.
    expect(await accepted(made, made.sessions.bob)).toBe(false);
  });

  it("takes its lifetimes from the app's options", async () => {
    const made = await ui({ sessions: { absoluteMs: 10 * MINUTE, idleMs: 3 * MINUTE } });
    made.clock.ms += 3 * MINUTE - 1;
    expect(await accepted(made, made.sessions.alice)).toBe(true);
    made.clock.ms += 1;
    expect(await accepted(made, made.sessions.bob)).toBe(false);
    for (const minutes of [5, 7, 9]) {
      made.clock.ms += 2 * MINUTE;
      expect(await accepted(made, made.sessions.alice), `after ${minutes} min`).toBe(true);
    }
    made.clock.ms += MINUTE;
    expect(await accepted(made, made.sessions.alice)).toBe(false);
  });
});

describe("web UI: runs", () => {
  it("starts a research from the form, shows its progress and serves its report", async () => {
    const made = await ui();
    expect(await (await made.page("/")).text()).toContain("No research yet");
    const form = await (await made.page("/runs/new")).text();
    expect(form).toContain('<option value="batteries"');
    expect(form).toContain('name="strategy" value="investigative"');

    const created = await made.page("/runs", { form: runForm() });
    expect(created.status).toBe(303);
    const id = Number(/^\/runs\/(\d+)$/.exec(created.headers.get("location") ?? "")?.[1]);
    expect(id).toBeGreaterThan(0);
    await finished(made, id);

    const progress = await made.page(`/runs/${id}`);
    expect(progress.headers.get("content-security-policy")).toBe(UI_CSP);
    const html = await progress.text();
    expect(html).toContain('data-status="finished"');
    expect(html).toContain("The report is published");
    expect(html).toContain("Akira Yoshino");
    expect(html).not.toContain("data-events");

    const live = await (await made.page(`/runs/${id}/live`)).text();
    expect(live.startsWith('<section id="live"')).toBe(true);

    const report = await made.page(`/runs/${id}/report`);
    expect(report.status).toBe(200);
    const reportHtml = await report.text();
    expect(reportHtml).toContain('<article class="report"');
    expect(reportHtml).toContain('id="sources"');
    expect(reportHtml).not.toMatch(/\bs_\d{3}\b|\bc_\d{3}\b|\bq_\d{3}\b/);

    // Each cited source opens at its stored text, the quoted words marked; a number the report lacks is not found.
    const href = /href="(\/runs\/\d+\/sources\/(\d+))#passage-(\d+)"/.exec(reportHtml);
    expect(href).not.toBeNull();
    const source = await made.page(href?.[1] ?? "");
    expect(source.status).toBe(200);
    expect(source.headers.get("content-security-policy")).toBe(UI_CSP);
    const sourceHtml = await source.text();
    expect(sourceHtml).toContain(`id="passage-${href?.[3]}"`);
    expect(sourceHtml).toMatch(/<mark>[^<]{20,}<\/mark>/);
    expect(sourceHtml).toContain(`href="/runs/${id}/report#source-${href?.[2]}"`);
    expect((await made.page(`/runs/${id}/sources/999`)).status).toBe(404);

    const list = await (await made.page("/")).text();
    expect(list).toContain(`href="/runs/${id}"`);
    expect(list).toContain("status-finished");

    const stored = await made.store.getRun(id);
    expect(stored?.userId).toBe("alice");
    expect(stored?.request.scope.label).toBe("batteries");
  });

  it("starts a folder-and-web research from the form", async () => {
    const made = await ui();
    const form = await (await made.page("/runs/new")).text();
    expect(form).toContain('name="scope" value="hybrid"');
    expect(form).toContain('<option value="auto"');
    const created = await made.page("/runs", { form: runForm({ scope: "hybrid", provider: "wikipedia" }) });
    expect(created.status).toBe(303);
    const id = Number(/^\/runs\/(\d+)$/.exec(created.headers.get("location") ?? "")?.[1]);
    await finished(made, id);
    const stored = (await made.store.getRun(id))?.request.scope;
    expect(stored).toMatchObject({
      kind: "hybrid",
      label: "the local folder “batteries” and the web, searched with Wikipedia",
      corpus: { label: "batteries" },
    });
    expect(await (await made.page(`/runs/${id}`)).text()).toContain("the local folder “batteries” and the web");
  });

  it("starts a research of the user's own library from the form", async () => {
    const made = await ui();
    const form = await (await made.page("/runs/new")).text();
    expect(form).toContain('name="scope" value="library"');
    const created = await made.page("/runs", { form: runForm({ scope: "library" }) });
    expect(created.status).toBe(303);
    const id = Number(/^\/runs\/(\d+)$/.exec(created.headers.get("location") ?? "")?.[1]);
    // The library read is the signed-in user's, whatever the form says.
    expect((await made.store.getRun(id))?.request.scope).toMatchObject({ kind: "library", userId: "alice" });
    await made.drives.settled(id);
  });

  it("gives a refused form back as it was, with the reason and the field marked", async () => {
    const made = await ui();
    const empty = await made.page("/runs", { form: runForm({ question: "   " }) });
    expect(empty.status).toBe(400);
    const html = await empty.text();
    expect(html).toContain("the question is empty");
    expect(html).toMatch(/<textarea id="question"[^>]*aria-invalid="true"/);

    const outside = await made.page("/runs", { form: runForm({ corpus: "../../etc", maxSources: "3" }) });
    expect(outside.status).toBe(400);
    const outsideHtml = await outside.text();
    expect(outsideHtml).toContain("outside the folders this server may read");
    expect(outsideHtml).toContain('value="3"');

    const notNumber = await made.page("/runs", { form: runForm({ maxSources: "many" }) });
    expect(notNumber.status).toBe(400);
    const numberHtml = await notNumber.text();
    expect(numberHtml).toContain("Most sources: expected a whole number");
    expect(numberHtml).toMatch(/<input id="maxSources"[^>]*aria-invalid="true"/);

    const model = await made.page("/runs", { form: runForm({ model: "nosuch:model" }) });
    expect(model.status).toBe(403);
    const modelHtml = await model.text();
    expect(modelHtml).toMatch(/<input id="model"[^>]*aria-invalid="true"/);
    expect(modelHtml).toContain("the model nosuch:model is not offered by this server");
    expect(await made.store.listRuns()).toHaveLength(0);
  });

  it("refuses a budget over the operator's ceiling on the form, and shows the user's spend against the day's limit", async () => {
    const made = await ui({ policy: { models: ["none"], ceilings: { maxSources: 4 }, maxCostUsdPerDay: 2 } });
    const over = await made.page("/runs", { form: runForm({ maxSources: "9" }) });
    expect(over.status).toBe(403);
    const overHtml = await over.text();
    expect(overHtml).toContain("budgets.maxSources 9 is over this server&#39;s limit of 4 per run");
    expect(overHtml).toMatch(/<input id="maxSources"[^>]*aria-invalid="true"/);
    expect(await made.store.listRuns()).toHaveLength(0);

    // Spend recorded today (the harness's clock: 2026-03-01T10:00Z) by alice, and by bob, which is his own.
    for (const [userId, costUsd] of [
      ["alice", 0.75],
      ["bob", 1.5],
    ] as const) {
      const run = await made.store.createRun(
        {
          question: "earlier",
          language: "en",
          strategy: "pipeline",
          model: "none",
          scope: { kind: "corpus", root: made.corpus, label: "batteries" },
          budgets: { ...DEFAULT_BUDGETS },
          outDir: "",
        },
        { originAt: "2026-03-01T08:00:00.000Z", worker: "old:1", userId },
      );
      await made.store.updateRun(run.id, { status: "finished", finishedAt: "2026-03-01T08:00:00.000Z" });
      await made.store.appendEvent(run.id, {
        type: "generation-finished",
        offsetMs: 1,
        at: "2026-03-01T08:00:00.000Z",
        data: {
          purpose: "synthesis",
          model: "openai:gpt-4o-mini",
          usage: { inputTokens: 10, outputTokens: 5, costUsd },
        },
      });
    }
    const line = (html: string) => /<p class="meta" id="usage">(.*?)<\/p>/.exec(html)?.[1];
    const alice = line(await (await made.page("/")).text());
    expect(alice).toContain("Model spend today (UTC): $0.7500");
    expect(alice).toContain("$2.00 a day");
    expect(alice).not.toContain("1.5");
    const bob = line(await (await made.page("/", { as: made.sessions.bob })).text());
    expect(bob).toContain("Model spend today (UTC): $1.50");
  });

  it("refuses a form posted from another site (CSRF)", async () => {
    const made = await ui();
    const response = await made.page("/runs", {
      form: runForm(),
      site: "cross-site",
      headers: { Origin: "https://evil.example" },
    });
    expect(response.status).toBe(403);
    expect(await made.store.listRuns()).toHaveLength(0);
  });

  it("shows another user's run as not found, on every page and action", async () => {
    const made = await ui();
    const created = await made.page("/runs", { form: runForm() });
    const id = Number(/(\d+)$/.exec(created.headers.get("location") ?? "")?.[1]);
    await finished(made, id);
    for (const path of [
      `/runs/${id}`,
      `/runs/${id}/live`,
      `/runs/${id}/report`,
      `/runs/${id}/investigation`,
      `/runs/${id}/sources/1`,
    ]) {
      const response = await made.page(path, { as: made.sessions.bob });
      expect(response.status, path).toBe(404);
      expect(await response.text(), path).not.toContain("Yoshino");
    }
    expect((await made.page(`/runs/${id}/cancel`, { as: made.sessions.bob, form: {} })).status).toBe(404);
    expect(await (await made.page("/", { as: made.sessions.bob })).text()).toContain("No research yet");
  });

  it("lets the live page's event stream use the session cookie, but not an API post", async () => {
    const made = await ui();
    const created = await made.page("/runs", { form: runForm() });
    const id = Number(/(\d+)$/.exec(created.headers.get("location") ?? "")?.[1]);
    await finished(made, id);
    const events = await made.page(`/api/runs/${id}/events`);
    expect(events.status).toBe(200);
    expect(await events.text()).toContain("event: run-finished");
    const post = await made.app.request("/api/runs", {
      method: "POST",
      headers: { Cookie: `${SESSION_COOKIE}=${made.sessions.alice}`, "Content-Type": "application/json" },
      body: JSON.stringify({ question: "x", scope: { kind: "corpus", path: "batteries" } }),
    });
    expect(post.status).toBe(401);
  });

  it("answers an unknown page and a run without a report with an HTML page", async () => {
    const made = await ui();
    const missing = await made.page("/nowhere");
    expect(missing.status).toBe(404);
    expect(missing.headers.get("content-type")).toContain("text/html");
    const investigation = await made.page("/runs/abc/investigation");
    expect(investigation.status).toBe(400);
    expect(await investigation.text()).toContain("<h1>");
  });

  it("serves its stylesheet and script", async () => {
    const made = await ui();
    const css = await made.page("/ui/app.css", { as: null });
    expect(css.headers.get("content-type")).toContain("text/css");
    expect(await css.text()).toContain(".tree");
    const js = await made.page("/ui/app.js", { as: null });
    expect(js.headers.get("content-type")).toContain("text/javascript");
    expect(await js.text()).toContain("EventSource");
  });
});
