/** Waiting in tests for something asynchronous to become true. */

/**
 * Polls `condition` every 20 ms; throws after `timeoutMs`, naming `what` (a function is asked
 * at the timeout, so that it can describe the state then, not the state when the wait began).
 */
export async function until(
  condition: () => Promise<boolean> | boolean,
  timeoutMs = 10_000,
  what: string | (() => string) = "the condition",
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${typeof what === "string" ? what : what()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
