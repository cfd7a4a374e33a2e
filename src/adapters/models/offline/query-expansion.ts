/**
 * Query expansion of the offline planner (pure, deterministic). Two kinds of query, both of
 * what the request's frame holds (`unframed`: never "claim", "literature" or "tell me"):
 * - from the request: its core when it was framed, its quoted phrases and names one by one,
 *   and its multi-word runs of content words, never the whole request (the bootstrap search
 *   already ran it);
 * - pseudo-relevance feedback: names that the best bootstrap sources mention next to the
 *   request's terms but that the request does not, each with the part of the request that
 *   source left unanswered. This is what finds the second document of a two-hop question.
 */

import { bridgeQueries, sentencesRead } from "../../../core/answer/answer.js";
import { isCalendarWord, namesIn, normalizePhrase, quotedIn, stemSet, stems } from "../../../core/lexicon.js";
import { splitSentences } from "../../../core/sentences.js";
import { stripControl } from "../../../core/text.js";
import type { PacketSource } from "../../../ports/model.js";
import { profileRequest, type RequestProfile } from "./request.js";

export interface QueryLimits {
  maxQueries: number;
  maxQueryChars: number;
}

/** Request words added to a feedback name: the part of the request still unanswered. */
const RESIDUAL_WORDS = 4;

export interface Feedback {
  name: string;
  score: number;
  /** Stems of the source the name was found in, to tell what it left unanswered. */
  context: ReadonlySet<string>;
  order: number;
}

const subset = (inner: ReadonlySet<string>, outer: ReadonlySet<string>): boolean =>
  [...inner].every((term) => outer.has(term));

/**
 * How much a name is worth searching for on its own: a multi-word name or a quoted title
 * more, a month, a short acronym or a nationality-like word ("American") much less.
 */
function shapeFactor(name: string, quoted: boolean): number {
  const words = name.split(/\s+/).length;
  if (quoted) return 1.5;
  if (words > 1) return 1.3;
  const lower = name.toLowerCase();
  if (isCalendarWord(lower) || /^\p{Lu}{1,3}$/u.test(name)) return 0.3;
  if (/(?:an|ish|ese|ic|i)$/.test(lower)) return 0.4;
  return 1;
}

/** Words written in lower case somewhere in `text`, as written. */
const lowerCaseWords = (text: string): Set<string> =>
  new Set(text.match(/(?<![\p{L}\p{N}])\p{Ll}[\p{Ll}'’-]*/gu) ?? []);

/** Acronyms are short: a word in capitals this long is a word written in capitals. */
const LONG_CAPITALS = 7;

/**
 * `name` without its leading words in capitals that the sources also write in lower case, or
 * that are too long for an acronym ("OBJECTIVE", "CONCLUSIONS AND RELEVANCE" before a
 * sentence): a section label or emphasis, not part of a name. Acronyms ("KLF4", "NASA") stay.
 * `label` says whether any was taken off ('' is left of a name that was all label).
 */
function withoutLabel(name: string, lower: ReadonlySet<string>): { text: string; label: boolean } {
  const words = name.split(/\s+/);
  let start = 0;
  const isLabel = (word: string): boolean =>
    /^\p{Lu}{2,}$/u.test(word) && (word.length >= LONG_CAPITALS || lower.has(word.toLowerCase()));
  while (start < words.length && isLabel(words[start] ?? "")) start++;
  return { text: words.slice(start).join(" "), label: start > 0 };
}

/** Rank weights of the bootstrap sources read for feedback (the first three, best first). */
const SOURCE_WEIGHTS = [1, 0.5, 0.3];

/**
 * Names the bootstrap sources mention that the request does not, best first. A name
 * scores by the sentences it appears in: how many of the request's relation words (its
 * terms outside its names, quotes and numbers) each shares, times the weight of the source
 * (its rank, and how many of the request's names it mentions: the first hop is the source
 * about them), times the name's shape. Its best occurrence counts fully, others a quarter.
 */
export function feedbackNames(profile: RequestProfile, bootstrap: readonly PacketSource[]): Feedback[] {
  const requestStems = new Set(profile.stems);
  const titles = new Set(bootstrap.flatMap((source) => [...stemSet(source.title)]));
  const found = new Map<string, { name: string; gains: number[]; context: ReadonlySet<string>; order: number }>();
  let order = 0;
  const salient = [...profile.salient];
  const lower = lowerCaseWords(bootstrap.flatMap((source) => source.chunks.map((chunk) => chunk.text)).join(" "));
  bootstrap.slice(0, SOURCE_WEIGHTS.length).forEach((source, rank) => {
    const text = source.chunks.map((chunk) => chunk.text).join("\n\n");
    const context = stemSet(`${source.title} ${text}`);
    // A source about the request's own names is where its bridge names are.
    const affinity = (1 + salient.filter((term) => context.has(term)).length) / (1 + salient.length);
    const weight = (SOURCE_WEIGHTS[rank] ?? 0) * affinity;
    const sentences = splitSentences(text);
    const names = sentences.map((sentence) => [
      ...quotedIn(sentence.text).map((phrase) => ({ text: phrase, initial: false, quoted: true })),
      ...namesIn(sentence.text).flatMap((found) => {
        // What follows a label opens its sentence: "OBJECTIVE Folate" is the word "Folate".
        const { text, label } = withoutLabel(found.text, lower);
        return text === "" ? [] : [{ text, initial: found.initial || label, quoted: false }];
      }),
    ]);
    // A single capitalised word that only ever starts a sentence is probably not a name.
    const midSentence = new Set(names.flat().flatMap((name) => (name.initial ? [] : [normalizePhrase(name.text)])));
    sentences.forEach((sentence, index) => {
      const sentenceStems = new Set(stems(sentence.text));
      let relevance = 0;
      for (const term of requestStems) {
        if (sentenceStems.has(term)) relevance += profile.salient.has(term) ? 0 : 1;
      }
      for (const name of names[index] ?? []) {
        const key = normalizePhrase(name.text);
        const nameStems = stemSet(name.text);
        if (nameStems.size === 0 || subset(nameStems, titles)) continue;
        // A variant of a name the request already has ("Christopher Edward Nolan") is not new.
        const shared = [...nameStems].filter((term) => requestStems.has(term)).length;
        if (shared * 3 >= nameStems.size * 2) continue;
        if (name.initial && nameStems.size === 1 && !midSentence.has(key)) continue;
        const gain = weight * (0.3 + relevance) * shapeFactor(name.text, name.quoted);
        const known = found.get(key);
        if (known) known.gains.push(gain);
        else found.set(key, { name: name.text, gains: [gain], context, order: order++ });
      }
    });
  });
  return [...found.values()]
    .map(({ name, gains, context, order: first }) => {
      const sorted = gains.sort((a, b) => b - a);
      const score = (sorted[0] ?? 0) + 0.25 * sorted.slice(1).reduce((sum, gain) => sum + gain, 0);
      return { name, score, context, order: first };
    })
    .sort((a, b) => b.score - a.score || a.order - b.order);
}

/** The request's words that `context` does not contain, as written, at most `limit`. */
function residual(profile: RequestProfile, context: ReadonlySet<string>, exclude: ReadonlySet<string>): string[] {
  const words = profile.words.filter((word) => {
    const term = stems(word)[0] ?? "";
    return !context.has(term) && !exclude.has(term);
  });
  const salient = words.filter((word) => profile.salient.has(stems(word)[0] ?? ""));
  const rest = words.filter((word) => !profile.salient.has(stems(word)[0] ?? ""));
  return [...salient, ...rest].slice(0, RESIDUAL_WORDS);
}

/**
 * Queries from the request alone: names and quoted phrases, then multi-word runs. A name
 * that a bootstrap source is already titled after is not searched again.
 */
export function requestQueries(profile: RequestProfile, bootstrap: readonly PacketSource[] = []): string[] {
  const titles = bootstrap.map((source) => stemSet(source.title));
  const names = profile.names.filter((name) => {
    const nameStems = stemSet(name);
    return shapeFactor(name, false) >= 1 && !titles.some((title) => subset(nameStems, title));
  });
  const nameStems = new Set(profile.names.flatMap((name) => [...stemSet(name)]));
  // A run is worth a query of its own when it has at least two words outside the names.
  const runs = profile.chunks.filter((chunk) => [...stemSet(chunk)].filter((term) => !nameStems.has(term)).length > 1);
  return [...names, ...runs];
}

/** Queries from the bootstrap sources: one feedback name with the request's unanswered words. */
export function feedbackQueries(profile: RequestProfile, bootstrap: readonly PacketSource[]): string[] {
  return feedbackNames(profile, bootstrap).map((feedback) => {
    const nameStems = stemSet(feedback.name);
    return [feedback.name, ...residual(profile, feedback.context, nameStems)].join(" ");
  });
}

/** The leading whole words of `text` that fit in `maxChars` ('' when the first does not). */
function fitWords(text: string, maxChars: number): string {
  let result = "";
  for (const word of stripControl(text)
    .split(/\s+/)
    .filter((part) => part !== "")) {
    const next = result === "" ? word : `${result} ${word}`;
    if (next.length > maxChars) break;
    result = next;
  }
  return result;
}

/** Canonical form for duplicates: the distinct stems, sorted. */
const canonical = (query: string): string => [...stemSet(query)].sort().join(" ");

/**
 * The planner's queries: feedback and request queries alternated (feedback first, as it
 * reaches what the bootstrap search could not), distinct, none equal to the whole request,
 * each within `maxQueryChars`, at most `maxQueries`.
 */
export function planQueries(question: string, bootstrap: readonly PacketSource[], limits: QueryLimits): string[] {
  const profile = profileRequest(question);
  const fromRequest = requestQueries(profile, bootstrap);
  // A multi-hop part: the bridge the sentences carrying most of it name, with what they leave unsaid.
  const bridges = bridgeQueries(question, sentencesRead(bootstrap));
  const fromFeedback = [...bridges, ...feedbackQueries(profile, bootstrap)];
  // A framed request: what the frame holds is searched first, on its own (the bootstrap search ran the whole).
  const merged: string[] = profile.core === question.trim() ? [] : [profile.core];
  for (let index = 0; index < Math.max(fromRequest.length, fromFeedback.length); index++) {
    const feedback = fromFeedback[index];
    const request = fromRequest[index];
    if (feedback !== undefined) merged.push(feedback);
    if (request !== undefined) merged.push(request);
  }
  const seen = new Set([canonical(question), ""]);
  const queries: string[] = [];
  for (const candidate of merged) {
    if (queries.length >= limits.maxQueries) break;
    const query = fitWords(candidate, limits.maxQueryChars);
    const key = canonical(query);
    if (seen.has(key) || query.length === 0) continue;
    seen.add(key);
    queries.push(query);
  }
  return queries;
}
