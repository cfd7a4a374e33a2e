import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { UserError } from "../../../core/errors.js";
import type { SearchHit } from "../../../ports/search-provider.js";
import { tempDir } from "../../../testing/temp-dir.js";
import { CorpusIndex } from "../../corpus/corpus-index.js";
import {
  CorpusSearch,
  compilePattern,
  MAX_PATTERN_CHARS,
  MAX_PATTERN_SCAN_CHARS,
  MAX_REPEAT_COUNT,
} from "./corpus-search.js";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

/** A corpus with `files`, indexed in memory, behind a CorpusSearch. */
async function searchOver(files: Record<string, string>): Promise<CorpusSearch> {
  const dir = tempDir();
  cleanups.push(dir.cleanup);
  const root = realpathSync(dir.path);
  for (const [relative, content] of Object.entries(files)) {
    const file = join(root, relative);
    mkdirSync(join(file, ".."), { recursive: true });
    writeFileSync(file, content);
  }
  const index = CorpusIndex.open(root, ":memory:");
  cleanups.push(() => index.close());
  await index.refresh();
  return new CorpusSearch(index);
}

const CORPUS = {
  "chemistry/lfp.md":
    "# Lithium iron phosphate\n\nLFP has an olivine structure. Olivine LFP is safe; LFP cells are cheap.\n",
  "chemistry/nmc.md": "# NMC cathodes\n\nNickel manganese cobalt oxide. Some NMC blends mention LFP once.\n",
  "history/sony.txt": "Sony and the first cells\n\nSony sold lithium-ion cells in 1991. Olivine came later.\n",
  "Chemistry-notes/x.md": "# Upper-case folder\n\nLFP LFP LFP LFP LFP.\n",
};

const pattern = (search: CorpusSearch, text: string, pathPrefix?: string, limit = 10): Promise<SearchHit[]> =>
  search.search(
    pathPrefix === undefined ? { kind: "pattern", pattern: text } : { kind: "pattern", pattern: text, pathPrefix },
    { limit },
  );

describe("CorpusSearch text search", () => {
  it("returns ranked hits with the path as anchor, the title and a snippet", async () => {
    const search = await searchOver(CORPUS);
    expect(search.name).toBe("corpus");
    const hits = await search.search({ kind: "text", text: "olivine structure" }, { limit: 10 });
    expect(hits.map((hit) => hit.anchor)).toEqual(["chemistry/lfp.md", "history/sony.txt"]);
    expect(hits.map((hit) => hit.rank)).toEqual([1, 2]);
    expect(hits[0]?.title).toBe("Lithium iron phosphate");
    expect(hits[1]?.title).toBe("Sony and the first cells");
    expect(hits[0]?.snippet).toContain("olivine structure");
    expect(hits[0]?.score).toBeGreaterThan(hits[1]?.score ?? Number.POSITIVE_INFINITY);
    for (const hit of hits) expect(hit.snippet).not.toMatch(/\n/);
  });

  it("honours the limit and returns nothing for an unmatched query", async () => {
    const search = await searchOver(CORPUS);
    expect(await search.search({ kind: "text", text: "olivine" }, { limit: 1 })).toHaveLength(1);
    expect(await search.search({ kind: "text", text: "zirconium" }, { limit: 10 })).toEqual([]);
  });

  it("throws when the signal is already aborted", async () => {
    const search = await searchOver(CORPUS);
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    await expect(
      search.search({ kind: "text", text: "olivine" }, { limit: 10, signal: controller.signal }),
    ).rejects.toThrow("stop");
  });
});

describe("CorpusSearch pattern search", () => {
  it("matches case-insensitively and ranks by number of matches", async () => {
    const search = await searchOver(CORPUS);
    const hits = await pattern(search, "lfp");
    expect(hits.map((hit) => [hit.anchor, hit.score])).toEqual([
      ["Chemistry-notes/x.md", 5],
      ["chemistry/lfp.md", 3],
      ["chemistry/nmc.md", 1],
    ]);
    expect(hits.map((hit) => hit.rank)).toEqual([1, 2, 3]);
    expect(hits[1]?.title).toBe("Lithium iron phosphate");
    expect(hits[1]?.snippet).toContain("LFP has an olivine structure");
    expect(hits.slice(0, 1)).toEqual((await pattern(search, "lfp", undefined, 1)).slice(0, 1));
  });

  it("supports regular-expression syntax, multiline anchors included", async () => {
    const search = await searchOver(CORPUS);
    expect((await pattern(search, "\\b19[0-9]{2}\\b")).map((hit) => hit.anchor)).toEqual(["history/sony.txt"]);
    expect((await pattern(search, "^sony and")).map((hit) => hit.anchor)).toEqual(["history/sony.txt"]);
    expect(await pattern(search, "cobalt\\s+nickel")).toEqual([]);
  });

  it("honours pathPrefix as a folder, case-sensitively", async () => {
    const search = await searchOver(CORPUS);
    expect((await pattern(search, "olivine", "chemistry")).map((hit) => hit.anchor)).toEqual(["chemistry/lfp.md"]);
    expect((await pattern(search, "lfp", "./chemistry/")).map((hit) => hit.anchor)).toEqual([
      "chemistry/lfp.md",
      "chemistry/nmc.md",
    ]);
    expect((await pattern(search, "lfp", "Chemistry-notes")).map((hit) => hit.anchor)).toEqual([
      "Chemistry-notes/x.md",
    ]);
    expect(await pattern(search, "lfp", "chem")).toEqual([]);
    expect(await pattern(search, "olivine", "future")).toEqual([]);
  });

  it.each([
    ["../secret", "'..'"],
    ["chemistry/../..", "'..'"],
    ["/etc", "absolute"],
  ])("refuses pathPrefix %j with a UserError", async (prefix, fragment) => {
    const search = await searchOver(CORPUS);
    const attempt = pattern(search, "lfp", prefix);
    await expect(attempt).rejects.toBeInstanceOf(UserError);
    await expect(pattern(search, "lfp", prefix)).rejects.toThrow(/invalid path prefix/);
    await expect(pattern(search, "lfp", prefix)).rejects.toThrow(fragment);
  });

  it("refuses an invalid pattern with a UserError", async () => {
    const search = await searchOver(CORPUS);
    await expect(pattern(search, "(a)\\1")).rejects.toBeInstanceOf(UserError);
    await expect(pattern(search, "")).rejects.toThrow("empty");
  });

  it("terminates on patterns that match the empty string", async () => {
    const search = await searchOver(CORPUS);
    const hits = await pattern(search, "x*");
    expect(hits.map((hit) => hit.anchor).sort()).toEqual(Object.keys(CORPUS).sort());
    for (const hit of hits) expect(hit.score).toBeGreaterThan(1);
    expect(hits.every((hit) => hit.score <= 1_000)).toBe(true);
  });

  it("runs concurrent pattern searches on one index without conflict", async () => {
    const search = await searchOver(CORPUS);
    const [first, second] = await Promise.all([pattern(search, "lithium"), pattern(search, "cobalt|oxide")]);
    expect(first.length).toBeGreaterThan(0);
    expect(second.length).toBeGreaterThan(0);
  });

  it("scans at most MAX_PATTERN_SCAN_CHARS of a document", async () => {
    const filler = "b".repeat(MAX_PATTERN_SCAN_CHARS + 10);
    const search = await searchOver({
      "long.txt": `Long\n\n${filler} needle-late\n`,
      "short.txt": "Short\n\nneedle-early\n",
    });
    expect((await pattern(search, "needle-")).map((hit) => hit.anchor)).toEqual(["short.txt"]);
  });

  it("caps the matches counted per document", async () => {
    const search = await searchOver({ "many.txt": `Many\n\n${"cell ".repeat(5_000)}\n` });
    const hits = await pattern(search, "cell");
    expect(hits[0]?.score).toBe(1_000);
  });

  it.each([
    "(a+)+$",
    "(a|aa)+$",
    "(x+x+)+y",
    "(.*a){12}b",
  ])("stays linear-time on the catastrophic pattern %j", async (catastrophic) => {
    const size = 1_000_000;
    const search = await searchOver({
      "as.txt": `Repeated letters\n\n${"a".repeat(size)}!\n`,
      "xs.txt": `Repeated letters\n\n${"x".repeat(size)}z\n`,
    });
    expect(await pattern(search, catastrophic)).toEqual([]);
    // The long runs really are in the indexed text that the pattern ran over.
    expect((await pattern(search, "a!$")).map((hit) => hit.anchor)).toEqual(["as.txt"]);
    expect((await pattern(search, "(x+x+)+z")).map((hit) => hit.anchor)).toEqual(["xs.txt"]);
  });
});

describe("compilePattern", () => {
  const refusal = (input: string): string => {
    const compiled = compilePattern(input);
    if (compiled.ok) throw new Error(`expected ${input} to be refused`);
    return compiled.error;
  };

  it("compiles a valid pattern, case-insensitive and multiline", () => {
    const compiled = compilePattern("^olivine\\s+lfp$");
    if (!compiled.ok) throw new Error(compiled.error);
    expect(compiled.value.matcher("intro\nOLIVINE   LFP\nend").find()).toBe(true);
    expect(compiled.value.matcher("olivine-lfp").find()).toBe(false);
  });

  it("refuses counted repetitions above MAX_REPEAT_COUNT", () => {
    const refused = compilePattern("a{1000}!$");
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error).toContain(`counts above ${MAX_REPEAT_COUNT} are not supported`);
    expect(compilePattern("[0-9]{2,101}").ok).toBe(false);
    expect(compilePattern("x{1,100}").ok).toBe(true);
    expect(compilePattern("\\{1000\\}").ok).toBe(true);
  });

  it("refuses an empty pattern", () => {
    expect(refusal("")).toBe("the pattern is empty");
  });

  it("refuses a pattern longer than MAX_PATTERN_CHARS and accepts one at the limit", () => {
    expect(refusal("a".repeat(MAX_PATTERN_CHARS + 1))).toContain(`longer than ${MAX_PATTERN_CHARS} characters`);
    expect(compilePattern("a".repeat(MAX_PATTERN_CHARS)).ok).toBe(true);
  });

  it.each([
    ["(", "missing closing )"],
    ["[a-", "missing closing ]"],
    ["a**", "invalid nested repetition"],
    ["(a)\\1", "invalid escape sequence"],
    ["(?=a)", "invalid or unsupported Perl syntax"],
    ["(?<!a)b", "invalid named capture"],
  ])("refuses %j with a clear message", (input, reason) => {
    const message = refusal(input);
    expect(message).toContain("the pattern is not a valid regular expression");
    expect(message).toContain(reason);
    expect(message).toContain("backreferences and lookaround are not supported");
  });
});
