/**
 * Whether a 'running' run is still alive: its worker process on this host must exist, and a
 * run driven by `assay worker` on another host must have a fresh heartbeat.
 */
import { hostname } from "node:os";
import { isQueued, type RunRecord } from "../../ports/store.js";
import { STALE_HEARTBEAT_MS } from "../../runtime/run-worker.js";

export type DisplayStatus = RunRecord["status"] | "interrupted" | "queued";

/** True or false for a `host:pid` worker on this host; undefined when it runs elsewhere (or is not one). */
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

/** Milliseconds since the run's last worker heartbeat; undefined when no worker wrote one. */
export function heartbeatAgeMs(run: Pick<RunRecord, "heartbeatAt">, nowMs: number = Date.now()): number | undefined {
  const at = Date.parse(run.heartbeatAt ?? "");
  return Number.isNaN(at) ? undefined : Math.max(0, nowMs - at);
}

/** A heartbeat older than `STALE_HEARTBEAT_MS`: no live worker drives the run. */
export function isHeartbeatStale(run: Pick<RunRecord, "heartbeatAt">, nowMs: number = Date.now()): boolean {
  const age = heartbeatAgeMs(run, nowMs);
  return age !== undefined && age > STALE_HEARTBEAT_MS;
}

/**
 * 'queued' for a run no worker has taken yet; 'interrupted' for a running run whose process is
 * gone: on this host, its pid no longer exists; on another host (a worker's), its heartbeat is
 * stale. A run on another host with no heartbeat (an `assay run` there) shows as running.
 */
export function displayStatus(run: RunRecord, nowMs: number = Date.now()): DisplayStatus {
  if (isQueued(run)) return "queued";
  if (run.status !== "running") return run.status;
  const alive = isWorkerAlive(run.worker);
  if (alive === false) return "interrupted";
  if (alive === undefined && isHeartbeatStale(run, nowMs)) return "interrupted";
  return "running";
}
