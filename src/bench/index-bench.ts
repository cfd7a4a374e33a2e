/**
 * Corpus indexing from scratch: CorpusIndex.refresh over a folder of real documents (the
 * SciFact abstracts of ../shared/eval, 5,183 Markdown files), a fresh index file each pass,
 * against the anchor of plain BM25 in Python building its in-memory index over the same files
 * (a short script of our own, timed as a whole process). Skipped with a notice where the
 * folder or python3 is missing.
 *
 * Environment: ASSAY_BENCH_INDEX_CORPUS (another folder to index).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { CorpusIndex } from "../adapters/corpus/corpus-index.js";
import { extractionPool } from "../adapters/extract/extraction-pool.js";
import { fixed, median, printFigures } from "./figures.js";

const DEFAULT_CORPUS = fileURLToPath(new URL("../../../shared/eval/scifact/corpus", import.meta.url));
const MB = 1_000_000;

/** Plain BM25 (k1 1.2, b 0.75): reads every file, tokenizes, builds postings and idf in memory. */
const PYTHON_BM25 = `
import math, os, re, sys, time
started = time.perf_counter()
root = sys.argv[1]
token = re.compile(r"\\w+")
postings, lengths = {}, []
for dirpath, _, names in os.walk(root):
    for name in sorted(names):
        with open(os.path.join(dirpath, name), encoding="utf-8", errors="replace") as handle:
            words = token.findall(handle.read().lower())
        doc = len(lengths)
        lengths.append(len(words))
        counts = {}
        for word in words:
            counts[word] = counts.get(word, 0) + 1
        for word, tf in counts.items():
            postings.setdefault(word, []).append((doc, tf))
n = len(lengths)
average = sum(lengths) / max(1, n)
idf = {word: math.log(1 + (n - len(docs) + 0.5) / (len(docs) + 0.5)) for word, docs in postings.items()}
print(n, len(postings), round((time.perf_counter() - started) * 1000, 1))
`;

function folderBytes(root: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) {
        files++;
        bytes += statSync(path).size;
      }
    }
  };
  walk(root);
  return { files, bytes };
}

export async function indexBench(tempRoot: string, passes: number): Promise<void> {
  const root = process.env.ASSAY_BENCH_INDEX_CORPUS ?? DEFAULT_CORPUS;
  console.log("\nCorpus index from scratch: CorpusIndex.refresh against plain BM25 in Python");
  if (!existsSync(root)) {
    console.log(
      `  skipped: ${root} is missing (../shared/eval is not on this machine; ASSAY_BENCH_INDEX_CORPUS names another folder).`,
    );
    return;
  }
  const { files, bytes } = folderBytes(root);
  const work = mkdtempSync(join(tempRoot, "index-"));
  // The pool's workers start before the clock: a server or a second refresh finds them running.
  await extractionPool().run({ kind: "html", raw: "<p>warm</p>", title: "warm", url: "https://corpus.invalid/" });
  const wall: number[] = [];
  let documents = 0;
  for (let pass = 0; pass <= passes; pass++) {
    const index = CorpusIndex.open(root, join(work, `index-${pass}.sqlite`));
    const started = performance.now();
    const stats = await index.refresh();
    const ms = performance.now() - started;
    index.close();
    documents = stats.documents;
    if (pass > 0) wall.push(ms); // pass 0 warms the page cache and the JIT
  }
  const script = join(work, "bm25.py");
  writeFileSync(script, PYTHON_BM25);
  const python: number[] = [];
  const pythonInner: number[] = [];
  let pythonNote = "";
  for (let pass = 0; pass <= passes; pass++) {
    const started = performance.now();
    const result = spawnSync("python3", [script, root], { encoding: "utf8", timeout: 300_000 });
    const ms = performance.now() - started;
    if (result.status !== 0) {
      pythonNote = `python3 failed or is missing (${result.error?.message ?? result.stderr.trim().split("\n").at(-1) ?? ""})`;
      break;
    }
    if (pass === 0) continue;
    python.push(ms);
    pythonInner.push(Number(result.stdout.trim().split(" ").at(-1)));
  }
  const figures: [string, string, number[], string][] = [
    ["I", "CorpusIndex.refresh from scratch: wall time", wall, "ms"],
    ["I1", "  documents per second", wall.map((ms) => documents / (ms / 1000)), "docs/s"],
    ["I2", "  input per second", wall.map((ms) => bytes / MB / (ms / 1000)), "MB/s"],
  ];
  if (python.length > 0)
    figures.push(
      ["P", "python3 BM25 in-memory index: whole process", python, "ms"],
      ["P1", "  of which the script's own clock", pythonInner, "ms"],
      ["P2", "  ratio I / P", wall.map((ms, i) => ms / (python[i] ?? Number.NaN)), "x"],
    );
  printFigures(String(files), figures, "files");
  console.log(
    `  corpus: ${root}: ${files} files, ${fixed(bytes / MB, 1)} MB; ${documents} documents indexed; ` +
      `${extractionPool().threads} extraction workers.${pythonNote ? ` Python anchor skipped: ${pythonNote}.` : ""}`,
  );
  if (python.length > 0)
    console.log(`  median ratio: the index takes ${fixed(median(wall) / median(python), 2)}x the Python BM25 build.`);
  console.log(`
  I     a fresh SQLite index file each pass (FTS5, porter stemming, batched commits), files read,
        extracted (all in the extraction pool: HTML and PDF one by one, text and Markdown 50 per
        task) and written; 1 warm-up pass excluded.
  P     python3 over a script of ours: walk, read, lower-case, \\w+ tokens, postings and idf in a
        dict; no stemming, nothing written. Timed as a whole process (what \`time python3\` says).`);
}
