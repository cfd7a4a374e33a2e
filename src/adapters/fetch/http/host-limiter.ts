/**
 * Politeness per site: at most `maxConcurrent` requests in flight to one site, and page
 * request starts to one site at least `delayMs` apart. Waiters are served in arrival order.
 * The caller names the site (the fetcher passes the registrable domain, so the 30 subdomains
 * of one site are one site to be polite to, while different sites never wait on each other).
 * A request run with `paced: false` (the robots.txt that guards a site's first page) takes a
 * slot but neither waits for the delay nor moves it: reading robots.txt and then the page it
 * allows is one visit.
 */

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export interface HostLimiterOptions {
  maxConcurrent: number;
  delayMs: number;
  sleep: Sleep;
  now: () => number;
}

interface HostState {
  active: number;
  waiting: Array<() => void>;
  /** Earliest time the next request may start. */
  nextStart: number;
}

export class HostLimiter {
  readonly #options: HostLimiterOptions;
  readonly #hosts = new Map<string, HostState>();

  constructor(options: HostLimiterOptions) {
    this.#options = options;
  }

  /** Runs `task` when `host` has a free slot and, when `paced`, its politeness delay has passed. */
  async run<T>(host: string, task: () => Promise<T>, signal?: AbortSignal, paced = true): Promise<T> {
    await this.#acquire(host, signal, paced);
    try {
      return await task();
    } finally {
      this.#release(host);
    }
  }

  async #acquire(host: string, signal: AbortSignal | undefined, paced: boolean): Promise<void> {
    signal?.throwIfAborted();
    let state = this.#hosts.get(host);
    if (!state) {
      state = { active: 0, waiting: [], nextStart: 0 };
      this.#hosts.set(host, state);
    }
    if (state.active < this.#options.maxConcurrent) {
      state.active++;
    } else {
      await this.#queue(state, signal);
    }
    if (!paced) return;
    const now = this.#options.now();
    const start = Math.max(now, state.nextStart);
    state.nextStart = start + this.#options.delayMs;
    if (start > now) {
      try {
        await this.#options.sleep(start - now, signal);
      } catch (error) {
        this.#release(host);
        throw error;
      }
    }
  }

  /** Waits for a slot handed over by #release (the active count then stays the same). */
  #queue(state: HostState, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        state.waiting = state.waiting.filter((other) => other !== wake);
        reject(signal?.reason);
      };
      const wake = (): void => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      };
      state.waiting.push(wake);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  #release(host: string): void {
    const state = this.#hosts.get(host);
    if (!state) return;
    const next = state.waiting.shift();
    if (next) {
      next();
      return;
    }
    state.active--;
    // Forget idle hosts once their delay has passed, so the map does not grow without bound.
    if (state.active === 0 && state.nextStart <= this.#options.now()) this.#hosts.delete(host);
  }
}
