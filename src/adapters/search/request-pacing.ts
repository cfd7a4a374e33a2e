/**
 * Request pacing shared by every client in the process: requests under one key (a provider)
 * start at least `intervalMs` apart, in the order they asked, so that runs sharing a server
 * process keep together to a provider's terms (arXiv: one request per 3 s; PubMed without a
 * key: three per second) instead of each keeping to them alone.
 */
import { sleepUnlessAborted } from "../shared/abortable-sleep.js";

/** When the next request under each key may start (epoch ms), reserved by the requests that asked. */
const nextStart = new Map<string, number>();

/**
 * Waits for this request's turn under `key`. Rejects with the signal's reason when it aborts
 * first; the turn it had reserved is then not given back (the next request waits as if it
 * had been sent, which errs on the side of the provider's limit).
 */
export async function paced(key: string, intervalMs: number, signal?: AbortSignal, now = Date.now): Promise<void> {
  signal?.throwIfAborted();
  const at = Math.max(now(), nextStart.get(key) ?? 0);
  nextStart.set(key, at + intervalMs);
  const wait = at - now();
  if (wait <= 0) return;
  if (!signal) {
    await new Promise((resolve) => setTimeout(resolve, wait));
    return;
  }
  if (!(await sleepUnlessAborted(wait, signal))) throw signal.reason;
}
