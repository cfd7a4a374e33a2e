/**
 * Extraction throughput of extractHtml (jsdom + Readability) over real HTML pages that no one
 * here wrote: the HTML manual of Debian's PostgreSQL documentation package, downloaded at bench
 * time with `apt-get download` into a temporary folder and unpacked with `dpkg-deb -x` (nothing is
 * committed or installed). Where apt or dpkg is missing, or the download fails, it prints one
 * "skipped" line and returns.
 *
 * Environment: ASSAY_BENCH_EXTRACT_PAGES (pages to extract, default 100, at most every .html file
 * of the package).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { performance } from "node:perf_hooks";
import { extractHtml } from "../adapters/extract/html-extractor.js";

/** Packages tried in this order; the first one apt knows is used. All ship a large HTML manual. */
const PACKAGES = [
  "postgresql-doc-15",
  "postgresql-doc-16",
  "postgresql-doc-17",
  "postgresql-doc-14",
  "postgresql-doc-13",
  "python3.11-doc",
  "python3.12-doc",
  "python3.13-doc",
] as const;
/**
 * 100, not 400: extractHtml takes roughly 50-90 ms per page of this manual on one core here, so
 * six passes (1 warm-up + 5) over 400 pages would take about three minutes; 100 keep it under ~60 s.
 */
const DEFAULT_PAGES = 100;
/** The page count first asked for; the printout says how long that would have taken. */
const SUGGESTED_PAGES = 400;
const PASSES = 5;
/** If the warm-up pass alone takes longer than this, the measured passes use fewer pages. */
const WARMUP_BUDGET_MS = 12_000;
const MB = 1_000_000;

interface Page {
  path: string;
  name: string;
  html: string;
  bytes: number;
}

type Acquired = { ok: true; description: string; root: string; files: string[] } | { ok: false; reason: string };

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
function candidates(workDir: string): { known: Map<string, string>; failure?: string } {
  const policy = run("apt-cache", ["policy", ...PACKAGES], workDir, 30_000);
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

function acquire(workDir: string): Acquired {
  const steps: string[] = [];
  let { known, failure } = candidates(workDir);
  if (failure) return { ok: false, reason: failure };
  if (known.size === 0) {
    const update = run("apt-get", ["update", "-qq"], workDir, 180_000);
    steps.push(
      `apt-cache knew none of ${PACKAGES.join(", ")}, so ran apt-get update (${(update.ms / 1000).toFixed(1)} s, ${update.ok ? "ok" : update.why})`,
    );
    if (!update.ok) return { ok: false, reason: `${steps.join("; ")}` };
    ({ known, failure } = candidates(workDir));
    if (failure) return { ok: false, reason: failure };
  } else {
    steps.push("apt-cache policy found a candidate, no apt-get update");
  }
  const name = PACKAGES.find((pkg) => known.has(pkg));
  if (!name) return { ok: false, reason: `apt knows none of ${PACKAGES.join(", ")}` };
  if (name !== PACKAGES[0]) steps.push(`${PACKAGES[0]} unknown to apt, fell back to ${name}`);

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

/** `count` files spread evenly over the sorted list (deterministic; not just the first letters of the alphabet). */
function pick<T>(items: readonly T[], count: number): T[] {
  if (count >= items.length) return [...items];
  return Array.from({ length: count }, (_, index) => items[Math.floor((index * items.length) / count)]).filter(
    (item): item is T => item !== undefined,
  );
}

function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  // Nearest rank.
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length)));
  return sorted[rank - 1] ?? Number.NaN;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const count = sorted.length;
  if (count === 0) return Number.NaN;
  const middle = Math.floor(count / 2);
  return count % 2 === 1 ? (sorted[middle] ?? Number.NaN) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

interface Pass {
  totalMs: number;
  perPageMs: number[];
  textChars: number;
  textBytes: number;
}

/**
 * One pass, sequential. Each page's time covers extractHtml plus one turn of the event loop:
 * jsdom's window.close() leaves part of its teardown to a later task, and a loop that never
 * yields keeps every page's DOM alive (several MB per page, measured), so it would time a
 * growing heap rather than extraction. The Host extracts between awaits, as this does.
 */
async function extractAll(pages: readonly Page[]): Promise<Pass> {
  const perPageMs: number[] = [];
  let textChars = 0;
  let textBytes = 0;
  const started = performance.now();
  for (const page of pages) {
    const before = performance.now();
    const doc = extractHtml(page.html, page.name, `https://corpus.invalid/${page.path}`);
    await new Promise<void>((resolve) => setImmediate(resolve));
    perPageMs.push(performance.now() - before);
    textChars += doc.text.length;
    textBytes += Buffer.byteLength(doc.text, "utf8");
  }
  return { totalMs: performance.now() - started, perPageMs, textChars, textBytes };
}

const fixed = (value: number, digits = 2): string => (Number.isFinite(value) ? value.toFixed(digits) : "n/a");

function printRows(rows: readonly (readonly string[])[]): void {
  const head = ["", "figure", "pages", "passes", "median", "min", "max", "unit"];
  const all = [head, ...rows];
  const widths = head.map((_, column) => Math.max(...all.map((cell) => (cell[column] ?? "").length)));
  const numeric = new Set([2, 3, 4, 5, 6]);
  const line = (cell: readonly string[]): string =>
    cell
      .map((value, column) =>
        numeric.has(column) ? value.padStart(widths[column] ?? 0) : value.padEnd(widths[column] ?? 0),
      )
      .join("  ")
      .trimEnd();
  console.log(line(head));
  console.log(widths.map((width) => "-".repeat(width)).join("  "));
  for (const cell of rows) console.log(line(cell));
}

/** Prints the extraction throughput figures; never throws for a missing or failing apt/dpkg. */
export async function extractionBench(tempRoot: string): Promise<void> {
  const title = "Extraction throughput: extractHtml (jsdom + Readability) over real HTML pages";
  const workDir = join(tempRoot, "extraction-pages");
  mkdirSync(workDir, { recursive: true });
  try {
    let acquired: Acquired;
    try {
      acquired = acquire(workDir);
    } catch (error) {
      acquired = { ok: false, reason: error instanceof Error ? error.message : String(error) };
    }
    if (!acquired.ok) {
      console.log(`\nextraction throughput: skipped (${acquired.reason.replace(/\s+/g, " ")})`);
      return;
    }
    const requested = Number.parseInt(process.env.ASSAY_BENCH_EXTRACT_PAGES ?? "", 10);
    const wanted = Number.isFinite(requested) && requested > 0 ? requested : DEFAULT_PAGES;
    const chosen = pick(acquired.files, wanted);
    const decoder = new TextDecoder("utf-8");
    const pages: Page[] = chosen.map((path) => {
      const buffer = readFileSync(path);
      const rel = relative(acquired.root, path);
      return { path: rel, name: rel.split("/").pop() ?? rel, html: decoder.decode(buffer), bytes: buffer.length };
    });

    console.log(`\n${title}`);
    console.log(`  source: ${acquired.description}.`);

    const warmup = await extractAll(pages); // warm-up: JIT, jsdom and Readability first-use costs
    let measured = pages;
    if (warmup.totalMs > WARMUP_BUDGET_MS) {
      const keep = Math.max(20, Math.floor((pages.length * WARMUP_BUDGET_MS) / warmup.totalMs));
      if (keep < pages.length) measured = pick(pages, keep);
    }
    const htmlBytes = measured.reduce((total, page) => total + page.bytes, 0);
    const passes: Pass[] = [];
    for (let pass = 0; pass < PASSES; pass++) passes.push(await extractAll(measured));

    const n = String(measured.length);
    const runs = String(PASSES);
    const row = (key: string, label: string, values: readonly number[], unit: string): string[] => [
      key,
      label,
      n,
      runs,
      fixed(median(values)),
      fixed(Math.min(...values)),
      fixed(Math.max(...values)),
      unit,
    ];
    printRows([
      row(
        "X",
        "pages per second",
        passes.map((pass) => measured.length / (pass.totalMs / 1000)),
        "pages/s",
      ),
      row(
        "X1",
        "input HTML per second",
        passes.map((pass) => htmlBytes / MB / (pass.totalMs / 1000)),
        "MB/s",
      ),
      row(
        "X2",
        "time per page, median over the pages",
        passes.map((pass) => median(pass.perPageMs)),
        "ms",
      ),
      row(
        "X3",
        "time per page, p95 over the pages",
        passes.map((pass) => quantile(pass.perPageMs, 0.95)),
        "ms",
      ),
      row(
        "",
        "  wall time of one pass",
        passes.map((pass) => pass.totalMs / 1000),
        "s",
      ),
    ]);

    const last = passes[passes.length - 1] ?? warmup;
    const sampleNote =
      measured.length < acquired.files.length
        ? `${measured.length} of the ${acquired.files.length} .html files, spread evenly over them in path order`
        : `all ${measured.length} .html files`;
    console.log(
      `  pages: ${sampleNote}; ${fixed(htmlBytes / MB)} MB of HTML, ${fixed(htmlBytes / measured.length / 1000, 1)} kB per page on average (1 MB = 10^6 bytes).`,
    );
    const passMs = median(passes.map((pass) => pass.totalMs));
    if (measured.length < SUGGESTED_PAGES && acquired.files.length >= SUGGESTED_PAGES) {
      const estimate = ((1 + PASSES) * SUGGESTED_PAGES * passMs) / measured.length / 1000;
      console.log(
        `  page count reduced from ${SUGGESTED_PAGES} to ${measured.length}: at this speed ${1 + PASSES} passes over ` +
          `${SUGGESTED_PAGES} pages would take about ${fixed(estimate, 0)} s (ASSAY_BENCH_EXTRACT_PAGES sets it).`,
      );
    }
    if (measured !== pages) {
      console.log(
        `  note: the warm-up pass over ${pages.length} pages took ${fixed(warmup.totalMs / 1000, 1)} s, so the ` +
          `measured passes use ${measured.length} of them to keep the figure near a minute.`,
      );
    }
    console.log(
      `  extracted text: ${fixed(last.textChars / measured.length, 0)} chars per page on average; ` +
        `extracted text bytes / HTML bytes = ${fixed(last.textBytes / htmlBytes, 3)} (UTF-8 both).`,
    );
    console.log(`
  X/X1  pages (or input HTML bytes) / wall time of one pass of extractHtml over every page,
        sequential, on one thread, yielding to the event loop after each page (jsdom finishes
        closing a window there); 1 warm-up pass (excluded) then ${PASSES} measured passes.
  X2/X3 median and 95th percentile (nearest rank) of the per-page times within one pass; the
        table shows their median, min and max over the passes.`);
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}
