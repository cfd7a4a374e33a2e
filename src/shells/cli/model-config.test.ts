import { describe, expect, it } from "vitest";
import { UserError } from "../../core/errors.js";
import { modelOptionsFromEnvironment } from "./model-config.js";

describe("modelOptionsFromEnvironment", () => {
  it("is undefined when no model is configured (the offline engine)", () => {
    expect(modelOptionsFromEnvironment(undefined, {})).toBeUndefined();
    expect(modelOptionsFromEnvironment(undefined, { ASSAY_MODEL: "  " })).toBeUndefined();
    expect(modelOptionsFromEnvironment("offline", { ASSAY_MODEL: "openai:gpt-4o" })).toBeUndefined();
  });

  it("reads ASSAY_MODEL and the provider's own key, and names the provider's official endpoint", () => {
    expect(
      modelOptionsFromEnvironment(undefined, { ASSAY_MODEL: "openai:gpt-4.1-mini", OPENAI_API_KEY: "k1" }),
    ).toEqual({ spec: "openai:gpt-4.1-mini", apiKey: "k1", baseURL: "https://api.openai.com/v1" });
    expect(
      modelOptionsFromEnvironment("anthropic:claude-sonnet-4-5", { ANTHROPIC_API_KEY: "k2", OPENAI_API_KEY: "k1" }),
    ).toEqual({ spec: "anthropic:claude-sonnet-4-5", apiKey: "k2", baseURL: "https://api.anthropic.com/v1" });
    expect(modelOptionsFromEnvironment("google:gemini-2.5-flash", { GOOGLE_GENERATIVE_AI_API_KEY: "k3" })).toEqual({
      spec: "google:gemini-2.5-flash",
      apiKey: "k3",
      baseURL: "https://generativelanguage.googleapis.com/v1beta",
    });
  });

  it("prefers the explicit spec over ASSAY_MODEL", () => {
    const environment = { ASSAY_MODEL: "openai:gpt-4o", ANTHROPIC_API_KEY: "k" };
    expect(modelOptionsFromEnvironment("anthropic:claude-haiku-4-5", environment)?.spec).toBe(
      "anthropic:claude-haiku-4-5",
    );
  });

  it("keeps hosted providers on their official endpoint when only ASSAY_MODEL_BASE_URL is set", () => {
    const environment = {
      ASSAY_MODEL_BASE_URL: "http://localhost:11434/v1",
      ASSAY_MODEL_API_KEY: "local",
      OPENAI_API_KEY: "k-openai",
      ANTHROPIC_API_KEY: "k-anthropic",
      GOOGLE_GENERATIVE_AI_API_KEY: "k-google",
    };
    expect(modelOptionsFromEnvironment("openai:gpt-4o", environment)).toEqual({
      spec: "openai:gpt-4o",
      apiKey: "k-openai",
      baseURL: "https://api.openai.com/v1",
    });
    expect(modelOptionsFromEnvironment("anthropic:claude-haiku-4-5", environment)?.baseURL).toBe(
      "https://api.anthropic.com/v1",
    );
    expect(modelOptionsFromEnvironment("google:gemini-2.5-flash", environment)?.baseURL).toBe(
      "https://generativelanguage.googleapis.com/v1beta",
    );
  });

  it("moves each hosted provider only with its own base URL variable", () => {
    const environment = {
      OPENAI_API_KEY: "k-openai",
      ANTHROPIC_API_KEY: "k-anthropic",
      GOOGLE_GENERATIVE_AI_API_KEY: "k-google",
      OPENAI_BASE_URL: "https://openai-proxy.example/v1",
      ANTHROPIC_BASE_URL: "https://anthropic-proxy.example/v1",
      GOOGLE_GENERATIVE_AI_BASE_URL: "https://google-proxy.example/v1beta",
      ASSAY_MODEL_BASE_URL: "http://localhost:11434/v1",
    };
    expect(modelOptionsFromEnvironment("openai:gpt-4o", environment)).toEqual({
      spec: "openai:gpt-4o",
      apiKey: "k-openai",
      baseURL: "https://openai-proxy.example/v1",
    });
    expect(modelOptionsFromEnvironment("anthropic:claude-haiku-4-5", environment)).toEqual({
      spec: "anthropic:claude-haiku-4-5",
      apiKey: "k-anthropic",
      baseURL: "https://anthropic-proxy.example/v1",
    });
    expect(modelOptionsFromEnvironment("google:gemini-2.5-flash", environment)).toEqual({
      spec: "google:gemini-2.5-flash",
      apiKey: "k-google",
      baseURL: "https://google-proxy.example/v1beta",
    });
    // One provider's variable does not move another.
    expect(
      modelOptionsFromEnvironment("anthropic:claude-haiku-4-5", {
        ANTHROPIC_API_KEY: "k-anthropic",
        OPENAI_BASE_URL: "https://openai-proxy.example/v1",
      })?.baseURL,
    ).toBe("https://api.anthropic.com/v1");
    // openai-compatible reads ASSAY_MODEL_BASE_URL, never OPENAI_BASE_URL or OPENAI_API_KEY.
    expect(modelOptionsFromEnvironment("openai-compatible:qwen3", environment)).toEqual({
      spec: "openai-compatible:qwen3",
      baseURL: "http://localhost:11434/v1",
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
    expect(problem("openai-compatible:m", { OPENAI_BASE_URL: "http://localhost:11434/v1" })).toMatch(
      /needs ASSAY_MODEL_BASE_URL/,
    );
  });

  it("checks each hosted provider's base URL as it checks ASSAY_MODEL_BASE_URL", () => {
    const cases = [
      { spec: "openai:gpt-4o", key: "OPENAI_API_KEY", variable: "OPENAI_BASE_URL" },
      { spec: "anthropic:claude-haiku-4-5", key: "ANTHROPIC_API_KEY", variable: "ANTHROPIC_BASE_URL" },
      {
        spec: "google:gemini-2.5-flash",
        key: "GOOGLE_GENERATIVE_AI_API_KEY",
        variable: "GOOGLE_GENERATIVE_AI_BASE_URL",
      },
    ];
    for (const { spec, key, variable } of cases) {
      const problem = (value: string): string => {
        try {
          modelOptionsFromEnvironment(spec, { [key]: "k", [variable]: value });
        } catch (error) {
          expect(error).toBeInstanceOf(UserError);
          return (error as Error).message;
        }
        throw new Error(`expected a UserError for ${variable}=${value}`);
      };
      expect(problem("localhost:8080")).toBe(`${variable} must be an http or https URL, not "localhost:"`);
      expect(problem("ftp://api.example/v1")).toBe(`${variable} must be an http or https URL, not "ftp:"`);
      expect(problem("not a url")).toMatch(new RegExp(`^${variable} "not a url" is not a URL \\(for example https://`));
      const credentials = problem("https://user:secret@api.example/v1");
      expect(credentials).toBe(`${variable} must not contain credentials; use ${key}`);
      expect(credentials).not.toContain("secret");
      // A bad value of another provider's variable is not this provider's problem.
      expect(modelOptionsFromEnvironment(spec, { [key]: "k", ASSAY_MODEL_BASE_URL: "ftp://x" })?.baseURL).toMatch(
        /^https:\/\//,
      );
    }
  });
});
