import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { UserError } from "../../../core/errors.js";
import { tempDir } from "../../../testing/temp-dir.js";
import { resolveCorpusRoot } from "../../corpus/corpus-paths.js";
import { CorpusFetcher } from "./corpus-fetcher.js";

const EXAMPLES = fileURLToPath(new URL("../../../../examples/corpus", import.meta.url));
const BIG = { maxChars: 1_000_000 };

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

async function examples(): Promise<CorpusFetcher> {
  return new CorpusFetcher(await resolveCorpusRoot(EXAMPLES));
}

/** A temporary corpus (`root`) next to a folder outside it (`outside`). */
function tempCorpus(): { root: string; outside: string; fetcher: CorpusFetcher } {
  const dir = tempDir();
  cleanups.push(dir.cleanup);
  const base = realpathSync(dir.path);
  const root = join(base, "corpus");
  const outside = join(base, "outside");
  mkdirSync(root);
  mkdirSync(outside);
  writeFileSync(join(outside, "secret.md"), "# Secret\n\nPrivate outside words.\n");
  return { root, outside, fetcher: new CorpusFetcher(root) };
}

describe("CorpusFetcher on the example corpus", () => {
  it("reads Markdown as clean text with its first heading as title", async () => {
    const fetcher = await examples();
    const doc = await fetcher.fetch("chemistry/lifepo4-olivine.md", BIG);
    expect(doc).toMatchObject({
      requestedAnchor: "chemistry/lifepo4-olivine.md",
      canonicalAnchor: "chemistry/lifepo4-olivine.md",
      path: "chemistry/lifepo4-olivine.md",
      title: "Lithium Iron Phosphate: The Olivine Cathode from Austin",
      transport: "corpus",
      domain: "",
      truncated: false,
      contentType: "text/markdown",
    });
    expect(doc.content).toContain("Origins at the University of Texas");
    expect(doc.content).toContain("Carbon coating. Researchers associated with Hydro-Québec");
    expect(doc.content).toContain("Crystal structure | Olivine (orthorhombic)");
    expect(doc.content).not.toMatch(/^#/m);
    expect(doc.content).not.toContain("**");
    expect(doc.content).not.toMatch(/\|\s*-{3}/);
  });

  it("reads plain text with its first line as title", async () => {
    const fetcher = await examples();
    const doc = await fetcher.fetch("history/sony-1991-commercialisation.txt", BIG);
    expect(doc.title).toBe("Sony and the First Commercial Lithium-Ion Battery, 1991");
    expect(doc.contentType).toBe("text/plain");
    expect(doc.content).toContain("In 1991 Sony began selling the first commercial lithium-ion rechargeable battery.");
  });

  it("keeps an HTML article and drops navigation, cookie banner, sidebar, footer and scripts", async () => {
    const fetcher = await examples();
    const doc = await fetcher.fetch("safety/galaxy-note-7-recall.html", BIG);
    expect(doc.title).toBe("Anatomy of a Recall: What Went Wrong With the Galaxy Note 7 Battery");
    expect(doc.contentType).toBe("text/html");
    const text = doc.content;
    expect(text).toContain("Samsung announced the Note 7 on 2 August 2016");
    expect(text).toContain("Abnormally high welding burrs on the positive electrode tab");
    // Section headings survive as their own paragraphs.
    expect(text).toMatch(/\n\nThe investigation\n\n/);
    expect(text).toMatch(/\n\nBattery A: a squeezed corner\n\n/);
    for (const noise of [
      "We use cookies and similar technologies", // cookie banner
      "Accept all",
      "Electric Vehicles", // main navigation
      "Podcast",
      "Search articles",
      "Hoverboard fires", // sidebar
      "Get the weekly Charge Report",
      "Privacy policy", // footer
      "All rights reserved",
      "gtag", // scripts
      "dataLayer",
      "addEventListener",
      "document.cookie",
      "<",
    ]) {
      expect(text, noise).not.toContain(noise);
    }
  });

  it("drops the consent layer, masthead and script noise of a second HTML page", async () => {
    const fetcher = await examples();
    const doc = await fetcher.fetch("industry/battery-cost-per-kwh.html", BIG);
    expect(doc.content).toContain("the real price of lithium-ion cells had fallen by about 97 percent");
    for (const noise of [
      "Your privacy choices",
      "143 partners",
      "Subscribe from $5/month",
      "Newsletter",
      "Battery Supply Chain Summit",
      "Independent energy market analysis",
      "metrics.volteconomics",
      "consent-yes",
      "schema.org",
    ]) {
      expect(doc.content, noise).not.toContain(noise);
    }
  });

  it("reads the text of a PDF", async () => {
    const fetcher = await examples();
    const doc = await fetcher.fetch("safety/thermal-runaway-technical-note.pdf", BIG);
    expect(doc.title).toBe("Technical Note TN-07: Thermal Runaway in Lithium-Ion Cells");
    expect(doc.contentType).toBe("application/pdf");
    expect(doc.content).toContain("Thermal runaway is the most serious failure mode of a lithium-ion cell.");
    expect(doc.content).toContain("Lithium-ion fires supply their own oxygen from the cathode");
    expect(doc.content).toContain("Page 2 of 2");
  });

  it("truncates to maxChars and says so", async () => {
    const fetcher = await examples();
    const full = await fetcher.fetch("glossary.txt", BIG);
    const cut = await fetcher.fetch("glossary.txt", { maxChars: 200 });
    expect(full.truncated).toBe(false);
    expect(full.content.length).toBeGreaterThan(200);
    expect(cut.truncated).toBe(true);
    expect(cut.content.length).toBe(200);
    expect(full.content.startsWith(cut.content)).toBe(true);
    const exact = await fetcher.fetch("glossary.txt", { maxChars: full.content.length });
    expect(exact.truncated).toBe(false);
    expect(exact.content).toBe(full.content);
  });

  it("normalizes the requested anchor", async () => {
    const fetcher = await examples();
    const doc = await fetcher.fetch("./chemistry//lifepo4-olivine.md", BIG);
    expect(doc.requestedAnchor).toBe("./chemistry//lifepo4-olivine.md");
    expect(doc.canonicalAnchor).toBe("chemistry/lifepo4-olivine.md");
  });

  it("throws when the signal is already aborted", async () => {
    const fetcher = await examples();
    const controller = new AbortController();
    controller.abort(new Error("cancelled"));
    await expect(fetcher.fetch("glossary.txt", { ...BIG, signal: controller.signal })).rejects.toThrow("cancelled");
  });
});

describe("CorpusFetcher refusals", () => {
  it.each([
    ["../package.json", "'..'"],
    ["../../package.json", "'..'"],
    ["chemistry/../../package.json", "'..'"],
    ["/etc/passwd", "absolute"],
    ["C:\\Windows\\win.ini", "absolute"],
    ["chemistry\\lifepo4-olivine.md", "backslash"],
    ["missing.md", "no document missing.md"],
    ["chemistry", "not a file"],
    ["", "empty"],
  ])("refuses %j with a UserError saying why", async (anchor, why) => {
    const fetcher = await examples();
    const attempt = fetcher.fetch(anchor, BIG);
    await expect(attempt).rejects.toBeInstanceOf(UserError);
    await expect(fetcher.fetch(anchor, BIG)).rejects.toThrow(`refused to read "${anchor}"`);
    await expect(fetcher.fetch(anchor, BIG)).rejects.toThrow(why);
  });

  it("refuses the absolute path of a document that is inside the corpus", async () => {
    const fetcher = await examples();
    const absolute = join(await resolveCorpusRoot(EXAMPLES), "glossary.txt");
    await expect(fetcher.fetch(absolute, BIG)).rejects.toThrow("absolute");
  });

  it("refuses symlinks that escape the corpus, as files or folders", async () => {
    const { root, outside, fetcher } = tempCorpus();
    symlinkSync(join(outside, "secret.md"), join(root, "escape.md"));
    symlinkSync(outside, join(root, "elsewhere"));
    for (const anchor of ["escape.md", "elsewhere/secret.md"]) {
      const attempt = fetcher.fetch(anchor, BIG);
      await expect(attempt).rejects.toBeInstanceOf(UserError);
      await expect(fetcher.fetch(anchor, BIG)).rejects.toThrow("leads outside the corpus");
    }
  });

  it("refuses an unsupported file type", async () => {
    const { root, fetcher } = tempCorpus();
    writeFileSync(join(root, "tool.exe"), "MZ");
    await expect(fetcher.fetch("tool.exe", BIG)).rejects.toThrow("not a supported document type");
  });
});

describe("CorpusFetcher links inside the corpus", () => {
  it("gives a link the canonical anchor of its target, so both are one source", async () => {
    const { root, fetcher } = tempCorpus();
    mkdirSync(join(root, "notes"));
    writeFileSync(join(root, "notes", "target.md"), "# Target\n\nThe **real** document.\n");
    symlinkSync(join(root, "notes", "target.md"), join(root, "alias.md"));
    symlinkSync(join(root, "notes"), join(root, "linked-notes"));
    const direct = await fetcher.fetch("notes/target.md", BIG);
    for (const anchor of ["alias.md", "linked-notes/target.md"]) {
      const viaLink = await fetcher.fetch(anchor, BIG);
      expect(viaLink.requestedAnchor).toBe(anchor);
      expect(viaLink.canonicalAnchor).toBe("notes/target.md");
      expect(viaLink.path).toBe("notes/target.md");
      expect(viaLink.content).toBe(direct.content);
    }
    expect(direct.content).toBe("Target\n\nThe real document.");
  });

  it("extracts a link by its target's type, so one source always has one text", async () => {
    const { root, fetcher } = tempCorpus();
    writeFileSync(
      join(root, "page.html"),
      "<html><head><title>Page</title><script>var tracker = 1;</script></head>" +
        "<body><article><p>Cobalt <b>supply</b> is concentrated.</p></article></body></html>",
    );
    symlinkSync(join(root, "page.html"), join(root, "alias.txt"));
    const direct = await fetcher.fetch("page.html", BIG);
    const viaLink = await fetcher.fetch("alias.txt", BIG);
    expect(viaLink.canonicalAnchor).toBe("page.html");
    expect(viaLink.contentType).toBe("text/html");
    expect(viaLink.content).toBe(direct.content);
    expect(viaLink.title).toBe(direct.title);
    expect(viaLink.content).not.toContain("<");
    expect(viaLink.content).not.toContain("tracker");
  });
});
