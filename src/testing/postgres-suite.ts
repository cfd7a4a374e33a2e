/** The test PostgreSQL server for one `describe`: started before its tests, stopped after. */
import { afterAll, beforeAll } from "vitest";
import { startTestPostgres, type TestPostgres } from "./postgres.js";

/** Call inside a `describe` that runs only when `POSTGRES_AVAILABLE`; each test takes a fresh database. */
export function useTestPostgres(): Pick<TestPostgres, "createDatabase"> {
  let server: TestPostgres | undefined;
  beforeAll(async () => {
    server = await startTestPostgres();
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });
  return {
    createDatabase() {
      if (!server) throw new Error("the test PostgreSQL server did not start (see the beforeAll error)");
      return server.createDatabase();
    },
  };
}
