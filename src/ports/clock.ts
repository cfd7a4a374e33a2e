/** Time, injected so that the core and tests control it. */
export interface Clock {
  /** Monotonic milliseconds (arbitrary origin); never goes back. */
  monotonicMs(): number;
  /** Wall-clock milliseconds since the epoch, for capture timestamps. */
  wallMs(): number;
}
