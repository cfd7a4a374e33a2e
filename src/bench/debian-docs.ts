/**
 * A Debian documentation package's HTML pages, for benchmarks and checks that need real pages no
 * one here wrote: the first of `packages` apt knows is downloaded with `apt-get download` into a
 * temporary folder and unpacked with `dpkg-deb -x` (nothing is committed or installed). Callers
 * print one "skipped" line when it fails.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";

const MB = 1_000_000;

export type Acquired = { ok: true; description: string; root: string; files: string[] } | { ok: false; reason: string };

interface CommandResult {
  ok: boolean;
  stdout: string;
  /** Why it failed, in one line. */
  why: string;
  ms: number;
}

function run(command: string, args: readonly string[], cwd: string, timeoutMs: number): CommandResult {
  const started = performance.now();
  const result = spawnSync(command, args, {
    cwd,
    encoding: "utf8",
    timeout: timeoutMs,
    env: { ...process.env, LC_ALL: "C", DEBIAN_FRONTEND: "noninteractive" },
    maxBuffer: 64 * 1024 * 1024,
  });
  const ms = performance.now() - started;
  const stdout = result.stdout ?? "";
  if (result.error) {
    const code = (result.error as NodeJS.ErrnoException).code;
    const why =
      code === "ENOENT"
        ? `${command} not found`
        : code === "ETIMEDOUT"
          ? `${command} timed out after ${(timeoutMs / 1000).toFixed(0)} s`
          : `${command}: ${result.error.message}`;
    return { ok: false, stdout, why, ms };
  }
  if (result.status !== 0) {
    const lines = (result.stderr ?? "")
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line.length > 0 && !line.startsWith("W:"));
    const last = lines.find((line) => line.startsWith("E:")) ?? lines[lines.length - 1] ?? "";
    const status = result.status === null ? `signal ${result.signal ?? "?"}` : `exit ${result.status}`;
    return { ok: false, stdout, why: `${command} ${args[0] ?? ""} failed (${status}${last ? `: ${last}` : ""})`, ms };
  }
  return { ok: true, stdout, why: "", ms };
}

/** Candidate version of each package apt-cache knows (packages it does not know are absent). */
function candidates(workDir: string, packages: readonly string[]): { known: Map<string, string>; failure?: string } {
  const policy = run("apt-cache", ["policy", ...packages], workDir, 30_000);
  if (!policy.ok) return { known: new Map(), failure: policy.why };
  const known = new Map<string, string>();
  let current = "";
  for (const line of policy.stdout.split("\n")) {
    const header = /^(\S+):$/.exec(line);
    if (header?.[1]) {
      current = header[1];
      continue;
    }
    const candidate = /^\s+Candidate:\s+(\S+)/.exec(line);
    if (current && candidate?.[1] && candidate[1] !== "(none)") known.set(current, candidate[1]);
  }
  return { known };
}

function htmlFiles(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      // Regular files only: symlinks inside a package would count a page twice.
      else if (entry.isFile() && entry.name.endsWith(".html")) found.push(path);
    }
  };
  walk(root);
  return found.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

export function acquireDebianDocs(workDir: string, packages: readonly string[]): Acquired {
  const steps: string[] = [];
  let { known, failure } = candidates(workDir, packages);
  if (failure) return { ok: false, reason: failure };
  if (known.size === 0) {
    const update = run("apt-get", ["update", "-qq"], workDir, 180_000);
    steps.push(
      `apt-cache knew none of ${packages.join(", ")}, so ran apt-get update (${(update.ms / 1000).toFixed(1)} s, ${update.ok ? "ok" : update.why})`,
    );
    if (!update.ok) return { ok: false, reason: `${steps.join("; ")}` };
    ({ known, failure } = candidates(workDir, packages));
    if (failure) return { ok: false, reason: failure };
  } else {
    steps.push("apt-cache policy found a candidate, no apt-get update");
  }
  const name = packages.find((pkg) => known.has(pkg));
  if (!name) return { ok: false, reason: `apt knows none of ${packages.join(", ")}` };
  if (name !== packages[0]) steps.push(`${packages[0]} unknown to apt, fell back to ${name}`);

  const download = run("apt-get", ["download", "-qq", name], workDir, 120_000);
  if (!download.ok) return { ok: false, reason: download.why };
  const deb = readdirSync(workDir).find((file) => file.endsWith(".deb"));
  if (!deb) return { ok: false, reason: `apt-get download ${name} left no .deb` };
  const debBytes = statSync(join(workDir, deb)).size;
  steps.push(
    `apt-get download ${name} ${known.get(name)} (${(debBytes / MB).toFixed(1)} MB, ${(download.ms / 1000).toFixed(1)} s)`,
  );

  const root = join(workDir, "unpacked");
  const unpack = run("dpkg-deb", ["-x", deb, root], workDir, 120_000);
  if (!unpack.ok) return { ok: false, reason: unpack.why };
  const files = htmlFiles(root);
  steps.push(`dpkg-deb -x: ${files.length} .html files`);
  if (files.length === 0) return { ok: false, reason: `${name} holds no .html files` };
  return { ok: true, description: steps.join("; "), root, files };
}
