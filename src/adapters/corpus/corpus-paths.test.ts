import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { UserError } from "../../core/errors.js";
import { tempDir } from "../../testing/temp-dir.js";
import { normalizeCorpusPath, resolveCorpusFile, resolveCorpusRoot, walkCorpus } from "./corpus-paths.js";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** A fresh real (symlink-free) folder, removed after the test. */
function freshDir(): string {
  const dir = tempDir();
  cleanups.push(dir.cleanup);
  return realpathSync(dir.path);
}

/** A corpus folder and a sibling folder outside it, under one temporary parent. */
function corpusWithOutside(): { root: string; outside: string } {
  const parent = freshDir();
  const root = join(parent, "corpus");
  const outside = join(parent, "outside");
  mkdirSync(root);
  mkdirSync(outside);
  writeFileSync(join(outside, "secret.md"), "# Secret\n\nNot part of the corpus.\n");
  return { root, outside };
}

function write(root: string, relative: string, content = "# Doc\n\nSome text.\n"): void {
  const file = join(root, relative);
  mkdirSync(join(file, ".."), { recursive: true });
  writeFileSync(file, content);
}

function refusal(result: { ok: true } | { ok: false; error: string }): string {
  if (result.ok) throw new Error("expected a refusal");
  return result.error;
}

describe("normalizeCorpusPath", () => {
  it.each([
    ["", "empty"],
    ["..", "'..'"],
    ["../x.md", "'..'"],
    ["a/../../x.md", "'..'"],
    ["a/b/..", "'..'"],
    ["/etc/passwd", "absolute"],
    ["C:\\x", "absolute"],
    ["C:/x", "absolute"],
    ["c:x.md", "absolute"],
    ["a\\b.md", "backslash"],
    ["\\\\server\\share\\x.md", "backslash"],
    ["a\u0000.md", "NUL"],
    ["a\nb.md", "control"],
    ["a\u001fb.md", "control"],
    ["a\u007fb.md", "control"],
    [".", "corpus folder itself"],
    ["./", "corpus folder itself"],
    ["//", "absolute"],
  ])("refuses %j (%s)", (input, fragment) => {
    expect(refusal(normalizeCorpusPath(input))).toContain(fragment);
  });

  it("refuses paths longer than 1024 characters and accepts 1024", () => {
    expect(refusal(normalizeCorpusPath(`${"a".repeat(1_022)}.md`))).toContain("longer than 1024");
    expect(normalizeCorpusPath(`${"a".repeat(1_021)}.md`)).toEqual({ ok: true, value: `${"a".repeat(1_021)}.md` });
  });

  it("normalizes '.' segments and repeated or trailing slashes", () => {
    expect(normalizeCorpusPath("./a//b.md")).toEqual({ ok: true, value: "a/b.md" });
    expect(normalizeCorpusPath("a/./b/./c.md/")).toEqual({ ok: true, value: "a/b/c.md" });
    expect(normalizeCorpusPath("x.md")).toEqual({ ok: true, value: "x.md" });
  });

  it("accepts names that merely contain dots", () => {
    expect(normalizeCorpusPath("a/..b.md")).toEqual({ ok: true, value: "a/..b.md" });
    expect(normalizeCorpusPath("v1.2/notes...md")).toEqual({ ok: true, value: "v1.2/notes...md" });
  });
});

describe("resolveCorpusRoot", () => {
  it("returns the real path of a folder", async () => {
    const { root } = corpusWithOutside();
    const link = join(root, "..", "link-to-corpus");
    symlinkSync(root, link);
    expect(await resolveCorpusRoot(link)).toBe(root);
  });

  it("refuses a missing folder and a file with UserError", async () => {
    const { root } = corpusWithOutside();
    await expect(resolveCorpusRoot(join(root, "missing"))).rejects.toThrow(UserError);
    await expect(resolveCorpusRoot(join(root, "missing"))).rejects.toThrow("does not exist");
    write(root, "file.md");
    await expect(resolveCorpusRoot(join(root, "file.md"))).rejects.toThrow("is not a folder");
  });
});

describe("resolveCorpusFile", () => {
  it("resolves a document to its normalized path and real absolute path", async () => {
    const { root } = corpusWithOutside();
    write(root, "a/b.md");
    expect(await resolveCorpusFile(root, "./a//b.md")).toEqual({
      ok: true,
      value: { path: "a/b.md", absolute: join(root, "a", "b.md") },
    });
  });

  it("refuses a symlinked file that points outside the corpus", async () => {
    const { root, outside } = corpusWithOutside();
    symlinkSync(join(outside, "secret.md"), join(root, "escape.md"));
    expect(refusal(await resolveCorpusFile(root, "escape.md"))).toContain("leads outside the corpus");
  });

  it("refuses a file reached through a symlinked folder that points outside", async () => {
    const { root, outside } = corpusWithOutside();
    symlinkSync(outside, join(root, "elsewhere"));
    expect(refusal(await resolveCorpusFile(root, "elsewhere/secret.md"))).toContain("leads outside the corpus");
  });

  it("refuses a link to a sibling folder whose name starts with the corpus name", async () => {
    const { root } = corpusWithOutside();
    write(`${root}-evil`, "x.md");
    symlinkSync(`${root}-evil`, join(root, "sib"));
    expect(refusal(await resolveCorpusFile(root, "sib/x.md"))).toContain("leads outside the corpus");
  });

  it("accepts a symlink inside the corpus that points to another document inside", async () => {
    const { root } = corpusWithOutside();
    write(root, "real/target.md");
    symlinkSync(join(root, "real", "target.md"), join(root, "alias.md"));
    const resolved = await resolveCorpusFile(root, "alias.md");
    expect(resolved).toEqual({ ok: true, value: { path: "alias.md", absolute: join(root, "real", "target.md") } });
  });

  it("refuses missing files, unsupported types, folders and '..' paths", async () => {
    const { root } = corpusWithOutside();
    write(root, "tool.exe", "MZ");
    write(root, "folder/x.md");
    expect(refusal(await resolveCorpusFile(root, "missing.md"))).toContain("no document missing.md");
    expect(refusal(await resolveCorpusFile(root, "tool.exe"))).toContain("not a supported document type");
    expect(refusal(await resolveCorpusFile(root, "folder"))).toContain("is not a file");
    expect(refusal(await resolveCorpusFile(root, "../outside/secret.md"))).toContain("'..'");
    expect(refusal(await resolveCorpusFile(root, join(root, "folder", "x.md")))).toContain("absolute");
  });

  it("refuses a dangling link as a missing document", async () => {
    const { root } = corpusWithOutside();
    symlinkSync(join(root, "gone.md"), join(root, "dangling.md"));
    expect(refusal(await resolveCorpusFile(root, "dangling.md"))).toContain("no document");
  });
});

describe("walkCorpus", () => {
  it("lists only supported, non-hidden documents, in sorted order with sizes; counts the other types", async () => {
    const root = freshDir();
    write(root, "b.md", "12345");
    write(root, "a.txt");
    write(root, "sub/c.html", "<p>x</p>");
    write(root, "sub/d.PDF", "%PDF");
    write(root, "sub/e.exe", "MZ");
    write(root, "notes.zip", "x");
    write(root, "sub/f.exe", "MZ");
    write(root, "README");
    write(root, ".hidden.md");
    write(root, ".git/HEAD.md");
    write(root, "sub/.cache/x.md");
    const walk = await walkCorpus(root);
    expect(walk.files.map((file) => file.path)).toEqual(["a.txt", "b.md", "sub/c.html", "sub/d.PDF"]);
    const b = walk.files.find((file) => file.path === "b.md");
    expect(b?.size).toBe(5);
    expect(b?.absolute).toBe(join(root, "b.md"));
    expect(b?.mtimeMs).toBeGreaterThan(0);
    expect(walk.skipped).toEqual([]);
    expect(walk.unsupported).toEqual({ "": 1, ".exe": 2, ".zip": 1 });
  });

  it("skips links that lead outside the corpus and lists them in skipped", async () => {
    const { root, outside } = corpusWithOutside();
    write(root, "inside.md");
    symlinkSync(join(outside, "secret.md"), join(root, "escape.md"));
    symlinkSync(outside, join(root, "elsewhere"));
    const walk = await walkCorpus(root);
    expect(walk.files.map((file) => file.path)).toEqual(["inside.md"]);
    expect(walk.skipped).toEqual([
      { path: "elsewhere", reason: "link leads outside the corpus" },
      { path: "escape.md", reason: "link leads outside the corpus" },
    ]);
    expect(walk.files.some((file) => file.absolute.startsWith(outside))).toBe(false);
  });

  it("does not loop on a symlink cycle", async () => {
    const root = freshDir();
    write(root, "a/doc.md");
    symlinkSync(root, join(root, "a", "up"));
    symlinkSync(join(root, "a"), join(root, "a", "self"));
    symlinkSync(join(root, "b"), join(root, "a", "to-b"));
    write(root, "b/other.md");
    symlinkSync(join(root, "a"), join(root, "b", "to-a"));
    const walk = await walkCorpus(root);
    const paths = walk.files.map((file) => file.path);
    expect(paths).toContain("a/doc.md");
    expect(paths.filter((path) => path.endsWith("doc.md"))).toHaveLength(1);
    expect(paths.filter((path) => path.endsWith("other.md"))).toHaveLength(1);
    expect(paths).toHaveLength(2);
  });

  it("follows an in-corpus folder link once", async () => {
    const root = freshDir();
    write(root, "docs/one.md");
    write(root, "docs/two.txt");
    symlinkSync(join(root, "docs"), join(root, "zz-alias"));
    const walk = await walkCorpus(root);
    expect(walk.files.map((file) => file.path)).toEqual(["docs/one.md", "docs/two.txt"]);
    expect(walk.skipped).toEqual([]);
  });

  it("lists each document of a linked folder once even when the link is reached first", async () => {
    const root = freshDir();
    write(root, "docs/one.md");
    symlinkSync(join(root, "docs"), join(root, "a-alias"));
    const walk = await walkCorpus(root);
    expect(walk.files).toHaveLength(1);
    expect(walk.files[0]?.absolute).toBe(join(root, "docs", "one.md"));
    expect(["a-alias/one.md", "docs/one.md"]).toContain(walk.files[0]?.path);
  });

  it("lists a file link inside the corpus under its own name with the target's real path", async () => {
    const root = freshDir();
    write(root, "target.md");
    symlinkSync(join(root, "target.md"), join(root, "alias.md"));
    const walk = await walkCorpus(root);
    expect(walk.files.map((file) => [file.path, file.absolute])).toEqual([
      ["alias.md", join(root, "target.md")],
      ["target.md", join(root, "target.md")],
    ]);
  });

  it("does not list a supported-looking link whose target is an unsupported type", async () => {
    const root = freshDir();
    write(root, "program.exe", "MZ");
    symlinkSync(join(root, "program.exe"), join(root, "looks-like.md"));
    const walk = await walkCorpus(root);
    expect(walk.files).toEqual([]);
    // Everything the walk lists must be readable through resolveCorpusFile.
    expect((await resolveCorpusFile(root, "looks-like.md")).ok).toBe(false);
  });

  it("skips files over maxFileBytes and stops listing at maxFiles", async () => {
    const root = freshDir();
    write(root, "big.md", "x".repeat(100));
    write(root, "a.md", "x");
    write(root, "c.md", "x");
    const walk = await walkCorpus(root, { maxFileBytes: 50, maxFiles: 1 });
    expect(walk.files.map((file) => file.path)).toEqual(["a.md"]);
    expect(walk.skipped).toEqual([{ path: "big.md", reason: "larger than 50 bytes" }]);
  });
});
