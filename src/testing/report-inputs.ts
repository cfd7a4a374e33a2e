/** Report builder inputs for tests: catalog sources chunked as runs chunk them, and a final build input. */
import { chunkContent } from "../core/chunking.js";
import { chunkId } from "../core/ids.js";
import type { BuildInput, CatalogSource } from "../core/report/build-report.js";

/** Source `n` (`s_00n`, "Document n", `docs/doc-n.md`) with `text` in passages of at most 400 characters. */
export function catalogSource(n: number, text: string, extra: Partial<CatalogSource> = {}): CatalogSource {
  const id = `s_${String(n).padStart(3, "0")}`;
  return {
    id,
    title: `Document ${n}`,
    path: `docs/doc-${n}.md`,
    capturedAt: "2026-01-15T09:00:00.000Z",
    chunks: chunkContent(text, { maxChars: 400 }).map((chunk) => ({
      id: chunkId(id, chunk.seq),
      seq: chunk.seq,
      start: chunk.start,
      text: chunk.text,
    })),
    ...extra,
  };
}

/** The input of a final report on `question` from `sources`, every source read and no limit reached. */
export function reportInput(
  question: string,
  sources: readonly CatalogSource[],
  overrides: Partial<BuildInput> = {},
): BuildInput {
  return {
    question,
    language: "en",
    scope: "the local folder “corpus”",
    sources,
    attemptedQueries: [`“${question}”`],
    acquisition: {
      searchCalls: 1,
      failedSearches: 0,
      partialSearches: 0,
      fetchAttempts: sources.length,
      failedFetches: 0,
      limitsReached: [],
      deadlineReached: false,
      cancelled: false,
    },
    phase: "final",
    generatedAt: "2026-01-15T09:01:00.000Z",
    excerptCharsPerSource: 500,
    excerptCharsTotal: 2_000,
    ...overrides,
  };
}
