import { describe, expect, it } from "vitest";
import { UserError } from "../../../core/errors.js";
import { plannerOutputSchema, synthesisOutputSchema } from "../../../core/synthesis/proposals.js";
import { parseModelSpec } from "./model-spec.js";
import { createLanguageModel } from "./provider-registry.js";
import { plannerWireSchema, synthesisWireSchema } from "./wire-schemas.js";

describe("parseModelSpec", () => {
  it("splits at the first colon only", () => {
    expect(parseModelSpec("openai-compatible:llama3.1:8b")).toEqual({
      ok: true,
      value: { provider: "openai-compatible", modelId: "llama3.1:8b" },
    });
    expect(parseModelSpec("anthropic:claude-sonnet-4-5")).toMatchObject({ ok: true });
  });

  it("refuses malformed specs and unknown providers", () => {
    expect(parseModelSpec("gpt-4o")).toMatchObject({ ok: false, error: expect.stringContaining("provider:model") });
    expect(parseModelSpec("mistral:large")).toMatchObject({ ok: false, error: expect.stringContaining("unknown") });
    expect(parseModelSpec("openai:")).toMatchObject({ ok: false });
    expect(parseModelSpec("openai:gpt 4")).toMatchObject({ ok: false });
  });
});

describe("createLanguageModel", () => {
  it("needs a key for hosted providers and a base URL for openai-compatible", () => {
    expect(() => createLanguageModel({ provider: "openai", modelId: "gpt-4o" }, {})).toThrow(UserError);
    expect(() => createLanguageModel({ provider: "google", modelId: "gemini-2.5-flash" }, { apiKey: "" })).toThrow(
      UserError,
    );
    expect(() => createLanguageModel({ provider: "openai-compatible", modelId: "m" }, {})).toThrow(/base URL/);
    expect(createLanguageModel({ provider: "google", modelId: "gemini-2.5-flash" }, { apiKey: "k" })).toBeTruthy();
  });
});

type Node = { type?: unknown; properties?: Record<string, Node>; required?: string[]; items?: Node };

/** Every object node requires all its properties and closes additional ones (strict mode). */
function strictProblems(node: Node, path = "$"): string[] {
  const problems: string[] = [];
  if (node.properties) {
    const keys = Object.keys(node.properties).sort();
    if (JSON.stringify([...(node.required ?? [])].sort()) !== JSON.stringify(keys)) problems.push(`${path}: required`);
    if ((node as { additionalProperties?: unknown }).additionalProperties !== false) problems.push(`${path}: open`);
    for (const [key, child] of Object.entries(node.properties))
      problems.push(...strictProblems(child, `${path}.${key}`));
  }
  if (node.items) problems.push(...strictProblems(node.items, `${path}[]`));
  for (const keyword of ["maxLength", "minLength", "maxItems", "minItems", "pattern"]) {
    if (keyword in node) problems.push(`${path}: ${keyword}`);
  }
  return problems;
}

describe("wire schemas", () => {
  it("are strict-mode compatible", () => {
    expect(strictProblems(synthesisWireSchema as Node)).toEqual([]);
    expect(strictProblems(plannerWireSchema as Node)).toEqual([]);
  });

  it("describe the same fields as the zod schemas", () => {
    const synthesis = synthesisWireSchema as Node;
    for (const [key, array] of Object.entries(synthesisOutputSchema.shape)) {
      const zodFields = Object.keys(array.element.shape).sort();
      expect(Object.keys(synthesis.properties?.[key]?.items?.properties ?? {}).sort()).toEqual(zodFields);
    }
    const planner = plannerWireSchema as Node;
    expect(Object.keys(planner.properties?.queries?.items?.properties ?? {}).sort()).toEqual(
      Object.keys(plannerOutputSchema.shape.queries.element.shape).sort(),
    );
  });
});
