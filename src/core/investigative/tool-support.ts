/**
 * What the investigative tool decisions share: the call and outcome types, merging
 * mutations, compact texts, argument parsing, and the cross-module steps (registering Host
 * sources, reopening questions that cite a refuted claim, spawning a contradiction question).
 * Pure.
 */
import type { z } from "zod";
import { err, ok, type Result } from "../result.js";
import {
  addQuestion,
  attemptsOf,
  type FrontierContext,
  findQuestion,
  ROOT_QUESTION_ID,
  reopenQuestion,
} from "./frontier.js";
import { holderOf } from "./frontier-queries.js";
import { renderFrontierSummary } from "./frontier-summary.js";
import { questionsCiting, registerSource } from "./ledger.js";
import { TOOL_SCHEMAS, type ToolName } from "./tool-schemas.js";
import {
  type Claim,
  EMPTY_MUTATION,
  type Investigation,
  type LedgerSource,
  type Mutation,
  type Question,
  type Rejection,
} from "./types.js";

export interface ToolCall {
  name: string;
  args: unknown;
}

export interface ToolContext {
  now: string;
  /** Persisted Host sources the notes may cite (`s_001`), with their independence keys. */
  hostSources: readonly LedgerSource[];
  /** The Host's chunk catalog: each persisted source id → its passage (chunk) ids, `s_001.p01`, …. */
  hostChunks: ReadonlyMap<string, readonly string[]>;
  /** Who made the call: the model (default), or the loop's code (its own selection). */
  actor?: "agent" | "code";
}

export interface ToolOutcome {
  investigation: Investigation;
  mutation: Mutation;
  /** The compact summary the model reads. */
  text: string;
}

export type Step = Result<{ investigation: Investigation; mutation: Mutation; text: string }, Rejection>;

export const reject = (rule: string, message: string): Step => err({ rule, message });

/** Merges two mutations: later rows of the same id replace earlier ones; appends concatenate. */
export function mergeMutations(a: Mutation, b: Mutation): Mutation {
  const byId = <T extends { id: string }>(first: readonly T[], second: readonly T[]): T[] => {
    const map = new Map(first.map((row) => [row.id, row]));
    for (const row of second) map.set(row.id, row);
    return [...map.values()];
  };
  const linkKey = (row: { claimId: string; sourceId: string }) => `${row.claimId}|${row.sourceId}`;
  const links = new Map(a.claimSources.map((row) => [linkKey(row), row]));
  for (const row of b.claimSources) links.set(linkKey(row), row);
  const pairKey = (row: { claimId: string; otherClaimId: string }) => `${row.claimId}|${row.otherClaimId}`;
  const pairs = new Map(a.contradictions.map((row) => [pairKey(row), row]));
  for (const row of b.contradictions) pairs.set(pairKey(row), row);
  const notes = b.notes ?? a.notes;
  return {
    questions: byId(a.questions, b.questions),
    dependencies: [...a.dependencies, ...b.dependencies],
    attempts: [...a.attempts, ...b.attempts],
    transitions: [...a.transitions, ...b.transitions],
    sources: byId(a.sources, b.sources),
    claims: byId(a.claims, b.claims),
    claimSources: [...links.values()],
    contradictions: [...pairs.values()],
    challenges: byId(a.challenges, b.challenges),
    ...(notes ? { notes } : {}),
  };
}

/** The question the calling sub-agent works on: the one in progress that it holds, if any. */
export function currentQuestion(investigation: Investigation): Question | undefined {
  const agent = investigation.agent ?? 1;
  return investigation.frontier.questions.find(
    (question) => question.status === "in_progress" && holderOf(question) === agent,
  );
}

export const compactQuestion = (question: Question): string =>
  `[${question.id}] ${question.status} (P ${question.priority.toFixed(2)}, depth ${question.depth}${
    question.kind === "hypothesis" ? ", hypothesis" : ""
  }) ${question.question}${question.answer ? ` — ${question.answer}` : ""}`;

export function questionDetail(investigation: Investigation, question: Question): string {
  const deps = investigation.frontier.dependencies
    .filter((edge) => edge.questionId === question.id)
    .map((edge) => edge.dependsOnId);
  const attempts = attemptsOf(investigation.frontier, question.id);
  return [
    compactQuestion(question),
    `  rationale: ${question.rationale}`,
    `  criteria: ${question.validationCriteria || "—"}`,
    ...(question.targetSources.length > 0 ? [`  target sources: ${question.targetSources.join(", ")}`] : []),
    ...(deps.length > 0 ? [`  depends on: ${deps.join(", ")}`] : []),
    ...(question.claimIds.length > 0 ? [`  claims: ${question.claimIds.join(", ")}`] : []),
    attempts.length > 0
      ? `  tried:\n${attempts.map((attempt) => `  - #${attempt.seq} ${attempt.tool}: "${attempt.query}"${attempt.outcome ? ` → ${attempt.outcome}` : ""}`).join("\n")}`
      : "  tried: nothing yet",
  ].join("\n");
}

/** The affected questions, compactly, then the frontier summary. */
export function frontierText(investigation: Investigation, mutation: Mutation, head: string): string {
  const changed = mutation.questions.map(compactQuestion);
  const current = currentQuestion(investigation);
  const summary = renderFrontierSummary(
    investigation.frontier,
    investigation.config,
    current ? { currentId: current.id } : {},
  );
  return [head, ...changed, "", summary].join("\n");
}

export function withFrontier(investigation: Investigation, frontier: Investigation["frontier"]): Investigation {
  return { ...investigation, frontier };
}

export function frontierCtx(
  investigation: Investigation,
  ctx: ToolContext,
  actor: "agent" | "code" = ctx.actor ?? "agent",
): FrontierContext {
  return {
    now: ctx.now,
    actor,
    stateSeq: investigation.stateSeq,
    agent: investigation.agent ?? 1,
    runId: investigation.runId,
  };
}

export function parseArgs<N extends ToolName>(
  name: N,
  args: unknown,
): Result<z.infer<(typeof TOOL_SCHEMAS)[N]>, Rejection> {
  const parsed = TOOL_SCHEMAS[name].safeParse(args ?? {});
  if (parsed.success) return ok(parsed.data as z.infer<(typeof TOOL_SCHEMAS)[N]>);
  const issues = parsed.error.issues
    .slice(0, 4)
    .map((issue) => `${issue.path.join(".") || "arguments"}: ${issue.message}`)
    .join("; ");
  return err({
    rule: "arguments",
    message: `The arguments of ${name} do not fit its schema: ${issues}. Fix them and call again.`,
  });
}

/** Registers Host sources the ledger does not know yet (the Sources section lists every source used). */
export function ensureSources(
  investigation: Investigation,
  ids: readonly string[],
  ctx: ToolContext,
): Result<{ investigation: Investigation; mutation: Mutation }, Rejection> {
  let ledger = investigation.ledger;
  let mutation = EMPTY_MUTATION;
  for (const id of ids) {
    if (ledger.sources.some((source) => source.id === id)) continue;
    const host = ctx.hostSources.find((source) => source.id === id);
    if (!host) {
      const known = ctx.hostSources.map((source) => source.id).join(", ") || "none yet";
      return err({
        rule: "unknown-source",
        message: `${id} is not a source this run has read (read sources: ${known}). Cite only sources returned by a read.`,
      });
    }
    const registered = registerSource(ledger, host);
    if (!registered.ok) return registered;
    ledger = registered.value.ledger;
    mutation = mergeMutations(mutation, registered.value.mutation);
  }
  return ok({ investigation: { ...investigation, ledger }, mutation });
}

/** A source's passages for a message: `s_001.p01–s_001.p12`, or that it has none. */
function passageRange(sourceId: string, ctx: ToolContext): string {
  const chunks = ctx.hostChunks.get(sourceId) ?? [];
  if (chunks.length === 0) return `${sourceId} has no passages`;
  return chunks.length === 1 ? `${sourceId} has ${chunks[0]}` : `${sourceId} has ${chunks[0]}–${chunks.at(-1)}`;
}

/**
 * Assigns each passage id to the one of `sourceIds` whose passages (the Host's chunk catalog,
 * `ctx.hostChunks`) include it: source id → its passages, in the given order. A passage of
 * another source, or of none, is refused with what the model can do instead. Pure.
 */
export function assignPassages(
  passageIds: readonly string[],
  sourceIds: readonly string[],
  ctx: ToolContext,
): Result<Map<string, string[]>, Rejection> {
  const bySource = new Map<string, string[]>();
  for (const passageId of new Set(passageIds)) {
    const owner = sourceIds.find((sourceId) => ctx.hostChunks.get(sourceId)?.includes(passageId));
    if (owner !== undefined) {
      bySource.set(owner, [...(bySource.get(owner) ?? []), passageId]);
      continue;
    }
    const listed = sourceIds.length === 0 ? "none" : sourceIds.join(", ");
    const elsewhere = [...ctx.hostChunks].find(([, chunks]) => chunks.includes(passageId))?.[0];
    const message =
      elsewhere === undefined
        ? `${passageId} is not a passage of any source this run has read; cite passages of the finding's sources (${sourceIds.map((sourceId) => passageRange(sourceId, ctx)).join("; ") || "none given"}).`
        : `${passageId} is a passage of ${elsewhere}, which is not among the finding's sources (${listed}): add ${elsewhere} to its sources or drop the passage.`;
    return err({ rule: "passage", message });
  }
  return ok(bySource);
}

/** Reopens every resolved question whose answer cites `claimId` (a refuted claim), by code. */
export function reopenCiting(investigation: Investigation, claimId: string, causedBy: string, ctx: ToolContext) {
  let current = investigation;
  let mutation = EMPTY_MUTATION;
  const reopened: string[] = [];
  for (const question of questionsCiting(claimId, current.frontier.questions)) {
    const result = reopenQuestion(
      current.frontier,
      { id: question.id, why: `its answer cites ${claimId}, which was refuted`, causedBy, trigger: "contradiction" },
      frontierCtx(current, ctx, "code"),
    );
    if (!result.ok) continue;
    current = withFrontier(current, result.value.frontier);
    mutation = mergeMutations(mutation, result.value.mutation);
    reopened.push(question.id);
  }
  return { investigation: current, mutation, reopened };
}

/** The deepest of the current question and its ancestors where a child still fits under the depth cap. */
export function spawnParent(investigation: Investigation, preferred: string | null): string {
  let id = preferred ?? currentQuestion(investigation)?.id ?? ROOT_QUESTION_ID;
  for (;;) {
    const question = findQuestion(investigation.frontier, id);
    if (!question || question.parentId === null) return ROOT_QUESTION_ID;
    if (question.depth + 1 <= investigation.config.maxDepth && question.status !== "pruned") return id;
    id = question.parentId;
  }
}

/** Spawns the high-priority question that resolves a contradiction (seed 000 "Claims and cross-checking"). */
export function spawnContradictionQuestion(
  investigation: Investigation,
  input: { question: string; parentId: string | null; causedBy: string; priority: number },
  ctx: ToolContext,
) {
  const parentId = spawnParent(investigation, input.parentId);
  const parent = findQuestion(investigation.frontier, parentId);
  return addQuestion(
    investigation.frontier,
    {
      parentId,
      question: input.question,
      rationale: "A contradiction between recorded findings must be resolved before moving on.",
      priority: Math.max(input.priority, parent?.priority ?? 0),
      validationCriteria:
        "Evidence from an independent source that settles which statement holds, or under which conditions each does.",
      targetSources: [],
      causedBy: input.causedBy,
    },
    investigation.config,
    frontierCtx(investigation, ctx, "code"),
  );
}

export const claimLine = (claim: Claim): string =>
  `[${claim.id}] ${claim.status}  ${claim.kind === "datapoint" ? `${claim.value} ${claim.unit} | ` : ""}${claim.text}`;

export type Handler = (investigation: Investigation, args: never, ctx: ToolContext) => Step;

export function frontierStep(
  investigation: Investigation,
  result: Result<{ frontier: Investigation["frontier"]; mutation: Mutation }, Rejection>,
  head: string,
): Step {
  if (!result.ok) return result;
  const next = withFrontier(investigation, result.value.frontier);
  return ok({
    investigation: next,
    mutation: result.value.mutation,
    text: frontierText(next, result.value.mutation, head),
  });
}

/** Handlers of some tools: each decides one call on parsed arguments. */
export type Handlers<K extends ToolName> = {
  [N in K]: (investigation: Investigation, args: z.infer<(typeof TOOL_SCHEMAS)[N]>, ctx: ToolContext) => Step;
};
