/**
 * A table row as text: each non-empty value with its column's header, "Year: 2024; Price: 115"
 * (pure). Spreadsheets and CSV files are read this way, so a row can be quoted and checked on
 * its own; the extractive engine recognizes such a row as a statement, not a heading.
 */

/** `names[i]: values[i]` pairs of the non-empty values, joined by "; ". */
export function recordLine(names: readonly string[], values: readonly string[]): string {
  return values
    .map((value, index) => (value ? `${names[index] || `column ${index + 1}`}: ${value}` : ""))
    .filter(Boolean)
    .join("; ");
}

const RECORD = /^[^;:\n]{1,100}: [^;\n]*(?:; [^;:\n]{1,100}: [^;\n]*)+$/u;

/** Whether `text` is a row as `recordLine` writes it, with two values or more. */
export const isRecordLine = (text: string): boolean => RECORD.test(text);
