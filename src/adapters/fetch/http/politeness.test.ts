/**
 * Politeness as a site sees it (issue 23): a loopback site records when each request arrives on
 * the fetcher's own clock (a virtual one: every politeness wait advances it, so the times are
 * exact and the test waits for nothing). robots.txt and the first page are one visit; later
 * pages are spaced by the delay; the subdomains of one registrable domain share it; another
 * site never waits on them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HostLookup } from "./guarded-connector.js";
import { createHttpFetcher, type HttpFetcher } from "./http-fetcher.js";
import { type LoopbackServer, type RouteHandler, startLoopbackServer } from "./loopback-server.js";
import { RobotsCache } from "./robots-cache.js";

const DELAY = 1000;
const lookup: HostLookup = async () => [{ address: "127.0.0.1", family: 4 }];

let server: LoopbackServer;
/** The virtual clock: moved only by the limiter's waits. */
let now = 0;
const arrivals: string[] = [];
const fetchers: HttpFetcher[] = [];

beforeAll(async () => {
  const record =
    (path: string): RouteHandler =>
    (request, response) => {
      arrivals.push(`${now} ${(request.headers.host ?? "").split(":")[0]}${path}`);
      if (path === "/robots.txt")
        response.writeHead(200, { "content-type": "text/plain" }).end("User-agent: *\nAllow: /\n");
      else response.writeHead(200, { "content-type": "text/plain" }).end(`Page ${path}.`);
    };
  server = await startLoopbackServer(
    Object.fromEntries(["/robots.txt", "/1", "/2", "/3"].map((path) => [path, record(path)])),
  );
});

afterAll(async () => {
  await Promise.all(fetchers.map((fetcher) => fetcher.close()));
  await server.close();
});

function politeFetcher(): HttpFetcher {
  const fetcher = createHttpFetcher({
    lookup,
    allowHosts: ["127.0.0.1"],
    politenessDelayMs: DELAY,
    maxConcurrentPerSite: 1,
    now: () => now,
    sleep: async (ms) => {
      now += ms;
    },
    robotsCache: new RobotsCache({ now: () => now }),
  });
  fetchers.push(fetcher);
  return fetcher;
}

describe("politeness per site", () => {
  it("reads robots.txt and the first page back to back, spaces later pages by the delay, and shares it across subdomains", async () => {
    now = 0;
    arrivals.length = 0;
    const fetcher = politeFetcher();
    const url = (host: string, path: string) => `http://${host}:${server.port}${path}`;
    const read = (host: string, path: string) => fetcher.fetch(url(host, path), { maxChars: 10_000 });

    await read("docs.site.test", "/1");
    await read("docs.site.test", "/2");
    // Another subdomain of the same site: its own robots.txt at once, its page after the site's delay.
    await read("api.site.test", "/3");
    // Another site waits for nobody.
    await read("other.test", "/1");

    expect(arrivals).toEqual([
      "0 docs.site.test/robots.txt",
      "0 docs.site.test/1",
      `${DELAY} docs.site.test/2`,
      `${DELAY} api.site.test/robots.txt`,
      `${2 * DELAY} api.site.test/3`,
      `${2 * DELAY} other.test/robots.txt`,
      `${2 * DELAY} other.test/1`,
    ]);
  });

  it("reads a site's robots.txt once for the pages of several fetchers (runs) that share the cache", async () => {
    now = 0;
    arrivals.length = 0;
    const robotsCache = new RobotsCache({ now: () => now });
    const [first, second] = [0, 1].map(() => {
      const fetcher = createHttpFetcher({ lookup, allowHosts: ["127.0.0.1"], politenessDelayMs: 0, robotsCache });
      fetchers.push(fetcher);
      return fetcher;
    });
    await first?.fetch(`http://shared.test:${server.port}/1`, { maxChars: 10_000 });
    await second?.fetch(`http://shared.test:${server.port}/2`, { maxChars: 10_000 });
    expect(arrivals.map((line) => line.split(" ")[1])).toEqual([
      "shared.test/robots.txt",
      "shared.test/1",
      "shared.test/2",
    ]);
  });
});
