/** A runtime over a fake scope, a real SQLite file and a real artifact folder, for tests. */
import { join } from "node:path";
import { FilesystemArtifactStore } from "../adapters/artifacts/filesystem/filesystem-artifact-store.js";
import { systemClock } from "../adapters/clock/system-clock.js";
import { FileNotes } from "../adapters/notes/file-notes.js";
import { openSqliteStore, type SqliteStore } from "../adapters/store/sqlite/sqlite-store.js";
import { type Budgets, resolveBudgets } from "../core/budgets.js";
import type { Clock } from "../ports/clock.js";
import type { Model } from "../ports/model.js";
import type { RunRequest } from "../ports/store.js";
import { createRuntime, type Runtime } from "../runtime/runtime.js";
import { type FakeScopeOptions, fakeScopeOpener } from "./fake-scope.js";
import { tempDir } from "./temp-dir.js";

export interface RuntimeFixture {
  runtime: Runtime;
  store: SqliteStore;
  scope: ReturnType<typeof fakeScopeOpener>;
  dbFile: string;
  outDir: string;
  /** Where investigative runs keep notes.md. */
  notesDir: string;
  request(question: string, budgets?: Partial<Budgets>): RunRequest;
  /** Another runtime over the same store and scope (a restarted process), with `model`. */
  withModel(model?: Model): Runtime;
  cleanup(): Promise<void>;
}

export function runtimeFixture(
  scopeOptions: FakeScopeOptions,
  clock: Clock = systemClock,
  model?: Model,
): RuntimeFixture {
  const dir = tempDir();
  const dbFile = join(dir.path, "assay.db");
  const outDir = join(dir.path, "out");
  const notesDir = join(dir.path, "notes");
  const store = openSqliteStore({ file: dbFile });
  const scope = fakeScopeOpener(scopeOptions);
  const runtimeWith = (chosen?: Model): Runtime =>
    createRuntime({
      store,
      artifacts: new FilesystemArtifactStore(),
      clock,
      scopes: scope,
      worker: "test:1",
      notes: new FileNotes({ directory: notesDir }),
      ...(chosen ? { model: chosen } : {}),
    });
  const runtime = runtimeWith(model);
  return {
    runtime,
    store,
    scope,
    dbFile,
    outDir,
    notesDir,
    withModel: runtimeWith,
    request(question, budgets = {}) {
      const resolved = resolveBudgets(budgets);
      if (!resolved.ok) throw new Error(resolved.error);
      return {
        question,
        language: "en",
        strategy: "pipeline",
        model: model ? model.name : "none",
        scope: { kind: "corpus", root: dir.path, label: "fake corpus" },
        budgets: resolved.value,
        outDir,
      };
    },
    async cleanup() {
      await store.close();
      dir.cleanup();
    },
  };
}
