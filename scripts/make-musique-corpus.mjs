#!/usr/bin/env node
// Writes MuSiQue as an evaluation set for `assay eval`: OUT/cases.jsonl (the answerable questions,
// their supporting paragraphs as gold) and OUT/corpus/ (every paragraph given with them, one
// Markdown file each). The data stays outside the repository: ASSAY_MUSIQUE names a MuSiQue file
// (musique_ans_v1.0_dev.jsonl, or a JSON array of its samples) or a folder of such files. Run after
// `npm run build`:
//   ASSAY_MUSIQUE=/data/musique npm run make:musique -- /tmp/musique
//   assay eval /tmp/musique/cases.jsonl --corpus /tmp/musique/corpus --strategies pipeline,investigative
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const source = process.env.ASSAY_MUSIQUE;
const out = process.argv[2];
if (!source || !out) {
  console.error("Usage: ASSAY_MUSIQUE=<MuSiQue file or folder> node scripts/make-musique-corpus.mjs <output folder>");
  process.exit(2);
}
const { musiqueCorpus, musiqueSamples } = await import(join(root, "dist/eval/musique.js"));

const fail = (message) => {
  console.error(message);
  process.exit(2);
};
if (!existsSync(source)) fail(`Cannot read ${source}: no such file or folder.`);
const files = statSync(source).isDirectory()
  ? readdirSync(source)
      .filter((name) => /\.jsonl?$/u.test(name))
      .sort((a, b) => a.localeCompare(b, "en", { numeric: true }))
      .map((name) => join(source, name))
  : [source];
if (files.length === 0) fail(`${source} holds no .json or .jsonl file.`);
if (existsSync(out) && readdirSync(out).length > 0) fail(`${out} is not empty: name a new or empty folder.`);

let samples;
try {
  samples = files.flatMap((file) => musiqueSamples(readFileSync(file, "utf8"), file));
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
const { cases, documents } = musiqueCorpus(samples);
mkdirSync(join(out, "corpus"), { recursive: true });
for (const [path, text] of documents) writeFileSync(join(out, "corpus", path), text);
writeFileSync(join(out, "cases.jsonl"), cases.map((item) => JSON.stringify(item)).join("\n") + "\n");
console.log(`${cases.length} answerable questions of ${samples.length}, ${documents.size} documents: ${resolve(out)}`);
