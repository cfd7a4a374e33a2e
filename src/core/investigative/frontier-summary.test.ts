import { describe, expect, it } from "vitest";
import type { Result } from "../result.js";
import {
  type AddQuestionInput,
  addDependency,
  addQuestion,
  createFrontier,
  type FrontierChange,
  type FrontierContext,
  frontierNext,
  pruneBranch,
  recordAttempt,
  resolveQuestion,
} from "./frontier.js";
import { renderFrontierSummary } from "./frontier-summary.js";
import { DEFAULT_INVESTIGATION_CONFIG, type Frontier, type Rejection } from "./types.js";

const config = { ...DEFAULT_INVESTIGATION_CONFIG };
const ctx: FrontierContext = { now: "2026-01-01T00:00:00.000Z", actor: "agent" };

function must<T>(result: Result<FrontierChange<T>, Rejection>): Frontier {
  if (!result.ok) throw new Error(result.error.message);
  return result.value.frontier;
}

const child = (parentId: string, question: string, priority: number, extra: Partial<AddQuestionInput> = {}) => ({
  parentId,
  question,
  rationale: "r",
  priority,
  validationCriteria: `figures for ${question}`,
  targetSources: [],
  ...extra,
});

function sample(): Frontier {
  let frontier = must(createFrontier("How fast is X?", ctx, { validationCriteria: "c" }));
  frontier = must(addQuestion(frontier, child("q_001", "What is the latency of X?", 0.85), config, ctx));
  frontier = must(addQuestion(frontier, child("q_001", "What is the throughput of X?", 0.8), config, ctx));
  frontier = must(addQuestion(frontier, child("q_001", "What does X cost?", 0.55), config, ctx));
  frontier = must(addQuestion(frontier, child("q_001", "Is X deprecated?", 0.3), config, ctx));
  frontier = must(addQuestion(frontier, child("q_002", "Which benchmark measured it?", 0.9), config, ctx));
  frontier = must(resolveQuestion(frontier, { id: "q_006", answer: "B1", claimIds: ["c_001"] }, ctx));
  frontier = must(
    addQuestion(frontier, child("q_001", "How does X scale?", 0.6, { dependsOn: ["q_002"] }), config, ctx),
  );
  frontier = must(frontierNext(frontier, config, ctx)); // q_002
  for (const query of ["x latency ms", "x p99 benchmark"]) {
    frontier = must(recordAttempt(frontier, { questionId: "q_002", query, tool: "web_search", outcome: "none" }, ctx));
  }
  return must(pruneBranch(frontier, { id: "q_005", reason: "not relevant" }, ctx));
}

describe("renderFrontierSummary", () => {
  it("renders the seed's shape", () => {
    expect(renderFrontierSummary(sample(), config)).toBe(
      [
        "Frontier: 1 resolved, 1 in_progress, 4 pending, 1 pruned  (max_depth 3)",
        "Current: [q_002] (P 0.85, depth 1) What is the latency of X?",
        "  criteria: figures for What is the latency of X?",
        '  tried: "x latency ms", "x p99 benchmark"',
        "Next up:",
        "- [q_003] (P 0.80) What is the throughput of X?",
        "- [q_004] (P 0.55) What does X cost?",
        "Blocked: [q_007] waits on q_002",
      ].join("\n"),
    );
  });

  it("shows the current question given by id, and blocked ones with the failed dependency's status", () => {
    let frontier = sample();
    frontier = must(addDependency(frontier, "q_004", "q_003", ctx));
    frontier = must(pruneBranch(frontier, { id: "q_003", reason: "moot" }, ctx));
    const text = renderFrontierSummary(frontier, config, { currentId: "q_004" });
    expect(text).toContain("Current: [q_004] (P 0.55, depth 1) What does X cost?");
    expect(text).not.toContain("tried:");
    expect(text).toContain("Blocked: [q_004] waits on q_003 (pruned)");
    expect(text.split("\n")[0]).toBe(
      "Frontier: 1 resolved, 1 in_progress, 2 pending, 1 blocked, 2 pruned  (max_depth 3)",
    );
    expect(text).toContain("Next up: none");
  });

  it("omits Current when nothing is in progress", () => {
    let frontier = must(createFrontier("X?", ctx));
    frontier = must(addQuestion(frontier, child("q_001", "A?", 0.5), config, ctx));
    expect(renderFrontierSummary(frontier, { maxDepth: 2 })).toBe(
      ["Frontier: 2 pending  (max_depth 2)", "Next up:", "- [q_002] (P 0.50) A?"].join("\n"),
    );
  });

  it("caps the next-up and blocked lists", () => {
    let frontier = must(createFrontier("X?", ctx));
    for (let i = 0; i < 8; i += 1) {
      frontier = must(addQuestion(frontier, child("q_001", `Question number ${i}?`, 0.5), config, ctx));
    }
    for (let i = 0; i < 3; i += 1) {
      const input = child("q_001", `Waiting ${i}?`, 0.4, { dependsOn: ["q_002"] });
      frontier = must(addQuestion(frontier, input, config, ctx));
    }
    const text = renderFrontierSummary(frontier, config, { maxNext: 3, maxBlocked: 2 });
    const lines = text.split("\n");
    expect(lines.filter((line) => line.startsWith("- [q_"))).toHaveLength(3);
    expect(lines).toContain("- … 5 more");
    expect(lines.filter((line) => line.startsWith("Blocked: [q_"))).toHaveLength(2);
    expect(lines).toContain("Blocked: … 1 more");
  });

  it("truncates long texts with … and keeps the whole within maxChars", () => {
    let frontier = must(createFrontier("X?", ctx));
    for (let i = 0; i < 6; i += 1) {
      const long = `Question ${i} ${"very long words ".repeat(30)}`;
      frontier = must(
        addQuestion(frontier, child("q_001", long, 0.5, { validationCriteria: "c ".repeat(300) }), config, ctx),
      );
    }
    frontier = must(frontierNext(frontier, config, ctx));
    frontier = must(
      recordAttempt(frontier, { questionId: "q_002", query: "q".repeat(500), tool: "t", outcome: "" }, ctx),
    );
    const full = renderFrontierSummary(frontier, config, { maxChars: 100_000 });
    for (const line of full.split("\n")) expect(line.length).toBeLessThan(220);
    expect(full).toContain("…");
    for (const maxChars of [2000, 600, 300, 50]) {
      const text = renderFrontierSummary(frontier, config, { maxChars });
      expect(text.length).toBeLessThanOrEqual(maxChars);
      expect(text.startsWith("Frontier: 1 in_progress, 6 pending")).toBe(true);
    }
    expect(renderFrontierSummary(frontier, config, { maxChars: 600 })).not.toMatch(/Next up:$/);
  });

  it("is pure: same input, same output, input untouched", () => {
    const frontier = sample();
    const copy = structuredClone(frontier);
    expect(renderFrontierSummary(frontier, config)).toBe(renderFrontierSummary(frontier, config));
    expect(frontier).toEqual(copy);
  });
});
