import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "src/**/*.test.tsx"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Most files spend their time waiting on child processes (the CLI, servers, PostgreSQL,
    // Chromium, tmux), so run at least two at once even where Vitest's default (one fewer
    // than the CPUs) would give a 2-core CI machine a single worker.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
