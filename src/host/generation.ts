/**
 * Model generations inside the run envelope: budget, per-call timeout bounded by the
 * acquisition deadline, usage accounting and events. A failed generation is recorded and
 * returned; it never fails the run.
 */
import type { CallOptions, Generation, Model } from "../ports/model.js";
import type { RunHost } from "./run-host.js";

export type GenerationPurpose = "planner" | "synthesis" | "turn";

const failure = <T>(kind: "timeout" | "cancelled" | "transport", error: string): Generation<T> => ({
  ok: false,
  kind,
  error,
  usage: { inputTokens: 0, outputTokens: 0 },
  attempts: 1,
});

/**
 * Runs `call` with its own signal, and gives up on it at `timeoutMs` or when `outer`
 * aborts, whether or not the model honours the signal: a hung call never holds the run.
 */
async function bounded<T>(
  call: (options: CallOptions) => Promise<Generation<T>>,
  outer: AbortSignal,
  timeoutMs: number,
): Promise<Generation<T>> {
  const limit = new AbortController();
  const timer = setTimeout(() => limit.abort(), timeoutMs);
  const signal = AbortSignal.any([outer, limit.signal]);
  let stop: () => void = () => {};
  const stopped = new Promise<Generation<T>>((resolve) => {
    stop = () =>
      resolve(
        outer.aborted
          ? failure("cancelled", "the call was cancelled: the run stopped")
          : failure("timeout", `the model did not answer within ${timeoutMs} ms`),
      );
    signal.addEventListener("abort", stop, { once: true });
  });
  try {
    if (signal.aborted) stop();
    return await Promise.race([
      call({ signal, timeoutMs }).catch((error: unknown) =>
        // A Model must not throw; if one does, it is a transport failure of that call.
        failure<T>("transport", error instanceof Error ? error.message : String(error)),
      ),
      stopped,
    ]);
  } finally {
    clearTimeout(timer);
    signal.removeEventListener("abort", stop);
  }
}

/**
 * Runs one generation of `purpose` when the generations budget and the cost budget allow it.
 * Returns undefined when it was not started (a budget spent or the deadline passed).
 */
export async function generate<T>(
  host: RunHost,
  model: Model,
  purpose: GenerationPurpose,
  call: (options: CallOptions) => Promise<Generation<T>>,
): Promise<Generation<T> | undefined> {
  if (host.signal.aborted) return undefined;
  if (!(await host.costAllows())) return undefined;
  if (!(await host.trySpend(purpose === "turn" ? "turns" : "generations"))) return undefined;
  const { wallClockMs, publishReserveMs, modelCallTimeoutMs } = host.request.budgets;
  const timeoutMs = Math.max(1, Math.min(modelCallTimeoutMs, wallClockMs - publishReserveMs - host.clock.offset()));
  await host.emit("generation-started", { purpose, model: model.name, timeoutMs });
  const result = await bounded(call, host.signal, timeoutMs);
  const cost = model.cost?.(result.usage);
  host.spendCost(cost, result.usage.inputTokens + result.usage.outputTokens);
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
