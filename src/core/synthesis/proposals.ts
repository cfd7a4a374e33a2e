/**
 * The wire objects models return (seed 004 "Atomic Synthesis", "Acquisition"). Separate
 * arrays, so facts, derivations, recommendations and gaps never share ambiguous fields.
 * Everything here is untrusted until it has passed admission.
 */
import { z } from "zod";

const localId = z.string().min(1).max(40);
const text = z.string().min(1).max(2_000);

/** Passages of another source that contradict a fact, with the contradicting sentence quoted verbatim. */
export const contradictionSchema = z.object({
  sourceId: z.string().min(1).max(40),
  chunkIds: z.array(z.string().min(1).max(60)).min(1).max(8),
  /** The contradicting sentence, exactly as the passages write it. */
  quote: z.string().min(1).max(600),
});

export const factProposalSchema = z.object({
  id: localId,
  text,
  /** Exactly one direct source id, one the model was shown. */
  sourceId: z.string().min(1).max(40),
  /** One or more exact chunk ids of that source. */
  chunkIds: z.array(z.string().min(1).max(60)).min(1).max(8),
  /**
   * Other sources that contradict it (a negation, another figure or date for the same
   * subject): the fact is published as contested, both sides cited and quoted.
   */
  contradictedBy: z.array(contradictionSchema).max(4).optional(),
});

export const derivationProposalSchema = z.object({
  id: localId,
  text,
  /** Local ids of facts or other derivations. */
  premiseIds: z.array(localId).min(1).max(12),
  method: z.string().min(1).max(300),
});

export const recommendationProposalSchema = z.object({
  id: localId,
  text,
  premiseIds: z.array(localId).min(1).max(12),
  /** Reader-facing conditions under which the recommendation holds. */
  conditions: z.array(z.string().min(1).max(300)).max(6),
});

export const gapProposalSchema = z.object({
  id: localId,
  text,
  relatedSourceIds: z.array(z.string().min(1).max(40)).max(12),
});

export const synthesisOutputSchema = z.object({
  facts: z.array(factProposalSchema).max(60),
  derivations: z.array(derivationProposalSchema).max(30),
  recommendations: z.array(recommendationProposalSchema).max(20),
  gaps: z.array(gapProposalSchema).max(20),
});

export type FactProposal = z.infer<typeof factProposalSchema>;
export type Contradiction = z.infer<typeof contradictionSchema>;
export type DerivationProposal = z.infer<typeof derivationProposalSchema>;
export type RecommendationProposal = z.infer<typeof recommendationProposalSchema>;
export type GapProposal = z.infer<typeof gapProposalSchema>;
export type SynthesisOutput = z.infer<typeof synthesisOutputSchema>;

/** A proposed acquisition query: free text, or a pattern over corpus documents. */
export const queryProposalSchema = z.object({
  text: z.string().max(2_000).optional(),
  pattern: z.string().max(2_000).optional(),
  pathPrefix: z.string().max(1_000).optional(),
});

export const plannerOutputSchema = z.object({
  queries: z.array(queryProposalSchema).max(40),
});

export type QueryProposal = z.infer<typeof queryProposalSchema>;
export type PlannerOutput = z.infer<typeof plannerOutputSchema>;
