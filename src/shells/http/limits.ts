/** The HTTP server's limits per user, and their defaults (which `assay serve --help` prints). */
export interface HttpLimits {
  /** Requests a minute per user (token bucket; bursts up to the same number). */
  requestsPerMinute: number;
  /** Runs a user may have queued or running at once. */
  concurrentRuns: number;
  /** Largest accepted request body, in bytes. */
  maxBodyBytes: number;
}

export const DEFAULT_LIMITS: HttpLimits = { requestsPerMinute: 120, concurrentRuns: 2, maxBodyBytes: 64 * 1024 };
