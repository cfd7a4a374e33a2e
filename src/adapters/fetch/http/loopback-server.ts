/**
 * A real HTTP server on 127.0.0.1 for the fetcher tests: the network faked at the wire.
 * Routes are keyed by path; every request is recorded.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type RouteHandler = (request: IncomingMessage, response: ServerResponse) => void | Promise<void>;

export interface LoopbackServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  port: number;
  url(path: string): string;
  /** Path and query of every request, in arrival order. */
  requests: string[];
  /** The request headers of every request, in arrival order. */
  headers: IncomingMessage["headers"][];
  close(): Promise<void>;
}

export async function startLoopbackServer(routes: Record<string, RouteHandler>): Promise<LoopbackServer> {
  const requests: string[] = [];
  const headers: IncomingMessage["headers"][] = [];
  const server = createServer((request, response) => {
    const target = request.url ?? "/";
    requests.push(target);
    headers.push(request.headers);
    const handler = routes[new URL(target, "http://127.0.0.1").pathname];
    if (!handler) {
      response.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    Promise.resolve(handler(request, response)).catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    port,
    url: (path) => `${origin}${path}`,
    requests,
    headers,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Writes `chunk` until the client goes away or `total` bytes were sent; resolves with the bytes sent. */
export async function writeUntilClosed(response: ServerResponse, chunk: Buffer, total = Infinity): Promise<number> {
  let sent = 0;
  let closed = false;
  let wake = (): void => undefined;
  response.on("close", () => {
    closed = true;
    wake();
  });
  while (!closed && sent < total) {
    const part = chunk.subarray(0, Math.min(chunk.length, total - sent));
    sent += part.length;
    if (!response.write(part)) {
      await new Promise<void>((resolve) => {
        wake = resolve;
        response.once("drain", resolve);
      });
    }
  }
  if (!closed) response.end();
  return sent;
}
