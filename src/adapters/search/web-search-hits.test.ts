import { describe, expect, it } from "vitest";
import { UserError } from "../../core/errors.js";
import { checkWebQuery, isWebUrl, parseBaseUrl, requireApiKey, toHits, webQueryText } from "./web-search-hits.js";

describe("toHits", () => {
  it("keeps http(s) URLs once each, in order, ranked 1..n, up to the limit", () => {
    const hits = toHits(
      [
        { url: " https://a.example/x ", title: "A", snippet: "first", score: 3 },
        { url: null, title: "no url", score: 2 },
        { url: "mailto:someone@example.org", score: 2 },
        { url: "https://a.example/x", title: "A again", score: 1 },
        { url: "http://b.example/", title: "", snippet: null, score: 1 },
        { url: "https://c.example/", title: "C", score: 0.5 },
      ],
      2,
    );
    expect(hits).toEqual([
      { anchor: "https://a.example/x", title: "A", snippet: "first", rank: 1, score: 3 },
      { anchor: "http://b.example/", title: "http://b.example/", snippet: "", rank: 2, score: 1 },
    ]);
  });

  it("makes titles and snippets single reader-safe lines", () => {
    const [hit] = toHits([{ url: "https://a.example", title: "A\u202e\nB", snippet: "x ".repeat(400), score: 1 }], 5);
    expect(hit?.title).toBe("A B");
    expect(hit?.snippet.length).toBeLessThanOrEqual(300);
  });
});

describe("queries, URLs and keys", () => {
  it("refuses patterns, empty text and text beyond a provider's limits", () => {
    expect(checkWebQuery({ kind: "pattern", pattern: "a+" })).toBe("pattern queries need a local corpus scope");
    expect(checkWebQuery({ kind: "text", text: "" })).toBe("the query is empty");
    expect(checkWebQuery({ kind: "text", text: "abcd" }, { maxChars: 3 })).toMatch(/longer than 3/);
    expect(webQueryText({ kind: "text", text: "  two words " })).toBe("two words");
    expect(() => webQueryText({ kind: "pattern", pattern: "x" })).toThrow(UserError);
  });

  it("parses base URLs so endpoints resolve under their path", () => {
    expect(new URL("search", parseBaseUrl("X", "http://host:8080/searx")).href).toBe("http://host:8080/searx/search");
    expect(new URL("search", parseBaseUrl("X", "https://host/?q=1#f")).href).toBe("https://host/search");
    expect(() => parseBaseUrl("X", "ftp://host")).toThrow(UserError);
    expect(() => parseBaseUrl("X", "not a url")).toThrow(/not an http/);
    expect(isWebUrl("javascript:alert(1)")).toBe(false);
  });

  it("requires a non-blank key", () => {
    expect(requireApiKey("X", " key ")).toBe("key");
    expect(() => requireApiKey("X", undefined)).toThrow("the X search provider needs an API key");
  });

  it("shortens a long request to the provider's limits instead of refusing it", () => {
    const long = { kind: "text" as const, text: `${"word ".repeat(60)}end` };
    expect(webQueryText(long, { maxWords: 50 }).split(" ")).toHaveLength(50);
    const text = webQueryText({ kind: "text", text: "alpha beta gamma delta" }, { maxChars: 12 });
    expect(text).toBe("alpha beta");
    expect(() => webQueryText({ kind: "text", text: "   " })).toThrow(/empty/);
  });
});
