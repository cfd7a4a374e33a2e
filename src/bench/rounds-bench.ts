/**
 * Research in rounds (issue 22): what a follow-up costs before it reads anything, and what the
 * library costs to search. On a real SQLite store (WAL, synchronous=FULL) in the bench folder:
 * R1 creating a child run of a parent with 50 sources (the parent's sources and passages copied
 * in the creating transaction), R2 opening the user's library for a search (listing, reading and
 * indexing every entry in memory) at 1,000 entries, R3 one ranked search of that index (two
 * rare words and a common one).
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { libraryIndex } from "../adapters/library/library-scope.js";
import { openSqliteStore } from "../adapters/store/sqlite/sqlite-store.js";
import { DEFAULT_BUDGETS } from "../core/budgets.js";
import { chunkContent } from "../core/chunking.js";
import { LOCAL_USER, type NewSource, type RunRequest } from "../ports/store.js";
import { type Figure, fixed, median, printFigures } from "./figures.js";

const PARENT_SOURCES = 50;
const LIBRARY_ENTRIES = 1_000;
const WORDS = "cell anode cathode lithium cobalt nickel graphite electrolyte separator capacity voltage charge".split(
  " ",
);

/** A made-up word: 4,000 of them, so that a query word is in a few documents, as in real text. */
const rare = (k: number): string => `term${(k * 2_654_435_761) % 4_000}`;

/** A document of about 12 KB: common words, and rare words different in each. */
function documentText(d: number): string {
  return Array.from(
    { length: 80 },
    (_, n) =>
      `In test ${d}.${n} the ${WORDS[(d + n) % WORDS.length]} of ${rare(d * 80 + n)} held ${100 + ((d * 7 + n * 13) % 900)} units after ${d * 10 + n} cycles.`,
  ).join(" ");
}

function source(d: number): NewSource {
  const content = documentText(d);
  const path = `docs/doc-${d}.md`;
  return {
    requestedAnchor: path,
    canonicalAnchor: path,
    title: `Document ${d}`,
    transport: "corpus",
    path,
    domain: "",
    content,
    truncated: false,
    contentType: "text/markdown",
    sha256: createHash("sha256").update(content).digest("hex"),
    capturedAt: new Date().toISOString(),
    fetchedMs: 1,
    provenance: { queryId: "sq_001", rank: 1, requestedAnchor: path },
    chunks: chunkContent(content).map((chunk, index) => ({ ...chunk, seq: index + 1 })),
  };
}

const request = (root: string): RunRequest => ({
  question: "How many cycles did the cells hold?",
  language: "en",
  strategy: "pipeline",
  model: "offline",
  scope: { kind: "corpus", root, label: "docs" },
  budgets: { ...DEFAULT_BUDGETS },
  outDir: "",
});

export async function roundsBench(tempRoot: string, passes: number): Promise<void> {
  const store = openSqliteStore({ file: join(tempRoot, "rounds.db") });
  const origin = { originAt: new Date().toISOString(), worker: "bench" };
  try {
    // The library: entries written as runs persist sources (each its own transaction, as in a run).
    const filler = await store.createRun(request(join(tempRoot, "corpus")), origin);
    for (let d = 0; d < LIBRARY_ENTRIES; d++) await store.persistSource(filler.id, source(d), () => 1);
    const parent = await store.createRun(request(join(tempRoot, "corpus")), origin);
    for (let d = 0; d < PARENT_SOURCES; d++) await store.persistSource(parent.id, source(d), () => 1);
    const passages = (await store.listSources(parent.id)).reduce((total, item) => total + item.chunks.length, 0);

    const create: number[] = [];
    const open: number[] = [];
    const search: number[] = [];
    for (let pass = 0; pass <= passes; pass++) {
      let started = performance.now();
      await store.createRun(
        {
          ...request(join(tempRoot, "corpus")),
          lineage: { parentId: parent.id, relation: "follow-up", instruction: "" },
        },
        origin,
      );
      const createMs = performance.now() - started;
      started = performance.now();
      const index = await libraryIndex(store, LOCAL_USER);
      const openMs = performance.now() - started;
      const searches: number[] = [];
      for (let query = 0; query < 20; query++) {
        started = performance.now();
        index.search(`${rare(query * 97)} ${rare(query * 89 + 5)} cycles`, 10);
        searches.push(performance.now() - started);
      }
      index.close();
      // The first pass warms up (statements prepared, pages cached).
      if (pass === 0) continue;
      create.push(createMs);
      open.push(openMs);
      search.push(median(searches));
    }
    console.log(
      `\nResearch in rounds: a follow-up's start and the library (SQLite WAL + synchronous=FULL; ${PARENT_SOURCES} parent sources of ~12 KB, ${passages} passages; ${LIBRARY_ENTRIES} library entries)`,
    );
    const figures: Figure[] = [
      ["R1", `create a follow-up: copy ${PARENT_SOURCES} sources + ${passages} passages`, create, "ms"],
      ["R2", `open the library for search: ${LIBRARY_ENTRIES} entries read and indexed`, open, "ms"],
      ["R3", "one library search (median of 20 queries)", search, "ms"],
    ];
    printFigures("-", figures, "N");
    console.log(
      `  R1 per copied source: ${fixed(median(create) / PARENT_SOURCES, 3)} ms (a fetch it replaces costs the network round trip plus extraction).`,
    );
    console.log(
      `  R2 per entry: ${fixed(median(open) / LIBRARY_ENTRIES, 3)} ms: linear in the library's size, paid once per --library run or library search.`,
    );
  } finally {
    await store.close();
  }
}
