/**
 * A run's trajectory in the Agent Trajectory Interchange Format (`assay runs export --format atif`).
 *
 * Spec followed: ATIF-v1.7, harbor RFC 0001 "Agent Trajectory Interchange Format (ATIF)
 * Specification" (Status Active, April 2026), https://github.com/harbor-framework/harbor/blob/main/rfcs/0001-trajectory-format.md
 * (the repository formerly laude-institute/harbor, docs/rfcs/0001-trajectory-format.md), and
 * its reference Pydantic models (src/harbor/models/trajectories/*.py): unknown keys are
 * forbidden at every level, `step_id`s run 1, 2, … without gaps, an observation's
 * `source_call_id` names a `tool_call_id` of the same step, `model_name`/`tool_calls`/`metrics`
 * only on agent steps, `arguments` is always a JSON object, and there is at least one step.
 *
 * Mapping: the question is step 1 (`user`); each `investigative-turn` event is one `agent` step
 * (the model's text as `message`, its calls as `tool_calls`, what each call returned as
 * `observation.results`, usage as `metrics`); each `investigative-phase` and `research-state`
 * event is a `system` step (ATIF ≥ 1.2 lets system steps record system-initiated operations),
 * their data in `extra`. A run without turn events (the `pipeline` and `simple` strategies)
 * records no model text or tool calls: each `generation-finished`/`generation-failed` event is
 * an agent step with an empty message, its purpose in `extra` and its usage in `metrics`, and
 * `notes` says so — the tokens and cost are worth comparing across strategies. Pure.
 */
import { z } from "zod";
import type { RunEvent, RunRecord } from "../../ports/store.js";
import { version } from "../../version.js";
import { RESEARCH_STATES } from "./loop-tools.js";
import {
  EVENT_TEXT_MAX,
  PHASE_EVENT,
  type PhaseEventData,
  STATE_EVENT,
  type StateEventData,
  TURN_EVENT,
  type TurnEventData,
} from "./turn-events.js";

export const ATIF_SCHEMA_VERSION = "ATIF-v1.7";

export interface AtifToolCall {
  tool_call_id: string;
  function_name: string;
  arguments: Record<string, unknown>;
  extra?: Record<string, unknown>;
}

export interface AtifObservationResult {
  source_call_id?: string;
  content?: string;
  extra?: Record<string, unknown>;
}

export interface AtifMetrics {
  prompt_tokens?: number;
  completion_tokens?: number;
  cached_tokens?: number;
  cost_usd?: number;
  extra?: Record<string, unknown>;
}

export interface AtifStep {
  step_id: number;
  timestamp?: string;
  source: "system" | "user" | "agent";
  model_name?: string;
  message: string;
  tool_calls?: AtifToolCall[];
  observation?: { results: AtifObservationResult[] };
  metrics?: AtifMetrics;
  llm_call_count?: number;
  extra?: Record<string, unknown>;
}

export interface AtifFinalMetrics {
  total_prompt_tokens?: number;
  total_completion_tokens?: number;
  total_cached_tokens?: number;
  total_cost_usd?: number;
  total_steps?: number;
  extra?: Record<string, unknown>;
}

/** The root object of an ATIF document (the fields Assay writes). */
export interface AtifTrajectory {
  schema_version: typeof ATIF_SCHEMA_VERSION;
  session_id: string;
  agent: { name: string; version: string; model_name?: string; extra?: Record<string, unknown> };
  steps: AtifStep[];
  notes?: string;
  final_metrics: AtifFinalMetrics;
  extra?: Record<string, unknown>;
}

/** `{ key: value }`, or `{}` when the value is undefined (zod types an absent key as `undefined`; the contracts omit it). */
function defined<K extends string, V>(entry: Record<K, V | undefined>): Partial<Record<K, V>> {
  return Object.fromEntries(Object.entries(entry).filter(([, value]) => value !== undefined)) as Partial<Record<K, V>>;
}

// The event payloads are read through schemas: the log is persisted data, possibly from an
// older version; an event that does not match is listed in `extra.unreadable_events`, not guessed at.
const usageSchema = z
  .object({
    inputTokens: z.number().int().nonnegative(),
    outputTokens: z.number().int().nonnegative(),
    costUsd: z.number().nonnegative().optional(),
  })
  .transform(({ costUsd, ...usage }) => ({ ...usage, ...defined({ costUsd }) }));

const turnSchema = z
  .object({
    turn: z.number().int(),
    agent: z.number().int().positive().optional(),
    phase: z.enum(["exploration", "synthesis"]),
    mode: z.enum(["normal", "extraction", "consolidation"]),
    questionId: z.string().nullable(),
    toolChoice: z.union([z.literal("auto"), z.literal("required"), z.object({ tool: z.string() })]),
    offered: z.array(z.string()),
    text: z.string(),
    calls: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        args: z.unknown(),
        ok: z.boolean(),
        text: z.string(),
        chars: z.number(),
      }),
    ),
    failed: z.string().optional(),
    usage: usageSchema,
    prompt: z.object({ chars: z.number(), tokens: z.number() }),
    commits: z.array(
      z.object({ turn: z.number(), callId: z.string(), how: z.enum(["extracted", "nothing-relevant", "logged"]) }),
    ),
    model: z.string(),
  })
  .transform(({ failed, agent, ...turn }) => ({
    ...turn,
    ...defined({ failed }),
    ...(agent === undefined ? {} : { agent }),
  }));

const stateSchema = z.object({
  state: z.enum(RESEARCH_STATES),
  turn: z.number().int(),
  questionId: z.string().nullable(),
  detail: z.string(),
});

const phaseSchema = z
  .object({
    phase: z.enum(["exploration", "synthesis", "finished", "failed"]),
    stopReason: z.string().optional(),
    message: z.string().optional(),
  })
  .transform(({ stopReason, message, ...phase }) => ({
    ...phase,
    ...defined({ stopReason }),
    ...defined({ message }),
  }));

const generationSchema = z.object({
  purpose: z.string(),
  model: z.string(),
  usage: usageSchema,
  attempts: z.number().int().optional(),
  kind: z.string().optional(),
});

type Usage = z.infer<typeof usageSchema>;
type StepDraft = Omit<AtifStep, "step_id">;

const GENERATION_EVENTS = ["generation-finished", "generation-failed"];

function metricsOf(usage: Usage): AtifMetrics {
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    ...(usage.costUsd === undefined ? {} : { cost_usd: usage.costUsd }),
  };
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** One model turn: its text, its calls with their arguments, what each returned, its usage. */
function turnStep(event: RunEvent, data: TurnEventData): StepDraft {
  const seen = new Set<string>();
  const calls = data.calls.map((call) => {
    // ATIF needs call ids unique within a step (the observation points at them).
    let id = call.id;
    for (let copy = 2; seen.has(id); copy++) id = `${call.id}#${copy}`;
    seen.add(id);
    return { call, id };
  });
  return {
    timestamp: event.at,
    source: "agent",
    model_name: data.model,
    message: data.text,
    ...(calls.length === 0
      ? {}
      : {
          tool_calls: calls.map(({ call, id }) => ({
            tool_call_id: id,
            function_name: call.name,
            // ATIF's arguments are an object; what the model wrote otherwise is kept in extra.
            arguments: isPlainObject(call.args) ? call.args : {},
            ...(isPlainObject(call.args) && id === call.id
              ? {}
              : {
                  extra: {
                    ...(isPlainObject(call.args) ? {} : { raw_arguments: call.args ?? null }),
                    ...(id === call.id ? {} : { original_call_id: call.id }),
                  },
                }),
          })),
          observation: {
            results: calls.map(({ call, id }) => ({
              source_call_id: id,
              content: call.text,
              extra: { ok: call.ok, ...(call.chars > call.text.length ? { full_chars: call.chars } : {}) },
            })),
          },
        }),
    metrics: metricsOf(data.usage),
    llm_call_count: 1,
    extra: {
      assay_event: TURN_EVENT,
      assay_event_seq: event.seq,
      turn: data.turn,
      ...(data.agent === undefined ? {} : { sub_agent: data.agent }),
      phase: data.phase,
      mode: data.mode,
      question_id: data.questionId,
      tool_choice: data.toolChoice,
      offered_tools: [...data.offered],
      prompt_estimate: { chars: data.prompt.chars, tokens: data.prompt.tokens },
      commits: data.commits.map((commit) => ({ turn: commit.turn, call_id: commit.callId, how: commit.how })),
      ...(data.failed === undefined ? {} : { failed: data.failed }),
    },
  };
}

function phaseStep(event: RunEvent, data: PhaseEventData): StepDraft {
  const why = data.stopReason ? ` (stop reason: ${data.stopReason})` : "";
  return {
    timestamp: event.at,
    source: "system",
    message: `Investigative phase: ${data.phase}${why}${data.message ? `: ${data.message}` : ""}`,
    extra: {
      assay_event: PHASE_EVENT,
      assay_event_seq: event.seq,
      phase: data.phase,
      ...(data.stopReason === undefined ? {} : { stop_reason: data.stopReason }),
      ...(data.message === undefined ? {} : { message: data.message }),
    },
  };
}

function stateStep(event: RunEvent, data: StateEventData): StepDraft {
  const question = data.questionId ? ` (question ${data.questionId})` : "";
  return {
    timestamp: event.at,
    source: "system",
    message: `Research state: ${data.state}${question}${data.detail ? ` — ${data.detail}` : ""}`,
    extra: {
      assay_event: STATE_EVENT,
      assay_event_seq: event.seq,
      state: data.state,
      turn: data.turn,
      question_id: data.questionId,
      detail: data.detail,
    },
  };
}

/** A generation of a strategy that records no text or calls: purpose and usage only. */
function generationStep(event: RunEvent, data: z.infer<typeof generationSchema>): StepDraft {
  return {
    timestamp: event.at,
    source: "agent",
    model_name: data.model,
    message: "",
    metrics: metricsOf(data.usage),
    llm_call_count: 1,
    extra: {
      assay_event: event.type,
      assay_event_seq: event.seq,
      purpose: data.purpose,
      text_recorded: false,
      ...(data.attempts === undefined ? {} : { attempts: data.attempts }),
      ...(data.kind === undefined ? {} : { failed: data.kind }),
    },
  };
}

/** The step an event becomes, or null when the event has no place in the trajectory. */
function stepOf(event: RunEvent, hasTurns: boolean, unreadable: number[]): StepDraft | null {
  const read = <T>(schema: z.ZodType<T>, build: (data: T) => StepDraft): StepDraft | null => {
    const parsed = schema.safeParse(event.data);
    if (parsed.success) return build(parsed.data);
    unreadable.push(event.seq);
    return null;
  };
  if (event.type === TURN_EVENT) return read(turnSchema, (data) => turnStep(event, data));
  if (event.type === PHASE_EVENT) return read(phaseSchema, (data) => phaseStep(event, data));
  if (event.type === STATE_EVENT) return read(stateSchema, (data) => stateStep(event, data));
  if (!GENERATION_EVENTS.includes(event.type)) return null;
  // A turn's generation event repeats what its turn event records.
  if (hasTurns && event.data.purpose === "turn") return null;
  return read(generationSchema, (data) => generationStep(event, data));
}

function finalMetrics(steps: readonly AtifStep[]): AtifFinalMetrics {
  const measured = steps.flatMap((step) => (step.metrics ? [step.metrics] : []));
  const costs = measured.flatMap((metrics) => (metrics.cost_usd === undefined ? [] : [metrics.cost_usd]));
  const agentSteps = steps.filter((step) => step.source === "agent");
  return {
    total_prompt_tokens: measured.reduce((sum, metrics) => sum + (metrics.prompt_tokens ?? 0), 0),
    total_completion_tokens: measured.reduce((sum, metrics) => sum + (metrics.completion_tokens ?? 0), 0),
    // A cost only when every measured step has one: a partial sum would pass for the total.
    ...(costs.length > 0 && costs.length === measured.length
      ? { total_cost_usd: costs.reduce((sum, cost) => sum + cost, 0) }
      : {}),
    total_steps: steps.length,
    extra: {
      agent_steps: agentSteps.length,
      tool_calls: agentSteps.reduce((sum, step) => sum + (step.tool_calls?.length ?? 0), 0),
      failed_tool_calls: agentSteps.reduce(
        (sum, step) => sum + (step.observation?.results.filter((result) => result.extra?.ok === false).length ?? 0),
        0,
      ),
      failed_generations: agentSteps.filter((step) => step.extra?.failed !== undefined).length,
    },
  };
}

function notesOf(run: RunRecord, hasTurns: boolean, metrics: AtifFinalMetrics): string {
  const lines = [`Exported by Assay ${version} from the event log of run ${run.id}. Step 1 is the research question.`];
  if (hasTurns) {
    lines.push(
      `Each agent step is one model turn (an ${TURN_EVENT} event) with the calls it made and the results the model read (a result or text longer than ${EVENT_TEXT_MAX} characters is cut; observation extra.full_chars has the length). System steps after step 1 record the runtime's phase and research-state changes, not prompts. The system prompt and the per-turn prompts are not recorded; step extra.prompt_estimate has their size.`,
    );
  } else {
    lines.push(
      `The ${run.request.strategy} strategy records no model text or tool calls: each agent step is one model generation with its purpose and token usage, and an empty message.`,
    );
  }
  lines.push("Cached tokens are not recorded.");
  if (metrics.total_cost_usd === undefined) lines.push("The cost is unknown (no price for the model).");
  return lines.join(" ");
}

/**
 * The ATIF document of a run from its record and its event log (in any order; read by `seq`).
 * JSON-serializable. Never throws: an event whose data does not match its type is left out
 * and listed (by `seq`) in `extra.unreadable_events`. Pure.
 */
export function atifTrajectory(run: RunRecord, events: readonly RunEvent[]): AtifTrajectory {
  const ordered = [...events].sort((a, b) => a.seq - b.seq);
  const hasTurns = ordered.some((event) => event.type === TURN_EVENT);
  const unreadable: number[] = [];
  const drafts: StepDraft[] = [
    { timestamp: run.originAt, source: "user", message: run.request.question },
    ...ordered.flatMap((event) => stepOf(event, hasTurns, unreadable) ?? []),
  ];
  const steps = drafts.map((draft, index): AtifStep => ({ step_id: index + 1, ...draft }));
  const metrics = finalMetrics(steps);
  return {
    schema_version: ATIF_SCHEMA_VERSION,
    session_id: `assay-run-${run.id}`,
    agent: {
      name: "assay",
      version,
      model_name: run.request.model,
      extra: { strategy: run.request.strategy, language: run.request.language },
    },
    steps,
    notes: notesOf(run, hasTurns, metrics),
    final_metrics: metrics,
    extra: {
      assay_run: {
        id: run.id,
        status: run.status,
        ...(run.phase ? { phase: run.phase } : {}),
        ...(run.stopReason ? { stop_reason: run.stopReason } : {}),
        ...(run.artifactStatus ? { artifact_status: run.artifactStatus } : {}),
        ...(run.error ? { error: run.error } : {}),
        origin_at: run.originAt,
        ...(run.finishedAt ? { finished_at: run.finishedAt } : {}),
        scope: { kind: run.request.scope.kind, label: run.request.scope.label },
      },
      ...(unreadable.length > 0 ? { unreadable_events: unreadable } : {}),
    },
  };
}
