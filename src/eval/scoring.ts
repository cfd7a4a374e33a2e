/**
 * Scoring of one run, computed outside the runtime from what it published (report.json)
 * and its durable event log. Pure.
 */
import type { ReportDocument } from "../core/report/report-document.js";
import { runTimings } from "../core/timings.js";
import { usageOf as usageOfEvents } from "../core/usage.js";
import type { EvalCase } from "./cases.js";
import type { EvalRunRow, SciFactLabel } from "./eval-types.js";

/** SQuAD-style answer normalisation: lower case, no punctuation or articles, single spaces. */
export const normalizeAnswer = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .replace(/\b(?:a|an|the)\b/g, " ")
    .replace(/\s+/g, " ")
    .trim();

export function containsAnswer(text: string, answers: readonly string[]): boolean {
  const haystack = ` ${normalizeAnswer(text)} `;
  return answers.some((answer) => {
    const needle = normalizeAnswer(answer);
    return needle !== "" && haystack.includes(` ${needle} `);
  });
}

/** "yes"/"no" answers cannot be found in text by string matching. */
const yesNo = (answers: readonly string[]): boolean =>
  answers.length > 0 && answers.every((answer) => /^(yes|no)$/i.test(answer.trim()));

/** The reader-facing evidence text of a report: findings, recommendations and quoted excerpts (not titles). */
export function reportText(doc: ReportDocument): string {
  return [
    ...doc.directFindings.map((item) => item.text),
    ...doc.findings.map((item) => item.text),
    ...doc.recommendations.map((item) => item.text),
    ...doc.sourceCards.flatMap((card) => card.excerpts.map((excerpt) => excerpt.text)),
  ].join("\n");
}

/** The report's first finding: its first direct finding, else its first finding ("" when it has none). */
export function firstFinding(doc: ReportDocument): string {
  return (doc.directFindings[0] ?? doc.findings[0])?.text ?? "";
}

const VERDICT_PATTERNS: readonly [SciFactLabel, RegExp][] = [
  [
    "NOT_ENOUGH_INFO",
    /\bclaim\b[^.]{0,120}\b(?:cannot be (?:determined|verified|assessed|confirmed)|insufficient|not enough (?:evidence|information)|neither supported nor contradicted|not addressed)\b/i,
  ],
  [
    "CONTRADICT",
    /\bclaim\b[^.]{0,120}\b(?:is|was|are|appears?|seems?)\s+(?:\w+\s+)?(?:contradicted|refuted|false|not supported)\b/i,
  ],
  [
    "SUPPORT",
    /\bclaim\b[^.]{0,120}\b(?:is|was|are|appears?|seems?)\s+(?:\w+\s+)?(?:supported|confirmed|true|correct)\b/i,
  ],
];

/**
 * The verdict on a claim that a report states in its own findings or gaps ("the claim is
 * contradicted by …"), or null. Quoted source excerpts do not count: they are not the
 * report's verdict.
 */
export function statedVerdict(doc: ReportDocument): SciFactLabel | null {
  const statements = [
    ...doc.directFindings.map((item) => item.text),
    ...doc.findings.map((item) => item.text),
    ...doc.gaps.map((gap) => gap.text),
  ];
  for (const [label, pattern] of VERDICT_PATTERNS) {
    if (statements.some((text) => pattern.test(text))) return label;
  }
  return null;
}

/** Corpus-relative path of a report source, normalized like gold paths. */
const pathOf = (source: { path?: string | undefined; url?: string | undefined }): string =>
  (source.path ?? source.url ?? "").replace(/\\/g, "/").replace(/^\.\//, "");

export interface GenerationUsage {
  generations: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number | null;
}

/** Tokens and cost of every generation of a run, from its events (the one rule in core/usage). */
export function usageOf(events: readonly { type: string; data: Record<string, unknown> }[]): GenerationUsage {
  const { generations, inputTokens, outputTokens, costUsd } = usageOfEvents(events);
  return { generations, inputTokens, outputTokens, costUsd };
}

/** The strategies whose reports rest on a claim ledger with verification (seed 000 "Claims and cross-checking"). */
export const VERIFYING_STRATEGIES: readonly string[] = ["investigative"];

/** Whether `strategy` verifies claims, so that its verified and unverified counts apply. Pure. */
export const verifiesClaims = (strategy: string): boolean => VERIFYING_STRATEGIES.includes(strategy);

/**
 * The published findings (direct and further) by verification status, as the report shows
 * them (each finding's `verification`). An item resting on several claims is published as one
 * finding per claim, so these count (item, claim) pairs. Recommendations and gaps are not
 * findings. Zeros when nothing was published. Pure.
 */
export function claimCounts(doc: ReportDocument | undefined): {
  verified: number;
  unverified: number;
  contested: number;
} {
  const findings = doc ? [...doc.directFindings, ...doc.findings] : [];
  const count = (status: string) => findings.filter((finding) => finding.verification.status === status).length;
  return { verified: count("verified"), unverified: count("unverified"), contested: count("contested") };
}

export interface ScoreInput {
  testCase: EvalCase;
  /** The strategy that ran: whether the verification counts apply. */
  strategy: string;
  /** The published report, or undefined when nothing was published. */
  doc: ReportDocument | undefined;
  events: readonly { type: string; offsetMs: number; data: Record<string, unknown> }[];
  /** Corpus-relative paths of every source the run persisted. */
  readPaths: readonly string[];
}

export type Scores = Pick<
  EvalRunRow,
  | "items"
  | "gaps"
  | "verifiedClaims"
  | "unverifiedClaims"
  | "contestedClaims"
  | "sources"
  | "goldRecall"
  | "citationPrecision"
  | "answerFound"
  | "answerFirst"
  | "verdict"
  | "usage"
> & { latency: Omit<EvalRunRow["latency"], "wallMs"> };

export function scoreRun(input: ScoreInput): Scores {
  const { testCase, doc } = input;
  const gold = new Set(testCase.gold);
  const cited = doc ? doc.sources.map(pathOf) : [];
  const citedGold = cited.filter((path) => gold.has(path)).length;
  const goldFound = new Set(cited.filter((path) => gold.has(path))).size;
  const usable = testCase.answers.length > 0 && !yesNo(testCase.answers);
  const stated = doc ? statedVerdict(doc) : null;
  const timings = runTimings(input.events);
  const claims = claimCounts(doc);
  const verifies = verifiesClaims(input.strategy);
  return {
    items: doc ? doc.directFindings.length + doc.findings.length + doc.recommendations.length : 0,
    gaps: doc ? doc.gaps.length : 0,
    verifiedClaims: verifies ? claims.verified : null,
    unverifiedClaims: verifies ? claims.unverified : null,
    // Every strategy can publish a finding a source read contradicts (the offline engine marks it).
    contestedClaims: claims.contested,
    sources: { read: input.readPaths.length, cited: cited.length, citedGold, gold: gold.size },
    goldRecall: gold.size === 0 ? null : goldFound / gold.size,
    citationPrecision: gold.size === 0 || cited.length === 0 ? null : citedGold / cited.length,
    answerFound: usable ? (doc ? containsAnswer(reportText(doc), testCase.answers) : false) : null,
    answerFirst: usable ? (doc ? containsAnswer(firstFinding(doc), testCase.answers) : false) : null,
    verdict: {
      expected: testCase.label,
      stated,
      agrees: testCase.label === null || stated === null ? null : stated === testCase.label,
    },
    latency: {
      firstSourcePersistedMs: timings.firstSourcePersistedMs ?? null,
      terminalMs: timings.terminalMs ?? null,
    },
    usage: usageOf(input.events),
  };
}

/** A faulted run salvaged something when it still published a report that cites or quotes a source. */
export function salvaged(doc: ReportDocument | undefined): boolean {
  return doc !== undefined && doc.status !== "no-evidence" && doc.sources.length > 0;
}
