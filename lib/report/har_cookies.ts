/**
 * The cookies of a HAR entry: a request's from its `Cookie` headers, a
 * response's from its `Set-Cookie` lines with their attributes, as HAR 1.2
 * lists them.
 *
 * @module
 */

/** A HAR cookie. */
export interface HarCookie {
  name: string;
  value: string;
  path?: string;
  domain?: string;
  expires?: string;
  httpOnly?: boolean;
  secure?: boolean;
  sameSite?: string;
}

/**
 * The cookies a request sent, from its `Cookie` headers.
 *
 * @example
 * ```ts
 * import { requestCookies } from "./har_cookies.ts";
 * const cookies = requestCookies([["Cookie", "sid=1; theme=dark"], ["accept", "*"]]);
 * if (cookies.map((c) => `${c.name}=${c.value}`).join() !== "sid=1,theme=dark") throw new Error();
 * ```
 */
export function requestCookies(headers: [string, string][]): HarCookie[] {
  const cookies: HarCookie[] = [];
  for (const [name, value] of headers) {
    if (name.toLowerCase() !== "cookie") continue;
    for (const part of value.split(";")) {
      const pair = splitPair(part);
      if (pair) cookies.push(pair);
    }
  }
  return cookies;
}

/**
 * The cookies a response set, one per `Set-Cookie` line.
 *
 * @example
 * ```ts
 * import { responseCookies } from "./har_cookies.ts";
 * const [c] = responseCookies(["sid=s-1; Path=/; HttpOnly; SameSite=Lax"]);
 * if (c.name !== "sid" || c.path !== "/" || !c.httpOnly || c.sameSite !== "Lax") throw new Error();
 * ```
 */
export function responseCookies(lines: string[]): HarCookie[] {
  const cookies: HarCookie[] = [];
  for (const line of lines) {
    const [first, ...attributes] = line.split(";");
    const cookie = splitPair(first);
    if (!cookie) continue;
    for (const attribute of attributes) addAttribute(cookie, attribute);
    cookies.push(cookie);
  }
  return cookies;
}

function splitPair(part: string): HarCookie | undefined {
  const eq = part.indexOf("=");
  if (eq <= 0) return undefined;
  return { name: part.slice(0, eq).trim(), value: part.slice(eq + 1).trim() };
}

function addAttribute(cookie: HarCookie, attribute: string): void {
  const eq = attribute.indexOf("=");
  const key = (eq < 0 ? attribute : attribute.slice(0, eq)).trim().toLowerCase();
  const value = eq < 0 ? "" : attribute.slice(eq + 1).trim();
  if (key === "path") cookie.path = value;
  else if (key === "domain") cookie.domain = value;
  else if (key === "httponly") cookie.httpOnly = true;
  else if (key === "secure") cookie.secure = true;
  else if (key === "samesite") cookie.sameSite = value;
  else if (key === "expires" && !Number.isNaN(Date.parse(value))) {
    cookie.expires = new Date(value).toISOString();
  }
}
