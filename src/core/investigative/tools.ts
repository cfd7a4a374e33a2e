/**
 * The investigative tools as pure decisions (seed 000 "Frontier tools", "Working state",
 * "Claims and cross-checking", "Adversarial queries"): `decide(investigation, call, ctx)`
 * parses the arguments, applies the rules of the frontier, the ledger and the challenges,
 * composes their consequences (a refuted claim reopens the questions that cite it and spawns
 * a contradiction question), re-renders notes.md when it changed, and returns the new value,
 * the rows to persist in one transaction, and the compact text the model reads. A refused
 * call changes nothing and says which rule refused it and what to do instead.
 */
import { err, ok, type Result } from "../result.js";
import { openChallenges } from "./challenges.js";
import { renderNotes } from "./notes.js";
import { CHALLENGE_HANDLERS } from "./tool-challenges.js";
import { FRONTIER_HANDLERS } from "./tool-frontier.js";
import { NOTES_HANDLERS } from "./tool-notes.js";
import { TOOL_SCHEMAS, type ToolName } from "./tool-schemas.js";
import {
  type Handler,
  type Handlers,
  parseArgs,
  type ToolCall,
  type ToolContext,
  type ToolOutcome,
} from "./tool-support.js";
import type { Challenge, Investigation, Mutation, Rejection } from "./types.js";

export { currentQuestion, mergeMutations, type ToolCall, type ToolContext, type ToolOutcome } from "./tool-support.js";

const HANDLERS: Handlers<ToolName> = { ...FRONTIER_HANDLERS, ...NOTES_HANDLERS, ...CHALLENGE_HANDLERS };

/** The notes text of an investigation (the rendered working copy). */
export function notesText(investigation: Investigation): string {
  return renderNotes({
    objective: investigation.frontier.objective,
    ledger: investigation.ledger,
    frontier: investigation.frontier,
    scratch: investigation.scratch,
  });
}

const NOTES_REASON: Partial<Record<ToolName, NonNullable<Mutation["notes"]>["reason"]>> = {
  notes_append: "notes_append",
  notes_update: "notes_update",
  notes_scratch: "notes_scratch",
};

/**
 * Decides one tool call. On success, the mutation carries a notes version whenever the
 * rendered notes changed (in the same transaction as the rows that changed them).
 */
export function decide(investigation: Investigation, call: ToolCall, ctx: ToolContext): Result<ToolOutcome, Rejection> {
  if (!Object.hasOwn(TOOL_SCHEMAS, call.name)) {
    return err({
      rule: "unknown-tool",
      message: `There is no tool "${call.name}". Tools: ${Object.keys(TOOL_SCHEMAS).join(", ")}.`,
    });
  }
  const name = call.name as ToolName;
  const args = parseArgs(name, call.args);
  if (!args.ok) return args;
  const handler = HANDLERS[name] as unknown as Handler;
  const step = handler(investigation, args.value as never, ctx);
  if (!step.ok) return step;
  const before = notesText(investigation);
  const after = notesText(step.value.investigation);
  const mutation =
    before === after
      ? step.value.mutation
      : { ...step.value.mutation, notes: { text: after, reason: NOTES_REASON[name] ?? "frontier" } };
  return ok({ investigation: step.value.investigation, mutation, text: step.value.text });
}

/** Open challenges, for the summary the prompt shows (so the agent cannot forget one). */
export function openChallengeLines(challenges: readonly Challenge[]): string {
  const open = openChallenges(challenges);
  return open.length === 0 ? "" : `Open challenges: ${open.map((challenge) => challenge.id).join(", ")}`;
}
