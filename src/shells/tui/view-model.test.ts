import { describe, expect, it } from "vitest";
import { question } from "../../testing/investigation-rows.js";
import { age, bar, claimCounts, clean, frontierLines, oneLine, windowStart, wrapLines } from "./view-model.js";

describe("terminal UI view model", () => {
  it("says how old a run is in the largest whole unit", () => {
    const now = Date.parse("2026-12-02T12:00:00Z");
    expect(age("2026-12-02T11:59:48Z", now)).toBe("12 s");
    expect(age("2026-12-02T11:55:00Z", now)).toBe("5 min");
    expect(age("2026-12-02T09:00:00Z", now)).toBe("3 h");
    expect(age("2026-11-30T12:00:00Z", now)).toBe("2 d");
    expect(age("not a time", now)).toBe("");
  });

  it("draws bars in proportion, full when over the limit, empty for no limit", () => {
    expect(bar(3, 6, 10)).toBe("█████░░░░░");
    expect(bar(0, 6, 4)).toBe("░░░░");
    expect(bar(9, 6, 4)).toBe("████");
    expect(bar(1, 0, 3)).toBe("░░░");
  });

  it("removes escape sequences and control characters from untrusted text, keeping newlines", () => {
    const hostile = "Title\u001b[2J\u001b[31mred\u001b[0m\u001b]0;owned\u0007 bell\u0007 cr\r tab\tend\nnext\u009b";
    expect(clean(hostile)).toBe("Titlered bell cr tab end\nnext");
    expect(oneLine(hostile, 200)).toBe("Titlered bell cr tab end next");
    expect(oneLine("a very long line of text", 10)).toBe("a very lo…");
  });

  it("wraps to the width, hard-breaking what does not fit", () => {
    const lines = wrapLines(`short words here and ${"x".repeat(30)}`, 12);
    expect(lines.every((line) => line.length <= 12)).toBe(true);
    expect(lines.join("")).toContain("x".repeat(12));
    expect(wrapLines("one\n\ntwo", 20)).toEqual(["one", "", "two"]);
    expect(wrapLines("  - indented item", 40)).toEqual(["  - indented item"]);
    expect(wrapLines("aaaa bbbb cccc dddd", 10, { prose: true })).toEqual(["aaaa bbbb", "cccc dddd"]);
    expect(oneLine("RUN    STATUS", 40)).toBe("RUN    STATUS");
  });

  it("keeps the cursor inside the window, moving it as little as possible", () => {
    expect(windowStart(0, 5, 20, 0)).toBe(0);
    expect(windowStart(4, 5, 20, 0)).toBe(0);
    expect(windowStart(5, 5, 20, 0)).toBe(1);
    expect(windowStart(2, 5, 20, 4)).toBe(2);
    expect(windowStart(19, 5, 20, 0)).toBe(15);
    expect(windowStart(3, 5, 4, 2)).toBe(0);
  });

  it("lists the frontier parents first, children indented, with a mark per status", () => {
    const lines = frontierLines(
      [
        question("q_001", null, "in_progress", { question: "Root?" }),
        question("q_003", "q_001", "pruned", { question: "Pruned child?" }),
        question("q_002", "q_001", "resolved", { question: "Resolved child?" }),
      ],
      [],
    );
    expect(lines.map((line) => line.text)).toEqual([
      "▶ in_progress  Root?",
      "  ✓ resolved     Resolved child?",
      "  ✗ pruned       Pruned child?",
    ]);
    expect(lines.map((line) => line.status)).toEqual(["in_progress", "resolved", "pruned"]);
  });

  it("counts claims by status in the ledger's order", () => {
    expect(claimCounts([{ status: "UNVERIFIED" }, { status: "VERIFIED" }, { status: "UNVERIFIED" }])).toBe(
      "VERIFIED 1 · UNVERIFIED 2",
    );
    expect(claimCounts([])).toBe("");
  });
});
