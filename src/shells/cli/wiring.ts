/** Builds the runtime for the CLI: the one place where adapters are chosen. */

import { join } from "node:path";
import { systemClock } from "../../adapters/clock/system-clock.js";
import type { IndexProgress } from "../../adapters/corpus/corpus-index.js";
import { corpusScopeOpener } from "../../adapters/corpus/corpus-scope.js";
import { libraryScopeOpener } from "../../adapters/library/library-scope.js";
import { FileNotes } from "../../adapters/notes/file-notes.js";
import { optionalKeyVariable, searchKeyVariable } from "../../adapters/search/search-specs.js";
import { scopeRouter, webScopeOpener } from "../../adapters/web/web-scope.js";
import { UserError } from "../../core/errors.js";
import type { Model } from "../../ports/model.js";
import type { Store } from "../../ports/store.js";
import { DEFAULT_LEASE_MS, MIN_LEASE_MS } from "../../runtime/run-lease.js";
import { createRuntime, type Runtime } from "../../runtime/runtime.js";
import type { DataPaths } from "./paths.js";
import { artifactStoreFor } from "./stores.js";

export function buildRuntime(
  paths: DataPaths,
  store: Store,
  model: Model | undefined,
  environment: Record<string, string | undefined>,
  overrides: { leaseMs?: number; indexProgress?: IndexProgress } = {},
): Runtime {
  return createRuntime({
    ...(model ? { model } : {}),
    store,
    artifacts: artifactStoreFor(store),
    notes: new FileNotes({ directory: paths.notesDir }),
    clock: systemClock,
    scopes: scopeRouter({
      corpus: corpusScopeOpener({
        indexDir: paths.indexDir,
        ...(overrides.indexProgress ? { progress: overrides.indexProgress } : {}),
      }),
      library: libraryScopeOpener({ store }),
      web: webScopeOpener({
        apiKeyFor: (provider) => {
          const variable = searchKeyVariable(provider) ?? optionalKeyVariable(provider);
          return variable === undefined ? undefined : environment[variable];
        },
        ...(environment.ASSAY_CONTACT_EMAIL ? { mailto: environment.ASSAY_CONTACT_EMAIL } : {}),
      }),
    }),
    defaultOutDir: (runId) => join(paths.runsDir, String(runId)),
    leaseMs: overrides.leaseMs ?? leaseMsOf(environment),
  });
}

/** `ASSAY_RUN_LEASE_MS`: how long a run's lease lasts unless renewed (default 60 000, at least 1 000). */
export function leaseMsOf(environment: Record<string, string | undefined>): number {
  const value = environment.ASSAY_RUN_LEASE_MS;
  if (value === undefined || value === "") return DEFAULT_LEASE_MS;
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms < MIN_LEASE_MS)
    throw new UserError(
      `ASSAY_RUN_LEASE_MS must be a whole number of milliseconds, at least ${MIN_LEASE_MS}; got "${value}"`,
    );
  return ms;
}
