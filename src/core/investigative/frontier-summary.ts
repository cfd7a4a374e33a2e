/**
 * The compact frontier summary rendered into every prompt (seed 000 "Prompt contents"). Pure and
 * bounded: long texts are cut with …, lists are capped, and the whole never exceeds `maxChars`.
 */
import { readerLine } from "../text.js";
import { attemptsOf, counts, dependenciesOf, findQuestion, rankActionable } from "./frontier.js";
import type { Frontier, InvestigationConfig, Question, QuestionStatus } from "./types.js";

export interface FrontierSummaryOptions {
  /** The question being worked on; defaults to the first in_progress one. */
  currentId?: string;
  /** Next-up lines (default 5). */
  maxNext?: number;
  /** Blocked lines (default 5). */
  maxBlocked?: number;
  /** Bound on the whole summary (default 2000). */
  maxChars?: number;
}

const ORDER: readonly QuestionStatus[] = ["resolved", "in_progress", "pending", "blocked", "unresolvable", "pruned"];
const QUESTION_CHARS = 160;
const CRITERIA_CHARS = 200;
const QUERY_CHARS = 80;
const MAX_TRIED = 6;

const p2 = (value: number): string => value.toFixed(2);

function currentLines(frontier: Frontier, question: Question): string[] {
  const lines = [
    `Current: [${question.id}] (P ${p2(question.priority)}, depth ${question.depth}) ${readerLine(question.question, QUESTION_CHARS)}`,
  ];
  if (question.validationCriteria.trim() !== "") {
    lines.push(`  criteria: ${readerLine(question.validationCriteria, CRITERIA_CHARS)}`);
  }
  const queries = [
    ...new Set(attemptsOf(frontier, question.id).map((attempt) => readerLine(attempt.query, QUERY_CHARS))),
  ];
  if (queries.length > 0) {
    const shown = queries.slice(-MAX_TRIED).map((query) => `"${query}"`);
    const earlier = queries.length > MAX_TRIED ? [`… ${queries.length - MAX_TRIED} earlier`] : [];
    lines.push(`  tried: ${[...earlier, ...shown].join(", ")}`);
  }
  return lines;
}

function nextLines(frontier: Frontier, currentId: string | undefined, maxNext: number): string[] {
  const next = rankActionable(frontier)
    .map((entry) => entry.question)
    .filter((question) => question.id !== currentId);
  if (next.length === 0) return ["Next up: none"];
  const lines = next
    .slice(0, maxNext)
    .map(
      (question) => `- [${question.id}] (P ${p2(question.priority)}) ${readerLine(question.question, QUESTION_CHARS)}`,
    );
  if (next.length > maxNext) lines.push(`- … ${next.length - maxNext} more`);
  return ["Next up:", ...lines];
}

function blockedLines(frontier: Frontier, maxBlocked: number): string[] {
  const waiting = frontier.questions.flatMap((question) => {
    if (question.status !== "pending" && question.status !== "blocked") return [];
    const open = dependenciesOf(frontier, question.id).flatMap((id) => {
      const status = findQuestion(frontier, id)?.status;
      if (status === "resolved") return [];
      return [status === "pending" || status === "in_progress" ? id : `${id} (${status ?? "unknown"})`];
    });
    return open.length > 0 ? [`Blocked: [${question.id}] waits on ${open.join(", ")}`] : [];
  });
  const lines = waiting.slice(0, maxBlocked);
  if (waiting.length > maxBlocked) lines.push(`Blocked: … ${waiting.length - maxBlocked} more`);
  return lines;
}

/** The frontier summary for the prompt (pure). */
export function renderFrontierSummary(
  frontier: Frontier,
  config: Pick<InvestigationConfig, "maxDepth">,
  options: FrontierSummaryOptions = {},
): string {
  const maxChars = options.maxChars ?? 2000;
  const count = counts(frontier);
  const tally = ORDER.filter((status) => count[status] > 0).map((status) => `${count[status]} ${status}`);
  const header = `Frontier: ${tally.join(", ")}  (max_depth ${config.maxDepth})`;
  const currentId = options.currentId ?? frontier.questions.find((question) => question.status === "in_progress")?.id;
  const current = currentId === undefined ? undefined : findQuestion(frontier, currentId);
  const head = [header, ...(current ? currentLines(frontier, current) : [])];
  const next = nextLines(frontier, current?.id, options.maxNext ?? 5);
  const blocked = blockedLines(frontier, options.maxBlocked ?? 5);
  // Drop lines from the end (blocked, then next up) until the summary fits, then cut hard.
  const tail = [...next, ...blocked];
  while (tail.length > 0 && [...head, ...tail].join("\n").length > maxChars) tail.pop();
  if (tail.at(-1) === "Next up:") tail.pop();
  const text = [...head, ...tail].join("\n");
  if (text.length <= maxChars) return text;
  return maxChars < 1 ? "" : `${text.slice(0, maxChars - 1)}…`;
}
