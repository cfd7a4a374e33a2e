/**
 * What the live run page shows, computed from a run and its stored events (pure): the stages
 * passed and the current one, the sources as they arrive, budget use, model use, the latest
 * report version and the recent activity lines.
 */
import { type GenerationUsage, usageOf } from "../core/usage.js";
import type { RunEvent, RunRecord } from "../ports/store.js";
import { describeEvent } from "./event-lines.js";

export interface LiveSource {
  title: string;
  anchor: string;
  recovered: boolean;
}

export interface BudgetUse {
  label: string;
  used: number;
  limit: number;
}

export interface LiveState {
  /** Stages in the order entered (`bootstrap`, `planning`, …); the last is the current one while the run goes on. */
  stages: string[];
  /** The investigative research state (`selecting`, `extracting`, …), '' for other strategies. */
  researchState: string;
  sources: LiveSource[];
  budgets: BudgetUse[];
  /** Model use of the run's generations (tokens and cost). */
  usage: GenerationUsage;
  /** Milliseconds from the run's start to its last event (or to `now` while it goes on). */
  elapsedMs: number;
  /** The latest published report: `preliminary` or `final`, its artifact status and version. */
  report: { kind: "preliminary" | "final"; status: string; version: string } | undefined;
  /** The newest activity lines, newest last (at most `recent`). */
  activity: { seq: number; offsetMs: number; text: string }[];
  /** The last event's seq (the live page's stream continues after it). */
  lastSeq: number;
}

/** The state of `run` after `events` (in seq order); `now` (ms since the epoch) for a run still going on. Pure. */
export function liveState(
  run: Pick<RunRecord, "originAt" | "finishedAt" | "request" | "worker" | "status">,
  events: readonly RunEvent[],
  options: { now: number; recent?: number },
): LiveState {
  const stages: string[] = [];
  let researchState = "";
  const sources: LiveSource[] = [];
  let searches = 0;
  let reads = 0;
  let generations = 0;
  let turns = 0;
  let report: LiveState["report"];
  const activity: LiveState["activity"] = [];
  for (const event of events) {
    const data = event.data;
    switch (event.type) {
      case "stage-changed":
        stages.push(String(data.stage));
        break;
      case "research-state":
        researchState = String(data.state);
        break;
      case "search-finished":
      case "search-failed":
        searches += 1;
        break;
      case "source-fetched":
      case "fetch-failed":
      case "fetch-cancelled":
        reads += 1;
        break;
      case "source-persisted":
        sources.push({
          title: String(data.title ?? ""),
          anchor: String(data.anchor ?? ""),
          recovered: data.recovered === true,
        });
        break;
      case "generation-started":
        generations += 1;
        break;
      case "investigative-turn":
        turns += 1;
        break;
      case "preliminary-published":
      case "final-published":
        report = {
          kind: event.type === "final-published" ? "final" : "preliminary",
          status: String(data.status),
          version: String(data.version),
        };
        break;
    }
    const text = describeEvent(event);
    if (text !== undefined) activity.push({ seq: event.seq, offsetMs: event.offsetMs, text });
  }
  const budgets = run.request.budgets;
  const investigative = run.request.strategy === "investigative";
  const last = events.at(-1);
  // Event offsets count from the run's origin, which is reset when a process starts a queued run.
  const started = Date.parse(run.originAt);
  const queued = run.status === "running" && run.worker === "";
  const elapsedMs = queued
    ? 0
    : run.finishedAt !== "" || Number.isNaN(started)
      ? (last?.offsetMs ?? 0)
      : Math.max(0, options.now - started);
  return {
    stages,
    researchState,
    sources,
    budgets: [
      { label: "Searches", used: searches, limit: budgets.maxSearchCalls },
      { label: "Reads", used: reads, limit: budgets.maxFetchAttempts },
      { label: "Sources", used: sources.length, limit: budgets.maxSources },
      investigative
        ? { label: "Turns", used: turns, limit: budgets.maxTurns }
        : { label: "Model calls", used: generations, limit: budgets.maxGenerations },
      { label: "Seconds", used: Math.round(elapsedMs / 1000), limit: Math.round(budgets.wallClockMs / 1000) },
    ],
    usage: usageOf(events),
    elapsedMs,
    report,
    activity: activity.slice(-(options.recent ?? 12)),
    lastSeq: last?.seq ?? 0,
  };
}

/** `12 s`, `3 min 4 s`: an elapsed time for people (the web UI's app.js counts up in the same form). */
export function elapsedText(ms: number): string {
  const total = Math.round(ms / 1000);
  return total < 60 ? `${total} s` : `${Math.floor(total / 60)} min ${total % 60} s`;
}
