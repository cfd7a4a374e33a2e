/** The benchmarks' statistics and the figure table they print (median, min and max of each figure). */

export const fixed = (value: number, digits = 2): string => (Number.isFinite(value) ? value.toFixed(digits) : "n/a");

export function median(values: readonly number[]): number {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  const count = sorted.length;
  if (count === 0) return Number.NaN;
  const middle = Math.floor(count / 2);
  return count % 2 === 1 ? (sorted[middle] ?? Number.NaN) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** Nearest-rank quantile. */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length)));
  return sorted[rank - 1] ?? Number.NaN;
}

/** One figure: its key, label, one value per pass, and unit. */
export type Figure = readonly [key: string, label: string, values: readonly number[], unit: string];

/** Prints figures as a table: N (what each pass covered), passes, median, min, max. */
export function printFigures(n: string, figures: readonly Figure[], nHeading = "N"): void {
  const head = ["", "figure", nHeading, "passes", "median", "min", "max", "unit"];
  const rows = figures.map(([key, label, values, unit]) => [
    key,
    label,
    n,
    String(values.length),
    fixed(median(values)),
    fixed(Math.min(...values)),
    fixed(Math.max(...values)),
    unit,
  ]);
  const all = [head, ...rows];
  const widths = head.map((_, column) => Math.max(...all.map((cell) => (cell[column] ?? "").length)));
  const numeric = new Set([2, 3, 4, 5, 6]);
  const line = (cell: readonly string[]): string =>
    cell
      .map((value, column) =>
        numeric.has(column) ? value.padStart(widths[column] ?? 0) : value.padEnd(widths[column] ?? 0),
      )
      .join("  ")
      .trimEnd();
  console.log(line(head));
  console.log(widths.map((width) => "-".repeat(width)).join("  "));
  for (const cell of rows) console.log(line(cell));
}

/** `count` of `items` spread evenly over them, in their order (deterministic; not just the first ones). */
export function spread<T>(items: readonly T[], count: number): T[] {
  if (count >= items.length) return [...items];
  return Array.from({ length: count }, (_, index) => items[Math.floor((index * items.length) / count)] as T);
}
