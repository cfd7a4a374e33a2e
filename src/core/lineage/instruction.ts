/**
 * Follow-ups and revisions, read without a model: what a follow-up researches (its question in
 * its parent's context) and what a revision's instruction asks (a topic to add, a topic to drop).
 * Pure.
 */
import type { Admitted } from "../synthesis/admission.js";
import { keyTerms } from "../text.js";

/** What revision instructions ask for: topics to research and add, topics to leave out. */
export interface Instruction {
  add: string[];
  drop: string[];
}

const DROP = /^(?:please\s+)?(?:drop|remove|omit|exclude|delete|cut|leave\s+out|take\s+out|skip)\s+(.+)$/i;
const ADD =
  /^(?:please\s+)?(?:add|include|cover|expand\s+on|go\s+deeper\s+(?:on|into)|say\s+more\s+about|elaborate\s+on|more\s+on)\s+(.+)$/i;
/** "the part on", "the section about", "anything regarding": the words before the topic itself. */
const LEAD =
  /^(?:(?:the|a|any|all|anything|everything)\s+)?(?:(?:parts?|sections?|bits?|findings?|paragraphs?|mentions?)\s+)?(?:(?:on|about|regarding|concerning|of|related\s+to)\s+)?(?:(?:the|a|an)\s+)?/i;

function topicOf(words: string): string {
  const trimmed = words.trim().replace(/[.!?]+$/, "");
  const topic = trimmed.replace(LEAD, "").trim();
  return topic === "" ? trimmed : topic;
}

/**
 * Reads an instruction: "drop the part on recycling" drops "recycling"; "add the 2024 figures"
 * adds "2024 figures"; "… and …" of both kinds is read clause by clause; anything else is read as
 * a topic to add (researched and added where sources carry it).
 */
export function parseInstruction(text: string): Instruction {
  const clauses = text
    .split(
      /\s*(?:;|,?\s+and\s+(?=(?:please\s+)?(?:drop|remove|omit|exclude|delete|cut|leave|take|skip|add|include|cover|expand|go|say|elaborate|more)\b))\s*/i,
    )
    .map((clause) => clause.trim())
    .filter(Boolean);
  const add: string[] = [];
  const drop: string[] = [];
  for (const clause of clauses) {
    const dropped = DROP.exec(clause);
    if (dropped?.[1]) {
      drop.push(topicOf(dropped[1]));
      continue;
    }
    const added = ADD.exec(clause);
    add.push(added?.[1] ? topicOf(added[1]) : topicOf(clause));
  }
  return { add, drop };
}

/** What a chain of revisions asks for, oldest first: every topic any of them added or dropped. */
export function revisionFocus(instructions: readonly string[]): Instruction {
  const read = instructions.map(parseInstruction);
  return { add: read.flatMap((item) => item.add), drop: read.flatMap((item) => item.drop) };
}

/** The stem a topic word is matched by: "recycling" matches "recycled" and "recycle". */
function stem(word: string): string {
  return word.length <= 5 ? word : word.slice(0, Math.max(5, word.length - 3));
}

/** Whether `text` mentions every key word of `topic` (by stem); false for an empty topic. */
export function mentions(text: string, topic: string): boolean {
  const wanted = keyTerms(topic).map(stem);
  if (wanted.length === 0) return false;
  const words = keyTerms(text);
  return wanted.every((want) => words.some((word) => word.startsWith(want)));
}

/**
 * What a child run researches. `question`: what its findings answer (a follow-up's own question;
 * a revision's: the report's question with the topics every revision so far added). `search`:
 * what its first search asks: a follow-up's question followed by its parent's, so that an
 * elliptic "and what about sodium-ion?" keeps its subject when ranking documents; for a
 * revision, only the topics its own instruction adds ('' when none: the sources the report
 * already read are all it reads).
 */
export function researchText(
  question: string,
  lineage: { relation: "follow-up" | "revision"; instruction: string },
  context: { parentQuestion: string; revisions: readonly string[] },
): { question: string; search: string } {
  if (lineage.relation === "follow-up") return { question, search: `${question} ${context.parentQuestion}`.trim() };
  const all = revisionFocus(context.revisions).add;
  return {
    question: [question, ...all].join(" "),
    search: parseInstruction(lineage.instruction).add.join(" "),
  };
}

/**
 * The admitted items without those that mention a topic to drop (and the
 * derivations and recommendations that rest on a dropped item); how many items were dropped.
 */
export function dropTopics(admitted: Admitted, topics: readonly string[]): { admitted: Admitted; dropped: number } {
  if (topics.length === 0) return { admitted, dropped: 0 };
  const onTopic = (text: string): boolean => topics.some((topic) => mentions(text, topic));
  const gone = new Set<string>();
  const facts = admitted.facts.filter((fact) => {
    if (!onTopic(fact.text)) return true;
    gone.add(fact.id);
    return false;
  });
  // Derivations in order: one resting on a dropped derivation goes too.
  const derivations = admitted.derivations.filter((item) => {
    if (!onTopic(item.text) && !item.premiseIds.some((id) => gone.has(id))) return true;
    gone.add(item.id);
    return false;
  });
  const recommendations = admitted.recommendations.filter((item) => {
    if (!onTopic(item.text) && !item.premiseIds.some((id) => gone.has(id))) return true;
    gone.add(item.id);
    return false;
  });
  const gaps = admitted.gaps.filter((gap) => !onTopic(gap.text));
  const dropped = gone.size + admitted.gaps.length - gaps.length;
  return { admitted: { ...admitted, facts, derivations, recommendations, gaps }, dropped };
}
