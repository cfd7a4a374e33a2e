/** Waiting between retries, cut short by a signal. Shared by the adapters that retry. */
import { setTimeout as delay } from "node:timers/promises";

/** Resolves true after `ms`, or false as soon as `signal` aborts (also when it already has). */
export async function sleepUnlessAborted(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return false;
  try {
    await delay(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}
