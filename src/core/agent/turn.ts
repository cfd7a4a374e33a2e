/**
 * The wire objects of a tool-calling research loop (the `simple` strategy): the arguments
 * of its tools and the shape of its final answer. Untrusted until parsed and admitted: the
 * answer's statements become fact proposals and go through the same item-local admission
 * as a synthesis.
 */
import { z } from "zod";
import type { SynthesisOutput } from "../synthesis/proposals.js";

/** Most tool calls the Host runs from one turn; more are refused with a diagnostic. */
export const MAX_CALLS_PER_TURN = 8;
export const MAX_AGENT_QUERY_CHARS = 300;

export const agentSearchArgsSchema = z.object({
  query: z.string().trim().min(1).max(MAX_AGENT_QUERY_CHARS),
});

export const agentReadArgsSchema = z.object({
  /** A hit handle from an earlier search result ("h3"). */
  hit: z.string().trim().min(1).max(20),
});

export const answerStatementSchema = z.object({
  text: z.string().min(1).max(2_000),
  /** The persisted source the statement rests on, as shown in a read result ("s_002"). */
  sourceId: z.string().min(1).max(40),
  /** The exact passages of that source ("s_002.p03"). */
  chunkIds: z.array(z.string().min(1).max(60)).min(1).max(8),
});

export const answerOutputSchema = z.object({
  statements: z.array(answerStatementSchema).max(40),
  /** What the sources read did not settle. */
  gaps: z.array(z.object({ text: z.string().min(1).max(2_000) })).max(10),
});

export type AgentSearchArgs = z.infer<typeof agentSearchArgsSchema>;
export type AgentReadArgs = z.infer<typeof agentReadArgsSchema>;
export type AnswerStatement = z.infer<typeof answerStatementSchema>;
export type AnswerOutput = z.infer<typeof answerOutputSchema>;

/** The answer as synthesis proposals, so one admission serves both. Pure. */
export function answerAsSynthesis(answer: AnswerOutput): SynthesisOutput {
  return {
    facts: answer.statements.map((statement, index) => ({ id: `a${index + 1}`, ...statement })),
    derivations: [],
    recommendations: [],
    gaps: answer.gaps.map((gap, index) => ({ id: `g${index + 1}`, text: gap.text, relatedSourceIds: [] })),
  };
}
