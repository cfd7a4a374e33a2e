/**
 * The CLI's option parsers and shared option definitions: everything a command's registration
 * needs, and nothing that loads a database driver, a model SDK, a DOM or a UI. The command
 * modules (commands/*.ts) import only this and commander; their actions import the rest.
 */
import { type Command, InvalidArgumentError, Option } from "commander";
import { type Budgets, parseBudgetAssignment } from "../../core/budgets.js";
import { UserError } from "../../core/errors.js";
import type { VerdictThresholds } from "../../eval/eval-types.js";
import { DEFAULT_THRESHOLDS } from "../../eval/summarize.js";
import type { RetryPolicy } from "../../ports/job-queue.js";
import { parseCeiling } from "../run-policy.js";

export function positiveInteger(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed <= 0) throw new InvalidArgumentError("expected a positive whole number");
  return parsed;
}

/** `--retries`: 0 or more. */
export function nonNegativeInteger(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new InvalidArgumentError("expected a whole number, 0 or more");
  return parsed;
}

export function positiveNumber(value: string): number {
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed <= 0) throw new InvalidArgumentError("expected a positive number");
  return parsed;
}

/** A TCP port, 0 (any free one) to 65535. */
export function portNumber(value: string): number {
  const parsed = Number(value);
  if (!/^\d+$/.test(value.trim()) || parsed > 65_535) throw new InvalidArgumentError("expected a port from 0 to 65535");
  return parsed;
}

/** An amount of USD above 0, e.g. 5 or 0.5. */
export function positiveUsd(value: string): number {
  const parsed = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value.trim()) || !(parsed > 0))
    throw new InvalidArgumentError("expected an amount of USD, e.g. 5 or 0.5");
  return parsed;
}

/** Commander collector of a repeatable option: every value given, in order. */
export const repeatable = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

/** `name=value` for one budget (`maxSearchCalls=10`); accumulates over repeated flags. */
export function budgetAssignment(value: string, previous: Partial<Budgets> | undefined): Partial<Budgets> {
  const assignment = parseBudgetAssignment(value);
  if (!assignment.ok) throw new InvalidArgumentError(assignment.error);
  return { ...previous, [assignment.value.name]: assignment.value.value };
}

/** `--max-budget name=value`: one budget's ceiling per run; accumulates over repeated flags. */
export function ceilingAssignment(value: string, previous?: Partial<Budgets>): Partial<Budgets> {
  try {
    return parseCeiling(value, previous);
  } catch (error) {
    throw new InvalidArgumentError(error instanceof Error ? error.message : String(error));
  }
}

/** `name=value` for one verdict threshold; accumulates over repeated flags. */
export function thresholdAssignment(
  value: string,
  previous: Partial<VerdictThresholds> | undefined,
): Partial<VerdictThresholds> {
  const match = /^([A-Za-z]+)=(\d+(?:\.\d+)?)$/.exec(value.trim());
  const name = match?.[1];
  if (!match || name === undefined || !Object.hasOwn(DEFAULT_THRESHOLDS, name)) {
    throw new UserError(
      `--threshold expects name=value with a name among ${Object.keys(DEFAULT_THRESHOLDS).join(", ")} (got "${value}")`,
    );
  }
  return { ...previous, [name]: Number(match[2]) };
}

/**
 * The formats of `runs export --format`: `json` (the investigation), `atif` (the agent
 * trajectory), or the report as `pdf` or `docx`.
 */
export const EXPORT_FORMATS = ["json", "atif", "pdf", "docx"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export function exportFormat(value: string): ExportFormat {
  const format = EXPORT_FORMATS.find((known) => known === value);
  if (format) return format;
  throw new InvalidArgumentError(`known formats: ${EXPORT_FORMATS.join(", ")}`);
}

/** A deterministic crash: SIGKILL right after the K-th persisted source, or after the first event of a type. */
export type Fault = { afterPersisted: number } | { afterEvent: string };

/** `crash-after-persisted:K` or `crash-after:<event-type>`. */
export function parseFault(value: string): Fault {
  const persisted = /^crash-after-persisted:(\d+)$/.exec(value);
  if (persisted) return { afterPersisted: Number(persisted[1]) };
  const event = /^crash-after:([a-z]+(?:-[a-z]+)+)$/.exec(value);
  if (event?.[1]) return { afterEvent: event[1] };
  throw new InvalidArgumentError("known faults: crash-after-persisted:K, crash-after:<event-type>");
}

/** Defaults of `--retries`, `--retry-delay` and `--lease`. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { retries: 3, retryDelaySeconds: 30, leaseSeconds: 60 };

export const dbOption = (): Option =>
  new Option("--db <file|url>", "SQLite database file, or postgres://… URL (default: $ASSAY_HOME/assay.db)");

export const faultOption = (): Option =>
  new Option("--fault <fault>", "inject a deterministic fault (crash-after-persisted:K, crash-after:<event-type>)")
    .argParser(parseFault)
    .hideHelp();

/** Adds `--allow-model`, `--max-budget` and `--max-cost-per-day` to `command`. */
export function addPolicyOptions(command: Command): Command {
  return command
    .option(
      "--allow-model <spec>",
      "another model users may pick (repeatable; by default only the --model one), billed to this server's keys",
      repeatable,
    )
    .option(
      "--max-budget <name=value>",
      "the most a user may set a budget to per run, e.g. maxSources=20, wallClockMs=600000 or maxCostUsd=0.5 (repeatable; defaults above it are lowered to it)",
      ceilingAssignment,
    )
    .option(
      "--max-cost-per-day <usd>",
      "the most one user's runs may spend on models in a day (UTC), e.g. 5; each run's cost budget is held against it",
      positiveUsd,
    );
}
