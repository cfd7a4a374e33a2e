/**
 * The investigative tools as pure decisions (seed 000 "Frontier tools", "Working state",
 * "Claims and cross-checking", "Adversarial queries"): `decide(investigation, call, ctx)`
 * parses the arguments, applies the rules of the frontier, the ledger and the challenges,
 * composes their consequences (a refuted claim reopens the questions that cite it and spawns
 * a contradiction question), re-renders notes.md when it changed, and returns the new value,
 * the rows to persist in one transaction, and the compact text the model reads. A refused
 * call changes nothing and says which rule refused it and what to do instead.
 */
import type { z } from "zod";
import { err, ok, type Result } from "../result.js";
import {
  type ChallengeConsequence,
  challengesOn,
  openChallenges,
  recordChallengeResult,
  registerChallenge,
  renderChallenges,
  validateChallenge,
} from "./challenges.js";
import {
  addQuestion,
  attemptsOf,
  declareAtomic,
  type FrontierContext,
  findQuestion,
  frontierNext,
  pruneBranch,
  ROOT_QUESTION_ID,
  reopenQuestion,
  resolveQuestion,
  retryQuestion,
  setPriority,
} from "./frontier.js";
import { renderFrontierSummary } from "./frontier-summary.js";
import { addContradiction, appendClaim, linkSource, questionsCiting, registerSource, updateClaim } from "./ledger.js";
import { renderNotes } from "./notes.js";
import { TOOL_SCHEMAS, type ToolName } from "./tool-schemas.js";
import {
  type Challenge,
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
}

export interface ToolOutcome {
  investigation: Investigation;
  mutation: Mutation;
  /** The compact summary the model reads. */
  text: string;
}

type Step = Result<{ investigation: Investigation; mutation: Mutation; text: string }, Rejection>;

const reject = (rule: string, message: string): Step => err({ rule, message });

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

/** The question being worked on: the one in progress, if any. */
export function currentQuestion(investigation: Investigation): Question | undefined {
  return investigation.frontier.questions.find((question) => question.status === "in_progress");
}

const compactQuestion = (question: Question): string =>
  `[${question.id}] ${question.status} (P ${question.priority.toFixed(2)}, depth ${question.depth}${
    question.kind === "hypothesis" ? ", hypothesis" : ""
  }) ${question.question}${question.answer ? ` — ${question.answer}` : ""}`;

function questionDetail(investigation: Investigation, question: Question): string {
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
function frontierText(investigation: Investigation, mutation: Mutation, head: string): string {
  const changed = mutation.questions.map(compactQuestion);
  const current = currentQuestion(investigation);
  const summary = renderFrontierSummary(
    investigation.frontier,
    investigation.config,
    current ? { currentId: current.id } : {},
  );
  return [head, ...changed, "", summary].join("\n");
}

function withFrontier(investigation: Investigation, frontier: Investigation["frontier"]): Investigation {
  return { ...investigation, frontier };
}

function frontierCtx(
  investigation: Investigation,
  ctx: ToolContext,
  actor: "agent" | "code" = "agent",
): FrontierContext {
  return { now: ctx.now, actor, stateSeq: investigation.stateSeq };
}

function parseArgs<N extends ToolName>(name: N, args: unknown): Result<z.infer<(typeof TOOL_SCHEMAS)[N]>, Rejection> {
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
function ensureSources(
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

/** Reopens every resolved question whose answer cites `claimId` (a refuted claim), by code. */
function reopenCiting(investigation: Investigation, claimId: string, causedBy: string, ctx: ToolContext) {
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
function spawnParent(investigation: Investigation, preferred: string | null): string {
  let id = preferred ?? currentQuestion(investigation)?.id ?? ROOT_QUESTION_ID;
  for (;;) {
    const question = findQuestion(investigation.frontier, id);
    if (!question || question.parentId === null) return ROOT_QUESTION_ID;
    if (question.depth + 1 <= investigation.config.maxDepth && question.status !== "pruned") return id;
    id = question.parentId;
  }
}

/** Spawns the high-priority question that resolves a contradiction (seed 000 "Claims and cross-checking"). */
function spawnContradictionQuestion(
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

const claimLine = (claim: Claim): string =>
  `[${claim.id}] ${claim.status}  ${claim.kind === "datapoint" ? `${claim.value} ${claim.unit} | ` : ""}${claim.text}`;

type Handler = (investigation: Investigation, args: never, ctx: ToolContext) => Step;

function frontierStep(
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

const HANDLERS: {
  [N in ToolName]: (investigation: Investigation, args: z.infer<(typeof TOOL_SCHEMAS)[N]>, ctx: ToolContext) => Step;
} = {
  frontier_next(investigation, _args, ctx) {
    const result = frontierNext(investigation.frontier, investigation.config, frontierCtx(investigation, ctx));
    if (!result.ok) return result;
    const next = withFrontier(investigation, result.value.frontier);
    return ok({
      investigation: next,
      mutation: result.value.mutation,
      text: `Work on this question now; act to satisfy its criteria.\n${questionDetail(next, result.value.question)}`,
    });
  },

  frontier_view(investigation, args) {
    if (args.id !== undefined) {
      const question = findQuestion(investigation.frontier, args.id);
      if (!question)
        return reject("unknown-question", `There is no question ${args.id}; frontier_view without an id lists them.`);
      return ok({ investigation, mutation: EMPTY_MUTATION, text: questionDetail(investigation, question) });
    }
    const rows = investigation.frontier.questions.filter(
      (question) => args.status === undefined || question.status === args.status,
    );
    const text =
      rows.length > 0 ? rows.map(compactQuestion).join("\n") : `No ${args.status ?? ""} questions.`.replace("  ", " ");
    return ok({ investigation, mutation: EMPTY_MUTATION, text });
  },

  add_question(investigation, args, ctx) {
    const result = addQuestion(
      investigation.frontier,
      {
        parentId: args.parent_id,
        question: args.question,
        rationale: args.rationale,
        priority: args.priority,
        validationCriteria: args.validation_criteria,
        targetSources: args.target_sources,
        ...(args.depends_on ? { dependsOn: args.depends_on } : {}),
        ...(args.kind ? { kind: args.kind } : {}),
        ...(args.blocks_parent ? { unblocksParent: true } : {}),
      },
      investigation.config,
      frontierCtx(investigation, ctx),
    );
    return frontierStep(investigation, result, "Added.");
  },

  declare_atomic(investigation, args, ctx) {
    return frontierStep(
      investigation,
      declareAtomic(investigation.frontier, args.reason, frontierCtx(investigation, ctx)),
      "The objective is declared atomic: call frontier_next.",
    );
  },

  retry_question(investigation, args, ctx) {
    const result = retryQuestion(
      investigation.frontier,
      {
        id: args.id,
        newQuery: args.new_query,
        why: args.why,
        ...(args.assumption ? { assumption: args.assumption } : {}),
      },
      investigation.config,
      frontierCtx(investigation, ctx),
    );
    return frontierStep(investigation, result, "Attempt recorded.");
  },

  resolve_question(investigation, args, ctx) {
    const question = findQuestion(investigation.frontier, args.id);
    if (!question) return reject("unknown-question", `There is no question ${args.id}.`);
    for (const claimId of args.claim_ids) {
      const claim = investigation.ledger.claims.find((row) => row.id === claimId);
      if (!claim)
        return reject("unknown-claim", `${claimId} is not a recorded claim; record it with notes_append first.`);
      if (claim.status === "REFUTED" || claim.status === "RETRACTED") {
        return reject(
          "claim-status",
          `${claimId} is ${claim.status}: an answer cannot rest on it. Cite other claims or retry the question.`,
        );
      }
    }
    if (question.depth <= 1 && args.reason === undefined) {
      const challenged = challengesOn(investigation.challenges, "question_answer", question.id).some(
        (challenge) => challenge.status === "closed" && challenge.outcome !== "refuted",
      );
      if (!challenged) {
        return reject(
          "answer-challenge",
          `${question.id} is at depth ${question.depth}: its answer carries the conclusion and must survive a challenge first (challenge with target_type question_answer, run the query, record_challenge_result), or give a reason.`,
        );
      }
    }
    const result = resolveQuestion(
      investigation.frontier,
      { id: args.id, answer: args.answer, claimIds: args.claim_ids, ...(args.reason ? { reason: args.reason } : {}) },
      frontierCtx(investigation, ctx),
    );
    return frontierStep(investigation, result, "Resolved.");
  },

  reopen_question(investigation, args, ctx) {
    const result = reopenQuestion(
      investigation.frontier,
      { id: args.id, why: args.why, ...(args.priority === undefined ? {} : { priority: args.priority }) },
      frontierCtx(investigation, ctx),
    );
    return frontierStep(investigation, result, "Reopened.");
  },

  set_priority(investigation, args, ctx) {
    return frontierStep(
      investigation,
      setPriority(investigation.frontier, args, frontierCtx(investigation, ctx)),
      "Priority set.",
    );
  },

  prune_branch(investigation, args, ctx) {
    return frontierStep(
      investigation,
      pruneBranch(investigation.frontier, args, frontierCtx(investigation, ctx)),
      "Pruned.",
    );
  },

  notes_append(investigation, args, ctx) {
    let current = investigation;
    let mutation = EMPTY_MUTATION;
    const lines: string[] = [];
    const questionId = currentQuestion(investigation)?.id ?? null;
    for (const [index, entry] of args.entries.entries()) {
      const where = `entry ${index + 1}`;
      const fail = (rejection: Rejection): Step =>
        err({ rule: rejection.rule, message: `${where}: ${rejection.message} Nothing was appended.` });
      if (args.section === "unverified" || args.section === "datapoints") {
        const sources = ensureSources(current, entry.source_ids ?? [], ctx);
        if (!sources.ok) return fail(sources.error);
        const appended = appendClaim(
          sources.value.investigation.ledger,
          {
            kind: args.section === "datapoints" ? "datapoint" : "claim",
            text: entry.text ?? "",
            ...(entry.value ? { value: entry.value } : {}),
            ...(entry.unit ? { unit: entry.unit } : {}),
            questionId: entry.question_id ?? questionId,
            sourceIds: entry.source_ids ?? [],
            ...(entry.check ? { check: entry.check } : {}),
          },
          { now: ctx.now, actor: "agent" },
        );
        if (!appended.ok) return fail(appended.error);
        current = { ...sources.value.investigation, ledger: appended.value.ledger };
        mutation = mergeMutations(mergeMutations(mutation, sources.value.mutation), appended.value.mutation);
        lines.push(claimLine(appended.value.claim));
      } else if (args.section === "sources") {
        const host = ctx.hostSources.find((source) => source.id === entry.source_id);
        if (!host)
          return fail({
            rule: "unknown-source",
            message: `${entry.source_id ?? "(no source_id)"} is not a source this run has read.`,
          });
        const registered = registerSource(current.ledger, { ...host, note: entry.note ?? host.note });
        if (!registered.ok) return fail(registered.error);
        current = { ...current, ledger: registered.value.ledger };
        mutation = mergeMutations(mutation, registered.value.mutation);
        lines.push(`[${host.id}] ${host.title}${entry.note ? ` — ${entry.note}` : ""}`);
      } else {
        if (!entry.claim_id || !entry.other_claim_id) {
          return fail({ rule: "contradiction", message: "A contradiction names claim_id and other_claim_id." });
        }
        const spawned = spawnContradictionQuestion(
          current,
          {
            question: `Which holds: ${entry.claim_id} or ${entry.other_claim_id}?${entry.text ? ` ${entry.text}` : ""}`,
            parentId: questionId,
            causedBy: entry.claim_id,
            priority: 0.9,
          },
          ctx,
        );
        if (!spawned.ok) return fail(spawned.error);
        const added = addContradiction(current.ledger, entry.claim_id, entry.other_claim_id, spawned.value.question.id);
        if (!added.ok) return fail(added.error);
        current = { ...withFrontier(current, spawned.value.frontier), ledger: added.value.ledger };
        mutation = mergeMutations(mergeMutations(mutation, spawned.value.mutation), added.value.mutation);
        lines.push(
          `${entry.claim_id} vs ${entry.other_claim_id} -> ${spawned.value.question.id} (P ${spawned.value.question.priority.toFixed(2)})`,
        );
      }
    }
    return ok({ investigation: current, mutation, text: `Appended to ${args.section}:\n${lines.join("\n")}` });
  },

  notes_update(investigation, args, ctx) {
    const claim = investigation.ledger.claims.find((row) => row.id === args.id);
    if (!claim) return reject("unknown-claim", `${args.id} is not a recorded claim or datapoint.`);
    let current = investigation;
    let mutation = EMPTY_MUTATION;
    if (args.add_source) {
      const sources = ensureSources(current, [args.add_source.source_id], ctx);
      if (!sources.ok) return sources;
      current = sources.value.investigation;
      mutation = sources.value.mutation;
    }
    const updated = updateClaim(
      current.ledger,
      current.challenges,
      {
        id: args.id,
        ...(args.status ? { status: args.status } : {}),
        ...(args.add_source
          ? { addSource: { sourceId: args.add_source.source_id, stance: args.add_source.stance } }
          : {}),
        ...(args.independence ? { independence: args.independence } : {}),
        ...(args.reason ? { retractReason: args.reason } : {}),
      },
      current.config,
      { now: ctx.now, actor: "agent" },
    );
    if (!updated.ok) return updated;
    current = { ...current, ledger: updated.value.ledger };
    mutation = mergeMutations(mutation, updated.value.mutation);
    const lines = [claimLine(updated.value.claim)];
    if (updated.value.refuted) {
      const reopened = reopenCiting(current, args.id, args.id, ctx);
      current = reopened.investigation;
      mutation = mergeMutations(mutation, reopened.mutation);
      if (reopened.reopened.length > 0)
        lines.push(`Reopened by code (they cite ${args.id}): ${reopened.reopened.join(", ")}`);
    }
    return ok({ investigation: current, mutation, text: lines.join("\n") });
  },

  notes_scratch(investigation, args) {
    return ok({
      investigation: { ...investigation, scratch: args.text },
      mutation: EMPTY_MUTATION,
      text: `Scratch replaced (${args.text.length} characters).`,
    });
  },

  challenge(investigation, args, ctx) {
    const question = currentQuestion(investigation);
    const valid = validateChallenge(
      {
        targetType: args.target_type,
        ...(args.target_id === undefined ? {} : { targetId: args.target_id }),
        negation: args.negation,
        strategy: args.strategy,
        expectedIfFalse: args.expected_if_false,
        query: args.query,
        questionId: question?.id ?? null,
      },
      {
        challenges: investigation.challenges,
        claims: investigation.ledger.claims,
        questions: investigation.frontier.questions,
        attemptQueries: question ? attemptsOf(investigation.frontier, question.id).map((attempt) => attempt.query) : [],
        ...(investigation.scratch.trim() ? { conclusion: investigation.scratch } : {}),
        config: investigation.config,
      },
    );
    if (!valid.ok) return valid;
    const registered = registerChallenge(investigation.challenges, valid.value, { now: ctx.now, actor: "agent" });
    if (!registered.ok) return registered;
    const challenge = registered.value.challenge;
    return ok({
      investigation: { ...investigation, challenges: registered.value.challenges },
      mutation: registered.value.mutation,
      text: `Registered ${challenge.id} (open). Now run its query with a search: "${challenge.query}", then call record_challenge_result.`,
    });
  },

  record_challenge_result(investigation, args, ctx) {
    const recorded = recordChallengeResult(
      investigation.challenges,
      {
        challengeId: args.challenge_id,
        outcome: args.outcome,
        evidence: args.evidence,
        sourceIds: args.source_ids,
        ...(args.result_claim_id ? { resultClaimId: args.result_claim_id } : {}),
      },
      { sourceIds: ctx.hostSources.map((source) => source.id), claims: investigation.ledger.claims },
      { now: ctx.now, actor: "agent" },
    );
    if (!recorded.ok) return recorded;
    const sources = ensureSources(investigation, args.source_ids, ctx);
    if (!sources.ok) return sources;
    let current: Investigation = { ...sources.value.investigation, challenges: recorded.value.challenges };
    let mutation = mergeMutations(sources.value.mutation, recorded.value.mutation);
    const lines = [renderChallenges([recorded.value.challenge])];
    for (const consequence of recorded.value.consequences) {
      const applied = applyConsequence(current, consequence, ctx);
      if (!applied.ok) return applied;
      current = applied.value.investigation;
      mutation = mergeMutations(mutation, applied.value.mutation);
      if (applied.value.text) lines.push(applied.value.text);
    }
    return ok({ investigation: current, mutation, text: lines.join("\n") });
  },

  challenges_view(investigation, args) {
    const filter = {
      ...(args.target_id === undefined ? {} : { targetId: args.target_id }),
      ...(args.status === undefined ? {} : { status: args.status }),
    };
    return ok({ investigation, mutation: EMPTY_MUTATION, text: renderChallenges(investigation.challenges, filter) });
  },
};

function applyConsequence(investigation: Investigation, consequence: ChallengeConsequence, ctx: ToolContext): Step {
  const claimCtx = { now: ctx.now, actor: "code" as const };
  switch (consequence.kind) {
    case "refute-claim": {
      let ledger = investigation.ledger;
      let mutation = EMPTY_MUTATION;
      for (const sourceId of consequence.sourceIds) {
        if (ledger.claimSources.some((link) => link.claimId === consequence.claimId && link.sourceId === sourceId))
          continue;
        const linked = linkSource(ledger, consequence.claimId, sourceId, "contradicts");
        if (!linked.ok) return linked;
        ledger = linked.value.ledger;
        mutation = mergeMutations(mutation, linked.value.mutation);
      }
      const updated = updateClaim(
        ledger,
        investigation.challenges,
        { id: consequence.claimId, status: "REFUTED" },
        investigation.config,
        claimCtx,
      );
      if (!updated.ok) return updated;
      return ok({
        investigation: { ...investigation, ledger: updated.value.ledger },
        mutation: mergeMutations(mutation, updated.value.mutation),
        text: `${consequence.claimId} is now REFUTED.`,
      });
    }
    case "add-contradiction": {
      const added = addContradiction(investigation.ledger, consequence.claimId, consequence.otherClaimId, "");
      if (!added.ok) return added;
      return ok({
        investigation: { ...investigation, ledger: added.value.ledger },
        mutation: added.value.mutation,
        text: `Contradiction: ${consequence.claimId} vs ${consequence.otherClaimId}.`,
      });
    }
    case "spawn-question": {
      const spawned = spawnContradictionQuestion(investigation, consequence, ctx);
      if (!spawned.ok) {
        return ok({
          investigation,
          mutation: EMPTY_MUTATION,
          text: `No question was spawned (${spawned.error.message}); record the contradiction in Scratch.`,
        });
      }
      return ok({
        investigation: withFrontier(investigation, spawned.value.frontier),
        mutation: spawned.value.mutation,
        text: `Spawned ${spawned.value.question.id} (P ${spawned.value.question.priority.toFixed(2)}): ${spawned.value.question.question}`,
      });
    }
    case "reopen-citing": {
      const reopened = reopenCiting(investigation, consequence.claimId, consequence.causedBy, ctx);
      return ok({
        investigation: reopened.investigation,
        mutation: reopened.mutation,
        text:
          reopened.reopened.length > 0
            ? `Reopened by code (they cite ${consequence.claimId}): ${reopened.reopened.join(", ")}`
            : "",
      });
    }
    case "amend-claim": {
      const updated = updateClaim(
        investigation.ledger,
        investigation.challenges,
        { id: consequence.claimId, amendText: consequence.scope },
        investigation.config,
        claimCtx,
      );
      if (!updated.ok) return updated;
      return ok({
        investigation: { ...investigation, ledger: updated.value.ledger },
        mutation: updated.value.mutation,
        text: `Amended: ${claimLine(updated.value.claim)}`,
      });
    }
    case "reopen-question": {
      const reopened = reopenQuestion(
        investigation.frontier,
        {
          id: consequence.questionId,
          why: consequence.reason,
          causedBy: consequence.causedBy,
          trigger: "contradiction",
        },
        frontierCtx(investigation, ctx, "code"),
      );
      if (!reopened.ok)
        return ok({
          investigation,
          mutation: EMPTY_MUTATION,
          text: `${consequence.questionId} was not reopened: ${reopened.error.message}`,
        });
      return ok({
        investigation: withFrontier(investigation, reopened.value.frontier),
        mutation: reopened.value.mutation,
        text: `Reopened ${consequence.questionId}.`,
      });
    }
    case "note":
      return ok({ investigation, mutation: EMPTY_MUTATION, text: consequence.text });
    case "continue-exploration":
      return ok({ investigation, mutation: EMPTY_MUTATION, text: `Exploration continues: ${consequence.reason}` });
  }
}

/** The notes text of an investigation (the rendered working copy). */
export function notesText(investigation: Investigation): string {
  return renderNotes({
    objective: investigation.frontier.objective,
    ledger: investigation.ledger,
    frontier: investigation.frontier,
    scratch: investigation.scratch,
  });
}

const NOTES_REASON: Partial<Record<ToolName, NonNullable<Mutation["notes"]>["reason"]>> = {
  notes_append: "notes_append",
  notes_update: "notes_update",
  notes_scratch: "notes_scratch",
};

/**
 * Decides one tool call. On success, the mutation carries a notes version whenever the
 * rendered notes changed (in the same transaction as the rows that changed them).
 */
export function decide(investigation: Investigation, call: ToolCall, ctx: ToolContext): Result<ToolOutcome, Rejection> {
  if (!Object.hasOwn(TOOL_SCHEMAS, call.name)) {
    return err({
      rule: "unknown-tool",
      message: `There is no tool "${call.name}". Tools: ${Object.keys(TOOL_SCHEMAS).join(", ")}.`,
    });
  }
  const name = call.name as ToolName;
  const args = parseArgs(name, call.args);
  if (!args.ok) return args;
  const handler = HANDLERS[name] as unknown as Handler;
  const step = handler(investigation, args.value as never, ctx);
  if (!step.ok) return step;
  const before = notesText(investigation);
  const after = notesText(step.value.investigation);
  const mutation =
    before === after
      ? step.value.mutation
      : { ...step.value.mutation, notes: { text: after, reason: NOTES_REASON[name] ?? "frontier" } };
  return ok({ investigation: step.value.investigation, mutation, text: step.value.text });
}

/** Open challenges, for the summary the prompt shows (so the agent cannot forget one). */
export function openChallengeLines(challenges: readonly Challenge[]): string {
  const open = openChallenges(challenges);
  return open.length === 0 ? "" : `Open challenges: ${open.map((challenge) => challenge.id).join(", ")}`;
}
