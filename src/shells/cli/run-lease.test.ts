/**
 * One driver per run, with real processes, on SQLite and PostgreSQL: a run driven by a live
 * process on another host is refused with the holder named; two `assay resume` of one run
 * at once, exactly one drives; after the holder is SIGKILLed and its lease lapses, a resume
 * takes over and publishes once, with each source once.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { hostname } from "node:os";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { EXAMPLE_CORPUS, runCli, startCli } from "../../testing/cli.js";
import { POSTGRES_AVAILABLE } from "../../testing/postgres.js";
import { useTestPostgres } from "../../testing/postgres-suite.js";
import { tempDir } from "../../testing/temp-dir.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const QUESTION = "How did lithium-ion battery cathodes and costs change from 1980 to 2020?";
const MAX_SOURCES = 5;

interface Backend {
  name: string;
  /** A fresh database: its `--db` value and a way to run SQL on it (`?` placeholders). */
  open(dir: string): Promise<{ db: string; sql(text: string, values?: unknown[]): Promise<Record<string, unknown>[]> }>;
}

const sqlite: Backend = {
  name: "SQLite",
  async open(dir) {
    const db = join(dir, "runs.db");
    return {
      db,
      async sql(text, values = []) {
        const connection = new BetterSqlite3(db);
        try {
          const statement = connection.prepare(text);
          if (statement.reader) return statement.all(...values) as Record<string, unknown>[];
          statement.run(...values);
          return [];
        } finally {
          connection.close();
        }
      },
    };
  },
};

function postgres(createDatabase: () => Promise<string>): Backend {
  return {
    name: "PostgreSQL",
    async open() {
      const db = await createDatabase();
      return {
        db,
        async sql(text, values = []) {
          const client = new pg.Client({ connectionString: db });
          await client.connect();
          try {
            let n = 0;
            return (
              await client.query(
                text.replace(/\?/g, () => `$${++n}`),
                values,
              )
            ).rows;
          } finally {
            await client.end();
          }
        },
      };
    },
  };
}

/**
 * A model server that answers nothing until released, then refuses every request with a 400 (an
 * error no client retries, so the driver ends at once): a driver stuck in a model call.
 */
async function heldModelServer(): Promise<{
  url: string;
  seen: () => number;
  release: () => void;
  close: () => Promise<void>;
}> {
  const waiting: ServerResponse[] = [];
  let seen = 0;
  let released = false;
  const fail = (response: ServerResponse) => {
    response.writeHead(400, { "content-type": "application/json" });
    response.end('{"error":{"message":"test server: failed on purpose"}}');
  };
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    request.resume();
    seen++;
    if (released) fail(response);
    else waiting.push(response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("no port");
  return {
    url: `http://127.0.0.1:${address.port}/v1`,
    seen: () => seen,
    release() {
      released = true;
      for (const response of waiting.splice(0)) fail(response);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const until = async (condition: () => Promise<boolean> | boolean, what: string, limitMs = 60_000) => {
  const start = Date.now();
  while (!(await condition())) {
    if (Date.now() - start > limitMs) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

function leaseSuite(backendOf: () => Backend) {
  /** A run killed with SIGKILL after two persisted sources, its lease left behind. */
  const crashedRun = async () => {
    const dir = tempDir("assay-lease-");
    cleanups.push(dir.cleanup);
    const { db, sql } = await backendOf().open(dir.path);
    const crashed = await runCli(
      [
        "run",
        QUESTION,
        "--corpus",
        EXAMPLE_CORPUS,
        ...(db.startsWith("postgres") ? [] : ["--out", join(dir.path, "published")]),
        "--db",
        db,
        "--max-sources",
        String(MAX_SOURCES),
        "--fault",
        "crash-after-persisted:2",
      ],
      { home: dir.path },
    );
    expect(crashed.signal).toBe("SIGKILL");
    const [row] = await sql("SELECT lease_holder, lease_epoch FROM runs WHERE id = 1");
    expect(String(row?.lease_holder)).toMatch(new RegExp(`^${hostname()}:\\d+/[0-9a-f]{6}$`));
    return { dir: dir.path, db, sql };
  };

  const eventCounts = async (db: string, home: string) => {
    const shown = JSON.parse((await runCli(["runs", "show", "1", "--db", db, "--json"], { home })).stdout) as {
      events: { type: string }[];
    };
    const count = (type: string) => shown.events.filter((event) => event.type === type).length;
    return { resumed: count("run-resumed"), published: count("final-published"), persisted: count("source-persisted") };
  };

  it("refuses a run a live process on another host drives; takes it over once that lease lapses, and publishes once", async () => {
    const { dir, db, sql } = await crashedRun();
    // A driver on another host, with a fresh lease.
    const expires = new Date(Date.now() + 120_000).toISOString();
    await sql("UPDATE runs SET lease_holder = ?, lease_expires_at = ?, lease_epoch = lease_epoch + 1 WHERE id = 1", [
      "otherhost:4242/abcdef",
      expires,
    ]);
    const refused = await runCli(["resume", "1", "--db", db], { home: dir });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/run 1 is being driven by otherhost:4242 \(its lease lapses in \d+ s/);
    expect((await runCli(["runs", "list", "--db", db], { home: dir })).stdout).toMatch(/^1\s+running/m);
    // That host died: its lease lapses.
    await sql("UPDATE runs SET lease_expires_at = ? WHERE id = 1", [new Date(Date.now() - 1000).toISOString()]);
    expect((await runCli(["runs", "list", "--db", db], { home: dir })).stdout).toMatch(/^1\s+interrupted/m);
    const resumed = await runCli(["resume", "1", "--db", db, "--json"], { home: dir });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ runId: 1, status: "finished" });
    const anchors = (await sql("SELECT canonical_anchor FROM sources WHERE run_id = 1")).map(
      (row) => row.canonical_anchor,
    );
    expect(anchors).toHaveLength(MAX_SOURCES);
    expect(new Set(anchors).size).toBe(MAX_SOURCES);
    expect(await eventCounts(db, dir)).toEqual({ resumed: 1, published: 1, persisted: MAX_SOURCES });
    expect((await sql("SELECT lease_holder, lease_epoch FROM runs WHERE id = 1"))[0]).toMatchObject({
      lease_holder: "",
    });
  });

  it("of two `assay resume` of one run at once, exactly one drives; the other names it", async () => {
    const { dir, db, sql } = await crashedRun();
    const model = await heldModelServer();
    cleanups.push(model.close);
    // The run asks a model (held by the test server): its driver stays in the drive until released.
    await sql("UPDATE runs SET model = ? WHERE id = 1", ["openai-compatible:held"]);
    const env = { ASSAY_MODEL_BASE_URL: model.url };
    const first = startCli(["resume", "1", "--db", db, "--json"], { home: dir, env });
    const second = startCli(["resume", "1", "--db", db, "--json"], { home: dir, env });
    // One of them holds the lease and waits on the model; the other is refused meanwhile.
    const { result: loser, index } = await Promise.race(
      [first, second].map((driver, index) => driver.done.then((result) => ({ result, index }))),
    );
    expect(loser.code, loser.stderr).toBe(2);
    expect(loser.stderr).toMatch(new RegExp(`run 1 is being driven by ${hostname()}:\\d+ \\(its lease lapses in`));
    const winner = index === 0 ? second : first;
    await until(() => model.seen() > 0, "the driver's model call");
    model.release();
    const won = await winner.done;
    expect(won.code, won.stderr).toBe(0);
    const anchors = (await sql("SELECT canonical_anchor FROM sources WHERE run_id = 1")).map(
      (row) => row.canonical_anchor,
    );
    expect(new Set(anchors).size).toBe(anchors.length);
    expect(anchors).toHaveLength(MAX_SOURCES);
    expect(await eventCounts(db, dir)).toEqual({ resumed: 1, published: 1, persisted: MAX_SOURCES });
  });
}

describe("one driver per run: SQLite", () => {
  leaseSuite(() => sqlite);
});

describe.runIf(POSTGRES_AVAILABLE)("one driver per run: PostgreSQL", () => {
  const server = useTestPostgres();
  leaseSuite(() => postgres(() => server.createDatabase()));
});
