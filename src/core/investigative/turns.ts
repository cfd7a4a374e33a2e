/**
 * The record of the loop's turns and the compaction rules (seed 000 "Context compaction",
 * "Forced extraction"). Pure: every function returns new values and never edits its input.
 *
 * A tool result is *committed* when its useful content is in notes.md or the loop recorded
 * (in the attempt log, with an outcome) that nothing in it is useful. Only committed results
 * may leave the prompt; an evicted result leaves nothing behind — the scratchpad is the memory.
 */
import { notesTokens } from "./notes.js";
import { TOOL_SCHEMAS } from "./tool-schemas.js";
import { currentQuestion, notesText } from "./tools.js";
import type { Investigation, InvestigationConfig } from "./types.js";

export type TurnPhase = "exploration" | "synthesis";

/**
 * How a result was committed: its content went to notes.md (`extracted`), the loop recorded
 * that nothing in it was useful (`nothing-relevant`), or its one-line outcome is in the
 * attempt log, which is all of it the agent needs later (`logged`: a search's hit list).
 */
export type CommitHow = "extracted" | "nothing-relevant" | "logged";

/** One tool call of a turn with the text its result showed the model. */
export interface TurnCall {
  id: string;
  name: string;
  /** The arguments as the model wrote them (untrusted). */
  args: unknown;
  resultText: string;
  resultChars: number;
  committed: boolean;
  /** How `commitResults` committed it; absent for results committed by nature or not yet committed. */
  commitment?: CommitHow;
}

export interface TurnRecord {
  /** 1, 2, … in loop order. */
  turn: number;
  phase: TurnPhase;
  calls: readonly TurnCall[];
}

/** An uncommitted result larger than the extraction threshold, with the turn that produced it. */
export interface PendingResult {
  turn: number;
  call: TurnCall;
}

/** The notes tools: the only ones offered in an extraction or consolidation turn. */
export const NOTES_TOOLS = ["notes_append", "notes_update", "notes_scratch"] as const;

/**
 * The exploration loop's tools (seed 000 "Two loops"): acquisition through the Host, the
 * frontier (selection is code's: no `frontier_next`), notes, challenges, `finish_exploration`.
 */
export const EXPLORATION_TOOLS = [
  "search",
  "fetch_page",
  "frontier_view",
  "add_question",
  "declare_atomic",
  "retry_question",
  "resolve_question",
  "reopen_question",
  "set_priority",
  "prune_branch",
  "notes_read",
  "notes_append",
  "notes_update",
  "notes_scratch",
  "challenge",
  "record_challenge_result",
  "challenges_view",
  "finish_exploration",
] as const;

/** The synthesis loop's tools (seed 000 "Two loops"): no research. */
export const SYNTHESIS_TOOLS = ["notes_read", "frontier_view", "finalize_report"] as const;

// Results that only restate the scratchpad or the loop's own state: nothing in them needs extracting.
const BY_NATURE: ReadonlySet<string> = new Set([
  ...Object.keys(TOOL_SCHEMAS),
  "notes_read",
  "finish_exploration",
  "finalize_report",
]);

/**
 * Whether a tool's results are committed as soon as they exist: the frontier, notes and
 * challenge tools. Anything else (`web_search`, `fetch_page`, `query`, `search`, `read`, and
 * any tool this list does not know) starts uncommitted, so it is never evicted unread.
 */
export function isCommittedByNature(toolName: string): boolean {
  return BY_NATURE.has(toolName);
}

/** A call as the loop records it: its size measured, its commitment set by the tool's nature. Pure. */
export function recordCall(call: { id: string; name: string; args: unknown; resultText: string }): TurnCall {
  return { ...call, resultChars: call.resultText.length, committed: isCommittedByNature(call.name) };
}

/** Commits every uncommitted result of turn `turnNumber` (other turns unchanged). Pure. */
export function commitResults(turns: readonly TurnRecord[], turnNumber: number, how: CommitHow): TurnRecord[] {
  return turns.map((record) =>
    record.turn !== turnNumber || record.calls.every((call) => call.committed)
      ? record
      : {
          ...record,
          calls: record.calls.map((call) => (call.committed ? call : { ...call, committed: true, commitment: how })),
        },
  );
}

/** Commits one call's result (`callId` of turn `turnNumber`), if it is not committed yet. Pure. */
export function commitCall(
  turns: readonly TurnRecord[],
  turnNumber: number,
  callId: string,
  how: CommitHow,
): TurnRecord[] {
  return turns.map((record) =>
    record.turn !== turnNumber
      ? record
      : {
          ...record,
          calls: record.calls.map((call) =>
            call.id !== callId || call.committed ? call : { ...call, committed: true, commitment: how },
          ),
        },
  );
}

/**
 * The uncommitted results that must be extracted before the next turn, oldest first: those
 * larger than `extractionThreshold` characters, and those about to leave the window of the
 * last `keepTurns` turns (uncommitted results are never evicted: this is their commit point).
 * While there is one, the next turn is an extraction turn. Pure.
 */
export function pendingExtraction(
  turns: readonly TurnRecord[],
  extractionThreshold: number,
  keepTurns = Number.POSITIVE_INFINITY,
): PendingResult[] {
  const leavingBefore = turns.length - Math.max(1, keepTurns);
  return turns.flatMap((record, index) =>
    record.calls
      .filter((call) => !call.committed && (call.resultChars > extractionThreshold || index < leavingBefore))
      .map((call) => ({ turn: record.turn, call })),
  );
}

/**
 * The turns the prompt shows: the last `keepTurns` in full, plus every older turn that still
 * holds an uncommitted result, reduced to its uncommitted calls (they are never evicted; its
 * committed calls are, like any older result). Order is kept. Pure.
 */
export function visibleTurns(turns: readonly TurnRecord[], keepTurns: number): TurnRecord[] {
  const recentFrom = Math.max(0, turns.length - Math.max(0, keepTurns));
  return turns.flatMap((record, index) => {
    if (index >= recentFrom) return [record];
    const open = record.calls.filter((call) => !call.committed);
    return open.length === 0 ? [] : [{ ...record, calls: open }];
  });
}

/**
 * What kind of turn comes next (exploration loop):
 * - `extraction`: an uncommitted result is over the threshold; only the notes tools are
 *   offered, and the model extracts what matters for the current question from it.
 * - `consolidation`: notes.md is over `notesMaxTokens`; merge duplicates, shorten Scratch,
 *   move the settled to Verified.
 * - `normal`.
 * Extraction comes first: the raw text must be committed before anything else happens.
 * The synthesis loop writes no notes, so its turns are always `normal` (see `offeredTools`).
 */
export type TurnMode =
  | { kind: "normal" }
  | { kind: "extraction"; questionId: string; pending: readonly PendingResult[] }
  | { kind: "consolidation"; notesTokens: number; notesMaxTokens: number };

/** The mode of the next turn (pure; see `TurnMode`). */
export function turnMode(
  turns: readonly TurnRecord[],
  investigation: Investigation,
  config: Pick<InvestigationConfig, "extractionThreshold" | "notesMaxTokens"> & { keepTurns?: number },
): TurnMode {
  const pending = pendingExtraction(turns, config.extractionThreshold, config.keepTurns);
  if (pending.length > 0) {
    const questionId = currentQuestion(investigation)?.id ?? investigation.frontier.questions[0]?.id ?? "q_001";
    return { kind: "extraction", questionId, pending };
  }
  const tokens = notesTokens(notesText(investigation));
  if (tokens > config.notesMaxTokens) {
    return { kind: "consolidation", notesTokens: tokens, notesMaxTokens: config.notesMaxTokens };
  }
  return { kind: "normal" };
}

/**
 * The tool names a turn offers: the synthesis tools in synthesis; the notes tools in an
 * extraction or consolidation turn; otherwise the exploration tools given. Pure.
 */
export function offeredTools(phase: TurnPhase, mode: TurnMode, explorationTools: readonly string[]): string[] {
  if (phase === "synthesis") return [...SYNTHESIS_TOOLS];
  if (mode.kind !== "normal") return [...NOTES_TOOLS];
  return [...explorationTools];
}
