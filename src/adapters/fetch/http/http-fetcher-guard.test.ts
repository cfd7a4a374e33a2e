/** SSRF refusals, redirects, retries, robots.txt and media types, against a loopback server. */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pptx, xlsx } from "../../../../scripts/office-files.mjs";
import { ExternalServiceError, UserError } from "../../../core/errors.js";
import type { HostLookup } from "./guarded-connector.js";
import { createHttpFetcher, type HttpFetcher, type HttpFetcherOptions } from "./http-fetcher.js";
import { type LoopbackServer, startLoopbackServer } from "./loopback-server.js";

const PDF = readFileSync(
  fileURLToPath(new URL("../../../../examples/corpus/safety/thermal-runaway-technical-note.pdf", import.meta.url)),
);
const DECK = pptx({ title: "Outlook", slides: [{ title: "Costs", bullets: ["Cells got cheaper."] }] });
const BOOK = xlsx({
  title: "Prices",
  sheets: [
    {
      name: "Packs",
      rows: [
        ["Year", "Price"],
        ["2024", 115],
      ],
    },
  ],
});
const UA = "Assay/0.1 (test; research bot)";

/** A resolver that knows a few test names, all pointing at loopback, and records every lookup. */
const lookups: string[] = [];
const lookup: HostLookup = async (hostname) => {
  lookups.push(hostname);
  if (hostname === "rebind.test") {
    return [
      { address: "93.184.216.34", family: 4 },
      { address: "127.0.0.1", family: 4 },
    ];
  }
  if (hostname.endsWith(".test")) return [{ address: "127.0.0.1", family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
};

let server: LoopbackServer;
const fetchers: HttpFetcher[] = [];
const counters = new Map<string, number>();
const count = (name: string): number => {
  const next = (counters.get(name) ?? 0) + 1;
  counters.set(name, next);
  return next;
};

function fetcherWith(options: HttpFetcherOptions): HttpFetcher {
  const fetcher = createHttpFetcher({ userAgent: UA, lookup, politenessDelayMs: 0, respectRobots: false, ...options });
  fetchers.push(fetcher);
  return fetcher;
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof Error)) throw new Error("expected a failure");
  return error;
}

beforeAll(async () => {
  server = await startLoopbackServer({
    "/robots.txt": (_request, response) => {
      response.writeHead(200, { "content-type": "text/plain" }).end("User-agent: assay\nDisallow: /private\n");
    },
    "/silent": () => undefined,
    "/page": (_request, response) => {
      response.writeHead(200, { "content-type": "text/html" }).end("<title>Page</title><p>Loopback page.</p>");
    },
    "/private/x": (_request, response) => void response.writeHead(200).end("secret"),
    "/to-private": (_request, response) => void response.writeHead(302, { location: "http://10.0.0.1/admin" }).end(),
    "/to-evil": (_request, response) => {
      response.writeHead(301, { location: `http://evil.test:${server.port}/page` }).end();
    },
    "/to-file": (_request, response) => void response.writeHead(302, { location: "file:///etc/passwd" }).end(),
    "/busy": (_request, response) => {
      if (count("busy") === 1) response.writeHead(429, { "retry-after": "1" }).end("slow down");
      else response.writeHead(200, { "content-type": "text/plain" }).end("Served after waiting.");
    },
    "/down": (_request, response) => void response.writeHead(503).end(),
    "/banned": (_request, response) => void response.writeHead(429, { "retry-after": "3600" }).end(),
    "/missing": (_request, response) => void response.writeHead(404).end(),
    "/data.json": (_request, response) => {
      response.writeHead(200, { "content-type": "application/json" }).end('{"cells":[{"v":3.2}]}');
    },
    "/image": (_request, response) => void response.writeHead(200, { "content-type": "image/png" }).end("PNG"),
    "/note.pdf": (_request, response) => void response.writeHead(200, { "content-type": "application/pdf" }).end(PDF),
    "/deck": (_request, response) => {
      response
        .writeHead(200, { "content-type": "application/vnd.openxmlformats-officedocument.presentationml.presentation" })
        .end(DECK);
    },
    "/files/prices.xlsx": (_request, response) => {
      response.writeHead(200, { "content-type": "application/octet-stream" }).end(BOOK);
    },
    "/data.csv": (_request, response) => void response.writeHead(200, { "content-type": "text/csv" }).end("a,b\n1,2\n"),
    "/download": (_request, response) => {
      response.writeHead(200, { "content-type": "application/octet-stream" }).end(PDF);
    },
    "/canonical": (_request, response) => {
      response
        .writeHead(200, { "content-type": "text/html" })
        .end('<link rel="canonical" href="/page?utm_source=x"><title>C</title><p>Has a canonical.</p>');
    },
    "/huge-html": (_request, response) => {
      response.writeHead(200, { "content-type": "text/html" }).end(`<p>${"word ".repeat(20_000)}</p>`);
    },
  });
});

afterAll(async () => {
  await Promise.all(fetchers.map((fetcher) => fetcher.close()));
  await server.close();
});

describe("SSRF guard", () => {
  it("refuses private, loopback, link-local and mapped IP literals before connecting", async () => {
    const guarded = fetcherWith({});
    const before = server.requests.length;
    for (const url of [
      server.url("/page"),
      "http://10.0.0.1/",
      "http://169.254.169.254/latest/meta-data/",
      `http://[::1]:${server.port}/page`,
      `http://[::ffff:127.0.0.1]:${server.port}/page`,
      `http://0x7f.1:${server.port}/page`,
      "http://2130706433/",
      "http://[fd00::1]/",
    ]) {
      const error = await failure(guarded.fetch(url, { maxChars: 100 }));
      expect(error, url).toBeInstanceOf(UserError);
      expect(error.message, url).toMatch(
        /^refused to fetch http:\/\/\S+: \S+ is (loopback|private|link-local|unique-local|IPv4-mapped)/,
      );
    }
    expect(server.requests.length).toBe(before);
    expect(lookups).toEqual([]);
  });

  it("refuses a host name that resolves to loopback, even next to a public address", async () => {
    const guarded = fetcherWith({ respectRobots: true });
    const before = server.requests.length;
    const error = await failure(guarded.fetch(`http://internal.test:${server.port}/page`, { maxChars: 100 }));
    expect(error).toBeInstanceOf(UserError);
    expect(error.message).toBe(
      `refused to fetch http://internal.test:${server.port}/robots.txt: internal.test resolves to 127.0.0.1, which is loopback`,
    );
    const rebind = await failure(guarded.fetch(`http://rebind.test:${server.port}/page`, { maxChars: 100 }));
    expect(rebind.message).toMatch(/^refused to fetch \S+: rebind.test resolves to 127.0.0.1, which is loopback$/);
    const noRobots = await failure(fetcherWith({}).fetch(`http://internal.test:${server.port}/page`, { maxChars: 1 }));
    expect(noRobots.message).toBe(
      `refused to fetch http://internal.test:${server.port}/page: internal.test resolves to 127.0.0.1, which is loopback`,
    );
    expect(server.requests.length).toBe(before);
  });

  it("reaches allow-listed hosts, addresses and ranges", async () => {
    for (const allowHosts of [["internal.test"], ["127.0.0.1"], ["127.0.0.0/8"]]) {
      const doc = await fetcherWith({ allowHosts }).fetch(`http://internal.test:${server.port}/page`, {
        maxChars: 100,
      });
      expect(doc.content, allowHosts[0]).toBe("Loopback page.");
      expect(doc.domain).toBe("internal.test");
    }
  });

  it("refuses a redirect hop to a private address or a refused host", async () => {
    const fetcher = fetcherWith({ allowHosts: ["127.0.0.1"] });
    const literal = await failure(fetcher.fetch(server.url("/to-private"), { maxChars: 100 }));
    expect(literal).toBeInstanceOf(UserError);
    expect(literal.message).toBe("refused to follow a redirect to http://10.0.0.1/admin: 10.0.0.1 is private");
    const trusted = fetcherWith({ allowHosts: ["trusted.test"] });
    const named = await failure(trusted.fetch(`http://trusted.test:${server.port}/to-evil`, { maxChars: 100 }));
    expect(named).toBeInstanceOf(UserError);
    expect(named.message).toBe(
      `refused to fetch http://evil.test:${server.port}/page: evil.test resolves to 127.0.0.1, which is loopback`,
    );
    const scheme = await failure(fetcher.fetch(server.url("/to-file"), { maxChars: 100 }));
    expect(scheme.message).toBe('refused to follow a redirect to file:///etc/passwd: unsupported scheme "file"');
  });

  it("refuses other schemes and URLs with credentials", async () => {
    const fetcher = fetcherWith({});
    expect((await failure(fetcher.fetch("ftp://example.com/x", { maxChars: 1 }))).message).toBe(
      'refused to fetch ftp://example.com/x: unsupported scheme "ftp"',
    );
    await expect(fetcher.fetch("https://user:pw@example.com/", { maxChars: 1 })).rejects.toThrow(UserError);
    await expect(fetcher.fetch("not a url", { maxChars: 1 })).rejects.toThrow(UserError);
  });
});

describe("HTTP behaviour", () => {
  const local = (options: HttpFetcherOptions = {}): HttpFetcher =>
    fetcherWith({ allowHosts: ["127.0.0.1"], ...options });

  it("waits out a 429 with Retry-After, then succeeds", async () => {
    const sleeps: number[] = [];
    const fetcher = local({ sleep: async (ms) => void sleeps.push(ms) });
    const doc = await fetcher.fetch(server.url("/busy"), { maxChars: 100 });
    expect(doc.content).toBe("Served after waiting.");
    expect(sleeps).toEqual([1000]);
  });

  it("gives up on 503 after the retries and on a long Retry-After at once", async () => {
    const sleeps: number[] = [];
    const fetcher = local({ sleep: async (ms) => void sleeps.push(ms), maxRetries: 2 });
    const before = server.requests.filter((path) => path === "/down").length;
    const down = await failure(fetcher.fetch(server.url("/down"), { maxChars: 100 }));
    expect(down).toBeInstanceOf(ExternalServiceError);
    expect(down.message).toBe(`HTTP 503: ${server.url("/down")}`);
    expect((down as ExternalServiceError).isRetryable).toBe(true);
    expect(server.requests.filter((path) => path === "/down").length - before).toBe(3);
    expect(sleeps).toEqual([1000, 2000]);
    const banned = await failure(fetcher.fetch(server.url("/banned"), { maxChars: 100 }));
    expect(banned.message).toBe(`HTTP 429 (Retry-After 3600): ${server.url("/banned")}`);
    const missing = await failure(fetcher.fetch(server.url("/missing"), { maxChars: 100 }));
    expect((missing as ExternalServiceError).isRetryable).toBe(false);
  });

  it("respects robots.txt, read once per origin, and sends the configured User-Agent", async () => {
    const fetcher = local({ respectRobots: true });
    const before = server.requests.filter((path) => path === "/robots.txt").length;
    const refused = await failure(fetcher.fetch(server.url("/private/x"), { maxChars: 100 }));
    expect(refused).toBeInstanceOf(ExternalServiceError);
    expect(refused.message).toBe(`skipped: disallowed by robots.txt: ${server.url("/private/x")}`);
    expect((await fetcher.fetch(server.url("/page"), { maxChars: 100 })).content).toBe("Loopback page.");
    expect(server.requests.filter((path) => path === "/robots.txt").length - before).toBe(1);
    expect(server.headers.at(-1)?.["user-agent"]).toBe(UA);
    expect(server.headers.at(-1)?.["accept-encoding"]).toBe("gzip, deflate, br");
  });

  it("spaces requests to one host by the politeness delay", async () => {
    let now = 0;
    const sleeps: number[] = [];
    const fetcher = local({
      politenessDelayMs: 700,
      now: () => now,
      sleep: async (ms) => {
        sleeps.push(ms);
        now += ms;
      },
    });
    await fetcher.fetch(server.url("/page"), { maxChars: 100 });
    await fetcher.fetch(server.url("/page"), { maxChars: 100 });
    expect(sleeps).toEqual([700]);
  });

  it("extracts JSON, PDF (declared or sniffed) and skips other types", async () => {
    const fetcher = local();
    const json = await fetcher.fetch(server.url("/data.json"), { maxChars: 1000 });
    expect(json).toMatchObject({ title: "data", contentType: "application/json" });
    expect(json.content).toBe('{\n  "cells": [\n    {\n      "v": 3.2\n    }\n  ]\n}');
    for (const path of ["/note.pdf", "/download"]) {
      const pdf = await fetcher.fetch(server.url(path), { maxChars: 200 });
      expect(pdf.title, path).toBe("Technical Note TN-07: Thermal Runaway in Lithium-Ion Cells");
      expect(pdf).toMatchObject({ contentType: "application/pdf", truncated: true });
    }
    // The document types a corpus reads, by media type or (sent as octets) by the URL's extension, cited by place.
    const deck = await fetcher.fetch(server.url("/deck"), { maxChars: 10_000 });
    expect(deck).toMatchObject({ title: "Outlook", content: "Costs\n\nCells got cheaper." });
    expect(deck.sections).toEqual([{ start: 0, location: "slide 1" }]);
    const book = await fetcher.fetch(server.url("/files/prices.xlsx"), { maxChars: 10_000 });
    expect(book.content).toBe("Year: 2024; Price: 115");
    expect(book.sections).toEqual([{ start: 0, location: "sheet Packs, row 2" }]);
    expect((await fetcher.fetch(server.url("/data.csv"), { maxChars: 100 })).content).toBe("a: 1; b: 2");
    const cut = local({ maxBodyBytes: 1000 });
    await expect(cut.fetch(server.url("/deck"), { maxChars: 100 })).rejects.toThrow(/PPTX larger than the body cap/);
    const image = await failure(fetcher.fetch(server.url("/image"), { maxChars: 100 }));
    expect(image.message).toBe(`skipped: unsupported content type image/png: ${server.url("/image")}`);
    const small = local({ maxBodyBytes: 1000 });
    await expect(small.fetch(server.url("/note.pdf"), { maxChars: 100 })).rejects.toThrow(/PDF larger than/);
  });

  it("takes a same-site canonical link and cuts oversized HTML before extraction", async () => {
    const fetcher = local({ maxHtmlBytes: 1000 });
    const doc = await fetcher.fetch(server.url("/canonical"), { maxChars: 1000 });
    expect(doc.canonicalAnchor).toBe(server.url("/page"));
    expect(doc.url).toBe(server.url("/page"));
    const huge = await fetcher.fetch(server.url("/huge-html"), { maxChars: 100_000 });
    expect(huge.truncated).toBe(true);
    expect(huge.content.length).toBeLessThan(1000);
  });

  it("reports a refused connection and a silent server as retryable", async () => {
    const closed = await startLoopbackServer({});
    const port = closed.port;
    await closed.close();
    const refused = await failure(local().fetch(`http://127.0.0.1:${port}/`, { maxChars: 1 }));
    expect(refused.message).toBe(`connection refused: http://127.0.0.1:${port}/`);
    expect((refused as ExternalServiceError).isRetryable).toBe(true);
    const silent = await failure(local({ readTimeoutMs: 300 }).fetch(server.url("/silent"), { maxChars: 1 }));
    expect(silent.message).toBe(`timed out after 300 ms: ${server.url("/silent")}`);
  });

  it("rethrows the caller's abort reason", async () => {
    const fetcher = local();
    const controller = new AbortController();
    controller.abort(new Error("caller gave up"));
    await expect(fetcher.fetch(server.url("/page"), { maxChars: 1, signal: controller.signal })).rejects.toThrow(
      "caller gave up",
    );
  });
});
