/** Builds the runtime for the CLI: the one place where adapters are chosen. */

import { join, resolve } from "node:path";
import { FilesystemArtifactStore } from "../../adapters/artifacts/filesystem/filesystem-artifact-store.js";
import { PostgresArtifactStore } from "../../adapters/artifacts/postgres/postgres-artifact-store.js";
import { systemClock } from "../../adapters/clock/system-clock.js";
import { corpusScopeOpener } from "../../adapters/corpus/corpus-scope.js";
import { FileNotes } from "../../adapters/notes/file-notes.js";
import { searchKeyVariable } from "../../adapters/search/search-registry.js";
import { isPostgresUrl } from "../../adapters/store/postgres/postgres-connection.js";
import { openPostgresStore, PostgresStore } from "../../adapters/store/postgres/postgres-store.js";
import { openSqliteStore } from "../../adapters/store/sqlite/sqlite-store.js";
import { scopeRouter, webScopeOpener } from "../../adapters/web/web-scope.js";
import { UserError } from "../../core/errors.js";
import type { ArtifactStore } from "../../ports/artifact-store.js";
import type { Model } from "../../ports/model.js";
import type { Store } from "../../ports/store.js";
import { DEFAULT_LEASE_MS, MIN_LEASE_MS } from "../../runtime/run-lease.js";
import { createRuntime, type Runtime } from "../../runtime/runtime.js";
import type { DataPaths } from "./paths.js";

/** `--db`: a `postgres://` (or `postgresql://`) URL opens the PostgreSQL store; a file path, SQLite. */
export async function openStore(paths: DataPaths, db: string | undefined): Promise<Store> {
  if (db && isPostgresUrl(db)) return openPostgresStore({ url: db });
  return openSqliteStore({ file: db ? resolve(db) : paths.database });
}

/** Opens the store of `db`, runs `work` with it, and closes it whatever happens. */
export async function withStore<T>(
  paths: DataPaths,
  db: string | undefined,
  work: (store: Store) => Promise<T>,
): Promise<T> {
  const store = await openStore(paths, db);
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

/**
 * Where reports are published: with PostgreSQL, in the database (any process connected to it
 * serves any run's report; `assay runs export --artifacts` writes one to a folder); with
 * SQLite, as files in the run's folder.
 */
export function artifactStoreFor(store: Store): ArtifactStore {
  return store instanceof PostgresStore
    ? new PostgresArtifactStore({ pool: store.pool })
    : new FilesystemArtifactStore();
}

export function buildRuntime(
  paths: DataPaths,
  store: Store,
  model: Model | undefined,
  environment: Record<string, string | undefined>,
  overrides: { leaseMs?: number } = {},
): Runtime {
  return createRuntime({
    ...(model ? { model } : {}),
    store,
    artifacts: artifactStoreFor(store),
    notes: new FileNotes({ directory: paths.notesDir }),
    clock: systemClock,
    scopes: scopeRouter({
      corpus: corpusScopeOpener({ indexDir: paths.indexDir }),
      web: webScopeOpener({
        apiKeyFor: (provider) => {
          const variable = searchKeyVariable(provider);
          return variable === undefined ? undefined : environment[variable];
        },
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
