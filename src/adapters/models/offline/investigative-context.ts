/**
 * What the offline engine's investigative rules share (pure): the shape check of the loop's
 * `ActState`, the context of one turn built from it, the plans the rules return, the check of
 * a plan against the core's own tool decisions before it is proposed, and claim lookups.
 */

import { CONTRADICTION_QUESTION } from "../../../core/investigative/challenges.js";
import { findQuestion } from "../../../core/investigative/frontier.js";
import { sourceKey, supportingKeys } from "../../../core/investigative/ledger.js";
import type { ActState, LoopPage } from "../../../core/investigative/loop-tools.js";
import { claimStatement } from "../../../core/investigative/report-mapping.js";
import { TOOL_SCHEMAS } from "../../../core/investigative/tool-schemas.js";
import { currentQuestion, decide, type ToolContext } from "../../../core/investigative/tools.js";
import type { Claim, Investigation, LedgerSource, Question } from "../../../core/investigative/types.js";
import type { Judge } from "../../../core/judgment/judge.js";
import { normalizePhrase, stem, stemSet } from "../../../core/lexicon.js";
import { contentWords } from "../../../core/text.js";
import { isQuantifier, isQuestionWord } from "./gaps.js";
import { focusOf, relevanceOf, relevanceQuery } from "./investigative-evidence.js";

/** A tool call a rule proposes (its id is given when the turn is assembled). */
export interface ProposedCall {
  name: string;
  args: Record<string, unknown>;
}

/**
 * What a rule proposes: the calls, in order, and a short line saying why. In a `chain` each
 * call depends on the ones before it, so the plan stops at the first call that would be
 * refused; otherwise a refused call is dropped and the others stay.
 */
export interface Plan {
  text: string;
  calls: ProposedCall[];
  chain?: boolean;
}

export interface RuleContext {
  state: ActState;
  investigation: Investigation;
  /** The question the loop selected, if one is open. */
  question: Question | undefined;
  /** The pages the turn can see, with passages: pending ones first, then the previous turn's reads. */
  pages: LoopPage[];
  /** What the core's decisions are checked against. */
  tools: ToolContext;
  /** Calls the loop refused on the previous turn (`name` + JSON arguments): never repeated as they were. */
  refused: ReadonlySet<string>;
  /** Decides whether a page states or contradicts a claim. */
  judge: Judge;
}

// Times do not change whether a decision passes; the check needs one.
const CHECK_TIME = "1970-01-01T00:00:00.000Z";

export const callKey = (name: string, args: unknown): string => `${name} ${JSON.stringify(args ?? {})}`;

/** The visible pages, each once (by source id), pending first. */
function visiblePages(state: ActState): LoopPage[] {
  const pages = new Map<string, LoopPage>();
  for (const page of [...state.pendingPages, ...state.lastResults.flatMap((result) => result.page ?? [])]) {
    if (!pages.has(page.sourceId)) pages.set(page.sourceId, page);
  }
  return [...pages.values()];
}

/**
 * The Host sources and passages a check may cite: the ledger's sources (the Host's persisted
 * ones), plus any visible page the ledger does not list yet; passages of the visible pages and
 * of every page read in the run (a contradiction may be quoted from a page read turns ago).
 */
function toolContext(investigation: Investigation, pages: readonly LoopPage[]): ToolContext {
  const known = new Set(investigation.ledger.sources.map((source) => source.id));
  const extra: LedgerSource[] = pages
    .filter((page) => !known.has(page.sourceId))
    .map((page) => ({ id: page.sourceId, location: page.location, domain: "", title: page.title, note: "" }));
  return {
    now: CHECK_TIME,
    hostSources: [...investigation.ledger.sources, ...extra],
    hostChunks: new Map(pages.map((page) => [page.sourceId, page.passages.map((passage) => passage.id)])),
  };
}

export function ruleContext(state: ActState, judge: Judge): RuleContext {
  const investigation = state.investigation;
  const selected = state.currentQuestionId ? findQuestion(investigation.frontier, state.currentQuestionId) : undefined;
  const open = selected && (selected.status === "in_progress" || selected.status === "pending");
  const pages = visiblePages(state);
  return {
    state,
    investigation,
    question: open ? selected : currentQuestion(investigation),
    pages,
    tools: toolContext(investigation, [
      ...pages,
      ...(state.readPages ?? []).filter((page) => !pages.some((seen) => seen.sourceId === page.sourceId)),
    ]),
    refused: new Set(state.lastResults.filter((result) => !result.ok).map((r) => callKey(r.name, r.args))),
    judge,
  };
}

/** Whether the turn may call `name`: it is offered, and it is the forced tool when one is forced. */
export function can(context: RuleContext, name: string): boolean {
  const { offered, forced } = context.state;
  return offered.includes(name) && (forced === undefined || forced === name);
}

/** Whether the core would accept `call` on the current investigation (loop tools always pass). */
export function accepts(context: RuleContext, call: ProposedCall): boolean {
  if (!Object.hasOwn(TOOL_SCHEMAS, call.name)) return true;
  return decide(context.investigation, call, context.tools).ok;
}

/**
 * The calls of `plan` the turn may make: offered, not refused last turn as they are, and
 * accepted by the core's decisions applied in order (each on the result of the ones before).
 * A chain stops at the first call that fails; otherwise a failing call is dropped.
 */
export function admissibleCalls(context: RuleContext, plan: Plan): ProposedCall[] {
  let investigation = context.investigation;
  const kept: ProposedCall[] = [];
  for (const call of plan.calls) {
    let passes = can(context, call.name) && !context.refused.has(callKey(call.name, call.args));
    if (passes && Object.hasOwn(TOOL_SCHEMAS, call.name)) {
      const decided = decide(investigation, call, context.tools);
      passes = decided.ok;
      if (decided.ok) investigation = decided.value.investigation;
    }
    if (passes) kept.push(call);
    else if (plan.chain) break;
  }
  return kept;
}

/** Claims the notes still show (VERIFIED or UNVERIFIED), ledger order. */
export const liveClaims = (investigation: Pick<Investigation, "ledger">): Claim[] =>
  investigation.ledger.claims.filter((claim) => claim.status === "VERIFIED" || claim.status === "UNVERIFIED");

/** The live claims recorded for a question. */
export const claimsOf = (investigation: Investigation, questionId: string): Claim[] =>
  liveClaims(investigation).filter((claim) => claim.questionId === questionId);

/** The sources that support a claim, in link order (the first is where it was read). */
export const supportingSources = (investigation: Pick<Investigation, "ledger">, claimId: string): string[] =>
  investigation.ledger.claimSources
    .filter((link) => link.claimId === claimId && link.stance === "supports")
    .map((link) => link.sourceId);

const CLAIM_ID = /\b[cd]_\d+\b/g;

/**
 * The live claims a question's text names (`c_001`): a question about a recorded claim, such
 * as the loop's final verification check ("Is c_001 supported by an independent source: …").
 */
export function namedClaims(investigation: Investigation, question: Question): Claim[] {
  const named = new Set(question.question.match(CLAIM_ID) ?? []);
  return liveClaims(investigation).filter((claim) => named.has(claim.id));
}

/** The claims a question is answered with: those its text names, else those recorded for it. */
export function workClaims(investigation: Investigation, question: Question): Claim[] {
  const named = namedClaims(investigation, question);
  return named.length > 0 ? named : claimsOf(investigation, question.id);
}

/**
 * How relevant each live claim is to `query` (`relevanceOf`: the offline ranking over the
 * claims, each under the source it was first read in), scored among all live claims so that
 * the weights of the terms do not depend on which claims are compared.
 */
export function claimRelevance(investigation: Pick<Investigation, "ledger">, query: string): Map<string, number> {
  const texts = liveClaims(investigation).map((claim) => {
    const sourceId = supportingSources(investigation, claim.id)[0] ?? claim.id;
    const title = investigation.ledger.sources.find((source) => source.id === sourceId)?.title ?? "";
    return { id: claim.id, text: claimStatement(claim), sourceId, title };
  });
  return relevanceOf(query, texts);
}

/**
 * What a question's claims are ranked against: its focus and the objective
 * (`relevanceQuery`); the objective alone for a question about recorded claims or the root.
 */
export function questionQuery(investigation: Investigation, question: Question): string {
  const { objective } = investigation.frontier;
  if (namedClaims(investigation, question).length > 0) return objective;
  return relevanceQuery(focusOf(question.question), objective);
}

/** `claims` by relevance to `query`, best first; ties keep their order. */
export function byRelevance(investigation: Investigation, claims: readonly Claim[], query: string): Claim[] {
  const scores = claimRelevance(investigation, query);
  const score = (claim: Claim) => scores.get(claim.id) ?? 0;
  return [...claims].sort((a, b) => score(b) - score(a));
}

/**
 * The claims of a question (`workClaims`), the most relevant to the question and the objective
 * (`questionQuery`) first, then those with the most independent supporting sources, then the
 * oldest.
 */
export function rankedClaims(investigation: Investigation, question: Question): Claim[] {
  const scores = claimRelevance(investigation, questionQuery(investigation, question));
  const score = (claim: Claim) => scores.get(claim.id) ?? 0;
  const keys = (claim: Claim) => supportingKeys(investigation.ledger, claim.id).length;
  return workClaims(investigation, question).sort((a, b) => score(b) - score(a) || keys(b) - keys(a));
}

/** The claim of a question the engine works on: its first UNVERIFIED claim by `rankedClaims`. */
export function leadClaim(investigation: Investigation, question: Question): Claim | undefined {
  return rankedClaims(investigation, question).find((claim) => claim.status === "UNVERIFIED");
}

/** The independence key of a page's source (the ledger's, or its location's when the ledger lacks it). */
export function pageKey(investigation: Investigation, page: LoopPage): string {
  const source = investigation.ledger.sources.find((known) => known.id === page.sourceId);
  return sourceKey(investigation.ledger, source ?? { id: page.sourceId, domain: "", location: page.location });
}

const plural = (count: number, word: string): string => `${word}${count === 1 ? "s" : ""}`;

/** The independence statement of a claim supported by `sourceIds`. */
export function independenceStatement(investigation: Investigation, sourceIds: readonly string[]): string {
  const keys = sourceIds.map((id) => {
    const source = investigation.ledger.sources.find((known) => known.id === id);
    return source ? sourceKey(investigation.ledger, source) : id;
  });
  return (
    `${sourceIds.join(" and ")} ${plural(sourceIds.length, "come")} from distinct origins (${[...new Set(keys)].join(", ")}): ` +
    "no copy of one another by their wording, no shared domain, and not attributed to one source."
  ).slice(0, 500);
}

/**
 * The claim a question leaves disputed: the one a contradiction question was spawned for, or a
 * claim recorded for the question that a source read contradicts. Undefined when none is.
 */
export function disputedClaim(
  investigation: Pick<Investigation, "ledger">,
  judge: Pick<Judge, "mentionsOf">,
  question: Question,
): string | undefined {
  if (question.question.startsWith(CONTRADICTION_QUESTION)) {
    return /^Resolve the contradiction: "(.+?)" \(/.exec(question.question)?.[1] ?? question.question;
  }
  const { ledger } = investigation;
  const disputed = (claim: { id: string }) =>
    ledger.claimSources.some((link) => link.claimId === claim.id && link.stance === "contradicts");
  // Its own claims, or, for a facet, the claims that name all it asks about.
  const own = ledger.claims.find((claim) => claim.questionId === question.id && disputed(claim));
  return own?.text ?? mentioningFocus(judge, question, ledger.claims).find(disputed)?.text;
}

/** The claims of `claims` that write every content word of a question's focus, or a synonym or form of it. */
export function mentioningFocus<C extends { text: string }>(
  judge: Pick<Judge, "mentionsOf">,
  question: Question,
  claims: readonly C[],
): C[] {
  // What it asks about: its words but those that only shape the question ("year", "get"), and
  // when that leaves none ("many people"), its words but the quantifiers.
  const all = [...new Set(contentWords(focusOf(question.question)))];
  const named = all.filter((word) => !isQuestionWord(word));
  const words = named.length > 0 ? named : all.filter((word) => !isQuantifier(word));
  if (words.length === 0) return [];
  const forms = words.map((word) => judge.mentionsOf(word).map((form) => ` ${normalizePhrase(form)} `));
  return claims.filter((claim) => {
    const text = ` ${normalizePhrase(claim.text)} `;
    const stems = stemSet(claim.text);
    return forms.every(
      (ways, index) => ways.some((way) => text.includes(way)) || stems.has(stem((words[index] ?? "").toLowerCase())),
    );
  });
}

// ---------------------------------------------------------------------------------------------
// The state's shape

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;
const isArray = (value: unknown): boolean => Array.isArray(value);

/**
 * Whether `value` has the shape of the loop's `ActState` (kind "investigative", a phase, a
 * mode, the offered tools, the investigation with its frontier, ledger and challenges, the
 * pending pages and the previous results). A structural check of what the rules read; the
 * values themselves come from the loop's own code, not from a model.
 */
export function isActState(value: unknown): value is ActState {
  if (!isRecord(value) || value.kind !== "investigative") return false;
  if (value.phase !== "exploration" && value.phase !== "synthesis") return false;
  if (!isRecord(value.mode) || typeof value.mode.kind !== "string" || typeof value.turn !== "number") return false;
  if (!isArray(value.offered) || !isArray(value.pendingPages) || !isArray(value.lastResults)) return false;
  if (typeof value.searchesLeft !== "number" || typeof value.readsLeft !== "number") return false;
  const investigation = value.investigation;
  if (!isRecord(investigation) || !isRecord(investigation.config) || !isArray(investigation.challenges)) return false;
  const { frontier, ledger } = investigation;
  if (!isRecord(frontier) || !isArray(frontier.questions) || !isArray(frontier.attempts)) return false;
  return isRecord(ledger) && isArray(ledger.sources) && isArray(ledger.claims) && isArray(ledger.claimSources);
}
