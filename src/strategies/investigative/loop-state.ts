/**
 * What the investigative loop keeps between turns, and how a resumed run gets it back: every
 * turn, phase change and research state is an event (core/investigative/turn-events.ts), so
 * the turn records (with their commitments), the token and cost totals, the phase, the reopens
 * used and the state sequence are rebuilt from the event log. Nothing else needs saving.
 */
import type { BreakerState, Phase } from "../../core/investigative/breakers.js";
import type { LoopResult, ResearchState } from "../../core/investigative/loop-tools.js";
import {
  PHASE_EVENT,
  type PhaseEventData,
  STATE_EVENT,
  type StateEventData,
  TURN_EVENT,
  type TurnEventData,
} from "../../core/investigative/turn-events.js";
import { commitCall, recordCall, type TurnRecord } from "../../core/investigative/turns.js";
import type { RunEvent } from "../../ports/store.js";

export interface LoopState {
  phase: Phase;
  /** Every turn so far, both phases, with the commitment of each result. */
  turns: TurnRecord[];
  /** `fetch_page` call id → the source id it read (for commits and pending pages). */
  pageSources: Map<string, string>;
  tokens: number;
  /** Null once a turn's cost was unknown: the cost breaker cannot fire. */
  costUsd: number | null;
  /** The previous turn's results, for an engine that reads state. */
  lastResults: LoopResult[];
  reminder?: string;
  state?: { state: ResearchState; questionId: string | null };
  /** Research-state events so far (seed 000 `state_seq`). */
  stateSeq: number;
  reopensUsed: number;
  consecutiveFailures: number;
  /** notes.md tokens after the last consolidation turn (no second one until notes grow past it). */
  consolidatedAt?: number;
  /** Set when a breaker cut exploration short. */
  cutShort?: { breaker: string; message: string };
}

export const newLoopState = (): LoopState => ({
  phase: "exploration",
  turns: [],
  pageSources: new Map(),
  tokens: 0,
  costUsd: 0,
  lastResults: [],
  stateSeq: 0,
  reopensUsed: 0,
  consecutiveFailures: 0,
});

/** Adds one turn's usage to the totals. */
export function addUsage(loop: LoopState, usage: TurnEventData["usage"]): void {
  loop.tokens += usage.inputTokens + usage.outputTokens;
  loop.costUsd = loop.costUsd === null || usage.costUsd === undefined ? null : loop.costUsd + usage.costUsd;
}

/** Applies a turn's event to the state: the turn record, its commitments, usage. */
export function applyTurnEvent(loop: LoopState, data: TurnEventData): void {
  loop.turns.push({
    turn: data.turn,
    phase: data.phase,
    calls: data.calls.map((call) => {
      const recorded = recordCall({ id: call.id, name: call.name, args: call.args, resultText: call.text });
      // A refused or failed call holds nothing to extract; a search is committed by its attempt-log line.
      return {
        ...recorded,
        resultChars: call.chars,
        committed: recorded.committed || !call.ok || call.committed === true,
      };
    }),
  });
  for (const call of data.calls) if (call.sourceId) loop.pageSources.set(call.id, call.sourceId);
  for (const commit of data.commits) loop.turns = commitCall(loop.turns, commit.turn, commit.callId, commit.how);
  addUsage(loop, data.usage);
  if (data.mode === "consolidation" && data.notesTokensAfter !== undefined) loop.consolidatedAt = data.notesTokensAfter;
  loop.consecutiveFailures = data.failed ? loop.consecutiveFailures + 1 : 0;
}

/**
 * The loop state of sub-agent `agent` (1 unless `max_parallel > 1`) from the run's event log (a
 * new run: the initial state): its own turns and research state; the run's phase, reopens and
 * state sequence.
 */
export function loopStateFrom(events: readonly RunEvent[], agent = 1): LoopState {
  const loop = newLoopState();
  const mine = (data: { agent?: number }) => (data.agent ?? 1) === agent;
  for (const event of events) {
    if (event.type === TURN_EVENT) {
      const data = event.data as unknown as TurnEventData;
      if (mine(data)) applyTurnEvent(loop, data);
    } else if (event.type === STATE_EVENT) {
      const data = event.data as unknown as StateEventData;
      loop.stateSeq++;
      if (mine(data)) loop.state = { state: data.state, questionId: data.questionId };
    } else if (event.type === PHASE_EVENT) {
      const data = event.data as unknown as PhaseEventData;
      if (data.phase === "exploration" || data.phase === "synthesis") {
        if (data.phase === "exploration" && loop.phase === "synthesis") loop.reopensUsed++;
        loop.phase = data.phase;
      }
      if (data.cutShort) loop.cutShort = data.cutShort;
    }
  }
  return loop;
}

/**
 * The turns that ran calls: the window of `keep_turns` and the age of a page count these, so a
 * failed or plain-text turn does not push a result out of the prompt.
 */
export function workedTurns(loop: LoopState): LoopState["turns"] {
  return loop.turns.filter((record) => record.calls.length > 0);
}

/** The breaker counters of the run so far: the turns and usage of every sub-agent's loop together. */
export function breakerState(loops: readonly LoopState[], phase: Phase, elapsedMs: number): BreakerState {
  let costUsd: number | null = 0;
  for (const loop of loops) costUsd = costUsd === null || loop.costUsd === null ? null : costUsd + loop.costUsd;
  return {
    phase,
    iterations: loops.reduce((sum, loop) => sum + loop.turns.length, 0),
    tokens: loops.reduce((sum, loop) => sum + loop.tokens, 0),
    costUsd,
    elapsedMs,
  };
}
