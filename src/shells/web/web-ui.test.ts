/**
 * The web UI in-process (no browser): sign-in and its cookie, pages and fragments, the form's
 * validation, ownership, CSRF refusal and the pages' security headers. The browser tests
 * (web-ui.browser.test.ts) drive the same pages in Chromium.
 */
import { afterEach, describe, expect, it } from "vitest";
import { type Harness, httpHarness } from "../../testing/http-harness.js";
import { UI_CSP } from "./layout.js";
import { SESSION_COOKIE } from "./session.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function ui(): Promise<Harness & { page: (path: string, init?: PageInit) => Promise<Response> }> {
  const made = await httpHarness();
  cleanups.push(made.close);
  return { ...made, page: (path, init = {}) => request(made, path, init) };
}

interface PageInit {
  /** The session cookie's token; null for none. Default: alice's. */
  as?: string | null;
  form?: Record<string, string>;
  /** Sec-Fetch-Site of a post (default same-origin, as a browser sends from the UI's own page). */
  site?: string;
  headers?: Record<string, string>;
}

function request(made: Harness, path: string, init: PageInit): Promise<Response> {
  const headers = new Headers(init.headers);
  const token = init.as === undefined ? made.alice : init.as;
  if (token !== null) headers.set("Cookie", `${SESSION_COOKIE}=${token}`);
  if (init.form === undefined) return Promise.resolve(made.app.request(path, { headers }));
  headers.set("Content-Type", "application/x-www-form-urlencoded");
  headers.set("Sec-Fetch-Site", init.site ?? "same-origin");
  return Promise.resolve(
    made.app.request(path, { method: "POST", headers, body: new URLSearchParams(init.form).toString() }),
  );
}

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
    expect(cookie).toContain(`${SESSION_COOKIE}=${made.alice}`);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
  });

  it("returns only to a path on this server after sign-in", async () => {
    const made = await ui();
    for (const next of ["//evil.example/x", "https://evil.example/", "/\\evil.example", "javascript:alert(1)"]) {
      const response = await made.page("/login", { as: null, form: { token: made.alice, next } });
      expect(response.headers.get("location"), next).toBe("/");
    }
  });

  it("signs out: the cookie is cleared", async () => {
    const made = await ui();
    const response = await made.page("/logout", { form: {} });
    expect(response.status).toBe(303);
    expect(response.headers.get("set-cookie")).toMatch(new RegExp(`${SESSION_COOKIE}=;.*Max-Age=0`, "i"));
  });

  it("refuses a revoked token's session", async () => {
    const made = await ui();
    const [token] = await made.store.listApiTokens({ userId: "alice" });
    await made.store.revokeApiToken(token?.id ?? 0, new Date().toISOString());
    expect((await made.page("/")).status).toBe(303);
    expect((await made.page("/runs/fragment")).status).toBe(401);
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

    const list = await (await made.page("/")).text();
    expect(list).toContain(`href="/runs/${id}"`);
    expect(list).toContain("status-finished");

    const stored = await made.store.getRun(id);
    expect(stored?.userId).toBe("alice");
    expect(stored?.request.scope.label).toBe("batteries");
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
    expect(model.status).toBe(400);
    expect(await model.text()).toMatch(/<input id="model"[^>]*aria-invalid="true"/);
    expect(await made.store.listRuns()).toHaveLength(0);
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
    for (const path of [`/runs/${id}`, `/runs/${id}/live`, `/runs/${id}/report`, `/runs/${id}/investigation`]) {
      const response = await made.page(path, { as: made.bob });
      expect(response.status, path).toBe(404);
      expect(await response.text(), path).not.toContain("Yoshino");
    }
    expect((await made.page(`/runs/${id}/cancel`, { as: made.bob, form: {} })).status).toBe(404);
    expect(await (await made.page("/", { as: made.bob })).text()).toContain("No research yet");
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
      headers: { Cookie: `${SESSION_COOKIE}=${made.alice}`, "Content-Type": "application/json" },
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
