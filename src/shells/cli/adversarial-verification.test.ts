/**
 * Nothing the report says is stronger than its evidence: the investigative offline engine,
 * end to end through `assay run`, on small corpora where one document states a claim and
 * another denies it (a negation, a myth, a retraction, another date, another figure). The
 * claim is never published as verified, and the report shows it contested with the
 * contradicting passage cited and quoted. Two documents agreeing in other words still verify.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { unescapeMarkdown } from "../../core/render/markdown.js";
import type { ReportDocument } from "../../core/report/report-document.js";
import { runCli } from "../../testing/cli.js";
import { publishedReport } from "../../testing/read-report.js";
import { tempDir } from "../../testing/temp-dir.js";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

const SONY = "In 1991 Sony began selling the first commercial lithium-ion rechargeable battery.";
const SONY_DOC = `# Sony and the lithium-ion battery\n\n${SONY} The cell used a carbon anode and a cobalt oxide cathode.\n`;
const SONY_QUESTION = "When did Sony begin selling the first commercial lithium-ion rechargeable battery?";
const FACTORY =
  "The Nevada gigafactory employed 7,000 workers in 2020, making it one of the largest employers in the state.";

interface Case {
  name: string;
  question: string;
  claim: string;
  documents: Record<string, string>;
  /** The sentence of the other document that must be quoted against the claim. */
  against?: string;
}

const CASES: Case[] = [
  {
    name: "a negation",
    question: SONY_QUESTION,
    claim: SONY,
    documents: {
      "a.md": SONY_DOC,
      "b.md":
        "# Corrections to battery history\n\nIt is false that Sony began selling the first commercial lithium-ion rechargeable battery in 1991. Historians point to other firms and other dates.\n",
    },
    against: "It is false that Sony began selling the first commercial lithium-ion rechargeable battery in 1991.",
  },
  {
    name: "a myth",
    question: SONY_QUESTION,
    claim: SONY,
    documents: {
      "a.md": SONY_DOC,
      "b.md":
        "# Battery myths\n\nThat Sony began selling the first commercial lithium-ion rechargeable battery in 1991 is a myth repeated by many textbooks.\n",
    },
    against:
      "That Sony began selling the first commercial lithium-ion rechargeable battery in 1991 is a myth repeated by many textbooks.",
  },
  {
    name: "a retraction",
    question: SONY_QUESTION,
    claim: SONY,
    documents: {
      "a.md": SONY_DOC,
      "b.md":
        "# Retraction notice\n\nThe article claiming that Sony began selling the first commercial lithium-ion rechargeable battery in 1991 has been retracted by the journal.\n",
    },
    against:
      "The article claiming that Sony began selling the first commercial lithium-ion rechargeable battery in 1991 has been retracted by the journal.",
  },
  {
    name: "another date",
    question: SONY_QUESTION,
    claim: SONY,
    documents: {
      "a.md": SONY_DOC,
      "b.md":
        "# A timeline of rechargeable cells\n\nSony began selling the first commercial lithium-ion rechargeable battery in 1992, after two years of trials.\n",
    },
    against:
      "Sony began selling the first commercial lithium-ion rechargeable battery in 1992, after two years of trials.",
  },
  {
    name: "another figure",
    question: "How many workers did the Nevada gigafactory employ in 2020?",
    claim: FACTORY,
    documents: {
      "a.md": `# The Nevada factory\n\n${FACTORY}\n`,
      "b.md":
        "# Jobs at the gigafactory\n\nThe Nevada gigafactory employed 3,000 workers in 2020, according to the state's labour office.\n",
    },
    against: "The Nevada gigafactory employed 3,000 workers in 2020, according to the state's labour office.",
  },
];

async function research(
  question: string,
  documents: Record<string, string>,
  strategy = "investigative",
): Promise<{ doc: ReportDocument; markdown: string }> {
  const dir = tempDir("assay-adversarial-");
  cleanups.push(dir.cleanup);
  const corpus = join(dir.path, "corpus");
  mkdirSync(corpus);
  for (const [name, text] of Object.entries(documents)) writeFileSync(join(corpus, name), text);
  const out = join(dir.path, "report");
  const result = await runCli(["run", question, "--corpus", corpus, "--strategy", strategy, "--out", out], {
    home: dir.path,
  });
  expect(result.code, result.stderr).toBe(0);
  const parsed = publishedReport(join(out, "report.json"));
  return { doc: parsed, markdown: readFileSync(join(out, "report.md"), "utf8") };
}

const findingsOf = (doc: ReportDocument) => [...doc.directFindings, ...doc.findings];

describe("the investigative offline engine against sources that deny a claim", () => {
  it.each(
    CASES,
  )("$name: never verified, published contested with the contradicting passage cited and quoted", async (item) => {
    const { doc, markdown } = await research(item.question, item.documents);
    const findings = findingsOf(doc);
    expect(findings.filter((finding) => finding.verification.status === "verified")).toEqual([]);
    const contested = findings.find((finding) => finding.text === item.claim);
    expect(contested?.verification.status, JSON.stringify(findings)).toBe("contested");
    const other = doc.sources.find((source) => source.path === "b.md");
    const claimed = doc.sources.find((source) => source.path === "a.md");
    expect(
      contested?.verification.contradicts.map((citation) => [
        citation.number,
        citation.evidence?.quotes.map((quote) => quote.text).join(" "),
      ]),
    ).toEqual([[other?.number, item.against]]);
    expect(contested?.verification.supports.map((citation) => citation.number)).toEqual([claimed?.number]);
    // Markdown shows it in words, with the contradicting passage quoted.
    const shown = unescapeMarkdown(markdown);
    expect(shown).toContain(`**Contested:** ${item.claim}`);
    expect(shown).toContain(`- Contradicted by [${other?.number}: passage 1]`);
    const note = shown
      .split("\n")
      .find((line) => line.includes(`> Contradicting passage [${other?.number}: passage 1]: “`));
    expect(note).toContain(item.against);
    expect(shown).toMatch(/\*\*Verification: 1 of \d+ findings? contested \(the sources read contradict/);
  }, 60_000);

  it("two independent sources agreeing in other words verify the claim, and the report names both and the challenge", async () => {
    const { doc, markdown } = await research(SONY_QUESTION, {
      "a.md": SONY_DOC,
      "b.md":
        "# Consumer electronics and batteries\n\nSony started selling the first commercial lithium-ion rechargeable batteries in 1991, for its camcorders.\n",
    });
    const verified = findingsOf(doc).find((finding) => finding.text === SONY);
    expect(verified?.verification.status).toBe("verified");
    expect(verified?.verification.supports.map((citation) => citation.number).sort()).toEqual(
      doc.sources.map((source) => source.number).sort(),
    );
    expect(verified?.verification.challenge).toMatch(/none of the \d+ sources? read so far contradicts it/);
    const shown = unescapeMarkdown(markdown);
    expect(shown).toContain(`**Verified:** ${SONY}`);
    expect(shown).toMatch(/Stated independently by \[\d: passage 1; \d: passage 1\]/);
    expect(shown).toContain("Verification: 1 of 1 finding verified");
  }, 60_000);
});

describe("the pipeline's offline engine against sources that deny a finding", () => {
  it.each(CASES)("$name: published contested, both sides cited, the other quoted", async (item) => {
    const { doc, markdown } = await research(item.question, item.documents, "pipeline");
    const findings = findingsOf(doc);
    const finding = findings.find((candidate) => candidate.text === item.claim);
    expect(finding?.verification.status, JSON.stringify(findings)).toBe("contested");
    const other = doc.sources.find((source) => source.path === "b.md");
    const claimed = doc.sources.find((source) => source.path === "a.md");
    expect(finding?.verification.supports.map((citation) => citation.number)).toEqual([claimed?.number]);
    expect(
      finding?.verification.contradicts.map((citation) => [
        citation.number,
        citation.evidence?.quotes.map((quote) => quote.text).join(" "),
      ]),
    ).toEqual([[other?.number, item.against]]);
    const shown = unescapeMarkdown(markdown);
    expect(shown).toContain(`**Contested:** ${item.claim}`);
    expect(shown).toContain(`- Contradicted by [${other?.number}: passage 1]`);
    const note = shown
      .split("\n")
      .find((line) => line.includes(`> Contradicting passage [${other?.number}: passage 1]: “`));
    expect(note).toContain(item.against);
    expect(shown).toMatch(/\*\*Verification: \d+ of \d+ findings? contested \(the sources read contradict/);
  }, 60_000);

  it("two sources agreeing are not marked: the pipeline does not verify", async () => {
    const { doc } = await research(
      SONY_QUESTION,
      {
        "a.md": SONY_DOC,
        "b.md":
          "# Consumer electronics and batteries\n\nSony started selling the first commercial lithium-ion rechargeable batteries in 1991, for its camcorders.\n",
      },
      "pipeline",
    );
    expect(findingsOf(doc).map((finding) => finding.verification.status)).not.toContain("contested");
    expect(findingsOf(doc).map((finding) => finding.verification.status)).not.toContain("verified");
  }, 60_000);
});
