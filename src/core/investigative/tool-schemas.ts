/**
 * The investigative tools (seed 000 "Frontier tools", "Working state: notes.md",
 * "Adversarial queries") as typed definitions: a name, a description the model reads, and
 * a zod schema for the arguments. Arguments are untrusted model output: a call that does
 * not parse is refused with the schema's complaint before any rule runs.
 */
import { z } from "zod";
import {
  CHALLENGE_OUTCOMES,
  CHALLENGE_STRATEGIES,
  CHALLENGE_TARGETS,
  QUESTION_KINDS,
  QUESTION_STATUSES,
} from "./types.js";

const id = z.string().trim().min(1).max(40);
const text = (max: number) => z.string().trim().min(1).max(max);
const priority = z.number().min(0).max(1);
/** Host chunk ids (`s_001.p03`): the passages a finding was read from. */
const passageIds = z.array(z.string().trim().min(1).max(60)).max(16);

export const TOOL_SCHEMAS = {
  frontier_next: z.object({}).strict(),
  frontier_view: z.object({ status: z.enum(QUESTION_STATUSES).optional(), id: id.optional() }).strict(),
  add_question: z
    .object({
      parent_id: id,
      question: text(500),
      rationale: text(500),
      priority,
      validation_criteria: text(500),
      target_sources: z.array(text(60)).max(8),
      depends_on: z.array(id).max(8).optional(),
      kind: z.enum(QUESTION_KINDS).optional(),
      /** True when the parent cannot be answered without this one: it becomes the parent's dependency. */
      blocks_parent: z.boolean().optional(),
    })
    .strict(),
  declare_atomic: z.object({ reason: text(500) }).strict(),
  retry_question: z.object({ id, new_query: text(300), why: text(500), assumption: text(500).optional() }).strict(),
  resolve_question: z
    .object({ id, answer: text(1_000), claim_ids: z.array(id).max(20), reason: text(500).optional() })
    .strict(),
  reopen_question: z.object({ id, why: text(500), priority: priority.optional() }).strict(),
  set_priority: z.object({ id, priority, why: text(500) }).strict(),
  prune_branch: z.object({ id, reason: text(500) }).strict(),
  notes_append: z
    .object({
      section: z.enum(["unverified", "datapoints", "sources", "contradictions"]),
      entries: z
        .array(
          z
            .object({
              text: text(600).optional(),
              source_ids: z.array(id).max(8).optional(),
              /** The passages of those sources that support the finding. */
              passage_ids: passageIds.optional(),
              check: text(300).optional(),
              question_id: id.optional(),
              value: text(60).optional(),
              unit: text(40).optional(),
              source_id: id.optional(),
              note: text(200).optional(),
              claim_id: id.optional(),
              other_claim_id: id.optional(),
            })
            .strict(),
        )
        .min(1)
        .max(20),
    })
    .strict(),
  notes_update: z
    .object({
      id,
      status: z.enum(["VERIFIED", "REFUTED", "RETRACTED"]).optional(),
      add_source: z
        .object({ source_id: id, stance: z.enum(["supports", "contradicts"]), passage_ids: passageIds.optional() })
        .strict()
        .optional(),
      independence: text(500).optional(),
      reason: text(500).optional(),
    })
    .strict(),
  notes_scratch: z.object({ text: z.string().max(4_000) }).strict(),
  challenge: z
    .object({
      target_type: z.enum(CHALLENGE_TARGETS),
      target_id: id.optional(),
      negation: text(500),
      strategy: z.enum(CHALLENGE_STRATEGIES),
      expected_if_false: text(500),
      query: text(300),
    })
    .strict(),
  record_challenge_result: z
    .object({
      challenge_id: id,
      outcome: z.enum(CHALLENGE_OUTCOMES),
      evidence: z.string().trim().max(1_000),
      source_ids: z.array(id).max(8),
      result_claim_id: id.optional(),
    })
    .strict(),
  challenges_view: z
    .object({ target_id: z.string().max(40).optional(), status: z.enum(["open", "closed"]).optional() })
    .strict(),
} as const;

export type ToolName = keyof typeof TOOL_SCHEMAS;
export type ToolArgs<N extends ToolName> = z.infer<(typeof TOOL_SCHEMAS)[N]>;

export const TOOL_DESCRIPTIONS: Record<ToolName, string> = {
  frontier_next:
    "Select the next question to work on (highest priority among actionable pending questions; an unresolved dependency first) and mark it in_progress.",
  frontier_view: "Inspect questions compactly (optionally by status), or one question (id) with its attempt log.",
  add_question:
    "Add a sub-question of parent_id: a contradiction, an unexpected prerequisite, or a gap that blocks the criteria. Set blocks_parent when the parent cannot be answered without it.",
  declare_atomic: "State that the objective cannot be split into sub-questions (instead of the broad expansion).",
  retry_question:
    "Record an inconclusive attempt with a new, different query and return the question to the queue; at the last allowed attempt give an assumption.",
  resolve_question:
    "Mark a question resolved: a short answer with the claim ids that support it (or a reason when no claim applies).",
  reopen_question: "Reopen a resolved question when a later finding contradicts its answer.",
  set_priority: "Change a question's priority (0..1); its dependencies are raised with it.",
  prune_branch:
    "Drop a question and its pending or blocked descendants, with the reason (e.g. it would not alter the conclusion).",
  notes_append:
    "Append records to notes.md: unverified claims (text, source_ids, passage_ids, check), datapoints (value, unit, text as context, source_ids, passage_ids), sources (source_id, note), contradictions (claim_id, other_claim_id). passage_ids are the ids of the passages (s_001.p03) of those sources the finding was read from: the report cites them. Write open gaps and the conclusion with notes_scratch.",
  notes_update:
    "Change a claim: add a supporting or contradicting source (with the passage_ids of that source that say so), state the independence of its sources, or set VERIFIED, REFUTED or RETRACTED (the rules are checked).",
  notes_scratch: "Replace the free-text Scratch section (reasoning, plans, the stated conclusion).",
  challenge:
    "Register an adversarial query against a claim, a question's answer or the conclusion: what it negates, the strategy, what the evidence would look like if the belief were wrong, and the query. Runs nothing itself.",
  record_challenge_result:
    "Close a challenge with its verdict (survived, weakened, refuted, inconclusive), the evidence and the source ids.",
  challenges_view: "List challenges compactly, optionally for one target or by status.",
};
