/**
 * What the terminal UI shows, as plain values and lines (pure): ages, bars, the frontier as
 * indented lines, claim counts, text wrapped to the terminal's width, a window of lines around a
 * cursor, scrolling and typing keys, how a run continues another, and a report diff laid out for
 * the screen. The Ink components only lay these out.
 */
import wrapAnsi from "wrap-ansi";
import { type FrontierNode, frontierForest, shorten } from "../../core/investigative/observability.js";
import type { Claim, Question, Transition } from "../../core/investigative/types.js";
import type { RunRequest } from "../../ports/store.js";

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

/** The keys of `scrolled` and `edited` (a subset of Ink's `Key`). */
export interface KeyFlags {
  upArrow: boolean;
  downArrow: boolean;
  pageUp: boolean;
  pageDown: boolean;
  backspace: boolean;
  delete: boolean;
  ctrl: boolean;
  meta: boolean;
}

/**
 * The first line after a scrolling key (↑ ↓ or k j, PgUp PgDn or Space, g G) over `total` lines
 * shown `height` at a time from `top`, or undefined for another key.
 */
export function scrolled(
  input: string,
  key: Pick<KeyFlags, "upArrow" | "downArrow" | "pageUp" | "pageDown">,
  top: number,
  height: number,
  total: number,
): number | undefined {
  const last = Math.max(0, total - height);
  if (key.downArrow || input === "j") return Math.min(last, top + 1);
  if (key.upArrow || input === "k") return Math.max(0, top - 1);
  if (key.pageDown || input === " ") return Math.min(last, top + height);
  if (key.pageUp) return Math.max(0, top - height);
  if (input === "g") return 0;
  if (input === "G") return last;
  return undefined;
}

/**
 * `text` after a typing key: Backspace (or Delete) removes the last character, printable input
 * (a key or a paste) is appended up to `max` characters; undefined for any other key (control
 * characters, Ctrl and Meta combinations are refused).
 */
export function edited(
  text: string,
  input: string,
  key: Pick<KeyFlags, "backspace" | "delete" | "ctrl" | "meta">,
  max = 4000,
): string | undefined {
  if (key.backspace || key.delete) return text.slice(0, -1);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
  if (!key.ctrl && !key.meta && input.length > 0 && !/[\u0000-\u001f]/.test(input)) return (text + input).slice(0, max);
  return undefined;
}

/** The end of `text` that fits `width` columns, with "…" before it when cut (a field being typed into). */
export function tail(text: string, width: number): string {
  const max = Math.max(2, width);
  return text.length > max ? `…${text.slice(-(max - 1))}` : text;
}

/**
 * How the runs list and the live view name a run: its question, after `↳ 12 ` for a follow-up
 * of run 12; a revision of run 12 is `↳ 12 revised: <instruction>` (its question is run 12's).
 */
export function runTitle(request: Pick<RunRequest, "question" | "lineage">): string {
  const { lineage } = request;
  if (!lineage) return request.question;
  return lineage.relation === "revision"
    ? `↳ ${lineage.parentId} revised: ${lineage.instruction}`
    : `↳ ${lineage.parentId} ${request.question}`;
}

export interface DiffLine {
  text: string;
  kind: "heading" | "added" | "removed" | "changed" | "plain";
}

/**
 * The lines of a report diff (`diffLines` in src/shells/lineage.ts) laid out for `width`
 * columns: each wrapped with a hanging indent under its marker, and marked as a heading
 * (`From run 1 to run 2:`, `Findings added (2):`), an addition (`+`), a removal (`-`), a change
 * (`~`) or plain text, which its continuation lines share. Untrusted text is cleaned.
 */
export function diffScreenLines(lines: readonly string[], width: number): DiffLine[] {
  return lines.flatMap((line) => {
    const body = line.trimStart();
    const indent = line.length - body.length;
    const marker = /^[+~-] /.test(body) ? body[0] : "";
    const kind: DiffLine["kind"] =
      marker === "+"
        ? "added"
        : marker === "-"
          ? "removed"
          : marker === "~"
            ? "changed"
            : indent === 0 && body !== "" && (body.startsWith("From ") || body.endsWith("):"))
              ? "heading"
              : "plain";
    if (body === "") return [{ text: "", kind }];
    const hang = Math.min(indent + (marker ? 2 : 0), Math.max(0, width - 10));
    return wrapLines(body, width - hang, { prose: true }).map((text, index) => ({
      text: `${" ".repeat(index === 0 ? Math.min(indent, hang) : hang)}${text}`,
      kind,
    }));
  });
}
