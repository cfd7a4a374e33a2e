import { describe, expect, it } from "vitest";
import { UserError } from "../../../core/errors.js";
import { isAllowed, patternMatches, productToken, rulesFor } from "./robots.js";
import { RobotsCache, type RobotsResponse } from "./robots-cache.js";

const ROBOTS = `# comment
User-agent: *
Disallow: /private/
Allow: /private/open$
Disallow: /*.pdf$

User-agent: OtherBot
User-agent: assay
Disallow: /no-assay
Allow: /no-assay/but-this
Disallow:

User-agent: BadBot
Disallow: /
`;

describe("robots.txt rules", () => {
  it("takes the product token of the user agent", () => {
    expect(productToken("Assay/0.1 (research bot)")).toBe("assay");
    expect(productToken("  my-crawler_x/2")).toBe("my-crawler_x");
  });

  it("uses our own group when one names us, else the * group", () => {
    const own = rulesFor(ROBOTS, "assay");
    expect(isAllowed(own, "/no-assay/page")).toBe(false);
    expect(isAllowed(own, "/no-assay/but-this/x")).toBe(true);
    expect(isAllowed(own, "/private/x")).toBe(true);
    const star = rulesFor(ROBOTS, "somebot");
    expect(isAllowed(star, "/private/x")).toBe(false);
    expect(isAllowed(star, "/private/open")).toBe(true);
    expect(isAllowed(star, "/private/open/more")).toBe(false);
    expect(isAllowed(star, "/docs/a.pdf")).toBe(false);
    expect(isAllowed(star, "/docs/a.pdf?x=1")).toBe(true);
    expect(isAllowed(rulesFor(ROBOTS, "badbot"), "/anything")).toBe(false);
    expect(isAllowed(rulesFor(ROBOTS, "badbot"), "/robots.txt")).toBe(true);
  });

  it("allows everything without rules, and prefers Allow on a tie", () => {
    expect(isAllowed([], "/x")).toBe(true);
    expect(isAllowed(rulesFor("", "assay"), "/x")).toBe(true);
    const tie = [
      { allow: false, pattern: "/page" },
      { allow: true, pattern: "/page" },
    ];
    expect(isAllowed(tie, "/page")).toBe(true);
  });

  it("matches wildcards and anchors, percent-escapes case-insensitively", () => {
    expect(patternMatches("/a*b$", "/a/x/b")).toBe(true);
    expect(patternMatches("/a*b$", "/a/x/bc")).toBe(false);
    expect(patternMatches("/a*b", "/a/x/bc")).toBe(true);
    expect(patternMatches("*", "/")).toBe(true);
    expect(isAllowed(rulesFor("User-agent: *\nDisallow: /caf%c3%a9", "x"), "/caf%C3%A9/menu")).toBe(false);
    expect(isAllowed(rulesFor("User-agent: *\nDisallow: /café", "x"), "/caf%C3%A9")).toBe(false);
  });

  // A backtracking matcher would not finish this within the test's limit (which guards against
  // that hang; the assertion is the answer). Its speed is not measured here.
  it("answers on hostile patterns (no exponential backtracking)", () => {
    const rules = rulesFor(`User-agent: *\nDisallow: /${"*a".repeat(200)}b`, "x");
    expect(isAllowed(rules, `/${"a".repeat(5000)}`)).toBe(true);
  }, 10_000);
});

describe("RobotsCache", () => {
  const cacheWith = (responses: Record<string, RobotsResponse>, now = () => 0) => {
    const reads: string[] = [];
    const shared = new RobotsCache({ now });
    const reader = (token: string) => ({
      token,
      read: async (url: URL) => {
        reads.push(`${token} ${url.href}`.replace(/^assay /, ""));
        const response = responses[url.origin];
        if (!response) throw new Error("unexpected read");
        return response;
      },
    });
    const cache = { check: (url: URL, token = "assay") => shared.check(url, reader(token)) };
    return { cache, reads };
  };

  it("is shared: fetchers with the same product token read an origin's robots.txt once, another token reads its own", async () => {
    const { cache, reads } = cacheWith({
      "https://a.example": { status: 200, text: "User-agent: other\nDisallow: /" },
    });
    await cache.check(new URL("https://a.example/1"));
    await cache.check(new URL("https://a.example/2"));
    expect(await cache.check(new URL("https://a.example/3"), "other")).toMatchObject({ allowed: false });
    expect(reads).toEqual(["https://a.example/robots.txt", "other https://a.example/robots.txt"]);
  });

  it("reads robots.txt once per origin and applies it", async () => {
    const { cache, reads } = cacheWith({ "https://a.example": { status: 200, text: "User-agent: *\nDisallow: /x" } });
    const results = await Promise.all([
      cache.check(new URL("https://a.example/x/1")),
      cache.check(new URL("https://a.example/y")),
    ]);
    expect(results).toEqual([
      { allowed: false, reason: "disallowed by robots.txt", retryable: false },
      { allowed: true },
    ]);
    expect(reads).toEqual(["https://a.example/robots.txt"]);
  });

  it("treats 4xx as no rules and 5xx or a failure as unreachable", async () => {
    const { cache } = cacheWith({
      "https://gone.example": { status: 404, text: "" },
      "https://down.example": { status: 503, text: "" },
      "https://broken.example": { failure: new Error("ECONNRESET") },
    });
    expect(await cache.check(new URL("https://gone.example/a"))).toEqual({ allowed: true });
    expect(await cache.check(new URL("https://down.example/a"))).toEqual({
      allowed: false,
      reason: "robots.txt unreachable (HTTP 503)",
      retryable: true,
    });
    expect(await cache.check(new URL("https://broken.example/a"))).toMatchObject({ allowed: false, retryable: true });
  });

  it("passes a refused address through and reads again after expiry", async () => {
    let now = 0;
    const { cache, reads } = cacheWith(
      {
        "https://refused.example": { failure: new UserError("refused to connect") },
        "https://ok.example": { status: 200, text: "" },
      },
      () => now,
    );
    await expect(cache.check(new URL("https://refused.example/"))).rejects.toThrow(UserError);
    await cache.check(new URL("https://ok.example/"));
    now = 25 * 60 * 60 * 1000;
    await cache.check(new URL("https://ok.example/"));
    expect(reads.filter((read) => read.startsWith("https://ok.example"))).toHaveLength(2);
  });
});
