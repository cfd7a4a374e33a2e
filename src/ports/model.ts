/**
 * A model proposes; the Host decides. Every implementation (hosted and local providers
 * through the AI SDK, the embedded offline engine, the scripted test model) returns
 * proposals that the Host admits item by item. A failure is a value, never a throw.
 */
import type { AnswerOutput } from "../core/agent/turn.js";
import type { JudgeOutput } from "../core/judge/rubric.js";
import type { PlannerOutput, SynthesisOutput } from "../core/synthesis/proposals.js";
import type { ScopeKind } from "./store.js";

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
  /** `section`: where the passage stands in its document (its headings, a slide, a sheet's rows), when it says. */
  chunks: { id: string; text: string; section?: string }[];
}

export interface PlannerInput {
  question: string;
  language: string;
  /** Reader-safe description of the evidence scope ("the local folder “corpus”"). */
  scope: string;
  scopeKind: ScopeKind;
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
  /**
   * Every source the run read, untrimmed (the packet may leave passages out): what a gap's
   * claim that the sources do not mention something is checked against. Not a catalog: an
   * id outside `sources` is still refused. Absent: the packet is everything read.
   */
  read?: readonly PacketSource[];
}

/** A tool call of a research loop, as the Host runs it. */
export type AgentToolCall = { id: string; tool: "search"; query: string } | { id: string; tool: "read"; hit: string };

/** One search hit as the loop's model sees it: discovery metadata, never evidence. */
export interface AgentHit {
  /** The handle a `read` call names ("h3"). */
  handle: string;
  title: string;
  location: string;
  snippet: string;
}

/**
 * The loop's conversation so far. A tool message carries the text the model reads
 * (`content`, built by the Host) and, for extractive engines, the same result as data.
 */
export type AgentMessage =
  | { role: "assistant"; calls: readonly AgentToolCall[] }
  | {
      role: "tool";
      callId: string;
      tool: "search" | "read";
      content: string;
      hits?: readonly AgentHit[];
      source?: PacketSource;
    };

export interface AgentTurnInput {
  question: string;
  language: string;
  scope: string;
  scopeKind: ScopeKind;
  transcript: readonly AgentMessage[];
  searchesLeft: number;
  readsLeft: number;
  maxCallsPerTurn: number;
  /** The last turn: only the answer is offered. */
  mustAnswer: boolean;
}

/** A turn either calls tools or gives the final answer. */
export type AgentTurn = { kind: "tools"; calls: AgentToolCall[] } | { kind: "answer"; answer: AnswerOutput };

/** What a judge model scores for one published report (see core/judge/rubric.ts). */
export interface JudgeInput {
  question: string;
  language: string;
  /** The report's items, each with the text of the passages it cites. */
  items: readonly { id: string; text: string; passages: readonly { id: string; text: string }[] }[];
  /** The case's reference: accepted answers and gold evidence sentences, either possibly empty. */
  reference: { answers: readonly string[]; evidence: readonly string[] };
  /** The reader-facing text of the report, for the language check. */
  reportText: string;
}

/** A tool a model may call in a general tool-calling turn: its arguments as a JSON Schema object. */
export interface ToolSpec {
  name: string;
  description: string;
  /** A JSON Schema (draft 7) object describing the arguments; plain data, no library types. */
  parameters: Record<string, unknown>;
}

/** One message of a general tool-calling conversation, as the loop rebuilds it each turn. */
export type ActMessage =
  | { role: "user"; content: string }
  | { role: "assistant"; text: string; calls: readonly { id: string; name: string; args: unknown }[] }
  | { role: "tool"; callId: string; name: string; content: string };

export interface ActInput {
  system: string;
  messages: readonly ActMessage[];
  tools: readonly ToolSpec[];
  /** `auto`: text or tools; `required`: at least one tool; `{ tool }`: exactly that tool (a forced last turn). */
  toolChoice: "auto" | "required" | { tool: string };
  /**
   * The loop's own state as data, for engines that follow fixed rules instead of reading the
   * prompt (the offline engine). Generative models ignore it.
   */
  state?: unknown;
}

/**
 * What a turn returned: its text and its tool calls with their arguments as the model wrote
 * them. The arguments are untrusted: the caller parses them against each tool's schema.
 */
export interface ActTurn {
  text: string;
  calls: { id: string; name: string; args: unknown }[];
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
  /** One turn of a tool-calling research loop (the `simple` strategy). */
  step(input: AgentTurnInput, options: CallOptions): Promise<Generation<AgentTurn>>;
  /**
   * One turn of a general tool-calling loop (the investigative strategy). Optional: a model
   * without it cannot drive that strategy.
   */
  act?(input: ActInput, options: CallOptions): Promise<Generation<ActTurn>>;
  /** Scores a report by the written rubric; only generative models can judge. */
  judge?(input: JudgeInput, options: CallOptions): Promise<Generation<JudgeOutput>>;
}
