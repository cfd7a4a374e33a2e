/**
 * The answer block over the example corpus (issue 43), as a user runs it: the report opens with
 * each part of the question and the findings that answer it, the answer marked; the questions the
 * corpus cannot answer say so plainly, with no findings padding the report.
 */
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { EXAMPLE_CORPUS, runCli } from "../../testing/cli.js";
import { publishedReport } from "../../testing/read-report.js";
import { tempDir } from "../../testing/temp-dir.js";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/**
 * A whole research per test: an investigative one takes 5–25 s alone and several times that on a
 * busy two-core machine, so the limits only catch a run that hangs, never a slow one.
 */
const RUN_LIMIT_MS = 240_000;

async function report(question: string, strategy: string) {
  const dir = tempDir("assay-answer-block-");
  cleanups.push(dir.cleanup);
  const out = join(dir.path, "report");
  const result = await runCli(["run", question, "--corpus", EXAMPLE_CORPUS, "--strategy", strategy, "--out", out], {
    home: dir.path,
    timeoutMs: RUN_LIMIT_MS,
  });
  expect(result.code, result.stderr).toBe(0);
  const doc = publishedReport(join(out, "report.json"));
  const { readFileSync } = await import("node:fs");
  return { doc, markdown: readFileSync(join(out, "report.md"), "utf8") };
}

/** The marked answers of the block, part by part. */
const marks = (doc: ReturnType<typeof publishedReport>): string[][] =>
  (doc.answer ?? []).map((part) =>
    part.findings.flatMap((use) => (use.role === "answer" && use.mark ? [use.mark] : [])),
  );

/** The texts of the findings that answer part `part` of the block, in its order. */
const answering = (doc: ReturnType<typeof publishedReport>, part: number): string[] =>
  (doc.answer?.[part]?.findings ?? []).map(
    (use) => [...doc.directFindings, ...doc.findings].find((finding) => finding.number === use.number)?.text ?? "",
  );

describe("the answer block over the example corpus", { timeout: RUN_LIMIT_MS + 10_000 }, () => {
  it("pipeline: the quick-start question is answered first, Yoshino marked, and the answering findings are the direct ones", async () => {
    const { doc, markdown } = await report(
      "Who built the first cell with a carbon anode and a lithium cobalt oxide cathode?",
      "pipeline",
    );
    expect(marks(doc).flat()).toContain("Akira Yoshino");
    // The block comes before the findings, and its findings are the direct ones.
    expect(markdown.indexOf("## Answer")).toBeGreaterThan(0);
    expect(markdown.indexOf("## Answer")).toBeLessThan(markdown.indexOf("## Direct findings"));
    const answering = new Set(doc.answer?.flatMap((part) => part.findings.map((use) => use.number)));
    expect(doc.directFindings.map((finding) => finding.number).every((number) => answering.has(number))).toBe(true);
  });

  it("pipeline: a conflict shows both figures, each with its source", async () => {
    const { doc, markdown } = await report(
      "What was the specific energy of the first commercial lithium-ion cell?",
      "pipeline",
    );
    const [part] = doc.answer ?? [];
    expect(part?.status).toBe("answered");
    expect(marks(doc)[0]).toContain("90 Wh/kg");
    // The answering finding is contested, and the other source's 80 Wh/kg is quoted under it in the block's finding.
    const answer = doc.directFindings.find((finding) => finding.number === part?.findings[0]?.number);
    expect(answer?.verification.status).toBe("contested");
    const block = markdown.slice(markdown.indexOf("## Answer"), markdown.indexOf("## Further findings"));
    expect(block).toContain("**Contested:**");
    expect(block).toContain("80 watt-hours per kilogram");
  });

  it.each([
    "pipeline",
    "investigative",
  ])("%s: the cobalt conflict shows the 60 percent of the late 2010s and the three-quarters of 2023, each with its source", async (strategy) => {
    const { doc } = await report(
      "How dependent is the cathode industry on the Democratic Republic of the Congo for cobalt, and how has cathode chemistry changed in response?",
      strategy,
    );
    const [dependence, response] = doc.answer ?? [];
    expect(dependence?.status).toBe("answered");
    expect(marks(doc)[0]).toEqual(["60 percent", "three-quarters"]);
    // Each figure cites its own source.
    const sourcesOf = (dependence?.findings ?? []).map(
      (use) => doc.directFindings.find((finding) => finding.number === use.number)?.citations[0]?.sourceId,
    );
    expect(new Set(sourcesOf).size).toBe(2);
    expect(response?.status).toBe("answered");
  });

  it("pipeline: why cobalt is a supply concern is answered with cobalt's reasons, not lithium's supply", async () => {
    const { doc } = await report("Why is cobalt a supply concern for lithium-ion batteries?", "pipeline");
    const texts = answering(doc, 0);
    expect(texts.length).toBeGreaterThan(0);
    expect(texts.every((text) => /cobalt|Congo|DRC/u.test(text))).toBe(true);
    expect(texts.join(" ")).toContain("Because supply is concentrated");
  });

  it.each([
    "pipeline",
    "investigative",
  ])("%s: why a storage project would choose LFP is answered with the sentence that writes the reasons", async (strategy) => {
    const { doc } = await report("Why would a stationary storage project choose LFP cells?", strategy);
    expect(marks(doc)[0]).toContain("because of their cost, safety and long cycle life");
  });

  it("investigative: a conflict shows both figures, each contested and cited, each quoting the other side", async () => {
    const { markdown } = await report(
      "What was the specific energy of the first commercial lithium-ion cell?",
      "investigative",
    );
    const block = markdown.slice(markdown.indexOf("## Answer"), markdown.indexOf("## Direct findings"));
    expect(block).toMatch(/\*\*Contested:\*\*.*\*\*90 Wh\/kg\*\*.*\[\d+: passage \d+\]/);
    expect(block).toMatch(/\*\*Contested:\*\*.*80 watt-hours per kilogram.*\[\d+: passage \d+\]/);
    // Under the findings, each quotes the passage that contradicts it, with its source.
    const findings = markdown.slice(markdown.indexOf("## Direct findings"), markdown.indexOf("## Further findings"));
    expect(findings).toMatch(
      /Contradicting passage \[\d+: passage \d+\]: (?:\([^)]*\) )?“… The first cells stored roughly 80 watt-hours/,
    );
    expect(findings).toMatch(
      /Contradicting passage \[\d+: passage \d+\]: (?:\(.*?\)\) )?“… The first commercial lithium-ion cells, introduced by Sony in 1991, reached around 90 Wh\/kg/,
    );
  });

  it.each([
    ["pipeline", "What was the average battery pack price in 2024?", ["115"]],
    ["investigative", "What was the average battery pack price in 2024?", ["115"]],
    ["pipeline", "How much capacity did the test cell keep after 500 cycles?", ["94 percent"]],
    ["investigative", "How much capacity did the test cell keep after 500 cycles?", ["94 percent"]],
  ])("%s: %s is answered with %j marked", async (strategy, question, answer) => {
    const { doc } = await report(question, strategy);
    expect(marks(doc).flat()).toEqual(expect.arrayContaining(answer));
  });

  it.each([
    "pipeline",
    "investigative",
  ])("%s: a multi-hop question is answered across two findings, the bridge cited", async (strategy) => {
    const { doc } = await report(
      "At which university was the scientist who built Exxon's titanium disulfide battery working when he shared the Nobel Prize, and when did he move there?",
      strategy,
    );
    expect(marks(doc)).toEqual([["Binghamton University"], ["1988"]]);
    const [where] = doc.answer ?? [];
    expect(where?.findings.map((use) => use.role)).toEqual(["answer", "bridge"]);
  });

  it.each([
    "pipeline",
    "investigative",
  ])("%s: the laboratory's head is answered through the cathode Sony's cell used, both hops cited", async (strategy) => {
    const { doc } = await report(
      "Who led the laboratory where the cathode material used in Sony's first commercial lithium-ion cell (1991) was discovered?",
      strategy,
    );
    expect(marks(doc)).toEqual([["John B. Goodenough"]]);
    const [part] = doc.answer ?? [];
    expect(part?.findings.map((use) => use.role)).toEqual(["answer", "bridge"]);
    const bridge = doc.directFindings.find((finding) => finding.number === part?.findings[1]?.number);
    expect(bridge?.text).toContain("LiCoO2");
  });

  const oxfordHead =
    "The head of the Oxford laboratory that discovered lithium cobalt oxide later moved to another university. Which one, when, and which cathode material did his group report there?";

  it("investigative: where the Oxford laboratory's head moved, when, and what his group reported there, across the bridge to him", async () => {
    const { doc } = await report(oxfordHead, "investigative");
    // The corpus says he "left Oxford … to take up a chair … at the University of Texas at Austin".
    expect(marks(doc)).toEqual([["University of Texas"], ["1986"], ["LiFePO4"]]);
    expect(answering(doc, 0)[1]).toContain(
      "headed by the American physicist and materials scientist John B. Goodenough",
    );
  });

  it("pipeline: where the Oxford laboratory's head moved is answered as he moved, or left open, never with another move or date", async () => {
    const { doc } = await report(oxfordHead, "pipeline");
    // Not Whittingham's move to Binghamton, Thackeray's to Argonne, nor his studies at Chicago (1922, 1952).
    const right = [/^University of Texas/u, /^1986$/u, /^LiFePO4$/u];
    (doc.answer ?? []).forEach((part, index) => {
      if (part.status !== "answered") expect(part.status).toBe("unsettled");
      for (const mark of marks(doc)[index] ?? []) expect(mark).toMatch(right[index] ?? /^$/u);
    });
    const texts = [0, 1, 2].flatMap((part) => answering(doc, part)).join(" ");
    expect(texts).not.toMatch(/Whittingham|Thackeray|Chicago/u);
  });

  it.each([
    "pipeline",
    "investigative",
  ])("%s: a question of three parts answers the company and who founded it", async (strategy) => {
    const { doc } = await report(
      "Which company recycles the production scrap from the Nevada Gigafactory, who founded it, and which recycling route recovers lithium best?",
      strategy,
    );
    expect(marks(doc).slice(0, 2)).toEqual([["Redwood Materials"], ["JB Straubel"]]);
  });

  it.each([
    "pipeline",
    "investigative",
  ])("%s: a why is answered by the sentences that give the cause (Q10's 2022 rise)", async (strategy) => {
    const prices = await report(
      "How far did lithium-ion battery pack prices fall between 2010 and 2020, and why did they rise in 2022?",
      strategy,
    );
    const [, rise] = prices.doc.answer ?? [];
    expect(marks(prices.doc)[0]).toContain("1,100 dollars per kilowatt-hour");
    expect(rise?.status).toBe("answered");
    expect(answering(prices.doc, 0).join(" ")).toContain("89 percent");
    expect(answering(prices.doc, 1).join(" ")).toMatch(/raw-material prices|lithium carbonate/);
  });

  it("pipeline: which recycling route recovers lithium best is answered by the route's rated strength", async () => {
    const { doc } = await report(
      "Which company recycles the production scrap from the Nevada Gigafactory, who founded it, and which recycling route recovers lithium best?",
      "pipeline",
    );
    expect(answering(doc, 2)[0]).toMatch(/^High recovery rates for lithium/u);
  });

  it("investigative: which recycling route recovers lithium best is answered by the route's rated strength", async () => {
    const { doc } = await report(
      "Which company recycles the production scrap from the Nevada Gigafactory, who founded it, and which recycling route recovers lithium best?",
      "investigative",
    );
    expect(doc.answer?.[2]?.status).toBe("answered");
    expect(answering(doc, 2)[0]).toMatch(/^High recovery rates for lithium/u);
  });

  it.each([
    "pipeline",
    "investigative",
  ])("%s: what caused the Note 7 fires opens with a defect that caused the short circuit", async (strategy) => {
    const { doc } = await report(
      "What caused the Samsung Galaxy Note 7 battery fires, and what happens inside a cell after such an internal short circuit begins?",
      strategy,
    );
    expect(answering(doc, 0)[0]).toMatch(/deformation could damage the separator/u);
  });

  it.each([
    "pipeline",
    "investigative",
  ])("%s: what limits fast charging names the main obstacle in the block", async (strategy) => {
    const { doc } = await report("What limits fast charging of lithium-ion cells?", strategy);
    expect(answering(doc, 0).join(" ")).toContain("The main obstacle to fast charging is on the negative electrode.");
  });

  it.each([
    "pipeline",
    "investigative",
  ])("%s: why Yoshino used petroleum coke opens with what happened to graphite; what allowed graphite later is ethylene carbonate", async (strategy) => {
    const { doc } = await report(
      "Why did Yoshino use petroleum coke rather than graphite for his 1985 anode, and what later allowed graphite to become the standard anode?",
      strategy,
    );
    expect(answering(doc, 0)[0]).toMatch(/^Ordinary graphite.*was damaged/u);
    // Its passage answers it: "The answer turned out to be ethylene carbonate (EC)." shares no word of the part.
    expect(doc.answer?.[1]?.status).toBe("answered");
    expect(marks(doc)[1]?.[0]).toBe("ethylene carbonate (EC)");
    expect(answering(doc, 1)[0]).toBe("The answer turned out to be ethylene carbonate (EC).");
  });

  it("pipeline: the cathode chemistry of the Nevada cells is answered with NCA or left open, never by another chemistry", async () => {
    const { doc } = await report(
      "What cathode chemistry is in the cells that Panasonic makes at Tesla's Nevada Gigafactory, and in what cell format?",
      "pipeline",
    );
    const chemistry = doc.answer?.[0];
    if (chemistry?.status === "answered") expect(answering(doc, 0)[0]).toContain("NCA");
    else expect(chemistry?.status).toBe("unsettled");
    expect(answering(doc, 1).join(" ")).toContain("known as the 2170");
  });

  it("investigative: the cathode chemistry of the Nevada cells is answered first with NCA", async () => {
    const { doc } = await report(
      "What cathode chemistry is in the cells that Panasonic makes at Tesla's Nevada Gigafactory, and in what cell format?",
      "investigative",
    );
    const first = doc.answer?.[0]?.findings[0]?.number;
    const finding = [...doc.directFindings, ...doc.findings].find((entry) => entry.number === first);
    expect(finding?.text).toContain("use an NCA cathode");
  });

  it.each([
    ["pipeline", "How many lithium-ion cells did Sony make in its first year of production, 1991?"],
    ["investigative", "How many lithium-ion cells did Sony make in its first year of production, 1991?"],
    ["pipeline", "What battery warranty (years or kilometres) did Nissan offer on the first-generation Leaf?"],
    ["investigative", "What battery warranty (years or kilometres) did Nissan offer on the first-generation Leaf?"],
  ])("%s: %s says the sources do not say it, with no finding", async (strategy, question) => {
    const { doc, markdown } = await report(question, strategy);
    expect(doc.answer?.map((part) => part.status)).toEqual(["not-said"]);
    // No finding pads the report: what was read is listed as read, not cited.
    expect(doc.directFindings).toEqual([]);
    expect(doc.findings).toEqual([]);
    expect(doc.sources).toEqual([]);
    expect(markdown).toMatch(
      /The sources read do not say (?:how many lithium-ion cells Sony made|what battery warranty Nissan offered)/,
    );
  });
});
