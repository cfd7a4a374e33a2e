import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_BUDGETS } from "../../core/budgets.js";
import { tempDir } from "../../testing/temp-dir.js";
import {
  type ConfigFile,
  INVESTIGATIVE_BUDGETS,
  parseConfigFile,
  parseKnobAssignment,
  type RunSettings,
  readConfigFile,
  resolveRunSettings,
  strategyBudgets,
} from "./config-file.js";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});
function home(): string {
  const dir = tempDir("assay-config-");
  cleanups.push(dir.cleanup);
  return dir.path;
}

const FILE = "/home/me/.assay/config.json";
const parse = (value: unknown) => parseConfigFile(FILE, typeof value === "string" ? value : JSON.stringify(value));
const KNOWN =
  "known: max_depth, max_attempts, max_questions, max_iterations, max_total_tokens, max_cost_usd, synthesis_reserve, " +
  "keep_turns, extraction_threshold, notes_max_tokens, min_sources, min_domains, min_independent_sources, min_challenges, " +
  "max_challenges_per_target, gate_priority, max_reopens, max_parallel; the camelCase names work too";

describe("parseConfigFile", () => {
  it("reads the operator's policy section, naming a wrong value by its key", () => {
    expect(
      parse({
        policy: {
          models: ["offline", "openai:gpt-4o-mini"],
          maxBudgets: { maxSources: 20, maxCostUsd: 0.5 },
          maxCostUsdPerDay: 5,
        },
      }),
    ).toEqual({
      ok: true,
      value: {
        file: FILE,
        investigative: {},
        budgets: {},
        policy: {
          models: ["offline", "openai:gpt-4o-mini"],
          maxBudgets: { maxSources: 20, maxCostUsd: 0.5 },
          maxCostUsdPerDay: 5,
        },
      },
    });
    const error = (value: unknown) => {
      const parsed = parse(value);
      return parsed.ok ? undefined : parsed.error;
    };
    expect(error({ policy: { maxBudgets: { maxSources: 501 } } })).toBe(
      `config file ${FILE}: policy.maxBudgets.maxSources must be a whole number from 1 to 500 (got 501)`,
    );
    expect(error({ policy: { maxBudgets: { maxSorces: 5 } } })).toMatch(
      new RegExp(`^config file ${FILE}: unknown budget "policy.maxBudgets.maxSorces" \\(known: wallClockMs, `),
    );
    expect(error({ policy: { maxCostUsdPerDay: 0 } })).toBe(
      `config file ${FILE}: policy.maxCostUsdPerDay: must be a positive number of USD`,
    );
    expect(error({ policy: { model: ["x"] } })).toBe(
      `config file ${FILE}: policy: unknown key "model" (known: models, maxBudgets, maxCostUsdPerDay)`,
    );
  });

  it("reads knobs in either case style and budgets, with camelCase names", () => {
    expect(
      parse({
        investigative: { max_depth: 2, gatePriority: 0.75, max_cost_usd: 1.5, maxTotalTokens: 200_000 },
        budgets: { maxSearchCalls: 10 },
      }),
    ).toEqual({
      ok: true,
      value: {
        file: FILE,
        investigative: { maxDepth: 2, gatePriority: 0.75, maxCostUsd: 1.5, maxTotalTokens: 200_000 },
        budgets: { maxSearchCalls: 10 },
      },
    });
    expect(parse({})).toEqual({ ok: true, value: { file: FILE, investigative: {}, budgets: {} } });
  });

  it("names the file and the key in every error", () => {
    const error = (value: unknown) => {
      const parsed = parse(value);
      return parsed.ok ? undefined : parsed.error;
    };
    expect(error("{ max_depth: 2 }")).toMatch(
      new RegExp(`^config file ${FILE} is not valid JSON: .*property name`, "s"),
    );
    expect(error([1])).toBe(`config file ${FILE}: Invalid input: expected object, received array`);
    expect(error({ investigative: {}, invesitgative: {} })).toBe(
      `config file ${FILE}: unknown key "invesitgative" (known: investigative, budgets, policy)`,
    );
    expect(error({ investigative: { max_dpeth: 2 } })).toBe(
      `config file ${FILE}: unknown investigative knob "investigative.max_dpeth" (${KNOWN})`,
    );
    expect(error({ investigative: { max_depth: "2" } })).toBe(
      `config file ${FILE}: investigative.max_depth: Invalid input: expected number, received string`,
    );
    expect(error({ investigative: [] })).toBe(
      `config file ${FILE}: investigative: Invalid input: expected record, received array`,
    );
    expect(error({ investigative: { max_depth: 11 } })).toBe(
      `config file ${FILE}: investigative.max_depth must be a whole number from 0 to 10 (got 11)`,
    );
    expect(error({ investigative: { gate_priority: 1.5 } })).toBe(
      `config file ${FILE}: investigative.gate_priority must be a number from 0 to 1 (got 1.5)`,
    );
    expect(error({ investigative: { maxAttempts: 2.5 } })).toBe(
      `config file ${FILE}: investigative.maxAttempts must be a whole number from 1 to 20 (got 2.5)`,
    );
    expect(error({ investigative: { max_depth: 2, maxDepth: 3 } })).toBe(
      `config file ${FILE}: investigative.max_depth and investigative.maxDepth are the same knob; give it once`,
    );
    expect(error({ budgets: { maxSearchCals: 10 } })).toMatch(
      new RegExp(`^config file ${FILE}: unknown budget "budgets.maxSearchCals" \\(known: wallClockMs, `),
    );
    expect(error({ budgets: { maxSources: 501 } })).toBe(
      `config file ${FILE}: budgets.maxSources must be a whole number from 1 to 500 (got 501)`,
    );
  });
});

describe("readConfigFile", () => {
  it("reads $ASSAY_HOME/config.json when it exists, --config instead, and nothing with --no-config", () => {
    const dir = home();
    expect(readConfigFile({ home: dir })).toBeUndefined();
    const inHome = join(dir, "config.json");
    writeFileSync(inHome, JSON.stringify({ investigative: { max_depth: 2 } }));
    expect(readConfigFile({ home: dir })).toEqual({ file: inHome, investigative: { maxDepth: 2 }, budgets: {} });
    expect(readConfigFile({ home: dir, explicit: false })).toBeUndefined();
    const other = join(dir, "other", "settings.json");
    mkdirSync(join(dir, "other"));
    writeFileSync(other, JSON.stringify({ budgets: { maxTurns: 4 } }));
    expect(readConfigFile({ home: dir, explicit: other })).toEqual({
      file: other,
      investigative: {},
      budgets: { maxTurns: 4 },
    });
  });

  it("refuses a missing --config file and a malformed one", () => {
    const dir = home();
    const missing = join(dir, "missing.json");
    expect(() => readConfigFile({ home: dir, explicit: missing })).toThrow(`--config: cannot read ${missing}`);
    writeFileSync(join(dir, "config.json"), '{"investigative": {"max_depth": 99}}');
    expect(() => readConfigFile({ home: dir })).toThrow(
      `config file ${join(dir, "config.json")}: investigative.max_depth must be a whole number from 0 to 10 (got 99)`,
    );
  });
});

describe("parseKnobAssignment", () => {
  it("takes either case style", () => {
    expect(parseKnobAssignment("max_depth=2")).toEqual({ ok: true, value: { knob: "maxDepth", value: 2 } });
    expect(parseKnobAssignment(" maxDepth = 2 ")).toEqual({ ok: true, value: { knob: "maxDepth", value: 2 } });
    expect(parseKnobAssignment("gate_priority=.25")).toEqual({
      ok: true,
      value: { knob: "gatePriority", value: 0.25 },
    });
    expect(parseKnobAssignment("max_total_tokens=2e5")).toEqual({
      ok: true,
      value: { knob: "maxTotalTokens", value: 200_000 },
    });
  });

  it("names the knob and its range in every error", () => {
    const error = (text: string) => {
      const parsed = parseKnobAssignment(text);
      return parsed.ok ? undefined : parsed.error;
    };
    expect(error("max_depth")).toBe('--set expects name=value, e.g. max_depth=2 (got "max_depth")');
    expect(error("=2")).toBe('--set expects name=value, e.g. max_depth=2 (got "=2")');
    expect(error("max_dpeth=2")).toBe(`--set max_dpeth=2: unknown investigative knob "max_dpeth" (${KNOWN})`);
    expect(error("max_depth=two")).toBe(
      '--set max_depth=two: max_depth must be a whole number from 0 to 10 (got "two")',
    );
    expect(error("max_depth=")).toBe('--set max_depth=: max_depth must be a whole number from 0 to 10 (got "")');
    expect(error("max_depth=11")).toBe("--set max_depth=11: max_depth must be a whole number from 0 to 10 (got 11)");
    expect(error("maxDepth=1.5")).toBe("--set maxDepth=1.5: maxDepth must be a whole number from 0 to 10 (got 1.5)");
    expect(error("max_cost_usd=0")).toBe(
      "--set max_cost_usd=0: max_cost_usd must be a number from 0.01 to 10000 (got 0)",
    );
  });
});

describe("resolveRunSettings", () => {
  const file: ConfigFile = {
    file: FILE,
    investigative: { maxDepth: 2, maxAttempts: 3 },
    budgets: { maxSearchCalls: 10, maxTurns: 4 },
  };

  it("takes defaults < config file < flags", () => {
    expect(resolveRunSettings({ strategies: ["investigative"] })).toEqual({ ok: true, value: { budgets: {} } });
    expect(
      resolveRunSettings({
        strategies: ["investigative"],
        file,
        budgets: { maxTurns: 6 },
        assignments: ["max_depth=4", "maxDepth=5", "min_sources=2"],
      }),
    ).toEqual({
      ok: true,
      value: {
        budgets: { maxSearchCalls: 10, maxTurns: 6 },
        // A later --set wins over an earlier one.
        investigation: { maxDepth: 5, maxAttempts: 3, minSources: 2 },
      },
    });
    // An evaluation that compares the investigative strategy with others.
    expect(resolveRunSettings({ strategies: ["simple", "investigative"], file })).toEqual({
      ok: true,
      value: { budgets: file.budgets, investigation: file.investigative },
    });
  });

  it("refuses --set for another strategy, but simply does not use the file's knobs", () => {
    expect(resolveRunSettings({ strategies: ["pipeline"], file })).toEqual({
      ok: true,
      value: { budgets: file.budgets },
    });
    expect(resolveRunSettings({ strategies: ["pipeline"], assignments: ["max_depth=2"] })).toEqual({
      ok: false,
      error: "--set max_depth=2: the investigative knobs apply only to the investigative strategy, not to pipeline",
    });
    expect(resolveRunSettings({ strategies: ["simple", "pipeline"], assignments: ["max_depth=2"] })).toEqual({
      ok: false,
      error:
        "--set max_depth=2: the investigative knobs apply only to the investigative strategy, not to simple, pipeline",
    });
    // A bad value is reported before the strategy.
    expect(resolveRunSettings({ strategies: ["pipeline"], assignments: ["max_depth=11"] })).toEqual({
      ok: false,
      error: "--set max_depth=11: max_depth must be a whole number from 0 to 10 (got 11)",
    });
  });
});

describe("the investigative turn budget: maxTurns or max_iterations", () => {
  const MESSAGE =
    "maxTurns (5) and max_iterations (9) are both set: an investigative run's turn budget is its max_iterations; give only one of them";

  it("refuses maxTurns beside max_iterations for an investigative run, from flags or the file", () => {
    expect(
      resolveRunSettings({
        strategies: ["investigative"],
        budgets: { maxTurns: 5 },
        assignments: ["max_iterations=9"],
      }),
    ).toEqual({ ok: false, error: MESSAGE });
    const file: ConfigFile = { file: FILE, investigative: { maxIterations: 9 }, budgets: { maxTurns: 5 } };
    expect(resolveRunSettings({ strategies: ["simple", "investigative"], file })).toEqual({
      ok: false,
      error: MESSAGE,
    });
    // Without an investigative strategy the file's knobs are not used: nothing conflicts.
    expect(resolveRunSettings({ strategies: ["simple"], file })).toEqual({
      ok: true,
      value: { budgets: file.budgets },
    });
  });

  it("gives an investigative run max_iterations as its turn budget (60 by default) unless maxTurns was set", () => {
    const budgets = { ...DEFAULT_BUDGETS };
    const turns = (strategy: string, settings: RunSettings) => {
      const result = strategyBudgets(strategy, budgets, settings);
      return result.ok ? result.value.maxTurns : result.error;
    };
    expect(turns("investigative", { budgets: {} })).toBe(60);
    expect(turns("investigative", { budgets: {}, investigation: { maxIterations: 25 } })).toBe(25);
    expect(turns("investigative", { budgets: {}, investigation: { maxDepth: 2 } })).toBe(60);
    // The user's maxTurns (already in the completed budgets) stays.
    expect(strategyBudgets("investigative", { ...budgets, maxTurns: 12 }, { budgets: { maxTurns: 12 } })).toEqual({
      ok: true,
      value: { ...budgets, ...INVESTIGATIVE_BUDGETS, maxTurns: 12 },
    });
    expect(turns("simple", { budgets: {}, investigation: { maxIterations: 25 } })).toBe(8);
    expect(turns("pipeline", { budgets: {} })).toBe(8);
    // max_iterations and the turn budget share their range: the largest iteration limit is a valid turn budget.
    expect(turns("investigative", { budgets: {}, investigation: { maxIterations: 1_000 } })).toBe(1_000);
    const result = strategyBudgets("investigative", budgets, { budgets: {} });
    expect(result.ok && result.value).toEqual({ ...budgets, ...INVESTIGATIVE_BUDGETS, maxTurns: 60 });
  });
});
