/**
 * The judge's rubric and its reply schema (issue 5, seed 004 "Required Evaluation": claim
 * support, material coverage, decision value, language). A judge scores a published report
 * from outside the runtime; its reply is untrusted and parsed like any model output.
 */
import { z } from "zod";

export const SUPPORT_LEVELS = ["supported", "partial", "unsupported"] as const;
export type SupportLevel = (typeof SUPPORT_LEVELS)[number];

export const judgeOutputSchema = z.object({
  /** One verdict per report item: does its cited passage support it? */
  items: z
    .array(
      z.object({
        id: z.string().min(1).max(40),
        support: z.enum(SUPPORT_LEVELS),
        reason: z.string().max(400),
      }),
    )
    .max(120),
  /** 0: the material point is missing; 1: partly covered; 2: fully covered. */
  coverage: z.number().int().min(0).max(2),
  /** 0: a reader could not act on it; 1: somewhat; 2: it settles the question. */
  decisionValue: z.number().int().min(0).max(2),
  /** Is the reader-facing text in the requested language? */
  language: z.enum(["matches", "mixed", "wrong"]),
});

export type JudgeOutput = z.infer<typeof judgeOutputSchema>;
