import { JSDOM } from "jsdom";
import { describe, expect, it } from "vitest";
import { escapeMarkdown } from "../core/render/markdown.js";
import { HOSTILE, hostileSummary, investigativeSummary, sampleSummary } from "../testing/summary-fixture.js";
import type { EvalSummary, StrategySummary } from "./eval-types.js";
import {
  comparisonLines,
  formatApplicableMean,
  formatCost,
  formatMs,
  formatShare,
  formatSpread,
} from "./summary-format.js";
import { renderSummaryHtml } from "./summary-html.js";
import { renderSummaryMarkdown } from "./summary-markdown.js";

/** The rows (header first) of the Markdown table under `## heading`, cells split on unescaped pipes. */
function markdownTable(markdown: string, heading: string): string[][] {
  const lines = markdown.split("\n");
  const start = lines.indexOf(`## ${heading}`);
  expect(start, `section ${heading}`).toBeGreaterThanOrEqual(0);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith("## ")) break;
    if (!line.startsWith("|")) continue;
    rows.push(
      line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim()),
    );
  }
  return rows.filter((row) => !row.every((cell) => /^-+:?$/.test(cell)));
}

function rowOf(rows: string[][], first: string): string[] {
  const row = rows.find((cells) => cells[0] === first);
  expect(row, `row ${first}`).toBeDefined();
  return row ?? [];
}

function htmlDocument(summary: EvalSummary): Document {
  return new JSDOM(renderSummaryHtml(summary)).window.document;
}

/** Cell texts of the HTML table `id`, header row first. */
function htmlTable(document: Document, id: string): string[][] {
  const table = document.querySelector(`table[data-table="${id}"]`);
  expect(table, `table ${id}`).not.toBeNull();
  return [...(table?.querySelectorAll("tr") ?? [])].map((row) =>
    [...row.querySelectorAll("th,td")].map((cell) => cell.textContent ?? ""),
  );
}

function emptyStrategy(strategy: string): StrategySummary {
  return {
    strategy,
    runs: 0,
    published: 0,
    failed: 0,
    goldRecall: { n: 0, mean: null },
    citationPrecision: { n: 0, mean: null },
    answerShare: { n: 0, mean: null },
    answerFirstShare: { n: 0, mean: null },
    labelAgreement: { agree: 0, stated: 0, expected: 0 },
    firstSourceMs: { n: 0, median: null, p90: null },
    terminalMs: { n: 0, median: null, p90: null },
    tokens: { input: 0, output: 0 },
    costUsd: null,
    verifiedClaims: null,
    unverifiedClaims: null,
    contestedClaims: { n: 0, mean: null },
    gapsReported: { n: 0, mean: null },
    salvage: { salvaged: 0, faulted: 0 },
    judge: { scored: false, reason: "no judge" },
  };
}

describe("summary figures", () => {
  it("humanizes milliseconds", () => {
    expect(formatMs(812)).toBe("812 ms");
    expect(formatMs(2_400)).toBe("2.4 s");
    expect(formatMs(65_000)).toBe("1 min 05 s");
    expect(formatMs(999.6)).toBe("1.0 s");
    expect(formatMs(59_960)).toBe("1 min 00 s");
    expect(formatMs(7_380_000)).toBe("2 h 03 min");
    expect(formatMs(null)).toBe("—");
  });

  it("shows shares with one decimal, costs, spreads and missing figures", () => {
    expect(formatShare(0.8125)).toBe("81.3%");
    expect(formatShare(null)).toBe("—");
    expect(formatCost(null)).toBe("unknown");
    expect(formatCost(0.2871)).toBe("$0.29");
    expect(formatCost(0.0042)).toBe("$0.0042");
    expect(formatSpread({ n: 0, median: 5, p90: 9 })).toBe("—");
    expect(formatSpread({ n: 3, median: 812, p90: null })).toBe("812 ms / —");
  });
});

describe("renderSummaryMarkdown", () => {
  const markdown = renderSummaryMarkdown(sampleSummary());

  it("states the run's facts", () => {
    const summary = sampleSummary();
    expect(markdown.startsWith("# assay eval: HotpotQA train-100, offline corpus\n")).toBe(true);
    for (const fact of [
      `- **Command:** ${summary.command}`,
      "- **Cases:** 4",
      "- **Repeat:** 3",
      "- **Strategies:** simple, pipeline, agent",
      "- **Baseline:** simple",
      "- **Model:** openai:gpt-4.1-mini",
      "- **Judge:** anthropic:claude-sonnet-4-5",
      "- **Runs:** 46",
      "- **Elapsed:** 33 min 05 s",
      "- **Created:** 2026-12-02 10:44 UTC",
    ]) {
      expect(markdown).toContain(fact);
    }
    expect(renderSummaryMarkdown({ ...summary, judge: null })).toContain("- **Judge:** none");
  });

  it("lists every budget in readable units", () => {
    const rows = markdownTable(markdown, "Equal budgets");
    const summary = sampleSummary();
    expect(rows.slice(1).map((row) => row[1])).toEqual(Object.keys(summary.budgets));
    expect(rowOf(rows, "Wall clock")[2]).toBe("5 min 00 s");
    expect(rowOf(rows, "Publish reserve")[2]).toBe("10.0 s");
    expect(rowOf(rows, "Characters kept per source")[2]).toBe("200,000 characters");
    expect(rowOf(rows, "Search calls")[2]).toBe("6");
  });

  it("compares the strategies cell by cell", () => {
    const rows = markdownTable(markdown, "Per strategy");
    expect(rows[0]).toHaveLength(18);
    expect(rows).toHaveLength(4);
    expect(rowOf(rows, "simple (baseline)")).toEqual([
      "simple (baseline)",
      "12",
      "12",
      "0",
      "62.5% (n=12)",
      "43.2% (n=11)",
      "50.0% (n=12)",
      "50.0% (n=12)",
      "—",
      "n/a",
      "n/a",
      "0.00 (n=12)",
      "0.50 (n=12)",
      "812 ms / 1.4 s",
      "24.4 s / 41.3 s",
      "182,340 / 9,870",
      "$0.41",
      "3/4",
    ]);
    const pipeline = rowOf(rows, "pipeline");
    expect(pipeline[4]).toBe("81.3% (n=12)");
    expect(pipeline[14]).toBe("1 min 05 s / 1 min 59 s");
    const agent = rowOf(rows, "agent");
    expect(agent[6]).toBe("—");
    expect(agent[13]).toBe("—");
    expect(agent[16]).toBe("unknown");
    expect(agent[17]).toBe("0/2");
  });

  it("shows label agreement as agree/stated (expected) where labels are expected", () => {
    const summary = sampleSummary();
    const first = summary.perStrategy[0];
    if (first) first.labelAgreement = { agree: 7, stated: 9, expected: 12 };
    const rows = markdownTable(renderSummaryMarkdown(summary), "Per strategy");
    expect(rowOf(rows, "simple (baseline)")[8]).toBe("7/9 (12)");
  });

  it("writes not scored, never a number, for a strategy the judge did not score", () => {
    const rows = markdownTable(markdown, "Judge");
    const agent = rowOf(rows, "agent");
    expect(agent.slice(1, 6)).toEqual(Array(5).fill("not scored"));
    for (const cell of agent.slice(1, 6)) expect(cell).not.toMatch(/\d/);
    expect(agent[6]).toContain("the judge's daily budget was spent");
    expect(rowOf(rows, "pipeline").slice(1, 6)).toEqual([
      "11",
      "90.1% (n=11)",
      "1.64 (n=11)",
      "1.45 (n=11)",
      "100.0% (n=11)",
    ]);
  });

  it("lists faults with their failing checks and outcomes", () => {
    const rows = markdownTable(markdown, "Faults");
    expect(rows).toHaveLength(5);
    const timeout = rowOf(rows, "model-timeout");
    expect(timeout.slice(1, 5)).toEqual(["pipeline", "4", "2/4", "5/8"]);
    expect(timeout[5]).toContain("keeps-bootstrap-sources ×2");
    expect(timeout[5]).toContain("publishes-before-deadline ×1");
    expect(timeout[6]).toBe("source-backed 2, none 2");
    expect(rowOf(rows, "search-outage")[4]).toBe("—");
  });

  it("gives each candidate's verdict with the thresholds and every reason", () => {
    const summary = sampleSummary();
    expect(markdown).toContain("### pipeline wins against simple");
    expect(markdown).toContain("### agent does not win against simple");
    expect(markdown).toContain("- Mean gold-document recall of clean runs at least 60.0%");
    expect(markdown).toContain("- Median terminal latency at most 3× the baseline's");
    for (const verdict of summary.verdicts) {
      for (const reason of verdict.reasons) expect(markdown).toContain(`- ${escapeMarkdown(reason)}`);
    }
  });

  it("escapes hostile text: no raw markup, and a table row keeps its columns", () => {
    const hostile = renderSummaryMarkdown(hostileSummary());
    expect(hostile).not.toMatch(/(?<!\\)<script/);
    expect(hostile).not.toMatch(/(?<!\\)&/);
    expect(hostile).toContain("\\<script\\>");
    for (const heading of ["Per strategy", "Judge", "Faults"]) {
      const rows = markdownTable(hostile, heading);
      const width = rows[0]?.length;
      for (const row of rows) expect(row).toHaveLength(width ?? 0);
    }
    expect(hostile.split("\n").some((line) => line.trim() === "line")).toBe(false);
  });

  it("says so when no fault was run and shows — for figures without runs", () => {
    const summary: EvalSummary = {
      ...sampleSummary(),
      strategies: ["empty"],
      perStrategy: [emptyStrategy("empty")],
      faultOutcomes: [],
      faults: [],
      verdicts: [],
    };
    const text = renderSummaryMarkdown(summary);
    expect(text).toContain("## Faults\n\nNo faults were run.");
    expect(text).toContain("No candidate was compared with the baseline.");
    const row = rowOf(markdownTable(text, "Per strategy"), "empty");
    expect(row.slice(4, 9)).toEqual(["—", "—", "—", "—", "—"]);
    // Verified and unverified claims do not apply to a strategy that verifies none; no contested or gaps figure without runs.
    expect(row.slice(9, 13)).toEqual(["n/a", "n/a", "—", "—"]);
    expect(row.slice(13, 15)).toEqual(["—", "—"]);
    expect(row[17]).toBe("—");
  });
});

describe("renderSummaryHtml", () => {
  const html = renderSummaryHtml(sampleSummary());
  const document = htmlDocument(sampleSummary());

  it("is one self-contained page with a strict Content-Security-Policy and no script", () => {
    expect(html.startsWith("<!DOCTYPE html>\n")).toBe(true);
    const csp = document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute("content");
    expect(csp).toContain("default-src 'none'; style-src 'unsafe-inline'; img-src data:");
    expect(document.querySelectorAll("script, link, iframe, img, object, embed")).toHaveLength(0);
    expect(html).not.toMatch(/\b(src|href)=/);
    expect(html).not.toMatch(/url\(/);
  });

  it("carries the same tables as the Markdown, with captions and scoped headers", () => {
    const markdown = renderSummaryMarkdown(sampleSummary());
    for (const [id, heading] of [
      ["budgets", "Equal budgets"],
      ["strategies", "Per strategy"],
      ["judge", "Judge"],
      ["faults", "Faults"],
    ] as const) {
      expect(htmlTable(document, id)).toEqual(markdownTable(markdown, heading));
      const table = document.querySelector(`table[data-table="${id}"]`);
      expect(table?.querySelector("caption")?.textContent).toBeTruthy();
      expect(table?.querySelectorAll('thead th[scope="col"]').length).toBeGreaterThan(2);
      expect(table?.querySelectorAll('tbody th[scope="row"]')).toHaveLength(
        table?.querySelectorAll("tbody tr").length ?? -1,
      );
      expect(table?.parentElement?.className).toBe("table-wrap");
    }
  });

  it("marks the judge cells not scored", () => {
    const agent = htmlTable(document, "judge").find((row) => row[0] === "agent") ?? [];
    expect(agent.slice(1, 6)).toEqual(Array(5).fill("not scored"));
    expect(document.querySelectorAll("td.not-scored")).toHaveLength(5);
  });

  it("draws the three charts as labelled SVG with one bar per figure", () => {
    const charts = [...document.querySelectorAll("figure[data-chart]")].map((figure) =>
      figure.getAttribute("data-chart"),
    );
    expect(charts).toEqual(["recall", "latency", "faults"]);
    for (const figure of document.querySelectorAll("figure[data-chart]")) {
      const svg = figure.querySelector('svg[role="img"]');
      expect(svg?.getAttribute("aria-label")).toBeTruthy();
      expect(svg?.querySelector(":scope > title")?.textContent).toBeTruthy();
      expect(svg?.querySelector("text.axis-label")?.textContent).toBeTruthy();
      expect(figure.querySelector("figcaption")?.textContent).toBeTruthy();
    }
    const bars = (chart: string, series?: string): number =>
      document.querySelectorAll(`figure[data-chart="${chart}"] rect[data-series${series ? `="${series}"` : ""}]`)
        .length;
    // agent has no answer share and no first-source latency: nothing is drawn for them.
    expect(bars("recall")).toBe(8);
    expect(bars("recall", "answer-share")).toBe(2);
    expect(bars("latency")).toBe(5);
    expect(document.querySelectorAll('figure[data-chart="latency"] line[data-marker="p90"]')).toHaveLength(5);
    // 7/8 passed (2 segments), 8/8 (1), 5/8 (2), no checks: 0 of 2 salvaged (1).
    expect(bars("faults")).toBe(6);
    expect(bars("faults", "not-salvaged")).toBe(1);
    const values = [...document.querySelectorAll('figure[data-chart="recall"] text.value')].map((t) => t.textContent);
    expect(values).toContain("recall 81.3%");
    expect(values).toContain("answer —");
  });

  it("copes with one to six strategies", () => {
    for (let count = 1; count <= 6; count++) {
      const base = sampleSummary().perStrategy[1];
      if (base === undefined) throw new Error("fixture has no second strategy");
      const perStrategy = Array.from({ length: count }, (_, index) => ({ ...base, strategy: `strategy-${index + 1}` }));
      const page = htmlDocument({ ...sampleSummary(), perStrategy, strategies: perStrategy.map((s) => s.strategy) });
      expect(page.querySelectorAll('figure[data-chart="recall"] rect[data-series]')).toHaveLength(3 * count);
      expect(page.querySelectorAll('figure[data-chart="latency"] rect[data-series]')).toHaveLength(2 * count);
      expect(page.querySelectorAll('table[data-table="strategies"] tbody tr')).toHaveLength(count);
    }
  });

  it("draws nothing for missing figures and says so when no fault was run", () => {
    const page = htmlDocument({
      ...sampleSummary(),
      strategies: ["empty"],
      perStrategy: [emptyStrategy("empty")],
      faultOutcomes: [],
      faults: [],
      verdicts: [],
    });
    expect(page.querySelectorAll("rect[data-series]")).toHaveLength(0);
    expect(page.querySelectorAll('figure[data-chart="recall"] svg[role="img"]')).toHaveLength(1);
    expect([...page.querySelectorAll("text.value")].map((t) => t.textContent)).toEqual([
      "recall —",
      "precision —",
      "answer —",
      "first source —",
      "terminal —",
    ]);
    const faults = page.querySelector('figure[data-chart="faults"]');
    expect(faults?.querySelector("svg")).toBeNull();
    expect(faults?.textContent).toContain("No faults were run.");
    expect(page.querySelector('p.empty[data-table="faults"]')?.textContent).toBe("No faults were run.");
  });

  it("escapes every text from the summary", () => {
    const hostile = renderSummaryHtml(hostileSummary());
    expect(hostile).not.toContain("<script");
    expect(hostile).toContain("&lt;script&gt;");
    const page = new JSDOM(hostile).window.document;
    expect(page.querySelectorAll("script")).toHaveLength(0);
    expect(page.title).toBe(`Eval ${HOSTILE}`.replace(/\s+/g, " "));
    expect(page.querySelector("h1")?.textContent).toBe(`Eval ${HOSTILE}`);
    expect(page.querySelector("dd code")?.textContent).toBe(`assay eval --cases "${HOSTILE}"`);
    const faultRow = htmlTable(page, "faults")[1] ?? [];
    expect(faultRow[0]).toBe(`fetch ${HOSTILE}`);
    expect(page.querySelector("#verdict")?.textContent).toContain(`reason ${HOSTILE}`);
    // Labels inside the charts stay text: every element there is an SVG element of ours.
    for (const svg of page.querySelectorAll("svg")) {
      for (const element of svg.querySelectorAll("*")) expect(element.namespaceURI).toBe("http://www.w3.org/2000/svg");
    }
    expect(page.querySelector('figure[data-chart="recall"] g > title')?.textContent).toBe(`simple ${HOSTILE}`);
  });
});

describe("seed 000: verified claims, gaps reported and the comparison with simple", () => {
  const summary = investigativeSummary();
  const markdown = renderSummaryMarkdown(summary);

  it("shows n/a for a mean that does not apply, and the mean otherwise", () => {
    expect(formatApplicableMean(null)).toBe("n/a");
    expect(formatApplicableMean({ n: 0, mean: null })).toBe("—");
    expect(formatApplicableMean({ n: 4, mean: 3.25 })).toBe("3.25 (n=4)");
  });

  it("adds verified, unverified and contested claims and gaps reported to the strategy table, n/a where not applicable", () => {
    const rows = markdownTable(markdown, "Per strategy");
    expect(rows[0]?.slice(9, 13)).toEqual([
      "Verified claims per run",
      "Unverified claims per run",
      "Contested claims per run",
      "Gaps reported per run",
    ]);
    expect(rowOf(rows, "investigative").slice(9, 13)).toEqual([
      "3.25 (n=12)",
      "1.50 (n=12)",
      "0.50 (n=12)",
      "2.00 (n=12)",
    ]);
    expect(rowOf(rows, "investigative").slice(15, 17)).toEqual(["1,204,800 / 61,200", "$1.65"]);
    expect(rowOf(rows, "simple (baseline)").slice(9, 13)).toEqual(["n/a", "n/a", "0.00 (n=12)", "0.50 (n=12)"]);
    expect(rowOf(rows, "pipeline").slice(9, 13)).toEqual(["n/a", "n/a", "0.25 (n=12)", "1.25 (n=12)"]);
  });

  it("shows the investigative turn budget beside the shared one", () => {
    const rows = markdownTable(markdown, "Equal budgets");
    expect(rowOf(rows, "Model turns (tool loop)")[2]).toBe("8; investigative: 60");
    expect(rowOf(rows, "Search calls")[2]).toBe("6");
    expect(
      rowOf(markdownTable(renderSummaryMarkdown(sampleSummary()), "Equal budgets"), "Model turns (tool loop)")[2],
    ).toBe("8");
  });

  it("states cost, tokens, verified claims and gaps reported against simple, per clean run", () => {
    expect(comparisonLines(summary)).toEqual([
      "Cost per clean run: investigative $0.14 vs simple $0.03 (4.00× simple's)",
      "Model tokens per clean run: investigative 105,500 vs simple 16,018 (6.59× simple's)",
      "Verified claims per clean run: investigative 3.25 vs simple n/a (simple verifies no claims); unverified 1.50 vs n/a",
      "Gaps reported per clean run: investigative 2.00 vs simple 0.50 (+1.50)",
    ]);
    const unknown = investigativeSummary();
    if (unknown.comparison) unknown.comparison.costUsd = { candidate: null, baseline: 0.01 };
    expect(comparisonLines(unknown)[0]).toBe("Cost per clean run: investigative unknown vs simple $0.01");
    expect(comparisonLines(sampleSummary())).toEqual([]);
  });

  it("renders the comparison block in Markdown after the strategy table, and none without both strategies", () => {
    const heading = "## Seed 000 comparison: investigative against simple";
    expect(markdown).toContain(heading);
    expect(markdown.indexOf(heading)).toBeGreaterThan(markdown.indexOf("## Per strategy"));
    expect(markdown.indexOf(heading)).toBeLessThan(markdown.indexOf("## Judge"));
    for (const line of comparisonLines(summary)) expect(markdown).toContain(`- ${escapeMarkdown(line)}`);
    expect(renderSummaryMarkdown(sampleSummary())).not.toContain("Seed 000 comparison");
  });

  it("renders the same in HTML: the columns, n/a cells marked, and the comparison list", () => {
    const page = htmlDocument(summary);
    expect(htmlTable(page, "strategies")).toEqual(markdownTable(markdown, "Per strategy"));
    expect(htmlTable(page, "budgets")).toEqual(markdownTable(markdown, "Equal budgets"));
    expect(page.querySelectorAll("td.not-applicable")).toHaveLength(4);
    const items = [...page.querySelectorAll("#comparison li")].map((item) => item.textContent);
    expect(items).toEqual(comparisonLines(summary));
    expect(page.querySelector("#comparison h2")?.textContent).toBe("Seed 000 comparison: investigative against simple");
    expect(htmlDocument(sampleSummary()).querySelector("#comparison")).toBeNull();
  });
});
