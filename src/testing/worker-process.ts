/** `assay worker` as a real child process, for the queue tests. Tests need `npm run build` first. */
import { type ChildProcess, spawn } from "node:child_process";
import { BIN, REPO_ROOT } from "./cli.js";

/** Quick polls and maintenance so that leases and retries play out in seconds. */
export const FAST_WORKER = ["--poll", "0.2", "--maintenance-interval", "1"];

export interface WorkerProcess {
  child: ChildProcess;
  /** The exit signal, or the exit code. */
  exited: Promise<NodeJS.Signals | number | null>;
  /** Everything the worker wrote to stderr so far. */
  stderr: () => string;
}

/** Starts `assay worker --db url` with the fast settings and `extra` arguments; `home` is its ASSAY_HOME. */
export function startWorkerProcess(url: string, home: string, extra: readonly string[] = []): WorkerProcess {
  const child = spawn(process.execPath, [BIN, "worker", "--db", url, ...FAST_WORKER, ...extra], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: home, ASSAY_HOME: home, NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk) => {
    stderr += String(chunk);
  });
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.on("exit", (code, signal) => resolve(signal ?? code)),
  );
  return { child, exited, stderr: () => stderr };
}

/** Kills what is still running (an afterEach). */
export function killAll(workers: WorkerProcess[]): void {
  for (const worker of workers.splice(0))
    if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill("SIGKILL");
}
