/**
 * The text side of the offline engine's investigative rules (pure, deterministic): the
 * sub-question a facet becomes and the focus read back from it, the sentences of the pages
 * worth recording for a question, the relevance of recorded claims to a question or the
 * objective (both by the offline sentence ranking, `rankSentences`), the judge's reading of whether a page states or contradicts a recorded claim,
 * and the adversarial query of a challenge. Everything reuses the offline engine's own text
 * tools (sentence ranking, splitting, stemming and stop-words).
 */

import { answerQuestion, sentencesRead } from "../../../core/answer/answer.js";
import { normalizeQuery, queryTerms } from "../../../core/investigative/challenges.js";
import type { LoopPage } from "../../../core/investigative/loop-tools.js";
import { withoutIds } from "../../../core/investigative/report-mapping.js";
import type { ChallengeStrategy } from "../../../core/investigative/types.js";
import type { Judge, Judgement, Verdict } from "../../../core/judgment/judge.js";
import { acronymsOf, hasVerb, isVerbLike, normalizePhrase, stem, stemSet } from "../../../core/lexicon.js";
import { splitSentences } from "../../../core/sentences.js";
import { readerLine } from "../../../core/text.js";
import type { PacketSource } from "../../../ports/model.js";
import { planQueries } from "./query-expansion.js";
import { profileRequest } from "./request.js";
import { answersFirst, answersMore, rankSentences } from "./sentence-extraction.js";

/** Longest sentence recorded as a claim (the notes_append text limit is 600). */
export const MAX_CLAIM_CHARS = 600;
/** Shortest sentence recorded as a claim, in words: shorter ones are headings or fragments. */
const MIN_CLAIM_WORDS = 5;
/**
 * Whether a sentence is long enough to be a claim: five words, or four that make a full
 * statement (a verb, and closing punctuation: "Hesby has 2150 residents.").
 */
function claimSized(text: string): boolean {
  const words = text.split(" ").length;
  return words >= MIN_CLAIM_WORDS || (words === MIN_CLAIM_WORDS - 1 && /[.!?]$/.test(text) && hasVerb(text));
}

/** Stem overlap (Jaccard) from which two sentences of one page count as one finding. */
const DUPLICATE_OVERLAP = 0.6;

/**
 * The sub-question a facet of the objective becomes: the facet named, then the objective it
 * serves, so that the question (a search query too) asks what the user asked, narrowed to the
 * facet: `Regarding “Sony”: who sold the first lithium-ion battery?`.
 */
export function facetQuestion(facet: string, objective: string): string {
  const head = `Regarding “${facet.replace(/[“”]/g, '"')}”: `;
  return `${head}${readerLine(objective, 480 - head.length)}`;
}

const FACET_QUESTION = /^Regarding “([^“”]+)”: /;

/**
 * What to look for when working on a question: the facet of a sub-question made by
 * `facetQuestion`, otherwise the question's own text.
 */
export function focusOf(question: string): string {
  return FACET_QUESTION.exec(question)?.[1]?.trim() || question;
}

/** One sentence of a page, with the passage (Host chunk) it was read from. */
export interface PageSentence {
  sourceId: string;
  passageId: string;
  text: string;
}

const jaccard = (a: ReadonlySet<string>, b: ReadonlySet<string>): number => {
  let shared = 0;
  for (const term of a) if (b.has(term)) shared++;
  const union = a.size + b.size - shared;
  return union === 0 ? 1 : shared / union;
};

/** Whether two texts say nearly the same thing, by their stems (Jaccard at least 0.6). */
export const nearDuplicates = (a: string, b: string): boolean => jaccard(stemSet(a), stemSet(b)) >= DUPLICATE_OVERLAP;

const sharedCount = (a: ReadonlySet<string>, b: ReadonlySet<string>): number =>
  [...a].filter((term) => b.has(term)).length;

/** A ranked sentence below this share of the best one's score is not recorded. */
const RELATIVE_FLOOR = 0.2;

/** What a question's text is ranked against: its focus, then the objective it serves. */
export function relevanceQuery(focus: string, objective: string): string {
  return normalizePhrase(focus) === normalizePhrase(objective) ? objective : `${focus}. ${objective}`;
}

/** A page the loop shows, as the offline ranking and core/answer read a source. */
export const packetOf = (page: LoopPage): PacketSource => ({
  id: page.sourceId,
  title: page.title,
  location: page.location,
  chunks: [...page.passages],
});

/** A scored sentence of a page. */
export interface RankedPageSentence extends PageSentence {
  score: number;
  /** The parts of the question it answers itself (`RankedSentence.answers`). */
  answers: string[];
  /** Whether it answers a part of the focus or the objective (core/answer), with the pages read before. */
  answering: boolean;
}

/**
 * The best sentences of `pages` for a question, best first across all of them, at most
 * `limit`: ranked by the offline ranking (`rankSentences`) against `query` (the question's
 * focus and the objective, `relevanceQuery`), over the pages as one packet so that scores
 * compare across pages. A sentence qualifies when it is a claim-sized statement (5 words to
 * 600 characters), scores at least 20% of the best sentence, and holds at least half of the
 * focus's content stems (one for a focus of one or two stems, two for longer ones; one for a
 * sentence that answers a part of the question none chosen answers); near-duplicates of a better
 * sentence are left out. Sentences that answer a part of the question none before them answers
 * are considered first (`answersFirst`); `also` (the focus's objective) and `readBefore` (pages
 * read on earlier turns) widen what they answer: the second sentence of a multi-hop answer
 * answers only with the first, read before it, and that first sentence (the bridge) is offered
 * again with the page that completes the answer, whatever words it shares with the focus. With
 * `judge`, what answers is decided as the report decides it (an event's synonyms say it).
 */
export function rankedSentences(
  focus: string,
  query: string,
  pages: readonly LoopPage[],
  limit: number,
  context: { also?: string; readBefore?: readonly LoopPage[]; judge?: Judge } = {},
): RankedPageSentence[] {
  const focusStems = stemSet(focus);
  if (focusStems.size === 0 || limit <= 0 || pages.length === 0) return [];
  const needed = Math.min(2, Math.ceil(focusStems.size / 2));
  // A name the focus gives may be written by its initials ("the DRC" for "the Democratic Republic of the Congo").
  for (const initials of acronymsOf(focus)) focusStems.add(initials);
  const packets = pages.map(packetOf);
  // The sentences that answer a part of the focus (core/answer) are considered first, whatever their rank.
  const before = (context.readBefore ?? [])
    .filter((page) => !pages.some((fresh) => fresh.sourceId === page.sourceId))
    .map(packetOf);
  const read = sentencesRead([...packets, ...before]);
  const asked = [focus, ...(context.also && context.also !== focus ? [context.also] : [])];
  const uses = asked.flatMap((question) =>
    answerQuestion(question, read, read, context.judge ? { judge: context.judge } : {}).flatMap((part) => {
      const used = part.uses.flatMap((use) =>
        read.filter((sentence) => sentence.key === use.key).map((sentence) => ({ use, sentence })),
      );
      const sentences = used.map(({ sentence }) => sentence);
      return used.map(({ use, sentence }) => ({
        sentence,
        role: use.role,
        hop: part.uses.some(({ role }) => role === "bridge"),
        ofObjective: question !== focus,
        // The sentences answering the same part from its passage ("The answer turned out to be
        // ethylene carbonate (EC)." with "EC-based electrolytes … became the industry standard.").
        mates: sentences.filter((other) => other.passage === sentence.passage),
        // Whether the part it answers is the focus's ("what did Exxon build?" for the facet "Exxon").
        ofFocus: sharedCount(focusStems, stemSet(part.part.asked)) > 0,
      }));
    }),
  );
  const answering = uses.map(({ sentence }) => sentence.text);
  const answers = (text: string): boolean => answering.some((sentence) => text.includes(sentence));
  // A sentence that answers the part of the objective the focus stands in (not only the focus) is
  // kept with one word of the objective ("Ordinary graphite … was damaged…" for "why did Yoshino use
  // petroleum coke rather than graphite", read while the focus is "Yoshino"), written by it or by a
  // sentence of its passage that answers the same part; not one that answers another part ("Akira
  // Yoshino built the first prototype" is nothing Exxon built).
  const objectiveStems = stemSet(context.also ?? "");
  const answersObjective = (text: string): boolean =>
    uses.some(
      ({ sentence, ofObjective, ofFocus, mates }) =>
        ofObjective &&
        ofFocus &&
        text.includes(sentence.text) &&
        mates.some((mate) => sharedCount(objectiveStems, stemSet(mate.text)) > 0),
    );
  // The second sentence of a multi-hop answer: its bridge, chosen with it, answers the same part.
  const secondHops = uses.filter(({ role, hop }) => hop && role === "answer").map(({ sentence }) => sentence.text);
  const isSecondHop = (text: string): boolean => secondHops.some((sentence) => text.includes(sentence));
  // The first hop of an answer: it names what the answering sentence is about ("Sony's cell used LiCoO2"
  // for "LiCoO2 was found in the laboratory headed by Goodenough"). Its words need not be the focus's,
  // and when it stands in a page read before, it is recorded with the page that completes the answer.
  const bridges = uses.filter(({ role }) => role === "bridge").map(({ sentence }) => sentence);
  const isBridge = (text: string): boolean => bridges.some((sentence) => text.includes(sentence.text));
  const bridging = before.filter((packet) => bridges.some((sentence) => sentence.sourceId === packet.id));
  // A sentence that shares no word of the query is considered only where it answers with another of
  // its passage ("The answer turned out to be ethylene carbonate (EC)." beside "EC-based electrolytes
  // … became the industry standard."), not alone for a facet it says nothing of.
  const withMate = (text: string): boolean =>
    uses.some(({ sentence, mates }) => mates.length > 1 && text.includes(sentence.text));
  const all = [
    ...rankSentences(query, packets, { unscored: true }).filter(
      (candidate) => candidate.score > 0 || withMate(candidate.text),
    ),
    ...(bridging.length > 0 ? rankSentences(query, bridging).filter((candidate) => isBridge(candidate.text)) : []),
  ];
  const ranked = [
    ...all.filter((candidate) => answers(candidate.text)),
    ...all.filter((candidate) => !answers(candidate.text)),
  ];
  const floor = (all[0]?.score ?? 0) * RELATIVE_FLOOR;
  const chosen: { sentence: RankedPageSentence; stems: Set<string> }[] = [];
  // One sentence per part of the question first (`answersFirst`), then the others as ranked.
  for (const candidate of answersFirst(
    ranked.filter((candidate) => candidate.score >= floor || answers(candidate.text)),
  )) {
    if (chosen.length >= limit) break;
    if (candidate.text.length > MAX_CLAIM_CHARS || !claimSized(candidate.text)) continue;
    const stems = stemSet(candidate.text);
    // A sentence that answers a part of the question nothing chosen answers needs one of the focus's words.
    const more = answersMore(
      candidate,
      chosen.map(({ sentence }) => sentence),
    );
    // The second hop of an answer needs one of them (its bridge, chosen with it, answers the same part).
    const answersTheQuestion = answersObjective(candidate.text);
    if (
      !answersTheQuestion &&
      sharedCount(focusStems, stems) < (isBridge(candidate.text) ? 0 : more || isSecondHop(candidate.text) ? 1 : needed)
    )
      continue;
    if (chosen.some((other) => jaccard(other.stems, stems) >= DUPLICATE_OVERLAP)) continue;
    const sentence = {
      sourceId: candidate.sourceId,
      passageId: candidate.chunkId,
      text: candidate.text,
      score: candidate.score,
      answers: candidate.answers,
      answering: answers(candidate.text),
    };
    chosen.push({ sentence, stems });
  }
  return chosen.map(({ sentence }) => sentence);
}

/** A text to rank by relevance (a claim), with the source it was read in and that source's title. */
export interface RelevanceText {
  id: string;
  text: string;
  sourceId: string;
  title: string;
}

/**
 * How relevant each text is to `query`, by the offline ranking (`rankSentences`) over the
 * texts as one packet: each text a source of its own (so each is its source's first
 * sentence, as a claim is a sentence on its own), titled as where it was read, under the id
 * of that source (so that texts of one source do not count as each other's bridge). The
 * score of its best sentence, 0 when none relates. Scores compare within one call only.
 */
export function relevanceOf(query: string, texts: readonly RelevanceText[]): Map<string, number> {
  const scores = new Map(texts.map((text) => [text.id, 0]));
  const packets = texts.map((text) => ({
    id: text.sourceId,
    title: text.title,
    location: text.sourceId,
    chunks: [{ id: text.id, text: text.text }],
  }));
  for (const ranked of rankSentences(query, packets)) {
    if (ranked.score > (scores.get(ranked.chunkId) ?? 0)) scores.set(ranked.chunkId, ranked.score);
  }
  return scores;
}

/** Every sentence of `page`, in order, with its passage. */
export function pageSentences(page: LoopPage): PageSentence[] {
  return page.passages.flatMap((passage) =>
    splitSentences(passage.text).map((sentence) => ({
      sourceId: page.sourceId,
      passageId: passage.id,
      text: sentence.text,
    })),
  );
}

/** A sentence of a page as the judge decided it against a claim. */
export interface JudgedSentence extends PageSentence {
  judgement: Judgement;
}

/**
 * The first passage of `page` the judge finds to stand to the claim as `verdict` says, with
 * the sentence that decides it. Each passage is judged in its context: the page's title and
 * the end of the passage before it (where "it" or "the bridge" may be named).
 */
export function judgedSentence(
  page: LoopPage,
  claimText: string,
  verdict: Verdict,
  judge: Judge,
): JudgedSentence | undefined {
  for (const [index, passage] of page.passages.entries()) {
    const previous = index > 0 ? page.passages[index - 1]?.text : undefined;
    const judgement = judge.judge(claimText, {
      text: passage.text,
      title: page.title,
      ...(previous ? { before: previous.slice(-400) } : {}),
    });
    if (judgement.verdict !== verdict) continue;
    const text = judgement.passage.map((span) => span.text).join(" ");
    return { sourceId: page.sourceId, passageId: passage.id, text, judgement };
  }
  return undefined;
}

/** The first sentence of `page` that states the claim (the judge: `supports`), if any. */
export const sentenceStating = (page: LoopPage, claimText: string, judge: Judge): JudgedSentence | undefined =>
  judgedSentence(page, claimText, "supports", judge);

/** The first sentence of `page` that contradicts the claim (the judge: `contradicts`), if any. */
export const sentenceAgainst = (page: LoopPage, claimText: string, judge: Judge): JudgedSentence | undefined =>
  judgedSentence(page, claimText, "contradicts", judge);

/** Whether the judge finds that `text` states `claim` (`supports`), read alone. */
export const states = (text: string, claim: string, judge: Judge): boolean =>
  judge.judge(claim, { text }).verdict === "supports";

/** Whether the judge finds that `text` contradicts `claim`, read alone. */
export const denies = (text: string, claim: string, judge: Judge): boolean =>
  judge.judge(claim, { text }).verdict === "contradicts";

/** A strategy with the words its query adds and what the evidence would look like if the claim were wrong. */
interface StrategyPlan {
  strategy: ChallengeStrategy;
  words: string;
  expectedIfFalse: string;
}

/** The strategies in the order the engine tries them on one claim. */
const STRATEGY_PLANS: readonly StrategyPlan[] = [
  {
    strategy: "negation",
    words: "not false",
    expectedIfFalse: "a source that states the opposite, or gives another value for the same thing",
  },
  {
    strategy: "alternative_method",
    words: "independent account confirms",
    expectedIfFalse: "an independent source that tells it differently",
  },
  {
    strategy: "discrepancy",
    words: "different conflicting figure",
    expectedIfFalse: "a source with a different figure, date or name for the same thing",
  },
  {
    strategy: "criticism",
    words: "error disputed criticism",
    expectedIfFalse: "a correction, an erratum or a source that disputes it",
  },
  {
    strategy: "scope_limit",
    words: "exception limits conditions",
    expectedIfFalse: "a source that says it holds only under some conditions",
  },
  {
    strategy: "primary_source",
    words: "original primary record",
    expectedIfFalse: "the original record, saying something else",
  },
  {
    strategy: "staleness",
    words: "outdated newer revised",
    expectedIfFalse: "a newer source that supersedes it",
  },
];

/**
 * Key words of a claim for its challenge query, at most eight: the words of its names and
 * numbers first, then its other content words of four letters or more that are not verb forms.
 */
function claimKeyWords(text: string): string {
  const profile = profileRequest(text);
  const salient = (word: string) => profile.salient.has(stem(word.toLowerCase()));
  const other = (word: string) => !salient(word) && word.length >= 4 && !isVerbLike(word.toLowerCase());
  return [...profile.words.filter(salient), ...profile.words.filter(other)].slice(0, 8).join(" ");
}

export interface ChallengeDraft {
  strategy: ChallengeStrategy;
  negation: string;
  expectedIfFalse: string;
  query: string;
}

/**
 * The challenge drafts for a claim, one per strategy not in `used`, in the engine's order:
 * the claim's key words plus the strategy's words (so the query holds terms the claim does
 * not), skipping a query equal (normalized) to one in `earlierQueries`. The caller keeps the
 * first the core's validation accepts.
 */
export function challengeDrafts(
  claimText: string,
  used: ReadonlySet<string>,
  earlierQueries: readonly string[],
): ChallengeDraft[] {
  const earlier = new Set(earlierQueries.map(normalizeQuery));
  const own = queryTerms(claimText);
  const keyWords = claimKeyWords(claimText);
  const negation = readerLine(`It is not the case that: ${claimText}`, 500);
  return STRATEGY_PLANS.filter((plan) => !used.has(plan.strategy)).flatMap((plan) => {
    const query = readerLine(`${keyWords} ${plan.words}`, 300);
    const fresh = [...queryTerms(query)].some((term) => !own.has(term));
    if (!fresh || earlier.has(normalizeQuery(query))) return [];
    return [{ strategy: plan.strategy, negation, expectedIfFalse: plan.expectedIfFalse, query }];
  });
}

/**
 * The facets of an objective, at most `max`: the planner's queries from the request alone
 * (`planQueries`: its names, quoted phrases and multi-word runs). When at least two of the
 * request's content words are in none of them (what it asks about them: "commercialised",
 * "1991"), the request's key words as a whole come first, so the question itself is searched
 * too. Fewer than two facets: the objective is atomic.
 */
export function objectiveFacets(objective: string, max: number): string[] {
  if (max <= 0) return [];
  const facets = planQueries(objective, [], { maxQueries: max, maxQueryChars: 200 });
  const words = profileRequest(objective).words;
  const covered = new Set(facets.flatMap((facet) => [...stemSet(facet)]));
  const residual = words.filter((word) => !covered.has(stem(word.toLowerCase())));
  if (residual.length < 2 || facets.length === 0) return facets;
  return [readerLine(words.join(" "), 200), ...facets].slice(0, max);
}

/**
 * Search queries for a question, in the order the engine tries them: the focus, the question
 * itself, the focus with the objective's other key words, then the validation criteria.
 * Distinct (normalized), each at most 300 characters.
 */
export function questionQueries(question: { question: string; validationCriteria: string }, objective: string) {
  const focus = focusOf(question.question);
  const focusStems = stemSet(focus);
  const context = profileRequest(objective)
    .words.filter((word) => !focusStems.has([...stemSet(word)][0] ?? ""))
    .slice(0, 6);
  const candidates = [focus, question.question, [focus, ...context].join(" "), question.validationCriteria];
  const seen = new Set<string>();
  const queries: string[] = [];
  for (const candidate of candidates) {
    // A question's text may cite a claim ("…(c_007) against…"): an id is the notes', never a search word.
    const query = readerLine(withoutIds(candidate), 300);
    const key = normalizeQuery(query);
    if (key === "" || seen.has(key)) continue;
    seen.add(key);
    queries.push(query);
  }
  return queries;
}
