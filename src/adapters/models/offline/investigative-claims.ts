/**
 * The offline engine's rules about claims after extraction (pure, deterministic): the
 * challenge of a question's lead claim, running a challenge's query, its verdict,
 * verification, and consolidation. Each returns a plan or undefined when it does not apply;
 * see investigative-rules.ts for the order they are tried in.
 */
import { challengesOn, normalizeQuery, ownOpenChallenges } from "../../../core/investigative/challenges.js";
import { attemptCount, attemptsOf } from "../../../core/investigative/frontier.js";
import { supportingKeys, verificationGaps } from "../../../core/investigative/ledger.js";
import { claimStatement } from "../../../core/investigative/report-mapping.js";
import type { Challenge, Claim, Investigation } from "../../../core/investigative/types.js";
import { readerLine } from "../../../core/text.js";
import {
  accepts,
  can,
  independenceStatement,
  leadClaim,
  liveClaims,
  type Plan,
  type ProposedCall,
  type RuleContext,
  rankedClaims,
  supportingSources,
  workClaims,
} from "./investigative-context.js";
import { challengeDrafts, nearDuplicates, sentenceAgainst } from "./investigative-evidence.js";

const unique = <T>(values: Iterable<T>): T[] => [...new Set(values)];

const searchQueryOf = (args: unknown): string =>
  typeof args === "object" && args !== null && "query" in args && typeof args.query === "string" ? args.query : "";

/** Whether the previous turn ran `challenge`'s query as a search (in case the loop did not attach it). */
function ranLastTurn(context: RuleContext, challenge: Challenge): boolean {
  return context.state.lastResults.some(
    (result) =>
      result.name === "search" &&
      result.ok &&
      normalizeQuery(searchQueryOf(result.args)) === normalizeQuery(challenge.query),
  );
}

/** The open challenges this sub-agent works (all of them with one). */
const openChallenges = (investigation: Investigation): Challenge[] => ownOpenChallenges(investigation);

/** An open challenge whose query has not run: search it (or close it inconclusive when no search is left). */
export function challengeRunPlan(context: RuleContext): Plan | undefined {
  const challenge = openChallenges(context.investigation).find(
    (open) => open.attempt === null && !ranLastTurn(context, open),
  );
  if (!challenge) return undefined;
  if (can(context, "search") && context.state.searchesLeft > 0) {
    return { text: `Running ${challenge.id}.`, calls: [{ name: "search", args: { query: challenge.query } }] };
  }
  return {
    text: `${challenge.id} cannot run: no search left.`,
    calls: [
      {
        name: "record_challenge_result",
        args: {
          challenge_id: challenge.id,
          outcome: "inconclusive",
          evidence: "Not run: the search budget was spent.",
          source_ids: [],
        },
      },
    ],
  };
}

const verifyCall = (investigation: Investigation, claim: Claim): ProposedCall => ({
  name: "notes_update",
  args: {
    id: claim.id,
    status: "VERIFIED",
    ...(claim.independence.trim()
      ? {}
      : { independence: independenceStatement(investigation, supportingSources(investigation, claim.id)) }),
  },
});

/**
 * How much the challenge's search gave to read: the hits its attempt logged ("3 hit(s)"), else
 * the previous turn's result, else the pages fetched after it on its question.
 */
function hitsOf(context: RuleContext, challenge: Challenge): number {
  const { attempt } = challenge;
  if (attempt) {
    const after = attemptsOf(context.investigation.frontier, attempt.questionId).filter(
      (known) => known.seq > attempt.seq,
    );
    const next = after.findIndex((known) => known.tool !== "fetch_page");
    const fetched = (next === -1 ? after : after.slice(0, next)).length;
    if (fetched > 0) return fetched;
  }
  const logged = attempt
    ? context.investigation.frontier.attempts.find(
        (known) => known.questionId === attempt.questionId && known.seq === attempt.seq,
      )
    : undefined;
  const counted = logged ? /^(\d+) hit/.exec(logged.outcome)?.[1] : undefined;
  if (counted !== undefined) return Number(counted);
  const result = context.state.lastResults.find(
    (known) => known.name === "search" && normalizeQuery(searchQueryOf(known.args)) === normalizeQuery(challenge.query),
  );
  return result?.hits?.length ?? 0;
}

const sourcesWord = (n: number): string => `${n} ${n === 1 ? "source" : "sources"}`;

/**
 * The verdict of an open challenge whose query ran (seed 000 "Adversarial queries"), judged
 * against every page read in the run (`readPages`), not only what this search found:
 *
 * - **refuted** when a page other than the claim's supporting sources contradicts it (the
 *   judge: it denies it, corrects it, or gives another value for the same subject and
 *   attribute), or a source is already linked against it; the contradicting passages are linked
 *   first (`contradicts`), so the report can quote them; the core then sets the claim REFUTED,
 *   spawns the contradiction question and reopens what cited it;
 * - **survived** only when the search returned something to read and no page read contradicts
 *   it; the evidence says what was read; followed by VERIFIED when the core allows it;
 * - **inconclusive** when the search returned nothing, or the target is not a claim.
 *
 * Evidence texts name no ledger ids: they are shown to the reader with the verification.
 */
export function verdictPlan(context: RuleContext): Plan | undefined {
  const { investigation } = context;
  const challenge = openChallenges(investigation).find((open) => open.attempt !== null || ranLastTurn(context, open));
  if (!challenge) return undefined;
  const claim = liveClaims(investigation).find(
    (known) => challenge.targetType === "claim" && known.id === challenge.targetId,
  );
  const inconclusive = (evidence: string): Plan => ({
    text: `${challenge.id} inconclusive.`,
    calls: [
      {
        name: "record_challenge_result",
        args: { challenge_id: challenge.id, outcome: "inconclusive", evidence, source_ids: [] },
      },
    ],
  });
  if (!claim)
    return inconclusive(`The offline engine cannot judge a ${challenge.targetType.replace("_", " ")} challenge.`);
  const statement = claimStatement(claim);
  const read = context.state.readPages ?? context.pages;
  const supporters = new Set(supportingSources(investigation, claim.id));
  const linkedAgainst = investigation.ledger.claimSources.filter(
    (link) => link.claimId === claim.id && link.stance === "contradicts",
  );
  const contradicting = read
    .filter((page) => !supporters.has(page.sourceId))
    .flatMap((page) => {
      const sentence = sentenceAgainst(page, statement, context.judge);
      return sentence ? [sentence] : [];
    });
  if (contradicting.length > 0 || linkedAgainst.length > 0) {
    const links = contradicting
      .filter((sentence) => !linkedAgainst.some((link) => link.sourceId === sentence.sourceId))
      .map(
        (sentence): ProposedCall => ({
          name: "notes_update",
          args: {
            id: claim.id,
            add_source: { source_id: sentence.sourceId, stance: "contradicts", passage_ids: [sentence.passageId] },
          },
        }),
      );
    const against = unique([...linkedAgainst.map((link) => link.sourceId), ...contradicting.map((s) => s.sourceId)]);
    const quoted = contradicting[0]?.text;
    return {
      text: `${challenge.id} refuted: ${sourcesWord(against.length)} contradict ${claim.id}.`,
      calls: [
        ...links,
        {
          name: "record_challenge_result",
          args: {
            challenge_id: challenge.id,
            outcome: "refuted",
            evidence: readerLine(
              quoted ? `A source read says otherwise: “${quoted}”` : "A source read says otherwise.",
              500,
            ),
            source_ids: against,
          },
        },
      ],
    };
  }
  const hits = hitsOf(context, challenge);
  if (hits === 0) return inconclusive("The search returned nothing to read.");
  const independent = supportingKeys(investigation.ledger, claim.id).length;
  return {
    text: `${challenge.id} survived: nothing read contradicts ${claim.id}.`,
    chain: true,
    calls: [
      {
        name: "record_challenge_result",
        args: {
          challenge_id: challenge.id,
          outcome: "survived",
          evidence: `the search returned ${hits} ${hits === 1 ? "result" : "results"}, and none of the ${sourcesWord(read.length)} read so far contradicts it.`,
          source_ids: [],
        },
      },
      ...(independent >= investigation.config.minIndependentSources ? [verifyCall(investigation, claim)] : []),
    ],
  };
}

/** UNVERIFIED claims the core would accept as VERIFIED now (given an independence statement): set them. */
export function verifyPlan(context: RuleContext): Plan | undefined {
  const { investigation } = context;
  const ready = liveClaims(investigation).filter((claim) => {
    if (claim.status !== "UNVERIFIED") return false;
    const stated = { ...claim, independence: claim.independence || "stated" };
    const ledger = {
      ...investigation.ledger,
      claims: investigation.ledger.claims.map((known) => (known.id === claim.id ? stated : known)),
    };
    return verificationGaps(ledger, investigation.challenges, claim.id, investigation.config).length === 0;
  });
  if (ready.length === 0) return undefined;
  return {
    text: `Verified: ${ready.map((claim) => claim.id).join(", ")}.`,
    calls: ready.map((claim) => verifyCall(investigation, claim)),
  };
}

/**
 * A challenge that did not verify its claim and whose search brought no page not read before
 * (no `fetch_page` attempt follows its search before the next one): in a lexical engine
 * another strategy's words find the same pages, so the question stops challenging that claim.
 */
function fruitless(investigation: Investigation, challenge: Challenge): boolean {
  if (!challenge.attempt || challenge.outcome === "refuted" || challenge.outcome === "") return false;
  const { questionId, seq } = challenge.attempt;
  const after = attemptsOf(investigation.frontier, questionId).filter((attempt) => attempt.seq > seq);
  const next = after.findIndex((attempt) => attempt.tool !== "fetch_page");
  return (next === -1 ? after : after.slice(0, next)).length === 0;
}

/** The challenge of one claim of the current question, as `challengePlan` describes, if one applies. */
function challengeOf(context: RuleContext, lead: Claim): Plan | undefined {
  const { investigation, question } = context;
  const { config } = investigation;
  if (!question) return undefined;
  const earlier = challengesOn(investigation.challenges, "claim", lead.id);
  if (earlier.length >= config.maxChallengesPerTarget || earlier.some((known) => known.status === "open"))
    return undefined;
  const latest = earlier.at(-1);
  if (latest && latest.questionId === question.id && fruitless(investigation, latest)) return undefined;
  const used = new Set<string>(earlier.map((known) => known.strategy));
  const queries = [
    ...attemptsOf(investigation.frontier, question.id).map((attempt) => attempt.query),
    ...earlier.map((known) => known.query),
  ];
  const target = `${lead.text} ${lead.value} ${lead.unit}`.trim();
  for (const draft of challengeDrafts(target, used, queries)) {
    const challenge: ProposedCall = {
      name: "challenge",
      args: {
        target_type: "claim",
        target_id: lead.id,
        negation: draft.negation,
        strategy: draft.strategy,
        expected_if_false: draft.expectedIfFalse,
        query: draft.query,
      },
    };
    if (!accepts(context, challenge)) continue;
    return {
      text: `Challenging ${lead.id} (${draft.strategy}).`,
      chain: true,
      calls: [challenge, { name: "search", args: { query: draft.query } }],
    };
  }
  return undefined;
}

/**
 * The challenge of the current question's lead claim (seed 000 "Adversarial queries"), and
 * its query run in the same turn, while the question's claims (those it names, else its own)
 * include no VERIFIED one, the lead has no open challenge and fewer than
 * `max_challenges_per_target`, the question has fewer than `max_attempts` attempts, and the
 * lead's latest challenge on this question was not fruitless. The first strategy whose query
 * the core accepts is used. A claim of the question that `min_independent_sources` origins
 * already state is challenged the same way (most relevant first): before the lead once the
 * lead survived a challenge without a second origin (another could not verify it), else when
 * the lead cannot be.
 */
export function challengePlan(context: RuleContext): Plan | undefined {
  const { investigation, question } = context;
  const { config } = investigation;
  if (!question || !can(context, "challenge") || !can(context, "search") || context.state.searchesLeft <= 0)
    return undefined;
  if (workClaims(investigation, question).some((claim) => claim.status === "VERIFIED")) return undefined;
  if (attemptCount(investigation.frontier, question.id) >= config.maxAttempts) return undefined;
  // The lead first; then a claim other sources already state (its challenge can verify it).
  const lead = leadClaim(investigation, question);
  const sourced = rankedClaims(investigation, question).filter(
    (claim) =>
      claim.id !== lead?.id &&
      claim.status === "UNVERIFIED" &&
      supportingKeys(investigation.ledger, claim.id).length >= config.minIndependentSources,
  );
  // A lead whose challenge survived but that no second origin states cannot be verified by
  // another: a claim that can be goes first (the lead's first challenge may find its second source).
  const leadSourced =
    lead !== undefined && supportingKeys(investigation.ledger, lead.id).length >= config.minIndependentSources;
  const leadSurvived =
    lead !== undefined &&
    challengesOn(investigation.challenges, "claim", lead.id).some((known) => known.outcome === "survived");
  const targets =
    leadSourced || !leadSurvived ? [...(lead ? [lead] : []), ...sourced] : [...sourced, ...(lead ? [lead] : [])];
  for (const target of targets) {
    const plan = challengeOf(context, target);
    if (plan) return plan;
  }
  return undefined;
}

/**
 * Consolidation (notes over budget): retract the later of two near-duplicate UNVERIFIED
 * claims that no question cites; with none, clear Scratch.
 */
export function consolidationPlan(context: RuleContext): Plan {
  const { investigation } = context;
  const cited = new Set(investigation.frontier.questions.flatMap((question) => question.claimIds));
  const candidates = liveClaims(investigation).filter((claim) => claim.status === "UNVERIFIED");
  const retractions: ProposedCall[] = [];
  const retracted = new Set<string>();
  for (const [index, later] of candidates.entries()) {
    if (cited.has(later.id)) continue;
    const earlier = candidates
      .slice(0, index)
      .find((claim) => !retracted.has(claim.id) && nearDuplicates(claim.text, later.text));
    if (!earlier) continue;
    retracted.add(later.id);
    retractions.push({
      name: "notes_update",
      args: { id: later.id, status: "RETRACTED", reason: `duplicate of ${earlier.id}` },
    });
  }
  if (retractions.length > 0)
    return { text: `Consolidation: ${retracted.size} duplicate(s) retracted.`, calls: retractions };
  return { text: "Consolidation: Scratch cleared.", calls: [{ name: "notes_scratch", args: { text: "" } }] };
}
