import { describe, expect, it } from "vitest";
import { findCanonicalHref } from "./canonical-link.js";

describe("findCanonicalHref", () => {
  it("finds the canonical link whatever the attribute order and quoting", () => {
    expect(findCanonicalHref('<head><link rel="canonical" href="https://a.example/x"></head>')).toBe(
      "https://a.example/x",
    );
    expect(findCanonicalHref("<LINK HREF='/p?a=1&amp;b=2' REL='Canonical' />")).toBe("/p?a=1&b=2");
    expect(findCanonicalHref("<link rel=canonical href=/unquoted>")).toBe("/unquoted");
    expect(findCanonicalHref('<link rel="alternate canonical" href="/both">')).toBe("/both");
  });

  it("skips other links and empty hrefs", () => {
    expect(findCanonicalHref('<link rel="stylesheet" href="/s.css"><link rel="canonical" href="">')).toBeUndefined();
    expect(findCanonicalHref('<link rel="icon" href="/i.png"><link rel="canonical" href="/c">')).toBe("/c");
    expect(findCanonicalHref("<p>no links</p>")).toBeUndefined();
  });

  // A quadratic or backtracking scan would not finish this within the test's limit (which guards
  // against that hang; the assertion is the answer). Its speed is not measured here.
  it("answers on a hostile page (the scan never revisits text)", () => {
    const hostile = `<link ${"a=".repeat(100_000)}>${"<link".repeat(50_000)}`;
    expect(findCanonicalHref(hostile)).toBeUndefined();
  }, 10_000);
});
