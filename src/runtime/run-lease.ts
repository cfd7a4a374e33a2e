/**
 * The run lease, one rule for every driver (`assay run`, `resume`, `worker`, `serve`, MCP, the
 * TUI all drive runs through the runtime): a run is driven only under its lease, taken by
 * compare-and-set on the run row (`Store.acquireLease`), renewed every third of its length,
 * and released when the drive ends. A second driver is refused while the lease is held, with
 * the holder and the time until it lapses; a lapsed lease is taken over, and the taker resumes
 * from the persisted state. Every write of the driven run goes through `Store.fenced(lease)`, so
 * a process that lost its lease cannot commit anything afterwards.
 */

import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { describeError, UserError } from "../core/errors.js";
import type { Clock } from "../ports/clock.js";
import type { LeaseLostError, RunLease, Store } from "../ports/store.js";

/** How long a lease lasts unless renewed (`ASSAY_RUN_LEASE_MS` overrides it). */
export const DEFAULT_LEASE_MS = 60_000;
/** The shortest lease accepted: renewals every third of it must outpace a busy event loop. */
export const MIN_LEASE_MS = 1_000;

/** A lease holder name for this process: `host:pid/random`, unique per runtime. */
export function leaseHolder(worker = `${hostname()}:${process.pid}`): string {
  return `${worker}/${randomBytes(3).toString("hex")}`;
}

/** The `host:pid` part of a holder name. */
export const holderProcess = (holder: string): string => holder.split("/")[0] ?? holder;

/** Another process holds the run's lease: it drives the run now. */
export class LeaseHeldError extends UserError {
  constructor(
    readonly runId: number,
    readonly holder: string,
    readonly remainingMs: number,
  ) {
    super(
      `run ${runId} is being driven by ${holderProcess(holder)} (its lease lapses in ${Math.max(
        1,
        Math.ceil(remainingMs / 1000),
      )} s unless that process renews it); it cannot be driven twice. If that process is gone, resume the run after its lease lapses`,
    );
  }
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** True or false for a `host:pid` process on this host; undefined when it runs elsewhere (or is not one). */
export function isLocalProcessAlive(process_: string): boolean | undefined {
  const at = process_.lastIndexOf(":");
  if (at < 0) return undefined;
  if (process_.slice(0, at) !== hostname()) return undefined;
  const pid = Number(process_.slice(at + 1));
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Takes the lease of `runId` for `holder`, or throws: `LeaseHeldError` while another holds it,
 * `UserError` for a run that does not exist or is not running. A holder that was a process of
 * this host and no longer exists (killed) gives its lease up at once; one elsewhere, when its
 * lease lapses.
 */
export async function takeLease(
  store: Store,
  runId: number,
  options: { holder: string; clock: Clock; leaseMs: number },
): Promise<RunLease> {
  const nowMs = options.clock.wallMs();
  const claim = { holder: options.holder, now: iso(nowMs), expiresAt: iso(nowMs + options.leaseMs) };
  let attempt = await store.acquireLease(runId, claim);
  if (!attempt.ok && attempt.holder !== "" && isLocalProcessAlive(holderProcess(attempt.holder)) === false)
    attempt = await store.acquireLease(runId, { ...claim, replacing: attempt.holder });
  if (attempt.ok) return attempt.lease;
  if (attempt.status === "missing") throw new UserError(`there is no run ${runId}`);
  if (attempt.status !== "running")
    throw new UserError(`run ${runId} is ${attempt.status}; only an interrupted run can be resumed`);
  throw new LeaseHeldError(runId, attempt.holder, Date.parse(attempt.expiresAt) - nowMs);
}

export interface LeaseKeeper {
  /** Aborted when the lease is lost (a renewal found another holder, or a fenced write was refused). */
  readonly lost: AbortSignal;
  /** Renews now: true while the lease is still held (asked right before publication). */
  confirm(): Promise<boolean>;
  /** Stops renewing and releases the lease if still held. */
  stop(): Promise<void>;
  /** For `Store.fenced`: a refused write means the lease is lost. */
  onLost(error: LeaseLostError): void;
}

/** Renews `lease` every third of `leaseMs` until stopped; `log` hears of failed renewals. */
export function keepLease(
  store: Store,
  lease: RunLease,
  options: { clock: Clock; leaseMs: number; log?: (line: string) => void },
): LeaseKeeper {
  const controller = new AbortController();
  let current: RunLease | undefined = lease;
  const lose = (why: string) => {
    current = undefined;
    if (!controller.signal.aborted) controller.abort(new Error(why));
  };
  const renew = async (): Promise<boolean> => {
    if (!current) return false;
    const nowMs = options.clock.wallMs();
    try {
      const renewed = await store.renewLease(current, { now: iso(nowMs), expiresAt: iso(nowMs + options.leaseMs) });
      if (renewed) {
        current = renewed;
        return true;
      }
      lose(`run ${lease.runId}: the lease was taken by another process`);
      return false;
    } catch (error) {
      // A renewal that failed (the database unreachable) is not a lost lease yet: the next one may succeed.
      options.log?.(`run ${lease.runId}: renewing the lease failed: ${describeError(error)}`);
      return current !== undefined;
    }
  };
  const timer = setInterval(() => void renew(), Math.max(100, Math.floor(options.leaseMs / 3)));
  timer.unref();
  return {
    lost: controller.signal,
    confirm: renew,
    onLost: (error) => lose(error.message),
    async stop() {
      clearInterval(timer);
      const held = current;
      current = undefined;
      if (held) await store.releaseLease(held).catch(() => {});
    },
  };
}
