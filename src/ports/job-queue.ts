/**
 * A durable queue of runs to execute, shared by worker processes. The queue delivers each job
 * to one worker at a time under a lease; a worker that stops renewing the lease (it died)
 * loses the job, which becomes available again, and a job that failed too often is moved to
 * a dead-letter state. Implementation: pg-boss on PostgreSQL (src/adapters/queue/pg-boss/).
 */

/** How often and how patiently a run is retried; fixed when the run is enqueued. */
export interface RetryPolicy {
  /** Attempts after the first one (0: a single attempt). */
  retries: number;
  /** Delay before the first retry; it doubles for each later one (with jitter). */
  retryDelaySeconds: number;
  /** How long a taken job stays leased without a heartbeat. */
  leaseSeconds: number;
}

/** A job taken by this worker: its lease must be renewed until it is completed or failed. */
export interface LeasedJob {
  /** The queue's id of the job. */
  id: string;
  runId: number;
  /** 1 for the first delivery; a lease that ran out or a failure counts as an attempt. */
  attempt: number;
  /** True when a failure of this attempt moves the job to the dead-letter state. */
  lastAttempt: boolean;
  leaseSeconds: number;
  /** Renews the lease; false when the job is no longer leased to this worker. */
  heartbeat(): Promise<boolean>;
  /** The run reached a terminal status: the job is done. */
  complete(): Promise<void>;
  /** The attempt failed: the job is retried after a backoff, or dead-lettered after the last. */
  fail(error: string): Promise<void>;
}

/**
 * A job the queue gave up on after its last attempt. It stays in the dead-letter state for
 * operators until it is retried or purged (`assay queue retry`, `assay queue purge-dead`).
 */
export interface DeadLetter {
  /** The queue's id of the dead-letter job. */
  id: string;
  runId: number;
  /** Attempts made before the queue gave up (retries + 1). */
  attempts: number;
  /** The lease the job was sent with. */
  leaseSeconds: number;
  /** Why the last attempt failed: the worker's error, or "the lease ran out". */
  error: string;
  /** True when the last attempt ended because its lease ran out: the worker died or lost the database. */
  leaseExpired: boolean;
  /** When the job was dead-lettered (ISO). */
  at: string;
}

export interface JobQueue {
  /** Adds a job for a run that is already recorded (queued) in the store; returns the job id. */
  enqueue(runId: number, policy: RetryPolicy): Promise<string>;
  /** Leases the next ready job, or undefined when none is ready. */
  take(): Promise<LeasedJob | undefined>;
  /** The dead-lettered jobs that wait for an operator, oldest first. */
  deadLetters(): Promise<DeadLetter[]>;
  /** Whether a job of the run waits for a worker, waits out a retry's backoff, or is leased. */
  hasPendingJob(runId: number): Promise<boolean>;
  close(): Promise<void>;
}
