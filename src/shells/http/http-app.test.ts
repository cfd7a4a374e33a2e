import { describe, expect, it } from "vitest";
import { corpusRun, errorOf, type Harness, httpHarnesses } from "../../testing/http-harness.js";
import { reportCsp } from "./app.js";

const harness = httpHarnesses();

/** Creates a run as alice and waits until this server has finished driving it. */
async function finishedRun(h: Harness): Promise<number> {
  const response = await h.create(corpusRun());
  expect(response.status).toBe(201);
  const { id } = (await response.json()) as { id: number };
  await h.drives.settled(id);
  return id;
}

describe("HTTP API: authentication", () => {
  it("refuses a missing, malformed, unknown or revoked token with 401 and a challenge", async () => {
    const h = await harness();
    const missing = await h.call("/api/runs", { token: null });
    expect(missing.status).toBe(401);
    expect(missing.headers.get("WWW-Authenticate")).toContain("Bearer");
    expect((await errorOf(missing)).message).toContain("Authorization: Bearer");
    expect((await h.call("/api/runs", { token: "assay_not-a-real-token" })).status).toBe(401);
    expect((await h.call("/api/runs", { token: "something-else" })).status).toBe(401);
    const [token] = await h.store.listApiTokens({ userId: "bob" });
    expect((await h.call("/api/runs", { token: h.bob })).status).toBe(200);
    await h.store.revokeApiToken(token?.id ?? 0, new Date().toISOString());
    const revoked = await h.call("/api/runs", { token: h.bob });
    expect(revoked.status).toBe(401);
    expect((await errorOf(revoked)).message).toContain("revoked");
  });

  it("stores only the token's hash and records its last use", async () => {
    const h = await harness();
    const [token] = await h.store.listApiTokens({ userId: "alice" });
    expect(token?.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(h.store.db.prepare("SELECT * FROM api_tokens").all())).not.toContain(h.alice);
    expect(token?.lastUsedAt).toBe("");
    await h.call("/api/runs");
    expect((await h.store.listApiTokens({ userId: "alice" }))[0]?.lastUsedAt).toBe("2026-03-01T10:00:00.000Z");
  });

  it("serves the OpenAPI document without a token, listing every route", async () => {
    const h = await harness();
    const response = await h.call("/api/openapi.json", { token: null });
    expect(response.status).toBe(200);
    const document = (await response.json()) as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(document.openapi).toBe("3.0.0");
    expect(Object.keys(document.paths).sort()).toEqual(
      [
        "/api/runs",
        "/api/runs/{id}",
        "/api/runs/{id}/cancel",
        "/api/runs/{id}/events",
        "/api/runs/{id}/export",
        "/api/runs/{id}/report.docx",
        "/api/runs/{id}/report.html",
        "/api/runs/{id}/report.json",
        "/api/runs/{id}/report.md",
        "/api/runs/{id}/report.pdf",
        "/api/runs/{id}/resume",
        "/api/runs/{id}/follow-ups",
        "/api/runs/{id}/revisions",
        "/api/runs/{id}/diff",
        "/api/library",
        "/api/library/search",
        "/api/library/{id}",
        "/api/usage",
      ].sort(),
    );
    expect(Object.keys(document.paths["/api/runs"] ?? {}).sort()).toEqual(["get", "post"]);
    expect(JSON.stringify(document)).toContain('"CreateRun"');
  });

  it("answers unknown endpoints with a JSON 404 and sets security headers everywhere", async () => {
    const h = await harness();
    const response = await h.call("/api/nothing");
    expect(response.status).toBe(404);
    expect((await errorOf(response)).code).toBe("not_found");
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(response.headers.get("Referrer-Policy")).toBe("no-referrer");
    expect(response.headers.get("X-Frame-Options")).toBe("DENY");
    expect(response.headers.get("Content-Security-Policy")).toContain("default-src 'none'");
    expect(response.headers.get("Access-Control-Allow-Origin")).toBeNull();
  });
});

describe("HTTP API: runs", () => {
  it("creates a run driven in-process, lists it, reads it and serves its reports with their content types", async () => {
    const h = await harness();
    const created = await h.create(corpusRun());
    expect(created.status).toBe(201);
    const run = (await created.json()) as { id: number; status: string; scope: { label: string } };
    expect(created.headers.get("Location")).toBe(`/api/runs/${run.id}`);
    expect(run.status).toBe("running");
    expect(run.scope).toEqual({ kind: "corpus", label: "batteries" });
    expect(JSON.stringify(run)).not.toContain(h.corpus);
    await h.drives.settled(run.id);
    expect((await h.store.getRun(run.id))?.userId).toBe("alice");

    const listed = (await (await h.call("/api/runs")).json()) as { runs: { id: number }[] };
    expect(listed.runs.map((item) => item.id)).toEqual([run.id]);
    const read = (await (await h.call(`/api/runs/${run.id}`)).json()) as { status: string; artifactStatus: string };
    expect(read).toMatchObject({ status: "finished", artifactStatus: "source-backed" });

    const json = await h.call(`/api/runs/${run.id}/report.json`);
    expect(json.status).toBe(200);
    expect(json.headers.get("Content-Type")).toBe("application/json; charset=utf-8");
    expect(((await json.json()) as { status: string }).status).toBe("source-backed");
    const markdown = await h.call(`/api/runs/${run.id}/report.md`);
    expect(markdown.headers.get("Content-Type")).toBe("text/markdown; charset=utf-8");
    expect(await markdown.text()).toContain("Yoshino");
    const html = await h.call(`/api/runs/${run.id}/report.html`);
    expect(html.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    const text = await html.text();
    const csp = html.headers.get("Content-Security-Policy") ?? "";
    expect(csp).toBe(reportCsp(text));
    expect(csp).toMatch(
      /^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'$/,
    );
    expect(text).not.toContain("<script");
    expect(html.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(html.headers.get("Referrer-Policy")).toBe("no-referrer");

    const pdf = await h.call(`/api/runs/${run.id}/report.pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("Content-Type")).toBe("application/pdf");
    expect(pdf.headers.get("Content-Disposition")).toBe(`attachment; filename="assay-run-${run.id}.pdf"`);
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");
    const docx = await h.call(`/api/runs/${run.id}/report.docx`);
    expect(docx.headers.get("Content-Type")).toMatch(/wordprocessingml/);
    const mammoth = await import("mammoth");
    const words = await mammoth.extractRawText({ buffer: Buffer.from(await docx.arrayBuffer()) });
    expect(words.value).toContain("Yoshino");

    const exported = await h.call(`/api/runs/${run.id}/export`);
    expect(exported.status).toBe(200);
    expect(((await exported.json()) as { run: { id: number } }).run.id).toBe(run.id);
    const atif = await h.call(`/api/runs/${run.id}/export?format=atif`);
    expect(atif.status).toBe(200);
    expect(await atif.json()).toHaveProperty("schema_version");
  });

  it("hides a user's runs from another user: every endpoint answers 404", async () => {
    const h = await harness();
    const id = await finishedRun(h);
    const asBob = { token: h.bob };
    expect(((await (await h.call("/api/runs", asBob)).json()) as { runs: unknown[] }).runs).toEqual([]);
    const paths = [
      "",
      "/events",
      "/report.json",
      "/report.md",
      "/report.html",
      "/report.pdf",
      "/report.docx",
      "/export",
    ];
    for (const path of paths) {
      const response = await h.call(`/api/runs/${id}${path}`, asBob);
      expect(response.status, path).toBe(404);
      expect((await errorOf(response)).code).toBe("run_not_found");
    }
    for (const action of ["cancel", "resume"]) {
      const response = await h.call(`/api/runs/${id}/${action}`, { ...asBob, method: "POST" });
      expect(response.status, action).toBe(404);
    }
    // A run that does not exist reads the same as another user's.
    const missing = await h.call(`/api/runs/${id + 100}`);
    expect(await errorOf(missing)).toEqual({
      code: "run_not_found",
      message: `there is no run ${id + 100} of yours; GET /api/runs lists them`,
    });
    // CLI runs belong to 'local', not to a token's user.
    const local = await h.store.createRun((await h.store.getRun(id))?.request ?? ({} as never), {
      originAt: new Date().toISOString(),
      worker: "",
    });
    expect((await h.call(`/api/runs/${local.id}`)).status).toBe(404);
  });

  it("creates a folder-and-web run from a hybrid scope, naming the folder as the user chose it", async () => {
    const h = await harness();
    const created = await h.create({
      question: "lithium battery cathode energy",
      scope: { kind: "hybrid", path: "batteries", provider: "wikipedia" },
    });
    expect(created.status).toBe(201);
    const run = (await created.json()) as { id: number; scope: { kind: string; label: string } };
    const label = "the local folder “batteries” and the web, searched with Wikipedia";
    expect(run.scope).toEqual({ kind: "hybrid", label });
    expect(JSON.stringify(run)).not.toContain(h.corpus);
    await h.drives.settled(run.id);
    const stored = (await h.store.getRun(run.id))?.request.scope;
    expect(stored).toMatchObject({
      kind: "hybrid",
      label,
      corpus: { kind: "corpus", label: "batteries" },
      web: { kind: "web", search: { provider: "wikipedia" } },
    });
    const outside = await h.create({ question: "q", scope: { kind: "hybrid", path: "../elsewhere" } });
    expect(outside.status).toBe(400);
    expect(await errorOf(outside)).toMatchObject({ field: "scope.path" });
  });

  it("refuses invalid bodies with 400 naming the field", async () => {
    const h = await harness();
    const cases: [unknown, string, RegExp][] = [
      ["{not json", "body", /not JSON/],
      [{ scope: { kind: "corpus", path: "batteries" } }, "question", /question/],
      [corpusRun({ question: "   " }), "question", /empty/],
      [corpusRun({ strategy: "deep" }), "strategy", /pipeline/],
      [{ question: "q", scope: { kind: "ftp" } }, "scope.kind", /corpus|web/],
      [corpusRun({ budgets: { maxSources: -1 } }), "budgets.maxSources", /./],
      [corpusRun({ budgets: { maxWidgets: 3 } }), "budgets.maxWidgets", /maxWidgets/],
      [corpusRun({ budgets: { maxSources: 100000 } }), "budgets.maxSources", /maxSources/],
      [corpusRun({ investigation: { max_depth: 2 } }), "investigation", /investigative/],
      [corpusRun({ strategy: "investigative", investigation: { max_wings: 2 } }), "investigation", /max_wings/],
      [corpusRun({ extra: 1 }), "extra", /./],
      [{ ...corpusRun(), scope: { kind: "corpus", path: "missing" } }, "scope.path", /does not exist/],
      [{ ...corpusRun(), scope: { kind: "corpus", path: "../elsewhere" } }, "scope.path", /outside the folders/],
      [{ ...corpusRun(), scope: { kind: "corpus", path: "/etc" } }, "scope.path", /outside the folders/],
      [{ ...corpusRun(), scope: { kind: "corpus", path: "/no/such/folder" } }, "scope.path", /outside the folders/],
    ];
    for (const [body, field, message] of cases) {
      const response = await h.create(body);
      const error = await errorOf(response);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(error.field, JSON.stringify(body)).toBe(field);
      expect(error.message, JSON.stringify(body)).toMatch(message);
    }
    // A model the operator does not offer is forbidden, not malformed (run-policy.test.ts).
    const unoffered = await h.create(corpusRun({ model: "nope:model" }));
    expect(unoffered.status).toBe(403);
    expect(await errorOf(unoffered)).toMatchObject({ field: "model", code: "model_not_allowed" });
    const badId = await h.call("/api/runs/abc");
    expect(badId.status).toBe(400);
    expect((await errorOf(badId)).field).toBe("id");
    const badLimit = await h.call("/api/runs?limit=0");
    expect((await errorOf(badLimit)).field).toBe("query.limit");
    expect(await h.store.listRuns()).toEqual([]);
  });

  it("refuses a body over the size limit with 413", async () => {
    const h = await harness({}, { limits: { maxBodyBytes: 1024 } });
    const response = await h.create(corpusRun({ question: "x".repeat(2000) }));
    expect(response.status).toBe(413);
    expect((await errorOf(response)).code).toBe("body_too_large");
  });

  it("limits each user's requests a minute with 429 and Retry-After, refilled as the clock moves", async () => {
    const h = await harness({}, { rateLimit: { perMinute: 60, burst: 3 } });
    for (let index = 0; index < 3; index++) expect((await h.call("/api/runs")).status).toBe(200);
    const limited = await h.call("/api/runs");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("Retry-After")).toBe("1");
    expect((await errorOf(limited)).code).toBe("rate_limited");
    // Another user has a bucket of their own.
    expect((await h.call("/api/runs", { token: h.bob })).status).toBe(200);
    h.clock.ms += 1000;
    expect((await h.call("/api/runs")).status).toBe(200);
    expect((await h.call("/api/runs")).status).toBe(429);
  });

  it("limits concurrent runs per user; cancel stops a run this server drives, which publishes", async () => {
    const h = await harness({ fetchLatencyMs: 60_000 }, { limits: { concurrentRuns: 2 }, cancelPollMs: 10 });
    const first = (await (await h.create(corpusRun())).json()) as { id: number };
    const second = (await (await h.create(corpusRun())).json()) as { id: number };
    const third = await h.create(corpusRun());
    expect(third.status).toBe(429);
    expect(third.headers.get("Retry-After")).toBe("30");
    expect((await errorOf(third)).code).toBe("too_many_runs");
    // Bob's limit is his own.
    const bobs = await h.create(corpusRun(), h.bob);
    expect(bobs.status).toBe(201);
    const bobRun = (await bobs.json()) as { id: number };

    expect((await h.call(`/api/runs/${bobRun.id}/cancel`, { method: "POST" })).status).toBe(404);
    const cancelled = await h.call(`/api/runs/${first.id}/cancel`, { method: "POST" });
    expect(cancelled.status).toBe(202);
    await h.drives.settled(first.id);
    const events = await h.store.listEvents(first.id);
    expect(events.map((event) => event.type)).toContain("run-cancelled");
    expect(events.at(-1)?.type).toBe("run-finished");
    expect((await h.store.getRun(first.id))?.status).not.toBe("running");
    const again = await h.call(`/api/runs/${first.id}/cancel`, { method: "POST" });
    expect(again.status).toBe(409);
    expect((await errorOf(again)).code).toBe("run_ended");
    // A slot is free again.
    expect((await h.create(corpusRun())).status).toBe(201);
    // A cancel another server recorded in the store reaches the run this one drives.
    await h.store.updateRun(second.id, { cancelRequestedAt: new Date().toISOString() });
    await h.drives.settled(second.id);
    expect((await h.store.listEvents(second.id)).map((event) => event.type)).toContain("run-cancelled");
    // The run it drove held its lease, with the heartbeat (for servers on other hosts), and gave it up.
    expect(await h.store.getRun(second.id)).toMatchObject({ leaseEpoch: 1, leaseHolder: "" });
    expect((await h.store.getRun(second.id))?.heartbeatAt).not.toBe("");
  });

  it("never lets requests at the same moment pass the concurrent-run limit together", async () => {
    const h = await harness({ fetchLatencyMs: 60_000 }, { limits: { concurrentRuns: 1 } });
    const statuses = (await Promise.all([h.create(corpusRun()), h.create(corpusRun()), h.create(corpusRun())])).map(
      (response) => response.status,
    );
    expect(statuses.filter((status) => status === 201).length).toBe(1);
    expect(statuses.filter((status) => status !== 201).every((status) => status === 429)).toBe(true);
    expect((await h.store.listRuns({ userId: "alice" })).length).toBe(statuses.filter((s) => s === 201).length);
  });

  it("records a cancel request for a run another process drives; answers 409 to resume a run that is not interrupted", async () => {
    const h = await harness();
    const id = await finishedRun(h);
    const resume = await h.call(`/api/runs/${id}/resume`, { method: "POST" });
    expect(resume.status).toBe(409);
    expect((await errorOf(resume)).message).toMatch(/only an interrupted run can be resumed/);
    const request = (await h.store.getRun(id))?.request;
    if (!request) throw new Error("no run");
    const elsewhere = await h.store.createRun(request, {
      originAt: new Date().toISOString(),
      worker: `${process.pid === 1 ? "other" : "elsewhere"}-host:1`,
      userId: "alice",
    });
    const cancel = await h.call(`/api/runs/${elsewhere.id}/cancel`, { method: "POST" });
    expect(cancel.status).toBe(202);
    expect(((await cancel.json()) as { cancelRequestedAt: string }).cancelRequestedAt).toBe("2026-03-01T10:00:00.000Z");
    expect((await h.store.getRun(elsewhere.id))?.cancelRequestedAt).toBe("2026-03-01T10:00:00.000Z");
    // A queued run nothing will start (its server stopped first) ends at once.
    const orphan = await h.store.createRun(request, {
      originAt: new Date().toISOString(),
      worker: "",
      userId: "alice",
    });
    expect((await h.call(`/api/runs/${orphan.id}/cancel`, { method: "POST" })).status).toBe(202);
    expect(await h.store.getRun(orphan.id)).toMatchObject({ status: "failed", error: "cancelled before it started" });
  });

  it("resumes an interrupted run of the caller's in-process", async () => {
    const h = await harness();
    const id = await finishedRun(h);
    const request = (await h.store.getRun(id))?.request;
    if (!request) throw new Error("no run");
    // A run whose process is gone: this host, a pid that does not exist.
    const { hostname } = await import("node:os");
    const killed = await h.store.createRun(request, {
      originAt: new Date().toISOString(),
      worker: `${hostname()}:2147483646`,
      userId: "alice",
    });
    expect(((await (await h.call(`/api/runs/${killed.id}`)).json()) as { status: string }).status).toBe("interrupted");
    const [resumed, twice] = await Promise.all([
      h.call(`/api/runs/${killed.id}/resume`, { method: "POST" }),
      h.call(`/api/runs/${killed.id}/resume`, { method: "POST" }),
    ]);
    expect(resumed.status).toBe(202);
    expect(twice.status).toBe(409);
    expect((await errorOf(twice)).code).toBe("run_active");
    await h.drives.settled(killed.id);
    const events = await h.store.listEvents(killed.id);
    expect(events.map((event) => event.type)).toContain("run-resumed");
    expect((await h.store.getRun(killed.id))?.status).toBe("finished");
  });
});

describe("HTTP API: events", () => {
  it("streams stored events, then live ones until the run ends, with the seq as the SSE id", async () => {
    const h = await harness({ fetchLatencyMs: 20 });
    const created = (await (await h.create(corpusRun())).json()) as { id: number };
    const response = await h.call(`/api/runs/${created.id}/events`);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toContain("text/event-stream");
    const text = await response.text();
    const ids = [...text.matchAll(/^id: (\d+)$/gm)].map((match) => Number(match[1]));
    const stored = await h.store.listEvents(created.id);
    expect(ids).toEqual(stored.map((event) => event.seq));
    expect(text).toContain("event: run-started");
    expect(text).toContain("event: run-finished");
    expect(text.trimEnd().split("\n\n").at(-1)).toContain("event: end");

    // Replay from Last-Event-ID: only the events after it.
    const replay = await (await h.call(`/api/runs/${created.id}/events`, { headers: { "Last-Event-ID": "3" } })).text();
    const replayed = [...replay.matchAll(/^id: (\d+)$/gm)].map((match) => Number(match[1]));
    expect(replayed).toEqual(stored.filter((event) => event.seq > 3).map((event) => event.seq));
    const data = /^data: (.*)$/m.exec(replay)?.[1] ?? "{}";
    expect(JSON.parse(data)).toMatchObject({ runId: created.id, seq: 4 });

    const bad = await h.call(`/api/runs/${created.id}/events`, { headers: { "Last-Event-ID": "x" } });
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).field).toBe("last-event-id");
  });
});

describe("HTTP API: CORS", () => {
  it("sends CORS headers only for configured origins", async () => {
    const h = await harness({}, { corsOrigins: ["https://app.example"] });
    const allowed = await h.call("/api/runs", { headers: { Origin: "https://app.example" } });
    expect(allowed.headers.get("Access-Control-Allow-Origin")).toBe("https://app.example");
    const other = await h.call("/api/runs", { headers: { Origin: "https://evil.example" } });
    expect(other.headers.get("Access-Control-Allow-Origin")).toBeNull();
  });
});
