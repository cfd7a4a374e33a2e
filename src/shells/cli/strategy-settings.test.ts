/**
 * The strategy and its settings on the command line, in process: `--strategy investigative`
 * and `--strategies …,investigative` are accepted, `--set` only with an investigative
 * strategy, and an investigative run's turn budget is its max_iterations. Nothing here starts
 * a run: every accepted request is built, and every refusal comes before anything is written.
 */
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_BUDGETS } from "../../core/budgets.js";
import { UserError } from "../../core/errors.js";
import { STRATEGY_NAMES } from "../../ports/store.js";
import { EXAMPLE_CORPUS } from "../../testing/cli.js";
import { tempDir } from "../../testing/temp-dir.js";
import { type ConfigFile, differingBudgets, INVESTIGATIVE_BUDGETS } from "./config-file.js";
import { evalCommand, strategiesOf } from "./eval-command.js";
import { buildProgram } from "./main.js";
import { dataPaths } from "./paths.js";
import { buildRequest, type RunCommandOptions } from "./run-request.js";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});
function folder(): string {
  const dir = tempDir("assay-strategy-settings-");
  cleanups.push(dir.cleanup);
  return dir.path;
}

const QUESTION = "Who built the first carbon-anode cell?";

function options(overrides: Partial<RunCommandOptions> = {}): RunCommandOptions {
  return { corpus: EXAMPLE_CORPUS, strategy: "investigative", language: "en", ...overrides };
}

const request = (overrides: Partial<RunCommandOptions> = {}, file?: ConfigFile) =>
  buildRequest(QUESTION, options(overrides), { model: "offline", file });

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(UserError);
  return (error as UserError).message;
}

const BOTH =
  "maxTurns (5) and max_iterations (9) are both set: an investigative run's turn budget is its max_iterations; give only one of them";

describe("assay run --strategy investigative", () => {
  it("is a known strategy", () => {
    expect(STRATEGY_NAMES).toContain("investigative");
    const run = buildProgram().commands.find((command) => command.name() === "run");
    const strategy = run?.options.find((option) => option.long === "--strategy");
    expect(strategy?.argChoices).toEqual(["pipeline", "simple", "investigative"]);
  });

  it("takes max_iterations (60 by default) as the turn budget, unless --budget maxTurns is given", async () => {
    const plain = await request();
    expect(plain.strategy).toBe("investigative");
    expect(plain.budgets).toEqual({ ...DEFAULT_BUDGETS, ...INVESTIGATIVE_BUDGETS, maxTurns: 60 });
    // What the user set stays: here the source limit and the wall clock.
    const own = await request({ budget: { maxSources: 9, wallClockMs: 60_000 } });
    expect(own.budgets).toMatchObject({ maxSources: 9, wallClockMs: 60_000, maxSearchCalls: 40 });
    expect(plain.investigation).toBeUndefined();
    const knobs = await request({ set: ["max_depth=2", "max_iterations=25"] });
    expect(knobs.budgets.maxTurns).toBe(25);
    expect(knobs.investigation).toEqual({ maxDepth: 2, maxIterations: 25 });
    const depth = await request({ set: ["max_depth=2"] });
    expect(depth.budgets.maxTurns).toBe(60);
    expect(depth.investigation).toEqual({ maxDepth: 2 });
    const turns = await request({ budget: { maxTurns: 12 } });
    expect(turns.budgets.maxTurns).toBe(12);
    const file: ConfigFile = { file: "/x/config.json", investigative: { maxIterations: 30 }, budgets: {} };
    expect((await request({}, file)).budgets.maxTurns).toBe(30);
  });

  it("leaves the other strategies' turn budget alone and refuses --set for them", async () => {
    expect((await request({ strategy: "simple" })).budgets.maxTurns).toBe(DEFAULT_BUDGETS.maxTurns);
    expect((await request({ strategy: "pipeline" })).budgets).toEqual(DEFAULT_BUDGETS);
    expect(await refusal(request({ strategy: "simple", set: ["max_depth=2"] }))).toBe(
      "--set max_depth=2: the investigative knobs apply only to the investigative strategy, not to simple",
    );
  });

  it("refuses maxTurns beside max_iterations", async () => {
    expect(await refusal(request({ budget: { maxTurns: 5 }, set: ["max_iterations=9"] }))).toBe(BOTH);
    const file: ConfigFile = { file: "/x/config.json", investigative: {}, budgets: { maxTurns: 5 } };
    expect(await refusal(request({ set: ["max_iterations=9"] }, file))).toBe(BOTH);
  });

  it("parses the flags through the program, and refuses before opening a database", async () => {
    const home = folder();
    const database = join(home, "assay.db");
    const argv = ["node", "assay", "run", QUESTION, "--corpus", EXAMPLE_CORPUS, "--db", database, "--no-config"];
    const parsed = buildProgram()
      .configureOutput({ writeErr: () => undefined, writeOut: () => undefined })
      .parseAsync([
        ...argv,
        ...["--model", "offline", "--strategy", "investigative", "--budget", "maxTurns=5"],
        ...["--set", "max_iterations=9", "--set", "max_depth=2"],
      ]);
    // The choice is accepted: the refusal is the request's, not commander's.
    expect(await refusal(parsed)).toBe(BOTH);
    expect(existsSync(database)).toBe(false);
  });
});

describe("assay eval --strategies …,investigative", () => {
  it("accepts investigative among the strategies and names it among the known ones", () => {
    expect(strategiesOf("simple, investigative,simple")).toEqual(["simple", "investigative"]);
    expect(() => strategiesOf("simple,agent")).toThrow(
      'unknown strategy "agent" (known: pipeline, simple, investigative)',
    );
  });

  it("gives only the investigative runs their own turn and acquisition budgets", () => {
    const budgets = { ...DEFAULT_BUDGETS };
    const none = { ok: true, value: { full: {}, changed: {} } };
    const own = { ...INVESTIGATIVE_BUDGETS, maxTurns: 60 };
    expect(differingBudgets(["simple", "investigative"], budgets, { budgets: {} })).toEqual({
      ok: true,
      value: { full: { investigative: { ...budgets, ...own } }, changed: { investigative: own } },
    });
    // Everything the investigative defaults would change was set by the user: nothing differs.
    const set = { maxSearchCalls: 40, maxFetchAttempts: 60, maxSources: 30, wallClockMs: 900_000 };
    expect(
      differingBudgets(
        ["simple", "investigative"],
        { ...budgets, ...set },
        {
          budgets: set,
          investigation: { maxIterations: 8 },
        },
      ),
    ).toEqual(none);
    expect(
      differingBudgets(
        ["simple", "investigative"],
        { ...budgets, ...set, maxTurns: 4 },
        { budgets: { ...set, maxTurns: 4 } },
      ),
    ).toEqual(none);
    expect(differingBudgets(["simple", "pipeline"], budgets, { budgets: {} })).toEqual(none);
    expect(
      differingBudgets(["investigative"], budgets, { budgets: {}, investigation: { maxIterations: 300 } }),
    ).toEqual({
      ok: true,
      value: {
        full: { investigative: { ...budgets, ...INVESTIGATIVE_BUDGETS, maxTurns: 300 } },
        changed: { investigative: { ...INVESTIGATIVE_BUDGETS, maxTurns: 300 } },
      },
    });
  });

  it("refuses maxTurns beside max_iterations before writing anything", async () => {
    const home = folder();
    const cases = join(home, "cases.jsonl");
    writeFileSync(cases, `${JSON.stringify({ id: "a", question: QUESTION, gold: [] })}\n`);
    const out = join(home, "eval");
    const run = (strategies: string, extra: Record<string, unknown>) =>
      evalCommand(
        cases,
        {
          corpus: EXAMPLE_CORPUS,
          strategies,
          repeat: 1,
          faults: "none",
          faultCases: 1,
          language: "en",
          out,
          config: false,
          quiet: true,
          ...extra,
        },
        {
          paths: dataPaths({ ASSAY_HOME: home }),
          environment: { ASSAY_HOME: home },
          argv: [],
          stderr: process.stderr,
          stdout: process.stdout,
        },
      );
    expect(
      await refusal(run("simple,investigative", { budget: { maxTurns: 5 }, set: ["max_iterations=9", "max_depth=2"] })),
    ).toBe(BOTH);
    expect(await refusal(run("simple,pipeline", { set: ["max_depth=2"] }))).toBe(
      "--set max_depth=2: the investigative knobs apply only to the investigative strategy, not to simple, pipeline",
    );
    expect(existsSync(out)).toBe(false);
  });
});
