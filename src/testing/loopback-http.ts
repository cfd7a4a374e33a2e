/**
 * A loopback HTTP server for provider tests: it records every request and answers each
 * with the next scripted reply, or with a reply computed from the request (JSON, or a raw body such as an HTML error page, with an
 * optional status, headers and delay). An unexpected request gets a 418. Nothing leaves
 * the machine.
 */
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface SeenRequest {
  method: string;
  /** Path and query string. */
  path: string;
  headers: IncomingHttpHeaders;
  /** The body as text ("" when there was none). */
  raw: string;
  /** The body parsed as JSON; undefined when it is empty or not JSON. */
  // biome-ignore lint/suspicious/noExplicitAny: the recorded request body is inspected freely in assertions.
  body: any;
}

/** A reply delay no test waits out (ten minutes): a reply that never comes while the test runs. */
export const NEVER_MS = 600_000;

export interface ScriptedReply {
  status?: number;
  /** Sent as JSON (`{}` when neither `body` nor `raw` is given). */
  body?: unknown;
  /** Sent as is, as text/html unless `headers` sets a content-type (malformed bodies, HTML error pages). */
  raw?: string;
  headers?: Record<string, string>;
  delayMs?: number;
}

export interface Loopback {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  baseUrl: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

function parseJson(raw: string): unknown {
  if (!raw) return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

/** Computes the reply to the request `index` (0-based), given every request seen so far. */
export type Responder = (request: SeenRequest, index: number, seen: readonly SeenRequest[]) => ScriptedReply;

export interface LoopbackResponder extends Loopback {
  /** The reply sent to each request, in the same order as `seen`. */
  replies: ScriptedReply[];
  /** What the responder threw, in order (a test asserts this is empty). */
  errors: string[];
}

/**
 * A server answering each request with what `respond` computes for it — for end-to-end tests
 * whose answer depends on what the request carries (tools offered, earlier tool results), not on
 * a fixed order. A responder that throws gets a 418 with its message, kept in `errors`.
 */
export async function startResponder(respond: Responder): Promise<LoopbackResponder> {
  const seen: SeenRequest[] = [];
  const replies: ScriptedReply[] = [];
  const errors: string[] = [];
  const server = createServer((request, response) => {
    const parts: Buffer[] = [];
    request.on("data", (part: Buffer) => parts.push(part));
    request.on("end", () => {
      const raw = Buffer.concat(parts).toString("utf8");
      const entry: SeenRequest = {
        method: request.method ?? "",
        path: request.url ?? "",
        headers: request.headers,
        raw,
        body: parseJson(raw),
      };
      seen.push(entry);
      let reply: ScriptedReply;
      try {
        reply = respond(entry, seen.length - 1, seen);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        errors.push(`request ${seen.length - 1}: ${message}`);
        reply = { status: 418, body: { error: { message: `the responder failed: ${message}` } } };
      }
      replies.push(reply);
      const send = (): void => {
        const type = reply.raw === undefined ? "application/json" : "text/html";
        response.writeHead(reply.status ?? 200, { "content-type": type, ...reply.headers });
        response.end(reply.raw ?? (reply.body === undefined ? "{}" : JSON.stringify(reply.body)));
      };
      if (!reply.delayMs) return send();
      const timer = setTimeout(send, reply.delayMs);
      response.on("close", () => clearTimeout(timer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    seen,
    replies,
    errors,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A server answering each request with the next of `replies`, which it consumes; an unexpected request gets a 418. */
export function startLoopback(replies: ScriptedReply[]): Promise<Loopback> {
  return startResponder(() => replies.shift() ?? { status: 418, body: { error: { message: "unexpected request" } } });
}

/** One result of a SearXNG JSON reply, as an instance lists it. */
export interface SearxngResult {
  url: string;
  title: string;
  content: string;
  score: number;
  /** The engine that found it ("duckduckgo"; a loopback web's own name). */
  engine: string;
}

/** A SearXNG `/search?format=json` reply with `results`, in the shape real instances send. */
export const searxngReply = (query: string, results: readonly SearxngResult[]) => ({
  query,
  results: results.map((result) => ({ ...result, engines: [result.engine], category: "general" })),
  answers: [],
  corrections: [],
  infoboxes: [],
  suggestions: [],
  unresponsive_engines: [],
});
