/**
 * Building the text of a structured document part by part (a slide, a block of a sheet's rows,
 * a notebook cell, a chapter), each part a section with its location, so its passages are cited
 * by where they stand. Tables become readable rows, each value with its column's header,
 * bounded per table.
 */
import type { Section } from "../../core/chunking.js";
import { recordLine } from "../../core/records.js";
import { tidyText } from "./extracted-document.js";

export class SectionedText {
  readonly #parts: string[] = [];
  #length = 0;
  readonly sections: Section[] = [];

  /** Adds a part (paragraphs separated by blank lines) at `location`; an empty part adds nothing. */
  add(location: string, body: string): void {
    const text = tidyText(body);
    if (text.length === 0) return;
    if (this.#length > 0) {
      this.#parts.push("\n\n");
      this.#length += 2;
    }
    this.sections.push({ start: this.#length, location });
    this.#parts.push(text);
    this.#length += text.length;
  }

  get text(): string {
    return this.#parts.join("");
  }

  get empty(): boolean {
    return this.#length === 0;
  }
}

/** How much of one table is read. */
export const TABLE_LIMITS = {
  /** Data rows of a sheet or CSV file read; the rest is not (the document is marked truncated). */
  maxRows: 5_000,
  /** Columns of a row read. */
  maxColumns: 100,
  /** Characters of one cell kept. */
  maxCellChars: 2_000,
  /** Characters of one block of rows: one section, read as one passage. */
  blockChars: 400,
};

export interface Table {
  /** Row number (1-based, as the sheet shows it) and cells, in order; the first row is the header. */
  rows: { number: number; cells: string[] }[];
}

const cell = (value: string): string => value.replace(/\s+/g, " ").trim().slice(0, TABLE_LIMITS.maxCellChars);

/**
 * Adds `table` to `out` in blocks of rows: each row a paragraph of "header: value" pairs
 * (`recordLine`: empty cells left out), each block a section "<prefix>rows 2–21". The header row itself is a line of
 * the first block only when no data row follows it.
 */
export function addTable(out: SectionedText, table: Table, prefix: string): void {
  const rows = table.rows
    .map((row) => ({ number: row.number, cells: row.cells.slice(0, TABLE_LIMITS.maxColumns).map(cell) }))
    .filter((row) => row.cells.some((value) => value.length > 0));
  const [header, ...data] = rows;
  if (header === undefined) return;
  if (data.length === 0) {
    out.add(`${prefix}row ${header.number}`, header.cells.filter(Boolean).join("; "));
    return;
  }
  const names = header.cells;
  let block: string[] = [];
  let size = 0;
  let first = 0;
  let last = 0;
  const flush = (): void => {
    if (block.length === 0) return;
    out.add(first === last ? `${prefix}row ${first}` : `${prefix}rows ${first}–${last}`, block.join("\n\n"));
    block = [];
    size = 0;
  };
  for (const row of data) {
    const line = recordLine(names, row.cells);
    if (size > 0 && size + line.length > TABLE_LIMITS.blockChars) flush();
    if (block.length === 0) first = row.number;
    block.push(line);
    size += line.length + 1;
    last = row.number;
  }
  flush();
}
