/**
 * Inline SVG charts of an evaluation summary (pure, no library): horizontal bars, one row
 * per strategy (or fault × strategy), value labels in a fixed right-hand column. Every bar is
 * a `rect` with `data-series`; legend swatches carry `data-legend` instead. A missing figure
 * draws nothing and is labelled "—".
 */
import { escapeHtml } from "../core/render/html.js";
import type { EvalSummary, FaultSummary, Mean, Spread } from "./eval-types.js";
import { formatMs, formatShare, MISSING } from "./summary-format.js";

const WIDTH = 560;
const LEFT = 170;
const PLOT = 160;
const VALUE_X = LEFT + PLOT + 8;
const BAR = 12;
const AXIS_SPACE = 46;
/** Longest category label drawn; the full text is in the group's title. */
const LABEL_CHARS = 24;

interface Bar {
  series: string;
  x: number;
  width: number;
  title: string;
}

interface Row {
  fullLabel: string;
  bars: Bar[];
  markers: { x: number; title: string }[];
  value: string;
}

interface ChartSpec {
  title: string;
  description: string;
  /** Legend entries; a `line` entry is drawn like a marker, not a swatch. */
  legend: { series: string; label: string; line?: true }[];
  /** Rows in groups; groups are separated by a gap and share the group's label. */
  groups: { label: string[]; fullLabel: string; rows: Row[] }[];
  ticks: { x: number; label: string }[];
  axisLabel: string;
}

function clip(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join("")}…`;
}

const fixed = (value: number): string => String(Math.round(value * 10) / 10);

/** Legend entries left to right, wrapping onto a new line where the next would not fit. */
function legendMarkup(legend: ChartSpec["legend"]): { markup: string[]; height: number } {
  const markup: string[] = [];
  let x = 8;
  let y = 8;
  for (const item of legend) {
    const width = 24 + item.label.length * 6.5;
    if (x > 8 && x + width > WIDTH) {
      x = 8;
      y += 16;
    }
    const series = escapeHtml(item.series);
    markup.push(
      item.line
        ? `<line class="marker" data-legend="${series}" x1="${x + 5}" x2="${x + 5}" y1="${y - 2}" y2="${y + 12}"/>`
        : `<rect class="swatch" data-legend="${series}" x="${x}" y="${y}" width="10" height="10"/>`,
      `<text class="legend" x="${x + 14}" y="${y + 9}">${escapeHtml(item.label)}</text>`,
    );
    x += width;
  }
  return { markup, height: y + 26 };
}

const ROW_HEIGHT = BAR + 6;
const GROUP_GAP = 14;

/** One group (its label and its rows) from `top`; returns where the next group starts. */
function groupMarkup(group: ChartSpec["groups"][number], top: number): { markup: string[]; next: number } {
  const labelY = top + (group.rows.length * ROW_HEIGHT) / 2 - (group.label.length - 1) * 7 + 4;
  const markup = [`<g class="group"><title>${escapeHtml(group.fullLabel)}</title>`];
  group.label.forEach((line, index) => {
    markup.push(
      `<text class="${index === 0 ? "category" : "category sub"}" x="${LEFT - 8}" y="${fixed(labelY + index * 14)}" text-anchor="end">${escapeHtml(line)}</text>`,
    );
  });
  let y = top;
  for (const row of group.rows) {
    for (const bar of row.bars) {
      markup.push(
        `<rect class="bar" data-series="${escapeHtml(bar.series)}" x="${fixed(bar.x)}" y="${y}" width="${fixed(bar.width)}" height="${BAR}"><title>${escapeHtml(bar.title)}</title></rect>`,
      );
    }
    for (const marker of row.markers) {
      markup.push(
        `<line class="marker" data-marker="p90" x1="${fixed(marker.x)}" x2="${fixed(marker.x)}" y1="${y - 3}" y2="${y + BAR + 3}"><title>${escapeHtml(marker.title)}</title></line>`,
      );
    }
    markup.push(`<text class="value" x="${VALUE_X}" y="${y + BAR - 2}">${escapeHtml(row.value)}</text>`);
    y += ROW_HEIGHT;
  }
  markup.push("</g>");
  return { markup, next: y + GROUP_GAP };
}

/** The value axis: grid lines, tick labels and the axis label, between `top` and `bottom`. */
function axisMarkup(spec: ChartSpec, top: number, bottom: number): string[] {
  const markup = [
    `<line class="axis" x1="${LEFT}" x2="${LEFT}" y1="${top - 6}" y2="${bottom}"/>`,
    `<line class="axis" x1="${LEFT}" x2="${LEFT + PLOT}" y1="${bottom}" y2="${bottom}"/>`,
  ];
  for (const tick of spec.ticks) {
    markup.push(
      `<line class="grid" x1="${fixed(tick.x)}" x2="${fixed(tick.x)}" y1="${top - 6}" y2="${bottom}"/>`,
      `<text class="tick" x="${fixed(tick.x)}" y="${bottom + 14}" text-anchor="middle">${escapeHtml(tick.label)}</text>`,
    );
  }
  markup.push(
    `<text class="axis-label" x="${LEFT + PLOT / 2}" y="${bottom + 34}" text-anchor="middle">${escapeHtml(spec.axisLabel)}</text>`,
  );
  return markup;
}

/** Renders a chart spec as one SVG element. */
function svg(spec: ChartSpec): string {
  const legend = legendMarkup(spec.legend);
  const top = legend.height;
  const body: string[] = [];
  let y = top;
  for (const group of spec.groups) {
    const drawn = groupMarkup(group, y);
    body.push(...drawn.markup);
    y = drawn.next;
  }
  const bottom = y - GROUP_GAP + 4;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="${escapeHtml(spec.description)}" viewBox="0 0 ${WIDTH} ${fixed(bottom + AXIS_SPACE)}" preserveAspectRatio="xMinYMin meet">`,
    `<title>${escapeHtml(spec.title)}</title>`,
    ...legend.markup,
    ...axisMarkup(spec, top, bottom),
    ...body,
    "</svg>",
  ].join("");
}

function shareTicks(): ChartSpec["ticks"] {
  return [0, 0.25, 0.5, 0.75, 1].map((share) => ({ x: LEFT + share * PLOT, label: `${share * 100}%` }));
}

function meanValue(mean: Mean): number | null {
  return mean.n === 0 || mean.mean === null || !Number.isFinite(mean.mean) ? null : mean.mean;
}

function shareBar(series: string, share: number | null, title: string): Bar[] {
  if (share === null) return [];
  const clamped = Math.min(1, Math.max(0, share));
  return [{ series, x: LEFT, width: clamped * PLOT, title: `${title}: ${formatShare(share)}` }];
}

const RECALL_SERIES = [
  { series: "gold-recall", label: "Gold-document recall", short: "recall", pick: "goldRecall" },
  { series: "citation-precision", label: "Citation precision", short: "precision", pick: "citationPrecision" },
  { series: "answer-share", label: "Answer share", short: "answer", pick: "answerShare" },
] as const;

/** Gold-document recall, citation precision and answer share per strategy. Pure. */
export function recallChart(summary: EvalSummary): string {
  return svg({
    title: "Gold-document recall, citation precision and answer share per strategy",
    description:
      "Bar chart: mean gold-document recall, citation precision and answer share of each strategy's clean runs, from 0 to 100 percent.",
    legend: RECALL_SERIES.map(({ series, label }) => ({ series, label })),
    groups: summary.perStrategy.map((strategy) => ({
      label: [clip(strategy.strategy, LABEL_CHARS)],
      fullLabel: strategy.strategy,
      rows: RECALL_SERIES.map(({ series, label, short, pick }) => {
        const value = meanValue(strategy[pick]);
        return {
          fullLabel: `${strategy.strategy}: ${label}`,
          bars: shareBar(series, value, `${strategy.strategy}: ${label}`),
          markers: [],
          value: `${short} ${value === null ? MISSING : formatShare(value)}`,
        };
      }),
    })),
    ticks: shareTicks(),
    axisLabel: "Share of clean runs (%)",
  });
}

/** Tick steps a reader counts in: 100 ms to 1 h. */
const TIME_STEPS = [
  100, 200, 250, 500, 1_000, 2_000, 5_000, 10_000, 15_000, 20_000, 30_000, 60_000, 120_000, 300_000, 600_000, 900_000,
  1_200_000, 1_800_000, 3_600_000,
];

/** At most four equal time steps from 0 that reach `max` (1 s when nothing is positive). */
function timeTicks(max: number): number[] {
  if (!(max > 0)) return [0, 250, 500, 750, 1_000];
  const step = TIME_STEPS.find((candidate) => max / candidate <= 4) ?? Math.ceil(max / 4 / 3_600_000) * 3_600_000;
  const count = Math.max(1, Math.ceil(max / step));
  return Array.from({ length: count + 1 }, (_, index) => index * step);
}

/** `500 ms`, `15 s`, `2 min`, `1 h`: a round tick value. */
function tickLabel(ms: number): string {
  if (ms === 0) return "0";
  if (ms >= 3_600_000 && ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000} min`;
  if (ms >= 1_000 && ms % 1_000 === 0) return `${ms / 1_000} s`;
  return formatMs(ms);
}

const LATENCY_SERIES = [
  { series: "first-source", label: "First source persisted", short: "first source", pick: "firstSourceMs" },
  { series: "terminal", label: "Terminal", short: "terminal", pick: "terminalMs" },
] as const;

function spreadValues(spread: Spread): { median: number | null; p90: number | null } {
  if (spread.n === 0) return { median: null, p90: null };
  const usable = (value: number | null): number | null => (value !== null && Number.isFinite(value) ? value : null);
  return { median: usable(spread.median), p90: usable(spread.p90) };
}

/** First-source and terminal latency per strategy: median bars with a p90 marker. Pure. */
export function latencyChart(summary: EvalSummary): string {
  const all = summary.perStrategy.flatMap((strategy) =>
    LATENCY_SERIES.flatMap(({ pick }) => {
      const { median, p90 } = spreadValues(strategy[pick]);
      return [median ?? 0, p90 ?? 0];
    }),
  );
  const ticks = timeTicks(Math.max(0, ...all));
  const top = ticks.at(-1) ?? 1_000;
  const x = (ms: number): number => LEFT + (Math.min(ms, top) / top) * PLOT;
  return svg({
    title: "Latency per strategy: median with the 90th percentile marked",
    description:
      "Bar chart: median time to the first persisted source and to the terminal state of each strategy's clean runs; a tick marks the 90th percentile.",
    legend: [
      ...LATENCY_SERIES.map(({ series, label }) => ({ series, label })),
      { series: "p90", label: "90th percentile", line: true as const },
    ],
    groups: summary.perStrategy.map((strategy) => ({
      label: [clip(strategy.strategy, LABEL_CHARS)],
      fullLabel: strategy.strategy,
      rows: LATENCY_SERIES.map(({ series, label, short, pick }) => {
        const { median, p90 } = spreadValues(strategy[pick]);
        const name = `${strategy.strategy}: ${label}`;
        return {
          fullLabel: name,
          bars:
            median === null
              ? []
              : [{ series, x: LEFT, width: x(median) - LEFT, title: `${name}, median ${formatMs(median)}` }],
          markers: p90 === null ? [] : [{ x: x(p90), title: `${name}, p90 ${formatMs(p90)}` }],
          value:
            median === null && p90 === null
              ? `${short} ${MISSING}`
              : `${short} ${formatMs(median)} · p90 ${formatMs(p90)}`,
        };
      }),
    })),
    ticks: ticks.map((ms) => ({ x: x(ms), label: tickLabel(ms) })),
    axisLabel: "Time from the run's start",
  });
}

function faultGroup(fault: FaultSummary): ChartSpec["groups"][number] {
  const row = faultRow(fault);
  return {
    label: [clip(fault.fault, LABEL_CHARS), clip(fault.strategy, LABEL_CHARS)],
    fullLabel: row.fullLabel,
    rows: [row],
  };
}

function faultRow(fault: FaultSummary): Row {
  const name = `${fault.fault} × ${fault.strategy}`;
  const stacked = (parts: { series: string; count: number; what: string }[], whole: number): Bar[] => {
    let x = LEFT;
    const bars: Bar[] = [];
    for (const part of parts) {
      if (part.count <= 0) continue;
      const width = (part.count / whole) * PLOT;
      bars.push({ series: part.series, x, width, title: `${name}: ${part.count} of ${whole} ${part.what}` });
      x += width;
    }
    return bars;
  };
  if (fault.checksTotal > 0) {
    const failed = Math.max(0, fault.checksTotal - fault.checksPassed);
    return {
      fullLabel: name,
      bars: stacked(
        [
          { series: "checks-passed", count: fault.checksPassed, what: "checks passed" },
          { series: "checks-failed", count: failed, what: "checks failed" },
        ],
        fault.checksTotal,
      ),
      markers: [],
      value: `${fault.checksPassed}/${fault.checksTotal} checks · ${fault.salvaged}/${fault.runs} salvaged`,
    };
  }
  return {
    fullLabel: name,
    bars:
      fault.runs > 0
        ? stacked(
            [
              { series: "salvaged", count: fault.salvaged, what: "runs salvaged" },
              { series: "not-salvaged", count: fault.runs - fault.salvaged, what: "runs not salvaged" },
            ],
            fault.runs,
          )
        : [],
    markers: [],
    value: fault.runs > 0 ? `no checks · ${fault.salvaged}/${fault.runs} salvaged` : MISSING,
  };
}

/**
 * Fault outcomes per fault × strategy: checks passed against failed, or runs salvaged
 * against not where a fault has no checks. Null when no fault was run. Pure.
 */
export function faultChart(summary: EvalSummary): string | null {
  if (summary.faultOutcomes.length === 0) return null;
  const usesSalvage = summary.faultOutcomes.some((fault) => fault.checksTotal === 0);
  return svg({
    title: "Fault outcomes per fault and strategy",
    description:
      "Stacked bar chart: for each fault and strategy, the share of degradation checks that passed and failed (or of runs salvaged where a fault has no checks).",
    legend: [
      { series: "checks-passed", label: "Checks passed" },
      { series: "checks-failed", label: "Checks failed" },
      ...(usesSalvage
        ? [
            { series: "salvaged", label: "Salvaged" },
            { series: "not-salvaged", label: "Not salvaged" },
          ]
        : []),
    ],
    groups: summary.faultOutcomes.map(faultGroup),
    ticks: shareTicks(),
    axisLabel: "Share of checks (or runs)",
  });
}
