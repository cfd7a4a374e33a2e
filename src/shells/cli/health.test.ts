/**
 * `assay health` with the built CLI: SQLite (missing file, outdated schema, an interrupted
 * run) and PostgreSQL (unreachable server, an empty database, a queue with a waiting job), and
 * the queue line and heartbeat-based states of `assay runs list` on PostgreSQL.
 */
import { existsSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import pg from "pg";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { BIN, EXAMPLE_CORPUS, runCli } from "../../testing/cli.js";
import { noticeMissingPostgres, POSTGRES_AVAILABLE } from "../../testing/postgres.js";
import { useTestPostgres } from "../../testing/postgres-suite.js";
import { tempDir } from "../../testing/temp-dir.js";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});
function home(): string {
  const dir = tempDir("assay-health-");
  cleanups.push(dir.cleanup);
  return dir.path;
}

beforeAll(() => {
  if (!existsSync(BIN) || !existsSync(join(BIN, "../../dist/shells/cli/main.js"))) {
    throw new Error("the CLI is not built: run `npm run build` (npm test does it)");
  }
});

noticeMissingPostgres("the PostgreSQL health checks");

interface Report {
  healthy: boolean;
  checks: { name: string; status: string; detail: string; fix?: string }[];
  runs: Record<string, number> | null;
  queue: Record<string, number> | null;
  workers: { connected: string[]; heartbeating: { worker: string; runs: number[] }[] } | null;
}

async function health(args: string[], dir: string): Promise<{ code: number | null; report: Report; text: string }> {
  const json = await runCli(["health", ...args, "--json"], { home: dir });
  const text = await runCli(["health", ...args], { home: dir });
  expect(text.code).toBe(json.code);
  return { code: json.code, report: JSON.parse(json.stdout) as Report, text: text.stdout };
}

const check = (report: Report, name: string) => report.checks.find((item) => item.name === name);

describe("assay health on SQLite", () => {
  it("is unhealthy without a database file", async () => {
    const dir = home();
    const { code, report, text } = await health([], dir);
    expect(code).toBe(1);
    expect(report).toMatchObject({ healthy: false, runs: null });
    expect(check(report, "database")?.detail).toBe(`there is no database at ${join(dir, "assay.db")}`);
    expect(text).toContain("Unhealthy: 1 check failed.");
    expect(existsSync(join(dir, "assay.db"))).toBe(false);
  });

  it("is unhealthy when a column is missing, healthy once a command upgraded it, and warns about an interrupted run", async () => {
    const dir = home();
    const file = join(dir, "assay.db");
    expect((await runCli(["runs", "list"], { home: dir })).code).toBe(0);
    const db = new BetterSqlite3(file);
    db.exec("ALTER TABLE runs DROP COLUMN heartbeat_at");
    db.close();
    const outdated = await health(["--db", file], dir);
    expect(outdated.code).toBe(1);
    expect(check(outdated.report, "schema")).toMatchObject({
      status: "fail",
      detail: expect.stringContaining("missing column runs.heartbeat_at"),
      fix: expect.stringContaining("upgrade it in place"),
    });

    expect((await runCli(["runs", "list", "--db", file], { home: dir })).code).toBe(0);
    const upgraded = new BetterSqlite3(file);
    const now = new Date().toISOString();
    upgraded
      .prepare(
        `INSERT INTO runs (question, scope, budgets, origin_at, worker, created_at, updated_at)
         VALUES ('q', '{"kind":"corpus","root":"/x","label":"x"}', '{}', ?, ?, ?, ?)`,
      )
      .run(now, `${hostname()}:999999999`, now, now);
    upgraded.close();
    const { code, report, text } = await health(["--db", file], dir);
    expect(code, text).toBe(0);
    expect(report.runs).toEqual({ running: 0, queued: 0, interrupted: 1, finished: 0, failed: 0 });
    expect(check(report, "runs")).toMatchObject({ status: "warn", fix: expect.stringContaining("assay resume") });
    expect(check(report, "journal")?.status).toBe("ok");
    expect(text).toContain("Healthy (1 warning).");
  });
});

describe("assay health on PostgreSQL", () => {
  it("is unhealthy when the server cannot be reached, and never prints the password", async () => {
    const dir = home();
    const { code, report, text } = await health(["--db", "postgresql://assay:hunter2@127.0.0.1:1/assay"], dir);
    expect(code).toBe(1);
    expect(check(report, "database")).toMatchObject({
      status: "fail",
      detail: expect.stringContaining("cannot connect to postgresql://assay:***@127.0.0.1:1/assay"),
    });
    expect(`${text}${JSON.stringify(report)}`).not.toContain("hunter2");
  });

  describe.runIf(POSTGRES_AVAILABLE)("against a server", () => {
    const server = useTestPostgres();

    it("is unhealthy on an empty database, and creates nothing", async () => {
      const url = await server.createDatabase();
      const { code, report } = await health(["--db", url], home());
      expect(code).toBe(1);
      expect(check(report, "database")?.status).toBe("ok");
      expect(check(report, "schema")).toMatchObject({ status: "fail", detail: expect.stringContaining("missing") });
      expect(check(report, "queue")).toMatchObject({ status: "fail", detail: expect.stringContaining("not set up") });
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const tables = await client.query("SELECT 1 FROM information_schema.tables WHERE table_schema = 'public'");
        expect(tables.rows).toHaveLength(0);
      } finally {
        await client.end();
      }
    });

    it("reports the queue's depth, the runs' heartbeats, and shows a stale one as interrupted", async () => {
      const url = await server.createDatabase();
      const dir = home();
      const queued = await runCli(
        ["run", "Who discovered lithium cobalt oxide?", "--corpus", EXAMPLE_CORPUS, "--db", url, "--queue", "--json"],
        { home: dir },
      );
      expect(queued.code, queued.stderr).toBe(0);
      const runId = (JSON.parse(queued.stdout) as { runId: number }).runId;

      const waiting = await health(["--db", url], dir);
      expect(waiting.code, waiting.text).toBe(0);
      expect(waiting.report.queue).toEqual({ queued: 1, active: 0, retrying: 0, deadLettered: 0 });
      expect(check(waiting.report, "workers")).toMatchObject({
        status: "warn",
        detail: expect.stringContaining("no worker connected"),
      });
      expect(waiting.text).toMatch(/ok {4}jobs +1 queued, 0 active, 0 retrying, 0 dead-lettered\n/);

      const listed = await runCli(["runs", "list", "--db", url], { home: dir });
      expect(listed.stdout).toContain("Queue: 1 queued, 0 active, 0 retrying, 0 dead-lettered");
      const json = await runCli(["runs", "list", "--db", url, "--json"], { home: dir });
      expect(JSON.parse(json.stdout)).toMatchObject([{ id: runId, status: "queued", heartbeatAt: "" }]);

      // Runs driven by workers on other machines: one beating now, one whose heartbeats stopped, one never beating.
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const copy = `INSERT INTO runs (question, scope, budgets, origin_at, worker, created_at, updated_at, heartbeat_at)
          SELECT question, scope, budgets, origin_at, $1, created_at, updated_at, $2 FROM runs WHERE id = $3 RETURNING id`;
        const insert = async (worker: string, heartbeatAt: string) =>
          Number((await client.query(copy, [worker, heartbeatAt, runId])).rows[0]?.id);
        const fresh = await insert("host-a:11", new Date().toISOString());
        const stale = await insert("host-b:22", "2020-01-01T00:00:00.000Z");
        const silent = await insert("host-c:33", "");
        const states = await runCli(["runs", "list", "--db", url, "--json"], { home: dir });
        const shown = new Map(
          (JSON.parse(states.stdout) as { id: number; status: string }[]).map((run) => [run.id, run.status]),
        );
        expect([shown.get(fresh), shown.get(stale), shown.get(silent), shown.get(runId)]).toEqual([
          "running",
          "interrupted",
          "running",
          "queued",
        ]);

        const { code, report } = await health(["--db", url], dir);
        expect(code).toBe(0);
        expect(report.runs).toEqual({ running: 2, queued: 1, interrupted: 1, finished: 0, failed: 0 });
        expect(report.workers?.heartbeating).toEqual([expect.objectContaining({ worker: "host-a:11", runs: [fresh] })]);
        expect(check(report, "runs")).toMatchObject({
          status: "warn",
          detail: expect.stringContaining(`run ${stale}: interrupted, and no job of it is pending`),
          fix: expect.stringContaining("assay queue retry <run>"),
        });
      } finally {
        await client.end();
      }
    }, 60_000);
  });
});
