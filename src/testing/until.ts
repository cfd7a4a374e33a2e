/** Waiting in tests for something asynchronous to become true. */

/** Polls `condition` every 20 ms; throws after `timeoutMs` (naming `what`, when given). */
export async function until(
  condition: () => Promise<boolean> | boolean,
  timeoutMs = 10_000,
  what = "the condition",
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
