/** Whether this process talks to a person at a terminal (both ends), so a full-screen UI or a progress line makes sense. */
export function interactive(): boolean {
  return process.stdin.isTTY === true && process.stdout.isTTY === true && process.env.TERM !== "dumb";
}
