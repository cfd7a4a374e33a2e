/**
 * A whole run on a hostile loopback "web": a page that never ends, a slow drip, a redirect
 * loop, a compression bomb, a binary served as HTML and a wrongly declared charset sit among
 * good pages. The run stays bounded, records each failure, and publishes the good sources.
 */
import { join } from "node:path";
import { Readable } from "node:stream";
import { createGzip } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { resolveBudgets } from "../../core/budgets.js";
import { createRuntime } from "../../runtime/runtime.js";
import { publishedReport } from "../../testing/read-report.js";
import { tempDir } from "../../testing/temp-dir.js";
import { FilesystemArtifactStore } from "../artifacts/filesystem/filesystem-artifact-store.js";
import { systemClock } from "../clock/system-clock.js";
import { type LoopbackServer, startLoopbackServer } from "../fetch/http/loopback-server.js";
import { openSqliteStore } from "../store/sqlite/sqlite-store.js";
import { webScopeOpener } from "./web-scope.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const article = (title: string, text: string) =>
  `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${title}</title></head><body><nav>Home · News · Shop</nav><article><h1>${title}</h1><p>${text}</p><p>${text}</p><p>Lithium batteries were studied further by many groups around the world.</p></article><footer>© 2026</footer></body></html>`;

async function hostileWeb(): Promise<LoopbackServer> {
  let server: LoopbackServer | undefined;
  const pages = ["good-1", "endless", "drip", "loop", "bomb", "binary", "latin", "good-2"];
  server = await startLoopbackServer({
    "/search": (_request, response) => {
      const origin = server?.origin ?? "";
      response.setHeader("content-type", "application/json");
      response.end(
        JSON.stringify({
          query: "lithium",
          results: pages.map((name, index) => ({
            url: `${origin}/${name}`,
            title: name,
            content: "lithium battery",
            score: 10 - index,
            engine: "x",
          })),
        }),
      );
    },
    "/good-1": (_request, response) => {
      response.setHeader("content-type", "text/html; charset=utf-8");
      response.end(
        article(
          "Lithium cobalt oxide at Oxford",
          "In 1980 a group at Oxford reported lithium cobalt oxide as a lithium battery cathode.",
        ),
      );
    },
    "/good-2": (_request, response) => {
      response.setHeader("content-type", "text/html; charset=utf-8");
      response.end(article("Sony's lithium battery", "In 1991 Sony sold the first commercial lithium-ion battery."));
    },
    "/endless": (_request, response) => {
      response.setHeader("content-type", "text/html; charset=utf-8");
      response.write("<html><body><article>");
      const chunk = `<p>${"lithium battery endless text ".repeat(200)}</p>`;
      const pump = (): void => {
        while (response.write(chunk)) {
          /* keep writing until the socket pushes back */
        }
        response.once("drain", pump);
      };
      response.on("close", () => response.removeAllListeners("drain"));
      pump();
    },
    "/drip": (_request, response) => {
      response.setHeader("content-type", "text/html; charset=utf-8");
      const timer = setInterval(() => response.write("<p>lithium</p>"), 200);
      response.on("close", () => clearInterval(timer));
    },
    "/loop": (_request, response) => {
      response.writeHead(302, { location: "/loop" }).end();
    },
    "/bomb": (_request, response) => {
      response.writeHead(200, { "content-type": "text/html", "content-encoding": "gzip" });
      const zeros = Readable.from(
        (function* () {
          for (let index = 0; index < 1024; index++) yield Buffer.alloc(1024 * 1024);
        })(),
      );
      zeros.pipe(createGzip()).pipe(response);
    },
    "/binary": (_request, response) => {
      response.setHeader("content-type", "text/html");
      response.end(Buffer.from(Array.from({ length: 4096 }, (_, index) => index % 256)));
    },
    "/latin": (_request, response) => {
      response.setHeader("content-type", "text/html");
      response.end(
        Buffer.from(
          '<html><head><meta charset="windows-1252"><title>Caf\xe9 lithium</title></head><body><article><p>M\xfcller measured the lithium battery at 20 \xb0C in a caf\xe9; the lithium cell held its charge.</p><p>The lithium battery results were repeated twice by the team.</p></article></body></html>',
          "latin1",
        ),
      );
    },
  });
  return server;
}

/** A runtime over a fresh SQLite store and the web scope with `options`; closed after the test. */
function webRuntime(options: Parameters<typeof webScopeOpener>[0]) {
  const dir = tempDir();
  cleanups.push(dir.cleanup);
  const store = openSqliteStore({ file: join(dir.path, "assay.db") });
  cleanups.push(() => store.close());
  const runtime = createRuntime({
    store,
    artifacts: new FilesystemArtifactStore(),
    clock: systemClock,
    scopes: webScopeOpener(options),
  });
  return { dir, store, runtime };
}

describe("a web run over hostile pages", () => {
  it("stays bounded, records each failure and publishes the good sources", async () => {
    const web = await hostileWeb();
    cleanups.push(() => web.close());
    const { dir, store, runtime } = webRuntime({
      apiKeyFor: () => undefined,
      fetcher: {
        respectRobots: false,
        politenessDelayMs: 0,
        readTimeoutMs: 1_500,
        maxBodyBytes: 2 * 1024 * 1024,
        maxDecodedBytes: 4 * 1024 * 1024,
        maxRetries: 0,
      },
    });
    const budgets = resolveBudgets({ maxSources: 8, maxFetchAttempts: 8, bootstrapSources: 8 });
    if (!budgets.ok) throw new Error(budgets.error);
    const before = process.memoryUsage().rss;
    const out = join(dir.path, "out");
    const outcome = await runtime.run({
      question: "lithium battery",
      language: "en",
      strategy: "pipeline",
      model: "none",
      scope: {
        kind: "web",
        search: { provider: "searxng", baseUrl: web.origin },
        allowHosts: ["127.0.0.1"],
        label: "the web, searched with SearXNG",
      },
      budgets: budgets.value,
      outDir: out,
    });
    expect(outcome.status).toBe("finished");
    // Nothing was buffered past its cap: a 1 GiB bomb and an endless page cost little memory.
    expect(process.memoryUsage().rss - before).toBeLessThan(400 * 1024 * 1024);
    const sources = await store.listSources(outcome.runId);
    const urls = sources.map((source) => new URL(source.url ?? "").pathname).sort();
    expect(urls).toContain("/good-1");
    expect(urls).toContain("/good-2");
    expect(urls).toContain("/latin");
    expect(urls).not.toContain("/loop");
    expect(urls).not.toContain("/binary");
    const latin = sources.find((source) => source.url?.endsWith("/latin"));
    expect(latin?.content).toContain("Müller measured the lithium battery at 20 °C in a café");
    const endless = sources.find((source) => source.url?.endsWith("/endless"));
    if (endless) expect(endless.truncated).toBe(true);
    const diagnostics = await store.listDiagnostics(outcome.runId);
    const failed = diagnostics
      .filter((item) => item.code === "fetch-failed")
      .map((item) => String(item.data?.anchor ?? ""));
    expect(failed.some((anchor) => anchor.endsWith("/loop"))).toBe(true);
    expect(failed.some((anchor) => anchor.endsWith("/binary"))).toBe(true);
    expect(failed.some((anchor) => anchor.endsWith("/drip"))).toBe(true);
    expect(failed.some((anchor) => anchor.endsWith("/bomb"))).toBe(true);
    const doc = publishedReport(join(out, "report.json"));
    expect(doc.status).toBe("source-backed");
    expect(doc.acquisitionBoundaries.some((line) => /of 8 documents could not be read/.test(line))).toBe(true);
    expect(JSON.stringify(doc)).not.toMatch(/ExternalServiceError|ECONN|redirect/);
  });

  it("with --search auto and no SearXNG, searches DuckDuckGo and Wikipedia, publishes when Wikipedia is down, and says so", async () => {
    let origin = "";
    const web = await startLoopbackServer({
      // DuckDuckGo's HTML results page, the result behind its redirector.
      "/ddg/html/": (_request, response) => {
        response.setHeader("content-type", "text/html; charset=utf-8");
        response.end(
          `<html><body><div id="links"><div class="result"><h2><a class="result__a" href="//duckduckgo.com/l/?uddg=${encodeURIComponent(
            `${origin}/good-1`,
          )}&amp;rut=1">Lithium cobalt oxide at Oxford</a></h2><a class="result__snippet">Oxford, 1980.</a></div></div></body></html>`,
        );
      },
      "/wiki/w/api.php": (_request, response) => {
        response.statusCode = 400;
        response.setHeader("content-type", "application/json");
        response.end(JSON.stringify({ error: { code: "badvalue", info: "the wiki is down for this test" } }));
      },
      "/good-1": (_request, response) => {
        response.setHeader("content-type", "text/html; charset=utf-8");
        response.end(
          article(
            "Lithium cobalt oxide at Oxford",
            "In 1980 a group at Oxford reported lithium cobalt oxide as a lithium battery cathode.",
          ),
        );
      },
    });
    origin = web.origin;
    cleanups.push(() => web.close());
    const { dir, store, runtime } = webRuntime({
      apiKeyFor: () => undefined,
      baseUrls: { duckduckgo: `${origin}/ddg/`, wikipedia: `${origin}/wiki/` },
      fetcher: { respectRobots: false, politenessDelayMs: 0, maxRetries: 0 },
    });
    const budgets = resolveBudgets({ maxSources: 2 });
    if (!budgets.ok) throw new Error(budgets.error);
    const out = join(dir.path, "out");
    const outcome = await runtime.run({
      question: "lithium cobalt oxide cathode Oxford",
      language: "en",
      strategy: "pipeline",
      model: "none",
      // Nothing listens on port 9: no SearXNG answers.
      scope: { kind: "web", search: { provider: "auto:http://127.0.0.1:9" }, allowHosts: ["127.0.0.1"], label: "auto" },
      budgets: budgets.value,
      outDir: out,
    });
    expect(outcome.status).toBe("finished");
    const doc = publishedReport(join(out, "report.json"));
    expect(doc.boundary.scope).toBe(
      "the web, searched with DuckDuckGo and Wikipedia (auto: SearXNG at 127.0.0.1:9 did not answer)",
    );
    expect(doc.sources.map((source) => source.url)).toEqual([`${origin}/good-1`]);
    expect(doc.acquisitionBoundaries.join(" ")).toMatch(/answered by only some of (its|their) search providers/);
    const events = await store.listEvents(outcome.runId);
    expect(events.find((event) => event.type === "scope-prepared")?.data).toMatchObject({
      provider: "duckduckgo,wikipedia",
      auto: { searxngUrl: "http://127.0.0.1:9", searxng: "did not answer" },
    });
    const diagnostics = await store.listDiagnostics(outcome.runId);
    expect(
      diagnostics.some((item) => item.code === "search-provider-failed" && item.message.startsWith("Wikipedia:")),
    ).toBe(true);
  });
});
