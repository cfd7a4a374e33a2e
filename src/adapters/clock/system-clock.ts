/** The real clock: performance.now() is monotonic, Date.now() is the wall clock. */
import { performance } from "node:perf_hooks";
import type { Clock } from "../../ports/clock.js";

export const systemClock: Clock = {
  monotonicMs: () => performance.now(),
  wallMs: () => Date.now(),
};
