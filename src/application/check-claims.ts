/**
 * The claim check as a use case (`assay check`): the claims of a draft or a JSON Lines file,
 * each checked against the sources it cites by the one judge. Reading a source is the
 * caller's (`readSource`: files inside the folder in scope, URLs through the guarded fetcher);
 * the verdicts are the core's (`checkClaim`).
 */
import {
  type CheckedClaim,
  checkClaim,
  type DraftClaim,
  parseClaimLines,
  parseDraft,
  type ReadSource,
  type SourceRef,
} from "../core/judgment/claim-check.js";
import type { Judge } from "../core/judgment/judge.js";

export interface CheckDependencies {
  judge: Judge;
  /** Reads one source; never throws (a failure is a `ReadSource` with its reason in words). */
  readSource(source: SourceRef): Promise<ReadSource>;
}

export interface CheckOutcome {
  claims: CheckedClaim[];
  /** Lines or citations that could not be checked, in words. */
  problems: string[];
}

/** Whether a file is JSON Lines of claims (by its name), else a Markdown or text draft. */
export const isClaimLines = (name: string): boolean => /\.(?:jsonl|ndjson)$/i.test(name);

/** Checks every claim of `text` (a draft, or JSON Lines when `lines`), each source read once. */
export async function checkClaims(
  text: string,
  lines: boolean,
  dependencies: CheckDependencies,
): Promise<CheckOutcome> {
  const parsed = lines ? parseClaimLines(text) : parseDraft(text);
  const read = new Map<string, Promise<ReadSource>>();
  const readOnce = (source: SourceRef): Promise<ReadSource> => {
    const key = JSON.stringify(source);
    let reading = read.get(key);
    if (!reading) {
      reading = dependencies.readSource(source);
      read.set(key, reading);
    }
    return reading;
  };
  const claims: CheckedClaim[] = [];
  for (const claim of parsed.claims as DraftClaim[]) {
    const sources = await Promise.all(claim.sources.map(readOnce));
    claims.push(checkClaim(claim, sources, dependencies.judge));
  }
  return { claims, problems: parsed.problems };
}

/** Whether the outcome should fail a build: a claim contradicted, or not found in its sources. */
export const failsCheck = (outcome: CheckOutcome): boolean =>
  outcome.claims.some((claim) => claim.verdict === "contradicted" || claim.verdict === "not-found");
