/** An in-process harness for the HTTP app (API and web UI): SQLite, a fake corpus scope, two users. */
import { mkdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { afterEach } from "vitest";
import { FilesystemArtifactStore } from "../adapters/artifacts/filesystem/filesystem-artifact-store.js";
import { systemClock } from "../adapters/clock/system-clock.js";
import { FileNotes } from "../adapters/notes/file-notes.js";
import { openSqliteStore, type SqliteStore } from "../adapters/store/sqlite/sqlite-store.js";
import { UserError } from "../core/errors.js";
import { createRuntime } from "../runtime/runtime.js";
import { createHttpApp, type HttpAppOptions } from "../shells/http/app.js";
import { createToken } from "../shells/http/tokens.js";
import { type FakeDocument, type FakeScopeOptions, fakeScopeOpener } from "./fake-scope.js";
import { tempDir } from "./temp-dir.js";

export const DOCUMENTS: FakeDocument[] = [
  {
    path: "yoshino.md",
    title: "Akira Yoshino",
    text: "Akira Yoshino built the first lithium-ion cell with a carbon anode in 1985. The cell used a lithium cobalt oxide cathode.",
  },
  {
    path: "sony.md",
    title: "Sony",
    text: "Sony sold the first commercial lithium-ion battery in 1991. The lithium-ion battery reached camcorders first.",
  },
];

export interface Harness {
  app: ReturnType<typeof createHttpApp>["app"];
  drives: ReturnType<typeof createHttpApp>["drives"];
  store: SqliteStore;
  alice: string;
  bob: string;
  corpus: string;
  clock: { ms: number };
  call(path: string, init?: RequestInit & { token?: string | null }): Promise<Response>;
  create(body: unknown, token?: string): Promise<Response>;
  close(): Promise<void>;
}

/** The HTTP app over a SQLite store and a fake corpus scope, with tokens of alice and bob; `close` ends it. */
export async function httpHarness(
  scope: Partial<FakeScopeOptions> = {},
  overrides: Partial<HttpAppOptions> = {},
): Promise<Harness> {
  const dir = tempDir("assay-http-");
  const corpus = join(dir.path, "corpora", "batteries");
  mkdirSync(corpus, { recursive: true });
  mkdirSync(join(dir.path, "elsewhere"));
  const store = openSqliteStore({ file: join(dir.path, "assay.db") });
  const opener = fakeScopeOpener({ documents: DOCUMENTS, ...scope });
  const clock = { ms: Date.parse("2026-03-01T10:00:00.000Z") };
  const { app, drives } = createHttpApp({
    store,
    artifacts: new FilesystemArtifactStore(),
    runtimeFor: (model) => {
      if (model !== "none") throw new UserError(`unknown model ${model}`);
      return createRuntime({
        store,
        artifacts: new FilesystemArtifactStore(),
        clock: systemClock,
        scopes: opener,
        notes: new FileNotes({ directory: join(dir.path, "notes") }),
        defaultOutDir: (runId) => join(dir.path, "runs", String(runId)),
      });
    },
    defaultModel: "none",
    corpusRoots: [realpathSync(join(dir.path, "corpora"))],
    now: () => clock.ms,
    pollMs: 5,
    ...overrides,
  });
  const close = async () => {
    await drives.shutdown();
    await store.close();
    dir.cleanup();
  };
  const alice = (await createToken(store, "alice", "test", new Date())).secret;
  const bob = (await createToken(store, "bob", "", new Date())).secret;
  const call = (path: string, init: RequestInit & { token?: string | null } = {}) => {
    const { token, ...rest } = init;
    const headers = new Headers(rest.headers);
    const bearer = token === undefined ? alice : token;
    if (bearer !== null) headers.set("Authorization", `Bearer ${bearer}`);
    return Promise.resolve(app.request(path, { ...rest, headers }));
  };
  const create = (body: unknown, token = alice) =>
    call("/api/runs", {
      method: "POST",
      token,
      headers: { "Content-Type": "application/json" },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
  return { app, drives, store, alice, bob, corpus, clock, call, create, close };
}

/**
 * `httpHarness` for the tests of one file: every harness it opens is closed after each test
 * (registers the file's `afterEach`).
 */
export function httpHarnesses(): (...args: Parameters<typeof httpHarness>) => Promise<Harness> {
  const open: Harness[] = [];
  afterEach(async () => {
    for (const made of open.splice(0).reverse()) await made.close();
  });
  return async (...args) => {
    const made = await httpHarness(...args);
    open.push(made);
    return made;
  };
}

/** A create-run body over the harness's corpus folder, with `extra` fields. */
export const corpusRun = (extra: Record<string, unknown> = {}) => ({
  question: "Who built the first lithium-ion cell with a carbon anode?",
  scope: { kind: "corpus", path: "batteries" },
  ...extra,
});

/** The `error` of an error response's JSON body. */
export async function errorOf(response: Response): Promise<{ code: string; message: string; field?: string }> {
  return ((await response.json()) as { error: { code: string; message: string; field?: string } }).error;
}
