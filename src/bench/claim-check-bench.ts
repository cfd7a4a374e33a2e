/**
 * `assay check` on a public, human-labelled claim-attribution set (issue 42): WiCE (Kamoi et
 * al. 2023, Wikipedia claims with the web pages they cite, labelled supported, partially
 * supported or not supported). The set stays outside the repository: point
 * ASSAY_CLAIM_DATASET at its JSON Lines (`data/entailment_retrieval/claim/test.jsonl` of
 * github.com/ryokamoi/wice; several files separated by ":"). Each claim is checked by the
 * built binary as a user would run it (`assay check claims.jsonl --json`, a whole process),
 * its source the cited page's text. Printed: precision and recall of `supported` against the
 * gold "supported", beside a plain word-coverage baseline computed in the same script (the
 * share of the claim's content words the page writes, at every threshold). Run it alone:
 * `node dist/bench/claim-check-bench.js`, or within `npm run bench` when the variable is set.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { stemSet } from "../core/lexicon.js";

const BIN = fileURLToPath(new URL("../../bin/assay.js", import.meta.url));

interface Item {
  id: string;
  claim: string;
  evidence: string;
  supported: boolean;
}

/** WiCE lines: `{label, claim, evidence: [sentence…], meta: {id}}`. */
function readItems(paths: readonly string[]): Item[] {
  const items: Item[] = [];
  for (const path of paths) {
    for (const [index, line] of readFileSync(path, "utf8").split("\n").entries()) {
      if (line.trim() === "") continue;
      const row = JSON.parse(line) as { label?: string; claim?: string; evidence?: string[]; meta?: { id?: string } };
      if (typeof row.claim !== "string" || !Array.isArray(row.evidence) || typeof row.label !== "string") continue;
      items.push({
        id: row.meta?.id ?? `${path}:${index + 1}`,
        claim: row.claim,
        evidence: row.evidence.join("\n"),
        supported: row.label === "supported",
      });
    }
  }
  return items;
}

interface Scores {
  precision: number;
  recall: number;
  predicted: number;
}

function score(predicted: readonly boolean[], gold: readonly boolean[]): Scores {
  let truePositives = 0;
  let positives = 0;
  let predictedCount = 0;
  predicted.forEach((value, index) => {
    if (gold[index]) positives++;
    if (value) predictedCount++;
    if (value && gold[index]) truePositives++;
  });
  return {
    precision: predictedCount === 0 ? Number.NaN : truePositives / predictedCount,
    recall: positives === 0 ? Number.NaN : truePositives / positives,
    predicted: predictedCount,
  };
}

/** The share of a claim's content words (stems) that its evidence writes. */
function coverage(claim: string, evidence: string): number {
  const wanted = stemSet(claim);
  if (wanted.size === 0) return 0;
  const written = stemSet(evidence);
  let carried = 0;
  for (const stem of wanted) if (written.has(stem)) carried++;
  return carried / wanted.size;
}

const percent = (value: number): string => (Number.isFinite(value) ? `${(value * 100).toFixed(1)}%` : "n/a");

export interface ClaimCheckFigures {
  items: number;
  judge: Scores;
  baselineAtHalfRecall: Scores & { threshold: number };
  baselineBest: Scores & { threshold: number };
  seconds: number;
}

/** Runs the bench over the set at `paths`; undefined when none is given. */
export function claimCheckBench(paths: readonly string[]): ClaimCheckFigures | undefined {
  if (paths.length === 0) return undefined;
  const items = readItems(paths);
  const dir = mkdtempSync(join(tmpdir(), "assay-claim-check-"));
  try {
    const file = join(dir, "claims.jsonl");
    writeFileSync(
      file,
      items
        .map((item) => JSON.stringify({ id: item.id, claim: item.claim, sources: [{ text: item.evidence }] }))
        .join("\n"),
    );
    const started = performance.now();
    const run = spawnSync(process.execPath, [BIN, "check", file, "--json"], {
      encoding: "utf8",
      maxBuffer: 256 * 1024 * 1024,
      env: { PATH: process.env.PATH ?? "", HOME: dir, ASSAY_HOME: dir, NO_COLOR: "1" },
    });
    const seconds = (performance.now() - started) / 1000;
    if (run.status !== 0 && run.status !== 1) throw new Error(`assay check failed (${run.status}): ${run.stderr}`);
    const verdicts = new Map<string, string>();
    for (const line of run.stdout.split("\n")) {
      if (line.trim() === "") continue;
      const parsed = JSON.parse(line) as { id: string; verdict: string };
      verdicts.set(parsed.id, parsed.verdict);
    }
    const gold = items.map((item) => item.supported);
    const judge = score(
      items.map((item) => verdicts.get(item.id) === "supported"),
      gold,
    );
    const coverages = items.map((item) => coverage(item.claim, item.evidence));
    const sweep = [...new Set(coverages)]
      .sort((a, b) => a - b)
      .map((threshold) => ({
        threshold,
        ...score(
          coverages.map((value) => value >= threshold),
          gold,
        ),
      }))
      .filter((entry) => entry.predicted >= 5);
    const atHalf = sweep.filter((entry) => entry.recall >= 0.5).sort((a, b) => b.precision - a.precision)[0];
    const best = [...sweep].sort((a, b) => b.precision - a.precision)[0];
    const none = { threshold: Number.NaN, precision: Number.NaN, recall: Number.NaN, predicted: 0 };
    return { items: items.length, judge, baselineAtHalfRecall: atHalf ?? none, baselineBest: best ?? none, seconds };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The floor the judge's precision of `supported` must keep on the labelled set: a wrong
 * "supported" is worse than a missing one. Below it the bench fails (exit code 1).
 */
export const PRECISION_FLOOR = 0.8;

/** Prints the figures of `claimCheckBench`; false when the judge's precision is under the floor. */
export function printClaimCheck(figures: ClaimCheckFigures | undefined): boolean {
  if (!figures) {
    console.log(
      "\nClaim check (assay check on a labelled set): skipped; set ASSAY_CLAIM_DATASET to WiCE's claim JSON Lines (see src/bench/claim-check-bench.ts).",
    );
    return true;
  }
  const { judge, baselineAtHalfRecall: half, baselineBest: best } = figures;
  console.log(
    `\nClaim check: assay check --json over ${figures.items} labelled claims (${figures.seconds.toFixed(1)} s, one process)`,
  );
  console.log("method                                   precision of supported  recall  claims called supported");
  console.log(
    `assay check (the judge)                  ${percent(judge.precision).padStart(22)}  ${percent(judge.recall).padStart(6)}  ${String(judge.predicted).padStart(23)}`,
  );
  console.log(
    `word coverage >= ${half.threshold.toFixed(2)} (best at recall >= 50%) ${percent(half.precision).padStart(14)}  ${percent(half.recall).padStart(6)}  ${String(half.predicted).padStart(23)}`,
  );
  console.log(
    `word coverage >= ${best.threshold.toFixed(2)} (best at any recall)    ${percent(best.precision).padStart(14)}  ${percent(best.recall).padStart(6)}  ${String(best.predicted).padStart(23)}`,
  );
  const holds = judge.predicted === 0 || judge.precision >= PRECISION_FLOOR;
  console.log(
    holds
      ? `the judge's precision holds its floor of ${percent(PRECISION_FLOOR)}`
      : `FAILED: the judge's precision ${percent(judge.precision)} is under its floor of ${percent(PRECISION_FLOOR)}`,
  );
  return holds;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const paths = (process.env.ASSAY_CLAIM_DATASET ?? "").split(":").filter(Boolean);
  if (!printClaimCheck(claimCheckBench(paths))) process.exitCode = 1;
}
