/**
 * A model proposes; the Host decides. Every implementation (hosted and local providers
 * through the AI SDK, the embedded offline engine, the scripted test model) returns
 * proposals that the Host admits item by item. A failure is a value, never a throw.
 */
import type { PlannerOutput, SynthesisOutput } from "../core/synthesis/proposals.js";

export interface ModelUsage {
  inputTokens: number;
  outputTokens: number;
}

export type GenerationFailureKind = "timeout" | "transport" | "malformed" | "refused" | "cancelled";

export type Generation<T> =
  | { ok: true; value: T; usage: ModelUsage; attempts: number }
  | { ok: false; kind: GenerationFailureKind; error: string; usage: ModelUsage; attempts: number };

export interface CallOptions {
  signal?: AbortSignal;
  /** Per-call limit; the adapter gives up (kind 'timeout') after it. */
  timeoutMs: number;
}

/** A persisted source as a model may see it: Host ids and bounded, untrusted text. */
export interface PacketSource {
  id: string;
  title: string;
  /** Path or URL, for the model's orientation only. */
  location: string;
  chunks: { id: string; text: string }[];
}

export interface PlannerInput {
  question: string;
  language: string;
  /** Reader-safe description of the evidence scope ("the local folder “corpus”"). */
  scope: string;
  scopeKind: "corpus" | "web";
  maxQueries: number;
  maxQueryChars: number;
  /**
   * Resolves with the bootstrap sources once they are persisted. A generative planner
   * starts without it; an extractive planner may wait for it (pseudo-relevance feedback).
   */
  bootstrap: Promise<readonly PacketSource[]>;
}

export interface SynthesisInput {
  question: string;
  language: string;
  scope: string;
  /** Observation boundary: when the sources were read, and what limited acquisition. */
  boundary: string;
  /** The closed catalog: the only ids the output may use. */
  sources: readonly PacketSource[];
}

export interface Model {
  /** `offline`, or `provider:model-name`. */
  readonly name: string;
  /** Extractive models quote sources verbatim; the report says so. */
  readonly kind: "generative" | "extractive";
  /** Cost in USD of `usage`; undefined (or absent) when the price is not known. Never a guess. */
  cost?(usage: ModelUsage): number | undefined;
  plan(input: PlannerInput, options: CallOptions): Promise<Generation<PlannerOutput>>;
  synthesize(input: SynthesisInput, options: CallOptions): Promise<Generation<SynthesisOutput>>;
}
