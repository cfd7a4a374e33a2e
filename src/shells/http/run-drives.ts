/**
 * The runs this server drives in-process (SQLite, or PostgreSQL without --queue): each with
 * its AbortController, so that `cancel` reaches it, and its promise, so that shutdown can
 * wait for the publications in progress.
 */
import type { RunOutcome } from "../../runtime/runtime.js";

export class RunDrives {
  readonly #drives = new Map<number, { controller: AbortController; done: Promise<void> }>();
  readonly #log: (line: string) => void;

  constructor(log: (line: string) => void) {
    this.#log = log;
  }

  has(runId: number): boolean {
    return this.#drives.has(runId);
  }

  get size(): number {
    return this.#drives.size;
  }

  /**
   * Drives `work` in the background; a failure is logged (the run's own record says what
   * happened). With `watch`, asks every `everyMs` whether another process requested a cancel.
   */
  start(
    runId: number,
    work: (signal: AbortSignal) => Promise<RunOutcome>,
    watch?: { cancelRequested: () => Promise<boolean>; everyMs: number },
  ): void {
    const controller = new AbortController();
    const timer =
      watch &&
      setInterval(() => {
        watch.cancelRequested().then(
          (requested) => {
            if (requested && !controller.signal.aborted) controller.abort(new Error("cancel requested"));
          },
          (error: unknown) => this.#log(`run ${runId}: reading its cancel request failed: ${String(error)}`),
        );
      }, watch.everyMs);
    timer?.unref();
    const done = work(controller.signal).then(
      (outcome) => this.#log(`run ${runId} ${outcome.status}${outcome.error ? `: ${outcome.error}` : ""}`),
      (error: unknown) => this.#log(`run ${runId} stopped: ${error instanceof Error ? error.message : String(error)}`),
    );
    this.#drives.set(runId, { controller, done });
    void done.finally(() => {
      if (timer) clearInterval(timer);
      this.#drives.delete(runId);
    });
  }

  /** Aborts the run's acquisition: the Host publishes from persisted state. False when this server does not drive it. */
  cancel(runId: number, reason: string): boolean {
    const drive = this.#drives.get(runId);
    if (!drive) return false;
    drive.controller.abort(new Error(reason));
    return true;
  }

  /** Resolves when the run (if this server drives it) has ended. */
  async settled(runId: number): Promise<void> {
    await this.#drives.get(runId)?.done;
  }

  /** Cancels every run and waits for their publications. */
  async shutdown(): Promise<void> {
    const drives = [...this.#drives.values()];
    for (const drive of drives) drive.controller.abort(new Error("the server is stopping"));
    await Promise.all(drives.map((drive) => drive.done));
  }
}
