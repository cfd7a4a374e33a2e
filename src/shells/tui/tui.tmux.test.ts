/**
 * The terminal UI in a real terminal: the built `assay tui` in a private tmux server's 80×24
 * pane, driven with keys as a person types them and read back from the screen. Starts an
 * investigative research from the form and follows it live (budget bars, sources, the frontier
 * and claims) to its published report, redraws at a new size, reads the report, the sources
 * ledger and a source; asks a follow-up from a finished run's report and reads the new run's
 * report and what it changes; checks that NO_COLOR leaves no colour on the screen; and that
 * Ctrl-C quits at once while the research it started goes on to its report in its own process.
 * Saves captures under artifacts/tui/ (gitignored). Skipped with a notice where tmux is absent;
 * in CI an absent tmux fails the suite instead.
 */
import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, EXAMPLE_CORPUS, REPO_ROOT, runCli } from "../../testing/cli.js";
import { tempDir } from "../../testing/temp-dir.js";
import { IN_CI, missingTmuxError, noticeMissingTmux, TMUX_AVAILABLE, TmuxServer } from "../../testing/tmux.js";

noticeMissingTmux("the terminal UI's tmux tests");

const CAPTURES = join(REPO_ROOT, "artifacts", "tui");
const QUESTION = "When did lithium-ion batteries become commercial and who sold them first?";
const BUDGETS = ["Searches", "Reads", "Sources", "Turns", "Seconds"];
const LIVE_FOOTER = "Enter report · Esc back · q quit";
const LIST_FOOTER = "↑↓ select · Enter open · n new research · q quit";

/** Whether `footer` is the last row drawn, on the screen's last row (or the one above it). */
const atBottom = (rows: readonly string[], footer: string): boolean => {
  const last = rows.findLastIndex((row) => row.trim() !== "");
  return rows[last] === footer && last >= rows.length - 2;
};

/** Columns a captured row takes (every character the UI draws is one column wide). */
const width = (row: string): number => [...row.trimEnd()].length;

const ESC = "\u001b";
/** The SGR sequences of `screen` that set a foreground colour (30–37, 90–97, 38;5;n, 38;2;r;g;b). */
function foregroundColours(screen: string): string[] {
  const found: string[] = [];
  for (const match of screen.matchAll(new RegExp(`${ESC}\\[([0-9;:]*)m`, "g"))) {
    const params = (match[1] || "0").split(/[;:]/).map(Number);
    for (let index = 0; index < params.length; index++) {
      const param = params[index] ?? 0;
      if (param === 48) {
        index += params[index + 1] === 5 ? 2 : 4; // a background colour's own arguments
      } else if (param === 38 || (param >= 30 && param <= 37) || (param >= 90 && param <= 97)) {
        found.push(JSON.stringify(match[0]));
        break;
      }
    }
  }
  return found;
}

interface RunRow {
  id: number;
  status: string;
  artifactStatus: string;
  question: string;
  strategy: string;
  scope: string;
}

describe.runIf(!TMUX_AVAILABLE && IN_CI)("terminal UI in a real terminal: tmux", () => {
  it("is installed", () => {
    throw missingTmuxError();
  });
});

describe.skipIf(!TMUX_AVAILABLE)("terminal UI in a real terminal (tmux; skipped when absent outside CI)", () => {
  const home = tempDir("assay-tui-");
  const corpora = join(home.path, "corpora");
  const tmux = new TmuxServer(home.path);
  /** A finished run: the one the first test starts, or (when that test did not run) one `assay run` records. */
  let finished: number | undefined;

  beforeAll(() => {
    cpSync(EXAMPLE_CORPUS, join(corpora, "batteries"), { recursive: true });
    mkdirSync(CAPTURES, { recursive: true });
  });

  async function finishedRun(): Promise<number> {
    if (finished !== undefined) return finished;
    const run = await runCli(["run", QUESTION, "--corpus", join(corpora, "batteries"), "--json", "--quiet"], {
      home: home.path,
    });
    expect(run.code, run.stderr).toBe(0);
    finished = (JSON.parse(run.stdout) as { runId: number }).runId;
    return finished;
  }

  afterAll(() => {
    tmux.kill();
    home.cleanup();
  });

  /** Opens `assay tui ...args` in session `name`: 80×24, the environment given and nothing else (no CI). */
  function openTui(name: string, args: readonly string[], env: Record<string, string> = {}): void {
    tmux.start(name, {
      command: [process.execPath, BIN, "tui", ...args],
      cwd: REPO_ROOT,
      env: {
        PATH: process.env.PATH ?? "",
        HOME: home.path,
        ASSAY_HOME: home.path,
        TERM: "xterm-256color",
        LANG: "C.UTF-8",
        ...env,
      },
    });
  }

  /** From the runs list: n, the question, Tab, Tab, Right, Right (investigative), Enter; waits for each step. */
  async function startResearch(name: string): Promise<void> {
    const has = (text: string) => (rows: string[]) => rows.some((row) => row.includes(text));
    await tmux.waitFor(name, (rows) => /^Assay · runs \(\d+\)$/.test(rows[0] ?? ""), "the runs list");
    await tmux.keys(name, ["n"]);
    await tmux.waitFor(name, (rows) => rows[0] === "New research" && has("› Question")(rows), "the form");
    tmux.type(name, QUESTION);
    await tmux.waitFor(name, has("who sold them first?"), "the typed question");
    await tmux.keys(name, ["Tab"]);
    await tmux.waitFor(name, has("› Folder    ◀ corpora/batteries ▶"), "the folder field");
    await tmux.keys(name, ["Tab"]);
    await tmux.waitFor(name, has("› Strategy  ◀ pipeline ▶"), "the strategy field");
    await tmux.keys(name, ["Right"]);
    await tmux.waitFor(name, has("◀ simple ▶"), "the second strategy");
    await tmux.keys(name, ["Right"]);
    await tmux.waitFor(name, has("› Strategy  ◀ investigative ▶"), "the investigative strategy");
    await tmux.keys(name, ["Enter"]);
  }

  it("starts an investigative research from the form, follows it live, redraws on resize and reads the report", async () => {
    openTui("live", ["--corpus-root", corpora]);
    await startResearch("live");

    // The live view until the report is published; the latest capture while it runs is kept.
    let midRun: string[] | undefined;
    // The report is switched in just before the run's status is written: wait for both.
    const final = await tmux.waitFor(
      "live",
      (rows) => rows.some((row) => row.startsWith("Report published")) && (rows[0] ?? "").includes(" · finished · "),
      "the published report of the finished run",
      60_000,
      (rows) => {
        if (/^Run \d+ · running · /.test(rows[0] ?? "") && rows.some((row) => row.startsWith("Frontier (")))
          midRun = rows;
      },
    );
    writeFileSync(join(CAPTURES, "live-final-80x24.txt"), `${final.join("\n")}\n`);
    if (midRun) writeFileSync(join(CAPTURES, "live-mid-run-80x24.txt"), `${midRun.join("\n")}\n`);

    expect(midRun, "a capture while the run was running").toBeDefined();
    for (const rows of [midRun ?? [], final]) {
      expect(rows[0]).toMatch(/^Run \d+ · (running|finished) · investigative · corpora\/batteries · \d+ s$/);
      expect(rows[1]).toBe(QUESTION);
      for (const label of BUDGETS)
        expect(rows, label).toContainEqual(expect.stringMatching(new RegExp(`^${label} +[█░]{10,40} \\d+/\\d+$`)));
      expect(rows).toContainEqual(expect.stringMatching(/^Sources \(\d+\)$/));
      expect(rows).toContainEqual(expect.stringMatching(/^Frontier \(\d+\)/));
    }
    const runId = Number(/^Run (\d+) /.exec(final[0] ?? "")?.[1]);
    expect(final[0]).toContain(" · finished · ");
    expect(final[2]).toMatch(/^Report published \([a-z-]+\) — Enter to read$/);
    expect(final[3]).toBe("Stages: investigation › publication");
    expect(
      final.some((row) => /^Searches +█+░* \d+\/40$/.test(row)),
      "a filled Searches bar",
    ).toBe(true);
    expect(Number(/^Sources \((\d+)\)$/m.exec(final.join("\n"))?.[1])).toBeGreaterThan(0);
    expect(final).toContainEqual(expect.stringMatching(/^Frontier \(\d+\) · claims: .*(VERIFIED|UNVERIFIED) \d+/));
    expect(final).toContainEqual(expect.stringMatching(/✓ resolved /));
    // The frame fits 80×24: the header on row 1, the footer on row 24, no row the terminal had to wrap.
    expect(final).toHaveLength(24);
    expect(atBottom(final, LIVE_FOOTER)).toBe(true);
    expect(Math.max(...tmux.capture("live", { joinWrapped: true }).map(width))).toBeLessThanOrEqual(80);

    // Wider and taller: redrawn for 100×30, with nothing left over from the 80×24 frame.
    tmux.resize("live", 100, 30);
    const wide = await tmux.waitFor(
      "live",
      (rows) =>
        rows.length === 30 &&
        rows[0] === final[0] &&
        atBottom(rows, LIVE_FOOTER) &&
        rows.some((row) => width(row) > 80),
      "the view redrawn at 100×30",
    );
    writeFileSync(join(CAPTURES, "live-final-100x30.txt"), `${wide.join("\n")}\n`);
    expect(wide[0]).toBe(final[0]);
    expect(wide.filter((row) => row.startsWith("Run "))).toHaveLength(1);
    expect(wide.filter((row) => row.startsWith("Searches "))).toHaveLength(1);
    expect(wide.filter((row) => row.includes(LIVE_FOOTER))).toHaveLength(1);
    expect(Math.max(...tmux.capture("live", { joinWrapped: true }).map(width))).toBeLessThanOrEqual(100);
    const footer = wide.lastIndexOf(LIVE_FOOTER);
    const lastContent = wide.findLastIndex((row, index) => index < footer && row.trim() !== "");
    expect(wide.slice(lastContent + 1, footer).every((row) => row === "")).toBe(true);

    // Back to 80×24 (tmux first rewraps the wide rows; the UI then clears them and redraws): the same frame.
    tmux.resize("live", 80, 24);
    const narrow = await tmux.waitFor(
      "live",
      (rows) => rows.length === 24 && rows[0] === final[0] && atBottom(rows, LIVE_FOOTER),
      "the view redrawn at 80×24",
    );
    expect(narrow).toEqual(final);
    expect(Math.max(...tmux.capture("live", { joinWrapped: true }).map(width))).toBeLessThanOrEqual(80);

    // The report reader, the sources ledger, a source.
    await tmux.keys("live", ["Enter"]);
    const report = await tmux.waitFor(
      "live",
      (rows) => /^ Report +Sources \(\d+\) +version /.test(rows[0] ?? "") && rows.some((row) => row.startsWith("# ")),
      "the report reader",
    );
    expect(report[1]).toBe(`# ${QUESTION}`);
    writeFileSync(join(CAPTURES, "report-80x24.txt"), `${report.join("\n")}\n`);
    await tmux.keys("live", ["Tab"]);
    const ledger = await tmux.waitFor("live", (rows) => (rows[1] ?? "").startsWith("›[1] "), "the sources ledger");
    expect(ledger.filter((row) => /^ ?›?\[\d+\] /.test(row)).length).toBeGreaterThan(1);
    await tmux.keys("live", ["Enter"]);
    const source = await tmux.waitFor(
      "live",
      (rows) => rows.some((row) => /^\[passage \d+(, [^\]·]+)?( · quoted in the report)?\] /.test(row)),
      "a source's passages",
    );
    expect(source[0]).toMatch(/^\[1\] \S/);
    // A cited source opens at the first passage its report quotes, marked.
    expect(source[2]).toMatch(/^\[passage \d+(, [^\]·]+)? · quoted in the report\] /);
    writeFileSync(join(CAPTURES, "source-80x24.txt"), `${source.join("\n")}\n`);

    await tmux.keys("live", ["q"]);
    expect(await tmux.waitForExit("live", 5_000)).toBe(0);
    const runs = await runCli(["runs", "list", "--json"], { home: home.path });
    const row = (JSON.parse(runs.stdout) as RunRow[]).find((candidate) => candidate.id === runId);
    expect(row).toMatchObject({ status: "finished", strategy: "investigative", question: QUESTION });
    finished = runId;
  }, 120_000);

  it("draws colours only without NO_COLOR", async () => {
    const runId = await finishedRun();
    openTui("colour", ["--run", String(runId)]);
    openTui("no-colour", ["--run", String(runId)], { NO_COLOR: "1" });
    const published = (rows: string[]) => rows.some((row) => row.startsWith("Report published"));
    const listed = (rows: string[]) =>
      /^Assay · runs \(\d+\)$/.test(rows[0] ?? "") &&
      rows.some((row) => / finished /.test(row)) &&
      rows.includes(LIST_FOOTER);
    for (const name of ["colour", "no-colour"]) await tmux.waitFor(name, published, `run ${runId}'s live view`);
    const live = {
      colour: tmux.capture("colour", { escapes: true }).join("\n"),
      noColour: tmux.capture("no-colour", { escapes: true }).join("\n"),
    };
    for (const name of ["colour", "no-colour"]) await tmux.keys(name, ["Escape"]);
    for (const name of ["colour", "no-colour"]) await tmux.waitFor(name, listed, "the runs list");
    const list = {
      colour: tmux.capture("colour", { escapes: true }).join("\n"),
      noColour: tmux.capture("no-colour", { escapes: true }).join("\n"),
    };
    writeFileSync(join(CAPTURES, "live-colour-escapes.txt"), `${live.colour}\n`);
    writeFileSync(join(CAPTURES, "live-no-colour-escapes.txt"), `${live.noColour}\n`);

    expect(foregroundColours(live.colour).length, "colours in the live view").toBeGreaterThan(0);
    expect(foregroundColours(list.colour).length, "colours in the runs list").toBeGreaterThan(0);
    expect(foregroundColours(live.noColour), "NO_COLOR live view").toEqual([]);
    expect(foregroundColours(list.noColour), "NO_COLOR runs list").toEqual([]);
    // The same text either way.
    const text = (screen: string) => screen.replace(new RegExp(`${ESC}\\[[0-9;:]*m`, "g"), "");
    expect(text(live.noColour)).toBe(text(live.colour));
    for (const name of ["colour", "no-colour"]) {
      await tmux.keys(name, ["q"]);
      expect(await tmux.waitForExit(name, 5_000)).toBe(0);
    }
  }, 60_000);

  it("asks a follow-up from a finished run's report and reads the new run's report when it has finished", async () => {
    const runId = await finishedRun();
    const FOLLOW_UP = "and what about sodium-ion batteries?";
    const has = (text: string) => (rows: string[]) => rows.some((row) => row.includes(text));
    openTui("rounds", ["--run", String(runId)]);
    await tmux.waitFor("rounds", (rows) => rows.includes(LIVE_FOOTER), `run ${runId}'s live view, readable`);
    await tmux.keys("rounds", ["Enter"]);
    await tmux.waitFor("rounds", has("f ask · r revise · d diff"), "the report reader");
    await tmux.keys("rounds", ["f"]);
    await tmux.waitFor("rounds", has(`Follow-up of run ${runId}:`), "the follow-up prompt");
    tmux.type("rounds", FOLLOW_UP);
    await tmux.waitFor("rounds", has(`Follow-up of run ${runId}: ${FOLLOW_UP}`), "the typed follow-up");
    await tmux.keys("rounds", ["Enter"]);
    // The new run's live view, then (once it has finished, in its own process) its report, opened by itself.
    await tmux.waitFor(
      "rounds",
      (rows) => /^ Report +Sources \(\d+\) +version /.test(rows[0] ?? "") && rows[1] === `# ${FOLLOW_UP}`,
      "the follow-up's report",
      90_000,
    );
    // n: the first section, what the follow-up adds to its parent's report.
    await tmux.keys("rounds", ["n"]);
    const adds = await tmux.waitFor(
      "rounds",
      (rows) => rows[1] === `## What this adds to run ${runId}'s report`,
      "the section on what the follow-up adds",
    );
    writeFileSync(join(CAPTURES, "follow-up-report-80x24.txt"), `${adds.join("\n")}\n`);
    await tmux.keys("rounds", ["d"]);
    const changes = await tmux.waitFor("rounds", has(`From run ${runId} to run `), "the changes");
    const child = Number(new RegExp(`^From run ${runId} to run (\\d+):$`, "m").exec(changes.join("\n"))?.[1]);
    expect(child).toBeGreaterThan(runId);
    expect(changes[0]).toBe(`Changes · run ${child}`);
    writeFileSync(join(CAPTURES, "follow-up-changes-80x24.txt"), `${changes.join("\n")}\n`);
    expect(Math.max(...tmux.capture("rounds", { joinWrapped: true }).map(width))).toBeLessThanOrEqual(80);
    await tmux.keys("rounds", ["Escape"]);
    await tmux.waitFor("rounds", has("f ask · r revise · d diff"), "back in the report reader");
    await tmux.keys("rounds", ["Escape"]);
    const live = await tmux.waitFor(
      "rounds",
      (rows) => rows.includes(LIVE_FOOTER) && (rows[0] ?? "").startsWith(`Run ${child} · finished · `),
      "the follow-up's live view",
    );
    expect(live[1]).toBe(`↳ ${runId} ${FOLLOW_UP}`);
    await tmux.keys("rounds", ["Escape"]);
    const list = await tmux.waitFor("rounds", (rows) => rows.includes(LIST_FOOTER), "the runs list");
    expect(list).toContainEqual(
      expect.stringMatching(new RegExp(`^.\\s+${child} +finished .* ↳ ${runId} and what about`)),
    );
    await tmux.keys("rounds", ["q"]);
    expect(await tmux.waitForExit("rounds", 5_000)).toBe(0);
    const shown = await runCli(["runs", "show", String(child)], { home: home.path });
    expect(shown.stdout).toMatch(new RegExp(`follow-up of run ${runId}`));
  }, 120_000);

  it("quits at once on Ctrl-C while the research it started goes on to its report", async () => {
    openTui("interrupt", ["--corpus-root", corpora]);
    await startResearch("interrupt");
    const running = await tmux.waitFor(
      "interrupt",
      (rows) => /^Run \d+ · running · investigative · /.test(rows[0] ?? ""),
      "the run running",
      30_000,
    );
    const runId = Number(/^Run (\d+) /.exec(running[0] ?? "")?.[1]);
    await tmux.keys("interrupt", ["C-c"]);
    // The wait's limit is a guard against a hang, not the assertion: the interface exits 0.
    expect(await tmux.waitForExit("interrupt", 15_000)).toBe(0);

    const deadline = Date.now() + 45_000;
    let row: RunRow | undefined;
    for (;;) {
      const runs = await runCli(["runs", "list", "--json"], { home: home.path });
      expect(runs.code, runs.stderr).toBe(0);
      row = (JSON.parse(runs.stdout) as RunRow[]).find((candidate) => candidate.id === runId);
      if (row?.status !== "running" || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(row).toMatchObject({ status: "finished", strategy: "investigative", scope: "corpora/batteries" });
    expect(row?.artifactStatus).not.toBe("");
  }, 120_000);
});
