/** Runs the built `assay` binary as a real child process. Tests need `npm run build` first. */
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const BIN = fileURLToPath(new URL("../../bin/assay.js", import.meta.url));
export const EXAMPLE_CORPUS = fileURLToPath(new URL("../../examples/corpus", import.meta.url));

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
