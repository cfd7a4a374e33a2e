/**
 * Prompt size of the investigative loop, turn by turn, over a real scripted run: the
 * `investigative` strategy driven through `createRuntime().run()` (real SQLite store, notes.md
 * files, the fake scope's synthetic documents) by a scripted investigator
 * (`investigative-run-script.ts`). The size of every prompt comes from the run's own
 * `investigative-turn` events (`prompt.chars`, what `Model.act` was sent). Beside it, the
 * NAIVE prompt of the same turn: the same prompt had nothing been evicted, i.e. with every
 * earlier turn's calls and raw results kept (replayed from the events' call texts). Seed 000
 * "Context compaction" claims the first stays bounded while the second grows with the turn.
 *
 * This replaces the earlier simulation of the pure functions: it re-implemented the loop's
 * commit rules by hand (it committed small results after one turn, which the loop does not:
 * a page stays until a notes call cites it or a forced extraction commits it), so its figures
 * could drift from what the strategy sends. The real run shows everything the simulation
 * showed (mode, turns kept, notes tokens, compacted and naive sizes, a longer run)
 * measured on the prompts the strategy actually built.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { FilesystemArtifactStore } from "../adapters/artifacts/filesystem/filesystem-artifact-store.js";
import { systemClock } from "../adapters/clock/system-clock.js";
import { FileNotes } from "../adapters/notes/file-notes.js";
import { openSqliteStore, type SqliteStore } from "../adapters/store/sqlite/sqlite-store.js";
import { resolveBudgets } from "../core/budgets.js";
import { TURN_EVENT, type TurnEventCall, type TurnEventData } from "../core/investigative/turn-events.js";
import { buildTurnPrompt, promptSize } from "../core/investigative/turn-prompt.js";
import { type TurnRecord, visibleTurns } from "../core/investigative/turns.js";
import { DEFAULT_INVESTIGATION_CONFIG, type InvestigationConfig } from "../core/investigative/types.js";
import { createRuntime } from "../runtime/runtime.js";
import { applyTurnEvent, newLoopState } from "../strategies/investigative/loop-state.js";
import { type FakeDocument, fakeScopeOpener, syntheticDocuments } from "../testing/fake-scope.js";
import { ScriptedModel, succeed } from "../testing/scripted-model.js";
import { ScriptedInvestigator } from "./investigative-run-script.js";

const TURNS = 60;
/** The long run: the most turns the run budgets allow (maxTurns ≤ 200). */
const LONG_TURNS = 200;
/** A document per turn and a few more, so that pages to read never run out. */
const documentsFor = (turns: number): number => turns + 4;
const OBJECTIVE = "What limits the energy density, cost and safety of lithium battery cells?";

/**
 * The knobs (`--set` equivalents). Light gates; a 5% synthesis reserve so that exploration runs
 * 57 of the 60 turns (the phase where eviction matters) and synthesis reads the notes, views the
 * frontier and finalizes in the last three. max_questions is raised only for the long run.
 */
const knobs = (turns: number): Partial<InvestigationConfig> => ({
  maxIterations: turns,
  synthesisReserve: 0.05,
  minSources: 2,
  minDomains: 0,
  ...(turns > TURNS ? { maxQuestions: Math.ceil((DEFAULT_INVESTIGATION_CONFIG.maxQuestions * turns) / TURNS) } : {}),
});

/** Synthetic documents of ~2,800 and ~6,500 characters, alternating: some over the extraction threshold. */
function documents(count: number): FakeDocument[] {
  const short = syntheticDocuments(count, 300);
  const long = syntheticDocuments(count, 700);
  return short.map((document, index) => (index % 2 === 1 ? (long[index] ?? document) : document));
}

/** One turn's figures. */
export interface TurnFigures {
  turn: number;
  phase: TurnEventData["phase"];
  mode: TurnEventData["mode"];
  calls: number;
  /** Earlier turns the prompt kept (the last keep_turns, plus any with an uncommitted page). */
  shown: number;
  notesTokens: number;
  /** Characters of the earlier turns' calls and results the prompt kept. */
  rawChars: number;
  prompt: { chars: number; tokens: number };
  /** The same prompt with every earlier turn kept. */
  naive: { chars: number; tokens: number };
}

const tokensOf = (chars: number): number => Math.ceil(chars / 4);

/** Characters the records add to a prompt, formatted as `buildTurnPrompt` formats them. Pure. */
function turnsChars(records: readonly TurnRecord[]): number {
  const base = {
    phase: "exploration" as const,
    mode: { kind: "normal" as const },
    objective: "",
    notes: "",
    frontierSummary: "",
    openChallenges: [],
    tools: [],
  };
  return (
    promptSize(buildTurnPrompt({ ...base, turns: records })).chars -
    promptSize(buildTurnPrompt({ ...base, turns: [] })).chars
  );
}

/**
 * Per turn: the prompt sent (from the event) and the naive prompt (the same minus the earlier
 * turns it kept, plus every earlier turn), replaying the turn records as the loop does. Pure.
 */
export function promptGrowth(events: readonly TurnEventData[], keepTurns: number): Omit<TurnFigures, "notesTokens">[] {
  const loop = newLoopState();
  return events.map((data) => {
    const visible = visibleTurns(loop.turns, keepTurns);
    const rawChars = turnsChars(visible);
    const naiveChars = data.prompt.chars - rawChars + turnsChars(loop.turns);
    applyTurnEvent(loop, data);
    return {
      turn: data.turn,
      phase: data.phase,
      mode: data.mode,
      calls: data.calls.length,
      shown: visible.length,
      rawChars,
      prompt: data.prompt,
      naive: { chars: naiveChars, tokens: tokensOf(naiveChars) },
    };
  });
}

interface RunFigures {
  turns: TurnFigures[];
  /** Turns whose recorded prompt size and replayed raw turns equal what the model received. */
  matching: { prompt: number; raw: number };
  status: string;
  stopReason: string;
  wallMs: number;
  searches: number;
  pages: number;
  claims: { total: number; verified: number; retracted: number };
  questions: { total: number; resolved: number };
  challenges: number;
  refused: string;
}

/** "2 search, 1 notes_update": the refused or failed calls per tool, or "none". */
function refusedCalls(calls: readonly TurnEventCall[]): string {
  const counts = new Map<string, number>();
  for (const call of calls) if (!call.ok) counts.set(call.name, (counts.get(call.name) ?? 0) + 1);
  return [...counts].map(([name, count]) => `${count} ${name}`).join(", ") || "none";
}

/** The figures of a finished run, from its event log and what the script received. */
async function readFigures(
  store: SqliteStore,
  runId: number,
  script: ScriptedInvestigator,
  timing: { status: string; wallMs: number },
): Promise<RunFigures> {
  const events = (await store.listEvents(runId))
    .filter((event) => event.type === TURN_EVENT)
    .map((event) => event.data as unknown as TurnEventData);
  const keepTurns = DEFAULT_INVESTIGATION_CONFIG.keepTurns;
  const observed = new Map(script.observed.map((seen) => [seen.turn, seen]));
  const figures = promptGrowth(events, keepTurns).map((row) => ({
    ...row,
    notesTokens: observed.get(row.turn)?.notesTokens ?? Number.NaN,
  }));
  const investigation = await store.loadInvestigation(runId);
  const run = await store.getRun(runId);
  const calls = events.flatMap((data) => data.calls);
  return {
    turns: figures,
    matching: {
      prompt: figures.filter((row) => observed.get(row.turn)?.promptChars === row.prompt.chars).length,
      raw: figures.filter((row) => observed.get(row.turn)?.rawChars === row.rawChars).length,
    },
    ...timing,
    stopReason: run?.stopReason ?? "",
    searches: calls.filter((call) => call.name === "search" && call.ok).length,
    pages: calls.filter((call) => call.sourceId !== undefined).length,
    claims: {
      total: investigation.claims.length,
      verified: investigation.claims.filter((claim) => claim.status === "VERIFIED").length,
      retracted: investigation.claims.filter((claim) => claim.status === "RETRACTED").length,
    },
    questions: {
      total: investigation.questions.length,
      resolved: investigation.questions.filter((question) => question.status === "resolved").length,
    },
    challenges: investigation.challenges.length,
    refused: refusedCalls(calls),
  };
}

/**
 * Runs the strategy for `turns` turns in a fresh folder under `tempRoot` and returns its figures;
 * each model turn takes `modelLatencyMs` (the critical-path bench's scripted model).
 */
export async function investigativeRun(tempRoot: string, turns: number, modelLatencyMs = 0): Promise<RunFigures> {
  const folder = mkdtempSync(join(tempRoot, "investigative-"));
  const corpus = join(folder, "corpus");
  mkdirSync(corpus);
  const store = openSqliteStore({ file: join(folder, "assay.sqlite") });
  try {
    const script = new ScriptedInvestigator(documentsFor(turns));
    const model = new ScriptedModel();
    for (let turn = 0; turn < turns; turn++)
      model.onAct(async (input) => {
        if (modelLatencyMs > 0) await new Promise((resolve) => setTimeout(resolve, modelLatencyMs));
        return succeed(script.act(input));
      });
    const budgets = resolveBudgets({
      maxTurns: turns,
      maxSearchCalls: turns,
      maxFetchAttempts: Math.ceil((turns * 4) / 3),
      maxSources: turns,
      wallClockMs: 1_800_000,
    });
    if (!budgets.ok) throw new Error(budgets.error);
    const runtime = createRuntime({
      store,
      artifacts: new FilesystemArtifactStore(),
      clock: systemClock,
      scopes: fakeScopeOpener({ documents: documents(documentsFor(turns)) }),
      notes: new FileNotes({ directory: join(folder, "notes") }),
      model,
      worker: "bench",
    });
    const started = performance.now();
    const outcome = await runtime.run({
      question: OBJECTIVE,
      language: "en",
      strategy: "investigative",
      model: model.name,
      scope: { kind: "corpus", root: corpus, label: "synthetic corpus" },
      budgets: budgets.value,
      outDir: join(folder, "out"),
      investigation: knobs(turns),
    });
    const wallMs = performance.now() - started;
    return await readFigures(store, outcome.runId, script, { status: outcome.status, wallMs });
  } finally {
    await store.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------
// Printing

const int = (value: number, width = 0): string => Math.round(value).toLocaleString("en-US").padStart(width);
const mean = (values: readonly number[]): number => values.reduce((sum, value) => sum + value, 0) / values.length;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

const MODES: Record<TurnEventData["mode"], string> = {
  normal: "normal",
  extraction: "extract",
  consolidation: "consol",
};
const HEAD = "turn ph mode    calls kept notes   raw prompt  naive";

function cell(row: TurnFigures): string {
  return (
    `${int(row.turn, 4)} ${row.phase === "exploration" ? "E" : "S"}  ${MODES[row.mode].padEnd(7)} ${int(row.calls, 5)} ` +
    `${int(row.shown, 4)} ${int(row.notesTokens, 5)} ${int(tokensOf(row.rawChars), 5)} ${int(row.prompt.tokens, 6)} ${int(row.naive.tokens, 6)}`
  );
}

/** The turns in two side-by-side columns. */
function printTurns(rows: readonly TurnFigures[]): void {
  const half = Math.ceil(rows.length / 2);
  console.log(`  ${HEAD}    ${HEAD}`);
  for (let index = 0; index < half; index++) {
    const left = rows[index];
    const right = rows[index + half];
    if (left) console.log(`  ${cell(left)}${right ? `    ${cell(right)}` : ""}`);
  }
}

const BLOCK = 20;

/** The largest prompt, naive prompt, notes and raw turns per block of BLOCK turns. */
function printBlocks(rows: readonly TurnFigures[]): void {
  const blocks: TurnFigures[][] = [];
  for (let index = 0; index < rows.length; index += BLOCK) blocks.push(rows.slice(index, index + BLOCK));
  const range = (block: readonly TurnFigures[]): string => `${block[0]?.turn ?? ""}-${block.at(-1)?.turn ?? ""}`;
  const line = (label: string, pick: (row: TurnFigures) => number): string =>
    `  ${label.padEnd(7)}${blocks.map((block) => int(Math.max(...block.map(pick)), 9)).join("")}`;
  console.log(`  ${"turns".padEnd(7)}${blocks.map((block) => range(block).padStart(9)).join("")}`);
  console.log(line("prompt", (row) => row.prompt.tokens));
  console.log(line("naive", (row) => row.naive.tokens));
  console.log(line("notes", (row) => row.notesTokens));
  console.log(line("raw", (row) => tokensOf(row.rawChars)));
}

function summaryLine(label: string, values: readonly number[]): string {
  const first = mean(values.slice(0, 10));
  const last = mean(values.slice(-10));
  const perTurn = (last - first) / Math.max(1, values.length - 10);
  return (
    `  ${label.padEnd(26)} min ${int(Math.min(...values), 7)}  median ${int(median(values), 7)}  max ${int(Math.max(...values), 7)}  ` +
    `first-10 mean ${int(first, 7)}  last-10 mean ${int(last, 7)}  (×${(last / first).toFixed(2)}, ${perTurn >= 0 ? "+" : ""}${int(perTurn)} a turn)`
  );
}

/** What the prompt holds besides notes.md (which grows by design, up to notes_max_tokens). */
const minusNotes = (rows: readonly TurnFigures[]): number[] => rows.map((row) => row.prompt.tokens - row.notesTokens);

function printSummary(run: RunFigures): void {
  const prompt = run.turns.map((row) => row.prompt.tokens);
  const naive = run.turns.map((row) => row.naive.tokens);
  const last = run.turns.at(-1);
  console.log(`Summary (~tokens per turn, ${run.turns.length} turns):`);
  console.log(summaryLine("prompt sent (compacted)", prompt));
  console.log(summaryLine("naive (nothing evicted)", naive));
  console.log(summaryLine("prompt minus notes.md", minusNotes(run.turns)));
  if (last) {
    console.log(
      `  max prompt / max naive ${(Math.max(...prompt) / Math.max(...naive)).toFixed(2)}; at turn ${last.turn} the prompt ` +
        `is ${int(last.prompt.tokens)} ~tokens, ${((last.prompt.tokens / last.naive.tokens) * 100).toFixed(0)}% of the naive ${int(last.naive.tokens)}.`,
    );
  }
  const peak = run.turns.reduce((best, row) => (row.prompt.tokens > best.prompt.tokens ? row : best));
  console.log(
    `  largest prompt: turn ${peak.turn} (${peak.mode}): notes ${int(peak.notesTokens)} + raw turns ${int(tokensOf(peak.rawChars))} ` +
      `+ the rest (system, tools, task, frontier, question) ${int(peak.prompt.tokens - peak.notesTokens - tokensOf(peak.rawChars))} ~tokens.`,
  );
  const count = (mode: TurnEventData["mode"]) => run.turns.filter((row) => row.mode === mode).length;
  const synthesis = run.turns.filter((row) => row.phase === "synthesis").length;
  console.log(
    `  run: ${run.status}, stop ${run.stopReason || "-"}; ${run.turns.length - synthesis} exploration turns ` +
      `(${count("extraction")} extraction, ${count("consolidation")} consolidation), ${synthesis} synthesis; ` +
      `${run.searches} searches, ${run.pages} pages read, ${run.questions.total} questions (${run.questions.resolved} resolved), ` +
      `${run.claims.total} claims/datapoints (${run.claims.verified} verified, ${run.claims.retracted} retracted), ${run.challenges} challenges; ` +
      `refused calls: ${run.refused}.`,
  );
  console.log(
    `  cross-check: recorded prompt size = size received by the model on ${run.matching.prompt}/${run.turns.length} turns; ` +
      `replayed kept turns = raw turns received on ${run.matching.raw}/${run.turns.length}.`,
  );
}

/** Prints the per-turn prompt sizes of a real 60-turn run and their summary (`npm run bench`). */
export async function investigativePromptBench(tempRoot: string): Promise<void> {
  const config = { ...DEFAULT_INVESTIGATION_CONFIG, ...knobs(TURNS) };
  console.log(`\nInvestigative prompt size per turn: a scripted ${TURNS}-turn run of the real strategy`);
  console.log(
    `  createRuntime().run(), strategy investigative, scripted model; ${documentsFor(TURNS)} synthetic documents (~2,800 and ~6,500 chars); ` +
      `keep_turns ${config.keepTurns}, extraction_threshold ${config.extractionThreshold} chars, notes_max_tokens ${config.notesMaxTokens}, ` +
      `max_iterations ${TURNS}, synthesis_reserve ${config.synthesisReserve}; ~tokens = ceil(chars / 4).`,
  );
  console.log(
    "  ph E/S exploration/synthesis; kept = earlier turns in the prompt; notes, raw (kept turns' calls and results), " +
      "prompt (as sent, from the turn event) and naive (the same with every earlier turn kept) in ~tokens.",
  );
  const run = await investigativeRun(tempRoot, TURNS);
  printTurns(run.turns);
  printSummary(run);
  console.log(`  wall time of the run: ${(run.wallMs / 1000).toFixed(1)} s (one run, informational).`);
  const longer = await investigativeRun(tempRoot, LONG_TURNS);
  const count = (mode: TurnEventData["mode"]) => longer.turns.filter((row) => row.mode === mode).length;
  console.log(
    `Same script, max_iterations ${LONG_TURNS} (max_questions ${knobs(LONG_TURNS).maxQuestions}, ${documentsFor(LONG_TURNS)} documents): ` +
      `${longer.turns.length} turns, stop ${longer.stopReason || "-"}; ${count("extraction")} extraction and ${count("consolidation")} consolidation turns; ` +
      `${longer.pages} pages read, ${longer.claims.total} claims/datapoints (${longer.claims.retracted} retracted); ` +
      `wall time ${(longer.wallMs / 1000).toFixed(1)} s. Largest value per block of ${BLOCK} turns (~tokens):`,
  );
  printBlocks(longer.turns);
  console.log(
    summaryLine(
      "prompt sent (compacted)",
      longer.turns.map((row) => row.prompt.tokens),
    ),
  );
  console.log(
    summaryLine(
      "naive (nothing evicted)",
      longer.turns.map((row) => row.naive.tokens),
    ),
  );
  console.log(summaryLine("prompt minus notes.md", minusNotes(longer.turns)));
}
