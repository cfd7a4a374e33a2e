/**
 * Crash tests: start a child process, wait until it prints "ready" (it has done its first
 * unit of work), let it run `ms` more, and SIGKILL it. Children still alive after a test are
 * killed by `killLeftovers`.
 */
import { type ChildProcess, spawn } from "node:child_process";

const children: ChildProcess[] = [];

/** How the child ended (a signal name or an exit code) and what it wrote to stderr. */
export interface KillOutcome {
  end: NodeJS.Signals | number | null;
  stderr: string;
}

export async function runAndKill(args: readonly string[], ms: number): Promise<KillOutcome> {
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let stderr = "";
  child.stderr?.on("data", (chunk) => {
    stderr += String(chunk);
  });
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.on("exit", (code, signal) => resolve(signal ?? code)),
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on("data", (chunk) => {
      if (String(chunk).includes("ready")) resolve();
    });
    child.on("exit", () => reject(new Error(`the child exited before it was ready: ${stderr}`)));
  });
  await new Promise((resolve) => setTimeout(resolve, ms));
  child.kill("SIGKILL");
  return { end: await exited, stderr };
}

/** Kills every child a test left running (use in afterEach). */
export function killLeftovers(): void {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
}
