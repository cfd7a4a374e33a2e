import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readHtml, readMarkdown } from "../../testing/read-report.js";
import { catalogSource } from "../../testing/report-inputs.js";
import { askedParts } from "../answer/asked.js";
import { renderHtml } from "../render/html.js";
import { renderMarkdown, unescapeMarkdown } from "../render/markdown.js";
import { admitSynthesis } from "../synthesis/admission.js";
import type { SynthesisOutput } from "../synthesis/proposals.js";
import {
  type BuildInput,
  buildReport,
  buildSourceBackedReport,
  type CatalogSource,
  describeBoundaries,
} from "./build-report.js";
import { normalizeExcerptText } from "./excerpts.js";
import { type Citation, checkReportClosure, parseReportDocument, type ReportDocument } from "./report-document.js";

const noFacts = {
  searchCalls: 1,
  failedSearches: 0,
  partialSearches: 0,
  fetchAttempts: 0,
  failedFetches: 0,
  limitsReached: [],
  deadlineReached: false,
  cancelled: false,
};

function source(n: number, text: string, extra: Partial<CatalogSource> = {}): CatalogSource {
  return catalogSource(n, text, { capturedAt: `2026-01-15T09:00:0${n % 10}.000Z`, ...extra });
}

function input(sources: CatalogSource[], overrides: Partial<BuildInput> = {}): BuildInput {
  return {
    question: "Who made the first lithium cobalt oxide cathode?",
    language: "en",
    scope: "the local folder “corpus”",
    sources,
    attemptedQueries: ["“Who made the first lithium cobalt oxide cathode?”"],
    acquisition: noFacts,
    phase: "preliminary",
    generatedAt: "2026-01-15T09:01:00.000Z",
    excerptCharsPerSource: 500,
    excerptCharsTotal: 2_000,
    ...overrides,
  };
}

const PROSE =
  "Lithium cobalt oxide was reported as a cathode at Oxford in 1980. The group was led by John Goodenough. " +
  "Other layered oxides followed.\n\nSony used a cobalt oxide cathode in 1991. The cell used a carbon anode.\n\n" +
  "Unrelated text about weather and gardens fills this paragraph with nothing useful at all.";

describe("buildSourceBackedReport", () => {
  it("makes a no-evidence document naming the attempted queries when no source survived", () => {
    const doc = buildSourceBackedReport(
      input([], { acquisition: { ...noFacts, fetchAttempts: 3, failedFetches: 3 }, phase: "final" }),
    );
    expect(doc.status).toBe("no-evidence");
    expect(doc.preliminary).toBe(false);
    expect(doc.sources).toEqual([]);
    expect(doc.notice).toMatch(/^No evidence/);
    expect(doc.attemptedQueries).toEqual(["“Who made the first lithium cobalt oxide cathode?”"]);
    expect(doc.acquisitionBoundaries).toEqual(["3 of 3 documents could not be read."]);
    expect(parseReportDocument(JSON.parse(JSON.stringify(doc))).ok).toBe(true);
  });

  it("gives the true reason there is no evidence: nothing found, nothing read, nothing readable", () => {
    const reason = (acquisition: Partial<typeof noFacts> & { hits?: number }) =>
      buildSourceBackedReport(input([], { acquisition: { ...noFacts, ...acquisition } })).notice;
    expect(reason({ searchCalls: 2, hits: 0 })).toBe(
      "No evidence: the 2 searches found nothing in the local folder “corpus”, so this report has no findings.",
    );
    expect(reason({ hits: 3, fetchAttempts: 0 })).toMatch(/the searches found documents, but none was read/);
    expect(reason({ hits: 3, fetchAttempts: 3, failedFetches: 3 })).toMatch(
      /no document that the searches found could be read/,
    );
  });

  it("lists a query run twice once, in first-run order", () => {
    const doc = buildSourceBackedReport(input([], { attemptedQueries: ["“b”", "“a”", "“b”", "  "], phase: "final" }));
    expect(doc.attemptedQueries).toEqual(["“b”", "“a”"]);
  });

  it("makes a preliminary source-backed document that says synthesis is pending", () => {
    const doc = buildSourceBackedReport(input([source(1, PROSE)]));
    expect(doc.status).toBe("source-backed");
    expect(doc.preliminary).toBe(true);
    expect(doc.notice).toMatch(/synthesis of findings is still pending/);
    expect(doc.sourceCards[0]?.excerpts[0]?.text).toContain(
      "Lithium cobalt oxide was reported as a cathode at Oxford in 1980.",
    );
    expect(doc.sources).toEqual([
      { id: "s_001", number: 1, title: "Document 1", path: "docs/doc-1.md", capturedAt: "2026-01-15T09:00:01.000Z" },
    ]);
    expect(checkReportClosure(doc).ok).toBe(true);
  });

  it("chooses the passages that match the question first and keeps them verbatim", () => {
    const doc = buildSourceBackedReport(input([source(1, PROSE)], { excerptCharsPerSource: 150 }));
    const excerpts = doc.sourceCards[0]?.excerpts ?? [];
    expect(excerpts[0]?.passage).toBe(1);
    expect(excerpts.map((excerpt) => excerpt.text).join(" ")).not.toContain("weather");
    for (const excerpt of excerpts) {
      const words = excerpt.text.replace(/ …$/, "");
      expect(PROSE.replace(/\s+/g, " ")).toContain(words);
    }
  });

  it("starts a long passage at its first sentence that matches the question", () => {
    const long =
      "Weather notes fill the opening sentence here. Gardens fill the next one too. " +
      "Lithium cobalt oxide was reported as a cathode at Oxford in 1980 by Goodenough's group. " +
      "More unrelated sentences follow after it and go on for a while.";
    const doc = buildSourceBackedReport(input([source(1, long)], { excerptCharsPerSource: 120 }));
    const excerpt = doc.sourceCards[0]?.excerpts[0];
    expect(excerpt?.cutStart).toBe(true);
    expect(excerpt?.truncated).toBe(true);
    expect(excerpt?.text.startsWith("Lithium cobalt oxide was reported")).toBe(true);
    expect(renderMarkdown(doc)).toContain("> … Lithium cobalt oxide was reported");
    expect(readHtml(renderHtml(doc)).cards[0]?.excerpts[0]?.text.startsWith("… Lithium cobalt oxide")).toBe(true);
  });

  it("lists sources left without an excerpt as reviewed, not cited", () => {
    const sources = [1, 2, 3, 4].map((n) => source(n, PROSE));
    const doc = buildSourceBackedReport(input(sources, { excerptCharsPerSource: 300, excerptCharsTotal: 650 }));
    expect(doc.sources.map((entry) => entry.id)).toEqual(["s_001", "s_002", "s_003"]);
    expect(doc.reviewedSources.map((entry) => [entry.id, entry.number])).toEqual([["s_004", 4]]);
    expect(checkReportClosure(doc).ok).toBe(true);
  });

  it("property: excerpts stay within the per-source and global bounds on large documents", () => {
    const paragraph = fc.string({
      unit: fc.constantFrom("lithium ", "cobalt ", "oxide ", "cathode ", "Oxford. ", "x "),
      minLength: 20,
      maxLength: 300,
    });
    const documents = fc.array(fc.array(paragraph, { minLength: 1, maxLength: 30 }), { minLength: 1, maxLength: 12 });
    fc.assert(
      fc.property(
        documents,
        fc.integer({ min: 50, max: 800 }),
        fc.integer({ min: 50, max: 3000 }),
        (docs, perSource, total) => {
          const sources = docs.map((paragraphs, index) => source(index + 1, paragraphs.join("\n\n")));
          const doc = buildSourceBackedReport(
            input(sources, { excerptCharsPerSource: perSource, excerptCharsTotal: total }),
          );
          let all = 0;
          for (const card of doc.sourceCards) {
            const chars = card.excerpts.reduce((sum, excerpt) => sum + excerpt.text.length, 0);
            expect(chars).toBeLessThanOrEqual(Math.min(perSource, total));
            all += chars;
          }
          expect(all).toBeLessThanOrEqual(total);
          expect(doc.sources.length + doc.reviewedSources.length).toBe(sources.length);
          expect(checkReportClosure(doc).ok).toBe(true);
        },
      ),
    );
  });

  it("links a web source in Markdown without encoding it twice", () => {
    const web = source(1, PROSE, { path: undefined as never, url: "https://example.org/caf%C3%A9/a?b=1" });
    const { path: _path, ...withoutPath } = web;
    const doc = buildSourceBackedReport(input([withoutPath], { phase: "final" }));
    expect(renderMarkdown(doc)).toContain("<https://example.org/caf%C3%A9/a?b=1>");
  });

  it("keeps control characters and internal ids out of reader-facing text", () => {
    const hostile = source(1, "Lithium cobalt oxide\u0007 cathode \u202Egnirts\u202C at Oxford.", {
      title: "Evil\u0000 title\nwith newline",
    });
    const doc = buildSourceBackedReport(input([hostile], { phase: "final" }));
    const markdown = renderMarkdown(doc);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: asserting their absence.
    expect(markdown).not.toMatch(/[\u0000\u0007\u202E]/);
    expect(doc.sources[0]?.title).toBe("Evil title with newline");
    expect(markdown).not.toMatch(/s_001|\.p01|sq_\d/);
    expect(renderHtml(doc)).not.toMatch(/>[^<]*s_001[^<]*</);
  });
});

function synthesized(output: SynthesisOutput, sources: CatalogSource[], overrides: Partial<BuildInput> = {}) {
  const catalog = new Map(
    sources.map((item) => [item.id, new Map(item.chunks.map((chunk) => [chunk.id, chunk.text]))]),
  );
  return buildReport(
    input(sources, { phase: "final", synthesis: { admitted: admitSynthesis(output, catalog) }, ...overrides }),
  );
}

const OXFORD = "Lithium cobalt oxide was reported as a cathode at Oxford in 1980.";
const SONY = "Sony used a cobalt oxide cathode in 1991.";
const fullOutput: SynthesisOutput = {
  facts: [
    { id: "f1", text: OXFORD, sourceId: "s_002", chunkIds: ["s_002.p01"] },
    { id: "f2", text: SONY, sourceId: "s_001", chunkIds: ["s_001.p02"] },
    { id: "f3", text: "Other layered oxides followed.", sourceId: "s_002", chunkIds: ["s_002.p01"] },
    { id: "f4", text: "The cell used a carbon anode.", sourceId: "s_001", chunkIds: ["s_001.p02"] },
  ],
  derivations: [
    {
      id: "d1",
      text: "The cathode reached the market about a decade after its discovery.",
      premiseIds: ["f1", "f2"],
      method: "comparing the two years",
    },
  ],
  recommendations: [
    {
      id: "r1",
      text: "Check the original paper for measured voltages.",
      premiseIds: ["f1"],
      conditions: ["when exact figures matter"],
    },
  ],
  gaps: [{ id: "g1", text: "The sources do not say who manufactured the first cells.", relatedSourceIds: ["s_003"] }],
};

describe("buildReport with a synthesis", () => {
  const sources = () =>
    [1, 2, 3].map((n) =>
      source(
        n,
        `${OXFORD} The group was led by John Goodenough. Other layered oxides followed.\n\n${SONY} The cell used a carbon anode.`,
      ),
    );

  it("publishes numbered findings citing exact passages, the ledger limited to cited sources", () => {
    const doc = synthesized(fullOutput, sources());
    expect(doc.status).toBe("synthesized");
    expect(doc.directFindings.map((item) => item.number)).toEqual([1, 2, 3]);
    expect(doc.findings.map((item) => [item.number, item.kind, item.basedOn])).toEqual([
      [4, "fact", []],
      [5, "derivation", [1, 2]],
    ]);
    // s_002 is cited first, so it is [1]; s_001 is [2]; s_003 only relates to a gap.
    expect(doc.sources.map((entry) => [entry.id, entry.number])).toEqual([
      ["s_002", 1],
      ["s_001", 2],
    ]);
    expect(doc.reviewedSources.map((entry) => [entry.id, entry.number])).toEqual([["s_003", 3]]);
    expect(doc.directFindings[0]?.citations).toEqual([
      {
        sourceId: "s_002",
        number: 1,
        chunkIds: ["s_002.p01"],
        passages: [1],
        // A short passage is quoted whole.
        evidence: {
          quotes: [
            {
              text: `${OXFORD} The group was led by John Goodenough. Other layered oxides followed.`,
              cutStart: false,
              truncated: false,
              chunkId: "s_002.p01",
              passage: 1,
              start: 0,
              end: 134,
            },
          ],
          omitted: 0,
        },
      },
    ]);
    expect(doc.findings[1]?.citations.map((citation) => citation.number)).toEqual([1, 2]);
    expect(doc.recommendations[0]).toMatchObject({ basedOn: [1], conditions: ["when exact figures matter"] });
    expect(doc.gaps).toEqual([
      { text: "The sources do not say who manufactured the first cells.", relatedSources: [3] },
    ]);
    expect(checkReportClosure(doc).ok).toBe(true);
    expect(parseReportDocument(JSON.parse(JSON.stringify(doc))).ok).toBe(true);
  });

  it("an omitted gap and one surviving fact never make the document claim completeness", () => {
    const doc = synthesized(
      {
        facts: [{ id: "f1", text: OXFORD, sourceId: "s_002", chunkIds: ["s_002.p01"] }],
        derivations: [],
        recommendations: [],
        gaps: [],
      },
      sources(),
    );
    expect(doc.status).toBe("synthesized");
    expect(doc.gaps).toEqual([]);
    const text = `${JSON.stringify(doc)} ${renderMarkdown(doc)} ${renderHtml(doc)}`.toLowerCase();
    expect(text).not.toMatch(/\b(complete|answered|fully supported|verified)\b/);
  });

  it("lists no finding when the sources read bear on no part of the question, but keeps what a derivation rests on", () => {
    const unanswered = (status: "not-said" | "unsettled") => ({
      parts: askedParts("How many cells did Sony make in 1991?").map((part) => ({
        part,
        status,
        uses: [],
        related: [],
      })),
      statementOf: () => "The sources read do not say how many cells Sony made in 1991.",
    });
    const none = synthesized({ ...fullOutput, derivations: [], recommendations: [] }, sources(), {
      answer: unanswered("not-said"),
    });
    expect([...none.directFindings, ...none.findings]).toEqual([]);
    expect(none.answer?.[0]?.statement).toBe("The sources read do not say how many cells Sony made in 1991.");
    // A derivation's premises stay: it rests on them.
    const derived = synthesized(fullOutput, sources(), { answer: unanswered("not-said") });
    expect(derived.findings.map((item) => item.text)).toEqual(expect.arrayContaining([OXFORD, SONY]));
    expect(derived.findings.map((item) => item.text)).not.toContain("The cell used a carbon anode.");
    // Where sources bear on the part without answering it, what was read stays as further findings.
    const related = synthesized(fullOutput, sources(), { answer: unanswered("unsettled") });
    expect(related.findings.length).toBeGreaterThan(0);
  });

  it("keeps the excerpts when no finding survives, and still lists the gaps", () => {
    const doc = synthesized(
      {
        facts: [{ id: "f1", text: "Invented 1999.", sourceId: "s_001", chunkIds: ["s_001.p01"] }],
        derivations: [],
        recommendations: [],
        gaps: fullOutput.gaps,
      },
      sources(),
    );
    expect(doc.status).toBe("source-backed");
    expect(doc.sourceCards.length).toBeGreaterThan(0);
    expect(doc.gaps.map((gap) => gap.text)).toEqual(["The sources do not say who manufactured the first cells."]);
    expect(checkReportClosure(doc).ok).toBe(true);
  });
});

describe("Markdown and HTML projections", () => {
  const cases = {
    "no-evidence": input([], { phase: "final", acquisition: { ...noFacts, failedSearches: 1 } }),
    preliminary: input([source(1, PROSE), source(2, PROSE, { title: "Sony <b>1991</b> & *cells*" })]),
    "final with reviewed sources and limits": input(
      [1, 2, 3, 4, 5].map((n) => source(n, PROSE)),
      {
        phase: "final",
        excerptCharsPerSource: 200,
        excerptCharsTotal: 500,
        acquisition: {
          ...noFacts,
          fetchAttempts: 7,
          failedFetches: 2,
          limitsReached: ["source limit of 5"],
          deadlineReached: true,
        },
      },
    ),
  };

  const synthesizedSources = [1, 2, 3].map((n) =>
    source(
      n,
      `${OXFORD} The group was led by John Goodenough. Other layered oxides followed.\n\n${SONY} The cell used a carbon anode.`,
    ),
  );
  const synthesizedCase = {
    ...input(synthesizedSources, { phase: "final" }),
    synthesis: {
      admitted: admitSynthesis(
        fullOutput,
        new Map(
          synthesizedSources.map((item) => [item.id, new Map(item.chunks.map((chunk) => [chunk.id, chunk.text]))]),
        ),
      ),
      producedBy: "Produced by a test engine <b>with markup</b> & *stars*.",
    },
  };
  it("carry the same findings, recommendations, gaps and citations: synthesized", () => {
    const doc = buildReport(synthesizedCase);
    expect(doc.status).toBe("synthesized");
    const fromMarkdown = readMarkdown(renderMarkdown(doc));
    const fromHtml = readHtml(renderHtml(doc));
    expect(fromMarkdown).toEqual(fromHtml);
    expect(fromMarkdown.findings.map((item) => item.text)).toEqual(
      [...doc.directFindings, ...doc.findings].map((item) => item.text),
    );
    expect(fromMarkdown.findings.map((item) => item.citation)).toEqual([
      "[1: passage 1]",
      "[2: passage 2]",
      "[1: passage 1]",
      "[2: passage 2]",
      "[1: passage 1; 2: passage 2]",
    ]);
    expect(fromMarkdown.recommendations).toMatchObject([
      { text: "Check the original paper for measured voltages.", citation: "[1: passage 1]" },
    ]);
    expect(fromMarkdown.gaps).toEqual(["The sources do not say who manufactured the first cells."]);
    expect(renderHtml(doc)).not.toContain("<b>with markup</b>");
  });

  for (const [name, buildInput] of Object.entries(cases)) {
    it(`carry the same items and citations: ${name}`, () => {
      const doc = buildSourceBackedReport(buildInput);
      const fromMarkdown = readMarkdown(renderMarkdown(doc));
      const fromHtml = readHtml(renderHtml(doc));
      expect(fromMarkdown).toEqual(fromHtml);
      expect(fromMarkdown.title).toBe(doc.title);
      expect(fromMarkdown.cards.map((card) => card.number)).toEqual(doc.sources.map((entry) => entry.number));
      expect(fromMarkdown.cards.flatMap((card) => card.excerpts.map((excerpt) => excerpt.citation))).toEqual(
        doc.sourceCards.flatMap((card, index) => card.excerpts.map(() => index + 1)),
      );
      expect(
        fromMarkdown.cards.flatMap((card) =>
          card.excerpts.map((excerpt) => excerpt.text.replace(/ …$/, "").replace(/^… /, "")),
        ),
      ).toEqual(doc.sourceCards.flatMap((card) => card.excerpts.map((excerpt) => excerpt.text)));
      expect(fromMarkdown.sources.map((entry) => entry.title)).toEqual(doc.sources.map((entry) => entry.title));
      expect(fromMarkdown.reviewed.map((entry) => entry.number)).toEqual(
        doc.reviewedSources.map((entry) => entry.number),
      );
      expect(fromMarkdown.limits).toEqual(doc.acquisitionBoundaries);
      expect(fromMarkdown.queries).toEqual(doc.attemptedQueries);
    });
  }
});

describe("describeBoundaries", () => {
  const facts = {
    searchCalls: 6,
    failedSearches: 1,
    partialSearches: 0,
    fetchAttempts: 4,
    failedFetches: 0,
    limitsReached: [],
    deadlineReached: false,
    cancelled: false,
  };

  it("says how many searches failed, and how many were answered by only some of their providers", () => {
    expect(describeBoundaries({ ...facts, partialSearches: 5 }).slice(0, 2)).toEqual([
      "1 of 6 searches could not be completed.",
      "5 of 6 searches were answered by only some of their search providers: the others failed (assay runs show names them).",
    ]);
    expect(describeBoundaries({ ...facts, failedSearches: 0 }).join(" ")).not.toContain("only some");
  });
});

/** Every citation of a document's items, with the item's own first, then its verification's. */
const allCitations = (doc: ReportDocument): Citation[] =>
  [...doc.directFindings, ...doc.findings, ...doc.recommendations].flatMap((item) => [
    ...item.citations,
    ...item.verification.supports,
    ...item.verification.contradicts,
  ]);

describe("quoted evidence under each finding", () => {
  const LONG = (n: number, topic: string) =>
    Array.from(
      { length: 12 },
      (_, i) =>
        `Report ${n} describes how the ${topic} trial number ${i + 1} measured a cathode capacity of ${100 + i} milliampere hours per gram at the Oxford laboratory, after a long series of careful preparations.`,
    ).join(" ");
  const sources = [1, 2, 3, 4].map((n) => source(n, `${LONG(n, "spring")}\n\n${LONG(n, "autumn")}`));
  const chunkText = new Map(sources.flatMap((item) => item.chunks.map((chunk) => [chunk.id, chunk.text])));
  // Twelve model-written facts, each a paraphrase of one trial: three per source.
  const output: SynthesisOutput = {
    facts: sources.flatMap((item, s) =>
      [1, 2, 3].map((i) => ({
        id: `f${s}${i}`,
        text: `In trial ${i * 3} of report ${s + 1} the cathode held ${100 + i * 3 - 1} mAh per gram.`,
        sourceId: item.id,
        chunkIds: [item.chunks[i % item.chunks.length]?.id ?? ""],
      })),
    ),
    derivations: [],
    recommendations: [],
    gaps: [],
  };

  it("every citation carries verbatim quotes of its own passages; Markdown and HTML show the same", () => {
    const doc = synthesized(output, sources);
    expect(doc.status).toBe("synthesized");
    for (const citation of allCitations(doc)) {
      expect(citation.evidence?.quotes.length, JSON.stringify(citation)).toBeGreaterThan(0);
      for (const quote of citation.evidence?.quotes ?? []) {
        expect(citation.chunkIds).toContain(quote.chunkId);
        expect(normalizeExcerptText(chunkText.get(quote.chunkId) ?? "")).toContain(quote.text);
      }
    }
    const fromMarkdown = readMarkdown(renderMarkdown(doc));
    expect(fromMarkdown).toEqual(readHtml(renderHtml(doc)));
    expect(fromMarkdown.findings.map((item) => item.evidence.map((note) => note.quotes))).toEqual(
      [...doc.directFindings, ...doc.findings].map((item) =>
        item.citations.map((citation) =>
          (citation.evidence?.quotes ?? []).map(
            (quote) => `${quote.cutStart ? "… " : ""}${quote.text}${quote.truncated ? " …" : ""}`,
          ),
        ),
      ),
    );
    // The sources list says where each source is quoted.
    expect(fromMarkdown.sources.every((entry) => entry.quoted.startsWith("passage "))).toBe(true);
    expect(checkReportClosure(doc).ok).toBe(true);
    expect(parseReportDocument(JSON.parse(JSON.stringify(doc))).ok).toBe(true);
  });

  it("quotes stay within the excerpt limits, per source and in all, and the report says what it left out", () => {
    const perSource = 260;
    const total = 700;
    const doc = synthesized(output, sources, { excerptCharsPerSource: perSource, excerptCharsTotal: total });
    const distinct = new Map<string, { sourceId: string; length: number }>();
    for (const citation of allCitations(doc)) {
      for (const quote of citation.evidence?.quotes ?? [])
        distinct.set(`${quote.chunkId}:${quote.start}`, { sourceId: citation.sourceId, length: quote.text.length });
    }
    const spent = [...distinct.values()];
    expect(spent.reduce((sum, item) => sum + item.length, 0)).toBeLessThanOrEqual(total);
    for (const item of sources) {
      const own = spent.filter((quote) => quote.sourceId === item.id);
      expect(own.reduce((sum, quote) => sum + quote.length, 0)).toBeLessThanOrEqual(perSource);
    }
    const left = allCitations(doc).filter((citation) => (citation.evidence?.omitted ?? 0) > 0);
    expect(left.length).toBeGreaterThan(0);
    const markdown = unescapeMarkdown(renderMarkdown(doc));
    expect(markdown).toMatch(/Not quoted: the report's excerpt limits were reached; read source \d, passage \d\./);
    const fromMarkdown = readMarkdown(renderMarkdown(doc));
    expect(fromMarkdown).toEqual(readHtml(renderHtml(doc)));
    expect(
      fromMarkdown.findings.flatMap((item) => item.evidence.map((note) => note.remark)).filter(Boolean),
    ).toHaveLength(left.length);
  });

  it("a finding that copies its source's sentence is not quoted twice: the note says where it stands", () => {
    const text = "Sony began selling lithium-ion cells in 1991. The first went into a camcorder.";
    const doc = synthesized(
      {
        facts: [
          {
            id: "f1",
            text: "Sony began selling lithium-ion cells in 1991.",
            sourceId: "s_001",
            chunkIds: ["s_001.p01"],
          },
        ],
        derivations: [],
        recommendations: [],
        gaps: [],
      },
      // One passage, too long to quote whole.
      [source(1, `${text} Later cells ${"ran longer and ".repeat(18)}ran longest.`)],
    );
    const [note] = readMarkdown(renderMarkdown(doc)).findings[0]?.evidence ?? [];
    expect(note).toEqual({
      head: "Evidence [1: passage 1]",
      quotes: [],
      remark: "The finding quotes this source word for word: passage 1 (characters 0–45 of the text read).",
    });
    expect(doc.directFindings[0]?.citations[0]?.evidence?.quotes.map((quote) => quote.text)).toEqual([
      "Sony began selling lithium-ion cells in 1991.",
    ]);
  });
});
