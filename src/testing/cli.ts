/** Runs the built `assay` binary as a real child process. Tests need `npm run build` first. */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const BIN = fileURLToPath(new URL("../../bin/assay.js", import.meta.url));
export const EXAMPLE_CORPUS = fileURLToPath(new URL("../../examples/corpus", import.meta.url));

/** Every file under `dir` with its size and modification time, in path order. */
function fileStamps(dir: string): string[] {
  const stamps: string[] = [];
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) {
        const stat = statSync(path);
        stamps.push(`${relative(dir, path)} ${stat.size} ${stat.mtimeMs}`);
      }
    }
  };
  walk(dir);
  return stamps;
}

let exampleIndex: string | undefined;

/**
 * A folder holding the example corpus's index as the built binary makes it: built once per
 * machine, corpus and build (keyed by the size and time of every file of the corpus and of
 * dist/), by `assay search` in a home of its own, and shared by every test process.
 */
function exampleIndexFolder(): string {
  if (exampleIndex) return exampleIndex;
  const key = createHash("sha256")
    .update(EXAMPLE_CORPUS)
    .update(fileStamps(EXAMPLE_CORPUS).join("\n"))
    // The whole build: the extractors, the chunker and the index all decide what the index holds.
    .update(fileStamps(join(REPO_ROOT, "dist")).join("\n"))
    .digest("hex")
    .slice(0, 16);
  const prefix = "assay-test-example-index-";
  const folder = join(tmpdir(), `${prefix}${key}`);
  if (!existsSync(folder)) {
    // Those of earlier builds go once nothing can still be using them (a day on).
    for (const entry of readdirSync(tmpdir())) {
      if (!entry.startsWith(prefix)) continue;
      const path = join(tmpdir(), entry);
      try {
        if (Date.now() - statSync(path).mtimeMs > 86_400_000) rmSync(path, { recursive: true, force: true });
      } catch {
        // Gone already: another test process cleared it.
      }
    }
    const building = mkdtempSync(`${folder}.building-`);
    const built = spawnSync(process.execPath, [BIN, "search", "lithium", "--corpus", EXAMPLE_CORPUS], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? "", HOME: building, ASSAY_HOME: building, NO_COLOR: "1" },
      encoding: "utf8",
      timeout: 120_000,
    });
    if (built.status !== 0) throw new Error(`could not index the example corpus: ${built.stderr || built.error}`);
    try {
      renameSync(join(building, "corpus-index"), folder);
    } catch (error) {
      // Another test process built it first: theirs is the same.
      if (!existsSync(folder)) throw error;
    } finally {
      rmSync(building, { recursive: true, force: true });
    }
  }
  exampleIndex = folder;
  return folder;
}

/**
 * A fresh home starts with the example corpus already indexed, as a user's second run finds it:
 * the index is built once (`exampleIndexFolder`), not by every process of every test. Indexing
 * itself is tested where it is the subject (the corpus index tests, a corpus of the test's own).
 */
export function withExampleIndex(home: string): void {
  const target = join(home, "corpus-index");
  if (existsSync(target)) return;
  const source = exampleIndexFolder();
  mkdirSync(target, { recursive: true });
  for (const file of readdirSync(source)) copyFileSync(join(source, file), join(target, file));
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Starts the binary as a child process; `done` resolves when it exits (killed after `timeoutMs`, default 60 s). */
export function startCli(
  args: readonly string[],
  options: { home: string; timeoutMs?: number; cwd?: string; env?: Record<string, string> },
): { child: ChildProcess; done: Promise<CliResult> } {
  if (args.includes(EXAMPLE_CORPUS)) withExampleIndex(options.home);
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: options.cwd ?? REPO_ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: options.home,
      ASSAY_HOME: options.home,
      NO_COLOR: "1",
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const done = new Promise<CliResult>((resolve, reject) => {
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 60_000);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
  return { child, done };
}

export function runCli(
  args: readonly string[],
  options: { home: string; timeoutMs?: number; cwd?: string; env?: Record<string, string> },
): Promise<CliResult> {
  return startCli(args, options).done;
}

export interface ServeProcess {
  url: string;
  child: ChildProcess;
  stderr: () => string;
  /** SIGKILLs the server if it is still running. */
  stop: () => void;
}

/** Starts `assay serve --port 0 ...args` and resolves with its URL once it listens. */
export function startServe(
  args: readonly string[],
  home: string,
  env: Record<string, string> = {},
): Promise<ServeProcess> {
  const child = spawn(process.execPath, [BIN, "serve", "--port", "0", ...args], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: home, ASSAY_HOME: home, NO_COLOR: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk) => {
    stderr += String(chunk);
  });
  const stop = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  };
  return new Promise((resolve, reject) => {
    let stdout = "";
    child.stdout?.on("data", (chunk) => {
      stdout += String(chunk);
      const match = /Listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
      if (match?.[1]) resolve({ url: match[1], child, stderr: () => stderr, stop });
    });
    child.on("exit", (code) => reject(new Error(`assay serve exited (${code}) before listening: ${stderr}`)));
  });
}
