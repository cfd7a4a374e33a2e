/**
 * The run settings a user types: the config file (`--config <file>`, or
 * `$ASSAY_HOME/config.json` when it exists) and the `--set name=value` flags, merged with
 * the `--budget` flags. Precedence: defaults < config file < flags. Knob names come in the
 * seed's snake_case (`max_depth`) or camelCase (`maxDepth`). Only the shell reads the file;
 * everything below it receives the settings in the `RunRequest`. See docs/configuration.md.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { z } from "zod";
import { BUDGET_NAMES, type Budgets, budgetName, checkBudget } from "../../core/budgets.js";
import { UserError } from "../../core/errors.js";
import {
  describeRange,
  INVESTIGATION_KNOBS,
  type InvestigationKnob,
  investigationKnob,
  resolveInvestigationConfig,
  snakeCaseOf,
} from "../../core/investigative/config.js";
import type { InvestigationConfig } from "../../core/investigative/types.js";
import { err, ok, type Result } from "../../core/result.js";

/** The strategy the investigative knobs belong to. */
export const INVESTIGATIVE_STRATEGY = "investigative";

/** The name of the config file in `$ASSAY_HOME`. */
export const CONFIG_FILE_NAME = "config.json";

/** What a config file sets, validated, with camelCase names. */
export interface ConfigFile {
  /** The file, as read (for messages and the eval manifest). */
  file: string;
  investigative: Partial<InvestigationConfig>;
  budgets: Partial<Budgets>;
  /** The operator's policy for shared servers (`assay serve`, `assay mcp`); `assay run` does not read it. */
  policy?: FilePolicy;
}

/** The config file's `policy` section: the models users may pick, budget ceilings per run, cost per user and day. */
export interface FilePolicy {
  models?: string[];
  maxBudgets?: Partial<Budgets>;
  maxCostUsdPerDay?: number;
}

const SECTIONS = ["investigative", "budgets", "policy"] as const;
const POLICY_KEYS = ["models", "maxBudgets", "maxCostUsdPerDay"] as const;

const configFileSchema = z.strictObject({
  investigative: z.record(z.string(), z.number()).optional(),
  budgets: z.record(z.string(), z.number()).optional(),
  policy: z
    .strictObject({
      models: z.array(z.string().trim().min(1, "a model spec is empty")).optional(),
      maxBudgets: z.record(z.string(), z.number()).optional(),
      maxCostUsdPerDay: z.number().positive("must be a positive number of USD").optional(),
    })
    .optional(),
});

const KNOWN_KNOBS = `known: ${INVESTIGATION_KNOBS.map(snakeCaseOf).join(", ")}; the camelCase names work too`;

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === "unrecognized_keys") {
    const keys = issue.keys.map((key) => `"${key}"`).join(", ");
    if (issue.path.length === 0) return `unknown key ${keys} (known: ${SECTIONS.join(", ")})`;
    return `${issue.path.map(String).join(".")}: unknown key ${keys} (known: ${POLICY_KEYS.join(", ")})`;
  }
  const where = issue.path.map(String).join(".");
  return where === "" ? issue.message : `${where}: ${issue.message}`;
}

/** Checks one knob as the user named it; the error shows it as `shown`, with its range. Pure. */
function checkKnob(name: string, value: number, shown = name): Result<InvestigationKnob> {
  const knob = investigationKnob(name);
  if (knob === undefined) return err(`unknown investigative knob "${shown}" (${KNOWN_KNOBS})`);
  const checked = resolveInvestigationConfig({ [knob]: value });
  if (!checked.ok) return err(`${shown} must be ${describeRange(knob)} (got ${value})`);
  return ok(knob);
}

function fileKnobs(values: Record<string, number>): Result<Partial<InvestigationConfig>> {
  const knobs: Partial<InvestigationConfig> = {};
  const namedAs = new Map<InvestigationKnob, string>();
  for (const [name, value] of Object.entries(values)) {
    const knob = checkKnob(name, value, `investigative.${name}`);
    if (!knob.ok) return knob;
    const earlier = namedAs.get(knob.value);
    if (earlier !== undefined)
      return err(`investigative.${earlier} and investigative.${name} are the same knob; give it once`);
    namedAs.set(knob.value, name);
    knobs[knob.value] = value;
  }
  return ok(knobs);
}

function fileBudgets(values: Record<string, number>): Result<Partial<Budgets>> {
  const budgets: Partial<Budgets> = {};
  for (const [given, value] of Object.entries(values)) {
    const name = budgetName(given);
    if (!name.ok) return err(`unknown budget "budgets.${given}" (known: ${BUDGET_NAMES.join(", ")})`);
    const checked = checkBudget(name.value, value);
    if (!checked.ok) return err(checked.error.replace(`budget ${given}`, `budgets.${given}`));
    budgets[name.value] = value;
  }
  return ok(budgets);
}

/** Parses a config file's text; every error names the file and the key. Pure; never throws. */
export function parseConfigFile(file: string, text: string): Result<ConfigFile> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return err(`config file ${file} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  const parsed = configFileSchema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues.map(describeIssue).join("; ");
    return err(`config file ${file}: ${issues}`);
  }
  const investigative = fileKnobs(parsed.data.investigative ?? {});
  if (!investigative.ok) return err(`config file ${file}: ${investigative.error}`);
  const budgets = fileBudgets(parsed.data.budgets ?? {});
  if (!budgets.ok) return err(`config file ${file}: ${budgets.error}`);
  const policy = parsed.data.policy;
  const ceilings = fileBudgets(policy?.maxBudgets ?? {});
  if (!ceilings.ok) return err(`config file ${file}: ${ceilings.error.replaceAll("budgets.", "policy.maxBudgets.")}`);
  return ok({
    file,
    investigative: investigative.value,
    budgets: budgets.value,
    ...(policy === undefined
      ? {}
      : {
          policy: {
            ...(policy.models === undefined ? {} : { models: policy.models }),
            ...(policy.maxBudgets === undefined ? {} : { maxBudgets: ceilings.value }),
            ...(policy.maxCostUsdPerDay === undefined ? {} : { maxCostUsdPerDay: policy.maxCostUsdPerDay }),
          },
        }),
  });
}

/**
 * Reads the config file: `explicit` (`--config`), none when `explicit` is false
 * (`--no-config`), else `<home>/config.json` when it exists. Throws UserError when the file
 * cannot be read or is invalid.
 */
export function readConfigFile(options: {
  explicit?: string | false | undefined;
  home: string;
}): ConfigFile | undefined {
  if (options.explicit === false) return undefined;
  const file = options.explicit === undefined ? join(options.home, CONFIG_FILE_NAME) : resolve(options.explicit);
  if (options.explicit === undefined && !existsSync(file)) return undefined;
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    throw new UserError(`--config: cannot read ${file}`);
  }
  const parsed = parseConfigFile(file, text);
  if (!parsed.ok) throw new UserError(parsed.error);
  return parsed.value;
}

const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** One `--set name=value`: the knob and its value, checked against its range. Pure; never throws. */
export function parseKnobAssignment(text: string): Result<{ knob: InvestigationKnob; value: number }> {
  const match = /^([^=]*)=(.*)$/.exec(text.trim());
  const name = match?.[1]?.trim() ?? "";
  const raw = match?.[2]?.trim() ?? "";
  if (!match || name === "") return err(`--set expects name=value, e.g. max_depth=2 (got "${text}")`);
  const knob = investigationKnob(name);
  if (knob === undefined) return err(`--set ${text}: unknown investigative knob "${name}" (${KNOWN_KNOBS})`);
  if (!NUMBER.test(raw)) return err(`--set ${text}: ${name} must be ${describeRange(knob)} (got "${raw}")`);
  const checked = checkKnob(name, Number(raw));
  if (!checked.ok) return err(`--set ${text}: ${checked.error}`);
  return ok({ knob, value: Number(raw) });
}

/** Where the settings of a run (or of every run of an evaluation) come from. */
export interface SettingsSources {
  /** The strategies they reach: the run's, or every one an evaluation compares. */
  strategies: readonly string[];
  file?: ConfigFile | undefined;
  /** `--budget` flags. */
  budgets?: Partial<Budgets> | undefined;
  /** `--set` flags, as typed, in order (a later one wins). */
  assignments?: readonly string[] | undefined;
}

export interface RunSettings {
  /** The budgets the user set (file, then flags over it); the caller completes and checks them. */
  budgets: Partial<Budgets>;
  /** The knobs the user set; absent when none was, or when no strategy is investigative. */
  investigation?: Partial<InvestigationConfig>;
}

/**
 * Merges defaults < config file < flags. `--set` with no investigative strategy is refused;
 * the file's investigative section is then simply not used. Pure; never throws.
 */
export function resolveRunSettings(sources: SettingsSources): Result<RunSettings> {
  const assigned: Partial<InvestigationConfig> = {};
  for (const text of sources.assignments ?? []) {
    const assignment = parseKnobAssignment(text);
    if (!assignment.ok) return assignment;
    assigned[assignment.value.knob] = assignment.value.value;
  }
  const budgets = { ...sources.file?.budgets, ...sources.budgets };
  const investigative = sources.strategies.includes(INVESTIGATIVE_STRATEGY);
  if (!investigative) {
    const first = sources.assignments?.[0];
    if (first !== undefined) {
      return err(
        `--set ${first}: the investigative knobs apply only to the ${INVESTIGATIVE_STRATEGY} strategy, not to ${sources.strategies.join(", ")}`,
      );
    }
    return ok({ budgets });
  }
  const investigation = { ...sources.file?.investigative, ...assigned };
  const checked = resolveInvestigationConfig(investigation);
  if (!checked.ok) return err(checked.error);
  if (budgets.maxTurns !== undefined && investigation.maxIterations !== undefined) {
    return err(
      `maxTurns (${budgets.maxTurns}) and max_iterations (${investigation.maxIterations}) are both set: an ${INVESTIGATIVE_STRATEGY} run's turn budget is its max_iterations; give only one of them`,
    );
  }
  return ok(Object.keys(investigation).length === 0 ? { budgets } : { budgets, investigation });
}

/**
 * What an investigative run may acquire and how long it may take, unless the user set these
 * budgets: its exploration searches for every sub-question and every challenge and reads a
 * page or two each time, and the exploration gate alone asks for `min_sources` (5) sources,
 * so the defaults of the one-pass strategies (6 searches, 8 sources) would end it early.
 */
export const INVESTIGATIVE_BUDGETS: Readonly<Partial<Budgets>> = Object.freeze({
  maxSearchCalls: 40,
  maxFetchAttempts: 60,
  maxSources: 30,
  wallClockMs: 900_000,
});

/**
 * The budgets of one run of `strategy`, from the completed `budgets` and the user's settings
 * (`settings.budgets`: the budgets the user set). An investigative run's Host turn budget is
 * its iteration limit: `maxTurns` becomes the resolved `max_iterations` (default 60) unless the
 * user set `maxTurns` (then it stays, and `resolveRunSettings` has refused a `max_iterations`
 * beside it); its acquisition budgets not set by the user are `INVESTIGATIVE_BUDGETS`. Other
 * strategies keep `budgets`. Pure; never throws.
 */
export function strategyBudgets(strategy: string, budgets: Budgets, settings: RunSettings): Result<Budgets> {
  if (strategy !== INVESTIGATIVE_STRATEGY) return ok(budgets);
  const config = resolveInvestigationConfig(settings.investigation);
  if (!config.ok) return err(config.error);
  const own: Partial<Budgets> = Object.fromEntries(
    Object.entries(INVESTIGATIVE_BUDGETS).filter(([name]) => settings.budgets[name as keyof Budgets] === undefined),
  );
  // max_iterations and maxTurns share one range (1 to 1000), so the iteration limit always fits.
  if (settings.budgets.maxTurns === undefined) own.maxTurns = config.value.maxIterations;
  return ok({ ...budgets, ...own });
}

/**
 * The budgets of each of `strategies` that differ from the shared `budgets` by design (an
 * investigative run's turn budget is its max_iterations): in full, and only the changed
 * figures. A strategy whose budgets equal the shared ones is not listed. Pure; never throws.
 */
export function differingBudgets(
  strategies: readonly string[],
  budgets: Budgets,
  settings: RunSettings,
): Result<{ full: Record<string, Budgets>; changed: Record<string, Partial<Budgets>> }> {
  const full: Record<string, Budgets> = {};
  const changed: Record<string, Partial<Budgets>> = {};
  for (const strategy of strategies) {
    const own = strategyBudgets(strategy, budgets, settings);
    if (!own.ok) return own;
    const differences = (Object.keys(budgets) as (keyof Budgets)[]).filter((key) => own.value[key] !== budgets[key]);
    if (differences.length === 0) continue;
    full[strategy] = own.value;
    changed[strategy] = Object.fromEntries(differences.map((key) => [key, own.value[key]]));
  }
  return ok({ full, changed });
}
