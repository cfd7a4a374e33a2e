/**
 * Whether a 'running' run is still driven: by its lease (runtime/run-lease.ts); for runs
 * recorded before leases, by its worker's process on this host or a fresh heartbeat elsewhere.
 */
import { isQueued, type RunRecord } from "../../ports/store.js";
import { holderProcess, isLocalProcessAlive } from "../../runtime/run-lease.js";
import { STALE_HEARTBEAT_MS } from "../../runtime/run-worker.js";

export type DisplayStatus = RunRecord["status"] | "interrupted" | "queued";

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
 * 'queued' for a run no worker has taken yet; 'interrupted' for a running run nobody drives:
 * its lease lapsed or was given up (or, on this host, its holder's pid no longer exists). A run
 * recorded before leases existed: its pid on this host, or a stale heartbeat on another.
 */
export function displayStatus(run: RunRecord, nowMs: number = Date.now()): DisplayStatus {
  if (isQueued(run)) return "queued";
  if (run.status !== "running") return run.status;
  if ((run.leaseEpoch ?? 0) > 0) {
    const holder = run.leaseHolder ?? "";
    if (holder === "" || Date.parse(run.leaseExpiresAt ?? "") <= nowMs) return "interrupted";
    return isLocalProcessAlive(holderProcess(holder)) === false ? "interrupted" : "running";
  }
  const alive = isLocalProcessAlive(run.worker);
  if (alive === false) return "interrupted";
  if (alive === undefined && isHeartbeatStale(run, nowMs)) return "interrupted";
  return "running";
}
