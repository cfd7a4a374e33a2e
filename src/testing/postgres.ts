/**
 * A PostgreSQL server for tests. `ASSAY_TEST_DATABASE_URL` (a database on a server the tests
 * may create databases on) wins; otherwise, where PostgreSQL's binaries are installed
 * (`initdb`, `pg_ctl`, `postgres` on the PATH or under /usr/lib/postgresql/<version>/bin), a
 * throwaway cluster is created in a temporary folder, listening on a free loopback port, and
 * stopped after the tests. PostgreSQL refuses to run as root: as root the cluster runs as the
 * `postgres` user when there is one, otherwise as `nobody`.
 *
 * Without either, test files skip with a notice; in CI (env CI set) they fail instead.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import pg from "pg";
import { IN_CI } from "./chromium.js";

export { IN_CI };

const URL_VARIABLE = "ASSAY_TEST_DATABASE_URL";

export type TestPostgresSource = { kind: "url"; url: string } | { kind: "cluster"; bin: string } | { kind: "none" };

function findBinaries(): string | undefined {
  const has = (dir: string) => ["initdb", "pg_ctl", "postgres"].every((name) => existsSync(join(dir, name)));
  for (const dir of (process.env.PATH ?? "").split(delimiter)) if (dir && has(dir)) return dir;
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(b) - Number(a));
  for (const version of versions) if (has(join(root, version, "bin"))) return join(root, version, "bin");
  return undefined;
}

/** Where the test server comes from (decided at collection time, so a file can skip). */
export const TEST_POSTGRES: TestPostgresSource = (() => {
  const url = process.env[URL_VARIABLE];
  if (url) return { kind: "url", url };
  const bin = findBinaries();
  return bin ? { kind: "cluster", bin } : { kind: "none" };
})();

export const POSTGRES_AVAILABLE = TEST_POSTGRES.kind !== "none";

/** Warns (outside CI) that the PostgreSQL tests of `what` are skipped. */
export function noticeMissingPostgres(what: string): void {
  if (!POSTGRES_AVAILABLE && !IN_CI) {
    console.warn(
      `NOTICE: skipping ${what}: no PostgreSQL (set ${URL_VARIABLE}, or install Debian's postgresql for a throwaway cluster).`,
    );
  }
}

/** The error a CI run reports when no PostgreSQL is available. */
export function missingPostgresError(): Error {
  return new Error(
    `PostgreSQL is required in CI: set ${URL_VARIABLE} or install postgresql (initdb, pg_ctl, postgres); .ci/run does both`,
  );
}

export interface TestPostgres {
  /** A fresh, empty database on the server; returns its URL. */
  createDatabase(): Promise<string>;
  /** Drops the databases it created and stops a throwaway cluster. */
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

/** The unprivileged user to run PostgreSQL as when we are root (undefined otherwise). */
function clusterUser(): { name: string; uid: number; gid: number } | undefined {
  if (typeof process.getuid !== "function" || process.getuid() !== 0) return undefined;
  for (const name of ["postgres", "nobody"]) {
    const id = spawnSync("id", ["-u", name], { encoding: "utf8" });
    const gid = spawnSync("id", ["-g", name], { encoding: "utf8" });
    if (id.status === 0 && gid.status === 0) return { name, uid: Number(id.stdout), gid: Number(gid.stdout) };
  }
  throw new Error("running as root, and there is neither a postgres nor a nobody user to run PostgreSQL as");
}

function run(user: string | undefined, command: string, args: string[]): void {
  const [file, argv] = user ? ["runuser", ["-u", user, "--", command, ...args]] : [command, args];
  const result = spawnSync(file, argv, { encoding: "utf8", timeout: 60_000 });
  if (result.status !== 0) {
    throw new Error(`${command} failed (${result.status}): ${result.error?.message ?? ""}${result.stderr}`);
  }
}

interface Cluster {
  url: string;
  stop: () => void;
}

async function startCluster(bin: string): Promise<Cluster> {
  const user = clusterUser();
  const dir = mkdtempSync(join(tmpdir(), "assay-pg-"));
  if (user) chownSync(dir, user.uid, user.gid);
  chmodSync(dir, 0o700);
  const data = join(dir, "data");
  const port = await freePort();
  run(user?.name, join(bin, "initdb"), ["-D", data, "-U", "assay", "--auth=trust", "-E", "UTF8", "--no-sync"]);
  const settings = `-c listen_addresses=127.0.0.1 -c port=${port} -k ${dir} -c fsync=off -c max_connections=100`;
  run(user?.name, join(bin, "pg_ctl"), ["-D", data, "-l", join(dir, "log"), "-w", "-t", "60", "-o", settings, "start"]);
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    try {
      run(user?.name, join(bin, "pg_ctl"), ["-D", data, "-m", "immediate", "-w", "stop"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  // A crashed test process must not leave the server running.
  process.once("exit", stop);
  return { url: `postgres://assay@127.0.0.1:${port}/postgres`, stop };
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/**
 * Starts (or connects to) the test server. Each `createDatabase` makes a new database named
 * after this process, so test files running in parallel never share one.
 */
export async function startTestPostgres(): Promise<TestPostgres> {
  if (TEST_POSTGRES.kind === "none") throw missingPostgresError();
  const cluster = TEST_POSTGRES.kind === "cluster" ? await startCluster(TEST_POSTGRES.bin) : undefined;
  const adminUrl = cluster?.url ?? (TEST_POSTGRES.kind === "url" ? TEST_POSTGRES.url : "");
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const created: string[] = [];
  const prefix = `assay_test_${process.pid}_${Date.now().toString(36)}`;
  return {
    async createDatabase() {
      const name = `${prefix}_${created.length + 1}`;
      // Identifiers cannot be parameters; `name` is built from digits and [a-z_] only.
      await admin.query(`CREATE DATABASE ${name}`);
      created.push(name);
      return withDatabase(adminUrl, name);
    },
    async stop() {
      try {
        for (const name of created.splice(0)) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await admin.end();
        cluster?.stop();
      }
    },
  };
}
