import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { BIN, runCli, startServe } from "../../testing/cli.js";
import { tempDir } from "../../testing/temp-dir.js";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

beforeAll(() => {
  if (!existsSync(BIN) || !existsSync(join(BIN, "../../dist/shells/http/serve-command.js"))) {
    throw new Error("the CLI is not built: run `npm run build` (npm test does it)");
  }
});

describe("assay serve (a real process)", () => {
  it("creates a token, serves a run over HTTP with its live events and report, and stops on SIGTERM", async () => {
    const dir = tempDir("assay-serve-");
    cleanups.push(dir.cleanup);
    const created = await runCli(["tokens", "create", "--user", "alice", "--name", "ci", "--json"], { home: dir.path });
    expect(created.code, created.stderr).toBe(0);
    const { token, id } = JSON.parse(created.stdout) as { token: string; id: number };
    expect(token).toMatch(/^assay_[A-Za-z0-9_-]{43}$/);
    const listed = await runCli(["tokens", "list", "--json"], { home: dir.path });
    expect(listed.stdout).not.toContain(token);
    expect(JSON.parse(listed.stdout)).toMatchObject([{ id, userId: "alice", name: "ci", revokedAt: "" }]);

    const corpora = join(dir.path, "corpora");
    mkdirSync(join(corpora, "batteries"), { recursive: true });
    writeFileSync(
      join(corpora, "batteries", "yoshino.md"),
      "# Akira Yoshino\n\nAkira Yoshino built the first cell with a carbon anode in 1985.\n",
    );
    const server = await startServe(["--corpus-root", corpora, "--model", "none"], dir.path);
    cleanups.push(server.stop);
    const auth = { Authorization: `Bearer ${token}` };
    const response = await fetch(`${server.url}/api/runs`, {
      method: "POST",
      headers: { ...auth, "Content-Type": "application/json" },
      body: JSON.stringify({
        question: "Who built the first cell with a carbon anode?",
        scope: { kind: "corpus", path: "batteries" },
        budgets: { maxSources: 2 },
      }),
    });
    expect(response.status, server.stderr()).toBe(201);
    const run = (await response.json()) as { id: number };
    const events = await (await fetch(`${server.url}/api/runs/${run.id}/events`, { headers: auth })).text();
    expect(events).toContain("event: run-finished");
    const html = await fetch(`${server.url}/api/runs/${run.id}/report.html`, { headers: auth });
    expect(html.status).toBe(200);
    expect(html.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(await html.text()).toContain("<html");
    expect((await fetch(`${server.url}/api/runs`)).status).toBe(401);

    const exited = new Promise<number | null>((resolve) => server.child.on("exit", (code) => resolve(code)));
    server.child.kill("SIGTERM");
    expect(await exited).toBe(0);

    const revoked = await runCli(["tokens", "revoke", String(id)], { home: dir.path });
    expect(revoked.code).toBe(0);
    const twice = await runCli(["tokens", "revoke", String(id)], { home: dir.path });
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain("already revoked");
  }, 60_000);

  it("refuses --queue without PostgreSQL and a --corpus-root that does not exist, with exit code 2", async () => {
    const dir = tempDir("assay-serve-");
    cleanups.push(dir.cleanup);
    const queue = await runCli(["serve", "--port", "0", "--queue"], { home: dir.path });
    expect(queue.code).toBe(2);
    expect(queue.stderr).toContain("--queue needs a PostgreSQL database");
    const root = await runCli(["serve", "--port", "0", "--corpus-root", join(dir.path, "nope")], { home: dir.path });
    expect(root.code).toBe(2);
    expect(root.stderr).toContain("does not exist");
  });
});
