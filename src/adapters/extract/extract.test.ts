import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { parseHTML } from "linkedom";
import { describe, expect, it, vi } from "vitest";
import { extractFile, isSupportedFile } from "./extract-by-type.js";
import { tidyText } from "./extracted-document.js";
import { extractHtml } from "./html-extractor.js";
import { extractPdf } from "./pdf-extractor.js";
import { extractMarkdown, extractPlainText, markdownToText } from "./text-extractor.js";

const EXAMPLE_PDF = fileURLToPath(
  new URL("../../../examples/corpus/safety/thermal-runaway-technical-note.pdf", import.meta.url),
);
const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const paragraphs = (text: string): string[] => text.split("\n\n");

describe("markdownToText", () => {
  it("turns headings into their own paragraphs without markers", () => {
    const text = tidyText(markdownToText("# Title #\nIntro.\n## Second ##\n   ### Third\nBody."));
    expect(paragraphs(text)).toEqual(["Title", "Intro.", "Second", "Third", "Body."]);
  });

  it("keeps a '#' that is part of the heading's last word", () => {
    expect(markdownToText("# Programming in C#").trim()).toBe("Programming in C#");
    expect(markdownToText("## Issue #42 ##").trim()).toBe("Issue #42");
    expect(markdownToText("#hashtag")).toBe("#hashtag");
  });

  it("removes emphasis markers but not asterisks and underscores inside words or maths", () => {
    expect(markdownToText("Some **bold**, __strong__, *em* and _em2_ text.")).toBe(
      "Some bold, strong, em and em2 text.",
    );
    expect(markdownToText("***both*** here")).toBe("both here");
    expect(markdownToText("snake_case_name and 2*3*4")).toBe("snake_case_name and 2*3*4");
  });

  it("keeps link text and image alt text, drops URLs", () => {
    expect(markdownToText("See [the paper](https://x.example/p?a=1) and ![a cell diagram](img/cell.png).")).toBe(
      "See the paper and a cell diagram.",
    );
    expect(markdownToText("A [reference link][r1] here.")).toBe("A reference link here.");
    expect(markdownToText("![](decorative.png)Text")).toBe("Text");
  });

  it("unwraps code spans and drops fence lines but keeps code", () => {
    expect(markdownToText("Run `npm test` now.")).toBe("Run npm test now.");
    expect(markdownToText("```ts\nconst x = 1;\n```\n~~~\ny\n~~~")).toBe("\nconst x = 1;\n\n\ny\n");
  });

  it("turns table rows into cell lines and drops delimiter rows, aligned ones included", () => {
    const table =
      "| Property | Value |\n|---|:-:|\n| Voltage | 3.4 V |\n| :-- | --: |\n|---------|------:|\n| Cobalt | - |";
    expect(markdownToText(table).split("\n")).toEqual([
      "Property | Value",
      "",
      "Voltage | 3.4 V",
      "",
      "",
      "Cobalt | -",
    ]);
  });

  it("normalizes list markers and removes quote markers, rules and inline tags", () => {
    expect(markdownToText("* star\n+ plus\n- dash\n  * nested")).toBe("- star\n- plus\n- dash\n  - nested");
    expect(markdownToText("> quoted line")).toBe("quoted line");
    expect(markdownToText("above\n\n---\n\n* * *\n\nbelow")).toBe("above\n\n\n\n\n\nbelow");
    expect(markdownToText("Some <span class='x'>inline</span> html<br/>")).toBe("Some inline html");
  });

  it("stays fast on long lines of spaces and hashes", () => {
    const long = `# a${" ".repeat(50_000)}${"#".repeat(50_000)}b`;
    expect(markdownToText(long).trim().endsWith("b")).toBe(true);
    expect(markdownToText(`${" ".repeat(100_000)}x`).trim()).toBe("x");
    expect(
      markdownToText(`---${" ".repeat(100_000)}x`)
        .trim()
        .endsWith("x"),
    ).toBe(true);
  });
});

describe("extractMarkdown", () => {
  it("drops front matter and takes the first h1 or h2 as title", () => {
    const raw =
      "\uFEFF---\r\ntitle: Front matter title\r\ntags: [a, b]\r\n---\r\n### Minor\r\n\r\n## The **real** title\r\n\r\nBody text.\r\n";
    const doc = extractMarkdown(raw, "fallback");
    expect(doc.title).toBe("The real title");
    expect(doc.contentType).toBe("text/markdown");
    expect(doc.text).toBe("Minor\n\nThe real title\n\nBody text.");
    expect(doc.text).not.toContain("tags:");
  });

  it("falls back to the given title when there is no h1 or h2", () => {
    expect(extractMarkdown("### Only a small heading\n\ntext", "from-file").title).toBe("from-file");
    expect(extractMarkdown("Just text.", "from-file").title).toBe("from-file");
  });

  it("strips link and code syntax from the title", () => {
    expect(extractMarkdown("# The [Olivine](x.md) `LiFePO4` cathode #\n", "f").title).toBe(
      "The Olivine LiFePO4 cathode",
    );
  });
});

describe("extractMarkdown: sections named by their headings", () => {
  it("starts a section at each heading, named by its path without the document's title", () => {
    const doc = extractMarkdown(
      "# Akira Yoshino\n\nIntro.\n\n## Switching to *carbon*\n\nPetroleum coke.\n\n### The 1985 cell\n\nA cell.\n\n## Later [work](https://x.invalid)\n\nMore.",
      "fallback",
    );
    expect(doc.title).toBe("Akira Yoshino");
    expect(doc.sections).toEqual([
      { start: doc.text.indexOf("Switching to carbon"), location: "Switching to carbon" },
      { start: doc.text.indexOf("The 1985 cell"), location: "Switching to carbon › The 1985 cell" },
      { start: doc.text.indexOf("Later work"), location: "Later work" },
    ]);
    // The text is as before: headings as their own paragraphs, no marks left.
    expect(paragraphs(doc.text)).toEqual([
      "Akira Yoshino",
      "Intro.",
      "Switching to carbon",
      "Petroleum coke.",
      "The 1985 cell",
      "A cell.",
      "Later work",
      "More.",
    ]);
  });

  it("keeps the document's own private-use characters out of its sections", () => {
    const doc = extractMarkdown("# T\n\n## A \uE0007\uE001 heading\n\nText.", "T");
    expect(doc.text).not.toMatch(/[\uE000\uE001]/);
    expect(doc.sections?.map((section) => section.location)).toEqual(["A 7 heading"]);
  });
});

describe("extractPlainText", () => {
  it("takes the first line as title and tidies whitespace", () => {
    const doc = extractPlainText("\uFEFF  Glossary of terms  \r\n\r\n\r\n\r\nAh:\t a unit   of charge.  \n", "file");
    expect(doc).toEqual({
      title: "Glossary of terms",
      text: "Glossary of terms\n\nAh: a unit of charge.",
      contentType: "text/plain",
    });
  });

  it("finds the headings its layout shows: a short line alone between blank lines, a label that opens a list", () => {
    const text = [
      "Recycling routes",
      "",
      "Route two: hydrometallurgy",
      "",
      "Black mass is dissolved in acid.",
      "",
      "Strengths:",
      "- High recovery rates for lithium.",
      "",
      "Typical figures for the chemistries of 1990:",
      "",
      "- Lead-acid: roughly 30-40 Wh/kg.",
      "",
      "6. Summary table (approximate, cell level)",
      "",
      "It works. Then it stops",
      "",
      "The end.",
    ].join("\n");
    const doc = extractPlainText(text, "file");
    const at = (location: string) => doc.sections?.find((section) => section.location === location)?.start;
    expect(doc.sections?.map((section) => section.location)).toEqual([
      "Route two: hydrometallurgy",
      "Route two: hydrometallurgy › Strengths",
      "6. Summary table (approximate, cell level)",
    ]);
    expect(doc.text.slice(at("Route two: hydrometallurgy › Strengths"))).toMatch(/^Strengths:\n- High recovery/);
    // The text is the text as written: no heading is dropped or marked.
    expect(doc.text).toBe(text);
  });

  it("falls back when the first line is too long to be a title or the text is empty", () => {
    expect(extractPlainText(`${"word ".repeat(40)}\n\nmore`, "file").title).toBe("file");
    expect(extractPlainText("   \n\n  ", "file")).toEqual({ title: "file", text: "", contentType: "text/plain" });
  });
});

const ARTICLE = `<!doctype html><html><head><title>How lithium cells age over years of use | Example Site</title>
<script>document.title = "PWNED"; window.stolen = document.cookie;</script></head>
<body onload="document.body.innerHTML='PWNED-ONLOAD'">
<nav><a href="/">Home</a> <a href="/menu">Menu link</a></nav>
<div class="cookie" aria-hidden="true">We use cookies</div>
<article>
  <h1>How lithium cells age over years of use</h1>
  <p>${"Calendar ageing slowly consumes lithium in side reactions at the anode. ".repeat(4)}</p>
  <h2>Main mechanisms</h2>
  <ul><li>Growth of the solid electrolyte interphase</li><li>Lithium plating at low temperature</li></ul>
  <p onclick="steal()">${"Cycling at high rates makes the damage worse over time. ".repeat(4)}</p>
  <img src="x.png" onerror="document.body.innerHTML='PWNED-IMG'">
  <script>document.write("PWNED-WRITE")</script>
</article>
<footer>Copyright footer text</footer>
</body></html>`;

describe("extractHtml", () => {
  it("keeps the article with headings and list items as separate paragraphs", () => {
    const doc = extractHtml(ARTICLE, "fallback");
    expect(doc.contentType).toBe("text/html");
    expect(doc.title).toBe("How lithium cells age over years of use");
    const parts = paragraphs(doc.text);
    expect(parts).toContain("Main mechanisms");
    expect(parts).toContain("- Growth of the solid electrolyte interphase");
    expect(parts).toContain("- Lithium plating at low temperature");
    expect(parts.some((part) => part.startsWith("Calendar ageing slowly consumes lithium"))).toBe(true);
    expect(parts.some((part) => part.startsWith("Cycling at high rates"))).toBe(true);
  });

  it("never runs scripts or handlers and never shows their code", () => {
    const doc = extractHtml(ARTICLE, "fallback");
    for (const hostile of ["PWNED", "document", "steal", "onerror", "onclick", "alert", "cookie", "<"]) {
      expect(doc.text, hostile).not.toContain(hostile);
    }
    expect(doc.title).not.toContain("PWNED");
    expect(doc.text).not.toContain("Menu link");
    expect(doc.text).not.toContain("Copyright footer text");
  });

  it("drops scripts, handlers and noise in the fallback for pages without an article", () => {
    const raw = `<html><head><title>Short page</title></head><body>
      <header>Site header</header><nav>Nav links</nav>
      <script>alert(1)</script><noscript>Enable JavaScript</noscript><style>p { color: red }</style>
      <img src=x onerror="alert(2)"><div onmouseover="alert(3)">A short note about anodes.</div>
      <div role="navigation">Breadcrumbs</div><div aria-hidden="true">Hidden icon</div>
      <form><input value="Search"><button>Go</button></form>
      <p>Second line<br>after a break.</p>
      <aside>Related links</aside><footer>Footer text</footer></body></html>`;
    const doc = extractHtml(raw, "fallback");
    expect(doc.text).toBe("A short note about anodes.\n\nSecond line\nafter a break.");
    expect(doc.title).toBe("Short page");
  });

  it("takes the title from the h1, then <title>, then the fallback", () => {
    expect(extractHtml("<html><body><h1>Heading title</h1><p>x</p></body></html>", "fb").title).toBe("Heading title");
    expect(
      extractHtml("<html><head><title>  Page\n title </title></head><body><p>x</p></body></html>", "fb").title,
    ).toBe("Page title");
    expect(extractHtml("<p>No titles at all.</p>", "fb")).toEqual({
      title: "fb",
      text: "No titles at all.",
      contentType: "text/html",
    });
  });

  it("takes the main heading where it begins with the page's title and goes on (a headline's short form)", () => {
    const page = (head: string, h1: string) =>
      `<html><head>${head}</head><body><article><h1>${h1}</h1>${"<p>Prices fell by 97 percent over three decades of production.</p>".repeat(4)}</article></body></html>`;
    const headline = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Article","headline":"The Great Price Collapse"}</script>`;
    const full = "The Great Price Collapse: Three Decades of Falling Battery Costs";
    expect(extractHtml(page(`<title>${full} | Site</title>${headline}`, full), "fb").title).toBe(full);
    // A heading that says something else leaves the title as it is.
    expect(extractHtml(page("<title>Battery costs</title>", "Contents"), "fb").title).toBe("Battery costs");
  });

  it("keeps table cells apart and rows as paragraphs", () => {
    const raw = "<table><tr><th>Property</th><th>Value</th></tr><tr><td>Voltage</td><td>3.4 V</td></tr></table>";
    expect(paragraphs(extractHtml(raw, "fb").text)).toEqual(["Property | Value", "Voltage | 3.4 V"]);
    const nested = "<table><tr><td><p>Cell</p><p>voltage</p></td><td>3.4 V</td></tr></table>";
    expect(paragraphs(extractHtml(nested, "fb").text)).toEqual(["Cell voltage | 3.4 V"]);
  });

  it("returns empty text for an empty page", () => {
    expect(extractHtml("", "fb")).toEqual({ title: "fb", text: "", contentType: "text/html" });
  });

  it("serializes no part of the page when its first attempt finds the article", () => {
    // Readability keeps the page's HTML for a retry and logs its article's: a page that needs
    // neither is spared both.
    const { reads, result } = countingSerialization(() => extractHtml(ARTICLE, "fallback"));
    expect(result.text).toContain("Cycling at high rates");
    expect(reads).toBe(0);
  });

  it("reads an article its first attempt strips as unlikely, on a retry from the page as it came", () => {
    // A class that reads as a comment thread: the first attempt drops it, finds too little and
    // starts again without that rule, from the page before anything was taken out of it (read
    // anew from its source: the only serialization).
    const body = "Side reactions at the anode consume lithium while the cell rests at high charge. ".repeat(4);
    const raw = `<html><head><title>Resting cells</title></head><body><nav>Menu</nav>
      <div class="comment-thread"><p>${body}</p><p>${body}</p></div></body></html>`;
    const { reads, result } = countingSerialization(() => extractHtml(raw, "fb"));
    expect(paragraphs(result.text)).toEqual([body.trim(), body.trim()]);
    expect(reads).toBeGreaterThan(0);
  });
});

/** `work`'s result, and how often it read an element's innerHTML (linkedom's getter, counted). */
function countingSerialization<T>(work: () => T): { reads: number; result: T } {
  let owner: object | null = Object.getPrototypeOf(parseHTML("<p></p>").document.documentElement);
  while (owner && !Object.getOwnPropertyDescriptor(owner, "innerHTML")) owner = Object.getPrototypeOf(owner);
  const descriptor = owner && Object.getOwnPropertyDescriptor(owner, "innerHTML");
  if (!owner || !descriptor?.get) throw new Error("linkedom has no innerHTML getter");
  const read = descriptor.get;
  let reads = 0;
  Object.defineProperty(owner, "innerHTML", {
    ...descriptor,
    get(this: Element) {
      reads++;
      return read.call(this);
    },
  });
  try {
    return { result: work(), reads };
  } finally {
    Object.defineProperty(owner, "innerHTML", descriptor);
  }
}

describe("extractPdf", () => {
  it("reads the text and title of a real PDF", async () => {
    const doc = await extractPdf(readFileSync(EXAMPLE_PDF), "fallback");
    expect(doc.title).toBe("Technical Note TN-07: Thermal Runaway in Lithium-Ion Cells");
    expect(doc.contentType).toBe("application/pdf");
    expect(doc.text).toContain("Thermal runaway is the most serious failure mode of a lithium-ion cell.");
    expect(doc.text).not.toMatch(/\n{3,}/);
  });

  it("rejects bytes that are not a PDF", async () => {
    await expect(extractPdf(bytes("%PDF-1.7\nthis is not really a pdf"), "x")).rejects.toThrow(/PDF/);
  });

  it("destroys the pdf.js loading task when the PDF cannot be opened", async () => {
    let destroyed = 0;
    vi.doMock("pdfjs-dist/legacy/build/pdf.mjs", () => ({
      getDocument: () => ({
        promise: Promise.reject(new Error("Invalid PDF structure.")),
        destroy: async () => {
          destroyed++;
        },
      }),
    }));
    try {
      await expect(extractPdf(bytes("garbage"), "x")).rejects.toThrow("Invalid PDF structure.");
      expect(destroyed).toBe(1);
    } finally {
      vi.doUnmock("pdfjs-dist/legacy/build/pdf.mjs");
    }
  });
});

describe("extractFile", () => {
  it("picks the extractor by extension, case-insensitively", async () => {
    expect((await extractFile("a/page.HTML", bytes("<p>Hello <b>there</b></p>"))).contentType).toBe("text/html");
    expect((await extractFile("a/notes.markdown", bytes("# T\n\n**x**"))).text).toBe("T\n\nx");
    expect((await extractFile("a/notes.text", bytes("# T\n\n**x**"))).text).toBe("# T\n\n**x**");
    expect((await extractFile("a/b.pdf", readFileSync(EXAMPLE_PDF))).contentType).toBe("application/pdf");
  });

  it("derives the fallback title from the file name", async () => {
    expect((await extractFile("dir/battery-cost_per_kwh.md", bytes("no heading"))).title).toBe("battery cost per kwh");
    expect((await extractFile("empty-notes.txt", bytes(""))).title).toBe("empty notes");
  });

  it("decodes invalid UTF-8 without throwing", async () => {
    const doc = await extractFile("odd.txt", new Uint8Array([0x48, 0x69, 0xff, 0xfe, 0x21]));
    expect(doc.text).toBe("Hi\uFFFD\uFFFD!");
  });

  it("knows the supported types", () => {
    expect(["a.md", "a.MARKDOWN", "a.txt", "a.text", "a.htm", "a.html", "a.Pdf"].every(isSupportedFile)).toBe(true);
    expect(["a.exe", "a.docm", "a.zip", "a", "md", "a.md.bak"].some(isSupportedFile)).toBe(false);
  });
});

describe("tidyText", () => {
  it("trims lines, collapses spaces and allows at most one blank line", () => {
    expect(tidyText("  a \u00a0 b \r\n\r\n\r\n\n c\t\td \n\n")).toBe("a b\n\nc d");
  });

  it("collapses every run of spaces, tabs and no-break spaces to one space, as its definition says", () => {
    // The definition: each run of them becomes one space (tidyText leaves a lone space alone).
    const defined = (text: string): string =>
      text
        .replace(/\r\n?/g, "\n")
        .split("\n")
        .map((line) => line.replace(/[ \t\f\v\u00a0]+/g, " ").trim())
        .join("\n")
        .replace(/\n{3,}/g, "\n\n")
        .trim();
    const piece = fc.constantFrom(" ", "  ", "\t", "\f", "\v", "\u00a0", "\u2003", "\n", "\r", "a", "bc", ".");
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const text = pieces.join("");
        expect(tidyText(text)).toBe(defined(text));
      }),
    );
  });
});

describe("extractHtml: sections named by their headings", () => {
  const referencePage = `<!DOCTYPE html><html><head><title>json — JSON encoder and decoder</title></head><body>
<nav><a href="/">Home</a></nav>
<div class="body" role="main"><section>
<h1>json — JSON encoder and decoder<a class="headerlink" href="#module-json">¶</a></h1>
<p>JSON is a lightweight data interchange format inspired by JavaScript object literal syntax, and this module reads and writes it.</p>
<section><h2>Exceptions<a class="headerlink" href="#exceptions">¶</a></h2>
<dl class="py exception">
<dt id="json.JSONDecodeError">exception json.JSONDecodeError(msg, doc, pos)<a class="headerlink" href="#json.JSONDecodeError">¶</a></dt>
<dd><p>Subclass of ValueError with the following additional attributes, which say where decoding failed in the document.</p>
<dl class="py attribute"><dt id="json.JSONDecodeError.msg">msg</dt><dd><p>The unformatted error message.</p></dd>
<dt id="json.JSONDecodeError.pos">pos</dt><dd><p>The start index of doc where parsing failed.</p></dd></dl>
<div class="versionadded"><p>New in version 3.5.</p></div>
</dd></dl>
</section>
<section><h2>Standard Compliance<a class="headerlink" href="#compliance">¶</a></h2>
<p>The JSON format is specified by RFC 7159 and by ECMA-404, and this module follows the RFC closely in what it reads.</p></section>
</section></div></body></html>`;

  it("gives each heading and API entry a section with its path, and the text after a nested list back to its entry", () => {
    const doc = extractHtml(referencePage, "fallback");
    const at = (location: string): string[] =>
      (doc.sections ?? [])
        .map((section, index, all) =>
          section.location === location
            ? doc.text.slice(section.start, all[index + 1]?.start ?? doc.text.length).trim()
            : "",
        )
        .filter(Boolean);
    expect((doc.sections ?? []).map((section) => section.location)).toEqual([
      "Exceptions",
      "Exceptions › exception json.JSONDecodeError(msg, doc, pos)",
      "Exceptions › exception json.JSONDecodeError(msg, doc, pos) › msg",
      "Exceptions › exception json.JSONDecodeError(msg, doc, pos) › pos",
      "Exceptions › exception json.JSONDecodeError(msg, doc, pos)",
      "Standard Compliance",
    ]);
    // The metadata line under the entry is the entry's, not its last attribute's.
    expect(at("Exceptions › exception json.JSONDecodeError(msg, doc, pos)")[1]).toBe("New in version 3.5.");
    expect(at("Exceptions › exception json.JSONDecodeError(msg, doc, pos) › pos")[0]).toBe(
      "pos\n\nThe start index of doc where parsing failed.",
    );
    // Permalinks are not text; a section starts at its heading's first character.
    expect(doc.text).not.toContain("¶");
    for (const section of doc.sections ?? []) expect(doc.text[section.start]).toMatch(/\S/);
  });

  it("keeps the lines of a <pre> block (code, a transcript), one paragraph", () => {
    const page = `<html><head><title>T</title></head><body><article><p>${"Encoding basic Python object hierarchies is shown below in an interactive session. ".repeat(3)}</p>
<pre>&gt;&gt;&gt; import json
&gt;&gt;&gt; json.dumps([1,   2])
'[1, 2]'</pre><p>After the example.</p></article></body></html>`;
    expect(paragraphs(extractHtml(page, "T").text)).toContain(">>> import json\n>>> json.dumps([1, 2])\n'[1, 2]'");
  });

  it("names one section by every term of a group that heads one description", () => {
    const page = `<html><head><title>mmap</title></head><body><article><h2>Constants</h2>
<dl class="py data"><dt id="mmap.MADV_NORMAL">mmap.MADV_NORMAL</dt><dt id="mmap.MADV_RANDOM">mmap.MADV_RANDOM</dt>
<dt id="mmap.MADV_HUGEPAGE">mmap.MADV_HUGEPAGE</dt>
<dd><p>These options can be passed to mmap.madvise(), though not every option is present on every system.</p>
<div class="versionadded"><p>New in version 3.8.</p></div></dd></dl></article></body></html>`;
    const doc = extractHtml(page, "mmap");
    expect((doc.sections ?? []).map((section) => section.location)).toEqual([
      "Constants",
      "Constants › mmap.MADV_NORMAL, mmap.MADV_RANDOM, mmap.MADV_HUGEPAGE",
    ]);
  });

  it("keeps a version note that is mostly links (Readability would drop it as clutter)", () => {
    const link = (name: string) => `<a class="reference internal" href="x.html#${name}"><code>${name}</code></a>`;
    const entries = ["AbstractSet", "ByteString", "Collection", "Container"]
      .map(
        (
          name,
        ) => `<dl class="py class"><dt id="typing.${name}">class typing.${name}</dt><dd><p>A generic version of ${link(`collections.abc.${name}`)}.</p>
<div class="deprecated"><p><span class="versionmodified deprecated">Deprecated since version 3.9: </span>${link(`collections.abc.${name}`)} now supports subscripting (<code>[]</code>). See ${link("PEP 585")} and ${link("Generic Alias Type")}.</p></div></dd></dl>`,
      )
      .join("\n");
    const page = `<html><head><title>typing</title></head><body><div class="body"><h1>typing</h1><p>${"This module provides runtime support for type hints. ".repeat(4)}</p>${entries}</div></body></html>`;
    const text = extractHtml(page, "typing").text;
    expect(text).toContain("Deprecated since version 3.9: collections.abc.AbstractSet now supports subscripting ([]).");
    expect(text.match(/Deprecated since version 3\.9/g)).toHaveLength(4);
  });

  it("names a group of terms too long for a heading by the prefix they share, as the documentation does", () => {
    const names = ["NORMAL", "RANDOM", "SEQUENTIAL", "WILLNEED", "DONTNEED", "HUGEPAGE", "NOHUGEPAGE", "FREE"];
    const terms = (prefix: string) => names.map((name) => `<dt>${prefix}${name}</dt>`).join("");
    const page = (prefix: string) =>
      `<html><head><title>mmap</title></head><body><article><h2>Constants</h2><dl>${terms(prefix)}<dd><p>New in version 3.8.</p></dd></dl></article></body></html>`;
    expect(extractHtml(page("mmap.MADV_"), "mmap").sections?.at(-1)?.location).toBe("Constants › mmap.MADV_*");
    // A prefix that is only the module's is no name of the group: the list is cut.
    expect(extractHtml(page("mmap."), "mmap").sections?.at(-1)?.location).toMatch(
      /^Constants › mmap\.NORMAL, mmap\.RANDOM, .*…$/,
    );
  });

  it("cuts a long heading and a long path, keeping the innermost headings", () => {
    const long = `f(${Array.from({ length: 20 }, (_, index) => `argument${index}=None`).join(", ")})`;
    const page = `<html><head><title>T</title></head><body><article><h2>${"Part ".repeat(20)}</h2><h3>${"Chapter ".repeat(20)}</h3>
<dl><dt>${long}</dt><dd><p>${"Calls the function with every argument it is given and returns its result. ".repeat(4)}</p></dd></dl></article></body></html>`;
    const locations = (extractHtml(page, "T").sections ?? []).map((section) => section.location);
    for (const location of locations) expect(location.length).toBeLessThanOrEqual(160);
    expect(locations.at(-1)).toMatch(/^… › .*f\(argument0=None, .*…$/);
  });
});
