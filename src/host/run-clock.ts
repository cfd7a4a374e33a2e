/**
 * One monotonic origin per run, taken before any work. A resumed run continues the
 * offsets of the original origin: the base is the wall-clock time elapsed since then.
 */
import type { Clock } from "../ports/clock.js";

export class RunClock {
  readonly #clock: Clock;
  readonly #originMono: number;
  readonly #baseMs: number;
  /** Wall-clock time of the run origin (ms since the epoch). */
  readonly originWallMs: number;

  private constructor(clock: Clock, originWallMs: number, baseMs: number) {
    this.#clock = clock;
    this.#originMono = clock.monotonicMs();
    this.originWallMs = originWallMs;
    this.#baseMs = baseMs;
  }

  /** Starts a new run's clock now. */
  static start(clock: Clock): RunClock {
    return new RunClock(clock, clock.wallMs(), 0);
  }

  /** Continues a run whose origin was `originWallMs`; offsets never go below `atLeastMs`. */
  static resume(clock: Clock, originWallMs: number, atLeastMs: number): RunClock {
    return new RunClock(clock, originWallMs, Math.max(atLeastMs, clock.wallMs() - originWallMs));
  }

  /** Milliseconds since the run origin. */
  offset(): number {
    return this.#baseMs + (this.#clock.monotonicMs() - this.#originMono);
  }

  wallIso(): string {
    return new Date(this.#clock.wallMs()).toISOString();
  }
}
