import { describe, expect, it } from "vitest";
import { DEFAULT_BUDGETS } from "../core/budgets.js";
import type { RunEvent, RunRecord } from "../ports/store.js";
import { elapsedText, liveState } from "./live-state.js";

const ORIGIN = "2026-12-02T10:00:00.000Z";

function run(
  extra: Partial<RunRecord> = {},
): Pick<RunRecord, "originAt" | "finishedAt" | "request" | "worker" | "status"> {
  return {
    originAt: ORIGIN,
    finishedAt: "",
    worker: "host:1",
    status: "running",
    request: {
      question: "q",
      language: "en",
      strategy: "pipeline",
      model: "offline",
      scope: { kind: "corpus", root: "/c", label: "c" },
      budgets: { ...DEFAULT_BUDGETS },
      outDir: "",
    } as RunRecord["request"],
    ...extra,
  };
}

let seq = 0;
const event = (type: string, offsetMs: number, data: Record<string, unknown> = {}): RunEvent =>
  ({ runId: 1, seq: ++seq, type, offsetMs, at: ORIGIN, data }) as RunEvent;

describe("live state of a run", () => {
  it("counts stages, searches, reads, sources and model use, and keeps the latest report", () => {
    const events = [
      event("stage-changed", 1, { stage: "bootstrap" }),
      event("search-finished", 5, { hits: 3 }),
      event("source-fetched", 8),
      event("fetch-failed", 9),
      event("source-persisted", 10, { title: "A", anchor: "a.md" }),
      event("generation-started", 11),
      event("generation-finished", 20, { usage: { inputTokens: 100, outputTokens: 20, costUsd: 0.01 } }),
      event("preliminary-published", 30, { status: "source-backed", version: "0001" }),
      event("final-published", 40, { status: "synthesized", version: "0002" }),
    ];
    const state = liveState(run({ finishedAt: "x" }), events, { now: 0 });
    expect(state.stages).toEqual(["bootstrap"]);
    expect(state.budgets.map((budget) => [budget.label, budget.used])).toEqual([
      ["Searches", 1],
      ["Reads", 2],
      ["Sources", 1],
      ["Model calls", 1],
      ["Seconds", 0],
    ]);
    expect(state.usage).toMatchObject({ generations: 1, inputTokens: 100, outputTokens: 20, unpriced: 0 });
    expect(state.usage.costUsd).toBeCloseTo(0.01);
    expect(state.report).toEqual({ kind: "final", status: "synthesized", version: "0002" });
    expect(state.sources).toEqual([{ title: "A", anchor: "a.md", recovered: false }]);
    expect(state.elapsedMs).toBe(40);
    expect(state.lastSeq).toBe(events.at(-1)?.seq);
  });

  it("writes elapsed time in seconds, then minutes and seconds", () => {
    expect(elapsedText(12_400)).toBe("12 s");
    expect(elapsedText(184_000)).toBe("3 min 4 s");
  });

  it("counts elapsed time from the run's origin while it goes on, and none while it is queued", () => {
    const now = Date.parse(ORIGIN) + 12_000;
    expect(liveState(run(), [], { now }).elapsedMs).toBe(12_000);
    expect(liveState(run({ worker: "" }), [], { now }).elapsedMs).toBe(0);
  });
});
