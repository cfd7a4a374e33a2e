import { describe, expect, it } from "vitest";
import type { RunEvent } from "../../ports/store.js";
import { IndexMeter, progressListener } from "./progress.js";

/** A stream that says it is (or is not) a terminal and keeps what is written to it. */
function stream(isTTY: boolean): NodeJS.WriteStream & { text: () => string } {
  const chunks: string[] = [];
  return {
    isTTY,
    write: (chunk: string) => {
      chunks.push(chunk);
      return true;
    },
    text: () => chunks.join(""),
  } as unknown as NodeJS.WriteStream & { text: () => string };
}

const stage = (name: string, seq: number): RunEvent => ({
  runId: 1,
  seq,
  type: "stage-changed",
  data: { stage: name },
  offsetMs: seq * 10,
  at: "2026-12-04T00:00:00.000Z",
});

describe("the terminal's status line", () => {
  it("says how far a corpus index has come while it is brought up to date, then counts sources", () => {
    const out = stream(true);
    const indexing = new IndexMeter();
    const progress = progressListener({ stream: out, maxSources: 8, indexing });
    indexing.report(1200, 5183);
    progress.listener(stage("bootstrap", 1));
    expect(out.text()).toContain("[bootstrap] indexed 1,200 of 5,183 files · ");
    indexing.report(5183, 5183);
    progress.listener(stage("planning", 2));
    progress.end();
    const last = out
      .text()
      .split("\r\x1b[2K")
      .filter((line) => line.startsWith("[planning]"));
    expect(last[0]).toMatch(/^\[planning\] 0\/8 sources · /);
  });

  it("prints no index count when stderr is not a terminal", () => {
    const out = stream(false);
    const indexing = new IndexMeter();
    const progress = progressListener({ stream: out, maxSources: 8, indexing });
    indexing.report(10, 20);
    progress.listener(stage("bootstrap", 1));
    progress.end();
    expect(out.text()).not.toContain("indexed 10 of 20");
  });
});
