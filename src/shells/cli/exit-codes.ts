/** Exit codes: 0 published; 1 failed; 2 usage or configuration error; 130 interrupted. */
export const EXIT = { ok: 0, failed: 1, usage: 2, interrupted: 130 } as const;
