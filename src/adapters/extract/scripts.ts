/**
 * Superscripts and subscripts as text (pure): every extractor writes an exponent as "^3" and an
 * index as "_2", so that "48" with a raised "3" is 48^3 and never the number 483.
 */

/**
 * The text of a superscript or subscript written as an exponent or an index: a short run of
 * digits or letters, a sign allowed ("3", "−9", "n", "2+"); undefined for anything else (a
 * bracketed footnote mark "[1]", a word), which stays as it was written.
 */
export function scriptText(text: string): string | undefined {
  const value = text.replace(/\s+/g, "").replace(/\u2212/g, "-");
  return /^[-+]?[\p{L}\p{Nd}]{1,4}[+-]?$/u.test(value) ? value : undefined;
}
