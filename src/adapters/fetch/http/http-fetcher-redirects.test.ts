/**
 * No downgrade: a redirect from https to plain http is refused unless `allowHttpsDowngrade`.
 * The rule is tested here where each hop's URL pair is vetted (`vetRedirectScheme`, pure),
 * and through the fetcher for a plain http hop; the https side, over real TLS, is in
 * `http-fetcher-tls.test.ts`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHttpFetcher, type HttpFetcher, vetRedirectScheme } from "./http-fetcher.js";
import { resolveSettings } from "./http-settings.js";
import { type LoopbackServer, startLoopbackServer } from "./loopback-server.js";

const hop = (from: string, to: string, allowHttpsDowngrade = false) =>
  vetRedirectScheme(new URL(from), new URL(to), { allowHttpsDowngrade });

describe("vetRedirectScheme", () => {
  it("refuses https to plain http, naming both URLs", () => {
    expect(hop("https://news.example/story", "http://news.example/story")).toEqual({
      refused: true,
      reason:
        "refused to follow a redirect from https://news.example/story to http://news.example/story: " +
        "it downgrades https to plain http",
    });
    expect(hop("https://a.example/x?q=1", "http://b.example:8080/y")).toMatchObject({
      refused: true,
      reason: expect.stringContaining("from https://a.example/x?q=1 to http://b.example:8080/y:"),
    });
  });

  it("lets every other pair through", () => {
    expect(hop("http://a.example/", "http://b.example/")).toEqual({ refused: false });
    expect(hop("http://a.example/", "https://a.example/")).toEqual({ refused: false });
    expect(hop("https://a.example/", "https://b.example/")).toEqual({ refused: false });
  });

  it("follows a downgrade when allowHttpsDowngrade is set", () => {
    expect(hop("https://a.example/", "http://a.example/", true)).toEqual({ refused: false });
  });

  it("keeps the message bounded for huge URLs", () => {
    const long = `/${"p".repeat(5_000)}`;
    const verdict = hop(`https://a.example${long}`, `http://a.example${long}`);
    expect(verdict.refused && verdict.reason.length).toBeLessThan(500);
  });
});

describe("the allowHttpsDowngrade setting", () => {
  it("defaults to false", () => {
    expect(resolveSettings({}).allowHttpsDowngrade).toBe(false);
    expect(resolveSettings({ allowHttpsDowngrade: true }).allowHttpsDowngrade).toBe(true);
  });
});

describe("HTTP fetcher redirects and schemes", () => {
  let server: LoopbackServer;
  const fetchers: HttpFetcher[] = [];
  const fetcher = (): HttpFetcher => {
    const made = createHttpFetcher({
      allowHosts: ["127.0.0.1"],
      respectRobots: false,
      politenessDelayMs: 0,
      readTimeoutMs: 5_000,
    });
    fetchers.push(made);
    return made;
  };

  beforeAll(async () => {
    server = await startLoopbackServer({
      "/moved": (_request, response) => void response.writeHead(301, { location: "/here" }).end(),
      "/here": (_request, response) => {
        response.writeHead(200, { "content-type": "text/html" }).end("<title>Here</title><p>Arrived.</p>");
      },
    });
  });

  afterAll(async () => {
    await Promise.all(fetchers.map((made) => made.close()));
    await server.close();
  });

  it("still follows a plain http to http redirect by default", async () => {
    const doc = await fetcher().fetch(server.url("/moved"), { maxChars: 1000 });
    expect(doc).toMatchObject({ title: "Here", content: "Arrived.", url: server.url("/here") });
  });
});
