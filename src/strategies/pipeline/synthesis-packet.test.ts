/** The packet's order: what a search ranked first comes first, not what was read first. */
import { describe, expect, it } from "vitest";
import type { SearchCallRecord, SourceRecord } from "../../ports/store.js";
import { readingOrder } from "./synthesis-packet.js";

const source = (id: string, anchor: string, provenance: [string, number][]): SourceRecord =>
  ({
    id,
    canonicalAnchor: anchor,
    provenance: provenance.map(([queryId, rank]) => ({ queryId, rank, requestedAnchor: anchor })),
  }) as SourceRecord;

const call = (id: string, origin: SearchCallRecord["origin"]): SearchCallRecord => ({ id, origin }) as SearchCallRecord;

describe("readingOrder", () => {
  it("lists the bootstrap's hits by its rank, then the others by their best rank, then by identity", () => {
    // Ids as the reads finished: the bootstrap's third hit was persisted first.
    const sources = [
      source("s_001", "c.md", [["sq_001", 3]]),
      source("s_002", "planned-b.md", [["sq_003", 1]]),
      source("s_003", "a.md", [["sq_001", 1]]),
      source("s_004", "planned-a.md", [["sq_002", 1]]),
      source("s_005", "b.md", [
        ["sq_002", 2],
        ["sq_001", 2],
      ]),
      source("s_006", "planned-late.md", [["sq_002", 4]]),
    ];
    const calls = [call("sq_001", "bootstrap"), call("sq_003", "planner"), call("sq_002", "planner")];
    expect(readingOrder(sources, calls).map((entry) => entry.canonicalAnchor)).toEqual([
      "a.md",
      "b.md",
      "c.md",
      "planned-a.md",
      "planned-b.md",
      "planned-late.md",
    ]);
  });
});
