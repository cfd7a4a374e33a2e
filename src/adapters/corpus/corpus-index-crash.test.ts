import { existsSync, mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import BetterSqlite3 from "better-sqlite3";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { killLeftovers, runAndKill } from "../../testing/kill-child.js";
import { tempDir } from "../../testing/temp-dir.js";
import { CorpusIndex, indexFileFor } from "./corpus-index.js";

const BUILT_INDEX = fileURLToPath(new URL("../../../dist/adapters/corpus/corpus-index.js", import.meta.url));

/** The child: refreshes the index, says "ready" once several batches are committed, and goes on until killed. */
const CHILD_SCRIPT = `
import { CorpusIndex } from ${JSON.stringify(pathToFileURL(BUILT_INDEX).href)};
const [root, file] = process.argv.slice(2);
const index = CorpusIndex.open(root, file);
let said = false;
await index.refresh(undefined, (done) => {
  if (done >= 600 && !said) {
    said = true;
    process.stdout.write("ready\\n");
  }
});
process.stdout.write("finished\\n");
`;

const FILES = 2_000;
const FOLDERS = 20;

/** A corpus of HTML pages (extracted in the pool's workers) and Markdown notes (on the main thread). */
function writeCorpus(root: string): void {
  for (let i = 0; i < FILES; i++) {
    const folder = join(root, `part-${i % FOLDERS}`);
    mkdirSync(folder, { recursive: true });
    const words = `Document ${i} records cathode trial w${i}x with electrolyte batch b${i % 7}. `.repeat(20);
    if (i % 2 === 0)
      writeFileSync(
        join(folder, `page-${i}.html`),
        `<html><head><title>Trial ${i}</title></head><body><nav>Menu</nav><article><h1>Trial ${i}</h1><p>${words}</p></article></body></html>`,
      );
    else writeFileSync(join(folder, `note-${i}.md`), `# Trial ${i}\n\n${words}\n`);
  }
}

afterEach(killLeftovers);

describe("CorpusIndex.refresh under SIGKILL", () => {
  beforeAll(() => {
    if (!existsSync(BUILT_INDEX)) throw new Error(`${BUILT_INDEX} is missing: run \`npm run build\` first`);
  });

  it("leaves a usable index after a kill mid-way, and the next refresh finishes it consistently", async () => {
    const dir = tempDir();
    try {
      const base = realpathSync(dir.path);
      const root = join(base, "corpus");
      writeCorpus(root);
      const file = indexFileFor(join(base, "index"), root);
      mkdirSync(join(base, "index"), { recursive: true });
      const script = join(base, "child.mjs");
      writeFileSync(script, CHILD_SCRIPT);

      const outcome = await runAndKill([script, root, file], 0);
      expect(outcome.end).toBe("SIGKILL");

      // What the killed refresh committed is there and searchable, before any new refresh.
      const raw = new BetterSqlite3(file, { readonly: true });
      const committed = (raw.prepare("SELECT count(*) AS n FROM documents").get() as { n: number }).n;
      raw.close();
      expect(committed).toBeGreaterThanOrEqual(250);
      expect(committed).toBeLessThan(FILES);
      const index = CorpusIndex.open(root, file);
      try {
        expect(index.search("cathode trial", 5).length).toBe(5);

        // The next refresh extracts only what was left, and the index ends complete.
        const resumed = await index.refresh();
        expect(resumed).toMatchObject({ documents: FILES, removed: 0, updated: 0, failed: [] });
        expect(resumed.unchanged).toBe(committed);
        expect(resumed.added).toBe(FILES - committed);
        const again = await index.refresh();
        expect(again).toMatchObject({ documents: FILES, added: 0, updated: 0, unchanged: FILES });
      } finally {
        index.close();
      }

      // Consistent: one row per file, each indexed once in full-text search, each findable by its own word.
      const check = new BetterSqlite3(file, { readonly: true });
      try {
        const rows = check.prepare("SELECT path FROM documents ORDER BY path").all() as { path: string }[];
        expect(rows.length).toBe(FILES);
        expect(new Set(rows.map((row) => row.path)).size).toBe(FILES);
        const fts = (check.prepare("SELECT count(*) AS n FROM documents_fts").get() as { n: number }).n;
        expect(fts).toBe(FILES);
        const orphans = check
          .prepare("SELECT count(*) AS n FROM documents_fts WHERE rowid NOT IN (SELECT id FROM documents)")
          .get() as { n: number };
        expect(orphans.n).toBe(0);
      } finally {
        check.close();
      }
      const reopened = CorpusIndex.open(root, file);
      try {
        for (const i of [0, 1, 999, FILES - 2, FILES - 1]) {
          const hits = reopened.search(`w${i}x`, 3);
          expect(hits.map((hit) => hit.path)).toEqual([
            `part-${i % FOLDERS}/${i % 2 === 0 ? `page-${i}.html` : `note-${i}.md`}`,
          ]);
        }
      } finally {
        reopened.close();
      }
    } finally {
      dir.cleanup();
    }
  });
});
