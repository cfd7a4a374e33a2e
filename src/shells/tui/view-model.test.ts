import { describe, expect, it } from "vitest";
import { question } from "../../testing/investigation-rows.js";
import {
  age,
  bar,
  claimCounts,
  clean,
  diffScreenLines,
  edited,
  frontierLines,
  oneLine,
  runTitle,
  scrolled,
  tail,
  windowStart,
  wrapLines,
} from "./view-model.js";

const NO_KEY = {
  upArrow: false,
  downArrow: false,
  pageUp: false,
  pageDown: false,
  backspace: false,
  delete: false,
  ctrl: false,
  meta: false,
};

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

  it("scrolls by a line, a page and to either end, never past the last page", () => {
    expect(scrolled("j", NO_KEY, 0, 10, 25)).toBe(1);
    expect(scrolled("", { ...NO_KEY, upArrow: true }, 0, 10, 25)).toBe(0);
    expect(scrolled(" ", NO_KEY, 10, 10, 25)).toBe(15);
    expect(scrolled("", { ...NO_KEY, pageUp: true }, 5, 10, 25)).toBe(0);
    expect(scrolled("G", NO_KEY, 0, 10, 25)).toBe(15);
    expect(scrolled("g", NO_KEY, 12, 10, 25)).toBe(0);
    expect(scrolled("j", NO_KEY, 0, 10, 4)).toBe(0);
    expect(scrolled("x", NO_KEY, 3, 10, 25)).toBeUndefined();
  });

  it("edits a one-line field: typing and pastes appended, Backspace, control keys refused, a length limit", () => {
    expect(edited("ab", "c", NO_KEY)).toBe("abc");
    expect(edited("ab", "cd ef", NO_KEY)).toBe("abcd ef");
    expect(edited("abc", "", { ...NO_KEY, backspace: true })).toBe("ab");
    expect(edited("", "", { ...NO_KEY, delete: true })).toBe("");
    expect(edited("ab", "c", { ...NO_KEY, ctrl: true })).toBeUndefined();
    expect(edited("ab", "\u001b[A", NO_KEY)).toBeUndefined();
    expect(edited("ab", "", NO_KEY)).toBeUndefined();
    expect(edited("abc", "de", NO_KEY, 4)).toBe("abcd");
    expect(tail("short", 10)).toBe("short");
    expect(tail("a long question typed", 10)).toBe("…ion typed");
  });

  it("names a follow-up and a revision after the run they continue", () => {
    expect(runTitle({ question: "Why cobalt?" })).toBe("Why cobalt?");
    expect(
      runTitle({ question: "And sodium?", lineage: { parentId: 12, relation: "follow-up", instruction: "" } }),
    ).toBe("↳ 12 And sodium?");
    expect(
      runTitle({ question: "Why cobalt?", lineage: { parentId: 12, relation: "revision", instruction: "drop 2019" } }),
    ).toBe("↳ 12 revised: drop 2019");
  });

  it("lays a report diff out with headings, marks and hanging indents", () => {
    const lines = diffScreenLines(
      [
        "From run 1 to run 2:",
        "",
        "Findings added (1):",
        "  + 3. one two three four five six",
        "Findings changed (1):",
        "  ~ 1 → 2 (wording)",
        "    was: old \u001b[31mwords",
        "Findings removed (1):",
        "  - 2. gone",
        "",
        "4 findings unchanged.",
      ],
      22,
    );
    expect(lines).toEqual([
      { text: "From run 1 to run 2:", kind: "heading" },
      { text: "", kind: "plain" },
      { text: "Findings added (1):", kind: "heading" },
      { text: "  + 3. one two three", kind: "added" },
      { text: "    four five six", kind: "added" },
      { text: "Findings changed (1):", kind: "heading" },
      { text: "  ~ 1 → 2 (wording)", kind: "changed" },
      { text: "    was: old words", kind: "plain" },
      { text: "Findings removed (1):", kind: "heading" },
      { text: "  - 2. gone", kind: "removed" },
      { text: "", kind: "plain" },
      { text: "4 findings unchanged.", kind: "plain" },
    ]);
    expect(lines.every((line) => line.text.length <= 22)).toBe(true);
  });
});
