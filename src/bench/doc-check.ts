/**
 * The documentation check (issue 20): questions whose answers are metadata lines under an API
 * entry's heading ("In which version was json.JSONDecodeError added?" — "New in version 3.5."),
 * read off the Python library reference of Debian's python3.X-doc (installed, else downloaded
 * and unpacked at bench time), asked of `assay run --web` over a loopback web of those pages with
 * the offline engine, 5 sources each. Prints how often the run read the page holding the answer,
 * quoted the version from it, and said which entry the version is of.
 *
 * Usage: node dist/bench/doc-check.js [questions (default 40)] — also section D of `npm run bench`.
 */
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { parseReportDocument } from "../core/report/report-document.js";
import { runCli } from "../testing/cli.js";
import {
  type DocAnswer,
  type DocQuestion,
  docAnswer,
  docQuestions,
  docWebArgs,
  installedPythonDocs,
  libraryPages,
  startDocWeb,
} from "../testing/python-docs.js";
import { tempDir } from "../testing/temp-dir.js";
import { acquireDebianDocs } from "./debian-docs.js";
import { fixed, spread } from "./figures.js";

const PACKAGES = ["python3.11-doc", "python3.12-doc", "python3.13-doc"] as const;
const DEFAULT_QUESTIONS = 40;

/** The Python reference's root: the installed one, else the package downloaded into `workDir`. */
function pythonDocs(workDir: string): { root: string; description: string } | { reason: string } {
  const installed = installedPythonDocs();
  if (installed) return { root: installed, description: `installed at ${installed}` };
  const acquired = acquireDebianDocs(workDir, PACKAGES);
  if (!acquired.ok) return { reason: acquired.reason };
  const html = acquired.files.find((file) => file.endsWith("/library/json.html"));
  if (!html) return { reason: "the package holds no library/json.html" };
  return { root: html.slice(0, -"/library/json.html".length), description: acquired.description };
}

interface Outcome {
  question: DocQuestion;
  answer: DocAnswer;
  ms: number;
  failure?: string;
}

/** Runs the check over `count` questions; prints one line per question when `verbose`. */
export async function docCheck(tempRoot: string, count: number, verbose = false): Promise<void> {
  const workDir = join(tempRoot, "python-docs");
  mkdirSync(workDir, { recursive: true });
  const docs = pythonDocs(workDir);
  if ("reason" in docs) {
    console.log(`\ndocumentation check: skipped (${docs.reason.replace(/\s+/g, " ")})`);
    return;
  }
  const pages = libraryPages(docs.root);
  // `count` of them, spread evenly over every page's (deterministic).
  const questions = spread(docQuestions(docs.root, pages), count);
  const web = await startDocWeb(docs.root, pages);
  const home = join(workDir, "home");
  mkdirSync(home, { recursive: true });
  const outcomes: Outcome[] = [];
  try {
    for (const [index, question] of questions.entries()) {
      const out = join(workDir, `run-${index + 1}`);
      const started = performance.now();
      const result = await runCli(
        ["run", question.question, ...docWebArgs(web), "--out", out, "--json", "--quiet", "--no-config"],
        { home, timeoutMs: 120_000 },
      );
      const ms = performance.now() - started;
      const parsed =
        result.code === 0 ? parseReportDocument(JSON.parse(readFileSync(join(out, "report.json"), "utf8"))) : undefined;
      const outcome: Outcome =
        parsed?.ok === true
          ? { question, answer: docAnswer(parsed.value, question, web), ms }
          : {
              question,
              answer: { read: false, versionQuoted: false, answered: false, inAnswerBlock: false },
              ms,
              failure: parsed ? parsed.error : `exit ${result.code}: ${result.stderr.trim().split("\n").at(-1) ?? ""}`,
            };
      outcomes.push(outcome);
      if (verbose) {
        const { read, versionQuoted, answered, inAnswerBlock } = outcome.answer;
        console.log(
          `  ${inAnswerBlock ? "in block" : answered ? "answered" : versionQuoted ? "version " : read ? "read    " : "missed  "} ${question.question} (${question.page}: ${question.version})${outcome.failure ? ` — ${outcome.failure}` : ""}`,
        );
      }
    }
  } finally {
    await web.close();
    rmSync(home, { recursive: true, force: true });
  }
  const share = (test: (answer: DocAnswer) => boolean): string =>
    `${fixed((100 * outcomes.filter((outcome) => test(outcome.answer)).length) / Math.max(1, outcomes.length), 1)}%`;
  const failed = outcomes.filter((outcome) => outcome.failure);
  const seconds = outcomes.map((outcome) => outcome.ms / 1000).sort((a, b) => a - b);
  console.log(`\nDocumentation check: "since which version" questions over the Python library reference`);
  console.log(`  source: ${docs.description}; ${pages.length} pages served on a loopback web (BM25 search).`);
  console.log(
    `  ${outcomes.length} questions (offline engine, pipeline, 5 sources): the page holding the answer read ${share((answer) => answer.read)}; ` +
      `the version quoted from it ${share((answer) => answer.versionQuoted)}; the version and its entry both said ${share((answer) => answer.answered)}; ` +
      `answered so in the report's answer block ${share((answer) => answer.inAnswerBlock)}` +
      `${failed.length > 0 ? `; ${failed.length} run(s) failed (${failed[0]?.failure})` : ""}.`,
  );
  console.log(
    `  run wall time: median ${fixed(seconds[Math.floor(seconds.length / 2)] ?? Number.NaN, 1)} s per question.`,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const requested = Number.parseInt(process.argv[2] ?? "", 10);
  const temp = tempDir("assay-doc-check-");
  try {
    await docCheck(temp.path, Number.isFinite(requested) && requested > 0 ? requested : DEFAULT_QUESTIONS, true);
  } finally {
    temp.cleanup();
  }
}
