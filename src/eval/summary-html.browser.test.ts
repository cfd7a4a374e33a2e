/**
 * The evaluation summary page in a real browser: Debian's Chromium driven by playwright-core
 * (which downloads no browser). Skipped with a notice where Chromium is absent; in CI (env CI
 * set) an absent Chromium fails the suite instead. ASSAY_CHROMIUM names another executable.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CHROMIUM,
  CHROMIUM_AVAILABLE,
  IN_CI,
  launchChromium,
  missingChromiumError,
  noticeMissingChromium,
} from "../testing/chromium.js";
import { HOSTILE, hostileSummary, investigativeSummary, sampleSummary } from "../testing/summary-fixture.js";
import { tempDir } from "../testing/temp-dir.js";
import type { EvalSummary } from "./eval-types.js";
import { renderSummaryHtml } from "./summary-html.js";

noticeMissingChromium("the summary page's browser test");

const STRATEGY_HEADERS = [
  "Strategy",
  "Runs",
  "Published",
  "Failed",
  "Gold-document recall",
  "Citation precision",
  "Answer share",
  "Answer in the first finding",
  "Label agreement: agree/stated (expected)",
  "Verified claims per run",
  "Unverified claims per run",
  "Contested claims per run",
  "Gaps reported per run",
  "First source (median / p90)",
  "Terminal (median / p90)",
  "Tokens (in / out)",
  "Cost",
  "Salvage",
];

/** Bars drawn for sampleSummary(): nothing for agent's answer share and first source. */
const BARS = { recall: 8, latency: 5, faults: 6 } as const;

describe.runIf(!CHROMIUM_AVAILABLE && IN_CI)("summary page in a real browser: chromium", () => {
  it("is installed", () => {
    throw missingChromiumError();
  });
});

interface Visit {
  page: Page;
  consoleErrors: string[];
  requests: string[];
  dialogs: string[];
  close: () => Promise<void>;
}

describe.skipIf(!CHROMIUM_AVAILABLE)(
  `summary page in a real browser (${CHROMIUM}; skipped when absent outside CI)`,
  () => {
    const folder = tempDir("assay-summary-browser-");
    let browser: Browser | undefined;

    beforeAll(async () => {
      browser = await launchChromium();
    });

    afterAll(async () => {
      await browser?.close();
      folder.cleanup();
    });

    async function visit(
      name: string,
      summary: EvalSummary,
      viewport: { width: number; height: number },
    ): Promise<Visit> {
      if (browser === undefined) throw new Error("the browser did not start");
      const file = join(folder.path, `${name}.html`);
      writeFileSync(file, renderSummaryHtml(summary));
      // Scripts stay enabled, so that any markup that slipped through unescaped would run and show.
      const context = await browser.newContext({ viewport, javaScriptEnabled: true });
      const page = await context.newPage();
      const visited: Visit = { page, consoleErrors: [], requests: [], dialogs: [], close: () => context.close() };
      page.on("console", (message) => {
        if (message.type() === "error") visited.consoleErrors.push(message.text());
      });
      page.on("pageerror", (error) => visited.consoleErrors.push(error.message));
      page.on("request", (request) => visited.requests.push(request.url()));
      page.on("dialog", (dialog) => {
        visited.dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      const url = pathToFileURL(file).href;
      const response = await page.goto(url, { waitUntil: "load" });
      expect(response?.ok() ?? true).toBe(true);
      expect(visited.requests).toEqual([url]);
      return visited;
    }

    it("shows the per-strategy table and three drawn charts, with no error and no other request", async () => {
      const { page, consoleErrors, requests, close } = await visit("sample", sampleSummary(), {
        width: 1280,
        height: 900,
      });
      try {
        const table = page.locator('table[data-table="strategies"]');
        expect(await table.locator("thead th[scope=col]").allInnerTexts()).toEqual(STRATEGY_HEADERS);
        expect(await table.locator("tbody th[scope=row]").allInnerTexts()).toEqual([
          "simple (baseline)",
          "pipeline",
          "agent",
        ]);
        expect(await table.locator("tbody tr").count()).toBe(3);
        expect(await table.locator("caption").innerText()).toContain("Per strategy");

        expect(await page.locator("figure[data-chart]").count()).toBe(3);
        for (const [chart, bars] of Object.entries(BARS)) {
          const figure = page.locator(`figure[data-chart="${chart}"]`);
          const svg = figure.locator("svg[role=img]");
          expect(await svg.count()).toBe(1);
          const box = await svg.boundingBox();
          expect(box?.width ?? 0).toBeGreaterThan(100);
          expect(box?.height ?? 0).toBeGreaterThan(50);
          expect(await svg.getAttribute("aria-label")).toBeTruthy();
          expect(await svg.locator(":scope > title").textContent()).toBeTruthy();
          expect(await figure.locator("figcaption").innerText()).toBeTruthy();
          const rects = svg.locator("rect[data-series]");
          expect(await rects.count(), `${chart} bars`).toBe(bars);
          // Every bar is drawn: a visible, non-empty box inside its chart.
          for (const rect of await rects.all()) {
            const bar = await rect.boundingBox();
            expect(bar?.width ?? 0).toBeGreaterThan(0);
            expect(bar?.height ?? 0).toBeGreaterThan(0);
            expect((bar?.x ?? -1) + (bar?.width ?? 0)).toBeLessThanOrEqual((box?.x ?? 0) + (box?.width ?? 0) + 0.5);
          }
          // The bars take the colour of their series from the page's style.
          const fill = await rects.first().evaluate((element) => getComputedStyle(element).fill);
          expect(fill).not.toBe("rgb(0, 0, 0)");
        }
        expect(await page.locator('figure[data-chart="latency"] line[data-marker=p90]').count()).toBe(5);
        expect(consoleErrors).toEqual([]);
        expect(requests).toHaveLength(1);
      } finally {
        await close();
      }
    });

    it("fits a phone's width: only the tables scroll, inside their own box", async () => {
      const { page, consoleErrors, close } = await visit("phone", sampleSummary(), { width: 390, height: 844 });
      try {
        const widths = await page.evaluate(() => ({
          viewport: window.innerWidth,
          document: document.documentElement.scrollWidth,
          body: document.body.scrollWidth,
          wraps: [...document.querySelectorAll(".table-wrap")].map((wrap) => wrap.getBoundingClientRect().right),
          figures: [...document.querySelectorAll("figure")].map((figure) => figure.getBoundingClientRect().right),
        }));
        expect(widths.viewport).toBe(390);
        expect(widths.document).toBeLessThanOrEqual(widths.viewport);
        expect(widths.body).toBeLessThanOrEqual(widths.viewport);
        for (const right of [...widths.wraps, ...widths.figures]) expect(right).toBeLessThanOrEqual(widths.viewport);
        expect(widths.wraps).toHaveLength(4);
        for (const chart of Object.keys(BARS)) {
          const box = await page.locator(`figure[data-chart="${chart}"] svg[role=img]`).boundingBox();
          expect(box?.width ?? 0).toBeGreaterThan(200);
        }
        expect(consoleErrors).toEqual([]);
      } finally {
        await close();
      }
    });

    it("shows the seed 000 comparison and the n/a cells, and still fits a phone", async () => {
      const { page, consoleErrors, close } = await visit("investigative", investigativeSummary(), {
        width: 390,
        height: 844,
      });
      try {
        const section = page.locator("section#comparison");
        expect(await section.locator("h2").innerText()).toBe("Seed 000 comparison: investigative against simple");
        const items = await section.locator("li").allInnerTexts();
        expect(items).toHaveLength(4);
        expect(items[2]).toContain("investigative 3.25 vs simple n/a");
        expect(await section.isVisible()).toBe(true);
        const investigative = page.locator('table[data-table="strategies"] tbody tr', { hasText: "investigative" });
        expect((await investigative.locator("td").allInnerTexts()).slice(8, 12)).toEqual([
          "3.25 (n=12)",
          "1.50 (n=12)",
          "0.50 (n=12)",
          "2.00 (n=12)",
        ]);
        const notApplicable = page.locator("td.not-applicable");
        expect(await notApplicable.count()).toBe(4);
        // Muted like "not scored": a different colour from an ordinary cell.
        const colour = (cell: typeof notApplicable) => cell.evaluate((element) => getComputedStyle(element).color);
        expect(await colour(notApplicable.first())).not.toBe(await colour(investigative.locator("td").first()));
        const widths = await page.evaluate(() => ({
          viewport: window.innerWidth,
          document: document.documentElement.scrollWidth,
          list: document.querySelector("#comparison ul")?.getBoundingClientRect().right ?? Number.POSITIVE_INFINITY,
        }));
        expect(widths.document).toBeLessThanOrEqual(widths.viewport);
        expect(widths.list).toBeLessThanOrEqual(widths.viewport);
        expect(consoleErrors).toEqual([]);
      } finally {
        await close();
      }
    });

    it("shows hostile text as text: no element, no dialog, no error", async () => {
      const { page, consoleErrors, dialogs, close } = await visit("hostile", hostileSummary(), {
        width: 1280,
        height: 900,
      });
      try {
        expect(await page.locator("script").count()).toBe(0);
        expect(await page.locator("h1").textContent()).toBe(`Eval ${HOSTILE}`);
        expect(await page.locator('table[data-table="faults"] tbody th').first().textContent()).toBe(
          `fetch ${HOSTILE}`,
        );
        expect(await page.locator("figure[data-chart]").count()).toBe(3);
        expect(dialogs).toEqual([]);
        expect(consoleErrors).toEqual([]);
      } finally {
        await close();
      }
    });
  },
);
