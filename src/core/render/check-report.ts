/**
 * The report of `assay check` (pure): the verdict of every claim of a draft with the sentences
 * that decide it, as Markdown, HTML (source text escaped) and JSON, and one JSON line per claim.
 */
import type { CheckedClaim, CheckVerdict } from "../judgment/claim-check.js";
import { readerLine } from "../text.js";
import { escapeHtml, REPORT_STYLE } from "./html.js";
import { escapeMarkdown } from "./markdown.js";

export const VERDICT_LABEL: Record<CheckVerdict, string> = {
  supported: "Supported",
  contradicted: "Contradicted",
  partial: "Partly supported",
  "not-found": "Not found in its sources",
};

const STANCE_LABEL = { supports: "States it", contradicts: "Says otherwise", partial: "States part of it" } as const;

/** How many claims got each verdict, in words: "3 supported, 1 contradicted". */
export function checkSummary(results: readonly CheckedClaim[]): string {
  const counts = (Object.keys(VERDICT_LABEL) as CheckVerdict[])
    .map((verdict) => [verdict, results.filter((result) => result.verdict === verdict).length] as const)
    .filter(([, count]) => count > 0)
    .map(([verdict, count]) => `${count} ${VERDICT_LABEL[verdict].toLowerCase()}`);
  return `${results.length} claim${results.length === 1 ? "" : "s"} checked: ${counts.join(", ") || "none"}.`;
}

/** One JSON object per claim: what `--json` prints, a line each. */
export function checkJsonLines(results: readonly CheckedClaim[]): string[] {
  return results.map((result) => JSON.stringify(result));
}

export function checkMarkdown(title: string, results: readonly CheckedClaim[], problems: readonly string[]): string {
  const lines = [`# ${escapeMarkdown(readerLine(title, 200))}`, "", `**${checkSummary(results)}**`, ""];
  for (const result of results) {
    lines.push(`## ${escapeMarkdown(result.id)}: ${VERDICT_LABEL[result.verdict]}`, "");
    lines.push(`> ${escapeMarkdown(readerLine(result.claim, 2_000))}`, "");
    lines.push(escapeMarkdown(readerLine(result.reason, 2_000)), "");
    for (const quote of result.quotes)
      lines.push(
        `- ${STANCE_LABEL[quote.stance]} (${escapeMarkdown(quote.source)}): “${escapeMarkdown(readerLine(quote.text, 2_000))}”`,
      );
    for (const entry of result.unread)
      lines.push(`- Not read (${escapeMarkdown(entry.source)}): ${escapeMarkdown(entry.error)}`);
    lines.push("");
  }
  if (problems.length > 0) {
    lines.push("## Not checked", "");
    for (const problem of problems) lines.push(`- ${escapeMarkdown(readerLine(problem, 500))}`);
    lines.push("");
  }
  return `${lines.join("\n").trimEnd()}\n`;
}

export function checkHtml(title: string, results: readonly CheckedClaim[], problems: readonly string[]): string {
  const items = results
    .map((result) => {
      const quotes = result.quotes
        .map(
          (quote) =>
            `<li>${STANCE_LABEL[quote.stance]} (${escapeHtml(quote.source)}): <q>${escapeHtml(readerLine(quote.text, 2_000))}</q></li>`,
        )
        .join("");
      const unread = result.unread
        .map((entry) => `<li>Not read (${escapeHtml(entry.source)}): ${escapeHtml(entry.error)}</li>`)
        .join("");
      return `<section class="claim ${result.verdict}"><h2>${escapeHtml(result.id)}: ${VERDICT_LABEL[result.verdict]}</h2><blockquote>${escapeHtml(readerLine(result.claim, 2_000))}</blockquote><p>${escapeHtml(readerLine(result.reason, 2_000))}</p>${quotes || unread ? `<ul>${quotes}${unread}</ul>` : ""}</section>`;
    })
    .join("\n");
  const notChecked =
    problems.length > 0
      ? `<section><h2>Not checked</h2><ul>${problems.map((problem) => `<li>${escapeHtml(readerLine(problem, 500))}</li>`).join("")}</ul></section>`
      : "";
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(readerLine(title, 200))}</title><style>${REPORT_STYLE}</style></head><body><main><h1>${escapeHtml(readerLine(title, 200))}</h1><p><strong>${escapeHtml(checkSummary(results))}</strong></p>\n${items}\n${notChecked}</main></body></html>\n`;
}

export function checkJson(title: string, results: readonly CheckedClaim[], problems: readonly string[]): string {
  return `${JSON.stringify({ title, summary: checkSummary(results), claims: results, problems }, null, 2)}\n`;
}
