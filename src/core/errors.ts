/**
 * Typed errors that say who is at fault. Shells map them to exit codes and messages.
 */
export class AssayError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The request, a path, a pattern or the configuration is wrong: the user can fix it. */
export class UserError extends AssayError {}

/** A model returned output that does not fit its schema. */
export class ModelBehaviorError extends AssayError {}

/** A provider, the network or the file system failed. */
export class ExternalServiceError extends AssayError {
  readonly isRetryable: boolean;
  constructor(message: string, options?: { cause?: unknown; isRetryable?: boolean }) {
    super(message, options);
    this.isRetryable = options?.isRetryable ?? false;
  }
}

/** Storage failed (a write was not committed). */
export class StoreError extends AssayError {}

/** Short, single-line description of any thrown value, for internal diagnostics. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`.slice(0, 2000);
  return String(error).slice(0, 2000);
}
