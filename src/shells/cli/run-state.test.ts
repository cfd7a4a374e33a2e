import { hostname } from "node:os";
import { describe, expect, it } from "vitest";
import type { RunRecord } from "../../ports/store.js";
import { STALE_HEARTBEAT_MS } from "../../runtime/run-worker.js";
import { displayStatus, isHeartbeatStale } from "./run-state.js";

const NOW = Date.parse("2026-03-01T12:00:00.000Z");

function run(patch: Partial<RunRecord>): RunRecord {
  return {
    id: 1,
    request: {
      question: "q",
      language: "en",
      strategy: "pipeline",
      scope: { kind: "corpus", root: "/x", label: "x" },
      budgets: {} as RunRecord["request"]["budgets"],
      model: "offline",
      outDir: "",
    },
    status: "running",
    artifactStatus: "",
    error: "",
    originAt: "",
    worker: "other-host:42",
    createdAt: "",
    updatedAt: "",
    finishedAt: "",
    heartbeatAt: "",
    ...patch,
  };
}

const ago = (ms: number) => new Date(NOW - ms).toISOString();

describe("the status runs list shows", () => {
  it("tells a live worker on another host from a dead one by its heartbeat", () => {
    expect(displayStatus(run({ heartbeatAt: ago(5_000) }), NOW)).toBe("running");
    expect(displayStatus(run({ heartbeatAt: ago(STALE_HEARTBEAT_MS - 1) }), NOW)).toBe("running");
    expect(displayStatus(run({ heartbeatAt: ago(STALE_HEARTBEAT_MS + 1) }), NOW)).toBe("interrupted");
    // No heartbeat at all (an `assay run` on that host): nothing to tell by.
    expect(displayStatus(run({ heartbeatAt: "" }), NOW)).toBe("running");
    expect(isHeartbeatStale(run({ heartbeatAt: "not a time" }), NOW)).toBe(false);
  });

  it("keeps the process check on this host, and terminal and queued states", () => {
    // This process is alive, whatever its heartbeat says.
    expect(displayStatus(run({ worker: `${hostname()}:${process.pid}`, heartbeatAt: ago(3_600_000) }), NOW)).toBe(
      "running",
    );
    expect(displayStatus(run({ worker: `${hostname()}:999999999` }), NOW)).toBe("interrupted");
    expect(displayStatus(run({ worker: "", heartbeatAt: ago(3_600_000) }), NOW)).toBe("queued");
    expect(displayStatus(run({ status: "failed", heartbeatAt: ago(3_600_000) }), NOW)).toBe("failed");
    expect(displayStatus(run({ status: "finished" }), NOW)).toBe("finished");
  });
});
