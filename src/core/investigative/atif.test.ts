import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { RunEvent, RunRecord } from "../../ports/store.js";
import { DEFAULT_BUDGETS } from "../budgets.js";
import { ATIF_SCHEMA_VERSION, atifTrajectory } from "./atif.js";
import {
  PHASE_EVENT,
  type PhaseEventData,
  STATE_EVENT,
  type StateEventData,
  TURN_EVENT,
  type TurnEventCall,
  type TurnEventData,
} from "./turn-events.js";

/**
 * ATIF-v1.7 as harbor's reference Pydantic models check it (src/harbor/models/trajectories/:
 * `extra="forbid"` on every model, required fields, `step_id >= 1`, ISO 8601 timestamps), with
 * the validators of `Step` and `Trajectory` as refinements: agent-only fields, step ids
 * sequential from 1, every `source_call_id` a `tool_call_id` of its step, unique call ids.
 */
const extra = z.record(z.string(), z.unknown()).optional();
const isoTimestamp = z.string().refine((value) => !Number.isNaN(Date.parse(value)), "ISO 8601 timestamp");
const toolCall = z.strictObject({
  tool_call_id: z.string(),
  function_name: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  extra,
});
const observationResult = z.strictObject({
  source_call_id: z.string().nullable().optional(),
  content: z.string().nullable().optional(),
  subagent_trajectory_ref: z.array(z.unknown()).nullable().optional(),
  extra,
});
const metrics = z.strictObject({
  prompt_tokens: z.number().int().optional(),
  completion_tokens: z.number().int().optional(),
  cached_tokens: z.number().int().optional(),
  cost_usd: z.number().optional(),
  prompt_token_ids: z.array(z.number().int()).optional(),
  completion_token_ids: z.array(z.number().int()).optional(),
  logprobs: z.array(z.number()).optional(),
  extra,
});
const step = z
  .strictObject({
    step_id: z.number().int().min(1),
    timestamp: isoTimestamp.optional(),
    source: z.enum(["system", "user", "agent"]),
    model_name: z.string().optional(),
    reasoning_effort: z.union([z.string(), z.number()]).optional(),
    message: z.string(),
    reasoning_content: z.string().optional(),
    tool_calls: z.array(toolCall).optional(),
    observation: z.strictObject({ results: z.array(observationResult) }).optional(),
    metrics: metrics.optional(),
    is_copied_context: z.boolean().optional(),
    llm_call_count: z.number().int().min(0).optional(),
    extra,
  })
  .superRefine((value, context) => {
    const agentOnly = ["model_name", "reasoning_effort", "reasoning_content", "tool_calls", "metrics"] as const;
    for (const field of agentOnly) {
      if (value.source !== "agent" && value[field] !== undefined) {
        context.addIssue({ code: "custom", message: `${field} is only applicable when source is 'agent'` });
      }
    }
    const ids = (value.tool_calls ?? []).map((call) => call.tool_call_id);
    if (new Set(ids).size !== ids.length) context.addIssue({ code: "custom", message: "duplicate tool_call_id" });
    for (const result of value.observation?.results ?? []) {
      if (typeof result.source_call_id === "string" && !ids.includes(result.source_call_id)) {
        context.addIssue({
          code: "custom",
          message: `source_call_id ${result.source_call_id} is not a call of its step`,
        });
      }
    }
  });
const atifSchema = z
  .strictObject({
    schema_version: z.enum([
      "ATIF-v1.0",
      "ATIF-v1.1",
      "ATIF-v1.2",
      "ATIF-v1.3",
      "ATIF-v1.4",
      "ATIF-v1.5",
      "ATIF-v1.6",
      "ATIF-v1.7",
    ]),
    session_id: z.string().optional(),
    trajectory_id: z.string().optional(),
    agent: z.strictObject({
      name: z.string(),
      version: z.string(),
      model_name: z.string().optional(),
      tool_definitions: z.array(z.record(z.string(), z.unknown())).optional(),
      extra,
    }),
    steps: z.array(step).min(1),
    notes: z.string().optional(),
    final_metrics: z
      .strictObject({
        total_prompt_tokens: z.number().int().optional(),
        total_completion_tokens: z.number().int().optional(),
        total_cached_tokens: z.number().int().optional(),
        total_cost_usd: z.number().optional(),
        total_steps: z.number().int().min(0).optional(),
        extra,
      })
      .optional(),
    continued_trajectory_ref: z.string().optional(),
    extra,
    subagent_trajectories: z.array(z.unknown()).optional(),
  })
  .superRefine((value, context) => {
    value.steps.forEach((item, index) => {
      if (item.step_id !== index + 1) context.addIssue({ code: "custom", message: `steps[${index}].step_id` });
    });
  });

/** Parses a document as harbor would, and fails the test with the issues when it is not valid ATIF. */
function validAtif(document: unknown): z.infer<typeof atifSchema> {
  const parsed = atifSchema.safeParse(JSON.parse(JSON.stringify(document)));
  if (!parsed.success) throw new Error(z.prettifyError(parsed.error));
  return parsed.data;
}

const run = (overrides: Partial<RunRecord> = {}): RunRecord => ({
  id: 7,
  request: {
    question: "When was the lithium-ion battery commercialised?",
    language: "en",
    strategy: "simple",
    scope: { kind: "corpus", root: "/data/corpus", label: "corpus" },
    budgets: { ...DEFAULT_BUDGETS },
    model: "openai:gpt-test",
    outDir: "/tmp/out",
  },
  status: "finished",
  artifactStatus: "synthesized",
  error: "",
  originAt: "2026-01-15T09:00:00.000Z",
  worker: "test:1",
  createdAt: "2026-01-15T09:00:00.000Z",
  updatedAt: "2026-01-15T09:05:00.000Z",
  finishedAt: "2026-01-15T09:05:00.000Z",
  phase: "synthesis",
  stopReason: "finalized",
  ...overrides,
});

let seq = 0;
function event(type: string, data: object): RunEvent {
  seq++;
  return {
    runId: 7,
    seq,
    type,
    offsetMs: seq * 1000,
    at: new Date(Date.UTC(2026, 0, 15, 9, 0, seq)).toISOString(),
    data: { ...data },
  };
}

const call = (id: string, name: string, args: unknown, text: string, ok = true): TurnEventCall => ({
  id,
  name,
  args,
  ok,
  text,
  chars: text.length,
});

function turn(number: number, overrides: Partial<TurnEventData> = {}): RunEvent {
  const data: TurnEventData = {
    turn: number,
    phase: "exploration",
    mode: "normal",
    questionId: "q_002",
    toolChoice: "auto",
    offered: ["search", "fetch_page", "notes_append"],
    text: "",
    calls: [],
    usage: { inputTokens: 1000 * number, outputTokens: 100, costUsd: 0.001 * number },
    prompt: { chars: 4000 * number, tokens: 1000 * number },
    commits: [],
    model: "gpt-test",
    ...overrides,
  };
  return event(TURN_EVENT, data);
}

const state = (data: StateEventData): RunEvent => event(STATE_EVENT, data);
const phase = (data: PhaseEventData): RunEvent => event(PHASE_EVENT, data);

/** Three turns (two calls, a refused call and a failed generation), states, phases and a duplicated turn generation. */
function investigativeEvents(): RunEvent[] {
  seq = 0;
  return [
    event("run-started", { question: "…" }),
    phase({ phase: "exploration" }),
    state({ state: "selecting", turn: 1, questionId: "q_002", detail: "highest priority" }),
    turn(1, {
      text: "I will search for the first commercial cell.",
      calls: [
        call("call_1", "search", { query: "first lithium-ion cell 1991" }, "h1 Sony 1991 …"),
        call("call_2", "fetch_page", { hit: "h1" }, "s_001: Sony sold the first cells in 1991."),
      ],
      commits: [{ turn: 1, callId: "call_1", how: "logged" }],
    }),
    event("generation-finished", {
      purpose: "turn",
      model: "gpt-test",
      usage: { inputTokens: 1000, outputTokens: 100 },
    }),
    turn(2, {
      toolChoice: { tool: "notes_append" },
      calls: [call("call_3", "notes_append", "not an object", "refused: arguments must be an object", false)],
    }),
    turn(3, { failed: "timeout after 60000 ms", usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 } }),
    phase({ phase: "synthesis", stopReason: "finalized" }),
    state({ state: "synthesizing", turn: 4, questionId: null, detail: "" }),
    phase({ phase: "finished", stopReason: "finalized" }),
  ];
}

describe("atifTrajectory of an investigative run", () => {
  it("is valid ATIF-v1.7 with the question first and one agent step per turn", () => {
    const document = validAtif(atifTrajectory(run(), investigativeEvents()));
    expect(document.schema_version).toBe(ATIF_SCHEMA_VERSION);
    expect(document.session_id).toBe("assay-run-7");
    expect(document.agent).toMatchObject({
      name: "assay",
      model_name: "openai:gpt-test",
      extra: { strategy: "simple" },
    });
    expect(document.steps.map((item) => [item.step_id, item.source])).toEqual([
      [1, "user"],
      [2, "system"],
      [3, "system"],
      [4, "agent"],
      [5, "agent"],
      [6, "agent"],
      [7, "system"],
      [8, "system"],
      [9, "system"],
    ]);
    expect(document.steps[0]).toEqual({
      step_id: 1,
      timestamp: "2026-01-15T09:00:00.000Z",
      source: "user",
      message: "When was the lithium-ion battery commercialised?",
    });
    expect(document.steps[1]?.message).toBe("Investigative phase: exploration");
    expect(document.steps[2]?.message).toBe("Research state: selecting (question q_002) — highest priority");
    expect(document.steps[6]?.message).toBe("Investigative phase: synthesis (stop reason: finalized)");
    expect(document.steps[7]?.extra).toMatchObject({ assay_event: STATE_EVENT, state: "synthesizing", turn: 4 });
  });

  it("maps a turn's calls to tool_calls and their results to observations", () => {
    const [, , , first] = validAtif(atifTrajectory(run(), investigativeEvents())).steps;
    expect(first).toMatchObject({
      source: "agent",
      model_name: "gpt-test",
      message: "I will search for the first commercial cell.",
      tool_calls: [
        { tool_call_id: "call_1", function_name: "search", arguments: { query: "first lithium-ion cell 1991" } },
        { tool_call_id: "call_2", function_name: "fetch_page", arguments: { hit: "h1" } },
      ],
      observation: {
        results: [
          { source_call_id: "call_1", content: "h1 Sony 1991 …", extra: { ok: true } },
          { source_call_id: "call_2", content: "s_001: Sony sold the first cells in 1991.", extra: { ok: true } },
        ],
      },
      metrics: { prompt_tokens: 1000, completion_tokens: 100, cost_usd: 0.001 },
      llm_call_count: 1,
      extra: {
        assay_event: TURN_EVENT,
        turn: 1,
        phase: "exploration",
        mode: "normal",
        question_id: "q_002",
        tool_choice: "auto",
        offered_tools: ["search", "fetch_page", "notes_append"],
        prompt_estimate: { chars: 4000, tokens: 1000 },
        commits: [{ turn: 1, call_id: "call_1", how: "logged" }],
      },
    });
    expect(first?.tool_calls?.[0]).not.toHaveProperty("extra");
  });

  it("keeps a refused call with its reason and the arguments the model wrote", () => {
    const refused = validAtif(atifTrajectory(run(), investigativeEvents())).steps[4];
    expect(refused?.tool_calls).toEqual([
      {
        tool_call_id: "call_3",
        function_name: "notes_append",
        arguments: {},
        extra: { raw_arguments: "not an object" },
      },
    ]);
    expect(refused?.observation?.results).toEqual([
      { source_call_id: "call_3", content: "refused: arguments must be an object", extra: { ok: false } },
    ]);
    expect(refused?.extra).toMatchObject({ tool_choice: { tool: "notes_append" } });
  });

  it("records a failed generation turn without calls", () => {
    const failed = validAtif(atifTrajectory(run(), investigativeEvents())).steps[5];
    expect(failed).toMatchObject({ source: "agent", message: "", metrics: { prompt_tokens: 0, completion_tokens: 0 } });
    expect(failed).not.toHaveProperty("tool_calls");
    expect(failed).not.toHaveProperty("observation");
    expect(failed?.extra).toMatchObject({ failed: "timeout after 60000 ms" });
  });

  it("adds the turns' tokens and cost up in final_metrics, without the turns' generation events", () => {
    const document = validAtif(atifTrajectory(run(), investigativeEvents()));
    expect(document.final_metrics).toMatchObject({
      total_prompt_tokens: 3000,
      total_completion_tokens: 200,
      total_steps: 9,
      extra: { agent_steps: 3, tool_calls: 3, failed_tool_calls: 1, failed_generations: 1 },
    });
    expect(document.final_metrics?.total_cost_usd).toBeCloseTo(0.003, 10);
    expect(document.final_metrics).not.toHaveProperty("total_cached_tokens");
    expect(document.extra).toMatchObject({
      assay_run: {
        id: 7,
        status: "finished",
        phase: "synthesis",
        stop_reason: "finalized",
        artifact_status: "synthesized",
      },
    });
    expect(document.notes).toContain("not prompts");
  });

  it("leaves the cost out when a turn's cost is unknown", () => {
    seq = 0;
    const events = [turn(1), turn(2, { usage: { inputTokens: 500, outputTokens: 50 } })];
    const document = validAtif(atifTrajectory(run(), events));
    expect(document.steps[2]?.metrics).toEqual({ prompt_tokens: 500, completion_tokens: 50 });
    expect(document.final_metrics).toMatchObject({ total_prompt_tokens: 1500, total_completion_tokens: 150 });
    expect(document.final_metrics).not.toHaveProperty("total_cost_usd");
    expect(document.notes).toContain("The cost is unknown");
  });

  it("is plain JSON: serializing and parsing gives the same document", () => {
    const document = atifTrajectory(run(), investigativeEvents());
    expect(JSON.parse(JSON.stringify(document))).toEqual(document);
  });

  it("orders by seq, makes duplicate call ids unique and lists unreadable events", () => {
    seq = 0;
    const first = turn(1, {
      calls: [call("c", "search", { query: "a" }, "one"), call("c", "search", { query: "b" }, "two")],
    });
    const broken = event(TURN_EVENT, { turn: 2, text: "no usage" });
    const document = validAtif(atifTrajectory(run(), [broken, first]));
    expect(document.steps).toHaveLength(2);
    expect(document.steps[1]?.tool_calls?.map((item) => [item.tool_call_id, item.extra])).toEqual([
      ["c", undefined],
      ["c#2", { original_call_id: "c" }],
    ]);
    expect(document.steps[1]?.observation?.results.map((result) => result.source_call_id)).toEqual(["c", "c#2"]);
    expect(document.extra).toMatchObject({ unreadable_events: [2] });
  });

  it("notes a result that was cut to the event's bound", () => {
    seq = 0;
    const cut = { ...call("c", "fetch_page", { hit: "h1" }, "partial"), chars: 90_000 };
    const document = validAtif(atifTrajectory(run(), [turn(1, { calls: [cut] })]));
    expect(document.steps[1]?.observation?.results[0]?.extra).toEqual({ ok: true, full_chars: 90_000 });
  });
});

describe("atifTrajectory of a run without turn events", () => {
  it("makes one agent step per generation, with its purpose and usage but no text", () => {
    seq = 0;
    const events = [
      event("generation-started", { purpose: "planner", model: "gpt-test", timeoutMs: 1000 }),
      event("generation-finished", {
        purpose: "planner",
        model: "gpt-test",
        usage: { inputTokens: 800, outputTokens: 120, costUsd: 0.002 },
        attempts: 1,
      }),
      event("generation-failed", {
        purpose: "synthesis",
        model: "gpt-test",
        kind: "timeout",
        usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 },
        attempts: 2,
      }),
    ];
    const document = validAtif(atifTrajectory(run({ request: { ...run().request, strategy: "pipeline" } }), events));
    expect(document.steps.slice(1)).toEqual([
      {
        step_id: 2,
        timestamp: events[1]?.at,
        source: "agent",
        model_name: "gpt-test",
        message: "",
        metrics: { prompt_tokens: 800, completion_tokens: 120, cost_usd: 0.002 },
        llm_call_count: 1,
        extra: {
          assay_event: "generation-finished",
          assay_event_seq: 2,
          purpose: "planner",
          text_recorded: false,
          attempts: 1,
        },
      },
      expect.objectContaining({ extra: expect.objectContaining({ purpose: "synthesis", failed: "timeout" }) }),
    ]);
    expect(document.final_metrics).toMatchObject({
      total_prompt_tokens: 800,
      total_completion_tokens: 120,
      total_cost_usd: 0.002,
      total_steps: 3,
      extra: { failed_generations: 1 },
    });
    expect(document.notes).toContain("The pipeline strategy records no model text or tool calls");
  });

  it("is the question alone for a run that made no generation", () => {
    const document = validAtif(atifTrajectory(run({ status: "failed", error: "boom" }), []));
    expect(document.steps).toHaveLength(1);
    expect(document.final_metrics).toMatchObject({
      total_prompt_tokens: 0,
      total_completion_tokens: 0,
      total_steps: 1,
    });
    expect(document.final_metrics).not.toHaveProperty("total_cost_usd");
    expect(document.extra).toMatchObject({ assay_run: { status: "failed", error: "boom" } });
  });
});

describe("the ATIF validator of these tests", () => {
  it("rejects what harbor rejects", () => {
    const valid = atifTrajectory(run(), investigativeEvents());
    const broken = (change: (document: ReturnType<typeof atifTrajectory>) => void): (() => unknown) => {
      const copy = structuredClone(valid);
      change(copy);
      return () => validAtif(copy);
    };
    expect(broken((document) => Object.assign(document, { unknown_key: 1 }))).toThrow();
    expect(broken((document) => Object.assign(document.steps[0] ?? {}, { model_name: "x" }))).toThrow(
      /only applicable/,
    );
    expect(broken((document) => Object.assign(document.steps[1] ?? {}, { step_id: 5 }))).toThrow(/step_id/);
    expect(
      broken((document) => {
        const result = document.steps[3]?.observation?.results[0];
        if (result) result.source_call_id = "elsewhere";
      }),
    ).toThrow(/not a call of its step/);
    expect(broken((document) => Object.assign(document, { steps: [] }))).toThrow();
  });
});
