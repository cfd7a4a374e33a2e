/**
 * The web UI's sign-in: the browser holds the user's API token in an HttpOnly, SameSite=Strict
 * cookie: script cannot read it and other sites' pages cannot send it (form posts are also
 * checked by Hono's CSRF middleware, in routes.ts).
 */
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";

export const SESSION_COOKIE = "assay_session";

/** The token of the browser's session, if it has one. */
export function sessionToken(c: Context): string | undefined {
  const value = getCookie(c, SESSION_COOKIE);
  return value === undefined || value === "" ? undefined : value;
}

const isHttps = (c: Context): boolean =>
  new URL(c.req.url).protocol === "https:" || (c.req.header("X-Forwarded-Proto") ?? "").toLowerCase() === "https";

export function startSession(c: Context, token: string): void {
  setCookie(c, SESSION_COOKIE, token, { httpOnly: true, sameSite: "Strict", path: "/", secure: isHttps(c) });
}

export function endSession(c: Context): void {
  deleteCookie(c, SESSION_COOKIE, { path: "/", secure: isHttps(c) });
}

/** A local path to return to after signing in (`/runs/3`), never another site (`//evil`, `https://…`). */
export function localPath(value: string | undefined): string {
  if (value === undefined || !/^\/(?![/\\])[\w\-./?=&%]*$/.test(value)) return "/";
  return value;
}
