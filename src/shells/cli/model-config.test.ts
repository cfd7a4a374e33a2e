import { describe, expect, it } from "vitest";
import { UserError } from "../../core/errors.js";
import { modelOptionsFromEnvironment } from "./model-config.js";

describe("modelOptionsFromEnvironment", () => {
  it("is undefined when no model is configured (the offline engine)", () => {
    expect(modelOptionsFromEnvironment(undefined, {})).toBeUndefined();
    expect(modelOptionsFromEnvironment(undefined, { ASSAY_MODEL: "  " })).toBeUndefined();
    expect(modelOptionsFromEnvironment("offline", { ASSAY_MODEL: "openai:gpt-4o" })).toBeUndefined();
  });

  it("reads ASSAY_MODEL and the provider's own key", () => {
    expect(
      modelOptionsFromEnvironment(undefined, { ASSAY_MODEL: "openai:gpt-4.1-mini", OPENAI_API_KEY: "k1" }),
    ).toEqual({ spec: "openai:gpt-4.1-mini", apiKey: "k1" });
    expect(
      modelOptionsFromEnvironment("anthropic:claude-sonnet-4-5", { ANTHROPIC_API_KEY: "k2", OPENAI_API_KEY: "k1" }),
    ).toEqual({ spec: "anthropic:claude-sonnet-4-5", apiKey: "k2" });
    expect(modelOptionsFromEnvironment("google:gemini-2.5-flash", { GOOGLE_GENERATIVE_AI_API_KEY: "k3" })).toEqual({
      spec: "google:gemini-2.5-flash",
      apiKey: "k3",
    });
  });

  it("prefers the explicit spec over ASSAY_MODEL", () => {
    const environment = { ASSAY_MODEL: "openai:gpt-4o", ANTHROPIC_API_KEY: "k" };
    expect(modelOptionsFromEnvironment("anthropic:claude-haiku-4-5", environment)?.spec).toBe(
      "anthropic:claude-haiku-4-5",
    );
  });

  it("passes a base URL override to hosted providers", () => {
    const environment = { OPENAI_API_KEY: "k", ASSAY_MODEL_BASE_URL: "https://proxy.example/v1" };
    expect(modelOptionsFromEnvironment("openai:gpt-4o", environment)).toEqual({
      spec: "openai:gpt-4o",
      apiKey: "k",
      baseURL: "https://proxy.example/v1",
    });
  });

  it("configures an openai-compatible server with a base URL and an optional key", () => {
    const base = { ASSAY_MODEL_BASE_URL: "http://localhost:11434/v1" };
    expect(modelOptionsFromEnvironment("openai-compatible:llama3.1:8b", base)).toEqual({
      spec: "openai-compatible:llama3.1:8b",
      baseURL: "http://localhost:11434/v1",
    });
    expect(
      modelOptionsFromEnvironment("openai-compatible:qwen3", {
        ...base,
        ASSAY_MODEL_API_KEY: "local",
        OPENAI_API_KEY: "x",
      }),
    ).toEqual({ spec: "openai-compatible:qwen3", baseURL: "http://localhost:11434/v1", apiKey: "local" });
  });

  it("explains what is wrong", () => {
    const problem = (spec: string | undefined, environment: Record<string, string | undefined>): string => {
      try {
        modelOptionsFromEnvironment(spec, environment);
      } catch (error) {
        expect(error).toBeInstanceOf(UserError);
        return (error as Error).message;
      }
      throw new Error("expected a UserError");
    };
    expect(problem("mistral:large", {})).toMatch(/--model: unknown model provider "mistral"/);
    expect(problem(undefined, { ASSAY_MODEL: "gpt-4o" })).toMatch(/ASSAY_MODEL: .*provider:model/);
    expect(problem("openai:", {})).toMatch(/needs a model name/);
    expect(problem("openai:gpt-4o", {})).toBe('--model: "openai:gpt-4o" needs OPENAI_API_KEY to be set');
    expect(problem("anthropic:claude-sonnet-4-5", { OPENAI_API_KEY: "k" })).toMatch(/ANTHROPIC_API_KEY/);
    expect(problem("google:gemini-2.5-pro", {})).toMatch(/GOOGLE_GENERATIVE_AI_API_KEY/);
    expect(problem("openai-compatible:m", {})).toMatch(/needs ASSAY_MODEL_BASE_URL/);
    expect(problem("openai-compatible:m", { ASSAY_MODEL_BASE_URL: "localhost:11434" })).toMatch(/http or https/);
    expect(problem("openai-compatible:m", { ASSAY_MODEL_BASE_URL: "not a url" })).toMatch(/is not a URL/);
    expect(problem("openai-compatible:m", { ASSAY_MODEL_BASE_URL: "http://u:secret@host/v1" })).not.toContain("secret");
  });
});
