/** An in-memory job queue for worker tests, and a wait for a condition. */
import type { DeadLetter, JobQueue, LeasedJob, RetryPolicy } from "../ports/job-queue.js";

/** Records what happened to each job; a job gets `retries + 1` deliveries (one with no policy). */
export class MemoryQueue implements JobQueue {
  readonly ready: { runId: number; attempt: number; attempts: number }[] = [];
  readonly outcomes: string[] = [];
  readonly dead: DeadLetter[] = [];

  async enqueue(runId: number, policy?: RetryPolicy): Promise<string> {
    this.ready.push({ runId, attempt: 1, attempts: (policy?.retries ?? 0) + 1 });
    return `job-${runId}`;
  }

  async take(): Promise<LeasedJob | undefined> {
    const next = this.ready.shift();
    if (!next) return undefined;
    const id = `job-${next.runId}`;
    return {
      id,
      runId: next.runId,
      attempt: next.attempt,
      lastAttempt: next.attempt >= next.attempts,
      leaseSeconds: 1,
      heartbeat: async () => true,
      complete: async () => {
        this.outcomes.push(`${id} completed on attempt ${next.attempt}`);
      },
      fail: async (error) => {
        this.outcomes.push(`${id} failed on attempt ${next.attempt}: ${error.split(":")[0]}`);
        if (next.attempt < next.attempts) this.ready.push({ ...next, attempt: next.attempt + 1 });
      },
    };
  }

  async deadLetters(): Promise<DeadLetter[]> {
    return [...this.dead];
  }

  async hasPendingJob(runId: number): Promise<boolean> {
    return this.ready.some((job) => job.runId === runId);
  }

  async close(): Promise<void> {}
}
