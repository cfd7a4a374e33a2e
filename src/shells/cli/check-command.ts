/** Runs `assay check`: reads the draft and the sources it cites, prints and writes the verdicts. */
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { sourceReader } from "../../adapters/check/source-reader.js";
import { resolveCorpusRoot } from "../../adapters/corpus/corpus-paths.js";
import { CorpusFetcher } from "../../adapters/fetch/corpus/corpus-fetcher.js";
import { createHttpFetcher } from "../../adapters/fetch/http/http-fetcher.js";
import { englishJudge } from "../../adapters/language/english-judge.js";
import { checkClaims, failsCheck, isClaimLines } from "../../application/check-claims.js";
import { UserError } from "../../core/errors.js";
import { checkHtml, checkJson, checkJsonLines, checkMarkdown, checkSummary } from "../../core/render/check-report.js";
import type { CheckOptions } from "./commands/check.js";
import { EXIT } from "./exit-codes.js";

/** Writes `text` to `path` whole or not at all. */
async function writeWhole(path: string, text: string): Promise<void> {
  const staging = `${path}.${process.pid}.tmp`;
  await writeFile(staging, text);
  await rename(staging, path);
}

export async function runCheck(file: string, options: CheckOptions): Promise<number> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    process.stderr.write(`assay check: cannot read ${file}: check the path and that it is a file.\n`);
    return EXIT.usage;
  }
  let root: string;
  try {
    root = await resolveCorpusRoot(options.corpus ?? dirname(resolve(file)));
  } catch (error) {
    process.stderr.write(`assay check: ${error instanceof UserError ? error.message : String(error)}\n`);
    return EXIT.usage;
  }
  const read = sourceReader({
    files: new CorpusFetcher(root),
    ...(options.web ? { web: createHttpFetcher({ allowHosts: options.allowHost ?? [] }) } : {}),
  });
  const outcome = await checkClaims(text, isClaimLines(file), { judge: englishJudge(), readSource: read });
  if (outcome.claims.length === 0) {
    const why = outcome.problems.length > 0 ? `: ${outcome.problems.slice(0, 3).join("; ")}` : "";
    process.stderr.write(
      `assay check: ${file} has no claim that cites a source${why}. Cite sources with [1] and a reference list, with links, or give JSON Lines (.jsonl).\n`,
    );
    return EXIT.usage;
  }
  const title = `Claims of ${basename(file)}`;
  if (options.out) {
    await mkdir(options.out, { recursive: true });
    await writeWhole(join(options.out, "check.md"), checkMarkdown(title, outcome.claims, outcome.problems));
    await writeWhole(join(options.out, "check.html"), checkHtml(title, outcome.claims, outcome.problems));
    await writeWhole(join(options.out, "check.json"), checkJson(title, outcome.claims, outcome.problems));
  }
  if (options.json) {
    for (const line of checkJsonLines(outcome.claims)) process.stdout.write(`${line}\n`);
  } else if (options.quiet) {
    for (const claim of outcome.claims) process.stdout.write(`${claim.id}\t${claim.verdict}\n`);
  } else {
    process.stdout.write(checkMarkdown(title, outcome.claims, outcome.problems));
  }
  if (!options.json && !options.quiet) {
    process.stderr.write(`${checkSummary(outcome.claims)}${options.out ? ` Written to ${options.out}.` : ""}\n`);
  }
  for (const problem of outcome.problems) if (options.json) process.stderr.write(`not checked: ${problem}\n`);
  return failsCheck(outcome) ? EXIT.failed : EXIT.ok;
}
