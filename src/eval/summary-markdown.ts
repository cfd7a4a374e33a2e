/**
 * Markdown page of an evaluation summary (pure): run facts, the equal budgets, the
 * per-strategy table, the seed 000 comparison (when investigative and simple both ran), the
 * judge and fault tables, and the verdicts. Every text taken from the summary
 * is escaped, so no Markdown or HTML in it becomes markup.
 */
import { escapeMarkdown } from "../core/render/markdown.js";
import type { EvalSummary, Verdict } from "./eval-types.js";
import { comparisonLines, runFacts, type SummaryTable, summaryTables, thresholdLines } from "./summary-format.js";

/** Characters that make emphasis, code, links, HTML, tables or entities (as in escapeMarkdown). */
const CELL_SPECIAL = /[\\`*_[\]<>|~&]/g;

/**
 * Escapes one table cell: the Markdown specials, pipes included, and line breaks, which would
 * end the row. A cell never starts a line, so list and heading markers need no escape.
 */
function cell(text: string): string {
  return (
    text
      .replace(/\s*(\r\n|\r|\n)\s*/g, " ")
      .replace(CELL_SPECIAL, (char) => `\\${char}`)
      .trim() || " "
  );
}

/** Escapes inline text and joins its lines, so that it cannot end a heading, item or emphasis. */
function inline(text: string): string {
  return escapeMarkdown(text.replace(/\s*(\r\n|\r|\n)\s*/g, " "));
}

function table(model: SummaryTable): string[] {
  if (model.rows.length === 0) return [inline(model.empty), ""];
  const align = model.columns.map((column) => (column.kind === "number" ? "---:" : "---"));
  return [
    `*${inline(model.caption)}*`,
    "",
    `| ${model.columns.map((column) => cell(column.label)).join(" | ")} |`,
    `| ${align.join(" | ")} |`,
    ...model.rows.map((row) => `| ${row.map(cell).join(" | ")} |`),
    "",
  ];
}

function verdict(item: Verdict): string[] {
  const outcome = item.wins ? "wins" : "does not win";
  return [
    `### ${inline(item.candidate)} ${outcome} against ${inline(item.baseline)}`,
    "",
    ...(item.reasons.length > 0 ? item.reasons.map((reason) => `- ${inline(reason)}`) : ["- —"]),
    "",
  ];
}

/** Renders `summary` as Markdown. Pure. */
export function renderSummaryMarkdown(summary: EvalSummary): string {
  const tables = new Map(summaryTables(summary).map((model) => [model.id, model]));
  const section = (title: string, id: SummaryTable["id"]): string[] => {
    const model = tables.get(id);
    return model ? [`## ${title}`, "", ...table(model)] : [];
  };
  const out: string[] = [`# ${inline(summary.title)}`, ""];
  for (const [label, value] of runFacts(summary)) out.push(`- **${label}:** ${inline(value)}`);
  out.push("");
  out.push(...section("Equal budgets", "budgets"));
  out.push(...section("Per strategy", "strategies"));
  const comparison = comparisonLines(summary);
  if (summary.comparison && comparison.length > 0) {
    const { candidate, baseline } = summary.comparison;
    out.push(`## Seed 000 comparison: ${inline(candidate)} against ${inline(baseline)}`, "");
    out.push(...comparison.map((line) => `- ${inline(line)}`), "");
  }
  out.push(...section("Judge", "judge"));
  out.push(...section("Faults", "faults"));
  out.push("## Verdict", "");
  out.push(`Thresholds (each candidate against the baseline, ${inline(summary.baseline)}):`, "");
  out.push(...thresholdLines(summary.thresholds).map((line) => `- ${inline(line)}`), "");
  if (summary.verdicts.length === 0) out.push("No candidate was compared with the baseline.", "");
  for (const item of summary.verdicts) out.push(...verdict(item));
  return `${out.join("\n").trimEnd()}\n`;
}
