/**
 * One turn of the investigative loop (seed 000 "The cycle"): the prompt rebuilt from the
 * scratchpad and the visible turns, one `Model.act` call inside the Host envelope, the calls
 * run in order through the tools (acquisition through the Host, the rest through
 * `InvestigationTools`), the results committed where their content reached notes.md, and the
 * whole turn appended to the event log. The phase logic (gates, breakers, selection) is the
 * caller's; a turn only reports what happened.
 */
import { z } from "zod";
import { ownOpenChallenges } from "../../core/investigative/challenges.js";
import { type FinalReport, finalizationGate } from "../../core/investigative/final-report.js";
import { renderFrontierSummary } from "../../core/investigative/frontier-summary.js";
import { explorationGate } from "../../core/investigative/gates.js";
import {
  type ActState,
  LOOP_TOOL_SCHEMAS,
  type LoopPage,
  type LoopResult,
  parseFinalize,
} from "../../core/investigative/loop-tools.js";
import { notesTokens } from "../../core/investigative/notes.js";
import { TOOL_DESCRIPTIONS, TOOL_SCHEMAS } from "../../core/investigative/tool-schemas.js";
import { currentQuestion, notesText } from "../../core/investigative/tools.js";
import {
  EVENT_TEXT_MAX,
  TURN_EVENT,
  type TurnEventCall,
  type TurnEventData,
} from "../../core/investigative/turn-events.js";
import {
  buildTurnPrompt,
  LOOP_TOOL_DESCRIPTIONS,
  plainTextReminder,
  promptSize,
  type TurnMessage,
} from "../../core/investigative/turn-prompt.js";
import { type CommitHow, type TurnMode, type TurnPhase, visibleTurns } from "../../core/investigative/turns.js";

import type { Investigation } from "../../core/investigative/types.js";
import { generate } from "../../host/generation.js";
import type { RunHost } from "../../host/run-host.js";
import type { ActInput, ActMessage, Model, ToolSpec } from "../../ports/model.js";
import { type HitBook, pageOf, runFetch, runSearch } from "./acquisition-tools.js";
import type { InvestigationTools } from "./investigation-tools.js";
import { applyTurnEvent, type LoopState, workedTurns } from "./loop-state.js";

/** Calls run per turn; more are refused (the model asks again next turn). */
export const MAX_CALLS_PER_TURN = 8;

const ALL_SCHEMAS: Readonly<Record<string, z.ZodType>> = { ...TOOL_SCHEMAS, ...LOOP_TOOL_SCHEMAS };
const specs = new Map<string, ToolSpec>();

/** A tool as a model is offered it: its description and its arguments as a JSON Schema. */
export function toolSpec(name: string): ToolSpec {
  const known = specs.get(name);
  if (known) return known;
  const schema = ALL_SCHEMAS[name];
  if (!schema) throw new Error(`no schema for the tool "${name}"`);
  const { $schema: _, ...parameters } = z.toJSONSchema(schema, { target: "draft-7", io: "input" }) as Record<
    string,
    unknown
  >;
  const description =
    (TOOL_DESCRIPTIONS as Readonly<Record<string, string>>)[name] ?? LOOP_TOOL_DESCRIPTIONS[name] ?? name;
  const spec = { name, description, parameters };
  specs.set(name, spec);
  return spec;
}

export interface TurnContext {
  host: RunHost;
  model: Model & Required<Pick<Model, "act">>;
  tools: InvestigationTools;
  book: HitBook;
  loop: LoopState;
}

export interface TurnPlan {
  phase: TurnPhase;
  mode: TurnMode;
  offered: readonly string[];
  /** The tool the turn must call (the forced last turn). */
  forced?: string;
}

export type TurnOutcome =
  /** The Host did not start the call: its turn budget is spent or the run's time is up. */
  | { kind: "not-started" }
  | { kind: "failed"; error: string }
  | {
      kind: "done";
      /** finish_exploration passed the gate. */
      explorationFinished: boolean;
      /** finalize_report passed the gate: the report. */
      report?: FinalReport;
      /** finalize_report asked to return to exploration. */
      reopen?: { questionId: string; why: string };
    };

interface CallResult {
  ok: boolean;
  text: string;
  committed?: boolean;
  page?: LoopPage;
  hits?: LoopResult["hits"];
}

const bounded = (text: string): string =>
  text.length <= EVENT_TEXT_MAX
    ? text
    : `${text.slice(0, EVENT_TEXT_MAX)}\n[… ${text.length - EVENT_TEXT_MAX} more characters]`;

function actMessages(messages: readonly TurnMessage[]): ActMessage[] {
  return messages.map((message): ActMessage => {
    if (message.role === "assistant") return { role: "assistant", text: message.content, calls: message.calls };
    return message;
  });
}

/** The source ids a successful notes call cites: what it extracted from. */
function citedSources(name: string, args: unknown): string[] {
  // The call succeeded, so its arguments fit the tool's schema: read them through it.
  if (name === "notes_append") {
    const parsed = TOOL_SCHEMAS.notes_append.safeParse(args);
    return parsed.success
      ? parsed.data.entries.flatMap((entry) => [
          ...(entry.source_ids ?? []),
          ...(entry.source_id ? [entry.source_id] : []),
        ])
      : [];
  }
  if (name === "notes_update") {
    const parsed = TOOL_SCHEMAS.notes_update.safeParse(args);
    return parsed.success && parsed.data.add_source ? [parsed.data.add_source.source_id] : [];
  }
  return [];
}

/**
 * The last turn's results as data, rebuilt from its event after a restart: hits from the hit
 * book, pages from the persisted sources.
 */
export function resultsOf(host: RunHost, book: HitBook, data: TurnEventData | undefined): LoopResult[] {
  if (!data) return [];
  const sources = new Map(host.sources().map((source) => [source.id, source]));
  return data.calls.map((call) => {
    const hits = call.hits?.flatMap((handle) => {
      const entry = book.get(handle);
      return entry ? [entry.hit] : [];
    });
    const source = call.sourceId === undefined ? undefined : sources.get(call.sourceId);
    return {
      callId: call.id,
      name: call.name,
      args: call.args,
      ok: call.ok,
      text: call.text,
      ...(hits ? { hits } : {}),
      ...(source ? { page: pageOf(source, false) } : {}),
    };
  });
}

/** The pages read and not yet committed, oldest first. */
export function pendingPages(host: RunHost, loop: LoopState): LoopPage[] {
  const sources = new Map(host.sources().map((source) => [source.id, source]));
  return loop.turns.flatMap((record) =>
    record.calls.flatMap((call) => {
      const source = sources.get(loop.pageSources.get(call.id) ?? "");
      return !call.committed && source ? [pageOf(source, false)] : [];
    }),
  );
}

function gateText(title: string, missing: readonly string[]): string {
  return `${title}\n${missing.map((line) => `- ${line}`).join("\n")}`;
}

/** Runs one call; `outcome` collects what ends a phase. */
async function runCall(
  context: TurnContext,
  plan: TurnPlan,
  call: { name: string; args: unknown },
  outcome: Extract<TurnOutcome, { kind: "done" }>,
): Promise<CallResult> {
  const { host, tools, book } = context;
  if (plan.forced !== undefined && call.name !== plan.forced) {
    return { ok: false, text: `Refused: this turn may only call ${plan.forced}.` };
  }
  if (!plan.offered.includes(call.name)) {
    return {
      ok: false,
      text: `Refused: ${call.name} is not offered this turn (${plan.phase}${plan.mode.kind === "normal" ? "" : `, ${plan.mode.kind}`}). Offered: ${plan.offered.join(", ")}.`,
    };
  }
  switch (call.name) {
    case "search": {
      const reply = await runSearch(host, tools, book, call.args);
      return { ...reply, committed: true };
    }
    case "fetch_page": {
      const reply = await runFetch(host, tools, book, call.args);
      return { ...reply, committed: !reply.page || reply.page.alreadyRead };
    }
    case "notes_read": {
      // The scratchpad of every prompt already holds notes.md as it is now: a second copy would only
      // double it in the window. Say where it is and how large.
      const text = notesText(await tools.load());
      return {
        ok: true,
        text: `notes.md is the <notes> block of the scratchpad above, rebuilt for every turn (${notesTokens(text)} ~tokens); it is current.`,
      };
    }
    case "finish_exploration": {
      const gate = explorationGate(await tools.load());
      if (!gate.passed) return { ok: false, text: gateText("Refused (exploration gate): missing", gate.missing) };
      outcome.explorationFinished = true;
      return {
        ok: true,
        text: "The exploration gate passed: exploration ends and the synthesis loop writes the report.",
      };
    }
    case "finalize_report": {
      const parsed = parseFinalize(call.args);
      if (!parsed.ok) return { ok: false, text: `Refused: ${parsed.error}` };
      if (parsed.value.kind === "reopen") {
        const left = context.loop.reopensUsed < (await tools.load()).config.maxReopens;
        if (!left) {
          return {
            ok: false,
            text: "Refused: no return to exploration is left (max_reopens): state the hole in the report's gaps and finalize.",
          };
        }
        const reply = await tools.call("reopen_question", { id: parsed.value.questionId, why: parsed.value.why });
        if (!reply.ok) return { ok: false, text: reply.text };
        outcome.reopen = { questionId: parsed.value.questionId, why: parsed.value.why };
        return { ok: true, text: `${reply.text}\nExploration resumes with ${parsed.value.questionId} reopened.` };
      }
      const gate = finalizationGate(
        await tools.load(),
        parsed.value.report,
        host.sources().map((source) => source.id),
      );
      if (!gate.passed) return { ok: false, text: gateText("Refused (finalization gate): fix", gate.missing) };
      outcome.report = parsed.value.report;
      return { ok: true, text: "The report was accepted." };
    }
    default: {
      const reply = await tools.call(call.name, call.args);
      return { ok: reply.ok, text: reply.text };
    }
  }
}

/** The state an engine that follows fixed rules reads (`ActInput.state`). */
function actState(context: TurnContext, plan: TurnPlan, investigation: Investigation): ActState {
  const { host, loop } = context;
  return {
    kind: "investigative",
    phase: plan.phase,
    mode: plan.mode,
    turn: loop.turns.length + 1,
    offered: plan.offered,
    ...(plan.forced === undefined ? {} : { forced: plan.forced }),
    currentQuestionId: currentQuestion(investigation)?.id ?? null,
    investigation,
    pendingPages: pendingPages(host, loop),
    readPages: host.sources().map((source) => pageOf(source, false)),
    lastResults: loop.lastResults,
    ...(loop.reminder === undefined ? {} : { reminder: loop.reminder }),
    reopensLeft: Math.max(0, investigation.config.maxReopens - loop.reopensUsed),
    searchesLeft: host.remaining("searchCalls"),
    readsLeft: Math.min(host.remaining("sources"), host.remaining("fetchAttempts")),
  };
}

/** The prompt of the turn as `Model.act` takes it. */
function actInput(
  context: TurnContext,
  plan: TurnPlan,
  investigation: Investigation,
): ActInput & { chars: number; tokens: number } {
  const { loop } = context;
  const current = currentQuestion(investigation);
  const prompt = buildTurnPrompt({
    phase: plan.phase,
    mode: plan.mode,
    objective: investigation.frontier.objective,
    notes: notesText(investigation),
    frontierSummary: renderFrontierSummary(
      investigation.frontier,
      investigation.config,
      current ? { currentId: current.id } : {},
    ),
    openChallenges: ownOpenChallenges(investigation),
    turns: visibleTurns(workedTurns(loop), investigation.config.keepTurns),
    tools: plan.offered,
    // Synthesis researches nothing: no current question to satisfy.
    ...(current && plan.phase === "exploration"
      ? {
          currentQuestion: {
            id: current.id,
            question: current.question,
            criteria: current.validationCriteria,
            tried: investigation.frontier.attempts
              .filter((attempt) => attempt.questionId === current.id)
              .map((attempt) => attempt.query),
          },
        }
      : {}),
    ...(loop.reminder === undefined ? {} : { reminder: loop.reminder }),
  });
  const toolChoice: ActInput["toolChoice"] =
    plan.forced !== undefined ? { tool: plan.forced } : plan.mode.kind === "normal" ? "auto" : "required";
  return {
    system: prompt.system,
    messages: actMessages(prompt.messages),
    tools: plan.offered.map(toolSpec),
    toolChoice,
    state: actState(context, plan, investigation),
    ...promptSize(prompt),
  };
}

/**
 * Runs one turn: prompt, model call, the calls in order, commits, the turn event. The loop
 * state is updated from the same event a resumed run replays.
 */
export async function runTurn(context: TurnContext, given: TurnPlan): Promise<TurnOutcome> {
  const { host, model, tools, loop } = context;
  // A forced turn offers (and describes) only the tool it must call.
  const plan = given.forced === undefined ? given : { ...given, offered: [given.forced] };
  const investigation = await tools.load();
  const { chars, tokens, ...input } = actInput(context, plan, investigation);
  const generation = await generate(host, model, "turn", (options) => model.act(input, options));
  if (!generation) return { kind: "not-started" };
  const cost = model.cost?.(generation.usage);
  const usage = { ...generation.usage, ...(cost === undefined ? {} : { costUsd: cost }) };
  const base = {
    turn: loop.turns.length + 1,
    ...(tools.agent > 1 ? { agent: tools.agent } : {}),
    phase: plan.phase,
    mode: plan.mode.kind,
    questionId: currentQuestion(investigation)?.id ?? null,
    toolChoice: input.toolChoice,
    offered: plan.offered,
    usage,
    prompt: { chars, tokens },
    model: model.name,
  };
  if (!generation.ok) {
    const data: TurnEventData = {
      ...base,
      text: "",
      calls: [],
      failed: `${generation.kind}: ${generation.error}`,
      commits: [],
    };
    await host.emit(TURN_EVENT, data as unknown as Record<string, unknown>);
    applyTurnEvent(loop, data);
    loop.lastResults = [];
    delete loop.reminder;
    return { kind: "failed", error: generation.error };
  }
  const outcome: Extract<TurnOutcome, { kind: "done" }> = { kind: "done", explorationFinished: false };
  const calls: TurnEventCall[] = [];
  const results: LoopResult[] = [];
  const extractedFrom = new Set<string>();
  for (const [index, call] of generation.value.calls.entries()) {
    const result =
      index < MAX_CALLS_PER_TURN
        ? await runCall(context, plan, call, outcome)
        : { ok: false, text: `Refused: at most ${MAX_CALLS_PER_TURN} calls run per turn; call it again next turn.` };
    if (result.ok) for (const source of citedSources(call.name, call.args)) extractedFrom.add(source);
    calls.push({
      id: call.id,
      name: call.name,
      args: call.args,
      ok: result.ok,
      text: bounded(result.text),
      chars: result.text.length,
      ...(result.committed === undefined ? {} : { committed: result.committed }),
      ...(result.page && !result.page.alreadyRead ? { sourceId: result.page.sourceId } : {}),
      ...(result.hits ? { hits: result.hits.map((hit) => hit.handle) } : {}),
    });
    results.push({
      callId: call.id,
      name: call.name,
      args: call.args,
      ok: result.ok,
      text: result.text,
      ...(result.hits ? { hits: result.hits } : {}),
      ...(result.page ? { page: result.page } : {}),
    });
    if (outcome.report || outcome.reopen || outcome.explorationFinished) break;
  }
  const commits = await commitments(context, plan, calls, extractedFrom);
  const data: TurnEventData = {
    ...base,
    text: bounded(generation.value.text),
    calls,
    commits,
    ...(plan.mode.kind === "consolidation" ? { notesTokensAfter: notesTokens(notesText(await tools.load())) } : {}),
  };
  await host.emit(TURN_EVENT, data as unknown as Record<string, unknown>);
  applyTurnEvent(loop, data);
  loop.lastResults = results;
  if (calls.length === 0) loop.reminder = plainTextReminder(investigation.frontier, plan.phase);
  else delete loop.reminder;
  return outcome;
}

/**
 * The results this turn committed: every page read (this turn or earlier) whose source a
 * successful notes call cited is `extracted`; after an extraction turn, each pending page
 * nothing was taken from is recorded by code as "read, nothing relevant" and committed so.
 */
async function commitments(
  context: TurnContext,
  plan: TurnPlan,
  calls: readonly TurnEventCall[],
  extractedFrom: ReadonlySet<string>,
): Promise<{ turn: number; callId: string; how: CommitHow }[]> {
  const { loop, tools } = context;
  const turn = loop.turns.length + 1;
  const open = [
    ...loop.turns.flatMap((record) =>
      record.calls.filter((call) => !call.committed).map((call) => ({ turn: record.turn, callId: call.id })),
    ),
    ...calls.filter((call) => call.sourceId !== undefined).map((call) => ({ turn, callId: call.id })),
  ];
  const sourceOf = (callId: string): string | undefined =>
    loop.pageSources.get(callId) ?? calls.find((call) => call.id === callId)?.sourceId;
  const commits: { turn: number; callId: string; how: CommitHow }[] = [];
  for (const entry of open) {
    const source = sourceOf(entry.callId);
    if (source !== undefined && extractedFrom.has(source)) commits.push({ ...entry, how: "extracted" });
  }
  if (plan.mode.kind !== "extraction") return commits;
  for (const pending of plan.mode.pending) {
    if (commits.some((commit) => commit.callId === pending.call.id)) continue;
    const source = sourceOf(pending.call.id);
    if (source !== undefined) {
      await tools.call(
        "notes_append",
        { section: "sources", entries: [{ source_id: source, note: "read, nothing relevant" }] },
        { actor: "code" },
      );
    }
    commits.push({ turn: pending.turn, callId: pending.call.id, how: "nothing-relevant" });
  }
  return commits;
}
