/**
 * Extraction by the offline engine's investigative rules (pure, deterministic; seed 000
 * "Forced extraction"): what of a read page goes into the ledger — a second source for the
 * claims it states, its best sentences as new UNVERIFIED claims, or the note that nothing in
 * it is relevant.
 */
import { ROOT_QUESTION_ID } from "../../../core/investigative/frontier.js";
import { supportingKeys } from "../../../core/investigative/ledger.js";
import type { LoopPage } from "../../../core/investigative/loop-tools.js";
import { claimStatement } from "../../../core/investigative/report-mapping.js";
import type { Investigation, Question } from "../../../core/investigative/types.js";
import type { Judge } from "../../../core/judgment/judge.js";
import { stemSet } from "../../../core/lexicon.js";
import { normalizeWording } from "../../../core/text.js";
import {
  claimsOf,
  independenceStatement,
  liveClaims,
  namedClaims,
  type Plan,
  type ProposedCall,
  pageKey,
  type RuleContext,
  supportingSources,
} from "./investigative-context.js";
import {
  denies,
  focusOf,
  MAX_CLAIM_CHARS,
  type PageSentence,
  pageSentences,
  type RankedPageSentence,
  rankedSentences,
  relevanceQuery,
  sentenceAgainst,
  sentenceStating,
  states,
} from "./investigative-evidence.js";
import { answersMore, pointsBack } from "./sentence-extraction.js";

/** New claims per page for the question being extracted for, and for each other open question. */
const CLAIMS_PER_PAGE = 3;
const CLAIMS_PER_PAGE_OTHER = 1;
/** No question gets more claims than this from extraction. */
const MAX_CLAIMS_PER_QUESTION = 4;
/** Other open questions a page is also read for. */
const OTHER_QUESTIONS = 6;
/** notes_append takes at most 20 entries. */
const MAX_ENTRIES = 20;
const MAX_UPDATES = 6;
const CHECK = "a second independent source that states it";

/** Content stems a sentence shares with a claim before the judge is asked whether the claim states it. */
const COMMON_STEMS = 2;

/**
 * A sentence of `page` (claim-sized) that the claim `claimText` states in full: what the page
 * and the claim's source agree on, when the page says less than the claim.
 */
function commonGround(page: LoopPage, claimText: string, judge: Judge): PageSentence | undefined {
  const stems = stemSet(claimText);
  return pageSentences(page).find((sentence) => {
    // A sentence that points back ("It was built in 1795.") says nothing on its own.
    if (sentence.text.length > MAX_CLAIM_CHARS || sentence.text.split(" ").length < 4 || pointsBack(sentence.text))
      return false;
    let shared = 0;
    for (const term of stemSet(sentence.text)) if (stems.has(term)) shared++;
    return shared >= COMMON_STEMS && states(claimText, sentence.text, judge);
  });
}

/** Whether a page's content already reached the ledger: a claim cites it, or its source has a note. */
export function extractedAlready(investigation: Investigation, page: LoopPage): boolean {
  return (
    investigation.ledger.claimSources.some((link) => link.sourceId === page.sourceId) ||
    investigation.ledger.sources.some((source) => source.id === page.sourceId && source.note.trim() !== "")
  );
}

/**
 * Open questions other than `exclude` that new claims may answer, in frontier order: not the
 * root (unless it is the one worked on), not a question about recorded claims.
 */
function otherOpenQuestions(investigation: Investigation, exclude: string | undefined): Question[] {
  return investigation.frontier.questions
    .filter((question) => question.status === "pending" || question.status === "in_progress")
    .filter((question) => question.id !== exclude && question.id !== ROOT_QUESTION_ID)
    .filter((question) => namedClaims(investigation, question).length === 0)
    .slice(0, OTHER_QUESTIONS);
}

interface Entry {
  text: string;
  source_ids: string[];
  passage_ids: string[];
  question_id: string;
  check: string;
  /** Independence keys of its sources (not sent). */
  keys: Set<string>;
}

/**
 * Extraction of `pages` (seed 000 "Forced extraction"): a page that states a recorded claim
 * no source of its origin supports yet becomes a supporting source of it (with the passage
 * and an independence statement); the best other sentences of the turn's pages, ranked
 * together against each question's focus and the objective, become UNVERIFIED claims of the
 * question being worked on (`questionId`), then of the other open questions (another page of
 * the same turn that states one of them is added to its sources); a page with none of these
 * is noted "read, nothing relevant". Pages already extracted are skipped.
 */
export function extractionPlan(
  context: RuleContext,
  pages: readonly LoopPage[],
  questionId: string | undefined,
): Plan | undefined {
  const { investigation } = context;
  const selected = investigation.frontier.questions.find((question) => question.id === questionId);
  // A question about recorded claims gets no new claims: its pages can only be their second sources.
  const target = selected && namedClaims(investigation, selected).length === 0 ? selected : undefined;
  const questions: [Question, number][] = [
    ...(target ? [[target, CLAIMS_PER_PAGE] as [Question, number]] : []),
    ...otherOpenQuestions(investigation, selected?.id).map((question): [Question, number] => [
      question,
      CLAIMS_PER_PAGE_OTHER,
    ]),
  ];
  const known = liveClaims(investigation);
  const keys = new Map(known.map((claim) => [claim.id, new Set(supportingKeys(investigation.ledger, claim.id))]));
  const sources = new Map(known.map((claim) => [claim.id, supportingSources(investigation, claim.id)]));
  const perQuestion = new Map(
    questions.map(([question]) => [question.id, claimsOf(investigation, question.id).length]),
  );
  const updates: ProposedCall[] = [];
  const entries: Entry[] = [];
  const fresh = pages.filter(
    (page) => !page.alreadyRead && page.passages.length > 0 && !extractedAlready(investigation, page),
  );
  // The key of each page this turn or an earlier one read (a claim's first hop may stand in one read before).
  const pageKeys = new Map(
    [...(context.state.readPages ?? []), ...fresh].map((page) => [page.sourceId, pageKey(investigation, page)]),
  );
  const keyOf = (id: string): string => pageKeys.get(id) ?? "";
  const used = new Map(fresh.map((page) => [page.sourceId, 0]));
  const count = (page: LoopPage) => used.set(page.sourceId, (used.get(page.sourceId) ?? 0) + 1);
  // Second sources of recorded claims, and sources that contradict them.
  const linked = (claimId: string, sourceId: string) =>
    investigation.ledger.claimSources.some((link) => link.claimId === claimId && link.sourceId === sourceId);
  for (const page of fresh) {
    const key = keyOf(page.sourceId);
    for (const claim of known) {
      const claimKeys = keys.get(claim.id) ?? new Set<string>();
      if (updates.length >= MAX_UPDATES || claimKeys.has(key) || linked(claim.id, page.sourceId)) continue;
      const sentence = sentenceStating(page, claimStatement(claim), context.judge);
      if (!sentence) {
        const against = sentenceAgainst(page, claimStatement(claim), context.judge);
        if (!against) continue;
        updates.push({
          name: "notes_update",
          args: {
            id: claim.id,
            add_source: { source_id: page.sourceId, stance: "contradicts", passage_ids: [against.passageId] },
          },
        });
        count(page);
        continue;
      }
      claimKeys.add(key);
      const supporters = [...(sources.get(claim.id) ?? []), page.sourceId];
      sources.set(claim.id, supporters);
      updates.push({
        name: "notes_update",
        args: {
          id: claim.id,
          add_source: { source_id: page.sourceId, stance: "supports", passage_ids: [sentence.passageId] },
          independence: independenceStatement(investigation, supporters),
        },
      });
      count(page);
    }
  }
  // New claims: each question's best sentences across the pages, best first, so that the
  // sentences that answer it take its places before those that only mention its words.
  const { objective } = investigation.frontier;
  for (const [question, limit] of questions) {
    const focus = focusOf(question.question);
    const perPage = new Map<string, number>();
    const wanted = Math.max(0, MAX_CLAIMS_PER_QUESTION - (perQuestion.get(question.id) ?? 0));
    // A question whose share of claims is taken still gets the sentences that answer it (the second
    // hop of a multi-hop question, read after the first hop's pages filled its share).
    const limitAll = Math.max(wanted * fresh.length * limit, fresh.length);
    const taken: RankedPageSentence[] = [];
    const from = entries.length;
    for (const sentence of rankedSentences(focus, relevanceQuery(focus, objective), fresh, limitAll, {
      also: objective,
      readBefore: context.state.readPages ?? [],
      judge: context.judge,
    })) {
      const claimCount = perQuestion.get(question.id) ?? 0;
      if (entries.length >= MAX_ENTRIES) break;
      if (claimCount >= MAX_CLAIMS_PER_QUESTION && !sentence.answering) continue;
      // A page past its share still gives a claim that answers a part of the question none taken
      // answers, and one that answers the question (core/answer: the second figure of a conflict).
      if ((perPage.get(sentence.sourceId) ?? 0) >= limit && !sentence.answering && !answersMore(sentence, taken))
        continue;
      const { judge } = context;
      const wording = normalizeWording(sentence.text);
      // A sentence that answers (or bridges to an answer) and says more than the claim it states
      // ("…is a retired race walker. She was born in Young…") is recorded: the answer needs it.
      const repeats =
        entries.some((entry) => normalizeWording(entry.text) === wording) ||
        known.some(
          (claim) =>
            states(sentence.text, claim.text, judge) &&
            (!sentence.answering || states(claim.text, sentence.text, judge)),
        ) ||
        // A sentence that states a claim recorded is its further evidence; one a claim recorded only
        // entails says less, and is recorded too (other sources may state it: "1904" of "4 July 1904").
        entries.some((entry) => states(sentence.text, entry.text, judge));
      // A sentence that denies a recorded claim is that claim's contradicting evidence, not a claim of its own.
      const contradicts =
        known.some((claim) => denies(sentence.text, claimStatement(claim), judge)) ||
        entries.some((entry) => denies(sentence.text, entry.text, judge));
      if (repeats || contradicts) continue;
      entries.push({
        text: sentence.text,
        source_ids: [sentence.sourceId],
        passage_ids: [sentence.passageId],
        question_id: question.id,
        check: CHECK,
        keys: new Set([keyOf(sentence.sourceId)]),
      });
      taken.push(sentence);
      perQuestion.set(question.id, claimCount + 1);
      perPage.set(sentence.sourceId, (perPage.get(sentence.sourceId) ?? 0) + 1);
      const page = fresh.find((known) => known.sourceId === sentence.sourceId);
      if (page) count(page);
    }
    // Taken one per part of the question first; recorded best first.
    const score = new Map(taken.map((sentence) => [sentence.text, sentence.score]));
    const own = entries.splice(from).sort((a, b) => (score.get(b.text) ?? 0) - (score.get(a.text) ?? 0));
    entries.push(...own);
  }
  // The other pages read that state a new claim (this turn's and earlier ones') are its further sources.
  const readBefore = (context.state.readPages ?? []).filter(
    (page) => page.passages.length > 0 && !fresh.some((known) => known.sourceId === page.sourceId),
  );
  for (const entry of entries) {
    for (const page of [...fresh, ...readBefore]) {
      const key = keyOf(page.sourceId);
      if (entry.keys.has(key)) continue;
      const sentence = sentenceStating(page, entry.text, context.judge);
      if (!sentence) continue;
      entry.keys.add(key);
      entry.source_ids.push(page.sourceId);
      entry.passage_ids.push(sentence.passageId);
      if (fresh.includes(page)) count(page);
    }
  }
  // The common ground: a page that states less than a new claim (a year where the claim gives
  // the day, a clause of it) gives that sentence as a claim of its own, stated by both pages,
  // so what two origins agree on can be verified.
  for (const entry of [...entries]) {
    if (entries.length >= MAX_ENTRIES) break;
    for (const page of [...fresh, ...readBefore]) {
      const key = keyOf(page.sourceId);
      if (entry.keys.has(key) || entries.length >= MAX_ENTRIES) continue;
      const weaker = commonGround(page, entry.text, context.judge);
      if (!weaker) continue;
      const taken = entries.some((other) => normalizeWording(other.text) === normalizeWording(weaker.text));
      if (taken || known.some((claim) => normalizeWording(claim.text) === normalizeWording(weaker.text))) continue;
      entries.push({
        text: weaker.text,
        source_ids: [page.sourceId, ...entry.source_ids],
        passage_ids: [weaker.passageId, ...entry.passage_ids],
        question_id: entry.question_id,
        check: CHECK,
        keys: new Set([key, ...entry.keys]),
      });
      if (fresh.includes(page)) count(page);
    }
  }
  const nothing = fresh.filter((page) => (used.get(page.sourceId) ?? 0) === 0).map((page) => page.sourceId);
  const calls: ProposedCall[] = [
    ...updates,
    ...(entries.length > 0
      ? [
          {
            name: "notes_append",
            args: { section: "unverified", entries: entries.map(({ keys: _, ...entry }) => entry) },
          },
        ]
      : []),
    ...(nothing.length > 0
      ? [
          {
            name: "notes_append",
            args: {
              section: "sources",
              entries: nothing.map((sourceId) => ({ source_id: sourceId, note: "read, nothing relevant" })),
            },
          },
        ]
      : []),
  ];
  if (calls.length === 0) return undefined;
  const read = pages.map((page) => page.sourceId).join(", ");
  return {
    text: `Extraction of ${read}: ${entries.length} claim(s), ${updates.length} second source(s), ${nothing.length} page(s) with nothing relevant.`,
    calls,
  };
}
