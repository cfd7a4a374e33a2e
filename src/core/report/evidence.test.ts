import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { chunkContent } from "../chunking.js";
import { chunkId } from "../ids.js";
import { type EvidenceLimits, type EvidenceRequest, MAX_QUOTE_CHARS, quoteEvidence } from "./evidence.js";
import { type ExcerptChunk, normalizeExcerptText, sourceOffset, storedSpan } from "./excerpts.js";

const WIDE: EvidenceLimits = { perSource: 20_000, total: 200_000 };

/** The passages of one source's text, as the store keeps them (offsets into the text). */
function passagesOf(sourceId: string, text: string, maxChars = 1_200): ExcerptChunk[] {
  return chunkContent(text, { maxChars }).map((chunk) => ({
    id: chunkId(sourceId, chunk.seq),
    seq: chunk.seq,
    start: chunk.start,
    text: chunk.text,
  }));
}

const byId = (chunks: readonly ExcerptChunk[]) => new Map(chunks.map((chunk) => [chunk.id, chunk]));

const SONY_PASSAGE = [
  "Battery research in Japan grew quickly during the 1980s, with several electronics firms funding laboratories.",
  "Many of those laboratories studied nickel-metal hydride cells, which were safer but heavier.",
  "In 1991 Sony began selling the first commercial lithium-ion rechargeable battery, which powered its CCD-TR1 camcorder.",
  "Cobalt for the cathodes came mostly from mines in central Africa.",
  "Prices of consumer camcorders fell through the decade as production grew.",
].join(" ");

const request = (chunkIds: string[], about: string[], extra: Partial<EvidenceRequest> = {}): EvidenceRequest => ({
  sourceId: "s_001",
  chunkIds,
  about,
  stance: "supports",
  ...extra,
});

describe("quoteEvidence", () => {
  it("quotes the sentence a paraphrase rests on, verbatim, with its place in the stored text", () => {
    const text = `# Sony\n\n${SONY_PASSAGE}`;
    const chunks = passagesOf("s_001", text);
    const cited = chunks.find((chunk) => chunk.text.includes("CCD-TR1"));
    const [evidence] = quoteEvidence(
      [
        request(
          [cited?.id ?? ""],
          ["Sony's first commercial lithium-ion battery went on sale in 1991, in a camcorder."],
        ),
      ],
      byId(chunks),
      WIDE,
    );
    expect(evidence?.quotes.map((quote) => quote.text)).toEqual([
      "In 1991 Sony began selling the first commercial lithium-ion rechargeable battery, which powered its CCD-TR1 camcorder.",
    ]);
    const [quote] = evidence?.quotes ?? [];
    expect(quote).toMatchObject({ cutStart: true, truncated: true, passage: cited?.seq });
    expect(text.slice(quote?.start, quote?.end)).toBe(quote?.text);
    expect(evidence?.omitted).toBe(0);
  });

  it("quotes a short passage whole, but for the heading over it", () => {
    const chunks = passagesOf(
      "s_001",
      "Sony and the battery\n\nIn 1991 Sony sold the first one. It powered a camcorder.",
    );
    const [evidence] = quoteEvidence([request([chunks[0]?.id ?? ""], ["Sony sold it in 1991."])], byId(chunks), WIDE);
    expect(evidence?.quotes).toEqual([
      expect.objectContaining({
        text: "In 1991 Sony sold the first one. It powered a camcorder.",
        cutStart: true,
        truncated: false,
      }),
    ]);
  });

  it("never quotes a heading as evidence, even one that shares the item's words", () => {
    const text = `Sony and the First Commercial Lithium-Ion Battery, 1991\n\n${SONY_PASSAGE}`;
    const chunks = passagesOf("s_001", text);
    const [evidence] = quoteEvidence(
      [request([chunks[0]?.id ?? ""], ["Sony sold the first commercial lithium-ion battery in 1991."])],
      byId(chunks),
      WIDE,
    );
    expect(evidence?.quotes.map((quote) => quote.text)).toEqual([
      "In 1991 Sony began selling the first commercial lithium-ion rechargeable battery, which powered its CCD-TR1 camcorder.",
    ]);
  });

  it("quotes the sentences that share the item's words, merging neighbours, and at most three of a passage", () => {
    const chunks = passagesOf("s_001", SONY_PASSAGE);
    const [evidence] = quoteEvidence(
      [
        request(
          [chunks[0]?.id ?? ""],
          [
            "Japanese electronics firms funded battery laboratories in the 1980s and studied nickel-metal hydride cells.",
          ],
        ),
      ],
      byId(chunks),
      WIDE,
    );
    // The first two sentences are neighbours: one quote.
    expect(evidence?.quotes.map((quote) => quote.text)).toEqual([
      "Battery research in Japan grew quickly during the 1980s, with several electronics firms funding laboratories. Many of those laboratories studied nickel-metal hydride cells, which were safer but heavier.",
    ]);
  });

  it("an item that quotes a line after its heading ('heading: line') is quoted at that line", () => {
    const text = [
      "json.dumps(obj)",
      `Serialize obj to a JSON formatted str. ${"The arguments have the same meaning as in dump(). ".repeat(6)}`.trim(),
      "Changed in version 3.6: All optional parameters are now keyword-only.",
      "New in version 3.5.",
    ].join("\n\n");
    const chunks = passagesOf("s_001", text);
    const item = "json.dumps(obj): Changed in version 3.6: All optional parameters are now keyword-only.";
    const [evidence] = quoteEvidence([request([chunks[0]?.id ?? ""], [item], { hint: item })], byId(chunks), WIDE);
    expect(evidence?.quotes.map((quote) => quote.text)).toEqual([
      "Changed in version 3.6: All optional parameters are now keyword-only.",
    ]);
  });

  it("a contradicting passage is quoted only at the sentence named against the item, and only when the passage writes it", () => {
    const chunks = passagesOf("s_002", SONY_PASSAGE);
    const id = chunks[0]?.id ?? "";
    const claim = ["Sony began selling the first commercial lithium-ion battery in 1992."];
    const [named, unnamed, invented] = quoteEvidence(
      [
        // A phrase is widened to its sentence.
        request([id], claim, { sourceId: "s_002", stance: "contradicts", hint: "In 1991 Sony began selling" }),
        request([id], claim, { sourceId: "s_002", stance: "contradicts" }),
        request([id], claim, { sourceId: "s_002", stance: "contradicts", hint: "Sony never sold batteries." }),
      ],
      byId(chunks),
      WIDE,
    );
    expect(named?.quotes.map((quote) => quote.text)).toEqual([
      "In 1991 Sony began selling the first commercial lithium-ion rechargeable battery, which powered its CCD-TR1 camcorder.",
    ]);
    // No sentence chosen for sharing the claim's words: it could be one that agrees.
    expect(unnamed).toEqual({ quotes: [], omitted: 0 });
    expect(invented).toEqual({ quotes: [], omitted: 0 });
  });

  it("gives every citation its first quote before any gets a second, and counts what the limits kept out", () => {
    const texts = [1, 2, 3].map((n) =>
      [
        `Alpha ${n} reported the cathode voltage rising to ${n}.5 volts in the trial of that year.`,
        "An unrelated remark about the weather in the town where the trial was held ran long.",
        `Alpha ${n} reported the cathode capacity falling to ${n}0 percent in the trial of that year.`,
        "Another unrelated remark about the hotel where the visiting staff stayed ran long too.",
      ].join(" "),
    );
    const sources = texts.map((text, index) => passagesOf(`s_00${index + 1}`, text));
    const requests = sources.map((chunks, index) => ({
      ...request([chunks[0]?.id ?? ""], [`Alpha ${index + 1} reported cathode voltage and capacity in the trial.`]),
      sourceId: `s_00${index + 1}`,
    }));
    // Room for about three sentences in all.
    const evidence = quoteEvidence(requests, byId(sources.flat()), { perSource: 1_000, total: 270 });
    expect(evidence.map((item) => item.quotes.length)).toEqual([1, 1, 1]);
    expect(evidence.every((item) => item.omitted >= 1)).toBe(true);
  });

  it("the same words quoted for two citations count once against the limits", () => {
    const chunks = passagesOf("s_001", SONY_PASSAGE);
    const id = chunks[0]?.id ?? "";
    const about = ["In 1991 Sony began selling the first commercial lithium-ion rechargeable battery."];
    const limits = { perSource: 130, total: 130 };
    const [first, second] = quoteEvidence([request([id], about), request([id], about)], byId(chunks), limits);
    expect(first?.quotes).toHaveLength(1);
    expect(second?.quotes).toEqual(first?.quotes);
  });

  it("two neighbouring sentences quoted as one count the space between them against the limits", () => {
    // fast-check's counterexample: 18 + 34 characters fit a limit of 52, but quoted as one
    // they show 53 (the space that joins them).
    const text = [
      "Cell cell lithium. Cell cell cell lithium anode cell. 1991 cell cathode. Cell cathode cell.",
      "Cell lithium cell cell cell cell cell cell cell cell. Cell cell cobalt cell cathode. Cobalt cell cell cell cell lithium oxide lithium cell lithium lithium anode cell anode cell cathode. Cell cell oxide cell cell cobalt cell cell.",
    ].join("\n\n");
    const chunks = passagesOf("s_001", text, 400);
    const [evidence] = quoteEvidence([request([chunks[0]?.id ?? ""], ["Cell cell cell."])], byId(chunks), {
      perSource: 52,
      total: 52,
    });
    const shown = (evidence?.quotes ?? []).reduce((sum, quote) => sum + quote.text.length, 0);
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThanOrEqual(52);
    expect(evidence?.omitted).toBeGreaterThan(0);
  });

  it("property: quotes are verbatim pieces of their passages and stay within the limits", () => {
    const word = fc.constantFrom(
      "cell",
      "anode",
      "1991",
      "Sony",
      "oxide",
      "cobalt",
      "the",
      "was",
      "lithium",
      "cathode",
    );
    const sentence = fc
      .array(word, { minLength: 3, maxLength: 40 })
      .map((words) => `${words.join(" ")}.`.replace(/^./, (char) => char.toUpperCase()));
    const document = fc
      .array(sentence, { minLength: 1, maxLength: 30 })
      .map((sentences) => sentences.map((item, index) => (index % 4 === 3 ? `${item}\n\n` : `${item} `)).join(""));
    fc.assert(
      fc.property(
        fc.array(document, { minLength: 1, maxLength: 4 }),
        fc.array(fc.tuple(fc.nat(), fc.nat(), fc.array(sentence, { minLength: 1, maxLength: 2 }), fc.boolean()), {
          minLength: 1,
          maxLength: 12,
        }),
        fc.integer({ min: 50, max: 900 }),
        fc.integer({ min: 50, max: 3_000 }),
        (documents, wants, perSource, total) => {
          const sources = documents.map((text, index) => ({
            id: `s_00${index + 1}`,
            text,
            chunks: passagesOf(`s_00${index + 1}`, text, 400),
          }));
          const requests = wants.map(([s, c, about, contradicts]): EvidenceRequest => {
            const source = sources[s % sources.length];
            const chunk = source?.chunks[c % (source?.chunks.length || 1)];
            return {
              sourceId: source?.id ?? "",
              chunkIds: chunk ? [chunk.id] : [],
              about,
              stance: contradicts ? "contradicts" : "supports",
              ...(contradicts ? { hint: about[0] ?? "" } : {}),
            };
          });
          const chunks = byId(sources.flatMap((source) => source.chunks));
          const evidence = quoteEvidence(requests, chunks, { perSource, total });
          const shown = new Map<string, { sourceId: string; start: number; end: number }[]>();
          evidence.forEach((item, index) => {
            for (const quote of item.quotes) {
              const chunk = chunks.get(quote.chunkId);
              const source = sources.find((candidate) => candidate.id === requests[index]?.sourceId);
              expect(requests[index]?.chunkIds).toContain(quote.chunkId);
              expect(normalizeExcerptText(chunk?.text ?? "")).toContain(quote.text);
              expect(normalizeExcerptText(source?.text.slice(quote.start, quote.end) ?? "")).toBe(quote.text);
              expect(quote.text.length).toBeLessThanOrEqual(MAX_QUOTE_CHARS);
              const spans = shown.get(quote.chunkId) ?? [];
              spans.push({ sourceId: requests[index]?.sourceId ?? "", start: quote.start ?? 0, end: quote.end ?? 0 });
              shown.set(quote.chunkId, spans);
            }
          });
          // What the reader sees of each passage: the union of its quotes, two quotes with only
          // white space between them read as one (the space shown once).
          const spent: { sourceId: string; length: number }[] = [];
          for (const spans of shown.values()) {
            const groups: { sourceId: string; start: number; end: number }[] = [];
            for (const span of [...spans].sort((a, b) => a.start - b.start)) {
              const last = groups.at(-1);
              const sourceText = sources.find((source) => source.id === span.sourceId)?.text ?? "";
              if (last && (span.start <= last.end || sourceText.slice(last.end, span.start).trim() === "")) {
                last.end = Math.max(last.end, span.end);
              } else groups.push({ ...span });
            }
            for (const group of groups) {
              const sourceText = sources.find((source) => source.id === group.sourceId)?.text ?? "";
              spent.push({
                sourceId: group.sourceId,
                length: normalizeExcerptText(sourceText.slice(group.start, group.end)).length,
              });
            }
          }
          expect(spent.reduce((sum, item) => sum + item.length, 0)).toBeLessThanOrEqual(total);
          for (const source of sources) {
            const own = spent.filter((item) => item.sourceId === source.id);
            expect(own.reduce((sum, item) => sum + item.length, 0)).toBeLessThanOrEqual(perSource);
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe("sourceOffset", () => {
  it("property: maps each character of the normalized text back to the same character of the text", () => {
    const piece = fc.constantFrom(
      ..."a B 7 é — 𝒜".split(" "),
      ...[" ", "  ", "\n", "\n\n", "\t", "\u000b", "\u000c", "\u00a0", "\u2028", "\ufeff", "\u3000"],
      ...["\u200b", "\u0007", "\u0085", "\u202a", "\u2066"],
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }), (pieces) => {
        const text = pieces.join("");
        const normalized = normalizeExcerptText(text);
        for (let index = 0; index < normalized.length; index++) {
          const char = text[sourceOffset(text, index)] ?? "";
          expect(/\s/.test(char) ? " " : char).toBe(normalized[index]);
        }
        expect(sourceOffset(text, normalized.length)).toBe(text.length);
        if (normalized.length > 0) {
          // storedSpan reads both ends in one pass: the same offsets.
          const chunk = { id: "c", seq: 1, start: 100, text };
          const end = normalized.length;
          expect(storedSpan(chunk, 0, end)).toEqual({
            start: 100 + sourceOffset(text, 0),
            end: 100 + sourceOffset(text, end - 1) + 1,
          });
        }
      }),
    );
  });
});
