/**
 * Reads of a stored investigation for people (seed 000 "Observability"): the frontier as a
 * tree, the history of every question from its transitions, the challenge record with its
 * suspect flag, the claim ledger, and one JSON-ready export of everything. Pure: the shells
 * load the rows and print what these functions return.
 */
import { p2 } from "./frontier-queries.js";
import {
  type Actor,
  CHALLENGE_OUTCOMES,
  type Challenge,
  type ChallengeOutcome,
  type Claim,
  type ClaimSource,
  type InvestigationRowSet,
  QUESTION_STATUSES,
  type Question,
  type QuestionStatus,
  type Transition,
} from "./types.js";

/** One line of at most `max` characters, whitespace collapsed, cut with "…". */
export function shorten(text: string, max: number): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

const byIdNumber = (a: { id: string }, b: { id: string }): number =>
  (Number(/(\d+)$/.exec(a.id)?.[1]) || 0) - (Number(/(\d+)$/.exec(b.id)?.[1]) || 0) || a.id.localeCompare(b.id);

/** The latest transition of each question, by question id. */
function latestTransitions(transitions: readonly Transition[]): Map<string, Transition> {
  const latest = new Map<string, Transition>();
  for (const transition of transitions) {
    const previous = latest.get(transition.questionId);
    if (!previous || transition.seq >= previous.seq) latest.set(transition.questionId, transition);
  }
  return latest;
}

function outcomeOf(question: Question, latest: Transition | undefined): string {
  if (question.status === "resolved") return question.answer ? `answer: ${shorten(question.answer, 60)}` : "";
  if (question.status === "unresolvable")
    return question.answer ? `assumption: ${shorten(question.answer, 60)}` : "unresolvable";
  if (question.status !== "pruned") return "";
  const reason = question.answer || latest?.reason || "";
  return `pruned by ${latest?.actor ?? "?"}${latest ? ` (${latest.trigger})` : ""}: ${shorten(reason, 60)}`;
}

/** One question of the frontier with its outcome text and its children (in id order). */
export interface FrontierNode {
  question: Question;
  /** `answer: …`, `assumption: …`, `pruned by agent (pruned_branch): …`, or ''. */
  outcome: string;
  children: FrontierNode[];
}

/**
 * The frontier as a forest: children under their parent in id order. A question whose parent
 * is missing is a root; the members of a parent cycle (which have no root) are listed once,
 * the first unvisited one as a root. Pure.
 */
export function frontierForest(questions: readonly Question[], transitions: readonly Transition[]): FrontierNode[] {
  const latest = latestTransitions(transitions);
  const known = new Set(questions.map((question) => question.id));
  const ordered = [...questions].sort(byIdNumber);
  const children = new Map<string | null, Question[]>();
  for (const question of ordered) {
    const parent = question.parentId !== null && known.has(question.parentId) ? question.parentId : null;
    children.set(parent, [...(children.get(parent) ?? []), question]);
  }
  const seen = new Set<string>();
  const visit = (question: Question): FrontierNode[] => {
    if (seen.has(question.id)) return [];
    seen.add(question.id);
    const outcome = outcomeOf(question, latest.get(question.id));
    return [{ question, outcome, children: (children.get(question.id) ?? []).flatMap(visit) }];
  };
  const roots = (children.get(null) ?? []).flatMap(visit);
  // A parent cycle has no top-level entry: list what the walk missed rather than hide it.
  return [...roots, ...ordered.flatMap(visit)];
}

/**
 * The frontier as indented lines, children under their parent in id order:
 * `[q_002] resolved  P 0.80  Who sold it first?  — answer: Sony`. A question whose parent is
 * missing is listed at the top level. Pure.
 */
export function frontierTree(questions: readonly Question[], transitions: readonly Transition[]): string[] {
  const lines = (node: FrontierNode, level: number): string[] => {
    const { question, outcome } = node;
    const reopened = question.reopens > 0 ? `  (reopened ${question.reopens}×)` : "";
    return [
      `${"  ".repeat(level)}[${question.id}] ${question.status}  P ${p2(question.priority)}  ${shorten(question.question, 80)}${outcome ? `  — ${outcome}` : ""}${reopened}`,
      ...node.children.flatMap((child) => lines(child, level + 1)),
    ];
  };
  return frontierForest(questions, transitions).flatMap((node) => lines(node, 0));
}

/** `12:03:04  q_002  pending → in_progress  selected  (agent)  reason`, in write order. Pure. */
export function transitionsTimeline(transitions: readonly Transition[]): string[] {
  return transitions.map((transition) => {
    const time = transition.createdAt.slice(11, 19) || "--:--:--";
    const from = transition.fromStatus === "" ? "(new)" : transition.fromStatus;
    const cause = transition.causedBy ? `  caused by ${transition.causedBy}` : "";
    const reason = transition.reason ? `  ${shorten(transition.reason, 80)}` : "";
    return `${time}  ${transition.questionId}  ${from} → ${transition.toStatus}  ${transition.trigger}  (${transition.actor})${cause}${reason}`;
  });
}

export type OutcomeCounts = Record<ChallengeOutcome | "open", number>;

const emptyOutcomes = (): OutcomeCounts => ({ survived: 0, weakened: 0, refuted: 0, inconclusive: 0, open: 0 });

/** A `refuted` or `weakened` challenge with its sources and what changed after it. */
export interface Refutation {
  challengeId: string;
  outcome: "refuted" | "weakened";
  target: string;
  evidence: string;
  sourceIds: readonly string[];
  resultClaimId: string | null;
  /** Questions whose transitions name the challenge in `causedBy`. */
  changedQuestions: string[];
}

export interface ChallengeStats {
  total: number;
  byOutcome: OutcomeCounts;
  /** Strategy → outcome → count, strategies in first-use order. */
  byStrategy: Record<string, OutcomeCounts>;
  /** `claim c_001`, `question_answer q_003`, `conclusion` → count. */
  byTarget: Record<string, number>;
  refutations: Refutation[];
  /** Two or more challenges, every one survived, all with one strategy: the agent may not be testing itself. */
  suspect: boolean;
  suspectReason: string;
}

const targetLabel = (challenge: Challenge): string =>
  challenge.targetId ? `${challenge.targetType} ${challenge.targetId}` : challenge.targetType;

/** Counts per strategy × outcome and per target, the refutations, and the suspect flag. Pure. */
export function challengeStats(
  challenges: readonly Challenge[],
  transitions: readonly Transition[] = [],
): ChallengeStats {
  const byOutcome = emptyOutcomes();
  const byStrategy: Record<string, OutcomeCounts> = {};
  const byTarget: Record<string, number> = {};
  const refutations: Refutation[] = [];
  for (const challenge of challenges) {
    const outcome = challenge.status === "open" || challenge.outcome === "" ? "open" : challenge.outcome;
    byOutcome[outcome] += 1;
    const row = byStrategy[challenge.strategy] ?? emptyOutcomes();
    row[outcome] += 1;
    byStrategy[challenge.strategy] = row;
    byTarget[targetLabel(challenge)] = (byTarget[targetLabel(challenge)] ?? 0) + 1;
    if (outcome !== "refuted" && outcome !== "weakened") continue;
    const changed = transitions.filter((transition) => transition.causedBy === challenge.id);
    refutations.push({
      challengeId: challenge.id,
      outcome,
      target: targetLabel(challenge),
      evidence: challenge.evidence,
      sourceIds: challenge.sourceIds,
      resultClaimId: challenge.resultClaimId,
      changedQuestions: [...new Set(changed.map((transition) => transition.questionId))],
    });
  }
  const strategies = Object.keys(byStrategy);
  const suspect = challenges.length >= 2 && byOutcome.survived === challenges.length && strategies.length === 1;
  const suspectReason = suspect
    ? `all ${challenges.length} challenges survived, all with one strategy (${strategies[0]})`
    : "";
  return { total: challenges.length, byOutcome, byStrategy, byTarget, refutations, suspect, suspectReason };
}

const countsText = (counts: OutcomeCounts): string =>
  [...CHALLENGE_OUTCOMES, "open" as const]
    .filter((outcome) => counts[outcome] > 0)
    .map((outcome) => `${outcome} ${counts[outcome]}`)
    .join(", ");

/** The challenge stats as lines for `runs show`. Pure. */
export function challengeLines(stats: ChallengeStats): string[] {
  if (stats.total === 0) return ["  none"];
  const lines = [`  outcomes: ${countsText(stats.byOutcome)}`];
  for (const [strategy, counts] of Object.entries(stats.byStrategy)) {
    lines.push(`  ${strategy.padEnd(18)} ${countsText(counts)}`);
  }
  lines.push(
    `  per target: ${Object.entries(stats.byTarget)
      .map(([target, count]) => `${target} ${count}`)
      .join(", ")}`,
  );
  for (const refutation of stats.refutations) {
    const claim = refutation.resultClaimId ? `  → ${refutation.resultClaimId}` : "";
    const changed = refutation.changedQuestions.length ? `  changed ${refutation.changedQuestions.join(", ")}` : "";
    lines.push(
      `  ${refutation.challengeId} ${refutation.outcome} ${refutation.target}  src: ${refutation.sourceIds.join(", ") || "—"}${claim}${changed}  ${shorten(refutation.evidence, 60)}`,
    );
  }
  lines.push(stats.suspect ? `  SUSPECT: ${stats.suspectReason}` : "  suspect: no");
  return lines;
}

/** `[c_001] VERIFIED  text  src: s_001, s_002  contra: s_003  (q_002)`, claims in id order. Pure. */
export function ledgerLines(claims: readonly Claim[], claimSources: readonly ClaimSource[]): string[] {
  return [...claims].sort(byIdNumber).map((claim) => {
    const rows = claimSources.filter((row) => row.claimId === claim.id);
    const supports = rows.filter((row) => row.stance === "supports").map((row) => row.sourceId);
    const contradicts = rows.filter((row) => row.stance === "contradicts").map((row) => row.sourceId);
    const value =
      claim.kind === "datapoint" && claim.value ? ` = ${claim.value}${claim.unit ? ` ${claim.unit}` : ""}` : "";
    const contra = contradicts.length ? `  contra: ${contradicts.join(", ")}` : "";
    const question = claim.questionId ? `  (${claim.questionId})` : "";
    return `[${claim.id}] ${claim.status}  ${shorten(claim.text, 80)}${value}  src: ${supports.join(", ") || "—"}${contra}${question}`;
  });
}

export interface DepthOutcome {
  depth: number;
  resolved: number;
  unresolvable: number;
  /** resolved / (resolved + unresolvable); null when neither. */
  resolvedRatio: number | null;
}

export interface FrontierStats {
  questions: number;
  byStatus: Record<QuestionStatus, number>;
  /** Question id → times reopened (from the transitions), only those reopened. */
  reopened: Record<string, number>;
  /** Question id → times retried, only those retried. */
  retried: Record<string, number>;
  byDepth: DepthOutcome[];
  /** Ids of pruned questions by who pruned them (the actor of the transition into `pruned`). */
  pruned: Record<Actor, string[]>;
  /** Milliseconds spent in each status, summed over questions, from consecutive transition times (and `until` for the current status). */
  timePerStatus: Record<QuestionStatus, number>;
}

const zeroPerStatus = (): Record<QuestionStatus, number> =>
  Object.fromEntries(QUESTION_STATUSES.map((status) => [status, 0])) as Record<QuestionStatus, number>;

function countTrigger(transitions: readonly Transition[], trigger: Transition["trigger"]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const transition of transitions) {
    if (transition.trigger === trigger) counts[transition.questionId] = (counts[transition.questionId] ?? 0) + 1;
  }
  return counts;
}

function timePerStatus(transitions: readonly Transition[], until: string | undefined): Record<QuestionStatus, number> {
  const time = zeroPerStatus();
  const perQuestion = new Map<string, Transition[]>();
  for (const transition of transitions) {
    perQuestion.set(transition.questionId, [...(perQuestion.get(transition.questionId) ?? []), transition]);
  }
  const end = until === undefined ? Number.NaN : Date.parse(until);
  for (const rows of perQuestion.values()) {
    const ordered = [...rows].sort((a, b) => a.seq - b.seq);
    ordered.forEach((transition, index) => {
      const next = ordered[index + 1];
      const stop = next ? Date.parse(next.createdAt) : end;
      const spent = stop - Date.parse(transition.createdAt);
      if (Number.isFinite(spent) && spent > 0) time[transition.toStatus] += spent;
    });
  }
  return time;
}

/**
 * Reopened and retried questions, resolved-vs-unresolvable per depth, what code and agent
 * pruned, and the time spent per status (the current status counts up to `options.until`,
 * when given). Pure.
 */
export function frontierStats(
  questions: readonly Question[],
  transitions: readonly Transition[],
  options: { until?: string } = {},
): FrontierStats {
  const byStatus = zeroPerStatus();
  const depths = new Map<number, DepthOutcome>();
  for (const question of questions) {
    byStatus[question.status] += 1;
    const row = depths.get(question.depth) ?? {
      depth: question.depth,
      resolved: 0,
      unresolvable: 0,
      resolvedRatio: null,
    };
    if (question.status === "resolved") row.resolved += 1;
    if (question.status === "unresolvable") row.unresolvable += 1;
    const decided = row.resolved + row.unresolvable;
    row.resolvedRatio = decided === 0 ? null : row.resolved / decided;
    depths.set(question.depth, row);
  }
  const latest = latestTransitions(transitions);
  const pruned: Record<Actor, string[]> = { agent: [], code: [] };
  for (const question of [...questions].sort(byIdNumber)) {
    if (question.status === "pruned") pruned[latest.get(question.id)?.actor ?? "agent"].push(question.id);
  }
  return {
    questions: questions.length,
    byStatus,
    reopened: countTrigger(transitions, "reopened"),
    retried: countTrigger(transitions, "retried"),
    byDepth: [...depths.values()].sort((a, b) => a.depth - b.depth),
    pruned,
    timePerStatus: timePerStatus(transitions, options.until),
  };
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)}s`;

/** The frontier stats as lines for `runs show`. Pure. */
export function frontierStatsLines(stats: FrontierStats): string[] {
  const list = (counts: Record<string, number>): string =>
    Object.entries(counts)
      .map(([id, count]) => `${id} ${count}×`)
      .join(", ") || "none";
  const statuses = QUESTION_STATUSES.filter((status) => stats.byStatus[status] > 0);
  return [
    `  ${stats.questions} questions: ${statuses.map((status) => `${status} ${stats.byStatus[status]}`).join(", ")}`,
    `  time per status: ${
      QUESTION_STATUSES.filter((status) => stats.timePerStatus[status] > 0)
        .map((status) => `${status} ${seconds(stats.timePerStatus[status])}`)
        .join(", ") || "—"
    }`,
    `  resolved/unresolvable per depth: ${stats.byDepth.map((row) => `d${row.depth} ${row.resolved}/${row.unresolvable}`).join(", ")}`,
    `  reopened: ${list(stats.reopened)}; retried: ${list(stats.retried)}`,
    `  pruned by the agent: ${stats.pruned.agent.join(", ") || "none"}; by code: ${stats.pruned.code.join(", ") || "none"}`,
  ];
}

/** The stored rows an export reads (the store's `StoredInvestigation` fits). */
export interface InvestigationRows extends InvestigationRowSet {
  notesVersions: number;
}

export const INVESTIGATION_EXPORT_VERSION = 1;

/**
 * Everything recorded about a run's investigation as one JSON-ready object: the run, the
 * frontier (questions with their tree lines), transitions, attempts, the ledger, challenges
 * with the sources they cite, the notes version count, the stats and the events. Pure.
 */
export function investigationExport<Run extends { id: number; finishedAt?: string }, Event>(
  run: Run,
  rows: InvestigationRows,
  events: readonly Event[],
) {
  const sources = new Map(rows.sources.map((source) => [source.id, source]));
  return {
    format: "assay-investigation" as const,
    schemaVersion: INVESTIGATION_EXPORT_VERSION,
    run,
    frontier: {
      questions: rows.questions,
      dependencies: rows.dependencies,
      tree: frontierTree(rows.questions, rows.transitions),
    },
    transitions: rows.transitions,
    attempts: rows.attempts,
    sources: rows.sources,
    claims: rows.claims,
    claimSources: rows.claimSources,
    contradictions: rows.contradictions,
    challenges: rows.challenges.map((challenge) => ({
      ...challenge,
      sources: challenge.sourceIds.map(
        (id) => sources.get(id) ?? { id, location: "", domain: "", title: "", note: "" },
      ),
    })),
    notesVersions: rows.notesVersions,
    stats: {
      frontier: frontierStats(rows.questions, rows.transitions, run.finishedAt ? { until: run.finishedAt } : {}),
      challenges: challengeStats(rows.challenges, rows.transitions),
    },
    events,
  };
}

export type InvestigationExport = ReturnType<typeof investigationExport>;
