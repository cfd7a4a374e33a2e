/**
 * What the terminal UI shows, as plain values and lines (pure): ages, bars, the frontier as
 * indented lines, claim counts, text wrapped to the terminal's width, and a window of lines
 * around a cursor. The Ink components only lay these out.
 */
import wrapAnsi from "wrap-ansi";
import { type FrontierNode, frontierForest, shorten } from "../../core/investigative/observability.js";
import type { Claim, Question, Transition } from "../../core/investigative/types.js";

/** `12 s`, `5 min`, `3 h`, `2 d` since `iso` (empty for a missing or bad time). */
export function age(iso: string, now: number): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return "";
  const seconds = Math.max(0, Math.round((now - at) / 1000));
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h`;
  return `${Math.floor(seconds / 86_400)} d`;
}

/** A bar of `width` cells, filled in proportion to used/limit (full when over). */
export function bar(used: number, limit: number, width: number): string {
  const cells = Math.max(1, width);
  const filled = limit <= 0 ? 0 : Math.min(cells, Math.round((used / limit) * cells));
  return "█".repeat(filled) + "░".repeat(cells - filled);
}

const MARK: Record<Question["status"], string> = {
  pending: "·",
  in_progress: "▶",
  resolved: "✓",
  blocked: "‖",
  unresolvable: "?",
  pruned: "✗",
};

export interface FrontierLine {
  text: string;
  status: Question["status"];
}

/** The frontier as indented lines (`  ✓ resolved  Who sold it first?`), parents before children. */
export function frontierLines(questions: readonly Question[], transitions: readonly Transition[]): FrontierLine[] {
  const lines: FrontierLine[] = [];
  const walk = (node: FrontierNode, level: number) => {
    const { question } = node;
    lines.push({
      status: question.status,
      text: `${"  ".repeat(level)}${MARK[question.status]} ${question.status.padEnd(12)} ${shorten(clean(question.question), 200)}`,
    });
    for (const child of node.children) walk(child, level + 1);
  };
  for (const root of frontierForest(questions, transitions)) walk(root, 0);
  return lines;
}

/** Claims per status, in the ledger's order of statuses, only those present: `VERIFIED 1 · UNVERIFIED 7`. */
export function claimCounts(claims: readonly Pick<Claim, "status">[]): string {
  const counts = new Map<string, number>();
  for (const claim of claims) counts.set(claim.status, (counts.get(claim.status) ?? 0) + 1);
  return ["VERIFIED", "UNVERIFIED", "REFUTED", "RETRACTED"]
    .filter((status) => counts.has(status))
    .map((status) => `${status} ${counts.get(status)}`)
    .join(" · ");
}

/**
 * Untrusted text (source text, titles, model output) made safe for a terminal: escape sequences
 * and other control characters, which could move the cursor, recolour or retitle the terminal,
 * are removed; tabs become spaces. Newlines are kept.
 */
export function clean(text: string): string {
  return (
    text
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes
      .replace(/\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-_]?/g, "")
      .replace(/\t/g, " ")
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes
      .replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g, "")
  );
}

/**
 * `text` cleaned and wrapped to `width` columns (words kept whole where they fit, hard-broken
 * where not). Leading spaces of the text's own lines are kept (Markdown indentation); with
 * `prose`, the spaces a wrap leaves at either end of a line are not.
 */
export function wrapLines(text: string, width: number, options: { prose?: boolean } = {}): string[] {
  const lines = wrapAnsi(clean(text), Math.max(10, width), { hard: true, trim: false }).split("\n");
  return options.prose ? lines.map((line) => line.trim()) : lines;
}

/** The first line to show so that `cursor` stays inside a window of `height` lines over `total`. */
export function windowStart(cursor: number, height: number, total: number, current: number): number {
  const last = Math.max(0, total - height);
  if (cursor < current) return Math.max(0, cursor);
  if (cursor >= current + height) return Math.min(last, cursor - height + 1);
  return Math.min(current, last);
}

/** One line of at most `width` characters (cut with "…"), cleaned of control characters, spacing kept. */
export function oneLine(text: string, width: number): string {
  const line = clean(text).replace(/[\r\n]+/g, " ");
  const max = Math.max(1, width);
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
