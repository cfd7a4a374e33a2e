/**
 * End to end over TLS: an https loopback server redirecting to a plain-http one. The fetcher
 * runs in a child process (the built `dist/`, as the CLI tests use it) that trusts the test
 * certificate through NODE_EXTRA_CA_CERTS, which Node reads only at start-up.
 *
 * `__fixtures__/loopback-tls-{key,cert}.pem` is a self-signed P-256 certificate for
 * IP:127.0.0.1, valid 2000 to 2100, made for these tests only (`openssl ca -selfsign`).
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LoopbackServer, startLoopbackServer } from "./loopback-server.js";

const fixture = (name: string): string => fileURLToPath(new URL(`./__fixtures__/${name}`, import.meta.url));
const CERT = fixture("loopback-tls-cert.pem");
const BUILT = fileURLToPath(new URL("../../../../dist/adapters/fetch/http/http-fetcher.js", import.meta.url));

interface Outcome {
  ok: boolean;
  url?: string;
  content?: string;
  name?: string;
  message?: string;
  isRetryable?: boolean;
}

/** Fetches each URL with a fresh fetcher in a child process that trusts the test certificate. */
const CHILD = `
const [modulePath, job] = process.argv.slice(1);
const { createHttpFetcher } = await import(new URL("file://" + modulePath).href);
const { urls, settings } = JSON.parse(job);
const outcomes = [];
for (const url of urls) {
  const fetcher = createHttpFetcher({
    allowHosts: ["127.0.0.1"], respectRobots: false, politenessDelayMs: 0, maxRetries: 0,
    connectTimeoutMs: 5000, readTimeoutMs: 10000, ...settings,
  });
  try {
    const doc = await fetcher.fetch(url, { maxChars: 1000 });
    outcomes.push({ ok: true, url: doc.url, content: doc.content });
  } catch (error) {
    outcomes.push({ ok: false, name: error.name, message: error.message, isRetryable: error.isRetryable });
  } finally {
    await fetcher.close();
  }
}
process.stdout.write(JSON.stringify(outcomes));
`;

function fetchInChild(urls: string[], settings: Record<string, unknown> = {}): Promise<Outcome[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--input-type=module", "-e", CHILD, BUILT, JSON.stringify({ urls, settings })],
      { env: { PATH: process.env.PATH ?? "", NODE_EXTRA_CA_CERTS: CERT }, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) reject(new Error(`the child exited with ${code}: ${stderr}`));
      else resolve(JSON.parse(stdout) as Outcome[]);
    });
  });
}

describe("HTTP fetcher: no https to http downgrade (over real TLS)", () => {
  let plain: LoopbackServer;
  let secure: Server;
  let secureOrigin = "";
  const secureRequests: string[] = [];

  beforeAll(async () => {
    if (!existsSync(BUILT)) throw new Error("the fetcher is not built: run `npm run build` (npm test does it)");
    plain = await startLoopbackServer({
      "/plain": (_request, response) => {
        response.writeHead(200, { "content-type": "text/html" }).end("<title>Plain</title><p>Over plain http.</p>");
      },
      "/to-secure-down": (_request, response) => {
        response.writeHead(302, { location: `${secureOrigin}/down` }).end();
      },
    });
    secure = createServer(
      { key: readFileSync(fixture("loopback-tls-key.pem")), cert: readFileSync(CERT) },
      (request, response) => {
        const path = request.url ?? "/";
        secureRequests.push(path);
        if (path === "/down") response.writeHead(302, { location: plain.url("/plain") }).end();
        else if (path === "/hop") response.writeHead(301, { location: "/secure" }).end();
        else if (path === "/secure") {
          response.writeHead(200, { "content-type": "text/html" }).end("<title>Secure</title><p>Over TLS.</p>");
        } else response.writeHead(404).end();
      },
    );
    await new Promise<void>((resolve) => secure.listen(0, "127.0.0.1", resolve));
    secureOrigin = `https://127.0.0.1:${(secure.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await plain.close();
    secure.closeAllConnections();
    await new Promise<void>((resolve) => secure.close(() => resolve()));
  });

  it("refuses https to http by default, follows it when allowed, and follows https to https", async () => {
    const [down, chained, over] = await fetchInChild([
      `${secureOrigin}/down`,
      plain.url("/to-secure-down"),
      `${secureOrigin}/hop`,
    ]);
    const refusal =
      `refused to follow a redirect from ${secureOrigin}/down to ${plain.url("/plain")}: ` +
      "it downgrades https to plain http";
    expect(down).toEqual({ ok: false, name: "ExternalServiceError", message: refusal, isRetryable: false });
    // http -> https is followed; the https -> http hop after it is refused all the same.
    expect(chained).toEqual({ ok: false, name: "ExternalServiceError", message: refusal, isRetryable: false });
    // The certificate is trusted: the refusal above is the rule, not a TLS failure.
    expect(over).toEqual({ ok: true, url: `${secureOrigin}/secure`, content: "Over TLS." });
    expect(plain.requests).toEqual(["/to-secure-down"]);
    expect(secureRequests).toEqual(["/down", "/down", "/hop", "/secure"]);

    const [allowed] = await fetchInChild([`${secureOrigin}/down`], { allowHttpsDowngrade: true });
    expect(allowed).toEqual({ ok: true, url: plain.url("/plain"), content: "Over plain http." });
    expect(plain.requests).toEqual(["/to-secure-down", "/plain"]);
  });
});
