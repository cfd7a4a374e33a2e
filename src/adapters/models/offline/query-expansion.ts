/**
 * Query expansion of the offline planner (pure, deterministic). Two kinds of query:
 * - from the request: its quoted phrases and names one by one, and its multi-word runs
 *   of content words, never the whole request (the bootstrap search already ran it);
 * - pseudo-relevance feedback: names that the best bootstrap sources mention next to the
 *   request's terms but that the request does not, each with the part of the request that
 *   source left unanswered. This is what finds the second document of a two-hop question.
 */
import { cutAtWord } from "../../../core/text.js";
import type { PacketSource } from "../../../ports/model.js";
import { namesIn, normalizePhrase, stemSet, stems } from "./lexicon.js";
import { profileRequest, type RequestProfile } from "./request.js";
import { splitSentences } from "./sentences.js";

export interface QueryLimits {
  maxQueries: number;
  maxQueryChars: number;
}

/** Bootstrap sources read for feedback, best first. */
const FEEDBACK_SOURCES = 3;
/** Request words added to a feedback name: the part of the request still unanswered. */
const RESIDUAL_WORDS = 4;

interface Feedback {
  name: string;
  score: number;
  /** Stems of the source the name was found in, to tell what it left unanswered. */
  context: ReadonlySet<string>;
  order: number;
}

const subset = (inner: ReadonlySet<string>, outer: ReadonlySet<string>): boolean =>
  [...inner].every((term) => outer.has(term));

/** Names the bootstrap sources mention near the request's terms, best first. */
export function feedbackNames(profile: RequestProfile, bootstrap: readonly PacketSource[]): Feedback[] {
  const requestStems = new Set(profile.stems);
  const titles = new Set(bootstrap.flatMap((source) => [...stemSet(source.title)]));
  const byKey = new Map<string, Feedback>();
  let order = 0;
  bootstrap.slice(0, FEEDBACK_SOURCES).forEach((source, rank) => {
    const weight = 1 / (1 + 0.5 * rank);
    const text = source.chunks.map((chunk) => chunk.text).join("\n\n");
    const context = stemSet(`${source.title} ${text}`);
    const sentences = splitSentences(text);
    const names = sentences.map((sentence) => namesIn(sentence.text));
    // A single capitalised word that only ever starts a sentence is probably not a name.
    const midSentence = new Set(names.flat().flatMap((name) => (name.initial ? [] : [normalizePhrase(name.text)])));
    sentences.forEach((sentence, index) => {
      const sentenceStems = new Set(stems(sentence.text));
      let relevance = 0;
      for (const term of requestStems) {
        if (sentenceStems.has(term)) relevance += profile.salient.has(term) ? 2 : 1;
      }
      for (const name of names[index] ?? []) {
        const key = normalizePhrase(name.text);
        const nameStems = stemSet(name.text);
        if (nameStems.size === 0 || subset(nameStems, requestStems) || subset(nameStems, titles)) continue;
        if (name.initial && nameStems.size === 1 && !midSentence.has(key)) continue;
        const gain = weight * (0.25 + relevance) * (nameStems.size > 1 ? 1.2 : 1);
        const known = byKey.get(key);
        if (known) known.score += gain;
        else byKey.set(key, { name: name.text, score: gain, context, order: order++ });
      }
    });
  });
  return [...byKey.values()].sort((a, b) => b.score - a.score || a.order - b.order);
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

/** Queries from the request alone: names and quoted phrases, then multi-word runs. */
export function requestQueries(profile: RequestProfile): string[] {
  const nameStems = new Set(profile.names.flatMap((name) => [...stemSet(name)]));
  const runs = profile.chunks.filter((chunk) => {
    const chunkStems = stemSet(chunk);
    return chunkStems.size > 1 && !subset(chunkStems, nameStems);
  });
  return [...profile.names, ...runs];
}

/** Queries from the bootstrap sources: one feedback name with the request's unanswered words. */
export function feedbackQueries(profile: RequestProfile, bootstrap: readonly PacketSource[]): string[] {
  return feedbackNames(profile, bootstrap).map((feedback) => {
    const nameStems = stemSet(feedback.name);
    return [feedback.name, ...residual(profile, feedback.context, nameStems)].join(" ");
  });
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
  const fromRequest = requestQueries(profile);
  const fromFeedback = feedbackQueries(profile, bootstrap);
  const merged: string[] = [];
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
    const query = cutAtWord(candidate.replace(/\s+/g, " ").trim(), limits.maxQueryChars);
    const key = canonical(query);
    if (seen.has(key) || query.length === 0) continue;
    seen.add(key);
    queries.push(query);
  }
  return queries;
}
