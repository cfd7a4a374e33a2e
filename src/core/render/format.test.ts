import { describe, expect, it } from "vitest";
import { textFragmentUrl } from "./format.js";

describe("textFragmentUrl", () => {
  it("names a short quote whole and a long one by its first and last four words", () => {
    expect(textFragmentUrl("https://example.org/a", [{ text: "Sony sold it in 1991." }])).toBe(
      "https://example.org/a#:~:text=Sony%20sold%20it%20in%201991.",
    );
    expect(
      textFragmentUrl("https://example.org/a", [
        { text: "In 1991 Sony began selling the first commercial lithium-ion rechargeable battery." },
      ]),
    ).toBe(
      "https://example.org/a#:~:text=In%201991%20Sony%20began,commercial%20lithium%2Dion%20rechargeable%20battery.",
    );
  });

  it("escapes what the syntax uses (dash, comma, ampersand), and joins several quotes", () => {
    const url = textFragmentUrl("https://example.org/a?x=1", [{ text: "A-B, C & D" }, { text: "second one" }]);
    expect(url).toBe("https://example.org/a?x=1#:~:text=A%2DB%2C%20C%20%26%20D&text=second%20one");
    expect(new URL(url).hash.startsWith("#:~:")).toBe(true);
  });

  it("adds to a fragment the URL already has, and leaves a URL without quotes alone", () => {
    expect(textFragmentUrl("https://example.org/a#history", [{ text: "one two" }])).toBe(
      "https://example.org/a#history:~:text=one%20two",
    );
    expect(textFragmentUrl("https://example.org/a", [])).toBe("https://example.org/a");
  });
});
