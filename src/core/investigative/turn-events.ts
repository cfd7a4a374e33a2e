/**
 * The events an investigative run appends to its log (seed 000 "Observability"): one
 * `investigative-turn` per model turn (what was offered, what the model called with which
 * arguments, what each call returned, tokens and prompt size), one `research-state` per
 * change of research state, and one `investigative-phase` per change of phase. They are the
 * trajectory (`assay runs export --format atif`) and what a resumed run rebuilds its turns
 * from. Pure data.
 */
import type { ResearchState } from "./loop-tools.js";
import type { CommitHow, TurnPhase } from "./turns.js";

export const TURN_EVENT = "investigative-turn";
export const STATE_EVENT = "research-state";
export const PHASE_EVENT = "investigative-phase";

/** Longest assistant text and tool result kept in an event (characters). */
export const EVENT_TEXT_MAX = 60_000;

export interface TurnEventCall {
  id: string;
  name: string;
  /** The arguments as the model wrote them (untrusted; parsed by the tool layer). */
  args: unknown;
  /** False when the call was refused or failed; `text` says why. */
  ok: boolean;
  /** The result text the model read (bounded to EVENT_TEXT_MAX). */
  text: string;
  /** The result's full length before bounding. */
  chars: number;
  /** Committed as soon as it existed (a search's hits are logged; a page read before holds nothing new). */
  committed?: boolean;
  /** `fetch_page`: the Host source id of the page read. */
  sourceId?: string;
  /** `search`: the handles of the hits shown (`h3`), so a resumed run can show them again. */
  hits?: readonly string[];
}

export interface TurnEventData {
  /** 1, 2, … per sub-agent. */
  turn: number;
  /** The sub-agent that took the turn, when it is not 1 (`max_parallel > 1`). */
  agent?: number;
  phase: TurnPhase;
  mode: "normal" | "extraction" | "consolidation";
  /** The question in progress when the turn started, if any. */
  questionId: string | null;
  toolChoice: "auto" | "required" | { tool: string };
  offered: readonly string[];
  /** The model's text (bounded); a turn with text and no call gets the plain-text reminder. */
  text: string;
  calls: readonly TurnEventCall[];
  /** The generation failed (timeout, transport, malformed): no calls ran. */
  failed?: string;
  usage: { inputTokens: number; outputTokens: number; costUsd?: number };
  /** The prompt sent: characters and ~tokens (chars / 4). */
  prompt: { chars: number; tokens: number };
  /** Results of this or earlier turns that became committed when this turn ended (eviction allowed). */
  commits: readonly { turn: number; callId: string; how: CommitHow }[];
  model: string;
  /** A consolidation turn: notes.md tokens after it. */
  notesTokensAfter?: number;
}

export interface StateEventData {
  state: ResearchState;
  /** The turn about to run (0 before the first). */
  turn: number;
  questionId: string | null;
  /** Why the state changed, in a few words. */
  detail: string;
  /** The sub-agent whose state it is, when it is not 1. */
  agent?: number;
}

export interface PhaseEventData {
  phase: TurnPhase | "finished" | "failed";
  /** Set when exploration or the run ended: `finalized`, `frontier_exhausted`, `breaker:<name>`, …. */
  stopReason?: string;
  /** The breaker's message, or the reopen reason. */
  message?: string;
  /** Exploration was cut short by a breaker: the synthesis states it. */
  cutShort?: { breaker: string; message: string };
}
