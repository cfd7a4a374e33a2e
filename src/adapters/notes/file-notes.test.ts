import { readdir, readFile, unlink } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { UserError } from "../../core/errors.js";
import { notesFileName, parseNotes } from "../../core/investigative/notes.js";
import { ensureWorkingCopy, newNotesId } from "../../strategies/investigative/notes-working-copy.js";
import { tempDir } from "../../testing/temp-dir.js";
import { FileNotes } from "./file-notes.js";

const NOTES_ID = "00112233445566778899aabbccddeeff";
const NAME = `notes_alice_1_${NOTES_ID}.md`;

let folder: { path: string; cleanup: () => void };
let files: FileNotes;

beforeEach(() => {
  folder = tempDir("assay-notes-");
  files = new FileNotes({ directory: join(folder.path, "notes") });
});
afterEach(() => folder.cleanup());

describe("FileNotes", () => {
  it("reads undefined for a missing file, and before the directory exists", async () => {
    expect(await files.read(NAME)).toBeUndefined();
  });

  it("writes, overwrites and reads back, leaving no temp files", async () => {
    await files.write(NAME, "# Notes: one\n");
    await files.write(NAME, "# Notes: two\nü😀\n");
    expect(await files.read(NAME)).toBe("# Notes: two\nü😀\n");
    expect(await readdir(join(folder.path, "notes"))).toEqual([NAME]);
  });

  it("leaves one whole text and no temp files after concurrent writes", async () => {
    const texts = Array.from({ length: 20 }, (_, index) => `# Notes: ${index}\n${"x".repeat(10_000 * (index + 1))}\n`);
    await Promise.all(texts.map((text) => files.write(NAME, text)));
    expect(texts).toContain(await files.read(NAME));
    expect(await readdir(join(folder.path, "notes"))).toEqual([NAME]);
  });

  it("refuses names that are not notes file names", async () => {
    for (const name of [
      "../notes_a_1_00112233445566778899aabbccddeeff.md",
      "sub/notes_a_1_00112233445566778899aabbccddeeff.md",
      "notes_a/b_1_00112233445566778899aabbccddeeff.md",
      "notes_a_1_00112233445566778899AABBCCDDEEFF.md",
      "notes_a_1_00112233445566778899aabbccddeeff.md.tmp",
      `notes_${"a".repeat(65)}_1_${NOTES_ID}.md`,
      "report.md",
      "",
    ]) {
      await expect(files.write(name, "x")).rejects.toBeInstanceOf(UserError);
      await expect(files.read(name)).rejects.toBeInstanceOf(UserError);
    }
    expect(await readdir(folder.path)).toEqual([]);
  });

  it("accepts every name notesFileName makes", async () => {
    const name = notesFileName("../ü ser/".repeat(30), 12, NOTES_ID);
    expect(name.ok).toBe(true);
    if (!name.ok) return;
    await files.write(name.value, "text");
    expect(await readFile(join(folder.path, "notes", name.value), "utf8")).toBe("text");
  });
});

describe("working copy", () => {
  it("returns the file as it is when present", async () => {
    await files.write(NAME, "current");
    expect(await ensureWorkingCopy(files, NAME, { text: "older version" })).toEqual({
      restored: false,
      text: "current",
    });
  });

  it("restores the file from the latest version when it was deleted", async () => {
    const text = "# Notes: q\n\n## Verified\n- [c_001] VERIFIED  x  src: s_001\n\n## Scratch\n";
    await files.write(NAME, text);
    await unlink(join(folder.path, "notes", NAME));
    expect(await ensureWorkingCopy(files, NAME, { text })).toEqual({ restored: true, text });
    expect(await files.read(NAME)).toBe(text);
    expect(parseNotes((await files.read(NAME)) ?? "").verified).toHaveLength(1);
  });

  it("has nothing to restore for a new run", async () => {
    expect(await ensureWorkingCopy(files, NAME, undefined)).toBeUndefined();
    expect(await files.read(NAME)).toBeUndefined();
  });

  it("keeps an empty file as it is", async () => {
    await files.write(NAME, "");
    expect(await ensureWorkingCopy(files, NAME, { text: "version" })).toEqual({ restored: false, text: "" });
  });

  it("makes notes ids of 32 lowercase hex characters from injected randomness", () => {
    expect(newNotesId((size) => new Uint8Array(size).map((_, index) => index * 17))).toBe(
      "00112233445566778899aabbccddeeff",
    );
    expect(() => newNotesId(() => new Uint8Array(8))).toThrow(RangeError);
  });
});
