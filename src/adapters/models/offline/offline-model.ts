/**
 * The offline engine: the embedded default Model when none is configured. Classical
 * retrieval and extraction, no network and no weights, deterministic for the same input.
 * The planner expands the request and, once the bootstrap sources are persisted, feeds
 * back what they name; the synthesis quotes the packet's best sentences verbatim. It never
 * writes a sentence that is not in a source (gaps say only what the sources do not mention).
 * In the investigative loop it reads no prompt: it follows fixed rules over the loop's state
 * (investigative-rules.ts).
 */
import type { Judge } from "../../../core/judgment/judge.js";
import type { PlannerOutput, SynthesisOutput } from "../../../core/synthesis/proposals.js";
import type {
  ActInput,
  ActTurn,
  AgentMessage,
  AgentTurn,
  AgentTurnInput,
  CallOptions,
  Generation,
  Model,
  PacketSource,
  PlannerInput,
  SynthesisInput,
} from "../../../ports/model.js";
import { planQueries } from "./query-expansion.js";
import { DEFAULT_EXTRACTION_LIMITS, extractiveSynthesis } from "./sentence-extraction.js";

const NO_USAGE = { inputTokens: 0, outputTokens: 0 };

const cancelled = <T>(): Generation<T> => ({
  ok: false,
  kind: "cancelled",
  error: "the call was cancelled",
  usage: NO_USAGE,
  attempts: 1,
});

const succeeded = <T>(value: T): Generation<T> => ({ ok: true, value, usage: NO_USAGE, attempts: 1 });

const failed = <T>(error: unknown): Generation<T> => ({
  ok: false,
  kind: "malformed",
  error: `the offline engine failed: ${error instanceof Error ? error.message : String(error)}`,
  usage: NO_USAGE,
  attempts: 1,
});

const notInvestigative = <T>(): Generation<T> => ({
  ok: false,
  kind: "refused",
  error:
    "the offline engine can only drive the investigative loop: act needs the loop's state " +
    '(ActInput.state of kind "investigative"), since it follows fixed rules and does not read prompts',
  usage: NO_USAGE,
  attempts: 1,
});

type Waited<T> = { kind: "value"; value: T } | { kind: "timeout" } | { kind: "aborted" } | { kind: "failed" };

/** Waits for `promise`, at most `timeoutMs`, and stops early when `signal` aborts. Never rejects. */
function waitFor<T>(promise: Promise<T>, timeoutMs: number, signal?: AbortSignal): Promise<Waited<T>> {
  if (signal?.aborted) return Promise.resolve({ kind: "aborted" });
  return new Promise((resolve) => {
    const finish = (outcome: Waited<T>): void => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      resolve(outcome);
    };
    const onAbort = (): void => finish({ kind: "aborted" });
    const timer = setTimeout(() => finish({ kind: "timeout" }), Math.max(0, timeoutMs));
    signal?.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => finish({ kind: "value", value }),
      () => finish({ kind: "failed" }),
    );
  });
}

/**
 * The offline engine's turn of a tool-calling loop: one search with the request, reads of
 * the top hits (a hit that could not be read is replaced by the next one while reads are
 * left), then an extractive answer over what was read. Deterministic.
 */
export function offlineTurn(input: AgentTurnInput, judge?: Judge): AgentTurn {
  const results = input.transcript.filter(
    (message): message is Extract<AgentMessage, { role: "tool" }> => message.role === "tool",
  );
  const searched = results.filter((message) => message.tool === "search");
  if (!input.mustAnswer && searched.length === 0 && input.searchesLeft > 0) {
    return { kind: "tools", calls: [{ id: "search-1", tool: "search", query: input.question }] };
  }
  const called = new Set(
    input.transcript.flatMap((message) =>
      message.role === "assistant" ? message.calls.flatMap((call) => (call.tool === "read" ? [call.hit] : [])) : [],
    ),
  );
  const unread = searched.flatMap((message) => message.hits ?? []).filter((hit) => !called.has(hit.handle));
  const wanted = Math.min(input.readsLeft, input.maxCallsPerTurn, unread.length);
  if (!input.mustAnswer && wanted > 0) {
    const round = called.size;
    return {
      kind: "tools",
      calls: unread
        .slice(0, wanted)
        .map((hit, index) => ({ id: `read-${round + index + 1}`, tool: "read", hit: hit.handle })),
    };
  }
  const sources = new Map<string, PacketSource>();
  for (const message of results) if (message.source) sources.set(message.source.id, message.source);
  const synthesis = extractiveSynthesis(input.question, [...sources.values()], {
    ...(judge ? { judge } : {}),
    limits: DEFAULT_EXTRACTION_LIMITS,
    language: input.language,
  });
  return {
    kind: "answer",
    answer: {
      statements: synthesis.facts.map(({ text, sourceId, chunkIds }) => ({ text, sourceId, chunkIds })),
      gaps: synthesis.gaps.map(({ text }) => ({ text })),
    },
  };
}

export interface OfflineModelOptions {
  /** Decides support and contradiction (default: the English judge, loaded at its first use). */
  judge?: Judge;
}

export function createOfflineModel(options: OfflineModelOptions = {}): Model {
  let judge = options.judge;
  /** The judge, loaded at the first call that needs one. */
  const judgeOf = async (): Promise<Judge> => {
    judge ??= (await import("../../language/english-judge.js")).englishJudge();
    return judge;
  };
  return {
    name: "offline",
    // It runs on this machine: every call is free.
    cost: () => 0,
    kind: "extractive",

    async plan(input: PlannerInput, options: CallOptions): Promise<Generation<PlannerOutput>> {
      // Feedback needs the bootstrap sources; without them in time, the request alone still plans.
      const bootstrap = await waitFor(input.bootstrap, options.timeoutMs, options.signal);
      if (bootstrap.kind === "aborted" || options.signal?.aborted) return cancelled();
      const sources: readonly PacketSource[] = bootstrap.kind === "value" ? bootstrap.value : [];
      try {
        const queries = planQueries(input.question, sources, {
          maxQueries: Math.max(0, Math.floor(input.maxQueries)),
          maxQueryChars: Math.max(0, Math.floor(input.maxQueryChars)),
        });
        return succeeded({ queries: queries.map((text) => ({ text })) });
      } catch (error) {
        return failed(error);
      }
    },

    async synthesize(input: SynthesisInput, options: CallOptions): Promise<Generation<SynthesisOutput>> {
      if (options.signal?.aborted) return cancelled();
      try {
        const judge = await judgeOf();
        return succeeded(
          extractiveSynthesis(input.question, input.sources, {
            judge,
            limits: DEFAULT_EXTRACTION_LIMITS,
            language: input.language,
            ...(input.read ? { read: input.read } : {}),
          }),
        );
      } catch (error) {
        return failed(error);
      }
    },

    async step(input: AgentTurnInput, options: CallOptions): Promise<Generation<AgentTurn>> {
      if (options.signal?.aborted) return cancelled();
      try {
        return succeeded(offlineTurn(input, await judgeOf()));
      } catch (error) {
        return failed(error);
      }
    },

    /** A turn of the investigative loop, by fixed rules over `input.state` (see investigative-rules.ts). */
    async act(input: ActInput, options: CallOptions): Promise<Generation<ActTurn>> {
      if (options.signal?.aborted) return cancelled();
      // Loaded at the first turn: a pipeline run does not pay for the loop's rules.
      const [{ isActState }, { offlineInvestigativeTurn }, judge] = await Promise.all([
        import("./investigative-context.js"),
        import("./investigative-rules.js"),
        judgeOf(),
      ]);
      if (!isActState(input.state)) return notInvestigative();
      try {
        return succeeded(offlineInvestigativeTurn(input.state, judge));
      } catch (error) {
        return failed(error);
      }
    },
  };
}
