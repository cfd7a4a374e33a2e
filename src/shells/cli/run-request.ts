/**
 * Parsing of the command line into a run: option values (numbers, faults, budgets), the
 * evidence scope and the `RunRequest` with its settings. Shells only.
 */
import { resolve } from "node:path";
import { resolveCorpusRoot } from "../../adapters/corpus/corpus-paths.js";
import { LIBRARY_LABEL } from "../../adapters/library/library-scope.js";
import { formatSearchPlan, parseSearchPlan, planLabel, searchKeyVariable } from "../../adapters/search/search-specs.js";
import { isPostgresUrl } from "../../adapters/store/postgres/postgres-url.js";
import { type Budgets, resolveBudgets } from "../../core/budgets.js";
import { UserError } from "../../core/errors.js";
import { hybridScopeLabel } from "../../core/render/format.js";
import {
  type CorpusScope,
  type EvidenceScope,
  LOCAL_USER,
  type RunRequest,
  type StrategyName,
  type WebScope,
} from "../../ports/store.js";
import { type ConfigFile, resolveRunSettings, strategyBudgets } from "./config-file.js";
import type { Fault } from "./options.js";

export interface CommonOptions {
  db?: string;
  json?: boolean;
  quiet?: boolean;
  fault?: Fault;
}

export interface RunCommandOptions extends CommonOptions {
  corpus?: string;
  web?: boolean;
  library?: boolean;
  search?: string;
  allowHost?: string[];
  model?: string;
  out?: string;
  maxSources?: number;
  timeout?: number;
  budget?: Partial<Budgets>;
  /** `--set name=value` as typed. */
  set?: string[];
  /** `--config <file>`, or false for `--no-config`. */
  config?: string | false;
  strategy: StrategyName;
  language: string;
}

/** The evidence scope: a corpus folder, or the web through a search provider. */
export async function scopeOf(options: RunCommandOptions): Promise<EvidenceScope> {
  if (options.library) {
    if (options.corpus !== undefined || options.web)
      throw new UserError("--library researches your library alone; give --corpus or --web in a run of their own");
    return { kind: "library", userId: LOCAL_USER, label: LIBRARY_LABEL };
  }
  if (!options.web) {
    if (options.corpus === undefined)
      throw new UserError(
        "give an evidence scope: --corpus DIR, --web, both for a folder and the web, or --library for the sources earlier runs read",
      );
    if (options.search !== undefined || options.allowHost !== undefined) {
      throw new UserError("--search and --allow-host apply to --web runs only");
    }
    const root = await resolveCorpusRoot(options.corpus);
    return { kind: "corpus", root, label: options.corpus };
  }
  const web = webScopeOf(options);
  if (options.corpus === undefined) return web;
  // A folder and the web in one run.
  const corpus: CorpusScope = { kind: "corpus", root: await resolveCorpusRoot(options.corpus), label: options.corpus };
  return { kind: "hybrid", corpus, web, label: hybridScopeLabel(corpus.label, web.label) };
}

function webScopeOf(options: RunCommandOptions): WebScope {
  const plan = parseSearchPlan(options.search ?? "auto");
  if (!plan.ok) throw new UserError(`--search: ${plan.error}`);
  if (plan.value.kind === "providers") {
    for (const spec of plan.value.specs) {
      const variable = searchKeyVariable(spec.provider);
      if (variable !== undefined && !process.env[variable]) {
        throw new UserError(`--search ${spec.provider} needs the ${variable} environment variable`);
      }
    }
  }
  return {
    kind: "web",
    // The --search value as given (normalised): `auto` is resolved when the run opens its scope.
    search: { provider: formatSearchPlan(plan.value) },
    allowHosts: options.allowHost ?? [],
    label: planLabel(plan.value),
  };
}

export async function buildRequest(
  question: string,
  options: RunCommandOptions,
  context: { model: string; file: ConfigFile | undefined },
): Promise<RunRequest> {
  const trimmed = question.trim();
  if (trimmed.length === 0) throw new UserError("the question is empty");
  if (trimmed.length > 4_000) throw new UserError("the question is longer than 4000 characters");
  if (options.out !== undefined && options.db !== undefined && isPostgresUrl(options.db)) {
    // The shared store is the report's one home; a folder copy is an explicit export.
    throw new UserError(
      "with a PostgreSQL --db the report is published in the database, not in --out; write it to a folder afterwards with: assay runs export <run> --artifacts <dir>",
    );
  }
  const scope = await scopeOf(options);
  const wallClockMs = options.timeout === undefined ? undefined : Math.round(options.timeout * 1000);
  if (options.budget?.maxSources !== undefined && options.maxSources !== undefined)
    throw new UserError("give the source limit once: --max-sources or --budget maxSources=N");
  if (options.budget?.wallClockMs !== undefined && wallClockMs !== undefined)
    throw new UserError("give the wall clock once: --timeout or --budget wallClockMs=N");
  const settings = resolveRunSettings({
    strategies: [options.strategy],
    file: context.file,
    budgets: options.budget,
    assignments: options.set,
  });
  if (!settings.ok) throw new UserError(settings.error);
  const budgets = resolveBudgets({
    ...settings.value.budgets,
    ...(options.maxSources === undefined ? {} : { maxSources: options.maxSources }),
    ...(wallClockMs === undefined
      ? {}
      : {
          wallClockMs,
          publishReserveMs:
            options.budget?.publishReserveMs ?? Math.min(10_000, Math.max(100, Math.floor(wallClockMs * 0.2))),
        }),
  });
  if (!budgets.ok) throw new UserError(budgets.error);
  // An investigative run's turn budget is its max_iterations unless the user set maxTurns.
  const explicit = {
    ...settings.value.budgets,
    ...(options.maxSources === undefined ? {} : { maxSources: options.maxSources }),
    ...(wallClockMs === undefined ? {} : { wallClockMs }),
  };
  const runBudgets = strategyBudgets(options.strategy, budgets.value, { ...settings.value, budgets: explicit });
  if (!runBudgets.ok) throw new UserError(runBudgets.error);
  return {
    question: trimmed,
    language: options.language,
    strategy: options.strategy,
    model: context.model,
    scope,
    budgets: runBudgets.value,
    outDir: options.out ? resolve(options.out) : "",
    ...(settings.value.investigation === undefined ? {} : { investigation: settings.value.investigation }),
  };
}
