/**
 * The offline engine's investigative turn: fixed rules over the loop's state (`ActState`)
 * instead of a prompt. Pure and deterministic: the same state gives the same turn.
 *
 * The engine expands the objective into facets, searches each, records the best sentences of
 * what it reads as UNVERIFIED claims, challenges a question's lead claim with a distinct
 * query, verifies it when an independent document states it too and the challenge survived,
 * resolves the question or gives up after `max_attempts`, then writes the report from the
 * ledger. The rules, in order; the first that yields an admissible call wins:
 *
 * 1. synthesis: `finalize_report` (investigative-report.ts: the claims by relevance to the
 *    objective within VERIFIED and UNVERIFIED; with no live claim, a report of gaps only); should the gate still refuse it, `notes_read`
 *    once, then a turn without a call (there is nothing a report could cite);
 * 2. consolidation turn: retract later near-duplicate claims nothing cites, else clear Scratch;
 * 3. extraction (a forced turn, or a page of the previous turn not extracted yet;
 *    investigative-extraction.ts): a page that states a recorded claim becomes its second
 *    source; the turn's best sentences for the current question and the objective (ranked
 *    across its pages) become claims of that question, then of the other open ones; or a page
 *    is noted "read, nothing relevant";
 * 4. root not expanded: `add_question` per facet (`objectiveFacets`); with fewer than 2,
 *    `declare_atomic`;
 * 5. hits of the previous search not read yet: `fetch_page` the first two;
 * 6. an open challenge whose query has not run: `search` it (rules 6, 7, 8, 10: investigative-claims.ts);
 * 7. an open challenge that ran: its verdict (survived with an independent source, else
 *    inconclusive), then VERIFIED when the core allows it;
 * 8. a claim the core would accept as VERIFIED: `notes_update` it;
 * 9. the current question holds claims read for other questions but was never searched for
 *    itself: `search` its focus;
 * 10. the current question's lead claim (of the claims its text names, else of its own, the
 *    most relevant to the question and the objective): `challenge` it with a strategy not used
 *    on it and `search` the query in one turn, while it has challenges and the question
 *    attempts left, and its last challenge read something new; then, the same way, a claim
 *    already stated by independent sources (its challenge can verify it);
 * 11. the current question has claims: `resolve_question`;
 * 12. the current question has none: `search` a query not tried yet, or `retry_question`
 *     with an assumption at the last attempt (it becomes unresolvable);
 * 13. nothing applies: a question in progress is given up (`retry_question` with an
 *     assumption); else `frontier_next`, `finish_exploration` on an exhausted frontier, or
 *     `notes_read`.
 *
 * Every plan is checked against the core's own decisions (`decide`) before it is proposed,
 * and a call the loop refused on the previous turn is never repeated as it was: either way
 * the next rule applies.
 */

import { bridgeQueries, sentencesRead } from "../../../core/answer/answer.js";
import { normalizeQuery } from "../../../core/investigative/challenges.js";
import { finalizationGate } from "../../../core/investigative/final-report.js";
import {
  attemptCount,
  attemptsOf,
  findQuestion,
  isDeclaredAtomic,
  normalizeQuestion,
  ROOT_QUESTION_ID,
  selectNext,
} from "../../../core/investigative/frontier.js";
import { frontierExhausted } from "../../../core/investigative/gates.js";
import { supportingKeys } from "../../../core/investigative/ledger.js";
import type { ActState } from "../../../core/investigative/loop-tools.js";
import type { Claim, Question } from "../../../core/investigative/types.js";
import type { Judge } from "../../../core/judgment/judge.js";
import { namesIn } from "../../../core/lexicon.js";
import { readerLine } from "../../../core/text.js";
import type { ActTurn } from "../../../ports/model.js";
import { englishJudge } from "../../language/english-judge.js";
import { challengePlan, challengeRunPlan, consolidationPlan, verdictPlan, verifyPlan } from "./investigative-claims.js";
import {
  admissibleCalls,
  byRelevance,
  callKey,
  can,
  disputedClaim,
  leadClaim,
  liveClaims,
  mentioningFocus,
  namedClaims,
  type Plan,
  type ProposedCall,
  questionQuery,
  type RuleContext,
  rankedClaims,
  ruleContext,
  supportingSources,
  workClaims,
} from "./investigative-context.js";
import { facetQuestion, focusOf, objectiveFacets, packetOf, questionQueries } from "./investigative-evidence.js";
import { extractedAlready, extractionPlan } from "./investigative-extraction.js";
import { offlineFinalReport } from "./investigative-report.js";
import { requestQueries } from "./query-expansion.js";
import { profileRequest } from "./request.js";

/** Facets of the objective the root is expanded into, at most. */
const MAX_FACETS = 8;
/**
 * Hits read after one search, at most. Two: under a small page budget a third hit of the same
 * search (a third Cotula for "the Pterocarya or the Cotula") spends the page the other name or a
 * bridge needs (HotpotQA train100, 5 pages: gold-document recall 84.5% with three, 85.0% with
 * two; the answer in the first finding 52.7% and 56.0%).
 */
const READS_PER_TURN = 2;
/** Calls the loop runs per turn (it refuses the rest). */
const MAX_CALLS_PER_TURN = 8;
/** Tools a forced turn can call without arguments when no rule produced them. */
const NO_ARGUMENTS = new Set(["notes_read", "finish_exploration", "frontier_next", "frontier_view", "challenges_view"]);

type Rule = (context: RuleContext) => Plan | undefined;

// ---------------------------------------------------------------------------------------------
// Synthesis

function synthesisPlan(context: RuleContext): Plan | undefined {
  const { investigation } = context;
  const report = offlineFinalReport(investigation, context.judge);
  const hostSourceIds = investigation.ledger.sources.map((source) => source.id);
  if (finalizationGate(investigation, report, hostSourceIds).passed) {
    return {
      text: `Report: ${report.items.length} item(s), ${report.gaps.length} gap(s).`,
      calls: [{ name: "finalize_report", args: report }],
    };
  }
  if (context.state.lastResults.some((result) => result.name === "notes_read")) return undefined;
  return { text: "The report does not pass the gate: reading the notes.", calls: [{ name: "notes_read", args: {} }] };
}

// ---------------------------------------------------------------------------------------------
// Exploration

/** The pages of this turn to extract: the forced ones, or the visible pages not extracted yet. */
function extractionRule(context: RuleContext): Plan | undefined {
  const { state, investigation } = context;
  if (state.mode.kind === "extraction") return extractionPlan(context, state.pendingPages, state.mode.questionId);
  const pages = context.pages.filter((page) => !page.alreadyRead && !extractedAlready(investigation, page));
  return pages.length === 0 ? undefined : extractionPlan(context, pages, context.question?.id);
}

function expansionPlan(context: RuleContext): Plan | undefined {
  const { investigation } = context;
  const { frontier, config } = investigation;
  const root = findQuestion(frontier, ROOT_QUESTION_ID);
  if (!root || (root.status !== "pending" && root.status !== "in_progress")) return undefined;
  if (frontier.rootAtomic || isDeclaredAtomic(frontier.questions)) return undefined;
  if (frontier.questions.some((question) => question.parentId === ROOT_QUESTION_ID)) return undefined;
  const room = Math.min(MAX_FACETS, config.maxQuestions - frontier.questions.length);
  const found = objectiveFacets(frontier.objective, room);
  const facets = found;
  const expand = facets.length >= 2;
  if (expand && config.maxDepth >= 1 && can(context, "add_question")) {
    const objective = readerLine(frontier.objective, 300);
    return {
      text: `Broad expansion: ${facets.length} facets.`,
      calls: facets.map((facet, index) => ({
        name: "add_question",
        args: {
          parent_id: ROOT_QUESTION_ID,
          question: facetQuestion(facet, frontier.objective),
          rationale: `A facet of the objective ("${objective}") the sources may state on its own.`,
          priority: Math.max(0.1, Math.round((0.9 - 0.1 * index) * 100) / 100),
          validation_criteria: `A passage that states something specific about ${facet}.`,
          target_sources: [],
        },
      })),
    };
  }
  const named = facets[0] ? `it names one thing to find (${facets[0]})` : "it names no separate facet";
  return {
    text: "The objective is atomic.",
    calls: [{ name: "declare_atomic", args: { reason: `The objective is one question: ${named}.` } }],
  };
}

function fetchPlan(context: RuleContext): Plan | undefined {
  const { state, investigation } = context;
  const wanted = Math.min(READS_PER_TURN, state.readsLeft);
  if (wanted <= 0) return undefined;
  // Read before: a ledger source, a visible page, or a hit anchor a fetch_page attempt logged.
  const read = new Set([
    ...investigation.ledger.sources.map((source) => source.location),
    ...context.pages.map((page) => page.location),
    ...investigation.frontier.attempts.filter((attempt) => attempt.tool === "fetch_page").map((a) => a.query),
  ]);
  const hits = state.lastResults
    .filter((result) => result.name === "search" && result.ok)
    .flatMap((result) => result.hits ?? [])
    .filter((hit) => {
      if (read.has(hit.location)) return false;
      read.add(hit.location);
      return true;
    })
    .slice(0, wanted);
  if (hits.length === 0) return undefined;
  return {
    text: `Reading ${hits.map((hit) => hit.handle).join(", ")}.`,
    calls: hits.map((hit) => ({ name: "fetch_page", args: { hit: hit.handle } })),
  };
}

function resolvePlan(context: RuleContext): Plan | undefined {
  const { investigation, question } = context;
  if (!question) return undefined;
  const verified = byRelevance(
    investigation,
    workClaims(investigation, question).filter((claim) => claim.status === "VERIFIED"),
    questionQuery(investigation, question),
  );
  const lead = leadClaim(investigation, question);
  // Without a VERIFIED claim, the lead and the claims independent origins already state (the
  // final verification check queues the UNVERIFIED claims an answer cites).
  const sourced = rankedClaims(investigation, question).filter(
    (claim) =>
      claim.id !== lead?.id &&
      claim.status === "UNVERIFIED" &&
      supportingKeys(investigation.ledger, claim.id).length >= investigation.config.minIndependentSources,
  );
  const cited = verified.length > 0 ? verified.slice(0, 20) : lead ? [lead, ...sourced].slice(0, BORROWED_CLAIMS) : [];
  const first = cited[0];
  if (!first) return undefined;
  const ids = cited.map((claim) => claim.id).join(", ");
  let reason: string | undefined;
  if (verified.length === 0) {
    const sources = supportingSources(investigation, first.id);
    const challenges = investigation.challenges.filter((known) => known.targetId === first.id).length;
    const tested =
      challenges === 0
        ? "it could not be challenged"
        : `${challenges} challenge(s) found no further independent source`;
    reason =
      `Only ${sources.join(" and ")} ${sources.length === 1 ? "states" : "state"} ${first.id} among the sources read; ` +
      `${tested}, so UNVERIFIED is the best available.`;
  } else if (question.depth <= 1 || question.kind === "hypothesis") {
    reason = `The answer quotes ${ids}, VERIFIED: independent documents state it and its challenge survived; the offline engine challenges claims, not answers.`;
  }
  return resolveTurn(question.id, cited, `Resolving ${question.id} with ${ids}.`, reason);
}

/** A turn that resolves question `id` with `cited` (the first one's words as the answer), saying why. */
function resolveTurn(id: string, cited: readonly Claim[], text: string, reason: string | undefined): Plan {
  const ids = cited.map((claim) => claim.id).join(", ");
  return {
    text,
    calls: [
      {
        name: "resolve_question",
        args: {
          id,
          answer: `${readerLine(cited[0]?.text ?? "", 900)} [${ids}]`,
          claim_ids: cited.map((claim) => claim.id),
          ...(reason ? { reason: reason.slice(0, 500) } : {}),
        },
      },
    ],
  };
}

/**
 * A question with claims recorded from pages read for other questions, but never searched
 * for itself (no search but its challenges' queries): its own search first, so its answer
 * does not rest on what other searches happened to bring.
 */
function ownSearchPlan(context: RuleContext): Plan | undefined {
  const { investigation, question, state } = context;
  if (!question || namedClaims(investigation, question).length > 0) return undefined;
  if (!can(context, "search") || state.searchesLeft <= 0) return undefined;
  const claims = workClaims(investigation, question);
  if (claims.length === 0 || claims.some((claim) => claim.status === "VERIFIED")) return undefined;
  const challengeQueries = new Set(investigation.challenges.map((challenge) => normalizeQuery(challenge.query)));
  const attempts = attemptsOf(investigation.frontier, question.id);
  const searched = attempts.some(
    (attempt) => attempt.tool === "search" && !challengeQueries.has(normalizeQuery(attempt.query)),
  );
  if (searched || attemptCount(investigation.frontier, question.id) + 1 >= investigation.config.maxAttempts) {
    return undefined;
  }
  const tried = new Set(attempts.map((attempt) => normalizeQuestion(attempt.query)));
  const query = questionQueries(question, investigation.frontier.objective).find(
    (candidate) => !tried.has(normalizeQuestion(candidate)),
  );
  return query === undefined
    ? undefined
    : { text: `Searching for ${question.id} itself.`, calls: [{ name: "search", args: { query } }] };
}

/** Queries of a question not tried yet (its attempt log, compared as the core compares them). */
function freshQueries(context: RuleContext, question: Question): string[] {
  const { frontier } = context.investigation;
  const tried = new Set(attemptsOf(frontier, question.id).map((attempt) => normalizeQuestion(attempt.query)));
  // The run's first search is the request as the user wrote it (as the other strategies start):
  // the facets narrow it afterwards.
  const objective = readerLine(frontier.objective, 300);
  const searchedObjective = frontier.attempts.some(
    (attempt) => normalizeQuestion(attempt.query) === normalizeQuestion(objective),
  );
  return [...(searchedObjective ? [] : [objective]), ...questionQueries(question, frontier.objective)].filter(
    (query) => !tried.has(normalizeQuestion(query)),
  );
}

/**
 * An inconclusive attempt recorded with `retry_question` and the next query: the question goes
 * back to the queue, or becomes unresolvable at `max_attempts` (the assumption is always given,
 * since a question may have fewer attempts left than queries to try).
 */
function giveUpPlan(context: RuleContext, question: Question, why: string): Plan {
  const disputed = disputedClaim(context.investigation, context.judge, question);
  const answered = disputed ? undefined : answeredElsewherePlan(context, question);
  if (answered) return answered;
  const count = attemptCount(context.investigation.frontier, question.id);
  const focus = readerLine(focusOf(question.question), 200);
  // Where the sources disagree, that is the truth to state, not that none settles it.
  const assumption = disputed
    ? `The sources read disagree on “${readerLine(disputed, 300)}”: the report shows it contested, with both sides quoted.`
    : `No source read settles ${focus}; the report assumes nothing beyond the claims recorded for it.`;
  return {
    text: `Recording an inconclusive attempt on ${question.id}.`,
    calls: [
      {
        name: "retry_question",
        args: {
          id: question.id,
          new_query: freshQueries(context, question)[0] ?? readerLine(`${focus} attempt ${count + 1}`, 300),
          why: readerLine(why, 500),
          assumption: readerLine(assumption, 500),
        },
      },
    ],
  };
}

/** Claims cited when a question is resolved with what other questions found, at most. */
const BORROWED_CLAIMS = 5;

/**
 * A question with no claims of its own that claims recorded for other questions answer: every
 * content word of its focus is written in them, or a synonym or form of it (the judge's
 * `mentionsOf`). It is resolved with them (the most relevant first) instead of being given up:
 * "no source read settles it" would be false of what was read.
 */
function answeredElsewherePlan(context: RuleContext, question: Question): Plan | undefined {
  const { investigation } = context;
  if (workClaims(investigation, question).length > 0 || namedClaims(investigation, question).length > 0)
    return undefined;
  const mentionsAll = mentioningFocus(context.judge, question, liveClaims(investigation));
  // A facet asks the objective narrowed to it: the claims that answer the objective for a
  // resolved facet beside it answer it too, whichever words the facet took from the question.
  const siblings = investigation.frontier.questions.filter(
    (other) => other.id !== question.id && other.parentId === question.parentId && other.status === "resolved",
  );
  // Not a facet that names something ("Exxon"): what no claim names is not answered by the others.
  const focus = focusOf(question.question);
  const names = /(?:^|\s)\p{Lu}/u.test(focus);
  const answeringSiblings = focus !== question.question && !names ? siblings.flatMap((other) => other.claimIds) : [];
  const answering =
    mentionsAll.length > 0
      ? mentionsAll
      : liveClaims(investigation).filter((claim) => answeringSiblings.includes(claim.id));
  const cited = byRelevance(investigation, answering, questionQuery(investigation, question)).slice(0, BORROWED_CLAIMS);
  const first = cited[0];
  if (!first) return undefined;
  const ids = cited.map((claim) => claim.id).join(", ");
  return resolveTurn(
    question.id,
    cited,
    `Resolving ${question.id} with ${ids}, recorded for other questions.`,
    `No page read for this question gave a claim of its own, but ${ids} ${cited.length === 1 ? "answers" : "answer"} it.`,
  );
}

/**
 * A part of the objective no page read answers, where a page names its bridge (the singer a
 * song's page names, whose own page gives the answer): `search` the bridge with what the page
 * leaves unsaid (`bridgeQueries`), once each. This is how the engine goes a hop deeper. Then each
 * name the objective gives that no page read is titled after (the other option of a choice).
 */
function bridgePlan(context: RuleContext): Plan | undefined {
  const { investigation, question, state } = context;
  if (!question || !can(context, "search") || state.searchesLeft <= 0) return undefined;
  if (attemptCount(investigation.frontier, question.id) + 1 >= investigation.config.maxAttempts) return undefined;
  const pages = state.readPages ?? [];
  if (pages.length === 0) return undefined;
  const sources = pages.map(packetOf);
  const read = sentencesRead(sources);
  const tried = new Set(investigation.frontier.attempts.map((attempt) => normalizeQuestion(attempt.query)));
  const names = requestQueries(profileRequest(investigation.frontier.objective), sources).filter(
    (query) => namesIn(query).length > 0,
  );
  const query = [...bridgeQueries(investigation.frontier.objective, read), ...names].find(
    (candidate) =>
      !tried.has(normalizeQuestion(candidate)) && !context.refused.has(callKey("search", { query: candidate })),
  );
  return query === undefined
    ? undefined
    : { text: `Searching the bridge "${readerLine(query, 120)}".`, calls: [{ name: "search", args: { query } }] };
}

function searchPlan(context: RuleContext): Plan | undefined {
  const { investigation, question, state } = context;
  if (!question || workClaims(investigation, question).length > 0) return undefined;
  const count = attemptCount(investigation.frontier, question.id);
  // A query the loop refused last turn (not logged as an attempt) is passed over.
  const next = freshQueries(context, question).find((query) => !context.refused.has(callKey("search", { query })));
  if (
    next !== undefined &&
    count + 1 < investigation.config.maxAttempts &&
    can(context, "search") &&
    state.searchesLeft > 0
  ) {
    return { text: `Searching for ${question.id}.`, calls: [{ name: "search", args: { query: next } }] };
  }
  const focus = readerLine(focusOf(question.question), 200);
  return giveUpPlan(
    context,
    question,
    `${count} attempt(s) found no passage that states something specific about ${focus}.`,
  );
}

function fallbackPlan(context: RuleContext): Plan | undefined {
  const { investigation, state, question } = context;
  // A question no rule can move (its resolution refused, nothing left to try): give it up.
  if (question) return giveUpPlan(context, question, "No rule of the offline engine could resolve it.");
  const busy = investigation.frontier.questions.some((question) => question.status === "in_progress");
  if (!busy && selectNext(investigation.frontier)) {
    return { text: "Selecting the next question.", calls: [{ name: "frontier_next", args: {} }] };
  }
  if (frontierExhausted(investigation) && can(context, "finish_exploration")) {
    return { text: "The frontier is exhausted.", calls: [{ name: "finish_exploration", args: {} }] };
  }
  if (state.lastResults.some((result) => result.name === "notes_read")) return undefined;
  return { text: "Nothing to do: reading the notes.", calls: [{ name: "notes_read", args: {} }] };
}

/**
 * An extraction turn whose pages are all in the ledger already (extracted on an earlier turn,
 * or read before): nothing is left to record, so the turn leaves Scratch as it is.
 */
function settledPagesPlan(context: RuleContext): Plan {
  return {
    text: "The pending pages are already in the notes.",
    calls: [{ name: "notes_scratch", args: { text: context.investigation.scratch } }],
  };
}

/** The rules of a turn, in priority order (see the module comment). */
function rulesOf(state: ActState): Rule[] {
  if (state.phase === "synthesis") return [synthesisPlan];
  if (state.mode.kind === "consolidation") return [verifyPlan, consolidationPlan];
  if (state.mode.kind === "extraction") return [extractionRule, settledPagesPlan];
  return [
    extractionRule,
    expansionPlan,
    fetchPlan,
    bridgePlan,
    challengeRunPlan,
    verdictPlan,
    verifyPlan,
    ownSearchPlan,
    challengePlan,
    resolvePlan,
    searchPlan,
    fallbackPlan,
  ];
}

const withIds = (turn: number, text: string, calls: readonly ProposedCall[]): ActTurn => ({
  text,
  calls: calls
    .slice(0, MAX_CALLS_PER_TURN)
    .map((call, index) => ({ id: `call_${turn}_${index + 1}`, name: call.name, args: call.args })),
});

/**
 * The offline engine's turn of the investigative loop: the first rule whose plan has an
 * admissible call (offered, not refused as it is on the previous turn, accepted by the core).
 * On a forced turn only the forced tool is called; when no rule produced it and it takes no
 * arguments, it is called with none. When nothing applies the turn has text and no call.
 * Pure and deterministic.
 */
export function offlineInvestigativeTurn(state: ActState, judge: Judge = englishJudge()): ActTurn {
  const context = ruleContext(state, judge);
  for (const rule of rulesOf(state)) {
    const plan = rule(context);
    if (!plan) continue;
    const calls = admissibleCalls(context, plan);
    if (calls.length > 0) return withIds(state.turn, plan.text, calls);
  }
  if (state.forced !== undefined && NO_ARGUMENTS.has(state.forced) && state.offered.includes(state.forced)) {
    return withIds(state.turn, `Forced: ${state.forced}.`, [{ name: state.forced, args: {} }]);
  }
  if (state.phase === "synthesis") {
    return {
      text: "The offline engine recorded no claim a report could cite: there is no report to write.",
      calls: [],
    };
  }
  return { text: "The offline engine has no rule that applies to this state.", calls: [] };
}
