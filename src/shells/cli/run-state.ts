/** Whether a 'running' run is still alive: its worker process on this host must exist. */
import { hostname } from "node:os";
import { isQueued, type RunRecord } from "../../ports/store.js";

export type DisplayStatus = RunRecord["status"] | "interrupted" | "queued";

export function isWorkerAlive(worker: string): boolean | undefined {
  const at = worker.lastIndexOf(":");
  if (at < 0) return undefined;
  if (worker.slice(0, at) !== hostname()) return undefined;
  const pid = Number(worker.slice(at + 1));
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** 'queued' for a run no worker has taken yet; 'interrupted' for a running run whose process is gone. */
export function displayStatus(run: RunRecord): DisplayStatus {
  if (isQueued(run)) return "queued";
  if (run.status === "running" && isWorkerAlive(run.worker) === false) return "interrupted";
  return run.status;
}
