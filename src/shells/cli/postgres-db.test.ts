import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { BIN, EXAMPLE_CORPUS, runCli } from "../../testing/cli.js";
import {
  noticeMissingPostgres,
  POSTGRES_AVAILABLE,
  startTestPostgres,
  type TestPostgres,
} from "../../testing/postgres.js";
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
    let server: TestPostgres;
    beforeAll(async () => {
      server = await startTestPostgres();
    }, 120_000);
    afterAll(async () => {
      await server?.stop();
    });

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
  });
});
