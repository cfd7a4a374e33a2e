/**
 * A strategy drives a run through Host services only. It never writes files, assigns
 * ids or renders: the Host publishes the terminal document from persisted state.
 */

import type { VerificationMap } from "../core/report/synthesized-items.js";
import type { Admitted } from "../core/synthesis/admission.js";
import type { RunHost } from "../host/run-host.js";

/** What a strategy hands back: admitted synthesis items, when a synthesis produced them, and how it checked each fact (a verifying strategy). */
export interface StrategyResult {
  synthesis?: { admitted: Admitted; producedBy: string; verification?: VerificationMap };
  /**
   * Why the run failed although the Host still publishes what was persisted (the investigative
   * strategy's exhausted synthesis reserve names its breaker here); absent for a run that ended well.
   */
  error?: string;
}

export interface Strategy {
  readonly name: string;
  /**
   * Runs (or, after a crash, continues) the research. Must be idempotent over persisted
   * state: work already recorded in the store is reused, not repeated.
   */
  run(host: RunHost): Promise<StrategyResult>;
}
