/**
 * HTML page of an evaluation summary (pure): the same facts and tables as the Markdown page,
 * plus inline SVG charts. One self-contained document: no script, no external resource, a
 * strict Content-Security-Policy, every text from the summary escaped, readable on a phone
 * (wide tables scroll inside their own box) and printable.
 */
import { escapeHtml } from "../core/render/html.js";
import type { EvalSummary, Verdict } from "./eval-types.js";
import { faultChart, latencyChart, recallChart } from "./summary-charts.js";
import {
  comparisonLines,
  NOT_APPLICABLE,
  NOT_SCORED,
  runFacts,
  type SummaryTable,
  summaryTables,
  thresholdLines,
} from "./summary-format.js";

const STYLE = `
:root{color-scheme:light dark;--fg:#1b1b1b;--muted:#5b5b5b;--bg:#fff;--card:#f6f6f3;--rule:#ddd;--accent:#0b5cad;--c1:#0b5cad;--c2:#d9822b;--c3:#5a9e6f;--ok:#2e8540;--bad:#c0392b;--yes:#1f7f8c;--no:#8a6bb8}
@media (prefers-color-scheme:dark){:root{--fg:#e8e8e8;--muted:#a8a8a8;--bg:#151515;--card:#1f1f1f;--rule:#333;--accent:#7fb2ff;--c1:#7fb2ff;--c2:#f0a45d;--c3:#8fd1a0;--ok:#6fcf7f;--bad:#ff7b6b;--yes:#5cc8d6;--no:#b9a2e0}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.6 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:72rem;margin:0 auto;padding:1.5rem 1rem 3rem}
h1{font-size:1.6rem;line-height:1.25;margin:.5rem 0 1rem;overflow-wrap:anywhere}
h2{font-size:1.2rem;margin:2rem 0 .75rem;border-bottom:1px solid var(--rule);padding-bottom:.25rem}
h3{font-size:1.05rem;margin:1.25rem 0 .25rem;overflow-wrap:anywhere}
.facts{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:.15rem 1rem;margin:0}
.facts dt{color:var(--muted)}.facts dd{margin:0;overflow-wrap:anywhere}
.facts code{font-size:.9em}
.table-wrap{overflow-x:auto;margin:.5rem 0 1.5rem;max-width:100%}
table{border-collapse:collapse;font-size:.9rem}
caption{text-align:left;color:var(--muted);font-size:.85rem;padding:.25rem 0;caption-side:top}
th,td{border-bottom:1px solid var(--rule);padding:.3rem .6rem;vertical-align:top;text-align:left}
thead th{border-bottom:2px solid var(--rule);font-weight:600}
th[scope=row]{font-weight:600;overflow-wrap:break-word;min-width:7rem}
td.number{text-align:right;white-space:nowrap}th.number{text-align:right}
td.text{min-width:12rem;overflow-wrap:anywhere}
td.not-scored,td.not-applicable{color:var(--muted);font-style:italic}
.empty,.notice{background:var(--card);border-left:4px solid var(--accent);padding:.75rem 1rem;margin:1rem 0}
figure{margin:1rem 0 2rem;max-width:40rem}
figure svg{display:block;width:100%;height:auto}
figcaption{color:var(--muted);font-size:.85rem;margin-top:.25rem}
svg text{fill:var(--fg);font:11px system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
svg text.category{font-weight:600}svg text.sub,svg text.tick,svg text.axis-label{fill:var(--muted)}
svg .axis{stroke:var(--muted);stroke-width:1}svg .grid{stroke:var(--rule);stroke-width:1}
svg .marker{stroke:var(--fg);stroke-width:2}
[data-series=gold-recall],[data-legend=gold-recall],[data-series=first-source],[data-legend=first-source]{fill:var(--c1)}
[data-series=citation-precision],[data-legend=citation-precision],[data-series=terminal],[data-legend=terminal]{fill:var(--c2)}
[data-series=answer-share],[data-legend=answer-share]{fill:var(--c3)}
[data-series=checks-passed],[data-legend=checks-passed]{fill:var(--ok)}
[data-series=checks-failed],[data-legend=checks-failed]{fill:var(--bad)}
[data-series=salvaged],[data-legend=salvaged]{fill:var(--yes)}
[data-series=not-salvaged],[data-legend=not-salvaged]{fill:var(--no)}
.verdict{border-left:4px solid var(--rule);padding:.25rem 0 .25rem 1rem;margin:1rem 0}
.verdict[data-wins=true]{border-left-color:var(--ok)}.verdict[data-wins=false]{border-left-color:var(--bad)}
ul{padding-left:1.5rem}li{margin:.25rem 0;overflow-wrap:anywhere}
footer{color:var(--muted);font-size:.85rem;margin-top:2rem}
@media print{body{font-size:10pt;background:#fff;color:#000}main{max-width:none;padding:0}.table-wrap{overflow:visible}table{font-size:8.5pt}th,td{padding:.15rem .3rem}td.text{min-width:0}figure,table,.verdict{break-inside:avoid}h2,h3{break-after:avoid}.empty,.notice{background:none;border:1px solid #999}}
`;

function cell(text: string, column: SummaryTable["columns"][number] | undefined, header: boolean): string {
  const state = text === NOT_SCORED ? ["not-scored"] : text === NOT_APPLICABLE ? ["not-applicable"] : [];
  const classes = [column?.kind ?? "text", ...state].join(" ");
  return header
    ? `<th scope="row" class="${classes}">${escapeHtml(text)}</th>`
    : `<td class="${classes}">${escapeHtml(text)}</td>`;
}

function table(model: SummaryTable): string {
  if (model.rows.length === 0) return `<p class="empty" data-table="${model.id}">${escapeHtml(model.empty)}</p>`;
  const head = model.columns
    .map((column) => `<th scope="col" class="${column.kind}">${escapeHtml(column.label)}</th>`)
    .join("");
  const rows = model.rows.map(
    (row) => `<tr>${row.map((text, index) => cell(text, model.columns[index], index === 0)).join("")}</tr>`,
  );
  return [
    `<div class="table-wrap" role="region" tabindex="0" aria-label="${escapeHtml(model.caption)}">`,
    `<table data-table="${model.id}"><caption>${escapeHtml(model.caption)}</caption>`,
    `<thead><tr>${head}</tr></thead>`,
    `<tbody>${rows.join("")}</tbody></table></div>`,
  ].join("");
}

function figure(kind: "recall" | "latency" | "faults", chart: string | null, caption: string, empty: string): string {
  const content = chart ?? `<p class="empty">${escapeHtml(empty)}</p>`;
  return `<figure data-chart="${kind}">${content}<figcaption>${escapeHtml(caption)}</figcaption></figure>`;
}

function verdict(item: Verdict): string {
  const outcome = item.wins ? "wins" : "does not win";
  const reasons = item.reasons.length > 0 ? item.reasons : ["—"];
  return [
    `<article class="verdict" data-wins="${item.wins}">`,
    `<h3>${escapeHtml(item.candidate)} <strong>${outcome}</strong> against ${escapeHtml(item.baseline)}</h3>`,
    `<ul>${reasons.map((reason) => `<li>${escapeHtml(reason)}</li>`).join("")}</ul>`,
    `</article>`,
  ].join("");
}

/** The seed 000 comparison section, or '' when investigative and simple did not both run. */
function comparison(summary: EvalSummary): string {
  const lines = comparisonLines(summary);
  if (!summary.comparison || lines.length === 0) return "";
  const { candidate, baseline } = summary.comparison;
  return [
    `<section id="comparison"><h2>Seed 000 comparison: ${escapeHtml(candidate)} against ${escapeHtml(baseline)}</h2>`,
    `<ul class="comparison">${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join("")}</ul>`,
    `</section>`,
  ].join("");
}

/** Renders `summary` as a complete HTML page. Pure. */
export function renderSummaryHtml(summary: EvalSummary): string {
  const tables = new Map(summaryTables(summary).map((model) => [model.id, model]));
  const tableOf = (id: SummaryTable["id"]): string => {
    const model = tables.get(id);
    return model ? table(model) : "";
  };
  const facts = runFacts(summary)
    .map(([label, value]) => {
      const shown = label === "Command" ? `<code>${escapeHtml(value)}</code>` : escapeHtml(value);
      return `<dt>${escapeHtml(label)}</dt><dd>${shown}</dd>`;
    })
    .join("");
  const noStrategy = "No strategy ran.";
  const body: string[] = [
    `<h1>${escapeHtml(summary.title)}</h1>`,
    `<section id="run"><h2>Run</h2><dl class="facts">${facts}</dl></section>`,
    `<section id="budgets"><h2>Equal budgets</h2>${tableOf("budgets")}</section>`,
    `<section id="strategies"><h2>Per strategy</h2>${tableOf("strategies")}`,
    figure(
      "recall",
      summary.perStrategy.length > 0 ? recallChart(summary) : null,
      "Gold-document recall, citation precision and answer share (means over clean runs; — where a strategy has no figure).",
      noStrategy,
    ),
    figure(
      "latency",
      summary.perStrategy.length > 0 ? latencyChart(summary) : null,
      "Time to the first persisted source and to the terminal state: the bar is the median, the tick the 90th percentile.",
      noStrategy,
    ),
    `</section>`,
    comparison(summary),
    `<section id="judge"><h2>Judge</h2>${tableOf("judge")}</section>`,
    `<section id="faults"><h2>Faults</h2>${tableOf("faults")}`,
    figure(
      "faults",
      faultChart(summary),
      "Degradation checks passed and failed per fault and strategy (runs salvaged where a fault has no checks).",
      "No faults were run.",
    ),
    `</section>`,
    `<section id="verdict"><h2>Verdict</h2>`,
    `<p>Thresholds (each candidate against the baseline, ${escapeHtml(summary.baseline)}):</p>`,
    `<ul class="thresholds">${thresholdLines(summary.thresholds)
      .map((line) => `<li>${escapeHtml(line)}</li>`)
      .join("")}</ul>`,
    ...(summary.verdicts.length === 0 ? [`<p class="empty">No candidate was compared with the baseline.</p>`] : []),
    ...summary.verdicts.map(verdict),
    `</section>`,
    `<footer><p>Generated by <code>assay eval</code>.</p></footer>`,
  ];
  return [
    "<!DOCTYPE html>",
    `<html lang="en">`,
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'">`,
    '<meta name="referrer" content="no-referrer">',
    `<title>${escapeHtml(summary.title)}</title>`,
    `<style>${STYLE}</style>`,
    "</head>",
    "<body><main>",
    ...body,
    "</main></body>",
    "</html>",
    "",
  ].join("\n");
}
