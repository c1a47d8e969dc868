import type { Context, MiddlewareHandler } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { findApiKey } from "../api/auth";
import type { AppEnv } from "../api/env";
import type { ApiKey } from "../config";

export const UI_PATH = "/ui";
const COOKIE = "memstream_ui_key";

/**
 * The page's API key, entered once on /ui/login and kept in an HttpOnly, SameSite=Strict cookie
 * scoped to /ui, so every page is checked against the same keys and agent prefixes as /v1.
 * Without a valid cookie a page redirects to the login form (no keys configured: open, as /v1).
 */
export function requireUiKey(keys: ApiKey[]): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const key = findApiKey(keys, getCookie(c, COOKIE));
    if (!key) {
      const back = encodeURIComponent(c.req.path + (new URL(c.req.url).search || ""));
      return c.redirect(`${UI_PATH}/login?next=${back}`, 303);
    }
    c.set("apiKey", key);
    return next();
  };
}

/** Stores the key for later pages when it is one of the server's; false otherwise. */
export function signIn(c: Context, keys: ApiKey[], token: string): boolean {
  if (!findApiKey(keys, token)) return false;
  setCookie(c, COOKIE, token, {
    path: UI_PATH,
    httpOnly: true,
    sameSite: "Strict",
    secure: new URL(c.req.url).protocol === "https:",
  });
  return true;
}

export function signOut(c: Context) {
  deleteCookie(c, COOKIE, { path: UI_PATH });
}

// Control characters (CR/LF would split the Location header: a 500 before) and backslashes
// (browsers read `/ui/\\evil` oddly) never make a path to go back to.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
const UNSAFE = /[\u0000-\u001f\u007f\\]/;

/** Where to go after login: a path inside /ui only (never an open redirect), else /ui. */
export function safeNext(next: string | undefined): string {
  if (next === undefined || UNSAFE.test(next)) return UI_PATH;
  return next.startsWith(`${UI_PATH}/`) || next === UI_PATH ? next : UI_PATH;
}
