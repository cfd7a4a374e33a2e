/** The index line says what it left out: files of unsupported types by extension, and unreadable files with why. */
import { describe, expect, it } from "vitest";
import type { RunEvent } from "../ports/store.js";
import { describeEvent } from "./event-lines.js";

const indexed = (data: Record<string, unknown>): RunEvent =>
  ({
    runId: 1,
    seq: 1,
    offsetMs: 0,
    at: "2026-01-15T09:00:00.000Z",
    type: "corpus-indexed",
    data: { documents: 4, added: 4, updated: 0, unchanged: 0, ...data },
  }) as RunEvent;

describe("the corpus-indexed line", () => {
  it("names nothing when everything was read", () => {
    expect(describeEvent(indexed({ unsupported: {}, unreadable: [], failed: 0 }))).toBe(
      "corpus indexed: 4 documents (4 added, 0 updated, 0 unchanged)",
    );
  });

  it("counts unsupported types and names unreadable files with their reason", () => {
    const line = describeEvent(
      indexed({
        unsupported: { "": 1, ".exe": 1, ".zip": 2 },
        unreadable: [{ path: "locked.docx", reason: "password-protected (an encrypted entry)" }],
        failed: 3,
      }),
    );
    expect(line).toBe(
      "corpus indexed: 4 documents (4 added, 0 updated, 0 unchanged); not read: 4 files of unsupported types " +
        "(1 without extension, 1 .exe, 2 .zip); locked.docx: password-protected (an encrypted entry); 2 more unreadable",
    );
  });
});
