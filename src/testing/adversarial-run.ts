/**
 * Runs one adversarial corpus (adversarial-corpora.ts) as a user would, and reads what the
 * report shows: which findings are verified or contested, which gaps it states, and what of
 * that is wrong for the case. Shared by the end-to-end tests and the figures script
 * (`node dist/eval/adversarial-figures.js`).
 *
 * `via: "process"` runs the built `assay run` binary; `via: "wiring"` (the default) builds the
 * run the way `assay run` does (its request, its runtime, a SQLite file and a corpus folder of
 * its own, the offline engine) inside this process, so that a hundred corpora do not each pay
 * for a process and a language model loaded again. Both publish the same report files.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createOfflineModel } from "../adapters/models/offline/offline-model.js";
import { unescapeMarkdown } from "../core/render/markdown.js";
import type { Finding } from "../core/report/report-document.js";
import { dataPaths } from "../shells/cli/paths.js";
import { buildRequest } from "../shells/cli/run-request.js";
import { openStore } from "../shells/cli/stores.js";
import { buildRuntime } from "../shells/cli/wiring.js";
import type { AdversarialCase } from "./adversarial-corpora.js";
import { runCli } from "./cli.js";
import { publishedReport } from "./read-report.js";
import { tempDir } from "./temp-dir.js";

export type Strategy = "investigative" | "pipeline";

export interface CaseOutcome {
  id: string;
  category: AdversarialCase["category"];
  strategy: Strategy;
  /** A control: a finding that states the claim is shown verified. */
  verified: boolean;
  /** Findings shown verified in a case where none may be. */
  wronglyVerified: string[];
  /** The claim's side (or the other side) is a finding, and every such finding is contested with the other side quoted. */
  contested: boolean;
  /** "The sources read do not mention X" where a source does, or "No source read settles …" where a finding answers. */
  falseGaps: string[];
  /** Everything wrong, in words, for an assertion's message. */
  problems: string[];
}

const normal = (text: string): string => text.replace(/\s+/g, " ").trim();

/** Whether `text` is one of `sentences` (or holds one, for a finding quoted with the sentence before it). */
const isOneOf = (text: string, sentences: readonly string[]): boolean =>
  sentences.some((sentence) => normal(text).includes(normal(sentence)));

const MENTION_GAP = /^The sources read do not mention (.+)\.$/;

/** Runs `item` with `strategy` in a fresh home and corpus; the report is read back from report.json and report.md. */
export async function runAdversarialCase(
  item: AdversarialCase,
  strategy: Strategy,
  via: "process" | "wiring" = "wiring",
): Promise<CaseOutcome> {
  const dir = tempDir("assay-judgment-");
  try {
    const corpus = join(dir.path, "corpus");
    mkdirSync(corpus);
    for (const [name, text] of Object.entries(item.documents)) writeFileSync(join(corpus, name), text);
    const out = join(dir.path, "report");
    if (via === "process") {
      const result = await runCli(["run", item.question, "--corpus", corpus, "--strategy", strategy, "--out", out], {
        home: dir.path,
      });
      if (result.code !== 0) throw new Error(`assay run failed (${result.code}): ${result.stderr}`);
    } else await runInProcess(item.question, dir.path, corpus, strategy, out);
    const doc = publishedReport(join(out, "report.json"));
    const markdown = unescapeMarkdown(readFileSync(join(out, "report.md"), "utf8"));
    return judgeOutcome(
      item,
      strategy,
      [...doc.directFindings, ...doc.findings],
      doc.gaps.map((gap) => gap.text),
      markdown,
    );
  } finally {
    dir.cleanup();
  }
}

/** `assay run QUESTION --corpus CORPUS --strategy STRATEGY --out OUT` with ASSAY_HOME=HOME, in this process. */
async function runInProcess(question: string, home: string, corpus: string, strategy: Strategy, out: string) {
  const paths = dataPaths({ ASSAY_HOME: home });
  const request = await buildRequest(
    question,
    { corpus, strategy, out, language: "en", config: false },
    { model: "offline", file: undefined },
  );
  const store = await openStore(paths, undefined);
  try {
    const outcome = await buildRuntime(paths, store, createOfflineModel(), {}).run(request);
    if (outcome.status !== "finished")
      throw new Error(`the run ended ${outcome.status}: ${outcome.error ?? outcome.failure ?? "no reason given"}`);
  } finally {
    await store.close();
  }
}

function judgeOutcome(
  item: AdversarialCase,
  strategy: Strategy,
  findings: readonly Finding[],
  gaps: readonly string[],
  markdown: string,
): CaseOutcome {
  const problems: string[] = [];
  const shown = (finding: Finding) => `${finding.verification.status}: ${finding.text}`;
  const verifiedFindings = findings.filter((finding) => finding.verification.status === "verified");
  // Where none may be verified, what the sources do agree on (the common part of a partly stated claim) still may.
  const wronglyVerified =
    item.expect === "not-verified"
      ? verifiedFindings.filter((finding) => !isOneOf(finding.text, item.common ?? [])).map((finding) => finding.text)
      : [];
  if (wronglyVerified.length > 0) problems.push(`shown verified: ${wronglyVerified.join(" | ")}`);
  const verified = verifiedFindings.some((finding) => isOneOf(finding.text, item.claim));
  if (item.expect === "verified" && strategy === "investigative" && !verified)
    problems.push(`the control is not verified; findings: ${findings.map(shown).join(" | ")}`);
  if (item.expect === "verified" && findings.some((finding) => finding.verification.status === "contested"))
    problems.push(
      `a control is contested: ${findings
        .filter((f) => f.verification.status === "contested")
        .map(shown)
        .join(" | ")}`,
    );
  let contested = false;
  if (item.against) {
    const sides = findings.filter((finding) => isOneOf(finding.text, [...item.claim, ...(item.against ?? [])]));
    const quotesOther = (finding: Finding, other: readonly string[]) =>
      finding.verification.contradicts.some((citation) =>
        (citation.evidence?.quotes ?? []).some((quote) =>
          other.some(
            (sentence) =>
              normal(quote.text).includes(normal(sentence)) || normal(sentence).includes(normal(quote.text)),
          ),
        ),
      );
    contested =
      sides.length > 0 &&
      sides.every(
        (finding) =>
          finding.verification.status === "contested" &&
          quotesOther(finding, isOneOf(finding.text, item.claim) ? (item.against ?? []) : item.claim),
      );
    if (!contested)
      problems.push(
        sides.length === 0
          ? `neither side is a finding: ${findings.map(shown).join(" | ")}`
          : `not contested with the other side quoted: ${sides.map(shown).join(" | ")}`,
      );
  }
  const corpusText = Object.values(item.documents).join("\n").toLowerCase();
  const falseGaps: string[] = [];
  for (const gap of gaps) {
    const term = MENTION_GAP.exec(gap)?.[1];
    if (
      term &&
      (corpusText.includes(term.toLowerCase()) ||
        (item.mentioned ?? []).some((word) => word.toLowerCase() === term.toLowerCase()))
    )
      falseGaps.push(gap);
    if (/No source read settles/.test(gap) && findings.length > 0) falseGaps.push(gap);
  }
  if (falseGaps.length > 0) problems.push(`false gaps: ${falseGaps.join(" | ")}`);
  for (const text of item.absent ?? []) if (markdown.includes(text)) problems.push(`the report writes “${text}”`);
  return { id: item.id, category: item.category, strategy, verified, wronglyVerified, contested, falseGaps, problems };
}
