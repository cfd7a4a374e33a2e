/** The HTTP API of research in rounds: follow-ups, revisions, the diff of two versions, the library; each the caller's own. */
import { describe, expect, it } from "vitest";
import { corpusRun, errorOf, type Harness, httpHarnesses } from "../../testing/http-harness.js";

const harness = httpHarnesses();

async function settledRun(h: Harness, response: Response): Promise<{ id: number; lineage: unknown }> {
  expect(response.status, await response.clone().text()).toBe(201);
  const run = (await response.json()) as { id: number; lineage: unknown };
  await h.drives.settled(run.id);
  return run;
}

const post = (h: Harness, path: string, body: unknown, token?: string) =>
  h.call(path, {
    method: "POST",
    ...(token ? { token } : {}),
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });

describe("HTTP API: follow-ups, revisions and diffs", () => {
  it("asks a follow-up and revises a report, and serves the diff of the two versions", async () => {
    const h = await harness();
    const parent = await settledRun(h, await h.create(corpusRun()));
    expect(parent.lineage).toBeNull();

    const followUp = await settledRun(
      h,
      await post(h, `/api/runs/${parent.id}/follow-ups`, { question: "When did Sony sell it?" }),
    );
    expect(followUp.lineage).toEqual({ parentId: parent.id, relation: "follow-up", instruction: "" });
    const report = (await (await h.call(`/api/runs/${followUp.id}/report.json`)).json()) as {
      question: string;
      lineage: { relation: string; parentRun: number; sourcesFromParent: number };
    };
    expect(report.question).toBe("When did Sony sell it?");
    expect(report.lineage).toMatchObject({ relation: "follow-up", parentRun: parent.id });
    const events = await h.store.listEvents(followUp.id);
    expect(events.find((event) => event.type === "sources-carried")?.data).toMatchObject({ from: parent.id });

    const revision = await settledRun(
      h,
      await post(h, `/api/runs/${parent.id}/revisions`, { instruction: "drop the part on Sony" }),
    );
    expect(revision.lineage).toEqual({
      parentId: parent.id,
      relation: "revision",
      instruction: "drop the part on Sony",
    });
    const diff = await h.call(`/api/runs/${revision.id}/diff`);
    expect(diff.status).toBe(200);
    const body = (await diff.json()) as {
      from: { run: number; version: number };
      to: { run: number; version: number };
    };
    expect(body.from).toMatchObject({ run: parent.id, version: 1 });
    expect(body.to).toMatchObject({ run: revision.id, version: 2 });
    // The first report alone has nothing to compare with.
    const lone = await settledRun(h, await h.create(corpusRun()));
    const none = await h.call(`/api/runs/${lone.id}/diff`);
    expect(none.status).toBe(409);
    expect((await errorOf(none)).message).toMatch(/one version/);
  });

  it("refuses an empty follow-up and an unknown field, and another user's run as not found", async () => {
    const h = await harness();
    const parent = await settledRun(h, await h.create(corpusRun()));
    const empty = await post(h, `/api/runs/${parent.id}/follow-ups`, { question: "  " });
    expect(empty.status).toBe(400);
    expect((await errorOf(empty)).field).toBe("question");
    expect((await post(h, `/api/runs/${parent.id}/revisions`, { text: "x" })).status).toBe(400);
    for (const [path, body] of [
      [`/api/runs/${parent.id}/follow-ups`, { question: "And Sony?" }],
      [`/api/runs/${parent.id}/revisions`, { instruction: "drop Sony" }],
    ] as const) {
      const refused = await post(h, path, body, h.bob);
      expect(refused.status).toBe(404);
      expect((await errorOf(refused)).message).not.toContain("alice");
    }
    expect((await h.call(`/api/runs/${parent.id}/diff`, { token: h.bob })).status).toBe(404);
    expect(await h.store.listRuns({ userId: "bob" })).toEqual([]);
  });
});

describe("HTTP API: the library", () => {
  it("lists, searches and forgets the caller's own entries only", async () => {
    const h = await harness();
    await settledRun(h, await h.create(corpusRun()));
    const listed = (await (await h.call("/api/library")).json()) as { entries: { id: number; path: string }[] };
    expect(listed.entries.map((entry) => entry.path).sort()).toEqual(["sony.md", "yoshino.md"]);
    const hits = (await (await h.call("/api/library/search?q=carbon%20anode")).json()) as {
      hits: { anchor: string; title: string }[];
    };
    expect(hits.hits[0]?.title).toBe("Akira Yoshino");

    // Bob sees none of it, and cannot forget it.
    expect(((await (await h.call("/api/library", { token: h.bob })).json()) as { entries: unknown[] }).entries).toEqual(
      [],
    );
    expect(
      ((await (await h.call("/api/library/search?q=carbon", { token: h.bob })).json()) as { hits: unknown[] }).hits,
    ).toEqual([]);
    const yoshino = listed.entries.find((entry) => entry.path === "yoshino.md");
    expect((await h.call(`/api/library/${yoshino?.id}`, { method: "DELETE", token: h.bob })).status).toBe(404);

    expect((await h.call(`/api/library/${yoshino?.id}`, { method: "DELETE" })).status).toBe(204);
    const after = (await (await h.call("/api/library")).json()) as { entries: { path: string }[] };
    expect(after.entries.map((entry) => entry.path)).toEqual(["sony.md"]);
    expect((await h.call(`/api/library/${yoshino?.id}`, { method: "DELETE" })).status).toBe(404);
    expect((await h.call("/api/library/search?q=")).status).toBe(400);
  });
});
