import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createFrontier } from "./frontier.js";
import { EMPTY_LEDGER } from "./ledger.js";
import {
  commitResults,
  isCommittedByNature,
  NOTES_TOOLS,
  offeredTools,
  pendingExtraction,
  recordCall,
  SYNTHESIS_TOOLS,
  type TurnRecord,
  turnMode,
  visibleTurns,
} from "./turns.js";
import { DEFAULT_INVESTIGATION_CONFIG, type Investigation } from "./types.js";

const NOW = "2026-03-01T12:00:00.000Z";
const config = { ...DEFAULT_INVESTIGATION_CONFIG };

function investigation(scratch = ""): Investigation {
  const created = createFrontier("How much memory does X need?", { now: NOW, actor: "code" });
  if (!created.ok) throw new Error(created.error.message);
  return {
    runId: 1,
    config,
    frontier: created.value.frontier,
    ledger: EMPTY_LEDGER,
    challenges: [],
    scratch,
    stateSeq: 0,
  };
}

const turn = (number: number, calls: { name: string; chars: number }[]): TurnRecord => ({
  turn: number,
  phase: "exploration",
  calls: calls.map((call, index) =>
    recordCall({
      id: `t${number}c${index}`,
      name: call.name,
      args: {},
      resultText: `${number}:`.padEnd(call.chars, "x"),
    }),
  ),
});

/** Ten turns: a large fetch_page at turn 2, small searches and frontier calls elsewhere. */
function rawHistory(): TurnRecord[] {
  return Array.from({ length: 10 }, (_, index) =>
    index === 1
      ? turn(2, [{ name: "fetch_page", chars: 9_000 }])
      : turn(index + 1, [
          { name: "frontier_view", chars: 300 },
          { name: "web_search", chars: 800 },
        ]),
  );
}

/** The same, with each search committed by its attempt-log line as the loop does. */
function history(): TurnRecord[] {
  return rawHistory().reduce<TurnRecord[]>(
    (turns, record) => (record.turn === 2 ? turns : commitResults(turns, record.turn, "logged")),
    rawHistory(),
  );
}

/** Commits every uncommitted result except those of `except`. */
const commitAllBut = (turns: TurnRecord[], except: number): TurnRecord[] =>
  turns.reduce((all, record) => (record.turn === except ? all : commitResults(all, record.turn, "extracted")), turns);

describe("commitment", () => {
  it("frontier, notes and challenge results are committed by nature; acquisition results are not", () => {
    for (const name of ["frontier_next", "notes_append", "challenge", "notes_read", "finalize_report"]) {
      expect(isCommittedByNature(name)).toBe(true);
    }
    for (const name of ["web_search", "fetch_page", "search", "read", "query", "some_new_tool"]) {
      expect(isCommittedByNature(name)).toBe(false);
    }
    const call = recordCall({ id: "a", name: "fetch_page", args: { url: "u" }, resultText: "abc" });
    expect(call).toEqual({
      id: "a",
      name: "fetch_page",
      args: { url: "u" },
      resultText: "abc",
      resultChars: 3,
      committed: false,
    });
  });

  it("commitResults commits only the named turn, says how, and leaves its input unchanged", () => {
    const turns = history();
    const committed = commitResults(turns, 2, "nothing-relevant");
    expect(committed[1]?.calls[0]).toMatchObject({ committed: true, commitment: "nothing-relevant" });
    expect(committed[2]).toBe(turns[2]);
    expect(turns[1]?.calls[0]?.committed).toBe(false);
  });
});

describe("pendingExtraction", () => {
  it("lists the uncommitted results over the threshold until they are committed", () => {
    const turns = history();
    expect(pendingExtraction(turns, 4_000).map((pending) => [pending.turn, pending.call.name])).toEqual([
      [2, "fetch_page"],
    ]);
    expect(pendingExtraction(turns, 10_000)).toEqual([]);
    expect(pendingExtraction(commitResults(turns, 2, "extracted"), 4_000)).toEqual([]);
  });
});

describe("visibleTurns", () => {
  it("keeps the last keepTurns turns in full", () => {
    const turns = commitAllBut(history(), -1);
    expect(visibleTurns(turns, 2).map((record) => record.turn)).toEqual([9, 10]);
    expect(visibleTurns(turns, 2)[1]).toBe(turns[9]);
  });

  it("never evicts an uncommitted result: an old large page stays visible until it is committed", () => {
    const turns = commitAllBut(history(), 2);
    const visible = visibleTurns(turns, 2);
    expect(visible.map((record) => record.turn)).toEqual([2, 9, 10]);
    expect(visible[0]?.calls.map((call) => call.name)).toEqual(["fetch_page"]);
    const after = visibleTurns(commitResults(turns, 2, "extracted"), 2);
    expect(after.map((record) => record.turn)).toEqual([9, 10]);
    expect(JSON.stringify(after)).not.toContain("2:xxxx");
  });

  it("reduces an old turn to its uncommitted calls; its committed ones are evicted", () => {
    const turns = commitAllBut(rawHistory(), 3);
    const old = visibleTurns(turns, 2)[0];
    expect(old?.turn).toBe(3);
    expect(old?.calls.map((call) => call.name)).toEqual(["web_search"]);
  });

  it("property: every uncommitted call and every call of the last keepTurns turns is shown, nothing else", () => {
    const call = fc.record({
      name: fc.constantFrom("web_search", "notes_append"),
      chars: fc.integer({ min: 1, max: 50 }),
    });
    const arbitrary = fc.tuple(
      fc.array(fc.array(call, { maxLength: 3 }), { maxLength: 12 }),
      fc.integer({ min: 1, max: 4 }),
    );
    fc.assert(
      fc.property(arbitrary, ([shape, keep]) => {
        const turns = shape.map((calls, index) => turn(index + 1, calls));
        const shown = new Set(visibleTurns(turns, keep).flatMap((record) => record.calls.map((c) => c.id)));
        turns.forEach((record, index) => {
          const recent = index >= turns.length - keep;
          for (const c of record.calls) expect(shown.has(c.id)).toBe(recent || !c.committed);
        });
      }),
    );
  });
});

describe("turnMode and offeredTools", () => {
  const exploration = ["web_search", "fetch_page", "frontier_next", "notes_append", "finish_exploration"];

  it("forces extraction while a large result is uncommitted, offering only the notes tools", () => {
    const mode = turnMode(history(), investigation(), config);
    expect(mode).toMatchObject({ kind: "extraction", questionId: "q_001" });
    expect(mode.kind === "extraction" && mode.pending.map((pending) => pending.turn)).toEqual([2]);
    expect(offeredTools("exploration", mode, exploration)).toEqual([...NOTES_TOOLS]);
  });

  it("forces extraction of a small uncommitted result about to leave the keep_turns window, not before", () => {
    const turns = [
      turn(1, [{ name: "fetch_page", chars: 900 }]),
      turn(2, [{ name: "frontier_view", chars: 100 }]),
      turn(3, [{ name: "frontier_view", chars: 100 }]),
    ];
    const mode = turnMode(turns, investigation(), { ...config, keepTurns: 2 });
    expect(mode.kind === "extraction" && mode.pending.map((pending) => pending.call.id)).toEqual(["t1c0"]);
    // Still inside the window of the last three turns: the model may extract it when it likes.
    expect(turnMode(turns, investigation(), { ...config, keepTurns: 3 })).toEqual({ kind: "normal" });
    expect(pendingExtraction(rawHistory(), 4_000).map((pending) => pending.turn)).toEqual([2]);
  });

  it("forces consolidation when notes.md is over notesMaxTokens, and is normal otherwise", () => {
    const turns = commitResults(history(), 2, "extracted");
    const big = investigation("scratch ".repeat(1_000));
    expect(turnMode(turns, big, { ...config, notesMaxTokens: 500 })).toMatchObject({
      kind: "consolidation",
      notesMaxTokens: 500,
    });
    const mode = turnMode(turns, big, config);
    expect(mode).toEqual({ kind: "normal" });
    expect(offeredTools("exploration", mode, exploration)).toEqual(exploration);
  });

  it("extraction comes before consolidation", () => {
    const big = investigation("scratch ".repeat(1_000));
    expect(turnMode(history(), big, { ...config, notesMaxTokens: 500 }).kind).toBe("extraction");
  });

  it("the synthesis loop offers only notes_read, frontier_view and finalize_report", () => {
    expect(offeredTools("synthesis", { kind: "normal" }, exploration)).toEqual([...SYNTHESIS_TOOLS]);
    expect(SYNTHESIS_TOOLS).toEqual(["notes_read", "frontier_view", "finalize_report"]);
  });
});
