/**
 * Extraction throughput and quality of extractHtml (linkedom + Readability) over real HTML pages that no one
 * here wrote: the HTML manual of Debian's PostgreSQL documentation package, downloaded at bench
 * time with `apt-get download` into a temporary folder and unpacked with `dpkg-deb -x` (nothing is
 * committed or installed). Where apt or dpkg is missing, or the download fails, it prints one
 * "skipped" line and returns.
 *
 * Beside the figures of one thread it prints those of the extraction pool (every core) and the
 * event loop's delay while pages are extracted in it, and compares the text with what the same
 * pipeline over jsdom (the DOM it replaced, docs/decisions/0008-linkedom-for-extraction.md) reads.
 *
 * Environment: ASSAY_BENCH_EXTRACT_PAGES (pages to extract, default 100, at most every .html file
 * of the package).
 */
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join, relative } from "node:path";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { JSDOM } from "jsdom";
import { parseHTML } from "linkedom";
import type { ExtractedDocument } from "../adapters/extract/extracted-document.js";
import { ExtractionPool } from "../adapters/extract/extraction-pool.js";
import { extractHtml, type HtmlParser } from "../adapters/extract/html-extractor.js";
import { type Acquired, acquireDebianDocs } from "./debian-docs.js";
import { fixed, median, printFigures, quantile, spread } from "./figures.js";

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
 * 100, not 400: the jsdom comparison takes roughly 50-90 ms per page of this manual on one core
 * here; 100 pages keep the whole section near a minute.
 */
const DEFAULT_PAGES = 100;
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

interface Pass {
  totalMs: number;
  perPageMs: number[];
  textBytes: number;
}

/** One pass on this thread, sequential, yielding to the event loop after each page. */
async function extractAll(pages: readonly Page[], parser?: HtmlParser): Promise<Pass & { docs: ExtractedDocument[] }> {
  const perPageMs: number[] = [];
  const docs: ExtractedDocument[] = [];
  let textBytes = 0;
  const started = performance.now();
  for (const page of pages) {
    const before = performance.now();
    const doc = extractHtml(page.html, page.name, `https://corpus.invalid/${page.path}`, parser);
    // jsdom's window.close() leaves part of its teardown to a later task.
    await new Promise<void>((resolve) => setImmediate(resolve));
    perPageMs.push(performance.now() - before);
    docs.push(doc);
    textBytes += Buffer.byteLength(doc.text, "utf8");
  }
  return { totalMs: performance.now() - started, perPageMs, textBytes, docs };
}

/** One pass through `pool`, `concurrency` pages in flight; the event loop's delay is sampled meanwhile. */
async function extractInPool(
  pool: ExtractionPool,
  pages: readonly Page[],
  concurrency: number,
): Promise<Pass & { delayP50: number; delayP99: number; delayMax: number }> {
  const perPageMs: number[] = [];
  let textBytes = 0;
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < pages.length) {
        const page = pages[next++];
        if (!page) continue;
        const before = performance.now();
        const doc = await pool.run({
          kind: "html",
          raw: page.html,
          title: page.name,
          url: `https://corpus.invalid/${page.path}`,
        });
        perPageMs.push(performance.now() - before);
        textBytes += Buffer.byteLength(doc.text, "utf8");
      }
    }),
  );
  const totalMs = performance.now() - started;
  delay.disable();
  const ms = (ns: number): number => ns / 1e6;
  return {
    totalMs,
    perPageMs,
    textBytes,
    delayP50: ms(delay.percentile(50)),
    delayP99: ms(delay.percentile(99)),
    delayMax: ms(delay.max),
  };
}

const jsdomParser: HtmlParser = (page) => new JSDOM(page).window.document;

const words = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
const squash = (text: string): string => text.replace(/\s+/g, " ").trim();

interface Quality {
  /** Words of the jsdom text that the linkedom text holds too (as a multiset), over all pages. */
  kept: number;
  /** Words of the linkedom text that the jsdom text lacks, over all linkedom words. */
  extra: number;
  pagesBelow95: string[];
  titlesDiffering: number;
  /** Pages whose text holds the text of one of their <script>, <style> or navigation elements. */
  leaks: { linkedom: string[]; jsdom: string[] };
}

/** The text of each script, style and navigation element of a page, at least 24 characters long. */
function noiseTexts(html: string): string[] {
  const { document } = parseHTML(html);
  return Array.from(document.querySelectorAll("script, style, noscript, nav, [role=navigation]"))
    .map((element) => squash(element.textContent ?? ""))
    .filter((text) => text.length >= 24);
}

function compare(
  pages: readonly Page[],
  now: readonly ExtractedDocument[],
  before: readonly ExtractedDocument[],
): Quality {
  let keptWords = 0;
  let beforeWords = 0;
  let extraWords = 0;
  let nowWords = 0;
  const quality: Quality = {
    kept: 0,
    extra: 0,
    pagesBelow95: [],
    titlesDiffering: 0,
    leaks: { linkedom: [], jsdom: [] },
  };
  for (const [index, page] of pages.entries()) {
    const a = before[index];
    const b = now[index];
    if (!a || !b) continue;
    if (a.title !== b.title) quality.titlesDiffering++;
    const bag = new Map<string, number>();
    const nowList = words(b.text);
    nowWords += nowList.length;
    for (const word of nowList) bag.set(word, (bag.get(word) ?? 0) + 1);
    const beforeList = words(a.text);
    let kept = 0;
    for (const word of beforeList) {
      const left = bag.get(word) ?? 0;
      if (left > 0) {
        kept++;
        bag.set(word, left - 1);
      }
    }
    for (const left of bag.values()) extraWords += left;
    keptWords += kept;
    beforeWords += beforeList.length;
    if (beforeList.length > 0 && kept / beforeList.length < 0.95) quality.pagesBelow95.push(page.name);
    const noise = noiseTexts(page.html);
    if (noise.some((text) => squash(b.text).includes(text))) quality.leaks.linkedom.push(page.name);
    if (noise.some((text) => squash(a.text).includes(text))) quality.leaks.jsdom.push(page.name);
  }
  quality.kept = beforeWords === 0 ? Number.NaN : keptWords / beforeWords;
  quality.extra = nowWords === 0 ? Number.NaN : extraWords / nowWords;
  return quality;
}

/** Prints the extraction throughput figures; never throws for a missing or failing apt/dpkg. */
export async function extractionBench(tempRoot: string): Promise<void> {
  const title = "Extraction: extractHtml (linkedom + Readability) over real HTML pages";
  const workDir = join(tempRoot, "extraction-pages");
  mkdirSync(workDir, { recursive: true });
  const threads = availableParallelism();
  const pool = new ExtractionPool({ threads });
  try {
    let acquired: Acquired;
    try {
      acquired = acquireDebianDocs(workDir, PACKAGES);
    } catch (error) {
      acquired = { ok: false, reason: error instanceof Error ? error.message : String(error) };
    }
    if (!acquired.ok) {
      console.log(`\nextraction throughput: skipped (${acquired.reason.replace(/\s+/g, " ")})`);
      return;
    }
    const requested = Number.parseInt(process.env.ASSAY_BENCH_EXTRACT_PAGES ?? "", 10);
    const wanted = Number.isFinite(requested) && requested > 0 ? requested : DEFAULT_PAGES;
    const chosen = spread(acquired.files, wanted);
    const decoder = new TextDecoder("utf-8");
    const pages: Page[] = chosen.map((path) => {
      const buffer = readFileSync(path);
      const rel = relative(acquired.root, path);
      return { path: rel, name: rel.split("/").pop() ?? rel, html: decoder.decode(buffer), bytes: buffer.length };
    });

    console.log(`\n${title}`);
    console.log(`  source: ${acquired.description}.`);

    const warmup = await extractAll(pages); // warm-up: JIT, linkedom and Readability first-use costs
    await extractInPool(pool, pages, threads * 2); // starts the workers and warms them
    let measured = pages;
    if (warmup.totalMs > WARMUP_BUDGET_MS) {
      const keep = Math.max(20, Math.floor((pages.length * WARMUP_BUDGET_MS) / warmup.totalMs));
      if (keep < pages.length) measured = spread(pages, keep);
    }
    const htmlBytes = measured.reduce((total, page) => total + page.bytes, 0);
    const passes: Awaited<ReturnType<typeof extractAll>>[] = [];
    for (let pass = 0; pass < PASSES; pass++) passes.push(await extractAll(measured));
    const pooled: Awaited<ReturnType<typeof extractInPool>>[] = [];
    for (let pass = 0; pass < PASSES; pass++) pooled.push(await extractInPool(pool, measured, 8));
    // The DOM it replaced, once over the same pages: speed and the text to compare with.
    const before = await extractAll(measured, jsdomParser);
    const now = passes[passes.length - 1] ?? (await extractAll(measured));
    const quality = compare(measured, now.docs, before.docs);

    const mbPerSecond = (pass: Pass): number => htmlBytes / MB / (pass.totalMs / 1000);
    printFigures(
      String(measured.length),
      [
        ["X", "one thread: pages per second", passes.map((pass) => measured.length / (pass.totalMs / 1000)), "pages/s"],
        ["X1", "one thread: input HTML per second", passes.map(mbPerSecond), "MB/s"],
        ["X2", "one thread: time per page, median over the pages", passes.map((pass) => median(pass.perPageMs)), "ms"],
        [
          "X3",
          "one thread: time per page, p95 over the pages",
          passes.map((pass) => quantile(pass.perPageMs, 0.95)),
          "ms",
        ],
        ["Y", `pool of ${threads} workers, 8 pages in flight: input HTML per second`, pooled.map(mbPerSecond), "MB/s"],
        ["Y1", "  event-loop delay p50 meanwhile", pooled.map((pass) => pass.delayP50), "ms"],
        ["Y2", "  event-loop delay p99 meanwhile", pooled.map((pass) => pass.delayP99), "ms"],
        ["Y3", "  event-loop delay max meanwhile", pooled.map((pass) => pass.delayMax), "ms"],
        ["W", "jsdom + Readability (the DOM replaced), one thread", [mbPerSecond(before)], "MB/s"],
      ],
      "pages",
    );

    const sampleNote =
      measured.length < acquired.files.length
        ? `${measured.length} of the ${acquired.files.length} .html files, spread evenly over them in path order`
        : `all ${measured.length} .html files`;
    console.log(
      `  pages: ${sampleNote}; ${fixed(htmlBytes / MB)} MB of HTML, ${fixed(htmlBytes / measured.length / 1000, 1)} kB per page on average (1 MB = 10^6 bytes).`,
    );
    if (measured !== pages) {
      console.log(
        `  note: the warm-up pass over ${pages.length} pages took ${fixed(warmup.totalMs / 1000, 1)} s, so the ` +
          `measured passes use ${measured.length} of them.`,
      );
    }
    const x1 = median(passes.map(mbPerSecond));
    const y = median(pooled.map(mbPerSecond));
    console.log(
      `  ratios: one thread ${fixed(x1 / mbPerSecond(before), 1)}x jsdom; the pool ${fixed(y / x1, 1)}x one thread, ` +
        `${fixed(y / mbPerSecond(before), 1)}x jsdom on one thread.`,
    );
    console.log(
      `  text against jsdom's: ${fixed(quality.kept * 100, 2)}% of its words kept, ${fixed(quality.extra * 100, 2)}% of the words are new; ` +
        `${quality.pagesBelow95.length} page(s) keep under 95%${quality.pagesBelow95.length ? ` (${quality.pagesBelow95.slice(0, 5).join(", ")})` : ""}; ` +
        `${quality.titlesDiffering} title(s) differ.`,
    );
    console.log(
      `  script, style or navigation text in the extracted text: linkedom ${quality.leaks.linkedom.length} page(s)` +
        `${quality.leaks.linkedom.length ? ` (${quality.leaks.linkedom.slice(0, 5).join(", ")})` : ""}, jsdom ${quality.leaks.jsdom.length}.`,
    );
    console.log(`  extracted text bytes / HTML bytes = ${fixed(now.textBytes / htmlBytes, 3)} (UTF-8 both).`);
    console.log(`
  X/X1  pages (or input HTML bytes) / wall time of one pass of extractHtml over every page,
        sequential, on this thread, yielding to the event loop after each page; 1 warm-up pass
        (excluded) then ${PASSES} measured passes. X2/X3: median and p95 (nearest rank) of the
        per-page times within one pass.
  Y     the same pages through the extraction pool (a worker thread per core, as a server and
        the corpus index use it), 8 at a time. Y1-Y3: monitorEventLoopDelay (1 ms resolution)
        of this thread during each pool pass: what every other run in the process waits.
  W     one pass of the same pipeline over jsdom, the DOM linkedom replaced; its text is what
        the quality lines compare with (multiset of lower-cased words per page).`);
  } finally {
    await pool.close();
    rmSync(workDir, { recursive: true, force: true });
  }
}
