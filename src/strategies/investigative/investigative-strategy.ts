/**
 * The `investigative` strategy (seed 000): two loops run one after the other inside the
 * Host envelope. Exploration — code selects the question, the model acts through the tools
 * (search and fetch through the Host, the frontier, notes and challenge tools), the loop
 * forces extraction and consolidation and checks the breakers before every model call — ends
 * when `finish_exploration` passes the exploration gate, when the frontier is exhausted (after
 * the final verification check), or when a breaker fires (cut short, not failed). Synthesis —
 * no research; `notes_read`, `frontier_view`, `finalize_report` — ends when a report passes
 * the finalization gate; it may return to exploration at most `max_reopens` times; its last
 * turn is forced to `finalize_report`; an exhausted synthesis reserve fails the run with the
 * breaker named. The accepted report goes through the Host's admission into the same
 * `ReportDocument` as every strategy's.
 *
 * With `max_parallel > 1` (seed 000 "Parallelism and sub-agents") exploration runs that many
 * sub-agents at once, each its own loop (turns, window, pending pages) over the run's one
 * frontier, notes and ledger: sub-agent 1 expands the objective, then each claims its own
 * question (`frontier_next` as a conditional claim), and one waits while the others hold all
 * that is actionable. The breakers count every sub-agent's turns and usage together; the first
 * end of exploration (gate, exhausted frontier, breaker, model down) ends it for all, each after
 * its current turn. Synthesis is sub-agent 1's.
 */
import { randomBytes } from "node:crypto";
import { UserError } from "../../core/errors.js";
import {
  type BreakerFired,
  type BreakerLimits,
  breakerCheck,
  cutShortGaps,
  cutShortNote,
  forcedFinalTurn,
  type StopReason,
  stillPending,
  stopReason,
  VERIFY_RATIONALE,
} from "../../core/investigative/breakers.js";
import { ownOpenChallenges } from "../../core/investigative/challenges.js";
import { resolveInvestigationConfig } from "../../core/investigative/config.js";
import { type FinalReport, parseFinalReport } from "../../core/investigative/final-report.js";
import { isExpanded, ROOT_QUESTION_ID, rankActionable } from "../../core/investigative/frontier-queries.js";
import { finalVerificationQueue, frontierExhausted } from "../../core/investigative/gates.js";
import type { ResearchState } from "../../core/investigative/loop-tools.js";
import { notesTokens } from "../../core/investigative/notes.js";
import { finalReportToSynthesis } from "../../core/investigative/report-mapping.js";
import { currentQuestion, notesText } from "../../core/investigative/tools.js";
import {
  PHASE_EVENT,
  type PhaseEventData,
  STATE_EVENT,
  type StateEventData,
  TURN_EVENT,
  type TurnEventData,
} from "../../core/investigative/turn-events.js";
import { EXPLORATION_TOOLS, offeredTools, type TurnMode, turnMode } from "../../core/investigative/turns.js";
import type { Investigation, InvestigationConfig } from "../../core/investigative/types.js";
import { admissionCatalog, admitSynthesis } from "../../core/synthesis/admission.js";
import { acquireAll, interleave, search } from "../../host/acquisition.js";
import type { RunHost } from "../../host/run-host.js";
import { isInvestigationStore } from "../../ports/investigation-store.js";
import type { Model } from "../../ports/model.js";

import type { Strategy, StrategyResult } from "../strategy.js";
import { HitBook } from "./acquisition-tools.js";
import { InvestigationTools } from "./investigation-tools.js";
import { resultsOf, runTurn, type TurnContext } from "./investigative-turn.js";
import { breakerState, type LoopState, loopStateFrom, workedTurns } from "./loop-state.js";

/** Failed model turns in a row that end a loop (the model is down; the Host publishes what is persisted). */
const MAX_FAILED_TURNS = 3;

/** Rationale of the questions the final verification check queues (how the loop recognizes them). */

/** The event that records an accepted report, so a resumed run does not write it again. */
const REPORT_EVENT = "report-finalized";

type ExplorationEnd =
  | { kind: "ended"; stopReason: StopReason }
  | { kind: "breaker"; verdict: BreakerFired }
  | { kind: "stopped" }
  /** A sub-agent stopped because exploration ended for the crew (or, past sub-agent 1, the frontier is done). */
  | { kind: "peer" };

type SynthesisEnd =
  | { kind: "report"; report: FinalReport }
  | { kind: "reopen"; questionId: string; why: string }
  | { kind: "failed"; error: string; stopReason?: string }
  | { kind: "stopped"; stopReason?: StopReason; message?: string };

/** What the sub-agents of a run share besides the Host and the store. */
interface Crew {
  /** Every sub-agent's loop, sub-agent 1's first (it keeps the run's state sequence). */
  loops: LoopState[];
  /** The sub-agents past the first (`max_parallel - 1` of them). */
  others: Run[];
  /** Exploration ended for every sub-agent. */
  over: boolean;
  /** Resolves at the next change (a turn taken, exploration over), or after a second at most. */
  changed(): Promise<void>;
  notify(): void;
}

interface Run extends TurnContext {
  config: InvestigationConfig;
  limits: BreakerLimits;
  crew: Crew;
}

function newCrew(loops: LoopState[]): Crew {
  let waiters: (() => void)[] = [];
  return {
    loops,
    others: [],
    over: false,
    changed: () =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 1000);
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      }),
    notify() {
      const woken = waiters;
      waiters = [];
      for (const wake of woken) wake();
    },
  };
}

function limitsOf(host: RunHost, config: InvestigationConfig): BreakerLimits {
  const { budgets } = host.request;
  // The run's cost budget caps max_cost_usd as its turn budget caps the iterations: the breaker
  // hands over to synthesis in time, before the Host refuses the next call.
  const costs = [config.maxCostUsd, budgets.maxCostUsd].filter((limit) => limit !== undefined);
  return {
    // The Host's turn budget caps the iterations too (an investigative run sets it to max_iterations).
    maxIterations: Math.min(config.maxIterations, budgets.maxTurns),
    ...(config.maxTotalTokens === undefined ? {} : { maxTotalTokens: config.maxTotalTokens }),
    ...(costs.length === 0 ? {} : { maxCostUsd: Math.min(...costs) }),
    wallClockMs: budgets.wallClockMs - budgets.publishReserveMs,
    synthesisReserve: config.synthesisReserve,
  };
}

async function setPhase(run: Run, data: PhaseEventData): Promise<void> {
  await run.host.emit(PHASE_EVENT, data as unknown as Record<string, unknown>);
  const phase = data.phase === "exploration" || data.phase === "synthesis" ? data.phase : undefined;
  if (phase) run.loop.phase = phase;
  await run.host.store.updateRun(run.host.run.id, {
    ...(phase ? { phase } : {}),
    ...(data.stopReason === undefined ? {} : { stopReason: data.stopReason }),
  });
}

/** Records a research state when it changes (seed 000 "Observability"). */
async function setState(run: Run, state: ResearchState, questionId: string | null, detail: string): Promise<void> {
  const { loop } = run;
  if (loop.state?.state === state && loop.state.questionId === questionId) return;
  const agent = run.tools.agent;
  const data: StateEventData = {
    state,
    turn: loop.turns.length,
    questionId,
    detail,
    ...(agent > 1 ? { agent } : {}),
  };
  // The run's state sequence is one for all sub-agents: sub-agent 1's loop keeps it.
  for (const each of run.crew.loops) each.stateSeq++;
  loop.state = { state, questionId };
  await run.host.emit(STATE_EVENT, data as unknown as Record<string, unknown>);
}

/** The research state of the next exploration turn. */
function explorationState(investigation: Investigation, mode: TurnMode): { state: ResearchState; detail: string } {
  if (mode.kind === "extraction") return { state: "extracting", detail: "a page read must be extracted into notes" };
  if (mode.kind === "consolidation") return { state: "consolidating", detail: "notes.md is over notes_max_tokens" };
  if (!isExpanded(investigation.frontier)) return { state: "planning", detail: "broad expansion of the objective" };
  if (ownOpenChallenges(investigation).length > 0) return { state: "challenging", detail: "open challenge" };
  if (currentQuestion(investigation)?.rationale === VERIFY_RATIONALE) {
    return { state: "verifying", detail: "final verification check" };
  }
  return { state: "selecting", detail: "working on the selected question" };
}

/** The mode of the next exploration turn; no second consolidation until the notes grow past the last one. */
function nextMode(run: Run, investigation: Investigation): TurnMode {
  const mode = turnMode(workedTurns(run.loop), investigation, run.config);
  if (mode.kind !== "consolidation") return mode;
  const last = run.loop.consolidatedAt;
  return last !== undefined && mode.notesTokens <= last * 1.1 ? { kind: "normal" } : mode;
}

/**
 * The final verification check of an exhausted frontier: one question per UNVERIFIED claim a
 * resolved question cites, unless one was queued before (or cannot be added: depth, cap).
 * True when something was queued.
 */
async function queueVerification(run: Run, investigation: Investigation): Promise<boolean> {
  const claims = new Map(investigation.ledger.claims.map((claim) => [claim.id, claim]));
  // The claim a verification question was queued for is the id its text starts with.
  const queued = new Set(
    investigation.frontier.questions
      .filter((question) => question.rationale === VERIFY_RATIONALE)
      .map((question) => /^Is ([cd]_\d+) /.exec(question.question)?.[1] ?? ""),
  );
  let added = false;
  for (const claimId of finalVerificationQueue(investigation)) {
    if (queued.has(claimId)) continue;
    const claim = claims.get(claimId);
    if (!claim) continue;
    const reply = await run.tools.call(
      "add_question",
      {
        parent_id: ROOT_QUESTION_ID,
        question: `Is ${claimId} supported by an independent source: ${claim.text.slice(0, 400)}`,
        rationale: VERIFY_RATIONALE,
        priority: Math.max(run.config.gatePriority, 0.6),
        validation_criteria: `a source independent of ${claimId}'s sources supports it and a challenge of it survives (then notes_update status VERIFIED), or the reason it cannot be verified`,
        target_sources: [],
      },
      { actor: "code" },
    );
    if (reply.ok) added = true;
  }
  if (added) await setState(run, "verifying", null, "final verification check queued claims");
  return added;
}

/**
 * The run's signal aborted: at the deadline that is the wall-clock breaker (the run ends as any
 * run does at its deadline, with what is persisted); otherwise the user cancelled.
 */
function aborted(run: Run, phase: "exploration" | "synthesis"): BreakerFired | undefined {
  const verdict = breakerCheck(breakerState(run.crew.loops, phase, run.host.clock.offset()), run.limits);
  return verdict.fire && verdict.breaker === "wall_clock" ? verdict : undefined;
}

/**
 * Exploration with every sub-agent at once (one when `max_parallel` is 1): the first end of
 * any sub-agent's loop is the crew's, and the others stop after their current turn.
 */
async function exploreAll(run: Run): Promise<ExplorationEnd> {
  const { crew } = run;
  if (crew.others.length === 0) return explore(run);
  crew.over = false;
  let first: ExplorationEnd | undefined;
  const settled = await Promise.allSettled(
    [run, ...crew.others].map(async (agent) => {
      let end: ExplorationEnd | undefined;
      try {
        end = await explore(agent);
        if (end.kind !== "peer") first ??= end;
      } finally {
        // A sub-agent that is merely done leaves the others at work; any other end (or a throw) ends it for all.
        if (end?.kind !== "peer") {
          crew.over = true;
          crew.notify();
        }
      }
    }),
  );
  const failed = settled.find((result) => result.status === "rejected");
  if (failed) throw failed.reason;
  return first ?? { kind: "ended", stopReason: "frontier_exhausted" };
}

async function explore(run: Run): Promise<ExplorationEnd> {
  const { host, tools, loop, crew } = run;
  const lead = tools.agent === 1;
  for (;;) {
    if (crew.over && crew.others.length > 0) return { kind: "peer" };
    if (host.signal.aborted) {
      const verdict = aborted(run, "exploration");
      return verdict ? { kind: "breaker", verdict } : { kind: "stopped" };
    }
    let investigation = await tools.load();
    // Sub-agent 1 expands the objective; the others wait for the questions to claim.
    if (!lead && !isExpanded(investigation.frontier)) {
      await crew.changed();
      continue;
    }
    // Decide: code selects the question (dependency first), once the objective is expanded.
    if (
      !currentQuestion(investigation) &&
      isExpanded(investigation.frontier) &&
      rankActionable(investigation.frontier).length > 0
    ) {
      const selected = await tools.call("frontier_next", {}, { actor: "code" });
      if (selected.ok) investigation = await tools.load();
    }
    if (frontierExhausted(investigation)) {
      // The final verification check is sub-agent 1's; the others wait for what it queues.
      if (!lead) {
        await crew.changed();
        continue;
      }
      if (await queueVerification(run, investigation)) continue;
      return { kind: "ended", stopReason: "frontier_exhausted" };
    }
    const verdict = breakerCheck(breakerState(crew.loops, "exploration", host.clock.offset()), run.limits);
    if (verdict.fire) return { kind: "breaker", verdict };
    const mode = nextMode(run, investigation);
    const othersHold = investigation.frontier.questions.some((question) => question.status === "in_progress");
    const idle = !currentQuestion(investigation) && ownOpenChallenges(investigation).length === 0;
    if (mode.kind === "normal" && idle && othersHold && isExpanded(investigation.frontier)) {
      // Every actionable question is held by another sub-agent: wait for one to change the frontier.
      await crew.changed();
      continue;
    }
    const { state, detail } = explorationState(investigation, mode);
    await setState(run, state, currentQuestion(investigation)?.id ?? null, detail);
    const outcome = await runTurn(run, {
      phase: "exploration",
      mode,
      offered: offeredTools("exploration", mode, EXPLORATION_TOOLS),
    });
    crew.notify();
    if (outcome.kind === "not-started" && host.signal.aborted) continue;
    if (outcome.kind === "not-started") return hostTurnsSpent(run);
    if (outcome.kind === "done" && outcome.explorationFinished) return { kind: "ended", stopReason: "finalized" };
    if (loop.consecutiveFailures >= MAX_FAILED_TURNS) return { kind: "ended", stopReason: "model_failed" };
  }
}

/** The Host refused a turn although the breakers allowed it: its own turn budget is the iteration breaker. */
function hostTurnsSpent(run: Run): ExplorationEnd {
  const message = `The run's turn budget (${run.host.request.budgets.maxTurns} turns) is spent: the investigation moves to synthesis (breaker: iterations).`;
  return {
    kind: "breaker",
    verdict: { fire: true, fatal: false, breaker: "iterations", phase: "exploration", message },
  };
}

async function synthesize(run: Run): Promise<SynthesisEnd> {
  const { host, loop } = run;
  await setState(run, "synthesizing", null, "writing the report from the notes");
  for (;;) {
    if (host.signal.aborted) {
      const verdict = aborted(run, "synthesis");
      return verdict
        ? { kind: "stopped", stopReason: stopReason(verdict), message: verdict.message }
        : { kind: "stopped" };
    }
    const counters = breakerState(run.crew.loops, "synthesis", host.clock.offset());
    const verdict = breakerCheck(counters, run.limits);
    if (verdict.fire && verdict.breaker === "wall_clock") {
      return { kind: "stopped", stopReason: stopReason(verdict), message: verdict.message };
    }
    if (verdict.fire) return { kind: "failed", error: verdict.message, stopReason: stopReason(verdict) };
    const forced = forcedFinalTurn(counters, run.limits);
    const mode: TurnMode = { kind: "normal" };
    const outcome = await runTurn(run, {
      phase: "synthesis",
      mode,
      offered: offeredTools("synthesis", mode, EXPLORATION_TOOLS),
      ...(forced ? { forced: "finalize_report" } : {}),
    });
    if (outcome.kind === "not-started") {
      if (host.signal.aborted) continue;
      const error = `Synthesis exhausted the run's turn budget (${host.request.budgets.maxTurns} turns) without finalize_report: the run fails (breaker: iterations).`;
      return { kind: "failed", error, stopReason: "breaker:iterations" };
    }
    if (outcome.kind === "done" && outcome.report) return { kind: "report", report: outcome.report };
    if (outcome.kind === "done" && outcome.reopen) return { kind: "reopen", ...outcome.reopen };
    // The model is down: like any strategy whose model fails, the Host publishes what is persisted.
    if (loop.consecutiveFailures >= MAX_FAILED_TURNS) return { kind: "stopped", stopReason: "model_failed" };
  }
}

/**
 * Salvage (seed 004 "Budgets And Terminal Behavior"): when the model failed before a single
 * page was read, code reads what the request itself finds — one search with the request as
 * written, the best `bootstrapSources` hits — so the Host publishes a source-backed report
 * instead of nothing. The model wrote nothing of it; the loop records it as the salvage it is.
 */
async function salvageSources(run: Run): Promise<void> {
  const { host } = run;
  if (host.sources().length > 0 || host.signal.aborted) return;
  await host.emit("salvage-started", { reason: "the model failed before any source was read" });
  const call = await search(host, { kind: "text", text: host.searchText }, "bootstrap");
  if (call?.status !== "ok") return;
  await acquireAll(host, interleave([call]), { wantSources: host.request.budgets.bootstrapSources });
}

/** Records the cut-short note in notes.md (Scratch) when a breaker ended exploration. */
async function noteCutShort(run: Run, verdict: BreakerFired): Promise<{ breaker: string; message: string }> {
  const investigation = await run.tools.load();
  const note = cutShortNote(verdict.breaker, stillPending(investigation.frontier));
  const scratch = investigation.scratch.trim();
  await run.tools.call("notes_scratch", { text: scratch === "" ? note : `${scratch}\n\n${note}` }, { actor: "code" });
  return { breaker: verdict.breaker, message: note };
}

function producedBy(model: Model, cutShort?: string): string {
  const how =
    model.kind === "extractive"
      ? "Findings were recorded by Assay's offline engine following fixed investigative rules: each is a sentence quoted from a source, cross-checked against other sources and challenged with an adversarial search."
      : `Findings were investigated by the model ${model.name} in Assay's investigative loop (question frontier, claim ledger, adversarial challenges) and checked by Assay's gates.`;
  return [how, ...(cutShort ? [cutShort] : [])].join(" ");
}

/** The accepted report through the Host's admission: the same path as every synthesis. */
async function admitReport(run: Run, report: FinalReport): Promise<StrategyResult> {
  const { host, tools, loop } = run;
  const investigation = await tools.load();
  const pending = loop.cutShort ? stillPending(investigation.frontier) : [];
  const withGaps: FinalReport = loop.cutShort
    ? { ...report, gaps: [...report.gaps, ...cutShortGaps(loop.cutShort.breaker as BreakerFired["breaker"], pending)] }
    : report;
  const catalog = admissionCatalog(host.sources());
  const mapping = finalReportToSynthesis(withGaps, investigation, catalog, host.judge);
  const admitted = admitSynthesis(mapping.output, catalog);
  for (const dropped of [...mapping.dropped, ...admitted.diagnostics]) {
    await host.diagnose("admission", `${dropped.kind}-dropped`, dropped.reason, { itemId: dropped.itemId });
  }
  for (const demoted of mapping.demoted) {
    await host.diagnose("admission", `${demoted.kind}-unverified`, demoted.reason, { itemId: demoted.itemId });
  }
  return {
    synthesis: {
      admitted,
      verification: mapping.verification,
      producedBy: producedBy(run.model, loop.cutShort?.message),
    },
  };
}

async function recordedReport(host: RunHost): Promise<FinalReport | undefined> {
  const events = await host.store.listEvents(host.run.id);
  const recorded = events.findLast((event) => event.type === REPORT_EVENT);
  if (!recorded) return undefined;
  const parsed = parseFinalReport(recorded.data.report);
  return parsed.ok ? parsed.value : undefined;
}

async function open(host: RunHost): Promise<Run> {
  const model = host.model;
  if (!model?.act) {
    throw new UserError(
      `the model ${model?.name ?? "none"} cannot drive the investigative strategy (it needs general tool calling): choose another model or strategy`,
    );
  }
  const store = host.store;
  if (!isInvestigationStore(store))
    throw new Error("the investigative strategy needs a store that keeps investigations");
  if (!host.notes) throw new UserError("the investigative strategy needs a notes folder (research_notes_dir)");
  const config = resolveInvestigationConfig(host.request.investigation ?? {});
  if (!config.ok) throw new UserError(config.error);
  const events = await store.listEvents(host.run.id);
  const loop: LoopState = loopStateFrom(events);
  const tools = await InvestigationTools.open({
    store,
    notes: host.notes,
    runId: host.run.id,
    config: config.value,
    now: () => host.clock.wallIso(),
    stateSeq: () => loop.stateSeq,
    randomBytes,
    catalog: () => new Set(host.sources().map((source) => source.id)),
    judge: host.judge,
  });
  const book = HitBook.of(host);
  // A resumed run shows each sub-agent its last turn's results again, as data too.
  const lastResults = (agent: number) =>
    resultsOf(
      host,
      book,
      events.findLast((event) => event.type === TURN_EVENT && ((event.data as { agent?: number }).agent ?? 1) === agent)
        ?.data as unknown as TurnEventData | undefined,
    );
  loop.lastResults = lastResults(1);
  const others = Array.from({ length: config.value.maxParallel - 1 }, (_, index) => {
    const agentLoop = loopStateFrom(events, index + 2);
    agentLoop.lastResults = lastResults(index + 2);
    return { agent: index + 2, loop: agentLoop };
  });
  const crew = newCrew([loop, ...others.map((other) => other.loop)]);
  const run: Run = {
    host,
    model: model as TurnContext["model"],
    tools,
    book,
    loop,
    config: config.value,
    limits: limitsOf(host, config.value),
    crew,
  };
  crew.others = others.map((other) => ({ ...run, tools: tools.forAgent(other.agent), loop: other.loop }));
  return run;
}

export const investigativeStrategy: Strategy = {
  name: "investigative",
  async run(host: RunHost): Promise<StrategyResult> {
    const run = await open(host);
    const { loop } = run;
    const recorded = await recordedReport(host);
    if (recorded) {
      await host.emit("report-reused", {});
      return admitReport(run, recorded);
    }
    if (loop.turns.length === 0 && loop.phase === "exploration") await setPhase(run, { phase: "exploration" });
    await host.stage("investigation");
    for (;;) {
      if (loop.phase === "exploration") {
        const end = await exploreAll(run);
        if (end.kind === "stopped" || end.kind === "peer") return {};
        if (end.kind === "breaker" && end.verdict.fatal) {
          // The wall clock: the run ends as any run does at its deadline, with what is persisted.
          await setPhase(run, { phase: "finished", stopReason: stopReason(end.verdict), message: end.verdict.message });
          return {};
        }
        if (end.kind === "breaker") {
          const cutShort = await noteCutShort(run, end.verdict);
          loop.cutShort = cutShort;
          await setPhase(run, {
            phase: "synthesis",
            stopReason: stopReason(end.verdict),
            message: end.verdict.message,
            cutShort,
          });
        } else {
          if (end.stopReason === "model_failed") await salvageSources(run);
          await setPhase(run, { phase: "synthesis", stopReason: end.stopReason });
        }
      }
      const end = await synthesize(run);
      if (end.kind === "stopped") {
        if (end.stopReason === "model_failed") await salvageSources(run);
        if (end.stopReason) {
          await setPhase(run, {
            phase: "finished",
            stopReason: end.stopReason,
            ...(end.message === undefined ? {} : { message: end.message }),
          });
        }
        return {};
      }
      if (end.kind === "failed") {
        await setPhase(run, {
          phase: "failed",
          ...(end.stopReason ? { stopReason: end.stopReason } : {}),
          message: end.error,
        });
        return { error: end.error };
      }
      if (end.kind === "reopen") {
        loop.reopensUsed++;
        await setPhase(run, { phase: "exploration", message: `reopened ${end.questionId}: ${end.why}` });
        continue;
      }
      await host.emit(REPORT_EVENT, {
        report: end.report,
        notesTokens: notesTokens(notesText(await run.tools.load())),
      });
      await setPhase(run, { phase: "finished" });
      return admitReport(run, end.report);
    }
  },
};
