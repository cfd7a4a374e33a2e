import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ExternalServiceError } from "../../core/errors.js";
import { tempDir } from "../../testing/temp-dir.js";
import { ExtractionPool, extractFileOffThread } from "./extraction-pool.js";

const page = (n: number): string =>
  `<html><head><title>Page ${n}</title></head><body><nav>Home | About</nav><article><h1>Heading ${n}</h1>` +
  `<p>${`Paragraph ${n} says lithium iron phosphate is stable. `.repeat(12)}</p></article>` +
  `<script>document.write("script text")</script></body></html>`;

// Two workers, a short limit: a hanging page is stopped quickly.
const pool = new ExtractionPool({ threads: 2, timeoutMs: 1_500 });
afterAll(() => pool.close());

describe("ExtractionPool", () => {
  it("extracts HTML in a worker: article text without navigation or script", async () => {
    const doc = await pool.run({ kind: "html", raw: page(1), title: "fallback", url: "https://example.test/1" });
    expect(doc.title).toBe("Page 1");
    expect(doc.text).toContain("Paragraph 1 says lithium iron phosphate is stable.");
    expect(doc.text).not.toContain("Home | About");
    expect(doc.text).not.toContain("script text");
  });

  it("contains a page that hangs, one that throws and one that ends its thread while the others finish", async () => {
    const order: string[] = [];
    const track = <T>(name: string, promise: Promise<T>): Promise<T> =>
      promise.then(
        (value) => {
          order.push(name);
          return value;
        },
        (error: unknown) => {
          order.push(name);
          throw error;
        },
      );
    const hang = track("hang", pool.run({ kind: "test-hang" }));
    const thrown = track("throw", pool.run({ kind: "test-throw", message: "malformed table at byte 12" }));
    const exited = track("exit", pool.run({ kind: "test-exit" }));
    const pages = Array.from({ length: 8 }, (_, i) =>
      track(`page ${i}`, pool.run({ kind: "html", raw: page(i), title: "t", url: `https://example.test/${i}` })),
    );
    const results = await Promise.allSettled([hang, thrown, exited, ...pages]);

    const [hung, threw, ended, ...read] = results;
    expect(hung).toMatchObject({ status: "rejected" });
    const hangError = (hung as PromiseRejectedResult).reason;
    expect(hangError).toBeInstanceOf(ExternalServiceError);
    expect(String(hangError.message)).toBe("extraction of test-hang took longer than 1.5 s and was stopped");
    expect(threw).toMatchObject({ status: "rejected" });
    expect(String((threw as PromiseRejectedResult).reason.message)).toContain("malformed table at byte 12");
    expect(ended).toMatchObject({ status: "rejected" });
    const exitError = (ended as PromiseRejectedResult).reason;
    expect(exitError).toBeInstanceOf(ExternalServiceError);
    expect(String(exitError.message)).toMatch(/^extraction of test-exit ended its worker/);
    for (const [i, result] of read.entries()) {
      expect(result.status).toBe("fulfilled");
      expect((result as PromiseFulfilledResult<{ text: string }>).value.text).toContain(`Paragraph ${i} says`);
    }
    // Every page finished while the hanging one still held a worker: it was the last to end.
    expect(order.at(-1)).toBe("hang");
    // The pool replaced the workers it lost and goes on extracting.
    const after = await pool.run({ kind: "html", raw: page(9), title: "t", url: "https://example.test/9" });
    expect(after.text).toContain("Paragraph 9 says");
  });

  it("gives the caller's reason when the caller cancels, not a limit's", async () => {
    const controller = new AbortController();
    const running = pool.run({ kind: "test-hang" }, controller.signal);
    controller.abort(new Error("run cancelled"));
    await expect(running).rejects.toThrow("run cancelled");
  });

  it("reads text and Markdown files on the calling thread and HTML files in the pool", async () => {
    const markdown = await extractFileOffThread(
      "notes.md",
      new TextEncoder().encode("# Notes\n\nPlain words."),
      undefined,
      pool,
    );
    expect(markdown).toMatchObject({ title: "Notes", contentType: "text/markdown" });
    const html = await extractFileOffThread("a/page.html", new TextEncoder().encode(page(3)), undefined, pool);
    expect(html).toMatchObject({ title: "Page 3", contentType: "text/html" });
  });

  it("reads a batch of light files in a worker: one that cannot be read fails alone", async () => {
    const dir = tempDir();
    try {
      writeFileSync(join(dir.path, "a.md"), "# Anodes\n\nCarbon takes up lithium.");
      writeFileSync(join(dir.path, "c.txt"), "Cells\n\nThe first cells were sold in 1991.");
      const outcomes = await pool.runBatch([
        { name: "notes/a.md", path: join(dir.path, "a.md") },
        { name: "notes/b.md", path: join(dir.path, "gone.md") },
        { name: "notes/c.txt", path: join(dir.path, "c.txt") },
      ]);
      expect(outcomes.map((outcome) => (outcome.ok ? outcome.document.title : "failed"))).toEqual([
        "Anodes",
        "failed",
        "Cells",
      ]);
      expect(outcomes[1]).toMatchObject({ ok: false, error: expect.stringContaining("ENOENT") });
      expect(outcomes[0]).toMatchObject({
        ok: true,
        document: { text: expect.stringContaining("Carbon takes up lithium.") },
      });
    } finally {
      dir.cleanup();
    }
  });
});
