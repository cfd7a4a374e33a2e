/**
 * CSV and TSV files (csv-parse): rows in blocks, each value with its column's header, each
 * block cited by its row range. The delimiter of a .csv file is the one of `,` `;` and tab
 * its first line uses most.
 */
import { parse } from "csv-parse/sync";
import { UnreadableDocumentError } from "./archive.js";
import type { ExtractedDocument } from "./extracted-document.js";
import { addTable, SectionedText, TABLE_LIMITS } from "./sectioned-text.js";

function delimiterOf(text: string, tabbed: boolean): string {
  if (tabbed) return "\t";
  const first = text.slice(0, text.search(/\r?\n|$/));
  const counts = [",", ";", "\t"].map((delimiter) => ({ delimiter, count: first.split(delimiter).length - 1 }));
  return counts.reduce((best, next) => (next.count > best.count ? next : best)).delimiter;
}

export function extractCsv(raw: string, fallbackTitle: string, tabbed: boolean): ExtractedDocument {
  let records: string[][];
  try {
    records = parse(raw, {
      delimiter: delimiterOf(raw, tabbed),
      bom: true,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: false,
      // The header, the rows read and one more: whether the file goes on.
      to: TABLE_LIMITS.maxRows + 2,
    }) as string[][];
  } catch (error) {
    throw new UnreadableDocumentError(`malformed CSV (${(error as Error).message})`);
  }
  const truncated = records.length > TABLE_LIMITS.maxRows + 1;
  const out = new SectionedText();
  addTable(
    out,
    { rows: records.slice(0, TABLE_LIMITS.maxRows + 1).map((cells, index) => ({ number: index + 1, cells })) },
    "",
  );
  return {
    title: fallbackTitle,
    text: out.text,
    contentType: tabbed ? "text/tab-separated-values" : "text/csv",
    sections: out.sections,
    ...(truncated ? { truncated } : {}),
  };
}
