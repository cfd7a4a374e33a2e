/**
 * The loop's own tools (seed 000 "The cycle" step 3, "Two loops"): acquisition through the
 * Host (`search`, `fetch_page`), `notes_read`, `finish_exploration` and `finalize_report`, as
 * zod schemas of their untrusted arguments; and the state an engine that follows fixed rules
 * reads instead of the prompt (`ActState`, passed as `ActInput.state`). Pure.
 */
import { z } from "zod";
import { err, ok, type Result } from "../result.js";
import { type FinalReport, finalReportSchema, parseFinalReport } from "./final-report.js";
import type { TurnMode, TurnPhase } from "./turns.js";
import type { Investigation } from "./types.js";

const id = z.string().trim().min(1).max(40);
const reopenSchema = z.object({ question_id: id, why: z.string().trim().min(1).max(500) }).strict();

export const LOOP_TOOL_SCHEMAS = {
  /** One search of the evidence scope; logged as an attempt of `question_id` (default: the current question). */
  search: z.object({ query: z.string().trim().min(1).max(300), question_id: id.optional() }).strict(),
  /** Reads one hit (its handle from a search result, `h3`); the Host persists it as a source first. */
  fetch_page: z.object({ hit: z.string().trim().min(1).max(20) }).strict(),
  notes_read: z.object({}).strict(),
  finish_exploration: z.object({}).strict(),
  /**
   * The report (the completion tool: `summary`, `items`, `gaps`, `keyClaims`, see
   * final-report.ts), or — when a hole would change the conclusion — only `reopen`: a return to
   * exploration with that question reopened (at most `max_reopens` times). One object, so
   * providers that require an object at the top of a tool's parameters accept it; `parseFinalize`
   * tells the two apart.
   */
  finalize_report: finalReportSchema.partial().extend({ reopen: reopenSchema.optional() }).strict(),
} as const;

export type LoopToolName = keyof typeof LOOP_TOOL_SCHEMAS;

/** What a `finalize_report` call asks for: the report, or a return to exploration. */
export type Finalize = { kind: "report"; report: FinalReport } | { kind: "reopen"; questionId: string; why: string };

/** Parses a `finalize_report` argument (model output): a reopen alone, or a whole report. Never throws. */
export function parseFinalize(args: unknown): Result<Finalize> {
  const parsed = LOOP_TOOL_SCHEMAS.finalize_report.safeParse(args ?? {});
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join(".") || "arguments"}: ${issue.message}`);
    return err(`The arguments do not fit finalize_report: ${issues.join("; ")}.`);
  }
  const { reopen, ...report } = parsed.data;
  if (reopen) {
    if (Object.keys(report).length > 0) {
      return err("Give either reopen (to return to exploration) or the report, not both.");
    }
    return ok({ kind: "reopen", questionId: reopen.question_id, why: reopen.why });
  }
  const whole = parseFinalReport(report);
  return whole.ok ? ok({ kind: "report", report: whole.value }) : whole;
}

/** The research states of seed 000 "Observability", each recorded as a `research-state` event. */
export const RESEARCH_STATES = [
  "planning",
  "selecting",
  "extracting",
  "verifying",
  "challenging",
  "consolidating",
  "synthesizing",
] as const;
export type ResearchState = (typeof RESEARCH_STATES)[number];

/** One hit of a search result as the loop shows it. */
export interface LoopHit {
  /** What `fetch_page` names (`h3`). */
  handle: string;
  title: string;
  location: string;
  snippet: string;
}

/** A fetched page as the loop shows it: the Host's source id and its passages with their ids. */
export interface LoopPage {
  sourceId: string;
  title: string;
  location: string;
  /** Its passages, each with the headings it stands under (`section`) when its document has them. */
  passages: readonly { id: string; text: string; section?: string }[];
  /** True when the page had been read before (its content is in notes.md, not shown again). */
  alreadyRead: boolean;
}

/** A tool call of the previous turn with its result, as data. */
export interface LoopResult {
  callId: string;
  name: string;
  args: unknown;
  ok: boolean;
  /** The text the model read. */
  text: string;
  /** `search`: the hits shown. */
  hits?: readonly LoopHit[];
  /** `fetch_page`: the page read. */
  page?: LoopPage;
}

/**
 * The loop's state as data (`ActInput.state`), for an engine that follows fixed rules (the
 * offline engine). A generative model ignores it and reads the prompt, which holds the same
 * facts. Plain JSON-safe data.
 */
export interface ActState {
  kind: "investigative";
  phase: TurnPhase;
  mode: TurnMode;
  /** 1, 2, … the turn this call is. */
  turn: number;
  /** The tool names offered this turn. */
  offered: readonly string[];
  /** The tool the turn must call (the forced last turn), if any. */
  forced?: string;
  /** The question the code selected, if one is in progress. */
  currentQuestionId: string | null;
  investigation: Investigation;
  /**
   * The pages read and not yet committed (nothing extracted from them yet), oldest first; in
   * an extraction turn, what must be extracted now.
   */
  pendingPages: readonly LoopPage[];
  /**
   * Every page persisted in this run, with its passages: what an engine that follows fixed
   * rules checks a claim against before calling it unchallenged (a model reads pages as the
   * prompt shows them). Optional for callers that have none.
   */
  readPages?: readonly LoopPage[];
  /** The previous turn's calls and results (empty on the first turn or after a plain-text turn). */
  lastResults: readonly LoopResult[];
  /** The reminder, when the previous turn answered in plain text. */
  reminder?: string;
  /** Reopens left to `finalize_report` (`max_reopens` minus those used). */
  reopensLeft: number;
  /** Searches and page reads the Host's budgets still allow. */
  searchesLeft: number;
  readsLeft: number;
}
