import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
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
  const dir = tempDir("assay-cli-pg-");
  cleanups.push(dir.cleanup);
  return dir.path;
}

beforeAll(() => {
  if (!existsSync(BIN) || !existsSync(join(BIN, "../../dist/shells/cli/main.js"))) {
    throw new Error("the CLI is not built: run `npm run build` (npm test does it)");
  }
});

noticeMissingPostgres("the CLI's PostgreSQL run");

describe("--db postgres://", () => {
  it("reports an unreachable server as a configuration error without the password", async () => {
    const result = await runCli(["runs", "list", "--db", "postgresql://assay:hunter2@127.0.0.1:1/assay"], {
      home: home(),
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("cannot open the database postgresql://assay:***@127.0.0.1:1/assay");
    expect(result.stderr).not.toContain("hunter2");
  });

  // In CI the store's own test file fails loudly without PostgreSQL; this one only skips.
  describe.runIf(POSTGRES_AVAILABLE)("against a server", () => {
    const server = useTestPostgres();

    it("runs, lists and shows a research stored in PostgreSQL", async () => {
      const url = await server.createDatabase();
      const dir = home();
      const question = "Who discovered lithium cobalt oxide?";
      const run = await runCli(["run", question, "--corpus", EXAMPLE_CORPUS, "--db", url, "--json"], { home: dir });
      expect(run.code, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout.trim())).toMatchObject({ runId: 1, status: "finished" });
      expect(existsSync(join(dir, "assay.db"))).toBe(false);
      const listed = await runCli(["runs", "list", "--db", url], { home: dir });
      expect(listed.stdout).toContain(question);
      const shown = JSON.parse((await runCli(["runs", "show", "1", "--db", url, "--json"], { home: dir })).stdout) as {
        sources: { id: string }[];
      };
      expect(shown.sources.length).toBeGreaterThan(0);
      expect(shown.sources[0]?.id).toBe("s_001");
    });

    /** The stored bytes of run 1's current pair, by file name. */
    async function storedPair(url: string): Promise<{ version: number; files: Map<string, Buffer> }> {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const rows = await client.query<{ version: number; name: string; content: Buffer }>(
          `SELECT c.version, a.name, a.content FROM artifact_current c
           JOIN artifacts a ON a.run_id = c.run_id AND a.version = c.version WHERE c.run_id = 1`,
        );
        return {
          version: rows.rows[0]?.version ?? 0,
          files: new Map(rows.rows.map((row) => [row.name, row.content])),
        };
      } finally {
        await client.end();
      }
    }

    it("publishes into the database, continues its versions on resume and exports the exact bytes", async () => {
      const url = await server.createDatabase();
      const dir = home();
      const question = "Who discovered lithium cobalt oxide?";
      const refused = await runCli(
        ["run", question, "--corpus", EXAMPLE_CORPUS, "--db", url, "--out", join(dir, "x")],
        {
          home: dir,
        },
      );
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain("assay runs export <run> --artifacts <dir>");

      const crashed = await runCli(
        ["run", question, "--corpus", EXAMPLE_CORPUS, "--db", url, "--fault", "crash-after:synthesis-admitted"],
        { home: dir },
      );
      expect(crashed.signal).toBe("SIGKILL");
      const before = await storedPair(url);
      expect(before.version).toBeGreaterThanOrEqual(1);

      const resumed = await runCli(["resume", "1", "--db", url, "--json"], { home: dir });
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(JSON.parse(resumed.stdout)).toMatchObject({
        status: "finished",
        artifacts: { json: "postgres:runs/1/report.json" },
      });
      expect(existsSync(join(dir, "runs", "1", "report.json"))).toBe(false);
      const after = await storedPair(url);
      expect(after.version).toBeGreaterThan(before.version);
      expect([...after.files.keys()].sort()).toEqual(["report.html", "report.json", "report.md"]);

      const shown = await runCli(["runs", "show", "1", "--db", url], { home: dir });
      expect(shown.stdout).toContain(`Report:    in the database, version ${String(after.version).padStart(4, "0")}`);

      const folder = join(dir, "exported");
      const exported = await runCli(["runs", "export", "1", "--db", url, "--artifacts", folder], { home: dir });
      expect(exported.code, exported.stderr).toBe(0);
      for (const [name, bytes] of after.files) expect(readFileSync(join(folder, name)).equals(bytes)).toBe(true);
    });
  });
});
