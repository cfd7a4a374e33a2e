/**
 * A private tmux server for terminal UI tests: real panes of a chosen size running a real
 * process, keys sent as a person would type them, and the screen read back as rows (optionally
 * with its escape sequences). The server listens on a socket in a temporary folder, reads no
 * user configuration, keeps dead panes (so that their exit status can be read) and is killed
 * by `kill()`. Tests skip with a notice where tmux is absent; in CI (env CI set) an absent tmux
 * fails the suite instead.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { IN_CI } from "./chromium.js";

export { IN_CI };

/** The tmux executable (ASSAY_TMUX, or `tmux` on the PATH). */
export const TMUX = process.env.ASSAY_TMUX || "tmux";
/** Whether tmux runs here. */
export const TMUX_AVAILABLE = spawnSync(TMUX, ["-V"], { stdio: "ignore" }).status === 0;

/** Warns (outside CI) that the terminal tests of `what` are skipped. */
export function noticeMissingTmux(what: string): void {
  if (!TMUX_AVAILABLE && !IN_CI) {
    console.warn(`NOTICE: skipping ${what}: ${TMUX} is absent (apt-get install tmux, or set ASSAY_TMUX).`);
  }
}

/** The error a CI run reports when tmux is absent. */
export function missingTmuxError(): Error {
  return new Error(`tmux is required in CI: apt-get install tmux (looked for ${TMUX}; set ASSAY_TMUX)`);
}

/** How a pane's process ended, once it has. */
export interface PaneState {
  dead: boolean;
  /** The exit status (undefined while alive, or when it died of a signal). */
  status: number | undefined;
}

/** What a new pane runs: `command` (no shell) in `cwd`, with exactly `env` as its environment. */
export interface PaneOptions {
  command: readonly string[];
  cwd: string;
  env: Record<string, string>;
  columns?: number;
  rows?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One private tmux server; each session of it is one window with one pane. */
export class TmuxServer {
  private readonly socket: string;
  private readonly config: string;

  /** A server whose socket and configuration live in `dir` (started by the first `start`). */
  constructor(dir: string) {
    this.socket = join(dir, "tmux.sock");
    this.config = join(dir, "tmux.conf");
    // Dead panes stay (their exit status is readable); no status line takes a row of the window.
    writeFileSync(this.config, "set -g remain-on-exit on\nset -g status off\nset -g history-limit 0\n");
  }

  /** Runs a tmux command against this server and returns its stdout. */
  tmux(args: readonly string[]): string {
    return execFileSync(TMUX, ["-u", "-S", this.socket, "-f", this.config, ...args], {
      encoding: "utf8",
      // The client's own environment: not the caller's TMUX (nesting) nor its CI.
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/", LANG: "C.UTF-8" },
      stdio: ["ignore", "pipe", "pipe"],
    });
  }

  /** Opens session `name`: a window of `columns`×`rows` (80×24) running `command` with `env` only. */
  start(name: string, options: PaneOptions): void {
    const environment = Object.entries(options.env).map(([key, value]) => `${key}=${value}`);
    this.tmux([
      "new-session",
      "-d",
      "-s",
      name,
      "-x",
      String(options.columns ?? 80),
      "-y",
      String(options.rows ?? 24),
      "-c",
      options.cwd,
      "--",
      // `env -i`: the pane's process sees exactly `env`, not the server's environment.
      "env",
      "-i",
      ...environment,
      ...options.command,
    ]);
  }

  /** The screen's rows, trailing blanks trimmed; `escapes` keeps colours and attributes as SGR sequences. */
  capture(name: string, options: { escapes?: boolean; joinWrapped?: boolean } = {}): string[] {
    const flags = ["-p", ...(options.escapes ? ["-e"] : []), ...(options.joinWrapped ? ["-J"] : [])];
    const text = this.tmux(["capture-pane", ...flags, "-t", name]);
    return text.replace(/\n$/, "").split("\n");
  }

  /** Sends tmux key names (`Enter`, `Tab`, `Right`, `C-c`, `q`), one write each, `pauseMs` apart. */
  async keys(name: string, keys: readonly string[], pauseMs = 150): Promise<void> {
    for (const key of keys) {
      this.tmux(["send-keys", "-t", name, key]);
      await sleep(pauseMs);
    }
  }

  /** Types `text` literally, as one write (as a paste would arrive). */
  type(name: string, text: string): void {
    this.tmux(["send-keys", "-t", name, "-l", text]);
  }

  /** Resizes session `name`'s window. */
  resize(name: string, columns: number, rows: number): void {
    this.tmux(["resize-window", "-t", name, "-x", String(columns), "-y", String(rows)]);
  }

  /** Whether the pane's process has ended, and its exit status. */
  pane(name: string): PaneState {
    const [dead = "0", status = ""] = this.tmux([
      "display-message",
      "-p",
      "-t",
      name,
      "#{pane_dead} #{pane_dead_status}",
    ])
      .trim()
      .split(" ");
    return { dead: dead === "1", status: status === "" ? undefined : Number(status) };
  }

  /** Polls the screen every 100 ms until `accept(rows)`; throws with the last screen after `timeoutMs`. */
  async waitFor(
    name: string,
    accept: (rows: string[]) => boolean,
    what: string,
    timeoutMs = 20_000,
    each?: (rows: string[]) => void,
  ): Promise<string[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const rows = this.capture(name);
      each?.(rows);
      if (accept(rows)) return rows;
      if (Date.now() > deadline)
        throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; the screen:\n${rows.join("\n")}`);
      await sleep(100);
    }
  }

  /**
   * Waits until the pane's process has exited and returns its exit status. tmux may miss the
   * SIGCHLD of a process that exits while it runs its utmp helper (the pane is dead, but its
   * process is left unreaped with no status); a SIGCHLD sent to the server makes it reap it.
   */
  async waitForExit(name: string, timeoutMs = 10_000): Promise<number | undefined> {
    const deadline = Date.now() + timeoutMs;
    const server = Number(this.tmux(["display-message", "-p", "#{pid}"]).trim());
    for (;;) {
      const state = this.pane(name);
      if (state.dead && state.status !== undefined) return state.status;
      if (state.dead && Date.now() > deadline) return undefined;
      if (Date.now() > deadline)
        throw new Error(`the pane ${name} is still running after ${timeoutMs} ms:\n${this.capture(name).join("\n")}`);
      if (state.dead) process.kill(server, "SIGCHLD");
      await sleep(100);
    }
  }

  /** Kills the server, its sessions and their processes (ignores a server that is not running). */
  kill(): void {
    try {
      this.tmux(["kill-server"]);
    } catch {
      // Not started, or already gone.
    }
  }
}
