/**
 * The terminal UI off a terminal (the built binary with stdin and stdout not a TTY): `assay tui`
 * prints the runs list instead of the interface, `assay tui --run N` follows run N, driven by
 * another process, in plain progress lines until it ends, and `assay run --tui` runs as plain
 * `assay run` does. No escape sequence reaches the output.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BIN, EXAMPLE_CORPUS, REPO_ROOT, runCli } from "../../testing/cli.js";
import { tempDir } from "../../testing/temp-dir.js";

const QUESTION = "When did lithium-ion batteries become commercial and who sold them first?";
const ESC = "\u001b";

describe("assay tui off a terminal", () => {
  const home = tempDir("assay-tui-plain-");

  afterAll(() => {
    home.cleanup();
  });

  it("follows a run that another process drives, in plain lines, until it ends", async () => {
    // `assay run` drives run 1; the follower starts once the run is recorded and going.
    const driver = spawn(
      process.execPath,
      [BIN, "run", QUESTION, "--corpus", EXAMPLE_CORPUS, "--strategy", "investigative"],
      {
        cwd: REPO_ROOT,
        env: { PATH: process.env.PATH ?? "", HOME: home.path, ASSAY_HOME: home.path, NO_COLOR: "1" },
        stdio: ["ignore", "ignore", "pipe"],
      },
    );
    const driven = new Promise<number | null>((resolve) => driver.on("close", (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      let stderr = "";
      driver.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
        if (stderr.includes("run started:")) resolve();
      });
      driver.on("close", () => reject(new Error(`assay run ended before its run started: ${stderr}`)));
    });

    const followed = await runCli(["tui", "--run", "1"], { home: home.path });
    expect(await driven).toBe(0);
    expect(followed.code, followed.stderr).toBe(0);
    // It read the run's end from the store: it did not stop while the run went on.
    expect(followed.stdout).toBe("Run 1 finished: synthesized published.\n");
    expect(followed.stderr).toMatch(/^ +\d+\.\ds {2}run started: When did lithium-ion/m);
    expect(followed.stderr).toMatch(/^ +\d+\.\ds {2}source persisted: /m);
    expect(followed.stderr).toMatch(/^ +\d+\.\ds {2}stage: publication$/m);
    expect(followed.stdout + followed.stderr).not.toContain(ESC);
  });

  it("prints the runs list instead of the interface", async () => {
    const listed = await runCli(["tui"], { home: home.path });
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stderr).toBe("assay tui: not an interactive terminal; here is the runs list instead.\n");
    const [header, ...rows] = listed.stdout.trimEnd().split("\n");
    expect(header).toMatch(/^ID +STATUS +REPORT +CREATED +WORKER +QUESTION$/);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatch(/^1 +finished +synthesized +\d{4}-\d\d-\d\d \d\d:\d\d:\d\d .*When did lithium-ion/);
    expect(listed.stdout).not.toContain(ESC);
  });

  it("runs `assay run --tui` as plain `assay run`", async () => {
    const run = await runCli(["run", QUESTION, "--corpus", EXAMPLE_CORPUS, "--tui"], { home: home.path });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Run 2 finished: synthesized published\.\n {2}\S+report\.md\n/);
    expect(run.stderr).toMatch(/^ +\d+\.\ds {2}run started: /m);
    expect(run.stdout + run.stderr).not.toContain(ESC);
  });

  it("refuses to follow a run that does not exist", async () => {
    const missing = await runCli(["tui", "--run", "99"], { home: home.path });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("there is no run 99");
    expect(missing.stdout).toBe("");
  });

  it("refuses a --corpus-root that does not exist", async () => {
    const refused = await runCli(["tui", "--corpus-root", join(home.path, "nowhere")], { home: home.path });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("--corpus-root");
    expect(refused.stderr).toContain("does not exist");
  });
});
