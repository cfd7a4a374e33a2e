/**
 * The web UI's page frame (pure): a skip link, the navigation, the signed-in user, one
 * stylesheet and one script from this server, and the strict policy the pages are served with.
 */
import { escapeHtml } from "../../core/render/html.js";

/** Only this server's own script and stylesheet; no inline script or style, no other origin, no framing. */
export const UI_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join("; ");

export interface PageFrame {
  title: string;
  /** The signed-in user; no navigation without one (the sign-in page). */
  user?: string;
  /** Which navigation entry is current. */
  current?: "runs" | "new";
  body: string;
}

export function page(frame: PageFrame): string {
  const link = (href: string, label: string, key: PageFrame["current"]) =>
    `<a href="${href}"${frame.current === key ? ' aria-current="page"' : ""}>${label}</a>`;
  const nav =
    frame.user === undefined
      ? ""
      : `<nav aria-label="Main">${link("/", "Runs", "runs")}${link("/runs/new", "New research", "new")}</nav>` +
        `<form class="signout" method="post" action="/logout"><span class="user">${escapeHtml(frame.user)}</span> <button type="submit" class="link">Sign out</button></form>`;
  return [
    "<!DOCTYPE html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    `<title>${escapeHtml(frame.title)} · Assay</title>`,
    '<link rel="icon" href="/ui/icon.svg" type="image/svg+xml">',
    '<link rel="stylesheet" href="/ui/app.css">',
    '<script src="/ui/app.js" defer></script>',
    "</head>",
    "<body>",
    '<a class="skip" href="#main">Skip to content</a>',
    `<header class="top"><a class="brand" href="/">Assay</a>${nav}</header>`,
    `<main id="main" tabindex="-1">${frame.body}</main>`,
    "</body>",
    "</html>",
    "",
  ].join("\n");
}
