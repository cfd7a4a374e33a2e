/** The store of `--db` (SQLite, or PostgreSQL whose driver loads only then) and where its reports are published. */
import { resolve } from "node:path";
import { FilesystemArtifactStore } from "../../adapters/artifacts/filesystem/filesystem-artifact-store.js";
import { isPostgresUrl } from "../../adapters/store/postgres/postgres-url.js";
import { openSqliteStore } from "../../adapters/store/sqlite/sqlite-store.js";
import type { ArtifactStore } from "../../ports/artifact-store.js";
import type { Store } from "../../ports/store.js";
import type { DataPaths } from "./paths.js";

/** `--db`: a `postgres://` (or `postgresql://`) URL opens the PostgreSQL store; a file path, SQLite. */
export async function openStore(paths: DataPaths, db: string | undefined): Promise<Store> {
  // The PostgreSQL driver loads only for a postgres:// database.
  if (db && isPostgresUrl(db))
    return (await import("../../adapters/store/postgres/postgres-store.js")).openPostgresStore({ url: db });
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
  return store.artifacts ?? new FilesystemArtifactStore();
}
