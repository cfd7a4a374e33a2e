/**
 * `assay mcp --http`: streamable HTTP at `/mcp`, one MCP session per client. Every request needs
 * `Authorization: Bearer <token>` of the server's user (verifyToken, as `assay serve`), except
 * with `auth: false`, which only a loopback address may have (`mcp-command.ts` checks it).
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { isIP } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { touchDue, verifyToken } from "../http/tokens.js";
import { buildMcpServer, type McpServices } from "./mcp-server.js";

export interface McpHttpOptions {
  port: number;
  host: string;
  /** false: no token needed (`--no-auth`, loopback only). */
  auth: boolean;
  /** Milliseconds since the epoch; injectable for tests. */
  now?: () => number;
}

export interface McpHttpServer {
  /** `http://HOST:PORT/mcp`, with the bound port. */
  url: string;
  /** Closes every session and the listener. */
  close: () => Promise<void>;
}

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

/** 127.0.0.0/8, ::1 or localhost. */
export function isLoopback(host: string): boolean {
  return LOOPBACK_NAMES.has(host) || (isIP(host) === 4 && host.startsWith("127."));
}

/** On a loopback address, a Host header that names another host is a DNS-rebinding attempt. */
function hostAllowed(request: IncomingMessage): boolean {
  const header = request.headers.host;
  if (header === undefined) return false;
  try {
    const name = new URL(`http://${header}`).hostname;
    if (!isLoopback(name)) return false;
  } catch {
    return false;
  }
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  try {
    return isLoopback(new URL(origin).hostname);
  } catch {
    return false;
  }
}

function refuse(response: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
}

const CHALLENGE = { "WWW-Authenticate": 'Bearer realm="assay"' };

/**
 * Why the request may not reach the server's user, or undefined when it may: its Bearer token
 * must be valid and the user's. A valid token of another user is refused like an unknown one
 * (401): the server acts as one user only.
 */
async function unauthorized(
  request: IncomingMessage,
  services: McpServices,
  now: () => number,
): Promise<string | undefined> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? "");
  const secret = match?.[1];
  if (secret === undefined) return "send an API token: Authorization: Bearer assay_… (assay tokens create)";
  const token = await verifyToken(services.store, secret);
  if (!token) return "the API token is unknown or revoked; create one with assay tokens create";
  if (token.userId !== services.user)
    return "the API token is another user's; this server acts for one user only (its --user or start-up token)";
  if (touchDue(token, now())) await services.store.touchApiToken(token.id, new Date(now()).toISOString());
  return undefined;
}

/** Listens on `host:port` and serves MCP at `/mcp` until `close`. */
export async function listenMcpHttp(services: McpServices, options: McpHttpOptions): Promise<McpHttpServer> {
  type Session = { transport: StreamableHTTPServerTransport; close: () => Promise<void> };
  const sessions = new Map<string, Session>();
  const loopback = isLoopback(options.host);
  const now = options.now ?? Date.now;

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const path = new URL(request.url ?? "/", "http://localhost").pathname;
    if (path !== "/mcp") return refuse(response, 404, "not found: the MCP endpoint is /mcp");
    if (loopback && !hostAllowed(request)) return refuse(response, 403, "forbidden: Host or Origin is not local");
    // Every request, a session's too: a session id alone is no credential.
    if (options.auth) {
      const reason = await unauthorized(request, services, now);
      if (reason !== undefined) return refuse(response, 401, reason, CHALLENGE);
    }
    const id = request.headers["mcp-session-id"];
    if (typeof id === "string") {
      const session = sessions.get(id);
      if (!session) return refuse(response, 404, "unknown or expired session: initialize again");
      return session.transport.handleRequest(request, response);
    }
    if (request.method !== "POST") return refuse(response, 400, "no session: send an initialize request first");
    const server = buildMcpServer(services);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => {
        sessions.set(sessionId, { transport, close: () => server.close() });
      },
      onsessionclosed: (sessionId) => {
        sessions.delete(sessionId);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(request, response);
    // Not an initialize request: the transport refused it and no session was made.
    if (transport.sessionId === undefined) await server.close();
  };

  const http = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      services.log(`assay mcp: ${error instanceof Error ? error.message : String(error)}`);
      if (!response.headersSent) refuse(response, 500, "internal error");
      else response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port, options.host, () => {
      http.off("error", reject);
      resolve();
    });
  });
  const address = http.address();
  const bound = typeof address === "object" && address !== null ? address.port : options.port;
  const shown = options.host.includes(":") ? `[${options.host}]` : options.host;
  return {
    url: `http://${shown}:${bound}/mcp`,
    close: async () => {
      for (const session of sessions.values()) await session.close().catch(() => undefined);
      sessions.clear();
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
    },
  };
}
