import { mkdirSync, readFileSync, realpathSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { tempDir } from "../../testing/temp-dir.js";
import { extractFile } from "../extract/extract-by-type.js";
import { ExtractionPool } from "../extract/extraction-pool.js";
import { CorpusIndex, ftsQuery, indexFileFor } from "./corpus-index.js";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

interface Fixture {
  root: string;
  indexFile: string;
  write(relative: string, content: string | Uint8Array): void;
  open(): CorpusIndex;
}

/** A corpus folder and an index folder; every index opened is closed after the test. */
function fixture(): Fixture {
  const dir = tempDir();
  cleanups.push(dir.cleanup);
  const base = realpathSync(dir.path);
  const root = join(base, "corpus");
  mkdirSync(root);
  const indexFile = indexFileFor(join(base, "index"), root);
  return {
    root,
    indexFile,
    write(relative, content) {
      const file = join(root, relative);
      mkdirSync(join(file, ".."), { recursive: true });
      writeFileSync(file, content);
    },
    open() {
      const index = CorpusIndex.open(root, indexFile);
      cleanups.push(() => index.close());
      return index;
    },
  };
}

const paths = (hits: { path: string }[]): string[] => hits.map((hit) => hit.path).sort();

/** Moves a file's modification time forward so that a refresh sees it as changed. */
function bumpMtime(file: string, seconds = 60): void {
  const later = new Date(Date.now() + seconds * 1000);
  utimesSync(file, later, later);
}

function seed(f: Fixture): void {
  f.write("chemistry/olivine.md", "# Olivine cathodes\n\nLithium iron phosphate has an olivine structure.\n");
  f.write("history/sony.txt", "Sony 1991\n\nSony sold the first commercial cells in 1991 with a carbon anode.\n");
  f.write(
    "safety/recall.html",
    "<html><head><title>Recall</title></head><body><article><h1>Phone recall</h1>" +
      "<p>Separator damage caused internal short circuits in the recalled phones.</p></article></body></html>",
  );
}

describe("CorpusIndex.refresh", () => {
  it("adds every document on the first refresh and reports them unchanged on the second", async () => {
    const f = fixture();
    seed(f);
    const index = f.open();
    const first = await index.refresh();
    expect(first).toMatchObject({ documents: 3, added: 3, updated: 0, removed: 0, unchanged: 0, failed: [] });
    const second = await index.refresh();
    expect(second).toMatchObject({ documents: 3, added: 0, updated: 0, removed: 0, unchanged: 3, failed: [] });
    expect(paths(index.search("olivine", 10))).toEqual(["chemistry/olivine.md"]);
    expect(paths(index.search("separator", 10))).toEqual(["safety/recall.html"]);
  });

  it("re-extracts a changed file: new words become searchable, old ones do not", async () => {
    const f = fixture();
    seed(f);
    const index = f.open();
    await index.refresh();
    expect(paths(index.search("carbon", 10))).toEqual(["history/sony.txt"]);
    f.write("history/sony.txt", "Sony 1991\n\nThe camcorder battery used a graphite electrode.\n");
    bumpMtime(join(f.root, "history/sony.txt"));
    const stats = await index.refresh();
    expect(stats).toMatchObject({ documents: 3, added: 0, updated: 1, removed: 0, unchanged: 2 });
    expect(paths(index.search("camcorder graphite", 10))).toEqual(["history/sony.txt"]);
    expect(index.search("carbon", 10)).toEqual([]);
    // The updated document has exactly one full-text row: it is found once, not twice.
    expect(index.search("sony", 10)).toHaveLength(1);
  });

  it("removes a deleted file and adds a new one", async () => {
    const f = fixture();
    seed(f);
    const index = f.open();
    await index.refresh();
    rmSync(join(f.root, "chemistry/olivine.md"));
    f.write("future/sodium.md", "# Sodium-ion\n\nSodium cells avoid lithium entirely.\n");
    const stats = await index.refresh();
    expect(stats).toMatchObject({ documents: 3, added: 1, updated: 0, removed: 1, unchanged: 2 });
    expect(index.search("olivine", 10)).toEqual([]);
    expect(paths(index.search("sodium", 10))).toEqual(["future/sodium.md"]);
    expect([...index.documents()].map((doc) => doc.path)).toEqual([
      "future/sodium.md",
      "history/sony.txt",
      "safety/recall.html",
    ]);
  });

  it("counts a document that fails extraction in failed and indexes the others", async () => {
    const f = fixture();
    seed(f);
    f.write("broken.pdf", new Uint8Array([0x00, 0xff, 0x13, 0x37, ...Buffer.from("this is not a pdf at all")]));
    const index = f.open();
    const stats = await index.refresh();
    expect(stats.documents).toBe(4);
    expect(stats.added).toBe(4);
    expect(stats.failed.map((failure) => failure.path)).toEqual(["broken.pdf"]);
    expect(stats.failed[0]?.reason.length).toBeGreaterThan(0);
    expect(paths(index.search("olivine", 10))).toEqual(["chemistry/olivine.md"]);
    // A failed document is never offered to pattern search.
    expect([...index.documents()].map((doc) => doc.path)).not.toContain("broken.pdf");
    // Unchanged, it is not extracted again.
    expect(await index.refresh()).toMatchObject({ unchanged: 4, added: 0, updated: 0, failed: [] });
  });

  it("reads a large folder's light files in the extraction workers, a batch at a time, as it reads them one by one", async () => {
    // 242 Markdown and text files (over the 200 that send them to the workers) and an HTML page.
    const f = fixture();
    seed(f);
    for (let n = 0; n < 240; n++) {
      if (n % 2 === 0)
        f.write(`notes/n${n}.md`, `# Note ${n}\n\nElectrolyte number ${n} is *stable* at [low](x.html) heat.\n`);
      else f.write(`notes/n${n}.txt`, `Note ${n}\n\nSeparator number ${n} melts.\n`);
    }
    const progress: number[] = [];
    const index = f.open();
    const batches = vi.spyOn(ExtractionPool.prototype, "runBatch");
    const stats = await index.refresh(undefined, (done, total) => {
      expect(total).toBe(243);
      progress.push(done);
    });
    // 242 light files in batches of 50: five tasks, each file once.
    const sizes = batches.mock.calls.map(([files]) => files.length);
    batches.mockRestore();
    expect(sizes).toEqual([50, 50, 50, 50, 42]);
    expect(stats).toMatchObject({ documents: 243, added: 243, failed: [] });
    expect(progress.at(-1)).toBe(243);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    // The same text as a file read alone: marks taken out, the title from the heading.
    const hit = index.search("electrolyte number 42 stable low heat", 1)[0];
    expect(hit).toMatchObject({ path: "notes/n42.md", title: "Note 42" });
    const alone = await extractFile("notes/n42.md", readFileSync(join(f.root, "notes/n42.md")));
    expect([...index.documents("notes/n42.md")][0]).toMatchObject({ title: alone.title, body: alone.text });
    expect(alone.text).toContain("Electrolyte number 42 is stable at low heat.");
    expect(index.search("separator melts", 300).filter((found) => found.path.startsWith("notes/")).length).toBe(120);
    expect(paths(index.search("separator damage short circuits", 3))).toContain("safety/recall.html");
  });

  it("reports links that leave the corpus as skipped", async () => {
    const f = fixture();
    seed(f);
    const outside = join(f.root, "..", "outside.md");
    writeFileSync(outside, "# Outside\n\nPrivate words: zanzibar.\n");
    symlinkSync(outside, join(f.root, "escape.md"));
    const index = f.open();
    const stats = await index.refresh();
    expect(stats.skipped).toEqual([{ path: "escape.md", reason: "link leads outside the corpus" }]);
    expect(index.search("zanzibar", 10)).toEqual([]);
  });

  it("extracts a link by its target's type, as the fetcher does", async () => {
    const f = fixture();
    f.write("page.html", "<html><body><article><p>Cobalt <b>supply</b> is concentrated.</p></article></body></html>");
    symlinkSync(join(f.root, "page.html"), join(f.root, "alias.txt"));
    const index = f.open();
    await index.refresh();
    const documents = [...index.documents()];
    expect(documents.map((doc) => doc.path)).toEqual(["alias.txt", "page.html"]);
    for (const doc of documents) {
      expect(doc.body).toBe("Cobalt supply is concentrated.");
    }
  });
});

describe("CorpusIndex persistence", () => {
  it("keeps the index in its file across open calls", async () => {
    const f = fixture();
    seed(f);
    const first = f.open();
    await first.refresh();
    first.close();
    const reopened = f.open();
    expect(paths(reopened.search("olivine phosphate", 10))).toEqual(["chemistry/olivine.md"]);
    expect(await reopened.refresh()).toMatchObject({ unchanged: 3, added: 0 });
  });

  it("two connections refreshing the same new index at once (workers on one machine) both succeed", async () => {
    const f = fixture();
    seed(f);
    const [a, b] = [f.open(), f.open()];
    const [first, second] = await Promise.all([a.refresh(), b.refresh()]);
    // Each file was written once: by one of them; the other found it current.
    expect(first.added + second.added).toBe(3);
    expect(first.unchanged + second.unchanged).toBe(3);
    expect(paths(a.search("olivine", 10))).toEqual(["chemistry/olivine.md"]);
    expect(paths(b.search("separator", 10))).toEqual(["safety/recall.html"]);
  });

  it("names one index file per corpus root", () => {
    expect(indexFileFor("/idx", "/a")).toMatch(/^\/idx\/[0-9a-f]{16}\.sqlite$/);
    expect(indexFileFor("/idx", "/a")).toBe(indexFileFor("/idx", "/a"));
    expect(indexFileFor("/idx", "/a")).not.toBe(indexFileFor("/idx", "/b"));
  });
});

describe("CorpusIndex.search", () => {
  function rankingFixture(): Fixture {
    const f = fixture();
    f.write(
      "focused.md",
      "# Dendrite growth\n\nDendrite growth on lithium metal. Each dendrite pierces the separator; " +
        "dendrite growth accelerates at high current. Suppressing dendrite growth is the goal.\n",
    );
    f.write(
      "passing.md",
      `# Electrolytes\n\n${"Electrolyte solvents and salts. ".repeat(10)}A dendrite is mentioned once.\n`,
    );
    for (const name of ["a", "b", "c", "d"])
      f.write(`filler-${name}.md`, `# Filler ${name}\n\nCathode chemistry text.\n`);
    return f;
  }

  it("ranks a document that mentions the terms often and in its title above a passing mention", async () => {
    const f = rankingFixture();
    const index = f.open();
    await index.refresh();
    const hits = index.search("dendrite growth", 10);
    expect(hits.map((hit) => hit.path)).toEqual(["focused.md", "passing.md"]);
    const [top, second] = hits;
    expect(top?.score).toBeGreaterThan(second?.score ?? Number.POSITIVE_INFINITY);
    expect(top?.title).toBe("Dendrite growth");
    expect(second?.snippet).toContain("dendrite");
  });

  it("matches stemmed forms and respects the limit", async () => {
    const f = rankingFixture();
    const index = f.open();
    await index.refresh();
    expect(paths(index.search("dendrites", 10))).toEqual(["focused.md", "passing.md"]);
    expect(index.search("dendrite", 1).map((hit) => hit.path)).toEqual(["focused.md"]);
  });

  it("returns nothing for a query of stopwords only, or no words at all", async () => {
    const f = rankingFixture();
    const index = f.open();
    await index.refresh();
    expect(index.search("the and of which would", 10)).toEqual([]);
    expect(index.search("  ?! -- ", 10)).toEqual([]);
  });

  it.each([
    'dendrite "growth',
    "dendrite*",
    "NEAR(dendrite growth)",
    "-dendrite",
    "title:dendrite",
    "dendrite AND OR NOT growth",
    "dendrite) OR (",
    "^dendrite + {growth}",
    "'dendrite'",
  ])("does not throw on FTS5 syntax in %j and still finds the words", async (query) => {
    const f = rankingFixture();
    const index = f.open();
    await index.refresh();
    const hits = index.search(query, 10);
    expect(hits[0]?.path).toBe("focused.md");
  });
});

describe("CorpusIndex.documents", () => {
  it("lists the documents under a folder prefix, exactly and case-sensitively", async () => {
    const f = fixture();
    f.write("docs/a.md", "# A\n\nalpha\n");
    f.write("docs/deep/b.md", "# B\n\nbeta\n");
    f.write("docs-old/c.md", "# C\n\ngamma\n");
    f.write("Reports/d.md", "# D\n\ndelta\n");
    f.write("a_b/e.md", "# E\n\nepsilon\n");
    f.write("axb/f.md", "# F\n\nzeta\n");
    f.write("100%/g.md", "# G\n\neta\n");
    f.write("1000/h.md", "# H\n\ntheta\n");
    const index = f.open();
    await index.refresh();
    const under = (prefix: string) => [...index.documents(prefix)].map((doc) => doc.path);
    expect(under("")).toHaveLength(8);
    expect(under("docs")).toEqual(["docs/a.md", "docs/deep/b.md"]);
    expect(under("docs/deep")).toEqual(["docs/deep/b.md"]);
    expect(under("docs/a.md")).toEqual(["docs/a.md"]);
    expect(under("a_b")).toEqual(["a_b/e.md"]);
    expect(under("100%")).toEqual(["100%/g.md"]);
    expect(under("Reports")).toEqual(["Reports/d.md"]);
    // Paths are case-sensitive on disk, so the prefix is too.
    expect(under("reports")).toEqual([]);
    expect(under("DOCS")).toEqual([]);
    expect(under("doc")).toEqual([]);
  });
});

describe("ftsQuery", () => {
  it("quotes every content word and adjacent pair, OR-ed", () => {
    expect(ftsQuery("The cobalt oxide cathode")).toBe(
      '"cobalt" OR "oxide" OR "cathode" OR "cobalt oxide" OR "oxide cathode"',
    );
  });

  it("passes no FTS5 syntax through and is empty for stopwords only", () => {
    const query = ftsQuery('NEAR(a b) "x" title:cobalt -nickel *');
    expect(query.split(" OR ").every((term) => /^"[^"]+"$/.test(term))).toBe(true);
    expect(query).not.toMatch(/[()*:]/);
    expect(ftsQuery("the of and which")).toBe("");
    expect(ftsQuery("")).toBe("");
  });

  it("bounds the number of terms for long text", () => {
    const text = Array.from({ length: 500 }, (_, index) => `word${index}`).join(" ");
    expect(ftsQuery(text).split(" OR ").length).toBeLessThanOrEqual(64);
  });
});
