/**
 * The judge as a port (DESIGN "Identities and truth"). The pure judge (`createJudge` in
 * core/judgment) decides for every strategy; a judge backed by a model may stand beside it
 * for `assay check`, where the pure judge's structural vetoes (numbers, negation, hedges,
 * origin) still apply to what the model says.
 */
import type { Judge, Judgement, PassageInContext } from "../core/judgment/judge.js";

export type { Judge, Judgement, PassageInContext };

/** A judge that asks a model: slower, fallible, never trusted alone. A failure is a value. */
export interface ModelJudge {
  readonly name: string;
  judge(
    claim: string,
    passage: PassageInContext,
    options: { signal?: AbortSignal; timeoutMs: number },
  ): Promise<{ ok: true; judgement: Judgement } | { ok: false; error: string }>;
}
