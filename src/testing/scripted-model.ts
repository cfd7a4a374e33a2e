/**
 * A model that answers from a queue of scripted responses, records every call, and fails
 * the test on an unexpected call or an unconsumed response.
 */
import type { JudgeOutput } from "../core/judge/rubric.js";
import type { PlannerOutput, SynthesisOutput } from "../core/synthesis/proposals.js";
import type {
  ActInput,
  ActTurn,
  AgentTurn,
  AgentTurnInput,
  CallOptions,
  Generation,
  JudgeInput,
  Model,
  PlannerInput,
  SynthesisInput,
} from "../ports/model.js";

type Step =
  | { call: "plan"; respond: (input: PlannerInput, options: CallOptions) => Promise<Generation<PlannerOutput>> }
  | {
      call: "synthesize";
      respond: (input: SynthesisInput, options: CallOptions) => Promise<Generation<SynthesisOutput>>;
    }
  | { call: "step"; respond: (input: AgentTurnInput, options: CallOptions) => Promise<Generation<AgentTurn>> }
  | { call: "act"; respond: (input: ActInput, options: CallOptions) => Promise<Generation<ActTurn>> }
  | { call: "judge"; respond: (input: JudgeInput, options: CallOptions) => Promise<Generation<JudgeOutput>> };

const usage = { inputTokens: 100, outputTokens: 50 };

export const succeed = <T>(value: T): Generation<T> => ({ ok: true, value, usage, attempts: 1 });
export const fail = <T>(kind: "timeout" | "transport" | "malformed", error = `scripted ${kind}`): Generation<T> => ({
  ok: false,
  kind,
  error,
  usage: { inputTokens: 0, outputTokens: 0 },
  attempts: 1,
});

export class ScriptedModel implements Model {
  readonly name = "scripted";
  readonly kind = "generative" as const;
  readonly calls: (
    | { call: "plan"; input: PlannerInput }
    | { call: "synthesize"; input: SynthesisInput }
    | { call: "step"; input: AgentTurnInput }
    | { call: "act"; input: ActInput }
    | { call: "judge"; input: JudgeInput }
  )[] = [];
  readonly #steps: Step[] = [];
  readonly #usdPerToken: number | undefined;

  /** `usdPerToken`: a price, so the Host meters cost (absent: the price is unknown, like most local models). */
  constructor(options: { usdPerToken?: number } = {}) {
    this.#usdPerToken = options.usdPerToken;
  }

  cost(used: { inputTokens: number; outputTokens: number }): number | undefined {
    return this.#usdPerToken === undefined ? undefined : (used.inputTokens + used.outputTokens) * this.#usdPerToken;
  }

  onPlan(respond: Extract<Step, { call: "plan" }>["respond"]): this {
    this.#steps.push({ call: "plan", respond });
    return this;
  }

  onSynthesize(respond: Extract<Step, { call: "synthesize" }>["respond"]): this {
    this.#steps.push({ call: "synthesize", respond });
    return this;
  }

  onStep(respond: Extract<Step, { call: "step" }>["respond"]): this {
    this.#steps.push({ call: "step", respond });
    return this;
  }

  onAct(respond: Extract<Step, { call: "act" }>["respond"]): this {
    this.#steps.push({ call: "act", respond });
    return this;
  }

  onJudge(respond: Extract<Step, { call: "judge" }>["respond"]): this {
    this.#steps.push({ call: "judge", respond });
    return this;
  }

  #next(call: Step["call"]): Step {
    const index = this.#steps.findIndex((step) => step.call === call);
    const step = this.#steps[index];
    if (index < 0 || !step) throw new Error(`ScriptedModel: unexpected ${call} call (no scripted response left)`);
    this.#steps.splice(index, 1);
    return step;
  }

  async plan(input: PlannerInput, options: CallOptions): Promise<Generation<PlannerOutput>> {
    this.calls.push({ call: "plan", input });
    const step = this.#next("plan");
    if (step.call !== "plan") throw new Error("unreachable");
    return step.respond(input, options);
  }

  async synthesize(input: SynthesisInput, options: CallOptions): Promise<Generation<SynthesisOutput>> {
    this.calls.push({ call: "synthesize", input });
    const step = this.#next("synthesize");
    if (step.call !== "synthesize") throw new Error("unreachable");
    return step.respond(input, options);
  }

  async step(input: AgentTurnInput, options: CallOptions): Promise<Generation<AgentTurn>> {
    // The transcript grows after the call: record the conversation as it was.
    this.calls.push({ call: "step", input: { ...input, transcript: [...input.transcript] } });
    const step = this.#next("step");
    if (step.call !== "step") throw new Error("unreachable");
    return step.respond(input, options);
  }

  async act(input: ActInput, options: CallOptions): Promise<Generation<ActTurn>> {
    // The conversation grows after the call: record it as it was.
    this.calls.push({ call: "act", input: { ...input, messages: [...input.messages] } });
    const step = this.#next("act");
    if (step.call !== "act") throw new Error("unreachable");
    return step.respond(input, options);
  }

  async judge(input: JudgeInput, options: CallOptions): Promise<Generation<JudgeOutput>> {
    this.calls.push({ call: "judge", input });
    const step = this.#next("judge");
    if (step.call !== "judge") throw new Error("unreachable");
    return step.respond(input, options);
  }

  /** Throws when a scripted response was never used. */
  assertConsumed(): void {
    if (this.#steps.length > 0) {
      throw new Error(
        `ScriptedModel: ${this.#steps.length} scripted response(s) not consumed: ${this.#steps.map((step) => step.call).join(", ")}`,
      );
    }
  }
}
