/**
 * The web UI's sign-in sessions. Signing in with an API token starts a server-side session: a
 * random id, stored only as its SHA-256 (like the tokens), with the user, the token, an absolute
 * expiry and an idle timeout. The browser holds only the id, in an HttpOnly, SameSite=Strict
 * cookie: script cannot read it, other sites' pages cannot send it (form posts are also checked
 * by Hono's CSRF middleware, in routes.ts), and it is worth nothing once the session ends: at
 * sign-out, at its expiry, after idling, or when its token is revoked.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { ApiTokenRecord, Store, WebSessionRecord } from "../../ports/store.js";
import { hashToken } from "../http/tokens.js";

export const SESSION_COOKIE = "assay_session";

/** How long a session lasts (`createHttpApp({ sessions })`). */
export interface SessionLifetimes {
  /** From sign-in, however much it is used. */
  absoluteMs: number;
  /** Without a request (to the minute: use is written at most once a minute). */
  idleMs: number;
}

export const DEFAULT_SESSION_LIFETIMES: SessionLifetimes = { absoluteMs: 12 * 3_600_000, idleMs: 2 * 3_600_000 };

/** A session id as `newSessionId` makes them; anything else is not looked up. */
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

/** A new session id: 32 random bytes, base64url (43 characters). */
export function newSessionId(): string {
  return randomBytes(32).toString("base64url");
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** Whether a session has ended at `nowMs`: at or past its expiry, or unused for its idle timeout. Pure. */
export function sessionEnded(session: WebSessionRecord, nowMs: number): boolean {
  const expires = Date.parse(session.expiresAt);
  const lastUsed = Date.parse(session.lastUsedAt);
  if (Number.isNaN(expires) || Number.isNaN(lastUsed)) return true;
  return nowMs >= expires || nowMs - lastUsed >= session.idleTimeoutMs;
}

/**
 * Starts a session for the user of `token` (a valid one): the stored record (the id's hash) and
 * the id, which is stored nowhere. Deletes the sessions past their expiry first.
 */
export async function createSession(
  store: Store,
  token: ApiTokenRecord,
  options: { lifetimes: SessionLifetimes; nowMs: number },
): Promise<{ session: WebSessionRecord; id: string }> {
  const { lifetimes, nowMs } = options;
  await store.pruneWebSessions(iso(nowMs));
  const id = newSessionId();
  const session = await store.createWebSession({
    hash: hashToken(id),
    userId: token.userId,
    tokenId: token.id,
    createdAt: iso(nowMs),
    expiresAt: iso(nowMs + lifetimes.absoluteMs),
    idleTimeoutMs: lifetimes.idleMs,
  });
  return { session, id };
}

/**
 * The live session an id belongs to, or undefined: malformed, unknown, signed out, its token
 * revoked, or ended (an ended session is deleted). The looked-up hash is compared again in
 * constant time.
 */
export async function verifySession(store: Store, id: string, nowMs: number): Promise<WebSessionRecord | undefined> {
  if (!SESSION_ID.test(id)) return undefined;
  const hash = hashToken(id);
  const session = await store.findWebSession(hash);
  if (!session) return undefined;
  const stored = Buffer.from(session.hash, "hex");
  const given = Buffer.from(hash, "hex");
  if (stored.length !== given.length || !timingSafeEqual(stored, given)) return undefined;
  if (sessionEnded(session, nowMs)) {
    await store.deleteWebSession(hash);
    return undefined;
  }
  return session;
}

/** Ends the session an id belongs to (sign-out), if there is one. */
export async function endSession(store: Store, id: string): Promise<void> {
  if (SESSION_ID.test(id)) await store.deleteWebSession(hashToken(id));
}

/** The session id in the browser's cookie, if it sent one. */
export function sessionCookie(c: Context): string | undefined {
  const value = getCookie(c, SESSION_COOKIE);
  return value === undefined || value === "" ? undefined : value;
}

const isHttps = (c: Context): boolean =>
  new URL(c.req.url).protocol === "https:" || (c.req.header("X-Forwarded-Proto") ?? "").toLowerCase() === "https";

/** Gives the browser the session id: for this site only, never to script, over HTTPS only when served so. */
export function setSessionCookie(c: Context, id: string): void {
  setCookie(c, SESSION_COOKIE, id, { httpOnly: true, sameSite: "Strict", path: "/", secure: isHttps(c) });
}

export function clearSessionCookie(c: Context): void {
  deleteCookie(c, SESSION_COOKIE, { path: "/", secure: isHttps(c) });
}

/** A local path to return to after signing in (`/runs/3`), never another site (`//evil`, `https://…`). */
export function localPath(value: string | undefined): string {
  if (value === undefined || !/^\/(?![/\\])[\w\-./?=&%]*$/.test(value)) return "/";
  return value;
}
