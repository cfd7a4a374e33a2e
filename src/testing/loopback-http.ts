/**
 * A loopback HTTP server for provider tests: it records every request and answers each
 * with the next scripted reply (JSON, with an optional status, headers and delay). An
 * unexpected request gets a 418. Nothing leaves the machine.
 */
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
  // biome-ignore lint/suspicious/noExplicitAny: the recorded request body is inspected freely in assertions.
  body: any;
}

export interface ScriptedReply {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
  delayMs?: number;
}

export interface Loopback {
  /** `http://127.0.0.1:<port>/v1`. */
  baseURL: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

export async function startLoopback(replies: ScriptedReply[]): Promise<Loopback> {
  const seen: SeenRequest[] = [];
  const server = createServer((request, response) => {
    const parts: Buffer[] = [];
    request.on("data", (part: Buffer) => parts.push(part));
    request.on("end", () => {
      const raw = Buffer.concat(parts).toString("utf8");
      seen.push({
        method: request.method ?? "",
        path: request.url ?? "",
        headers: request.headers,
        raw,
        body: raw ? JSON.parse(raw) : undefined,
      });
      const reply = replies.shift() ?? { status: 418, body: { error: { message: "unexpected request" } } };
      const send = (): void => {
        response.writeHead(reply.status ?? 200, { "content-type": "application/json", ...reply.headers });
        response.end(JSON.stringify(reply.body));
      };
      if (!reply.delayMs) return send();
      const timer = setTimeout(send, reply.delayMs);
      response.on("close", () => clearTimeout(timer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
