/**
 * What a command loads: the binary runs in a child process whose module resolutions are
 * recorded by a loader hook, and help and `runs list` must not load the heavy
 * packages (a DOM, the TUI, database drivers they do not use, model SDKs, the server, MCP).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { openSqliteStore } from "../../adapters/store/sqlite/sqlite-store.js";
import { DEFAULT_BUDGETS } from "../../core/budgets.js";
import { runCli } from "../../testing/cli.js";
import { tempDir } from "../../testing/temp-dir.js";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** Packages no reading command may load, by the name in node_modules. */
const HEAVY = [
  "jsdom",
  "linkedom",
  "pdfjs-dist",
  "ink",
  "react",
  "pg",
  "pg-boss",
  "ai",
  "@ai-sdk/openai",
  "@ai-sdk/anthropic",
  "@ai-sdk/google",
  "@ai-sdk/openai-compatible",
  "@modelcontextprotocol/sdk",
  "hono",
  "@hono/node-server",
  "undici",
  "piscina",
  "zod",
];

/** The packages (names in node_modules) whose modules `assay <args>` resolved. */
async function packagesLoaded(args: string[], expectOut?: RegExp): Promise<Set<string>> {
  const dir = tempDir("assay-start-up-");
  cleanups.push(dir.cleanup);
  const trace = join(dir.path, "modules.txt");
  writeFileSync(trace, "");
  const hooks = join(dir.path, "hooks.mjs");
  writeFileSync(
    hooks,
    `import { appendFileSync } from "node:fs";
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(${JSON.stringify(trace)}, result.url + "\\n");
  return result;
}
`,
  );
  const register = join(dir.path, "register.mjs");
  writeFileSync(
    register,
    `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
  );
  const result = await runCli(args, {
    home: dir.path,
    env: { NODE_OPTIONS: `--import ${pathToFileURL(register).href}` },
  });
  expect(result.code, result.stderr).toBe(0);
  if (expectOut) expect(result.stdout).toMatch(expectOut);
  const names = new Set<string>();
  for (const url of readFileSync(trace, "utf8").split("\n")) {
    const match = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
    if (match?.[1]) names.add(match[1]);
  }
  return names;
}

describe("start-up", () => {
  it("loads none of the heavy packages for help, a command's help and runs list", async () => {
    // runs list reads a real database holding a finished run, so the store's row parsing is loaded too.
    const home = tempDir("assay-start-up-db-");
    cleanups.push(home.cleanup);
    const db = join(home.path, "assay.db");
    const store = openSqliteStore({ file: db });
    const run = await store.createRun(
      {
        question: "what is cobalt",
        language: "en",
        strategy: "pipeline",
        model: "none",
        scope: { kind: "corpus", root: home.path, label: "corpus" },
        budgets: { ...DEFAULT_BUDGETS },
        outDir: "",
        investigation: { maxDepth: 2 },
      },
      { originAt: "2026-03-01T08:00:00.000Z", worker: "test:1" },
    );
    await store.updateRun(run.id, { status: "finished", finishedAt: "2026-03-01T08:00:01.000Z" });
    await store.close();
    for (const args of [
      ["--help"],
      ["run", "--help"],
      ["serve", "--help"],
      ["runs", "list", "--db", db],
      ["runs", "list", "--json", "--db", db],
    ]) {
      const loaded = await packagesLoaded(args, args[0] === "runs" ? /what is cobalt/ : /Usage/);
      if (args[0] === "runs") expect(loaded.has("better-sqlite3"), "runs list opened the store").toBe(true);
      expect(loaded.has("commander"), `assay ${args.join(" ")} loaded commander`).toBe(true);
      expect(
        HEAVY.filter((name) => loaded.has(name)),
        `assay ${args.join(" ")}`,
      ).toEqual([]);
    }
  });

  it("loads the store and the corpus index for a corpus search, but no server, TUI, MCP or model SDK", async () => {
    const loaded = await packagesLoaded(["search", "cobalt", "--corpus", join(process.cwd(), "examples/corpus")]);
    expect(loaded.has("better-sqlite3")).toBe(true);
    expect(
      ["ink", "react", "pg", "pg-boss", "ai", "@modelcontextprotocol/sdk", "hono", "undici"].filter((name) =>
        loaded.has(name),
      ),
    ).toEqual([]);
  });
});
