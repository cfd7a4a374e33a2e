/**
 * A scripted investigator for the prompt-size bench: it answers every `Model.act` turn of the
 * real investigative strategy from the loop's state (`ActInput.state`, the same facts the
 * prompt holds), the way a diligent model works. Deterministic: no randomness, no clock.
 *
 * Per turn, a mix: the broad expansion of the objective into sub-questions; a targeted search
 * (each names one synthetic document, `Document 23 …`, so the fake search ranks it first), one
 * or two of its hits read; claims and a datapoint extracted with `notes_append`, citing passage
 * ids of the page read (voluntarily every other turn, otherwise in the forced extraction turn);
 * one challenge per question (of its answer at depth 1, of a claim deeper), its query searched,
 * its verdict recorded, a challenged claim cross-checked and verified; the question resolved and
 * new sub-questions added so the frontier never runs dry; a plan written to Scratch now and then;
 * consolidation turns that retract claims no answer cites and shorten Scratch. In synthesis:
 * `notes_read`, `frontier_view`, then `finalize_report` from the ledger.
 */
import type { ActState, LoopPage } from "../core/investigative/loop-tools.js";
import { notesTokens } from "../core/investigative/notes.js";
import { currentQuestion, notesText } from "../core/investigative/tools.js";
import type { Challenge, Claim, Investigation, Question } from "../core/investigative/types.js";
import type { ActInput, ActTurn } from "../ports/model.js";

type Call = { name: string; args: unknown };

/** Calls the strategy runs per turn (MAX_CALLS_PER_TURN in investigative-turn.ts). */
const CALLS_PER_TURN = 8;
/** The first document number a targeted search names (single digits are not search terms). */
const FIRST_TARGET = 10;
const TOPICS = [
  "cathode energy density",
  "anode cycle life",
  "electrolyte safety",
  "cell cost",
  "charge rate and cycle",
  "lithium cathode cost",
  "anode energy",
  "electrolyte cycle safety",
];
const STRATEGIES = ["discrepancy", "negation", "criticism", "scope_limit", "staleness"] as const;

/** What the script saw of one turn's prompt (for the bench's cross-check and its notes column). */
export interface ObservedTurn {
  turn: number;
  /** notes.md tokens in the prompt of this turn. */
  notesTokens: number;
  /** Characters of the prompt as the model received it (system, messages, call arguments). */
  promptChars: number;
  /** Of which: the raw turns (assistant calls and tool results) the prompt kept. */
  rawChars: number;
}

const active = (claim: Claim): boolean => claim.status === "UNVERIFIED" || claim.status === "VERIFIED";
const firstSentence = (text: string): string => (text.split(/(?<=\.)\s/)[0] ?? text).slice(0, 300).trim();

/** Chars of an ActInput, counted as `promptSize` counts a TurnPrompt. */
function inputChars(input: ActInput): { promptChars: number; rawChars: number } {
  let promptChars = input.system.length;
  let rawChars = 0;
  for (const [index, message] of input.messages.entries()) {
    const calls =
      message.role === "assistant"
        ? message.calls.reduce(
            (sum, call) => sum + call.id.length + call.name.length + JSON.stringify(call.args).length,
            0,
          )
        : 0;
    const chars = (message.role === "assistant" ? message.text.length : message.content.length) + calls;
    promptChars += chars;
    // Messages 0 and 1 are the task and the scratchpad; a trailing user message is the reminder.
    if (index >= 2 && message.role !== "user") rawChars += chars;
  }
  return { promptChars, rawChars };
}

export class ScriptedInvestigator {
  readonly observed: ObservedTurn[] = [];
  #ids = 0;
  #target = FIRST_TARGET;
  #topics = 0;
  #pages = 0;
  #synthesisTurns = 0;
  readonly #read = new Set<string>();

  constructor(readonly documents: number) {}

  act(input: ActInput): ActTurn {
    // The strategy's own state, not model output: ActInput.state is ActState for this strategy.
    const state = input.state as ActState;
    this.#observe(input, state);
    const calls =
      state.phase === "synthesis"
        ? this.#synthesis(state)
        : state.mode.kind === "extraction"
          ? this.#extraction(state, state.mode.questionId)
          : state.mode.kind === "consolidation"
            ? this.#consolidation(state.investigation)
            : this.#normal(state);
    const chosen = calls.length > 0 ? calls : [{ name: "frontier_view", args: {} }];
    return {
      text: "",
      calls: chosen.slice(0, CALLS_PER_TURN).map((call) => ({ id: `call_${++this.#ids}`, ...call })),
    };
  }

  #observe(input: ActInput, state: ActState): void {
    this.observed.push({
      turn: state.turn,
      notesTokens: notesTokens(notesText(state.investigation)),
      ...inputChars(input),
    });
  }

  // -------------------------------------------------------------------------------------
  // Exploration

  #normal(state: ActState): Call[] {
    const inv = state.investigation;
    if (!inv.frontier.questions.some((question) => question.parentId === "q_001")) return this.#expand(inv);
    const calls: Call[] = [];
    const question = currentQuestion(inv);
    // Small pages are not forced into extraction at once: extract them voluntarily every other turn.
    if (state.turn % 2 === 0) {
      for (const page of state.pendingPages) calls.push(...this.#extract(page, question?.id ?? "q_001"));
    }
    const fetches = this.#fetches(state);
    calls.push(...fetches);
    if (!question) return [...calls, ...this.#grow(inv, null)];
    calls.push(...this.#work(inv, question, fetches.length > 0));
    if (state.turn % 5 === 0) calls.push(this.#plan(inv, question));
    return calls;
  }

  #expand(inv: Investigation): Call[] {
    return [0.9, 0.8, 0.7, 0.6].map((priority) => this.#addQuestion("q_001", priority, inv));
  }

  #addQuestion(parentId: string, priority: number, inv: Investigation): Call {
    const topic = TOPICS[this.#topics % TOPICS.length] ?? "cell";
    const serial = ++this.#topics;
    return {
      name: "add_question",
      args: {
        parent_id: parentId,
        question: `What do the sources report on ${topic} (line of inquiry ${serial} of "${inv.frontier.objective.slice(0, 40)}")?`,
        rationale: `the objective depends on ${topic}; line ${serial} narrows it`,
        priority,
        validation_criteria: `a passage stating a figure on ${topic}, with its unit and conditions`,
        target_sources: ["benchmarks", "paper_tables"],
      },
    };
  }

  /** Reads the unread hits of the previous turn's search: the one it targeted, and another every other turn. */
  #fetches(state: ActState): Call[] {
    const hits = state.lastResults.flatMap((result) => (result.name === "search" ? (result.hits ?? []) : []));
    const unread = hits.filter((hit) => !this.#read.has(hit.location));
    const picked = unread.slice(0, state.turn % 2 === 0 ? 2 : 1);
    for (const hit of picked) this.#read.add(hit.location);
    return picked.map((hit) => ({ name: "fetch_page", args: { hit: hit.handle } }));
  }

  /** The next step on the current question. */
  #work(inv: Investigation, question: Question, fetching: boolean): Call[] {
    const claims = inv.ledger.claims.filter((claim) => claim.questionId === question.id && active(claim));
    const challenge = this.#challengeOf(inv, question, claims);
    if (challenge?.status === "open" && !challenge.attempt) {
      return [{ name: "search", args: { query: challenge.query } }];
    }
    if (challenge?.status === "open") return this.#verdict(inv, challenge);
    if (fetching) return [];
    const searches = inv.frontier.attempts.filter(
      (attempt) => attempt.questionId === question.id && attempt.tool === "search",
    ).length;
    if (searches < 2 || (claims.length === 0 && searches < 4)) return [this.#search(question)];
    if (claims.length > 0 && !challenge) return [this.#challenge(inv, question, claims)];
    return this.#resolve(inv, question, claims, challenge);
  }

  #search(question: Question): Call {
    const target = this.#target;
    this.#target = this.#target >= this.documents ? FIRST_TARGET : this.#target + 1;
    const topic = /on (.+?) \(line/.exec(question.question)?.[1] ?? "cell energy";
    return { name: "search", args: { query: `Document ${target} ${topic}` } };
  }

  #challengeOf(inv: Investigation, question: Question, claims: readonly Claim[]): Challenge | undefined {
    const targets = new Set([question.id, ...claims.map((claim) => claim.id)]);
    return inv.challenges.findLast((challenge) => targets.has(challenge.targetId));
  }

  #challenge(inv: Investigation, question: Question, claims: readonly Claim[]): Call {
    const onAnswer = question.depth <= 1;
    const claim = claims[0];
    const strategy = STRATEGIES[inv.challenges.length % STRATEGIES.length] ?? "discrepancy";
    return {
      name: "challenge",
      args: {
        target_type: onAnswer || !claim ? "question_answer" : "claim",
        target_id: onAnswer || !claim ? question.id : claim.id,
        negation: `the reported figures on ${question.id} are wrong or measured under other conditions`,
        strategy,
        expected_if_false: "a measurement or review giving a clearly different figure",
        query: `contradicting measurement ${strategy} ${question.id} review ${inv.challenges.length + 1}`,
      },
    };
  }

  /** Closes an executed challenge (survived); a challenged claim is then cross-checked and verified. */
  #verdict(inv: Investigation, challenge: Challenge): Call[] {
    const supports = (claimId: string) =>
      inv.ledger.claimSources.filter((link) => link.claimId === claimId && link.stance === "supports");
    const cited =
      challenge.targetType === "claim"
        ? supports(challenge.targetId).map((link) => link.sourceId)
        : inv.ledger.claims
            .filter((claim) => claim.questionId === challenge.targetId)
            .flatMap((claim) => supports(claim.id).map((link) => link.sourceId));
    const calls: Call[] = [
      {
        name: "record_challenge_result",
        args: {
          challenge_id: challenge.id,
          outcome: "survived",
          evidence: "the adversarial search found no measurement that contradicts it",
          source_ids: [...new Set(cited)].slice(0, 3),
        },
      },
    ];
    const other = inv.ledger.sources.find((source) => !cited.includes(source.id) && source.note === "");
    if (challenge.targetType === "claim" && other) {
      calls.push(
        {
          name: "notes_update",
          args: {
            id: challenge.targetId,
            add_source: { source_id: other.id, stance: "supports", passage_ids: [`${other.id}.p01`] },
            independence: "two different documents of the corpus, neither quoting the other",
          },
        },
        { name: "notes_update", args: { id: challenge.targetId, status: "VERIFIED" } },
      );
    }
    return calls;
  }

  #resolve(inv: Investigation, question: Question, claims: readonly Claim[], challenge?: Challenge): Call[] {
    const answered = challenge?.status === "closed" && challenge.targetType === "question_answer";
    const calls: Call[] = [
      {
        name: "resolve_question",
        args: {
          id: question.id,
          answer: claims.length > 0 ? firstSentence(claims[0]?.text ?? "") : "No source states it.",
          claim_ids: claims.slice(0, 4).map((claim) => claim.id),
          ...(answered ? {} : { reason: "the claims it rests on were challenged, or no claim was found" }),
        },
      },
    ];
    return [...calls, ...this.#grow(inv, question)];
  }

  /** New sub-questions after a resolution (or when nothing is actionable), while the cap allows. */
  #grow(inv: Investigation, resolved: Question | null): Call[] {
    const room = inv.config.maxQuestions - inv.frontier.questions.length;
    const parent = resolved && resolved.depth < inv.config.maxDepth ? resolved.id : "q_001";
    const count = Math.min(room, resolved ? 2 : 1);
    return Array.from({ length: Math.max(0, count) }, (_, index) => this.#addQuestion(parent, 0.85 - index * 0.2, inv));
  }

  #plan(inv: Investigation, question: Question): Call {
    const line = `Plan: finish ${question.id}, then the highest pending question; ${inv.ledger.claims.length} claims so far, cross-check the unverified ones.`;
    return { name: "notes_scratch", args: { text: `${inv.scratch}\n${line}`.trim().slice(-3_900) } };
  }

  /** Claims and a datapoint from a page; every fourth page holds nothing relevant (the loop notes it). */
  #extract(page: LoopPage, questionId: string): Call[] {
    const serial = ++this.#pages;
    if (page.passages.length === 0 || serial % 4 === 0) return [];
    const passages = [...new Set([0, Math.floor(page.passages.length / 2), page.passages.length - 1])]
      .map((index) => page.passages[index])
      .filter((passage) => passage !== undefined)
      .slice(0, 1 + (serial % 3));
    const entries = passages.map((passage) => ({
      text: firstSentence(passage.text),
      source_ids: [page.sourceId],
      passage_ids: [passage.id],
      question_id: questionId,
      check: "a second, independent document stating the same",
    }));
    const first = passages[0];
    const datapoint = first && {
      text: `measured in ${firstSentence(first.text).slice(0, 120)}`,
      value: String(120 + ((serial * 37) % 180)),
      unit: "Wh/kg",
      source_ids: [page.sourceId],
      passage_ids: [first.id],
      question_id: questionId,
    };
    return [
      { name: "notes_append", args: { section: "unverified", entries } },
      ...(datapoint ? [{ name: "notes_append", args: { section: "datapoints", entries: [datapoint] } }] : []),
    ];
  }

  #extraction(state: ActState, questionId: string): Call[] {
    const calls = state.pendingPages.flatMap((page) => this.#extract(page, questionId));
    if (calls.length > 0) return calls;
    // Nothing relevant in any page: a note in Scratch; the loop records the sources as read.
    return [
      {
        name: "notes_scratch",
        args: {
          text: `${state.investigation.scratch}\nRead pages held nothing on ${questionId}.`.trim().slice(-3_900),
        },
      },
    ];
  }

  /** Retracts claims no answer cites and no open challenge targets (oldest first), and shortens Scratch. */
  #consolidation(inv: Investigation): Call[] {
    const cited = new Set(inv.frontier.questions.flatMap((question) => question.claimIds));
    const challenged = new Set(inv.challenges.filter((c) => c.status === "open").map((c) => c.targetId));
    const retract = inv.ledger.claims
      .filter((claim) => claim.status === "UNVERIFIED" && !cited.has(claim.id) && !challenged.has(claim.id))
      .slice(0, CALLS_PER_TURN - 1)
      .map((claim) => ({
        name: "notes_update",
        args: { id: claim.id, status: "RETRACTED", reason: "duplicates a claim an answer cites" },
      }));
    return [...retract, { name: "notes_scratch", args: { text: inv.scratch.slice(-600) } }];
  }

  // -------------------------------------------------------------------------------------
  // Synthesis

  #synthesis(state: ActState): Call[] {
    const step = ++this.#synthesisTurns;
    if (state.forced === undefined && step === 1) return [{ name: "notes_read", args: {} }];
    if (state.forced === undefined && step === 2) return [{ name: "frontier_view", args: { status: "resolved" } }];
    return [{ name: "finalize_report", args: report(state.investigation) }];
  }
}

/** A report the finalization gate accepts: items from the held claims, their real statuses, the gaps. */
function report(inv: Investigation): unknown {
  const held = inv.ledger.claims.filter(active);
  const chosen = [...held.filter((claim) => claim.status === "VERIFIED"), ...held].slice(0, 8);
  const unique = [...new Map(chosen.map((claim) => [claim.id, claim])).values()];
  const supports = (claimId: string) =>
    inv.ledger.claimSources
      .filter((link) => link.claimId === claimId && link.stance === "supports")
      .map((link) => link.sourceId);
  const unresolvable = inv.frontier.questions.filter((question) => question.status === "unresolvable");
  return {
    summary: `The sources report figures on energy density, cost and safety; ${unique.length} findings follow.`,
    items: unique.map((claim) => ({ text: claim.text, claimIds: [claim.id], sourceIds: supports(claim.id) })),
    gaps: unresolvable.map((question) => ({
      text: `Not established: ${question.question}`,
      questionIds: [question.id],
    })),
    keyClaims: unique.map((claim) => ({ claimId: claim.id, status: claim.status })),
  };
}
