/** `assay runs list`: the latest runs, a line each, and with PostgreSQL the queue's depth. */
import type { PostgresStore } from "../../adapters/store/postgres/postgres-store.js";
import type { Store } from "../../ports/store.js";
import { displayStatus } from "./run-state.js";

/** With PostgreSQL, the queue's line under `runs list`: its jobs by state (read-only). */
async function queueLine(store: Store): Promise<string | undefined> {
  if (store.backend !== "postgres") return undefined;
  const { pool } = store as PostgresStore;
  const { describeDepth, queueDepth, queueSchemaState } = await import(
    "../../adapters/queue/pg-boss/pg-boss-inspect.js"
  );
  const db = { query: (text: string, values?: unknown[]) => pool.query(text, values) };
  const schema = await queueSchemaState(db);
  if (!schema.installed || schema.queues.length < 2)
    return "Queue: not set up (no assay worker has used this database)";
  return `Queue: ${describeDepth(await queueDepth(db))} (assay queue list for the jobs)`;
}

export async function listRuns(
  store: Store,
  options: { json: boolean; limit: number },
  out: NodeJS.WritableStream,
): Promise<void> {
  const runs = await store.listRuns({ limit: options.limit });
  if (options.json) {
    const rows = runs.map((run) => ({
      id: run.id,
      status: displayStatus(run),
      artifactStatus: run.artifactStatus,
      question: run.request.question,
      ...(run.request.lineage ? { lineage: run.request.lineage } : {}),
      strategy: run.request.strategy,
      scope: run.request.scope.label,
      worker: run.worker,
      heartbeatAt: run.heartbeatAt ?? "",
      createdAt: run.createdAt,
      finishedAt: run.finishedAt,
      outDir: run.request.outDir,
    }));
    out.write(`${JSON.stringify(rows)}\n`);
    return;
  }
  const queue = await queueLine(store);
  if (runs.length === 0) {
    out.write('No runs yet. Start one with: assay run "<question>" --corpus <folder>\n');
    if (queue) out.write(`${queue}\n`);
    return;
  }
  const workerWidth = Math.min(32, Math.max(6, ...runs.map((run) => run.worker.length)));
  out.write(
    `${"ID".padEnd(5)} ${"STATUS".padEnd(12)} ${"REPORT".padEnd(14)} ${"CREATED".padEnd(20)} ${"WORKER".padEnd(workerWidth)} QUESTION\n`,
  );
  for (const run of runs) {
    const lineage = run.request.lineage;
    // A follow-up or a revision names the run it continues before its question.
    const continues = lineage
      ? `[${lineage.relation === "revision" ? "revision" : "follow-up"} of ${lineage.parentId}] `
      : "";
    const question = continues + run.request.question.replace(/\s+/g, " ");
    const worker = (run.worker || "—").slice(0, workerWidth).padEnd(workerWidth);
    out.write(
      `${String(run.id).padEnd(5)} ${displayStatus(run).padEnd(12)} ${(run.artifactStatus || "—").padEnd(14)} ${run.createdAt.slice(0, 19).replace("T", " ").padEnd(20)} ${worker} ${question.length > 60 ? `${question.slice(0, 59)}…` : question}\n`,
    );
  }
  if (queue) out.write(`\n${queue}\n`);
}
