/**
 * Prompt size of the investigative loop over a scripted 60-turn exploration (pure: no model,
 * no I/O), against a naive prompt that keeps every raw tool result. The compacted size should
 * depend on notes (≤ notesMaxTokens), the frontier summary and keepTurns turns, not on the turn.
 *
 * The script (seeded, so the same every run): sub-questions; searches (300–2,500 chars) and
 * fetches (1,500–8,000); a result over the threshold forces an extraction turn (source, claims,
 * a datapoint, or "read, nothing relevant") that commits it; small results are committed after
 * the turn that read them; Scratch grows every turn; challenges open and close; notes over budget
 * force a consolidation turn (duplicates retracted, the settled verified, Scratch shortened).
 */

import { openChallenges } from "../core/investigative/challenges.js";
import {
  addQuestion,
  createFrontier,
  frontierNext,
  rankActionable,
  recordAttempt,
  resolveQuestion,
} from "../core/investigative/frontier.js";
import type { FrontierResult } from "../core/investigative/frontier-draft.js";
import { renderFrontierSummary } from "../core/investigative/frontier-summary.js";
import { EMPTY_LEDGER } from "../core/investigative/ledger.js";
import { notesTokens } from "../core/investigative/notes.js";
import { currentQuestion, notesText } from "../core/investigative/tools.js";
import { buildTurnPrompt, promptSize, type TurnPrompt } from "../core/investigative/turn-prompt.js";
import {
  commitResults,
  offeredTools,
  recordCall,
  type TurnCall,
  type TurnMode,
  type TurnRecord,
  turnMode,
  visibleTurns,
} from "../core/investigative/turns.js";
import {
  type Challenge,
  type Claim,
  DEFAULT_INVESTIGATION_CONFIG,
  type Frontier,
  type Investigation,
} from "../core/investigative/types.js";

const TURNS = 60;
const MAX_CALLS = 3;
const MAX_RESULT_CHARS = 8_000;
const OBJECTIVE = "How much GPU memory does model X need for inference at fp16, and what drives it?";
const TOOLS = (
  "search fetch_page frontier_next frontier_view add_question resolve_question retry_question notes_append " +
  "notes_update notes_scratch challenge record_challenge_result finish_exploration"
).split(" ");
const WORDS =
  "memory model weights activations cache batch sequence length precision fp16 int8 kernel throughput latency gigabytes parameters layer attention tensor parallel benchmark measured reported vendor paper card".split(
    " ",
  );

/** mulberry32: a small seeded generator, so the script is the same on every run. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Sim {
  random: () => number;
  inv: Investigation;
  turns: TurnRecord[];
  now: string;
  turn: number;
}

const between = (sim: Sim, min: number, max: number): number => min + Math.floor(sim.random() * (max - min + 1));

function prose(sim: Sim, chars: number): string {
  const words: string[] = [];
  let length = 0;
  while (length < chars) {
    const word = WORDS[Math.floor(sim.random() * WORDS.length)] ?? "x";
    words.push(word);
    length += word.length + 1;
  }
  return words.join(" ").slice(0, chars);
}

function must<T>(result: FrontierResult<T>): Frontier {
  if (!result.ok) throw new Error(`bench script: ${result.error.message}`);
  return result.value.frontier;
}

const ctxOf = (sim: Sim) => ({ now: sim.now, actor: "agent" as const });
const nextId = (prefix: string, count: number): string => `${prefix}_${String(count + 1).padStart(3, "0")}`;

function call(sim: Sim, name: string, args: unknown, resultText: string): TurnCall {
  return recordCall({ id: `call_${sim.turn}_${name}_${Math.floor(sim.random() * 1e6)}`, name, args, resultText });
}

/** The extraction turn: a source, claims and a datapoint per pending result (or "read, nothing relevant"). */
function extract(sim: Sim, mode: Extract<TurnMode, { kind: "extraction" }>): TurnCall[] {
  const calls: TurnCall[] = [];
  let { ledger } = sim.inv;
  for (const pending of mode.pending) {
    const sourceId = nextId("s", ledger.sources.length);
    const nothing = sim.random() < 0.25;
    const source = {
      id: sourceId,
      location: `https://site${between(sim, 1, 12)}.example/${sourceId}`,
      domain: `site${between(sim, 1, 12)}.example`,
      title: `Page ${sourceId} on ${prose(sim, 30)}`,
      note: nothing ? "read, nothing relevant" : "",
    };
    const claims: Claim[] = [];
    const count = nothing ? 0 : between(sim, 3, 6);
    for (let index = 0; index < count; index++) {
      const datapoint = index === count - 1;
      const id = datapoint
        ? nextId("d", ledger.claims.filter((claim) => claim.kind === "datapoint").length)
        : nextId("c", ledger.claims.filter((claim) => claim.kind === "claim").length + claims.length);
      claims.push({
        id,
        questionId: mode.questionId,
        kind: datapoint ? "datapoint" : "claim",
        text: prose(sim, between(sim, 120, 260)),
        value: datapoint ? String(between(sim, 4, 80)) : "",
        unit: datapoint ? "GB" : "",
        status: "UNVERIFIED",
        check: datapoint ? "" : `a second source on ${prose(sim, 40)}`,
        independence: "",
        createdAt: sim.now,
        updatedAt: sim.now,
      });
    }
    ledger = {
      ...ledger,
      sources: [...ledger.sources, source],
      claims: [...ledger.claims, ...claims],
      claimSources: [
        ...ledger.claimSources,
        ...claims.map((claim) => ({ claimId: claim.id, sourceId, stance: "supports" as const, chunkIds: [] })),
      ],
    };
    calls.push(
      call(sim, "notes_append", { section: "unverified" }, `Appended ${claims.length} records. ${prose(sim, 250)}`),
    );
    sim.turns = commitResults(sim.turns, pending.turn, nothing ? "nothing-relevant" : "extracted");
  }
  sim.inv = { ...sim.inv, ledger };
  return calls;
}

/** The consolidation turn: duplicates retracted, the settled verified, Scratch shortened. */
function consolidate(sim: Sim): TurnCall[] {
  const unverified = sim.inv.ledger.claims.filter((claim) => claim.status === "UNVERIFIED");
  const retract = new Set(unverified.filter((_, index) => index % 2 === 0).map((claim) => claim.id));
  const verify = new Set(unverified.filter((_, index) => index % 4 === 1).map((claim) => claim.id));
  const claims = sim.inv.ledger.claims.map((claim): Claim => {
    if (retract.has(claim.id)) return { ...claim, status: "RETRACTED", updatedAt: sim.now };
    return verify.has(claim.id) ? { ...claim, status: "VERIFIED", updatedAt: sim.now } : claim;
  });
  const scratch = sim.inv.scratch.slice(-600);
  sim.inv = { ...sim.inv, ledger: { ...sim.inv.ledger, claims }, scratch };
  return [
    call(sim, "notes_update", { merged: retract.size }, `Retracted ${retract.size} duplicates. ${prose(sim, 200)}`),
    call(sim, "notes_scratch", { text: scratch }, "Scratch replaced."),
  ];
}

function challenges(sim: Sim): void {
  const open = openChallenges(sim.inv.challenges);
  const target = sim.inv.ledger.claims.find((claim) => claim.status === "UNVERIFIED");
  if (sim.turn % 9 === 0 && target) {
    const challenge: Challenge = {
      id: nextId("ch", sim.inv.challenges.length),
      questionId: null,
      targetType: "claim",
      targetId: target.id,
      negation: `not ${prose(sim, 80)}`,
      strategy: "negation",
      expectedIfFalse: prose(sim, 60),
      query: prose(sim, 40),
      attempt: null,
      status: "open",
      outcome: "",
      evidence: "",
      sourceIds: [],
      resultClaimId: null,
      createdAt: sim.now,
      closedAt: null,
    };
    sim.inv = { ...sim.inv, challenges: [...sim.inv.challenges, challenge] };
  } else if (sim.turn % 9 === 5 && open[0]) {
    const closed = { ...open[0], status: "closed" as const, outcome: "survived" as const, closedAt: sim.now };
    sim.inv = { ...sim.inv, challenges: sim.inv.challenges.map((c) => (c.id === closed.id ? closed : c)) };
  }
}

/** A normal turn: frontier work, then 1–3 searches and fetches on the current question. */
function explore(sim: Sim): TurnCall[] {
  let frontier = sim.inv.frontier;
  const calls: TurnCall[] = [];
  const ctx = ctxOf(sim);
  const current = currentQuestion(sim.inv);
  const addChild = (parentId: string) => {
    const input = {
      parentId,
      question: `Which ${prose(sim, between(sim, 40, 110))}?`,
      rationale: prose(sim, 60),
      priority: between(sim, 30, 95) / 100,
      validationCriteria: `a figure with ${prose(sim, 50)}`,
      targetSources: [],
    };
    frontier = must(addQuestion(frontier, input, sim.inv.config, ctx));
    calls.push(call(sim, "add_question", input, `Added. ${prose(sim, between(sim, 300, 600))}`));
  };
  if (!current && rankActionable(frontier).length === 0) {
    // A first expansion, or a gap found once the frontier ran dry.
    for (let index = 0; index < 3; index++) addChild("q_001");
  } else if (!current) {
    frontier = must(frontierNext(frontier, sim.inv.config, ctx));
    calls.push(call(sim, "frontier_next", {}, `Selected. ${prose(sim, between(sim, 300, 600))}`));
  } else if (frontier.attempts.filter((attempt) => attempt.questionId === current.id).length >= 3) {
    const claimIds = sim.inv.ledger.claims.filter((claim) => claim.questionId === current.id).map((c) => c.id);
    const input = { id: current.id, answer: prose(sim, 120), claimIds, reason: "no claim recorded" };
    frontier = must(resolveQuestion(frontier, input, ctx));
    calls.push(call(sim, "resolve_question", input, `Resolved. ${prose(sim, between(sim, 300, 600))}`));
    if (frontier.questions.length < 30) addChild(current.depth < 2 ? current.id : "q_001");
  } else {
    for (let index = 0; index < between(sim, 1, MAX_CALLS); index++) {
      const fetch = sim.random() < 0.5;
      const query = prose(sim, between(sim, 20, 60));
      const tool = fetch ? "fetch_page" : "search";
      const size = fetch ? between(sim, 1_500, MAX_RESULT_CHARS) : between(sim, 300, 2_500);
      frontier = must(recordAttempt(frontier, { questionId: current.id, query, tool, outcome: "read" }, ctx));
      calls.push(call(sim, tool, { query }, prose(sim, size)));
    }
  }
  sim.inv = {
    ...sim.inv,
    frontier,
    scratch: `${sim.inv.scratch}\nturn ${sim.turn}: ${prose(sim, between(sim, 200, 320))}`,
  };
  return calls;
}

interface TurnFigures {
  turn: number;
  mode: TurnMode["kind"];
  calls: number;
  shown: number;
  notes: number;
  compact: { chars: number; tokens: number };
  naive: { chars: number; tokens: number };
}

function prompts(sim: Sim, mode: TurnMode): { compact: TurnPrompt; naive: TurnPrompt } {
  const current = currentQuestion(sim.inv);
  const base = {
    phase: "exploration" as const,
    mode,
    objective: OBJECTIVE,
    notes: notesText(sim.inv),
    frontierSummary: renderFrontierSummary(sim.inv.frontier, sim.inv.config, current ? { currentId: current.id } : {}),
    openChallenges: openChallenges(sim.inv.challenges),
    tools: offeredTools("exploration", mode, TOOLS),
    ...(current
      ? {
          currentQuestion: {
            id: current.id,
            question: current.question,
            criteria: current.validationCriteria,
            tried: sim.inv.frontier.attempts.filter((a) => a.questionId === current.id).map((a) => a.query),
          },
        }
      : {}),
  };
  return {
    compact: buildTurnPrompt({ ...base, turns: visibleTurns(sim.turns, sim.inv.config.keepTurns) }),
    naive: buildTurnPrompt({ ...base, turns: sim.turns }),
  };
}

/** Runs the script and returns the figures of every turn (pure; deterministic). */
export function simulateExploration(turns = TURNS, seed = 7): TurnFigures[] {
  const now = "2026-01-15T09:00:00.000Z";
  const created = createFrontier(OBJECTIVE, { now, actor: "code" }, { validationCriteria: "a figure in GB" });
  if (!created.ok) throw new Error(created.error.message);
  const config = { ...DEFAULT_INVESTIGATION_CONFIG };
  const inv: Investigation = {
    runId: 1,
    config,
    frontier: created.value.frontier,
    ledger: EMPTY_LEDGER,
    challenges: [],
    scratch: "",
    stateSeq: 0,
  };
  const sim: Sim = { random: generator(seed), inv, turns: [], now, turn: 0 };
  const figures: TurnFigures[] = [];
  for (let turn = 1; turn <= turns; turn++) {
    sim.turn = turn;
    sim.now = new Date(Date.parse(now) + turn * 60_000).toISOString();
    const mode = turnMode(sim.turns, sim.inv, config);
    const { compact, naive } = prompts(sim, mode);
    const notes = notesTokens(notesText(sim.inv));
    const shown = visibleTurns(sim.turns, config.keepTurns).length;
    let calls: TurnCall[];
    if (mode.kind === "extraction") calls = extract(sim, mode);
    else if (mode.kind === "consolidation") calls = consolidate(sim);
    else {
      // The model read the previous turn's small results in this prompt: the loop logs their outcome.
      if (turn > 1) sim.turns = commitResults(sim.turns, turn - 1, "nothing-relevant");
      calls = explore(sim);
      challenges(sim);
    }
    sim.turns = [...sim.turns, { turn, phase: "exploration", calls }];
    figures.push({
      turn,
      mode: mode.kind,
      calls: calls.length,
      shown,
      notes,
      compact: promptSize(compact),
      naive: promptSize(naive),
    });
  }
  return figures;
}

function stats(values: readonly number[]): { min: number; median: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const median =
    sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
  return { min: sorted[0] ?? 0, median, max: sorted.at(-1) ?? 0 };
}

const int = (value: number, width: number): string => Math.round(value).toLocaleString("en-US").padStart(width);

function summaryLine(label: string, rows: readonly TurnFigures[], pick: (row: TurnFigures) => number): string {
  const values = rows.map(pick);
  const { min, median, max } = stats(values);
  const first = values[0] ?? 1;
  const last = values.at(-1) ?? 0;
  return (
    `  ${label.padEnd(22)} min ${int(min, 7)}  median ${int(median, 7)}  max ${int(max, 7)}  ` +
    `last/first ${(last / first).toFixed(2).padStart(6)}  max/median ${(max / median).toFixed(2).padStart(5)}`
  );
}

/** Prints the per-turn prompt sizes and their summary (`npm run bench`). */
export function investigativePromptBench(): void {
  const figures = simulateExploration();
  const config = DEFAULT_INVESTIGATION_CONFIG;
  console.log(`\nInvestigative prompt size over a scripted ${TURNS}-turn exploration (pure, no model)`);
  console.log(
    `  keep_turns ${config.keepTurns}, extraction_threshold ${config.extractionThreshold} chars, ` +
      `notes_max_tokens ${config.notesMaxTokens}; ~tokens = ceil(chars / 4).`,
  );
  console.log("  turn  mode           calls  shown  notes~tok   prompt chars  ~tokens    naive chars  ~tokens");
  for (const row of figures) {
    console.log(
      `  ${int(row.turn, 4)}  ${row.mode.padEnd(13)}  ${int(row.calls, 5)}  ${int(row.shown, 5)}  ${int(row.notes, 9)}` +
        `  ${int(row.compact.chars, 13)}  ${int(row.compact.tokens, 7)}  ${int(row.naive.chars, 13)}  ${int(row.naive.tokens, 7)}`,
    );
  }
  console.log("Summary (~tokens per turn):");
  console.log(summaryLine("compacted (this loop)", figures, (row) => row.compact.tokens));
  console.log(summaryLine("naive (keep everything)", figures, (row) => row.naive.tokens));
  const modes = ["extraction", "consolidation"].map(
    (kind) => `${figures.filter((row) => row.mode === kind).length} ${kind}`,
  );
  console.log(
    `  turns: ${modes.join(", ")}; "shown" = turns the compacted prompt kept (last ${config.keepTurns} plus any uncommitted).`,
  );
  // Seed 000's bound: task + tools + notes (≤ notes_max_tokens) + frontier summary (≤ 2000 chars) + keep_turns turns.
  const fixed = figures[0]?.compact.tokens ?? 0;
  const turnsBound = Math.ceil((config.keepTurns * MAX_CALLS * MAX_RESULT_CHARS) / 4);
  const bound = fixed + config.notesMaxTokens + 500 + turnsBound;
  const compactMax = stats(figures.map((row) => row.compact.tokens)).max;
  console.log(
    `  bound: fixed part ${int(fixed, 0)} + notes ${config.notesMaxTokens} + frontier 500 + ${config.keepTurns} turns × ${MAX_CALLS} × ${MAX_RESULT_CHARS} chars ` +
      `(${turnsBound}) = ~${int(bound, 0)} tokens; compacted max ${int(compactMax, 0)} (${compactMax <= bound ? "within" : "OVER"}).`,
  );
  const longer = simulateExploration(TURNS * 2);
  const late = (rows: TurnFigures[], pick: (row: TurnFigures) => number) => stats(rows.slice(TURNS).map(pick));
  const compactLate = late(longer, (row) => row.compact.tokens);
  const naiveLate = late(longer, (row) => row.naive.tokens);
  console.log(
    `  same script run to ${TURNS * 2} turns, turns ${TURNS + 1}-${TURNS * 2}: compacted median ${int(compactLate.median, 0)} max ${int(compactLate.max, 0)} ~tokens; ` +
      `naive median ${int(naiveLate.median, 0)} max ${int(naiveLate.max, 0)}.`,
  );
}
