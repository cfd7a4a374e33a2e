/**
 * Model generations inside the run envelope: budget, per-call timeout bounded by the
 * acquisition deadline, usage accounting and events. A failed generation is recorded and
 * returned; it never fails the run.
 */
import type { CallOptions, Generation, Model } from "../ports/model.js";
import type { RunHost } from "./run-host.js";

/** Longest a single model call may take. */
export const MODEL_CALL_TIMEOUT_MS = 180_000;

export type GenerationPurpose = "planner" | "synthesis";

/**
 * Runs one generation of `purpose` when the generations budget allows it. Returns
 * undefined when it was not started (budget spent or deadline passed).
 */
export async function generate<T>(
  host: RunHost,
  model: Model,
  purpose: GenerationPurpose,
  call: (options: CallOptions) => Promise<Generation<T>>,
): Promise<Generation<T> | undefined> {
  if (host.signal.aborted) return undefined;
  if (!(await host.trySpend("generations"))) return undefined;
  const { wallClockMs, publishReserveMs } = host.request.budgets;
  const timeoutMs = Math.max(1, Math.min(MODEL_CALL_TIMEOUT_MS, wallClockMs - publishReserveMs - host.clock.offset()));
  await host.emit("generation-started", { purpose, model: model.name, timeoutMs });
  let result: Generation<T>;
  try {
    result = await call({ signal: host.signal, timeoutMs });
  } catch (error) {
    // A Model must not throw; if one does, it is a transport failure of that call.
    result = {
      ok: false,
      kind: "transport",
      error: error instanceof Error ? error.message : String(error),
      usage: { inputTokens: 0, outputTokens: 0 },
      attempts: 1,
    };
  }
  const cost = model.cost?.(result.usage);
  const usage = {
    inputTokens: result.usage.inputTokens,
    outputTokens: result.usage.outputTokens,
    ...(cost === undefined ? {} : { costUsd: cost }),
  };
  if (result.ok) {
    await host.emit("generation-finished", { purpose, model: model.name, usage, attempts: result.attempts });
  } else {
    await host.diagnose("model", `${purpose}-${result.kind}`, result.error, { model: model.name });
    await host.emit("generation-failed", {
      purpose,
      model: model.name,
      kind: result.kind,
      usage,
      attempts: result.attempts,
    });
  }
  return result;
}
