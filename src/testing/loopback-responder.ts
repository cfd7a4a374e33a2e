/**
 * A loopback HTTP server whose replies are computed from each request, for end-to-end tests
 * that drive a multi-turn loop through a real provider adapter: the answer depends on what
 * the request carries (the tools offered, the tool choice, earlier tool results), not on a
 * fixed order. Every request is recorded as loopback-http.ts records it. A responder that
 * throws gets a 418 with its message, and the error is kept in `errors`. Nothing leaves the
 * machine.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { ScriptedReply, SeenRequest } from "./loopback-http.js";

/** Computes the reply to the request `index` (0-based), given every request seen so far. */
export type Responder = (request: SeenRequest, index: number, seen: readonly SeenRequest[]) => ScriptedReply;

export interface LoopbackResponder {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  baseUrl: string;
  seen: SeenRequest[];
  /** The reply sent to each request, in the same order as `seen`. */
  replies: ScriptedReply[];
  /** What the responder threw, in order (a test asserts this is empty). */
  errors: string[];
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

/** A server answering each request with what `respond` computes for it. */
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
