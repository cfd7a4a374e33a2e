/** A clock the test moves by hand. */
import type { Clock } from "../ports/clock.js";

export class FakeClock implements Clock {
  #mono = 1_000;
  #wall = Date.parse("2026-01-15T09:00:00.000Z");

  monotonicMs(): number {
    return this.#mono;
  }

  wallMs(): number {
    return this.#wall;
  }

  advance(ms: number): void {
    this.#mono += ms;
    this.#wall += ms;
  }
}
