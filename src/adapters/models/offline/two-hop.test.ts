/**
 * Pseudo-relevance feedback on a tiny two-hop corpus, searched with the real corpus index:
 * the bootstrap search of the question finds the first hop only; a feedback query built
 * from it finds the second, and the synthesis then quotes the answer from it.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chunkContent } from "../../../core/chunking.js";
import { chunkId, sourceId } from "../../../core/ids.js";
import type { PacketSource } from "../../../ports/model.js";
import { tempDir } from "../../../testing/temp-dir.js";
import { CorpusIndex } from "../../corpus/corpus-index.js";
import { createOfflineModel } from "./offline-model.js";

const DOCUMENTS: Record<string, string> = {
  "licoo2-oxford.md":
    "# Lithium cobalt oxide at Oxford\n\nLithium cobalt oxide (LiCoO2) was discovered as a cathode material in 1980 " +
    "by the lab of John Goodenough at Oxford. As head of the Inorganic Chemistry Laboratory, Goodenough led the " +
    "team that found that LiCoO2 releases lithium at a high voltage.",
  "nobel-2019.md":
    "# The 2019 Nobel Prize in Chemistry\n\nThe 2019 Nobel Prize in Chemistry was awarded for the development of " +
    "lithium-ion batteries. When the prize was announced, Goodenough was a professor at the University of Texas " +
    "at Austin.",
  "lab-heads.md":
    "# Heads of university labs\n\nThe head of a university lab is usually a professor. Which head of lab won the " +
    "most grants is discovered each year by the university, and the lab that won is named.",
  "university-rowing.md":
    "# University rowing\n\nThe university crew won the Head of the River race. Its lab partners discovered that " +
    "the university crew that won trained in the lab.",
  "nobel-committee.md":
    "# The Nobel committee\n\nThe head of the Nobel committee is chosen by the university and the lab heads; who " +
    "won a Nobel is discovered in October.",
  "nobel-peace.md":
    "# Nobel Peace Prize\n\nThe Nobel Peace Prize was won by a university head in a year when a lab discovered a " +
    "vaccine.",
  "nobel-lab.md": "# Nobel lab\n\nThe Nobel lab at the university discovered that its head won.",
  "cobalt.md": "# Cobalt\n\nCobalt is a metal mined mostly in the Congo. Cobalt is used in cathodes.",
};

const QUESTION = "Which university was the head of the lab that discovered LiCoO2 at when he won the Nobel?";

describe("offline planner: pseudo-relevance feedback on a two-hop question", () => {
  const folder = tempDir("assay-offline-two-hop-");
  let index: CorpusIndex;
  const corpus = join(folder.path, "corpus");

  beforeAll(async () => {
    const { mkdirSync } = await import("node:fs");
    mkdirSync(corpus);
    for (const [name, text] of Object.entries(DOCUMENTS)) writeFileSync(join(corpus, name), text);
    index = CorpusIndex.open(corpus, join(folder.path, "index.sqlite"));
    await index.refresh();
  });

  afterAll(() => {
    index.close();
    folder.cleanup();
  });

  const read = (paths: readonly string[]): PacketSource[] =>
    paths.map((path, position) => {
      const document = [...index.documents()].find((candidate) => candidate.path === path);
      if (!document) throw new Error(`no ${path}`);
      const id = sourceId(position + 1);
      return {
        id,
        title: document.title,
        location: path,
        chunks: chunkContent(document.body).map((chunk) => ({ id: chunkId(id, chunk.seq), text: chunk.text })),
      };
    });

  it("finds the second document through a name the first one gives, then quotes the answer", async () => {
    const bootstrapHits = index.search(QUESTION, 30).map((hit) => hit.path);
    const reserved = bootstrapHits.slice(0, 3);
    expect(reserved).toContain("licoo2-oxford.md");
    expect(reserved).not.toContain("nobel-2019.md");

    const model = createOfflineModel();
    const plan = await model.plan(
      {
        question: QUESTION,
        language: "en",
        scope: "the local folder “corpus”",
        scopeKind: "corpus",
        maxQueries: 4,
        maxQueryChars: 120,
        bootstrap: Promise.resolve(read(reserved)),
      },
      { timeoutMs: 5_000 },
    );
    if (!plan.ok) throw new Error(plan.error);
    const queries = plan.value.queries.map((query) => query.text ?? "");
    const feedback = queries.find((query) => query.includes("Goodenough"));
    expect(feedback).toBeDefined();
    expect(feedback).toMatch(/Nobel/);
    expect(queries).not.toContain(QUESTION);
    // The feedback query's best document not read yet is the second hop.
    const next = index
      .search(feedback ?? "", 10)
      .map((hit) => hit.path)
      .find((path) => !reserved.includes(path));
    expect(next).toBe("nobel-2019.md");

    const sources = read([...reserved, "nobel-2019.md"]);
    const synthesis = await model.synthesize(
      { question: QUESTION, language: "en", scope: "", boundary: "", sources },
      { timeoutMs: 5_000 },
    );
    if (!synthesis.ok) throw new Error(synthesis.error);
    const answer = synthesis.value.facts.find((fact) => fact.text.includes("University of Texas at Austin"));
    expect(answer).toMatchObject({ sourceId: "s_004", chunkIds: ["s_004.p01"] });
    expect(synthesis.value.facts.some((fact) => fact.sourceId === "s_001" || fact.text.includes("LiCoO2"))).toBe(true);
  });
});
