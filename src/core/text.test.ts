import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { contentWords, isControlCode, isSpaceCode, stripControl } from "./text.js";

/**
 * What contentWords reads, as the expression it is defined by (text.ts reads it a character at a
 * time), less the stopwords (a word alone that contentWords drops is one).
 */
const byExpression = (text: string): string[] =>
  (text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? [])
    .map((word) => word.replace(/['’-]+$/u, ""))
    .filter((word) => word.length > 1 && contentWords(word).length === 1);

describe("contentWords", () => {
  it("property: the words of the expression, less the stopwords, in order", () => {
    const piece = fc.constantFrom(
      ..."the of It this He Lithium-ion don't l’été naïve ÉCOLE ΣΟΦΊΑ 日本語 𝒜bc 1991 3.5 x- -y 'q' — , . İ ß ǅ ٣".split(
        " ",
      ),
      " ",
      "\n",
      "'",
      "’",
      "-",
      "\u200b",
      "\u0301",
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const text = pieces.join(pieces.length % 2 === 0 ? "" : " ");
        expect(contentWords(text)).toEqual(byExpression(text));
      }),
    );
  });

  it("property: any characters at all, the words of the expression", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme-composite", maxLength: 60 }), (text) => {
        expect(contentWords(text)).toEqual(byExpression(text));
      }),
    );
  });

  it("keeps inner apostrophes and hyphens and drops trailing ones and stopwords", () => {
    expect(contentWords("The lithium-ion cell's voltage -- don’t; X- y' 1991.")).toEqual([
      "lithium-ion",
      "cell's",
      "voltage",
      "don’t",
      "1991",
    ]);
  });
});

describe("control and space characters", () => {
  it("isControlCode is exactly what stripControl removes, and isSpaceCode exactly \\s, over every code unit", () => {
    for (let code = 0; code <= 0xffff; code++) {
      const char = String.fromCharCode(code);
      expect(isControlCode(code), `U+${code.toString(16)}`).toBe(stripControl(char) === "");
      expect(isSpaceCode(code), `U+${code.toString(16)}`).toBe(/\s/.test(char));
    }
  });
});
