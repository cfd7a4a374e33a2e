import { describe, expect, it } from "vitest";
import { admitQueries, canonicalQuery, type QueryAdmissionRules } from "./query-admission.js";

const rules: QueryAdmissionRules = {
  scopeKind: "corpus",
  maxQueries: 3,
  maxQueryChars: 40,
  providerProblem: (query) =>
    query.kind === "pattern" && query.pattern.includes("\\1")
      ? "backreferences are not supported"
      : query.kind === "pattern" && query.pathPrefix?.includes("..")
        ? "invalid path prefix: the path contains '..'"
        : undefined,
};

describe("admitQueries", () => {
  it("admits distinct, bounded queries in order and refuses the rest with reasons", () => {
    const result = admitQueries(
      [
        { text: "Goodenough Oxford 1980" },
        { text: "oxford   GOODENOUGH 1980" },
        { text: "" },
        { text: "x".repeat(41) },
        { pattern: "(a)\\1" },
        { pattern: "LiCoO2", pathPrefix: "../etc" },
        { text: "a", pattern: "b" },
        { text: "Sony 1991 cell" },
        { pattern: "Li[A-Z][a-z]*PO4", pathPrefix: "chemistry" },
        { text: "one too many" },
      ],
      [{ kind: "text", text: "the bootstrap question" }],
      rules,
    );
    expect(result.admitted).toEqual([
      { kind: "text", text: "Goodenough Oxford 1980" },
      { kind: "text", text: "Sony 1991 cell" },
      { kind: "pattern", pattern: "Li[A-Z][a-z]*PO4", pathPrefix: "chemistry" },
    ]);
    expect(result.refused.map((item) => item.reason)).toEqual([
      "duplicates a query already scheduled",
      "a query needs exactly one of text or pattern",
      "the query is longer than 40 characters",
      "backreferences are not supported",
      "invalid path prefix: the path contains '..'",
      "a query needs exactly one of text or pattern",
      "more than 3 queries were proposed",
    ]);
  });

  it("refuses a duplicate of already scheduled work", () => {
    const result = admitQueries(
      [{ text: "The Bootstrap question" }],
      [{ kind: "text", text: "the bootstrap question" }],
      rules,
    );
    expect(result.admitted).toEqual([]);
    expect(canonicalQuery({ kind: "text", text: "b a a" })).toBe(canonicalQuery({ kind: "text", text: "A B" }));
  });
});
